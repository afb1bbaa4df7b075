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
 * per-state cycles are counted in bulk (charge). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "device/timing.h"
#include "device/parallel.h"
#include "device/fast_exec.h"
#include "device/trace/pc_counters.h"
#include "device/events/event_bus.h"
#include "device/trace/trace_cell_hw.h"
#include "device/debug/debug_hooks.h"

#define NEVER UINT64_MAX
#define NREGS 64
#define AHEAD_MAX 48         /* run_ahead's log entries per call          */

typedef struct twarp {
    /* This cycle (hot: read for every resident warp). */
    uint8_t state;
    int resident;
    uint64_t until;              /* the state cannot change before this cycle */
    uint64_t when;               /* the cycle it is scheduled to be looked at */
    uint64_t since;              /* x->state's cycles are counted up to here  */
    uint32_t producer_pc;
    /* The peeked next instruction (valid until this warp issues). */
    int peeked;
    const ws_inst *in;
    uint32_t pc, group;
    ws_op_timing op;
    /* Its operands: the last one to land, from the scoreboard at peek time
     * (only this warp's own issue changes the scoreboard). */
    uint64_t sb_ready;
    uint32_t sb_producer;
    uint8_t sb_kind;
    uint64_t fetch_ready;        /* no issue before this cycle ...           */
    uint8_t fetch_state;         /* ... for this reason                      */
    uint64_t mem_done;           /* every memory access issued has completed */
    uint64_t store_done;         /* every store issued has completed         */
    uint64_t membar_until;
    uint64_t age;                /* dispatch order (GTO)                     */
    uint32_t seq_pc;             /* PC that needs no refetch                 */
    /* Instruction counters (armed): warp-cycles per state since the warp
     * last issued, charged to the instruction it issues next. */
    uint32_t acc_states;         /* bit s: acc[s] is not zero                 */
    uint64_t acc[WS_STATE_COUNT];
    uint64_t ready[NREGS];       /* cycle each register's pending value lands */
    uint32_t producer[NREGS];    /* PC of the instruction that writes it     */
    uint8_t kind[NREGS];         /* state reported while waiting on it       */
    /* What the warp's last run ahead did, to take back what lies past the
     * end of a launch that stops early (a fault, a stop, the watchdog) */
    uint32_t nlog;
    struct ahead_log {
        uint64_t from, to;       /* CHARGED: a state for [from, to); ISSUED:
                                    at `to`; FLUSHED: `from` cycles of it   */
        uint32_t pc;             /* ISSUED: the instruction                  */
        uint8_t kind, state, unit, lanes;
    } log[AHEAD_MAX];
} twarp;

/* When to look at a core's warps again. A warp is looked at in the cycle
 * its state may change (its `when`: its until, at least the next cycle).
 * Cycles less than 64 ahead sit on a wheel, one mask of warp slots per
 * cycle modulo 64 (bit c of occ: wheel[c] is not empty); later ones and
 * NEVER in the `far` mask, whose earliest when is far_min. */
typedef struct tcore {
    /* a core's own state, one cache line apart from the next core's: the
     * cores may run on several host threads */
    uint64_t mio_free, lsu_free; /* when the MIO and LSU queues drain        */
    uint32_t pending;            /* event-triggered samples due              */
    uint32_t last[64];           /* per scheduler: slot issued last (or ~0)  */
    ws_timing_counters ctr;      /* its counts, summed into the launch's     */
    uint64_t next;               /* the earliest when of its warps (0: none yet) */
    uint64_t occ, far, far_min;
    uint8_t bar_dirty;           /* a barrier may have released              */
    uint8_t release;             /* a block may finish this cycle            */
    uint64_t wheel[64];
} __attribute__((aligned(64))) tcore;

/* An instruction's operands and unit, found by its PC, kept with its bits:
 * ws_op_timing_of is a function of the decoded fields, which are a
 * function of the bits (a debugger's trap mark it ignores), so an entry
 * whose bits match never goes stale. Indexed by PC, a loop's instructions
 * never evict each other. */
#define OPC_SIZE 1024u
typedef struct opc_entry {
    uint32_t raw;
    uint8_t valid;
    ws_op_timing op;
} opc_entry;

struct ws_timing {
    ws_timing_params p;
    uint32_t ncores, nwarps, nsched;
    twarp *w;                    /* ncores * nwarps                          */
    uint64_t *unit_free;         /* ALU pipes: per core, scheduler, unit     */
    tcore *cs;                   /* per core: when to look at its warps      */
    opc_entry *opc;              /* per core (host threads): OPC_SIZE entries */
    uint64_t age_next;
    uint64_t *last_release;      /* per core: the cycle after its last release */
    ws_timing_counters ctr;
    int have_ctr;
    /* the launch running now (parallel steps read them) */
    int every;
    int ahead;                   /* run_ahead may issue ahead: no tool watches */
    int ahead_allowed;           /* not turned off (WARPSCOPE_TIMING_AHEAD=0) */
    ws_pc_counters *pcc;
    struct ws_trace_cells *tc;
};

