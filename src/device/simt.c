/* SIMT reconvergence: a warp issues for the group of runnable lanes that
 * are deepest in calls and, among those, share the lowest PC in issue
 * order (ws_issue_key: address order, or the module's blocks sorted
 * topologically where the compiler placed them otherwise). Lanes that
 * diverge rejoin when their PCs meet again; lanes that diverged inside a
 * called function all return from it before the caller goes on, so warp
 * votes and shuffles after a call see every lane that made it (a
 * soft-float or libm call branches on its arguments). A starvation guard
 * lets the next group run after a group has taken WS_STARVE_LIMIT loop
 * turns while others waited, so spin locks and producer/consumer loops
 * between lanes of one warp make progress. It counts loop turns (taken
 * branches and non-linking jumps to a lower address), not instructions,
 * so code inserted without loops (the tracer's instrumentation) does not
 * move its decisions. */
#include "device/device.h"
#include "device/events/event_bus.h"

#define STICKY_TURNS 64u /* loop turns of the group the guard picks */

void ws_simt_leave_group(ws_warp *w)
{
    for (uint32_t m = w->group; m; m &= m - 1)
        w->pc[__builtin_ctz(m)] = w->group_pc;
    w->group = 0;
}

/* A debug halt between two instructions of a group must not change what
 * the warp runs next: without a debugger the group would go on, with what
 * is left of a guard's turn or a hold hint. So the halt writes the lanes'
 * pc back (the debugger reads and may change them) and remembers the
 * group, which ws_simt_select resumes if the debugger left it as it was.
 * (Until 2026-11-28 the halt ended the group: a spin lock's holder, let on
 * by the guard for STICKY_TURNS loop turns, got one instruction per guard
 * turn in a stepped warp.) */
void ws_simt_park_group(ws_warp *w)
{
    if (!w->group) return;
    w->parked = w->group;
    ws_simt_leave_group(w);
}

/* The PC, among runnable lanes, whose issue key (ws_issue_key) is the
 * lowest strictly above `above`; its key in *key (UINT32_MAX, both: none). */
static uint32_t next_pc_above(const ws_device *dev, const ws_warp *w, uint32_t runnable, uint32_t above,
                              uint32_t *key)
{
    uint32_t best = UINT32_MAX;
    *key = UINT32_MAX;
    if (runnable == UINT32_MAX) { /* a whole 32-lane warp: loops that vectorise */
        uint32_t diff = 0; /* usually at one PC (the min below does not vectorise without SSE4.1) */
        for (int l = 0; l < 32; l++) diff |= w->pc[l] ^ w->pc[0];
        if (!diff) {
            const uint32_t k = ws_issue_key(dev, w->pc[0]);
            if (k <= above) return UINT32_MAX;
            *key = k;
            return w->pc[0];
        }
        if (!dev->nordered) {
            for (int l = 0; l < 32; l++) {
                uint32_t pc = w->pc[l];
                best = pc > above && pc < best ? pc : best;
            }
            *key = best;
            return best;
        }
    }
    /* the lanes are mostly in one module: its key table read directly */
    const ws_code_region *r = ws_issue_region(dev, w->pc[__builtin_ctz(runnable)]);
    const uint32_t lo = r && r->order ? r->text_lo : 0, span = r && r->order ? r->text_hi - r->text_lo : 0;
    uint32_t best_key = UINT32_MAX;
    for (uint32_t m = runnable; m; m &= m - 1) {
        const uint32_t pc = w->pc[__builtin_ctz(m)];
        const uint32_t k = pc - lo < span ? r->order[(pc - lo) / 2] : ws_issue_key(dev, pc);
        if (k > above && k < best_key) best_key = k, best = pc;
    }
    *key = best_key;
    return best;
}

static uint32_t lanes_at(const ws_warp *w, uint32_t runnable, uint32_t pc)
{
    uint32_t g = 0;
    if (runnable == UINT32_MAX) { /* a whole 32-lane warp, often at one PC */
        uint32_t diff = 0;
        for (int l = 0; l < 32; l++) diff |= w->pc[l] ^ pc;
        if (!diff) return runnable;
    }
    for (uint32_t m = runnable; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        if (w->pc[l] == pc) g |= 1u << l;
    }
    return g;
}

/* The deepest call depth among lanes m (m != 0). */
static int16_t deepest(const ws_warp *w, uint32_t m)
{
    int16_t d = INT16_MIN;
    for (; m; m &= m - 1) {
        int16_t l = w->depth[__builtin_ctz(m)];
        d = l > d ? l : d;
    }
    return d;
}

/* Lanes of m at call depth d. */
static uint32_t lanes_at_depth(const ws_warp *w, uint32_t m, int16_t d)
{
    uint32_t r = 0;
    for (; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        if (w->depth[l] == d) r |= 1u << l;
    }
    return r;
}

/* Lanes of m that are all at one depth (the usual case: no lane is in a
 * call the others are not in) need no sorting by depth. */
