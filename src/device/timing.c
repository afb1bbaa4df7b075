/* The timing model's cycle loop. Every cycle, on every core: each resident
 * warp is classified into exactly one state (warp_state.h; the rules are in
 * docs/timing.md), each scheduler issues at most one eligible warp, and the
 * issued instruction executes at once in the functional interpreter while
 * the model records when its result becomes ready. Cycles in which nothing
 * can issue are skipped in one step (all states are constant until the
 * earliest pending completion), which keeps memory-bound kernels cheap.
 * The loop gives the results of classifying every warp every cycle without
 * doing so: a warp is looked at only when its state may change (its
 * `until`, or a possible barrier release on its core; see tcore), and its
 * per-state cycles are counted in bulk (charge). After an issue the warp
 * may run ahead through the looks only it decides (timing_ahead.h). */
#include <stdlib.h>
#include <string.h>
#include "device/timing_model.h"
#include "device/timing_ahead.h"
#include "device/parallel.h"
#include "device/events/event_bus.h"
#include "device/trace/trace_cell_hw.h"
#include "device/debug/debug_hooks.h"


const ws_timing_params *ws_timing_params_of(const ws_device *dev)
{
    return dev->timing ? &dev->timing->p : NULL;
}

uint64_t ws_timing_parallel_from(const ws_device *dev)
{
    return dev->timing ? dev->timing->parallel_from : NEVER;
}

ws_status ws_timing_create(ws_device *dev)
{
    const ws_config *c = &dev->cfg;
    ws_timing *T = calloc(1, sizeof *T);
    if (!T) return WS_ERR_OUT_OF_MEMORY;
    char err[300];
    if (ws_timing_params_load(&T->p, c->timing_file, err, sizeof err)) {
        free(T);
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s", err);
    }
    /* run ahead unless the environment turns it off (to compare: the
     * results are the same either way) */
    const char *ahead = getenv("WARPSCOPE_TIMING_AHEAD");
    T->ahead_allowed = !ahead || strcmp(ahead, "0") != 0;
    T->parallel_from = NEVER;
    T->ncores = c->cores;
    T->nwarps = c->warps_per_core;
    T->nsched = T->p.schedulers < c->warps_per_core ? T->p.schedulers : c->warps_per_core;
    size_t nw = (size_t)c->cores * c->warps_per_core, ns = (size_t)c->cores * T->nsched;
    T->w = calloc(nw, sizeof *T->w);
    T->unit_free = calloc(ns * WS_UNIT_COUNT, sizeof *T->unit_free);
    T->cs = aligned_alloc(_Alignof(tcore), c->cores * sizeof *T->cs); /* cache-line aligned: see tcore */
    if (T->cs) memset(T->cs, 0, c->cores * sizeof *T->cs);
    T->last_release = calloc(c->cores, sizeof *T->last_release);
    T->opc = calloc((size_t)c->cores * OPC_SIZE, sizeof *T->opc);
    dev->timing = T;
    if (!T->w || !T->unit_free || !T->cs ||
        !T->last_release || !T->opc) {
        ws_timing_destroy(dev);
        return WS_ERR_OUT_OF_MEMORY;
    }
    return WS_OK;
}

void ws_timing_destroy(ws_device *dev)
{
    ws_timing *T = dev->timing;
    if (!T) return;
    free(T->w);
    free(T->unit_free);
    free(T->cs);
    free(T->last_release);
    free(T->opc);
    free(T);
    dev->timing = NULL;
}

int ws_timing_last_counters(const ws_device *dev, ws_timing_counters *out)
{
    if (!dev->timing || !dev->timing->have_ctr) return -1;
    *out = dev->timing->ctr;
    return 0;
}



/* The earliest cycle after t the core's schedule holds. */
static inline uint64_t schedule_next(const tcore *k, uint64_t t)
{
    uint64_t next = k->far_min;
    if (k->occ) {
        const unsigned r = (unsigned)((t + 1) & 63);
        const uint64_t rot = r ? k->occ >> r | k->occ << (64 - r) : k->occ;
        const uint64_t w = t + 1 + (uint64_t)__builtin_ctzll(rot);
        if (w < next) next = w;
    }
    return next;
}

static void warp_start(ws_timing *T, twarp *x, uint64_t t)
{
    memset(x, 0, offsetof(twarp, log)); /* (nlog = 0: the log itself needs no clearing) */
    x->resident = 1;
    x->since = t;
    x->age = T->age_next++;
    x->seq_pc = UINT32_MAX; /* the first instruction is fetched */
}

/* Newly dispatched warps become resident from cycle t. */
static void adopt_new_warps_on(ws_device *dev, ws_timing *T, uint64_t t, const uint8_t *only)
{
    for (uint32_t c = 0; c < T->ncores; c++)
        for (uint32_t s = 0; s < T->nwarps && (!only || only[c]); s++) {
            ws_warp *w = &dev->cores[c].warps[s];
            twarp *x = &T->w[c * T->nwarps + s];
            if (w->active && w->live && !x->resident) {
                warp_start(T, x, t);
                schedule(&T->cs[c], x, s, t, t);
                T->cs[c].next = t;
            }
        }
}

static void adopt_new_warps(ws_device *dev, ws_timing *T, uint64_t t) { adopt_new_warps_on(dev, T, t, NULL); }