const ws_timing_params *ws_timing_params_of(const ws_device *dev)
{
    return dev->timing ? &dev->timing->p : NULL;
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

ws_status ws_last_launch_counters(const ws_device *dev, ws_timing_counters *out)
{
    if (!dev || !out) return WS_ERR_INVALID_ARG;
    if (!dev->timing || !dev->timing->have_ctr) {
        ws_set_error((ws_device *)dev, WS_ERR_NOT_FOUND,
                     "no timing-mode launch has completed on this device (open it with mode=timing)");
        return WS_ERR_NOT_FOUND;
    }
    *out = dev->timing->ctr;
    return WS_OK;
}

static inline uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

enum { REG_NONE, REG_GLOBAL, REG_SHARED, REG_LOCAL };

static int region_of(uint32_t a)
{
    if (a - WS_SHARED_BASE < WS_SHARED_END - WS_SHARED_BASE) return REG_SHARED;
    if (a - WS_STACK_BASE < WS_STACK_END - WS_STACK_BASE) return REG_LOCAL;
    return REG_GLOBAL;
}

/* Shared memory: 32 banks of 4-byte words; a warp access takes as many
 * passes as the most distinct words any one bank must deliver (lanes
 * reading the same word share it). */
static uint32_t bank_passes(const uint32_t *base, uint32_t imm, uint32_t g, uint32_t full, uint32_t nl)
{
    /* The usual case first: no bank holds two distinct words (one pass).
     * For a full warp: note one word per bank, then check every lane's. */
    if (g == full) {
        uint32_t word[32], first[32] = { 0 }, same = 1;
        for (uint32_t l = 0; l < nl; l++) word[l] = (base[l] + imm) >> 2;
        for (uint32_t l = 0; l < nl; l++) first[word[l] & 31] = word[l];
        for (uint32_t l = 0; l < nl; l++) same &= first[word[l] & 31] == word[l];
        if (same) return 1;
    }
    uint32_t words[32][32];
    uint8_t n[32] = { 0 };
    uint32_t passes = 1;
    for (uint32_t m = g; m; m &= m - 1) {
        uint32_t word = (base[__builtin_ctz(m)] + imm) >> 2, b = word & 31, i = 0;
        while (i < n[b] && words[b][i] != word) i++;
        if (i == n[b]) {
            words[b][n[b]++] = word;
            if (n[b] > passes) passes = n[b];
        }
    }
    return passes;
}

static inline uint32_t popcount64(uint64_t v) /* without a libgcc call (no POPCNT in the base ISA) */
{
    v = v - ((v >> 1) & 0x5555555555555555ull);
    v = (v & 0x3333333333333333ull) + ((v >> 2) & 0x3333333333333333ull);
    return (uint32_t)((((v + (v >> 4)) & 0x0F0F0F0F0F0F0F0Full) * 0x0101010101010101ull) >> 56);
}

/* Global and local memory: distinct 32-byte sectors. Local (stack)
 * addresses are mapped to the word-interleaved layout GPUs use (word k of
 * lane l at k * lanes + l), so a warp's spill of one slot is contiguous. */
static uint32_t sectors(const ws_device *dev, const ws_warp *w, const uint32_t *base, uint32_t imm,
                        uint32_t g, int local)
{
    uint32_t s[32], n = 0, sorted = 1, far = 0;
    const uint32_t nl = dev->cfg.lanes_per_warp, shift = dev->mem.stack_shift;
    if (!local && g == dev->full_mask && nl == 32) { /* 32 lanes: counted loops the compiler vectorises */
        uint32_t down = 0, same = 0; /* sectors are below 2^27: a step down has its top bit set */
        /* each lane's sector and its neighbour's from the registers: read
         * back from s, the neighbours' unaligned loads would wait on the
         * stores just made (a store-forwarding stall per vector) */
        for (uint32_t i = 1; i < 32; i++) {
            const uint32_t d = ((base[i] + imm) >> 5) - ((base[i - 1] + imm) >> 5);
            down |= d >> 31;
            same += d == 0;
        }
        if (!down) return 1 + 31 - same;
        for (uint32_t l = 0; l < 32; l++) s[l] = (base[l] + imm) >> 5;
        n = 32;
        sorted = 0;
    } else if (!local && g == dev->full_mask) { /* a full warp */
        for (uint32_t l = 0; l < nl; l++) s[l] = (base[l] + imm) >> 5;
        n = nl;
    } else {
        for (uint32_t m = g; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m), a = base[l] + imm;
            if (local) {
                uint32_t so = a - WS_STACK_BASE, slot = so >> shift, off = so & (dev->mem.stack_size - 1);
                uint32_t lane = slot - w->stack_slot0;
                a = (uint32_t)((uint64_t)(slot / nl) * (dev->mem.stack_size / 4) * nl * 4 +
                               ((uint64_t)(off >> 2) * nl + lane % nl) * 4);
            }
            s[n++] = a >> 5;
        }
    }
    /* Ascending (consecutive lanes, rows of a stride): count the changes. */
    uint32_t changes = 0;
    for (uint32_t i = 1; i < n && sorted; i++) {
        sorted &= s[i] >= s[i - 1];
        changes += s[i] != s[i - 1];
    }
    if (sorted) return 1 + changes;
    /* Every sector within [s[0] - 31, s[0] + 32]: one bit each. */
    const uint32_t bias = s[0] - 31;
    for (uint32_t i = 0; i < n; i++) far |= (s[i] - bias) >> 6;
    if (!far) {
        uint64_t bits = 0;
        for (uint32_t i = 0; i < n; i++) bits |= 1ull << (s[i] - bias);
        return popcount64(bits);
    }
    uint32_t distinct = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t j = 0;
        while (j < i && s[j] != s[i]) j++;
        distinct += j == i;
    }
    return distinct;
}

