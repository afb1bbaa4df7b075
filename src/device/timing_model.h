/* The timing model's state and the steps its cycle loop (timing.c) and
 * its run ahead (timing_ahead.h) share: a warp's scoreboard and schedule,
 * a core's wheel of looks, charging a state's cycles, peeking at the next
 * instruction, executing one. Private to src/device/timing*.c. */
#ifndef WS_DEVICE_TIMING_MODEL_H
#define WS_DEVICE_TIMING_MODEL_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "device/timing.h"
#include "device/fast_exec.h"
#include "device/debug/debug_hooks.h"
#include "device/trace/pc_counters.h"

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
    uint32_t drain_pc;           /* instruction counters: the store or atomic
                                    that completes at store_done            */
    uint64_t membar_until;
    uint64_t age;                /* dispatch order (GTO)                     */
    uint32_t seq_pc;             /* PC that needs no refetch                 */
    uint32_t bar_pc;             /* the barrier it issued last               */
    uint32_t fence_pc;           /* the fence it issued last                 */
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
    uint64_t last_age[64];       /* ... and that warp's age (GTO: a warp that
                                    took the slot since is another warp)    */
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
    uint64_t parallel_from;      /* the cycle it went on several threads, or NEVER */
    uint32_t fault_core;         /* the core that faulted inside a cycle, or UINT32_MAX */
    ws_pc_counters *pcc;
    struct ws_trace_cells *tc;
};

static inline uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

enum { REG_NONE, REG_GLOBAL, REG_SHARED, REG_LOCAL };

static inline int region_of(uint32_t a)
{
    if (a - WS_SHARED_BASE < WS_SHARED_END - WS_SHARED_BASE) return REG_SHARED;
    if (ws_addr_in_stacks(a)) return REG_LOCAL;
    return REG_GLOBAL;
}

/* Shared-memory passes and global/local sectors of a warp's access
 * (timing_memory.c). */
uint32_t ws_timing_bank_passes(const uint32_t *base, uint32_t imm, uint32_t g, uint32_t full, uint32_t nl, int atomic);
uint32_t ws_timing_sectors(const ws_device *dev, const ws_warp *w, const uint32_t *base, uint32_t imm, uint32_t g,
                           int local);
uint32_t ws_timing_word_turns(const uint32_t *base, uint32_t imm, uint32_t g);

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

/* Instruction counters: the cycles a warp spent since it last issued go to
 * the instruction it was waiting to issue (at its next issue, or when it
 * leaves the core: its next PC then, the exit stub for a retired warp). */
static inline void flush_stalls(ws_pc_counters *p, twarp *x, uint32_t pc)
{
    ws_pc_counter *e = pc - p->lo < p->hi - p->lo ? &p->e[(pc - p->lo) >> 1] : &p->outside;
    for (uint32_t m = x->acc_states; m; m &= m - 1) { /* usually one or two states */
        int s = __builtin_ctz(m);
        e->stall_cycles[s] += x->acc[s];
        x->acc[s] = 0;
    }
    x->acc_states = 0;
}

/* The instruction counters of an issue at x->pc (pe, armed): the cycles
 * the warp waited for it, this cycle, and the instruction itself (none
 * for a fetch that faults: lanes 0). */
static inline void count_issue(ws_pc_counters *p, ws_pc_counter *pe, twarp *x, uint32_t lanes)
{
    flush_stalls(p, x, x->pc);
    pe->stall_cycles[WS_STATE_SELECTED]++;
    if (lanes) {
        pe->warp_instructions++;
        pe->thread_instructions += lanes;
    }
}

/* Count the cycles warp x spent in its state, which has not changed since
 * x->since, up to cycle `to` (exclusive): the counters are charged when a
 * state ends (or the warp is looked at), not cycle by cycle. */
static inline void charge(ws_timing *T, uint32_t c, twarp *x, uint64_t to, ws_pc_counters *pcc)
{
    const uint64_t d = to - x->since;
    x->since = to;
    T->cs[c].ctr.state_cycles[x->state] += d;
    T->cs[c].ctr.resident_warp_cycles += d;
    if (pcc && d && x->state != WS_STATE_SELECTED) { /* selected: counted at issue */
        if (x->state == WS_STATE_BARRIER) { /* the barrier's, which the warp has issued (as samples are) */
            ws_pcc_at(pcc, x->bar_pc)->stall_cycles[WS_STATE_BARRIER] += d;
            return;
        }
        if (x->state == WS_STATE_MEMBAR) { /* likewise the fence's, not the next instruction's */
            ws_pcc_at(pcc, x->fence_pc)->stall_cycles[WS_STATE_MEMBAR] += d;
            return;
        }
        x->acc[x->state] += d;
        x->acc_states |= 1u << x->state;
    }
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
    if (__builtin_expect(x->op.more == 2, 0) && x->group) /* an ecall: its registers by its service (a7) */
        ws_op_timing_ecall(w->x[17][__builtin_ctz(x->group)], &x->op);
    /* (register 0, "none", is never pending: its ready cycle stays 0) */
    const uint8_t regs[4] = { x->op.src[0], x->op.src[1], x->op.src[2], x->op.dst };
    uint64_t worst = 0;
    uint32_t wr = 0;
    for (int i = 0; i < 4; i++) {
        const uint64_t r = x->ready[regs[i]];
        wr = r > worst ? regs[i] : wr;
        worst = r > worst ? r : worst;
    }
    if (x->op.more) { /* (amocas.d and ecalls) */
        const uint8_t more[5] = { x->op.more_src[0], x->op.more_src[1], x->op.more_dst[0], x->op.more_dst[1],
                                  x->op.more_dst[2] };
        for (int i = 0; i < 5; i++) {
            const uint64_t r = x->ready[more[i]];
            wr = r > worst ? more[i] : wr;
            worst = r > worst ? r : worst;
        }
    }
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

/* Up to n of w's next instructions on the fast engine, when ws_warp_run
 * would hand them over there (functional mode's conditions: no debugger
 * or event bus, not a starvation guard's forced turn; a divergent group
 * too), with ws_warp_run's bookkeeping but
 * without its loop's fixed cost, which timing mode pays per instruction.
 * *done: how many ran (0: the engine left the first to the interpreter).
 * Returns -1 if one faulted. */
static inline int engine_run(ws_device *dev, ws_warp *w, uint32_t n, uint32_t *done)
{
    *done = 0;
    if (dev->cfg.engine || (dev->debug && ws_dbg_attached(dev)) || dev->events || !w->group ||
        w->group_pc == WS_RETIRE_ADDR || w->sticky || w->held_to)
        return 0;
    ws_launch_stats *st = dev->par_active ? &dev->cores[w->core].part : &dev->current->stats;
    const uint64_t instret0 = w->instret;
    uint32_t inserted; /* 0: timing mode has no marked code (fast_exec.c) */
    const int r = ws_fast_run(dev, w, st, n, done, &inserted);
    if (*done || r) { /* as ws_warp_run ends */
        if (r && w->group) ws_simt_leave_group(w);
        if (w->core < WS_STATS_MAX_CORES) st->core_warp_instructions[w->core] += w->instret - instret0;
    }
    return r ? -1 : 0;
}

/* ws_warp_run(dev, w, 1, ..) for a peeked instruction, with the same
 * effects and result: on the fast engine if it takes the instruction,
 * else in the interpreter. */
static inline ws_warp_result step(ws_device *dev, ws_warp *w)
{
    uint32_t n;
    if (engine_run(dev, w, 1, &n)) return WARP_FAULT;
    return n ? WARP_RAN : ws_warp_run(dev, w, 1, &n);
}
#endif