/* The PC the warp issues at next: its group's, or the one simt.c's
 * select will pick (deepest in calls, then lowest). */
static uint32_t next_pc(const ws_warp *w)
{
    if (w->group) return w->group_pc;
    uint32_t r = w->live & ~w->waiting, best = UINT32_MAX;
    int16_t depth = INT16_MIN;
    if (!r) r = w->live;
    for (uint32_t m = r; m; m &= m - 1) {
        const int l = __builtin_ctz(m);
        const uint32_t pc = w->pc[l];
        if (w->depth[l] > depth || (w->depth[l] == depth && pc < best)) best = pc, depth = w->depth[l];
    }
    return r ? best : w->group_pc;
}


/* A warp leaves its core: its waiting cycles go to the instruction it
 * waited to issue; one that ran to its end counts for the store or
 * atomic its exit drain waited for last. */
static void flush_leaving(ws_pc_counters *p, twarp *x, const ws_warp *w)
{
    if (!p) return;
    flush_stalls(p, x, x->peeked ? x->pc : next_pc(w));
    if (!w->live && x->drain_pc) ws_pcc_at(p, x->drain_pc)->exit_drains++;
}



/* The resident warps of core c from slot `from` on that wait at a barrier. */
static uint64_t barrier_waiters(const ws_timing *T, uint32_t c, uint32_t from)
{
    const twarp *xs = &T->w[c * T->nwarps];
    uint64_t m = 0;
    for (uint32_t s = from; s < T->nwarps; s++)
        m |= (uint64_t)(xs[s].resident && xs[s].state == WS_STATE_BARRIER) << s;
    return m;
}


/* Classify warp w for cycle t (x->state, x->until). Returns -1 on a fault
 * raised while retiring lanes, else 0. Inlined into its one caller: the
 * call cost a fifth of it (about 25 host instructions per look). */
static inline __attribute__((always_inline)) int eval(ws_device *dev, ws_timing *T, ws_warp *w, twarp *x,
                                                    uint32_t c, uint32_t sched, uint64_t t)
{
    const ws_timing_params *P = &T->p;
    x->producer_pc = 0;
    for (;;) {
        /* Exited: resident (draining) until its stores complete; the
         * block is released at the end of the last draining cycle. */
        if (!w->live) { x->state = WS_STATE_DRAIN; x->until = x->store_done ? x->store_done - 1 : 0; return 0; }
        if (!(w->live & ~w->waiting)) { x->state = WS_STATE_BARRIER; x->until = NEVER; return 0; }
        if (x->membar_until > t) { x->state = WS_STATE_MEMBAR; x->until = x->membar_until; return 0; }
        if (x->fetch_ready > t) { x->state = x->fetch_state; x->until = x->fetch_ready; return 0; }
        if (x->peeked) break;
        if (!ws_warp_peek(dev, w, &x->in, &x->pc, &x->group)) continue; /* re-check above */
        if (x->pc == WS_RETIRE_ADDR) { /* the lanes returned: they retire, no issue slot */
            uint32_t n;
            ws_warp_result r = ws_warp_run(dev, w, 1, &n);
            if (dev->debug) r = ws_dbg_warp_done(dev, w, r);
            if (r == WARP_FAULT) return -1;
            T->cs[c].bar_dirty = 1; /* exited lanes no longer hold a barrier back */
            if (r == WARP_HALT) { /* a debugger's trigger at the exit stopped it first */
                x->state = WS_STATE_MISC;
                x->until = NEVER;
                x->producer_pc = 0;
                return 0;
            }
            continue;
        }
        if (x->in) op_timing(T, c, x->pc, x->in, &x->op);
        else memset(&x->op, 0, sizeof x->op); /* the fetch faults at issue */
        note_peeked(dev, T, w, x, t);
    }
    const ws_op_timing *o = &x->op;
    if (x->sb_ready > t) {
        x->state = x->sb_kind;
        x->producer_pc = x->sb_producer;
        x->until = x->sb_ready;
        return 0;
    }
    if (o->unit == WS_UNIT_MIO) {
        if (T->cs[c].mio_free > t + P->mio_queue) {
            x->state = WS_STATE_MIO_THROTTLE;
            x->until = T->cs[c].mio_free - P->mio_queue;
            return 0;
        }
    } else if (o->unit == WS_UNIT_LSU) {
        if (T->cs[c].lsu_free > t + P->lg_queue) {
            x->state = WS_STATE_LG_THROTTLE;
            x->until = T->cs[c].lsu_free - P->lg_queue;
            return 0;
        }
    } else {
        uint64_t f = T->unit_free[((size_t)c * T->nsched + sched) * WS_UNIT_COUNT + o->unit];
        if (f > t) { x->state = WS_STATE_MATH_PIPE_THROTTLE; x->until = f; return 0; }
    }
    x->state = WS_STATE_NOT_SELECTED;
    x->until = t + 1;
    return 0;
}