static int one_depth(const ws_warp *w, uint32_t m)
{
    if (!w->depth_split) return 1;
    const int16_t d = w->depth[__builtin_ctz(m)];
    uint32_t diff = 0;
    if (m == UINT32_MAX) { /* a whole 32-lane warp: a loop that vectorises */
        for (int l = 0; l < 32; l++) diff |= (uint32_t)(uint16_t)(w->depth[l] ^ d);
        return !diff;
    }
    for (; m; m &= m - 1) diff |= (uint32_t)(uint16_t)(w->depth[__builtin_ctz(m)] ^ d);
    return !diff;
}

/* Where the group yields to the other runnable lanes: the lowest issue
 * key of those at its depth (UINT32_MAX if none), or 0 (at once) if any
 * is deeper; has_others says whether there are any. */
static inline void set_threshold(const ws_device *dev, ws_warp *w, uint32_t runnable)
{
    const uint32_t others = runnable & ~w->group;
    w->has_others = others != 0;
    w->other_min_pc = UINT32_MAX;
    if (!others) return;
    uint32_t same = others;
    if (!one_depth(w, runnable)) {
        if (deepest(w, others) > w->group_depth) { w->other_min_pc = 0; return; }
        same = lanes_at_depth(w, others, w->group_depth);
    }
    if (!same) return;
    uint32_t k;
    next_pc_above(dev, w, same, w->other_floor, &k); /* (lanes held at a header below the floor wait) */
    if (k == UINT32_MAX && !w->other_floor) k = 0;
    w->other_min_pc = k < w->loop_cap ? k : w->loop_cap;
}

static uint32_t runnable_lanes(const ws_warp *w)
{
    uint32_t runnable = w->live & ~w->waiting;
    if (runnable & ~w->step_exclude) runnable &= ~w->step_exclude; /* a debugger steps some lanes only */
    return runnable;
}

/* The parked group, if every lane of it can still run and is where the
 * halt left it (0: pick afresh). */
static uint32_t parked_group(ws_warp *w, uint32_t runnable, uint32_t pc, int16_t depth)
{
    const uint32_t g = w->parked;
    w->parked = 0;
    if (!g || (g & ~runnable) || lanes_at(w, g, pc) != g || lanes_at_depth(w, g, depth) != g) return 0;
    return g;
}

/* Is the instruction at pc a warp vote or shuffle? The starvation
 * guard's group does not run one: the lanes it left behind would not be
 * in it (a ballot after a loop of per-lane trip count missed the lanes
 * still looping after 256 turns; until 2026-11-29). */
int ws_simt_collective_at(ws_device *dev, ws_warp *w, uint32_t pc)
{
    const ws_inst *in = pc == WS_RETIRE_ADDR ? NULL : ws_warp_fetch(dev, w, pc);
    return in && ws_op_collective((ws_op)in->op);
}

int ws_simt_select(ws_device *dev, ws_warp *w)
{
    uint32_t prev_pc = w->group_pc; /* kept by ws_simt_leave_group */
    const int16_t prev_depth = w->group_depth;
    if (w->group) ws_simt_leave_group(w);
    const uint32_t runnable = runnable_lanes(w);
    if (!runnable) return 0;
    if (w->parked) {
        const uint32_t g = parked_group(w, runnable, prev_pc, prev_depth);
        if (g) { /* it goes on as if never halted: its sticky and held_to stay */
            w->group = g;
            set_threshold(dev, w, runnable);
            return 1;
        }
    }

    /* Deepest first, then lowest issue key (the lowest PC, unless the
     * module's blocks are out of order). */
    const int uniform = one_depth(w, runnable);
    if (uniform && runnable == w->live) w->depth_split = 0; /* every live lane at one depth again */
    int16_t depth = w->depth[__builtin_ctz(runnable)];
    uint32_t level = runnable;
    if (!uniform) {
        depth = deepest(w, runnable);
        level = lanes_at_depth(w, runnable, depth);
    }
    uint32_t key;
    uint32_t lowest = next_pc_above(dev, w, level, 0, &key);
    if (lowest == UINT32_MAX) lowest = 0; /* only reachable if a PC is 0 */
    uint32_t pc = lowest;
    /* Held headers: lanes at a loop's header (a `continue`, a second back
     * edge) wait while other lanes of the level are still inside that
     * loop, which issue order keeps together after it; the innermost
     * such loop's lanes go first, and yield at its header or its end.
     * Without this the header's lanes ran the next iteration's head, a
     * vote there, without them (as by address). */
    uint32_t floor = 0, cap = UINT32_MAX;
    for (int nest = 0; dev->nordered && nest < 16; nest++) {
        const uint32_t end = ws_issue_loop_end(dev, pc);
        uint32_t inner_key;
        const uint32_t inner = end ? next_pc_above(dev, w, level, key, &inner_key) : UINT32_MAX;
        if (inner == UINT32_MAX || inner_key >= end) break;
        floor = key, cap = end, pc = inner, key = inner_key;
    }
    w->sticky = 0; /* a guard's turn ends with its group (it diverged, waits or exited) */
    w->held_to = 0; /* so does a hold hint's */
    if (w->starve >= WS_STARVE_LIMIT) {
        /* Guard: give the group after the starving one a turn (the next
         * PC at its depth, else the deepest level below it), unless it
         * waits at a vote or shuffle: then the starving one goes on. */
        const uint32_t keep_pc = pc, keep_level = level;
        const int16_t keep_depth = depth;
        const uint32_t same = uniform ? runnable : lanes_at_depth(w, runnable, prev_depth);
        uint32_t next = same ? next_pc_above(dev, w, same, ws_issue_key(dev, prev_pc), &key) : UINT32_MAX;
        if (next != UINT32_MAX) {
            pc = next, depth = prev_depth, level = same;
        } else if (!uniform) {
            uint32_t below = 0;
            for (uint32_t m = runnable; m; m &= m - 1)
                if (w->depth[__builtin_ctz(m)] < prev_depth) below |= 1u << __builtin_ctz(m);
            if (below) {
                depth = deepest(w, below);
                level = lanes_at_depth(w, below, depth);
                pc = next_pc_above(dev, w, level, 0, &key);
            }
        }
        if (pc != keep_pc && ws_simt_collective_at(dev, w, pc)) pc = keep_pc, depth = keep_depth, level = keep_level;
        else w->sticky = STICKY_TURNS, floor = 0, cap = UINT32_MAX;
        w->starve = 0;
    }
    w->group = lanes_at(w, level, pc);
    if (pc == 0 && !w->group) w->group = lanes_at(w, level, 0);
    w->group_pc = pc;
    w->group_depth = depth;
    w->other_floor = floor;
    w->loop_cap = cap;
    set_threshold(dev, w, runnable);
    if (!w->has_others) {
        w->starve = 0;
        if (w->diverged) { /* every runnable lane at one PC again */
            w->diverged = 0;
            ws_ev_emit(dev, WS_EV_SCHED, WS_EV_SCHED_RECONVERGE, w->core, w->slot | pc << 8);
        }
    }
    return 1;
}