/* Look at warp slot s of core k in cycle `when` (> the cycle being
 * processed, or = the next one for a new warp). */
static inline void schedule(tcore *k, twarp *x, uint32_t s, uint64_t when, uint64_t t)
{
    x->when = when;
    if (when - t < 64) {
        k->wheel[when & 63] |= 1ull << s;
        k->occ |= 1ull << (when & 63);
    } else {
        k->far |= 1ull << s;
        if (when < k->far_min) k->far_min = when;
    }
}

/* Take warp slot s off its core's schedule (it is looked at now, or left). */
static inline void unschedule(tcore *k, const twarp *x, uint32_t s)
{
    if (k->far >> s & 1) { /* far_min may stay lower: a spare look costs nothing */
        k->far &= ~(1ull << s);
        return;
    }
    uint64_t *m = &k->wheel[x->when & 63];
    *m &= ~(1ull << s);
    if (!*m) k->occ &= ~(1ull << (x->when & 63));
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

static uint32_t next_pc(const ws_warp *w)
{
    if (w->group) return w->group_pc;
    uint32_t r = w->live & ~w->waiting, best = UINT32_MAX;
    if (!r) r = w->live;
    for (uint32_t m = r; m; m &= m - 1) {
        uint32_t pc = w->pc[__builtin_ctz(m)];
        if (pc < best) best = pc;
    }
    return r ? best : w->group_pc;
}

/* Instruction counters: the cycles a warp spent since it last issued go to
 * the instruction it was waiting to issue (at its next issue, or when it
 * leaves the core: its next PC then, the exit stub for a retired warp). */
static void flush_stalls(ws_pc_counters *p, twarp *x, uint32_t pc)
{
    ws_pc_counter *e = pc - p->lo < p->hi - p->lo ? &p->e[(pc - p->lo) >> 1] : &p->outside;
    for (uint32_t m = x->acc_states; m; m &= m - 1) { /* usually one or two states */
        int s = __builtin_ctz(m);
        e->stall_cycles[s] += x->acc[s];
        x->acc[s] = 0;
    }
    x->acc_states = 0;
}

static void flush_leaving(ws_pc_counters *p, twarp *x, const ws_warp *w)
{
    if (p) flush_stalls(p, x, x->peeked ? x->pc : next_pc(w));
}

/* Count the cycles warp x spent in its state, which has not changed since
 * x->since, up to cycle `to` (exclusive): the counters are charged when a
 * state ends (or the warp is looked at), not cycle by cycle. */
static inline void charge(ws_timing *T, uint32_t c, twarp *x, uint64_t to, const ws_pc_counters *pcc)
{
    const uint64_t d = to - x->since;
    x->since = to;
    T->cs[c].ctr.state_cycles[x->state] += d;
    T->cs[c].ctr.resident_warp_cycles += d;
    if (pcc && d && x->state != WS_STATE_SELECTED) { /* selected: counted at issue */
        x->acc[x->state] += d;
        x->acc_states |= 1u << x->state;
    }
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

/* ws_op_timing_of(in, o) for in at pc, from core c's cache when it holds
 * in's bits. */
static inline void op_timing(ws_timing *T, uint32_t c, uint32_t pc, const ws_inst *in, ws_op_timing *o)
{
    opc_entry *e = &T->opc[(size_t)c * OPC_SIZE + ((pc >> 1) & (OPC_SIZE - 1))];
    if (!e->valid || e->raw != in->raw) {
        ws_op_timing_of(in, &e->op);
        e->raw = in->raw;
        e->valid = 1;
    }
    *o = e->op;
}

/* A hint to the host's caches: the global lines a warp's coalesced access
 * (its lanes within a few lines) will touch when it issues, while the
 * loop looks at other warps first. Streaming kernels wait on the host's
 * memory there; a scattered access is left alone (no gain measured). */
static inline void prefetch_lanes(const ws_memory *m, const uint32_t *base, uint32_t imm, uint32_t g)
{
    const uint32_t lo = base[__builtin_ctz(g)] + imm - WS_GLOBAL_BASE;
    const uint32_t hi = base[31 - __builtin_clz(g)] + imm - WS_GLOBAL_BASE;
    if (lo > hi || hi - lo > 256 || hi >= m->limit) return;
    for (uint32_t off = lo & ~63u; off <= hi; off += 64) __builtin_prefetch(m->global + off);
}

/* The rest of peeking at look t, once x->in, x->pc, x->group and x->op
 * describe the warp's next instruction: a memory access to the shared
 * window goes to the MIO queue; its operands' wait is read from the
 * scoreboard (the operand or pending destination that lands last, the
 * first of them on a tie); an instruction out of sequence (a taken branch,
 * a jump, another group) is fetched anew. */
static inline void note_peeked(const ws_device *dev, const ws_timing *T, const ws_warp *w, twarp *x, uint64_t t)
{
    x->peeked = 1;
    if (x->op.mem) {
        const uint32_t *base = w->x[x->in->rs1], imm = (uint32_t)x->in->imm;
        if (region_of(base[__builtin_ctz(x->group)] + imm) == REG_SHARED) x->op.unit = WS_UNIT_MIO;
        else prefetch_lanes(&dev->mem, base, imm, x->group);
    }
    const uint8_t regs[4] = { x->op.src[0], x->op.src[1], x->op.src[2], x->op.dst };
    uint64_t worst = 0;
    uint32_t wr = 0;
    for (int i = 0; i < 4; i++)
        if (regs[i] && x->ready[regs[i]] > worst) worst = x->ready[regs[i]], wr = regs[i];
    x->sb_ready = worst;
    x->sb_kind = x->kind[wr];
    x->sb_producer = x->producer[wr];
    if (x->pc != x->seq_pc) {
        x->seq_pc = x->pc;
        if (T->p.fetch_latency) {
            x->fetch_ready = t + T->p.fetch_latency;
            x->fetch_state = WS_STATE_NO_INSTRUCTIONS;
        }
    }
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
            if (ws_warp_run(dev, w, 1, &n) == WARP_FAULT) return -1;
            T->cs[c].bar_dirty = 1; /* exited lanes no longer hold a barrier back */
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

/* ws_warp_run(dev, w, 1, ..) for a peeked instruction, with the same
 * effects and result, on the fast engine when ws_warp_run would hand it
 * over there (functional mode's conditions: one runnable group, no
 * debugger or event bus), without that loop's fixed cost, which timing
 * mode pays for every instruction. Otherwise, or if the engine leaves the
 * instruction to the interpreter, ws_warp_run. */
static inline ws_warp_result step(ws_device *dev, ws_warp *w)
{
    uint32_t n;
    if (!dev->cfg.engine && !dev->debug && !dev->events && w->group && w->group_pc != WS_RETIRE_ADDR &&
        w->other_min_pc == UINT32_MAX && !w->sticky) {
        ws_launch_stats *st = dev->par_active ? &dev->cores[w->core].part : &dev->current->stats;
        const uint64_t instret0 = w->instret;
        int r = ws_fast_run(dev, w, st, 1, &n);
        if (n || r) { /* as ws_warp_run ends */
            if (r && w->group) ws_simt_leave_group(w);
            if (w->core < WS_STATS_MAX_CORES) st->core_warp_instructions[w->core] += w->instret - instret0;
            return r ? WARP_FAULT : WARP_RAN;
        }
    }
    return ws_warp_run(dev, w, 1, &n);
}

/* Execute w's next n instructions, all of them solo (timing_ops.c) and
 * none but the last a control transfer: step() n times, in one engine run
 * when the engine takes them. Returns -1 on a fault. */
static int run_n(ws_device *dev, ws_warp *w, uint32_t n)
{
    uint32_t done = 0;
    if (!dev->cfg.engine && !dev->debug && !dev->events && w->group && w->group_pc != WS_RETIRE_ADDR &&
        w->other_min_pc == UINT32_MAX && !w->sticky) {
        ws_launch_stats *st = dev->par_active ? &dev->cores[w->core].part : &dev->current->stats;
        const uint64_t instret0 = w->instret;
        int r = ws_fast_run(dev, w, st, n, &done);
        if (done || r) {
            if (r && w->group) ws_simt_leave_group(w);
            if (w->core < WS_STATS_MAX_CORES) st->core_warp_instructions[w->core] += w->instret - instret0;
            if (r) return -1;
        }
    }
    for (; done < n; done++)
        if (step(dev, w) == WARP_FAULT) return -1;
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
    if (pe) { /* the cycles it waited for this instruction, and this one */
        flush_stalls(dev->pcc, x, x->pc);
        pe->stall_cycles[WS_STATE_SELECTED]++;
        if (in) {
            pe->warp_instructions++;
            pe->thread_instructions += ws_lane_count(x->group);
        }
    }
    if (in) {
        if (o->mem) {
            const uint32_t *base = w->x[in->rs1], imm = (uint32_t)in->imm;
            int region = region_of(base[__builtin_ctz(x->group)] + imm);
            if (region == REG_SHARED) {
                uint32_t passes = bank_passes(base, imm, x->group, dev->full_mask, dev->cfg.lanes_per_warp);
                T->cs[c].mio_free = max64(T->cs[c].mio_free, t) + passes;
                ready = T->cs[c].mio_free + P->latency[WS_UNIT_MIO];
                K->shared_requests++;
                K->shared_bank_conflicts += passes - 1;
                if (pe) pe->shared_requests++, pe->shared_wavefronts += passes;
                K->unit_busy[WS_UNIT_MIO] += passes;
                kind = WS_STATE_SHORT_SCOREBOARD;
            } else {
                uint32_t n = sectors(dev, w, base, imm, x->group, region == REG_LOCAL);
                uint64_t busy = (uint64_t)n * P->sector_cycles;
                T->cs[c].lsu_free = max64(T->cs[c].lsu_free, t) + busy;
                ready = T->cs[c].lsu_free + P->latency[WS_UNIT_LSU];
                K->gmem_requests++;
                K->gmem_sectors += n;
                if (pe) pe->gmem_requests++, pe->gmem_sectors += n;
                K->unit_busy[WS_UNIT_LSU] += busy;
                kind = WS_STATE_LONG_SCOREBOARD;
                if (tc && ws_trace_event(tc, c, t, WS_TRACE_ON_GMEM_REQ)) T->cs[c].pending++;
            }
            if (!o->dst) x->store_done = max64(x->store_done, ready);
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
        if (op == OP_FENCE || op == OP_FENCE_I) x->membar_until = max64(x->mem_done, t + 1);
        if (o->branch) {
            x->fetch_ready = t + P->branch_latency;
            x->fetch_state = WS_STATE_BRANCH_RESOLVING;
            if (tc && ws_trace_event(tc, c, t, WS_TRACE_ON_BRANCH)) T->cs[c].pending++;
        }
        if (op == OP_BAR && tc && ws_trace_event(tc, c, t, WS_TRACE_ON_BARRIER)) T->cs[c].pending++;
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
        x->seq_pc = x->pc + in->len;
    }
    x->peeked = 0;
    return 0;
}

/* Every lane of group g has a valid dynamic rounding mode (frm <= 4): a
 * float instruction with rm = dyn cannot fault. */
static int frm_valid(const ws_warp *w, uint32_t g)
{
    uint32_t bad = 0;
    for (uint32_t m = g; m; m &= m - 1) bad |= w->frm[__builtin_ctz(m)] > 4;
    return !bad;
}

enum { CHARGED, ISSUED, FLUSHED }; /* ahead_log kinds */

static inline void log_charge(twarp *x, uint64_t to)
{
    x->log[x->nlog++] = (struct ahead_log){ .kind = CHARGED, .from = x->since, .to = to, .state = x->state };
}

/* Take back what warp x's last run ahead did from cycle `end` on: the
 * launch stopped before it (the loop would not have got there). Then the
 * instruction counters see the warp waiting for its first instruction
 * taken back, as the loop would have left it. */
static void take_back(ws_device *dev, ws_timing *T, uint32_t c, twarp *x, ws_warp *w, uint64_t end)
{
    ws_launch_stats *st = &dev->current->stats;
    ws_timing_counters *K = &T->cs[c].ctr;
    ws_pc_counters *pcc = T->pcc;
    ws_pc_counter *pe = NULL;   /* the counters of the issue taken back last */
    int undone = 0;
    for (uint32_t i = 0; i < x->nlog; i++) {
        const struct ahead_log *e = &x->log[i];
        if (e->kind == ISSUED) {
            pe = NULL;
            if (e->to < end) continue;
            st->warp_instructions--;
            st->thread_instructions -= e->lanes;
            if (c < WS_STATS_MAX_CORES) st->core_warp_instructions[c]--;
            w->instret--;
            K->unit_busy[e->unit] -= T->p.interval[e->unit];
            if ((pe = ws_pcc_at(pcc, e->pc))) {
                pe->stall_cycles[WS_STATE_SELECTED]--;
                pe->warp_instructions--;
                pe->thread_instructions -= e->lanes;
            }
            if (!undone) x->pc = e->pc, x->peeked = 1, undone = 1;
        } else if (e->kind == FLUSHED) { /* the waits an issue taken back had charged to it */
            if (!pe) continue;
            pe->stall_cycles[e->state] -= e->from;
            x->acc[e->state] += e->from;
            x->acc_states |= 1u << e->state;
        } else if (e->to > end) {
            const uint64_t d = e->to - (e->from > end ? e->from : end);
            K->state_cycles[e->state] -= d;
            K->resident_warp_cycles -= d;
            if (pcc && e->state != WS_STATE_SELECTED) x->acc[e->state] -= d; /* (as charge() added it) */
        }
    }
    x->nlog = 0;
    if (x->since > end) x->since = end; /* its open state began past the end: nothing to charge */
}

/* w has live lanes, one runnable group and no other: the lanes the
 * engine runs. */
static inline int single_group(const ws_warp *w)
{
    return w->live && (w->live & ~w->waiting) && w->group && w->other_min_pc == UINT32_MAX && !w->sticky;
}

/* The earliest cycle another warp may compete with warp slot s for
 * scheduler sc after cycle t: when the scheduler's next other warp is due;
 * t + 1 if a slot of it is empty (a new block's warp may arrive at any
 * release) or a warp of it waits at a barrier (another scheduler's warp
 * may open it). */
static uint64_t rival_due(const ws_timing *T, const twarp *xs, uint32_t s, uint32_t sc, uint64_t t)
{
    uint64_t D = NEVER;
    for (uint32_t o = sc; o < T->nwarps; o += T->nsched) {
        if (o == s) continue;
        if (!xs[o].resident || xs[o].state == WS_STATE_BARRIER) return t + 1;
        if (xs[o].when < D) D = xs[o].when;
    }
    return D;
}

/* Run ahead: warp slot s of core c has just issued at cycle t on scheduler
 * sc. While no other warp can compete for that scheduler, the warp's next
 * instructions that touch only its own registers (ws_op_timing.solo) are
 * issued now, each at the cycle the exact loop would issue it, and the
 * waits only the warp's own state decides (fence, fetch, branch,
 * scoreboard, its scheduler's pipes) are stepped through. What the loop
 * would have done at each of those looks is done here — the same charges,
 * scoreboard, pipe and counter updates, the same execution — and the warp
 * is scheduled for the first look that may depend on another warp. So the
 * result is bit for bit that of looking every time (docs/timing.md).
 *
 * No other warp can compete before D, the earliest cycle another warp of
 * the scheduler is due: it has every slot filled (an empty slot may take
 * a new block's warp at any release) and none waits at a barrier (another
 * scheduler's warp may open it). Register-only instructions change nothing
 * another warp sees (not the core's queues, memory, barriers or lanes), so
 * issuing them early in host time is invisible. Returns -1 on a fault. */
static inline __attribute__((always_inline)) int run_ahead(ws_device *dev, ws_timing *T, tcore *k, twarp *xs, ws_warp *w, uint32_t c, uint32_t s,
                     uint32_t sc, uint64_t t)
{
    const uint32_t NS = T->nsched;
    const ws_timing_params *P = &T->p;
    twarp *x = &xs[s];
    uint64_t D = 0; /* (found when first needed) */
    uint64_t *unit_free = &T->unit_free[((size_t)c * NS + sc) * WS_UNIT_COUNT];
    uint64_t at = t + 1; /* the warp's next look (issued at t: SELECTED since t) */
    /* Instructions issued ahead run in one go when the model needs their
     * results (a branch's target, a memory address) or stops: `pend` of
     * them, straight-line code from w->group_pc up to next_pc. */
    uint32_t pend = 0, next_pc = 0;
    int fault = 0;
    /* Exited, at a barrier, or more than one group (SIMT selection): the
     * loop. Only a control transfer changes this, and the run stops there. */
    if (!single_group(w)) return 0;
    x->nlog = 0;
    /* with trace cells sampling every 2^k cycles: no look past the next
     * sample, this cycle's included (it must see every warp as the loop
     * leaves it) */
    const struct ws_trace_cells *tc = T->tc;
    const uint64_t horizon = tc ? t + ((0 - (t + tc->cfg.phase)) & tc->mask) : NEVER;
    for (;;) {
        if (at > horizon || x->nlog + 2 + WS_STATE_COUNT > AHEAD_MAX) break; /* (an issue logs at most that) */
        /* eval's waits, in its order, each from the look it starts at */
        uint8_t state;
        uint64_t until;
        uint32_t producer = 0; /* (eval's producer_pc: trace records) */
        if (x->membar_until > at) {
            state = WS_STATE_MEMBAR, until = x->membar_until;
        } else if (x->fetch_ready > at) {
            state = x->fetch_state, until = x->fetch_ready;
        } else if (!x->peeked) {
            if (pend) { /* straight on: the group stays, the next instruction follows */
                x->pc = next_pc;
                x->in = ws_warp_fetch(dev, w, next_pc);
            } else if (!ws_warp_peek(dev, w, &x->in, &x->pc, &x->group)) {
                break;
            }
            if (x->pc == WS_RETIRE_ADDR || !x->in) break; /* retire or fetch fault: the loop */
            op_timing(T, c, x->pc, x->in, &x->op);
            if (x->op.mem && pend) { /* its address: the registers now */
                if ((fault = run_n(dev, w, pend))) break;
                pend = 0;
            }
            note_peeked(dev, T, w, x, at);
            continue; /* eval re-checks from the top */
        } else if (x->sb_ready > at) {
            state = x->sb_kind, until = x->sb_ready;
            producer = x->sb_producer;
        } else {
            /* ready to issue: only a solo instruction, before any rival */
            const ws_op_timing *o = &x->op;
            if (!o->solo) break;
            if (!D) D = rival_due(T, xs, s, sc, t);
            if (at >= D || (x->in->rm == 7 && (o->unit == WS_UNIT_FP || o->unit == WS_UNIT_FDIV) && !frm_valid(w, x->group))) break;
            const uint64_t f = unit_free[o->unit];
            if (f > at) {
                if (f >= D) break;
                state = WS_STATE_MATH_PIPE_THROTTLE, until = f;
            } else { /* issue at `at`, as issue() does for an ALU instruction */
                const uint8_t lanes = (uint8_t)ws_lane_count(x->group);
                log_charge(x, at);
                charge(T, c, x, at, T->pcc);
                x->log[x->nlog++] = (struct ahead_log){ .kind = ISSUED, .to = at, .pc = x->pc, .unit = o->unit,
                                                         .lanes = lanes };
                ws_pc_counter *pe = ws_pcc_at(T->pcc, x->pc);
                if (pe) { /* as issue() */
                    for (uint32_t m = x->acc_states; m; m &= m - 1) {
                        const uint8_t st = (uint8_t)__builtin_ctz(m);
                        x->log[x->nlog++] = (struct ahead_log){ .kind = FLUSHED, .from = x->acc[st], .state = st };
                    }
                    flush_stalls(T->pcc, x, x->pc);
                    pe->stall_cycles[WS_STATE_SELECTED]++;
                    pe->warp_instructions++;
                    pe->thread_instructions += lanes;
                }
                x->producer_pc = 0;
                x->state = WS_STATE_SELECTED;
                unit_free[o->unit] = at + P->interval[o->unit];
                k->ctr.unit_busy[o->unit] += P->interval[o->unit];
                if (o->dst) {
                    x->ready[o->dst] = at + P->latency[o->unit];
                    x->producer[o->dst] = x->pc;
                    x->kind[o->dst] = WS_STATE_WAIT;
                }
                x->seq_pc = next_pc = x->pc + x->in->len;
                x->peeked = 0;
                pend++;
                if (o->branch) { /* its target: run it now */
                    x->fetch_ready = at + P->branch_latency;
                    x->fetch_state = WS_STATE_BRANCH_RESOLVING;
                    if ((fault = run_n(dev, w, pend))) break;
                    pend = 0;
                    if (!single_group(w)) { at++; break; }
                }
                at++;
                continue;
            }
        }
        /* a wait: the look at `at` ends the state before it and starts this one */
        log_charge(x, at);
        charge(T, c, x, at, T->pcc);
        x->state = state;
        x->producer_pc = producer;
        at = until;
    }
    if (pend && !fault) fault = run_n(dev, w, pend);
    if (fault) return -1; /* (solo instructions do not fault) */
    /* the loop looks at the warp at `at` (its state and charges as if it had
     * looked at every earlier point) */
    x->until = at;
    if (at != t + 1) { /* (the loop had scheduled it for t + 1) */
        unschedule(k, x, s);
        schedule(k, x, s, at, t);
    }
    return 0;
}

static void sample_warp(struct ws_trace_cells *tc, const ws_device *dev, const twarp *x, const ws_warp *w,
                        uint32_t c, uint32_t s, uint64_t t)
{
    ws_trace_record r;
    memset(&r, 0, sizeof r);
    r.cycle = t;
    r.launch_id = dev->current->id;
    r.block = w->block->linear;
    /* a warp that issued this cycle is charged to what it issued */
    r.pc = x->state == WS_STATE_SELECTED || x->peeked ? x->pc : next_pc(w);
    r.producer_pc = x->producer_pc;
    r.core = (uint16_t)c;
    r.warp = (uint16_t)s;
    r.state = x->state;
    r.active_mask = x->state == WS_STATE_SELECTED || x->peeked ? x->group : w->live & ~w->waiting;
    ws_trace_push(tc, c, &r);
}

/* One sample of core c. When the FIFO has room for fewer records than
 * there are warps to sample, it takes as many as fit in round-robin order,
 * continuing where the last such sample stopped, and counts the rest as
 * overflowed: which warps survive never depends on their slot or state, so
 * the kept records stay an unbiased subset (slot order would keep the
 * low slots only). */
static void sample_core(ws_device *dev, ws_timing *T, struct ws_trace_cells *tc, uint32_t c, uint64_t t)
{
    const uint32_t W = T->nwarps;
    ws_trace_cell *cell = &tc->cell[c];
    uint32_t want = 0, room = WS_TRACE_FIFO_DEPTH - cell->count;
    for (uint32_t s = 0; s < W; s++)
        want += T->w[c * W + s].resident && ws_trace_block_ok(tc, dev->cores[c].warps[s].block->linear);
    int rotate = tc->cfg.mode == WS_TRACE_ROUND_ROBIN || want > room;
    uint32_t take = tc->cfg.mode == WS_TRACE_ROUND_ROBIN ? 1 : want > room ? room : want;
    if (tc->cfg.mode != WS_TRACE_ROUND_ROBIN && want > take) ws_trace_overflow(tc, want - take);
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
            if (T->p.policy == WS_SCHED_GTO) {
                key_s = s == last ? 0 : 1 + x->age;
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
            *issued = 1;
            if (issue(dev, T, &core->warps[pick[sc]], x, c, sc, t)) {
                T->cs[c].ctr.state_cycles[WS_STATE_SELECTED]++;
                return -1;
            }
            if (T->ahead && run_ahead(dev, T, k, xs, &core->warps[pick[sc]], c, pick[sc], sc, t)) return -1;
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
        t = issued || nx <= t + 1 ? t + 1 : nx;
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

/* Run the launch on the pool. Returns 1 if it could not start (nothing
 * ran), else 0 with *st and the launch's last cycle + 1 in *t. */
static int timing_parallel(ws_device *dev, ws_timing *T, double limit, uint64_t *t, ws_status *st)
{
    const ws_par_launch how = { .step = timing_step, .placed = timing_placed, .limit_s = limit };
    ws_par_result r = ws_par_run(dev, &how);
    uint64_t end = 0;
    for (uint32_t c = 0; c < T->ncores; c++) {
        if (T->last_release[c] > end) end = T->last_release[c];
        uint64_t at = ws_par_core_round(dev, c);
        if (r == WS_PAR_DEADLOCK && at > end) end = at;
    }
    if (r == WS_PAR_FAULT) end = ws_par_core_round(dev, dev->fault.core) - 1; /* the cycle it faulted in */
    *t = end;
    switch (r) {
    case WS_PAR_DONE: *st = WS_OK; return 0;
    case WS_PAR_FAULT: *st = WS_ERR_KERNEL_FAULT; return 0;
    case WS_PAR_DEADLOCK: ws_raise_deadlock(dev); *st = WS_ERR_DEADLOCK; return 0;
    case WS_PAR_TIMEOUT:
        dev->fault.kind = FAULT_WATCHDOG;
        snprintf(dev->fault.detail, sizeof dev->fault.detail,
                 "still running after %u ms (%llu blocks of %llu done); raise or disable watchdog_ms",
                 dev->cfg.watchdog_ms, (unsigned long long)dev->current->done_blocks,
                 (unsigned long long)dev->current->total_blocks);
        *st = WS_ERR_TIMEOUT;
        return 0;
    case WS_PAR_NO_THREADS: break;
    }
    return 1;
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
    uint64_t t = 0, iter = 0;
    uint32_t cbreak = 0; /* a stop inside cycle t: cores below this one finished it */
    ws_status st = WS_OK;
    T->every = every;
    T->ahead = T->ahead_allowed && !every && !dev->events && (!tc || tc->cfg.trigger == WS_TRACE_ON_CYCLES);
    T->pcc = pcc;
    T->tc = tc;
    ws_dispatch_blocks(dev);
    adopt_new_warps(dev, T, t);
    /* The cores on several host threads when nothing samples or counts per
     * instruction (trace cells and instruction counters belong to tools). */
    if (!tc && !pcc && ws_par_launch_ok(dev, L) && !timing_parallel(dev, T, limit, &t, &st)) goto out;
    while (L->done_blocks < L->total_blocks) {
        int issued = 0;
        uint32_t released = 0;
        dev->now_cycle = t;
        if (dev->events && dev->events->stop) { st = WS_ERR_STOPPED; goto out; } /* a debug machine's action */
        uint64_t until = NEVER;
        for (uint32_t c = 0; c < T->ncores; c++) {
            if (core_cycle(dev, T, c, t, &issued, &released)) { st = WS_ERR_KERNEL_FAULT; cbreak = c; goto out; }
            if (T->cs[c].next < until) until = T->cs[c].next;
        }
        t++;
        if (released && ws_dispatch_blocks(dev)) adopt_new_warps(dev, T, t);
        if (!issued && !released) {
            /* Nothing changes before `until`: skip the cycles in between
             * (stopping at the next sampling point); the warps' counters
             * are charged when their states end. */
            if (until == NEVER) {
                if (L->done_blocks >= L->total_blocks) break;
                if (ws_ev_wd_stopped(dev)) { st = WS_ERR_STOPPED; goto out; }
                if (dev->events && dev->events->nmachines) { /* waits that will never end: for>T steps complete */
                    ws_ev_machines_launch_end(dev);
                    if (dev->events->stop) { st = WS_ERR_STOPPED; goto out; }
                    if (dev->events->halt_pending && dev->debug && ws_dbg_machine_halt_idle(dev)) continue;
                }
                /* Halted warps are stopped, not deadlocked: wait for the tool. */
                int waited = dev->debug ? ws_dbg_idle_wait(dev) : 0;
                if (waited > 0) continue;
                if (waited < 0) { st = WS_ERR_KERNEL_FAULT; goto out; }
                ws_raise_deadlock(dev);
                st = WS_ERR_DEADLOCK;
                goto out;
            }
            if (tc && tc->cfg.trigger == WS_TRACE_ON_CYCLES) {
                uint64_t next = t + ((0 - (t + tc->cfg.phase)) & tc->mask);
                if (next < until) until = next;
            }
            if (until > t) {
                if (tc) ws_trace_drain_cycles(tc, until - t);
                t = until;
                dev->now_cycle = t;
            }
        }
        if (limit && (++iter & 1023) == 0 && ws_now_seconds() - t0 > limit) {
            dev->fault.kind = FAULT_WATCHDOG;
            snprintf(dev->fault.detail, sizeof dev->fault.detail,
                     "still running after %u ms (%llu blocks of %llu done, cycle %llu); raise or disable watchdog_ms",
                     dev->cfg.watchdog_ms, (unsigned long long)L->done_blocks,
                     (unsigned long long)L->total_blocks, (unsigned long long)t);
            st = WS_ERR_TIMEOUT;
            goto out;
        }
    }
out:
    /* Warps still resident: the end of the launch, a fault, a stop. Cores
     * below `cbreak` had finished cycle t when it stopped. */
    for (uint32_t i = 0; i < T->ncores * W; i++) {
        if (!T->w[i].resident) continue;
        const uint64_t to = i / W < cbreak ? t + 1 : t;
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