/* Issue warp w's peeked instruction at cycle t: model it, then execute it. */
static inline __attribute__((always_inline)) int issue(ws_device *dev, ws_timing *T, ws_warp *w, twarp *x,
                                                     uint32_t c, uint32_t sched, uint64_t t)
{
    const ws_timing_params *P = &T->p;
    const ws_inst *in = x->in;
    const ws_op_timing *o = &x->op;
    ws_timing_counters *K = &T->cs[c].ctr;
    struct ws_trace_cells *tc = dev->trace && dev->trace->armed ? dev->trace : NULL;
    ws_pc_counter *pe = ws_pcc_at(dev->pcc, x->pc);
    uint64_t ready = t;
    uint8_t kind = WS_STATE_WAIT;
    if (pe) count_issue(dev->pcc, pe, x, in ? ws_lane_count(x->group) : 0);
    if (in) {
        if (o->mem) {
            const uint32_t *base = w->x[in->rs1], imm = (uint32_t)in->imm;
            int region = region_of(base[__builtin_ctz(x->group)] + imm);
            if (region == REG_SHARED) {
                uint32_t passes = ws_timing_bank_passes(base, imm, x->group, dev->full_mask, dev->cfg.lanes_per_warp,
                                                        o->mem == 2);
                T->cs[c].mio_free = max64(T->cs[c].mio_free, t) + passes;
                ready = T->cs[c].mio_free + P->latency[WS_UNIT_MIO];
                K->shared_requests++;
                K->shared_bank_conflicts += passes - 1;
                if (pe) pe->shared_requests++, pe->shared_wavefronts += passes;
                K->unit_busy[WS_UNIT_MIO] += passes;
                kind = WS_STATE_SHORT_SCOREBOARD;
            } else {
                uint32_t n = ws_timing_sectors(dev, w, base, imm, x->group, region == REG_LOCAL);
                /* an atomic's lanes on one word take turns at the port */
                uint32_t turns = o->mem == 2 && region == REG_GLOBAL ? ws_timing_word_turns(base, imm, x->group) : 1;
                uint64_t busy = (uint64_t)(n > turns ? n : turns) * P->sector_cycles;
                T->cs[c].lsu_free = max64(T->cs[c].lsu_free, t) + busy;
                ready = T->cs[c].lsu_free + P->latency[WS_UNIT_LSU];
                K->gmem_requests++;
                K->gmem_sectors += n;
                if (pe) pe->gmem_requests++, pe->gmem_sectors += n, pe->local_requests += region == REG_LOCAL;
                K->unit_busy[WS_UNIT_LSU] += busy;
                kind = WS_STATE_LONG_SCOREBOARD;
                if (tc && ws_trace_event(tc, c, t, WS_TRACE_ON_GMEM_REQ)) T->cs[c].pending++;
            }
            /* Stores and atomics write memory: the warp drains until they complete. */
            if (!o->dst || o->mem == 2) {
                if (pe && ready >= x->store_done) x->drain_pc = x->pc; /* (the later one on a tie) */
                x->store_done = max64(x->store_done, ready);
            }
            x->mem_done = max64(x->mem_done, ready);
        } else if (o->unit == WS_UNIT_MIO) {
            T->cs[c].mio_free = max64(T->cs[c].mio_free, t) + 1;
            ready = T->cs[c].mio_free + P->latency[WS_UNIT_MIO];
            K->unit_busy[WS_UNIT_MIO]++;
            kind = WS_STATE_SHORT_SCOREBOARD;
        } else {
            T->unit_free[((size_t)c * T->nsched + sched) * WS_UNIT_COUNT + o->unit] = t + P->interval[o->unit];
            K->unit_busy[o->unit] += P->interval[o->unit];
            ready = t + P->latency[o->unit];
        }
        const unsigned op = in->op & ~WS_INST_TRAP;
        if (op == OP_FENCE || op == OP_FENCE_I) {
            x->membar_until = max64(x->mem_done, t + 1);
            x->fence_pc = x->pc; /* (its waiting cycles are the fence's: charge()) */
        }
        if (o->branch) {
            x->fetch_ready = t + P->branch_latency;
            x->fetch_state = WS_STATE_BRANCH_RESOLVING;
            if (tc && ws_trace_event(tc, c, t, WS_TRACE_ON_BRANCH)) T->cs[c].pending++;
        }
        if (op == OP_BAR) {
            x->bar_pc = x->pc; /* (its waiting cycles are the barrier's: charge()) */
            if (tc && ws_trace_event(tc, c, t, WS_TRACE_ON_BARRIER)) T->cs[c].pending++;
        }
    }
    const uint32_t live = w->live;
    ws_warp_result r = step(dev, w);
    /* A barrier arrival, or lanes exiting, may release the block's barrier. */
    if (w->live != live || !in || (in->op & ~WS_INST_TRAP) == OP_BAR) T->cs[c].bar_dirty = 1;
    if (!w->live) T->cs[c].release = 1; /* its block may finish */
    if (dev->debug) r = ws_dbg_warp_done(dev, w, r);
    if (r == WARP_FAULT) return -1;
    if (r == WARP_HALT) { /* a debugger stopped it before the instruction retired */
        x->peeked = 0;
        return 0;
    }
    if (in) {
        if (o->dst) {
            x->ready[o->dst] = ready;
            x->producer[o->dst] = x->pc;
            x->kind[o->dst] = kind;
        }
        if (o->more)
            for (int i = 0; i < 3; i++)
                if (o->more_dst[i]) {
                    x->ready[o->more_dst[i]] = ready;
                    x->producer[o->more_dst[i]] = x->pc;
                    x->kind[o->more_dst[i]] = kind;
                }
        x->seq_pc = x->pc + in->len;
    }
    x->peeked = 0;
    return 0;
}