void ws_simt_call_depth(const ws_device *dev, ws_warp *w, int delta)
{
    if (w->group == UINT32_MAX) /* a whole 32-lane warp (vectorises) */
        for (int l = 0; l < 32; l++) w->depth[l] = (int16_t)(w->depth[l] + delta);
    else
        for (uint32_t m = w->group; m; m &= m - 1) w->depth[__builtin_ctz(m)] += (int16_t)delta;
    w->group_depth += (int16_t)delta;
    if (w->group != w->live) w->depth_split = 1;
    if (w->has_others) set_threshold(dev, w, runnable_lanes(w));
}

static void barrier_check(ws_device *dev, ws_block *b);

void ws_simt_tell_retire(ws_device *dev, ws_warp *w)
{
    if (w->retire_told) return;
    w->retire_told = 1;
    ws_ev_emit(dev, WS_EV_SCHED, WS_EV_SCHED_WARP_RETIRE, w->core, (uint32_t)(w - dev->cores[w->core].warps));
}

void ws_simt_retire(ws_device *dev, ws_warp *w, uint32_t lanes)
{
    lanes &= w->live;
    if (!lanes) return;
    w->live &= ~lanes;
    w->group &= ~lanes;
    w->resv_valid &= ~lanes;
    ws_block *b = w->block;
    b->live_lanes -= ws_lane_count(lanes);
    if (!w->live) ws_simt_tell_retire(dev, w);
    /* Exited lanes no longer count towards a barrier. */
    barrier_check(dev, b);
}

void ws_simt_barrier_arrive(ws_device *dev, ws_warp *w, uint32_t lanes, uint32_t id)
{
    ws_block *b = w->block;
    id %= WS_MAX_BARRIERS;
    for (uint32_t m = lanes; m; m &= m - 1)
        w->bar_id[__builtin_ctz(m)] = (uint8_t)id;
    w->waiting |= lanes;
    b->arrived[id] += ws_lane_count(lanes);
    b->arrivals |= 1u << id;
    ws_ev_emit(dev, WS_EV_SCHED, WS_EV_SCHED_BARRIER_WAIT, b->core,
               (uint32_t)(w - dev->cores[b->core].warps) | id << 8 | ((uint32_t)b->linear & 0xFFFFu) << 16);
    barrier_check(dev, b);
}

/* Release barrier `id` of block b once every live lane waits there (only
 * barriers some lane waits at are looked at: this runs at every retire). */
static void barrier_check(ws_device *dev, ws_block *b)
{
    for (uint32_t ids = b->arrivals; ids; ids &= ids - 1) {
        const uint32_t id = (uint32_t)__builtin_ctz(ids);
        if (b->arrived[id] < b->live_lanes) continue;
        b->arrived[id] = 0;
        b->arrivals &= ~(1u << id);
        ws_ev_emit(dev, WS_EV_SCHED, WS_EV_SCHED_BARRIER_RELEASE, b->core, id | (uint32_t)b->linear << 8);
        ws_core *core = &dev->cores[b->core];
        for (uint32_t i = 0; i < b->nwarps; i++) {
            ws_warp *w = &core->warps[b->first_slot + i];
            uint32_t release = 0;
            for (uint32_t m = w->waiting; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                if (w->bar_id[l] == id) release |= 1u << l;
            }
            w->waiting &= ~release;
        }
    }
}