/* The PC a sample of warp x names (trace_cell.h): what it issued this
 * cycle; for a wait at a barrier or fence, the instruction after the one
 * it issued (both are 32 bits), which is not where its lanes go next when
 * its groups diverged: the group that picks up then may be another one,
 * at another instruction (a spin loop's, a barrier's of the other arm);
 * else the instruction it issues next. */
static uint32_t sample_pc(const twarp *x, const ws_warp *w)
{
    if (x->state == WS_STATE_SELECTED || x->peeked) return x->pc;
    if (x->state == WS_STATE_BARRIER) return x->bar_pc + 4;
    if (x->state == WS_STATE_MEMBAR) return x->fence_pc + 4;
    return next_pc(w);
}

static void sample_warp(struct ws_trace_cells *tc, const ws_device *dev, const twarp *x, const ws_warp *w,
                        uint32_t c, uint32_t s, uint64_t t)
{
    ws_trace_record r;
    memset(&r, 0, sizeof r);
    r.cycle = t;
    r.launch_id = dev->current->id;
    r.block = w->block->linear;
    r.pc = sample_pc(x, w);
    r.producer_pc = x->producer_pc;
    r.core = (uint16_t)c;
    r.warp = (uint16_t)s;
    r.state = x->state;
    r.active_mask = x->state == WS_STATE_SELECTED || x->peeked ? x->group : w->live & ~w->waiting;
    if (tc->observer) tc->observer(tc->observer_user, dev, w, &r);
    ws_trace_push(tc, c, &r);
}

/* One sample of core c. When the FIFO has room for fewer records than
 * there are warps to sample, it takes as many as fit in round-robin order,
 * continuing where the last such sample stopped (dithered: from a
 * pseudo-random one of them, so a schedule that repeats every few cycles
 * cannot line up with the rotation), and counts the rest as overflowed:
 * which warps survive never depends on their slot or state, so the kept
 * records stay an unbiased subset (slot order would keep the low slots
 * only). */
static void sample_core(ws_device *dev, ws_timing *T, struct ws_trace_cells *tc, uint32_t c, uint64_t t)
{
    const uint32_t W = T->nwarps;
    ws_trace_cell *cell = &tc->cell[c];
    uint32_t want = 0, room = WS_TRACE_FIFO_DEPTH - cell->count;
    for (uint32_t s = 0; s < W; s++)
        want += T->w[c * W + s].resident && ws_trace_block_ok(tc, dev->cores[c].warps[s].block->linear);
    int rotate = tc->cfg.mode == WS_TRACE_ROUND_ROBIN || want > room;
    uint32_t take = tc->cfg.mode == WS_TRACE_ROUND_ROBIN ? 1 : want > room ? room : want;
    if (tc->cfg.mode != WS_TRACE_ROUND_ROBIN && want > take) {
        ws_trace_overflow(tc, want - take);
        if (tc->cfg.dither) { /* start at a pseudo-random one of the `want` warps */
            uint32_t k = ws_trace_dither_pick(tc, c, want), s = 0;
            for (;; s++)
                if (T->w[c * W + s].resident && ws_trace_block_ok(tc, dev->cores[c].warps[s].block->linear) && !k--)
                    break;
            cell->rr = s;
        }
    }
    for (uint32_t i = 0; i < W && take; i++) {
        uint32_t s = rotate ? (cell->rr + i) % W : i;
        const twarp *x = &T->w[c * W + s];
        const ws_warp *w = &dev->cores[c].warps[s];
        if (!x->resident || !ws_trace_block_ok(tc, w->block->linear)) continue;
        sample_warp(tc, dev, x, w, c, s, t);
        take--;
        if (rotate) cell->rr = (s + 1) % W;
    }
}

/* Release the blocks whose lanes have all exited and whose stores have
 * drained. Returns how many. */
static uint32_t release_done(ws_device *dev, ws_timing *T, uint32_t c, uint64_t t, ws_pc_counters *pcc)
{
    ws_core *core = &dev->cores[c];
    uint32_t n = 0;
    for (uint32_t b = 0; b < core->nblock_slots; b++) {
        ws_block *B = &core->blocks[b];
        if (!B->in_use || B->live_lanes) continue;
        int drained = 1;
        for (uint32_t i = 0; i < B->nwarps; i++)
            drained &= T->w[c * T->nwarps + B->first_slot + i].store_done <= t + 1;
        if (!drained) continue;
        for (uint32_t i = 0; i < B->nwarps; i++) {
            twarp *x = &T->w[c * T->nwarps + B->first_slot + i];
            if (x->resident) {
                charge(T, c, x, t + 1, pcc);
                flush_leaving(pcc, x, &core->warps[B->first_slot + i]);
            }
            if (x->resident) unschedule(&T->cs[c], x, B->first_slot + i);
            x->resident = 0;
        }
        ws_block_release(dev, B);
        n++;
    }
    return n;
}

static void finish_counters(ws_device *dev, ws_timing *T, ws_grid_run *L, uint64_t cycles)
{
    ws_timing_counters *K = &T->ctr;
    for (uint32_t c = 0; c < T->ncores; c++) { /* the cores' own counts */
        const ws_timing_counters *P = &T->cs[c].ctr;
        K->resident_warp_cycles += P->resident_warp_cycles;
        K->gmem_requests += P->gmem_requests;
        K->gmem_sectors += P->gmem_sectors;
        K->shared_requests += P->shared_requests;
        K->shared_bank_conflicts += P->shared_bank_conflicts;
        for (int u = 0; u < WS_UNIT_COUNT; u++) K->unit_busy[u] += P->unit_busy[u];
        for (int st = 0; st < WS_WARP_STATE_COUNT; st++) K->state_cycles[st] += P->state_cycles[st];
    }
    K->launch_id = L->id;
    K->cycles = cycles;
    K->warp_instructions = L->stats.warp_instructions;
    K->thread_instructions = L->stats.thread_instructions;
    K->ipc = cycles ? (double)K->warp_instructions / (double)cycles : 0;
    K->simt_efficiency = K->warp_instructions
        ? (double)K->thread_instructions / ((double)K->warp_instructions * dev->cfg.lanes_per_warp) : 0;
    double slots = (double)cycles * T->ncores * T->nwarps;
    K->achieved_occupancy = slots > 0 ? (double)K->resident_warp_cycles / slots : 0;
    K->sectors_per_request = K->gmem_requests ? (double)K->gmem_sectors / (double)K->gmem_requests : 0;
    for (int u = 0; u < WS_UNIT_COUNT; u++)
        K->unit_instances[u] = u == WS_UNIT_MIO || u == WS_UNIT_LSU ? T->ncores : T->ncores * T->nsched;
    T->have_ctr = 1;
}

/* Cycle t of core c: look at the warps due, issue, sample, release
 * drained blocks. Returns -1 on a fault. Inlined into the one-thread loop
 * (a call per core and cycle costs more than it saves there). */
static inline __attribute__((always_inline)) int core_cycle(ws_device *dev, ws_timing *T, uint32_t c, uint64_t t,
                                                           int *issued, uint32_t *released)
{
    const uint32_t W = T->nwarps, NS = T->nsched;
    const int every = T->every;
    ws_pc_counters *pcc = T->pcc;
    struct ws_trace_cells *tc = T->tc;
    tcore *k = &T->cs[c];
    const int look = every || k->next <= t || k->bar_dirty;
    if (look) {
        ws_core *core = &dev->cores[c];
        twarp *xs = &T->w[c * W];
        uint32_t pick[64];
        uint64_t key[64], have = 0; /* bit sc: scheduler sc has a pick */
        /* The warps due now: scheduled for t, ... */
        uint64_t due = k->wheel[t & 63];
        k->wheel[t & 63] = 0;
        k->occ &= ~(1ull << (t & 63));
        if (k->far_min <= t) { /* ... scheduled far ahead for t, ... */
            uint64_t fm = NEVER;
            for (uint64_t m = k->far; m; m &= m - 1) {
                uint32_t s = (uint32_t)__builtin_ctzll(m);
                if (xs[s].when <= t) due |= 1ull << s, k->far &= ~(1ull << s);
                else if (xs[s].when < fm) fm = xs[s].when;
            }
            k->far_min = fm;
        }
        uint64_t extra = 0; /* ... waiting at a barrier that may have released, or (debugger) all */
        if (every) {
            for (uint32_t s = 0; s < W; s++) extra |= (uint64_t)(xs[s].resident != 0) << s;
        } else if (k->bar_dirty) {
            extra = barrier_waiters(T, c, 0);
        }
        for (uint64_t m = extra & ~due; m; m &= m - 1) unschedule(k, &xs[__builtin_ctzll(m)], (uint32_t)__builtin_ctzll(m));
        due |= extra;
        k->bar_dirty = 0;
        while (due) { /* in slot order */
            uint32_t s = (uint32_t)__builtin_ctzll(due);
            due &= due - 1;
            twarp *x = &xs[s];
            ws_warp *w = &core->warps[s];
            charge(T, c, x, t, pcc);
            if (!w->live && x->store_done <= t) {
                flush_leaving(pcc, x, w);
                x->resident = 0;
                continue;
            }
            uint32_t sc = s % NS;
            if (dev->debug) { /* halted warps do not issue (misc) until resumed */
                uint32_t budget = 1;
                int gate = ws_dbg_warp_gate(dev, w, &budget);
                if (gate < 0) return -1;
                if (gate) {
                    x->state = WS_STATE_MISC;
                    x->until = NEVER;
                    x->producer_pc = 0;
                    schedule(k, x, s, NEVER, t);
                    continue;
                }
            }
            if (eval(dev, T, w, x, c, sc, t)) return -1;
            schedule(k, x, s, x->until > t ? x->until : t + 1, t);
            if (x->state == WS_STATE_DRAIN) k->release = 1; /* its block may finish */
            if (k->bar_dirty && !every) { /* lanes retired: later barrier waiters look again now */
                extra = barrier_waiters(T, c, s + 1) & ~due;
                for (uint64_t m = extra; m; m &= m - 1)
                    unschedule(k, &xs[__builtin_ctzll(m)], (uint32_t)__builtin_ctzll(m));
                due |= extra;
            }
            if (x->state != WS_STATE_NOT_SELECTED) continue;
            uint32_t last = T->cs[c].last[sc];
            uint64_t key_s;
            if (T->p.policy == WS_SCHED_GTO) { /* the warp issued last, not whichever holds its slot now */
                key_s = s == last && x->age == T->cs[c].last_age[sc] ? 0 : 1 + x->age;
            } else { /* slots after the last one issued first, wrapping */
                uint32_t d = s + W - (last == UINT32_MAX ? W - 1 : last) - 1;
                key_s = d >= W ? d - W : d;
            }
            if (!(have >> sc & 1) || key_s < key[sc]) key[sc] = key_s, pick[sc] = s, have |= 1ull << sc;
        }
        for (; have; have &= have - 1) { /* issue: the until of the warps stays (t + 1) */
            uint32_t sc = (uint32_t)__builtin_ctzll(have);
            twarp *x = &xs[pick[sc]];
            x->state = WS_STATE_SELECTED;
            T->cs[c].last[sc] = pick[sc];
            T->cs[c].last_age[sc] = x->age;
            *issued = 1;
            if (issue(dev, T, &core->warps[pick[sc]], x, c, sc, t)) {
                T->cs[c].ctr.state_cycles[WS_STATE_SELECTED]++; /* the cycle it faulted in */
                T->cs[c].ctr.resident_warp_cycles++;
                return -1;
            }
            /* (a copy with the bookkeeping of the tools armed, and no other) */
            ws_warp *w = &core->warps[pick[sc]];
            if (T->ahead && (T->pcc ? run_ahead(dev, T, k, xs, w, c, pick[sc], sc, t, AHEAD_TRACE | AHEAD_COUNTERS)
                             : T->tc ? run_ahead(dev, T, k, xs, w, c, pick[sc], sc, t, AHEAD_TRACE)
                                     : run_ahead(dev, T, k, xs, w, c, pick[sc], sc, t, 0)))
                return -1;
        }
        k->next = schedule_next(k, t); /* issue changes no warp's until */
    }
    if (tc) {
        if (ws_trace_cycle_due(tc, c, t)) sample_core(dev, T, tc, c, t);
        for (; T->cs[c].pending; T->cs[c].pending--) sample_core(dev, T, tc, c, t);
        if (tc->cell[c].count) ws_trace_drain(tc, c, 1);
    }
    /* A block finishes only in a cycle its core's warps are looked
     * at (its last lane exits, or a draining warp's until). */
    if (k->release) {
        k->release = 0;
        *released += release_done(dev, T, c, t, pcc);
    }
    /* Lanes that exited without an issue may have opened a barrier: its
     * waiters are looked at next cycle. (The model looked at them at the
     * device's next event, which depends on the other cores; a core's
     * cycles now depend on its own warps only: docs/parallel.md.) */
    if (k->bar_dirty && k->next > t + 1) k->next = t + 1;
    return 0;
}

/* ---- the cores on several host threads (src/device/parallel.c) ---- */

/* Core c's cycles from `now` on, skipping the cycles in which nothing can
 * change (its warps' states hold until its next event), until it frees a
 * block slot (the placement must wait for the other cores) or has run
 * STEP_CYCLES cycles (so a fault elsewhere or the watchdog is heard). */
#define STEP_CYCLES 1024u
static int timing_step(ws_device *dev, uint32_t c, uint64_t now, uint64_t *next, uint32_t *released)
{
    ws_timing *T = dev->timing;
    const uint64_t end = now + STEP_CYCLES;
    for (uint64_t t = now;;) {
        int issued = 0;
        *next = t + 1;
        ws_par_at_round(dev, c, t);
        if (core_cycle(dev, T, c, t, &issued, released)) return -1;
        if (*released) {
            T->last_release[c] = t + 1;
            return 0;
        }
        const uint64_t nx = T->cs[c].next;
        if (!issued && nx == NEVER) return 1; /* nothing will change: done or stuck */
        t = nx <= t + 1 || nx == NEVER ? t + 1 : nx; /* (after an issue nx is t + 1 unless it ran ahead) */
        if (t >= end) { *next = t; return 0; }
    }
}

/* Blocks placed for cycle `round` become resident then, in the order one
 * thread adopts them (core by core, slot by slot: their GTO ages). */
static void timing_placed(ws_device *dev, const uint8_t *cores, uint64_t round)
{
    for (uint32_t c = 0; c < dev->cfg.cores; c++)
        if (cores[c] && dev->cores[c].init_pending) ws_dispatch_init_core(dev, c);
    adopt_new_warps_on(dev, dev->timing, round, cores);
}

/* Run the launch on the pool from cycle `start` (every core about to run
 * it). Returns 1 if it could not start (nothing ran), else 0 with *st and
 * the launch's last cycle + 1 in *t. */
static int timing_parallel(ws_device *dev, ws_timing *T, double limit, uint64_t start, uint64_t *t, ws_status *st)
{
    const ws_par_launch how = { .step = timing_step, .placed = timing_placed, .limit_s = limit, .start = start };
    ws_par_result r = ws_par_run(dev, &how);
    if (r != WS_PAR_NO_THREADS) T->parallel_from = start;
    uint64_t end = 0;
    for (uint32_t c = 0; c < T->ncores; c++) {
        if (T->last_release[c] > end) end = T->last_release[c];
        uint64_t at = ws_par_core_round(dev, c);
        /* a launch that no core ended: where the furthest core got */
        if ((r == WS_PAR_DEADLOCK || r == WS_PAR_TIMEOUT || r == WS_PAR_INTERRUPTED) && at > end) end = at;
    }
    if (r == WS_PAR_FAULT) end = ws_par_core_round(dev, dev->fault.core) - 1; /* the cycle it faulted in */
    *t = end;
    T->fault_core = r == WS_PAR_FAULT ? dev->fault.core : UINT32_MAX;
    switch (r) {
    case WS_PAR_DONE: *st = WS_OK; return 0;
    case WS_PAR_FAULT: *st = WS_ERR_KERNEL_FAULT; return 0;
    case WS_PAR_DEADLOCK: ws_raise_deadlock(dev); *st = WS_ERR_DEADLOCK; return 0;
    case WS_PAR_TIMEOUT: *st = ws_fault_host_stop(dev, WS_HOST_WATCHDOG, end); return 0;
    case WS_PAR_INTERRUPTED: *st = ws_fault_host_stop(dev, WS_HOST_INTERRUPT, end); return 0;
    case WS_PAR_NO_THREADS: break;
    }
    return 1;
}

/* Hand a launch over to several threads? Each block that finishes makes
 * its core wait for the others to reach that cycle (the work distributor's
 * order), so threads pay only when a core runs many cycles between
 * releases: vecadd's tiny blocks (a release every ~1000 cycles per core)
 * mostly ran slower on two threads, the matmul and the reduction (one
 * every ~10^5) 1.2-2.3x faster (docs/performance.md). */
#define PROBE_CYCLES 16384u
#define PAR_CYCLES_PER_RELEASE 8192u /* per core, at least */
static int probe_due(const ws_timing *T, uint64_t cycles, uint64_t released)
{
    return released * PAR_CYCLES_PER_RELEASE <= cycles * T->ncores;
}

ws_status ws_timing_run(ws_device *dev, ws_grid_run *L)
{
    if (!dev->timing && ws_timing_create(dev) != WS_OK)
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "timing model: out of host memory");
    ws_timing *T = dev->timing;
    const uint32_t W = T->nwarps, NS = T->nsched;
    memset(&T->ctr, 0, sizeof T->ctr);
    memset(T->last_release, 0, T->ncores * sizeof *T->last_release);
    T->have_ctr = 0;
    memset(T->w, 0, (size_t)T->ncores * W * sizeof *T->w);
    memset(T->unit_free, 0, (size_t)T->ncores * NS * WS_UNIT_COUNT * sizeof *T->unit_free);
    memset(T->cs, 0, T->ncores * sizeof *T->cs);
    for (uint32_t c = 0; c < T->ncores; c++) T->cs[c].next = T->cs[c].far_min = NEVER;
    for (uint32_t c = 0; c < T->ncores; c++)
        for (uint32_t sc = 0; sc < NS; sc++) T->cs[c].last[sc] = UINT32_MAX;
    T->age_next = 0;
    ws_trace_launch_begin(dev, L->id);
    struct ws_trace_cells *tc = dev->trace && dev->trace->armed ? dev->trace : NULL;
    ws_pc_counters_launch_begin(dev, L);
    ws_pc_counters *pcc = dev->pcc && dev->pcc->armed && dev->pcc->n ? dev->pcc : NULL;

    const double t0 = ws_now_seconds();
    const double limit = dev->cfg.watchdog_ms ? dev->cfg.watchdog_ms / 1e3 : 0;
    /* With a debugger attached, halted warps are gated every cycle: look at
     * every warp every cycle. Otherwise a warp is looked at only when its
     * state may change: at its `until`, or (waiting at a barrier) after a
     * warp of its core arrived at a barrier or lost lanes. */
    const int every = dev->debug != NULL;
    uint64_t t = 0, iter = 0, halts_seen = 0;
    uint32_t cbreak; /* a fault inside cycle t: cores below this one finished it */
    ws_status st = WS_OK;
    T->every = every;
    T->ahead = T->ahead_allowed && !every && !dev->events && (!tc || tc->cfg.trigger == WS_TRACE_ON_CYCLES);
    T->pcc = pcc;
    T->tc = tc;
    T->parallel_from = NEVER;
    T->fault_core = UINT32_MAX; /* a fault inside a cycle: its core (cores below it finished the cycle) */
    dev->now_cycle = 0; /* the first placements are at cycle 0, not the last launch's end (event times) */
    if (ws_host_interrupt_take(dev)) { /* asked before it started: it ends at cycle 0 (cmdproc.c) */
        st = ws_fault_host_stop(dev, WS_HOST_INTERRUPT, 0);
        goto out;
    }
    ws_dispatch_blocks(dev);
    adopt_new_warps(dev, T, t);
    /* The cores on several host threads when nothing samples or counts per
     * instruction (trace cells and instruction counters belong to tools):
     * from the start if the number of threads was asked for; by default
     * from the first window of PROBE_CYCLES cycles whose blocks finished
     * seldom enough (probe_due) to pay for the cores meeting at every
     * release (docs/parallel.md). The results are the same either way. */
    const int par = !tc && !pcc && ws_par_launch_ok(dev, L);
    if (par && dev->threads_asked && !timing_parallel(dev, T, limit, 0, &t, &st)) goto out;
    uint64_t probe = par && !dev->threads_asked ? PROBE_CYCLES : NEVER, probe_from = 0, probe_blocks = 0;
    while (L->done_blocks < L->total_blocks) {
        int issued = 0;
        uint32_t released = 0;
        if (t >= probe) { /* every core is about to run cycle t */
            if (probe_due(T, t - probe_from, L->done_blocks - probe_blocks)) {
                const double left = limit ? limit - (ws_now_seconds() - t0) : 0;
                if (!timing_parallel(dev, T, limit && left <= 0 ? 1e-9 : left, t, &t, &st)) goto out;
                probe = NEVER; /* the pool could not start: on one thread */
            } else {
                probe_from = t, probe_blocks = L->done_blocks, probe = t + PROBE_CYCLES;
            }
        }
        dev->now_cycle = t;
        ws_ev_tick(dev); /* (a `lasting` step outlasted with no event to tell) */
        if (dev->events && dev->events->stop) { st = WS_ERR_STOPPED; goto out; } /* a debug machine's action */
        uint64_t until = NEVER;
        for (uint32_t c = 0; c < T->ncores; c++) {
            if (core_cycle(dev, T, c, t, &issued, &released)) {
                st = WS_ERR_KERNEL_FAULT;
                T->fault_core = c;
                goto out;
            }
            if (T->cs[c].next < until) until = T->cs[c].next;
        }
        if (tc) ws_trace_cycle_end(tc, t);
        t++;
        if (released && ws_dispatch_blocks(dev)) adopt_new_warps(dev, T, t);
        /* A warp halted and all-stop holds the others: the clock stands
         * still until the tool resumes them. (It went on to the next
         * warp's due cycle, the end of a load issued before the halt, and
         * every warp resumed that many cycles late: a second breakpoint
         * stop added 387 cycles to a launch.) */
        if (dev->debug) {
            const int held = ws_dbg_hold_wait(dev, &halts_seen);
            if (held < 0) { st = WS_ERR_KERNEL_FAULT; goto out; }
            if (held > 0) continue;
        }
        /* Nothing changes before `until` (the cores' next looks; a block
         * released may bring warps due now): skip the cycles in between
         * (stopping at the next sampling point); the warps' counters are
         * charged when their states end. After an issue `until` is t + 1
         * unless the warp ran ahead. */
        if (!released && until != NEVER) {
            if (tc && tc->cfg.trigger == WS_TRACE_ON_CYCLES) {
                uint64_t next = ws_trace_next_due(tc, t);
                if (next < until) until = next;
            }
            if (until > t) {
                if (tc) ws_trace_drain_cycles(tc, until - t);
                t = until;
                dev->now_cycle = t;
            }
        } else if (!issued && !released) {
            /* nothing will change: done, halted or stuck */
            if (L->done_blocks >= L->total_blocks) break;
            const int wd = ws_ev_wd_stopped(dev);
            if (wd > 0) { st = WS_ERR_STOPPED; goto out; }
            if (wd < 0) { /* the debugger released it: place blocks now (placement is at releases) */
                if (ws_dispatch_blocks(dev)) adopt_new_warps(dev, T, t);
                continue;
            }
            const int idle = ws_ev_launch_idle(dev); /* (debug machines: lasting steps, a pending halt) */
            if (idle == WS_EV_IDLE_STOP) { st = WS_ERR_STOPPED; goto out; }
            if (idle == WS_EV_IDLE_RETRY) continue;
            /* Halted warps are stopped, not deadlocked: wait for the tool. */
            int waited = dev->debug ? ws_dbg_idle_wait(dev) : 0;
            if (waited > 0) continue;
            if (waited < 0) { st = WS_ERR_KERNEL_FAULT; goto out; }
            ws_raise_deadlock(dev);
            st = WS_ERR_DEADLOCK;
            goto out;
        }
        const int why = (++iter & 1023) == 0 && L->done_blocks < L->total_blocks /* (done: WS_OK) */
                            ? ws_host_stop_due(dev, t0, limit, 0) : 0;
        if (why) {
            st = ws_fault_host_stop(dev, why, t);
            goto out;
        }
    }
out:
    /* Warps still resident: the end of the launch, a fault, a stop. A
     * fault stops the launch inside cycle t: the cycle counts (its faulting
     * warp was selected in it), and the cores below the faulting one had
     * finished it. */
    cbreak = st == WS_ERR_KERNEL_FAULT ? T->fault_core : 0;
    const int in_cycle = st == WS_ERR_KERNEL_FAULT && cbreak != UINT32_MAX;
    t += in_cycle;
    for (uint32_t i = 0; i < T->ncores * W; i++) {
        if (!T->w[i].resident) continue;
        const uint64_t to = i / W < cbreak ? t : t - in_cycle;
        take_back(dev, T, i / W, &T->w[i], &dev->cores[i / W].warps[i % W], to);
        charge(T, i / W, &T->w[i], to, pcc);
        flush_leaving(pcc, &T->w[i], &dev->cores[i / W].warps[i % W]);
    }
    ws_trace_launch_end(dev);
    L->stats.cycles = t;
    dev->now_cycle = t;
    finish_counters(dev, T, L, t);
    return st;
}
