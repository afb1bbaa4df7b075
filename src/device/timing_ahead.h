/* Running ahead (docs/timing.md): after an issue, a warp steps through
 * the looks only it decides and issues its next register-only instructions
 * while no rival can compete for its scheduler; a launch that stops early
 * takes back what lies past its end. Included once, by timing.c, whose
 * cycle loop it is part of (inlined there). */
#ifndef WS_DEVICE_TIMING_AHEAD_H
#define WS_DEVICE_TIMING_AHEAD_H
#include "device/timing_model.h"
#include "device/trace/trace_cell_hw.h"

/* Execute w's next n instructions, all of them solo (timing_ops.c) and
 * none but the last a control transfer: step() n times, in one engine run
 * when the engine takes them. Returns -1 on a fault. */
static int run_n(ws_device *dev, ws_warp *w, uint32_t n)
{
    uint32_t done;
    if (engine_run(dev, w, n, &done)) return -1;
    for (; done < n; done++)
        if (step(dev, w) == WARP_FAULT) return -1;
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
enum { AHEAD_TRACE = 1, AHEAD_COUNTERS = 2 }; /* run_ahead's tools */

/* (field by field: take_back reads no other field of a CHARGED entry) */
static inline void log_charge(twarp *x, uint64_t to)
{
    struct ahead_log *e = &x->log[x->nlog++];
    e->kind = CHARGED;
    e->state = x->state;
    e->from = x->since;
    e->to = to;
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
            if (pcc && e->state == WS_STATE_MEMBAR) /* (as charge() added it: to the fence, issued before the run) */
                ws_pcc_at(pcc, x->fence_pc)->stall_cycles[WS_STATE_MEMBAR] -= d;
            else if (pcc && e->state != WS_STATE_SELECTED) x->acc[e->state] -= d;
        }
    }
    x->nlog = 0;
    if (x->since > end) x->since = end; /* its open state began past the end: nothing to charge */
}

/* w has live lanes, one runnable group and no other: the lanes the
 * engine runs. */
static inline int single_group(const ws_warp *w)
{
    return w->live && (w->live & ~w->waiting) && w->group && !w->has_others && !w->sticky;
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
 * issuing them early in host time is invisible. `tools`: which of the
 * tools' bookkeeping this copy does (AHEAD_TRACE: trace cells are armed,
 * AHEAD_COUNTERS: instruction counters; the loop inlines one copy per
 * combination it uses, a constant each). Returns -1 on a fault. */
static inline __attribute__((always_inline)) int run_ahead(ws_device *dev, ws_timing *T, tcore *k, twarp *xs, ws_warp *w, uint32_t c, uint32_t s,
                     uint32_t sc, uint64_t t, const int tools)
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
    const struct ws_trace_cells *tc = tools & AHEAD_TRACE ? T->tc : NULL;
    ws_pc_counters *const pcc = tools & AHEAD_COUNTERS ? T->pcc : NULL;
    const uint64_t horizon = tc ? ws_trace_next_due(tc, t) : NEVER;
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
                x->in = ws_warp_fetch_decoded(dev, w, next_pc);
            } else if (!ws_warp_peek(dev, w, &x->in, &x->pc, &x->group)) {
                break;
            }
            if (x->pc == WS_RETIRE_ADDR || !x->in) break; /* retire or fetch fault: the loop */
            op_timing(T, c, x->pc, x->in, &x->op);
            if ((x->op.mem | x->op.more) && pend) {
                /* its address, or its service (a7): the registers now */
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
                charge(T, c, x, at, pcc);
                struct ahead_log *e = &x->log[x->nlog++]; /* (take_back reads these fields) */
                e->kind = ISSUED;
                e->to = at;
                e->pc = x->pc;
                e->unit = o->unit;
                e->lanes = lanes;
                ws_pc_counter *pe = ws_pcc_at(pcc, x->pc);
                if (pe) { /* as issue(), the waits it hands over logged first */
                    for (uint32_t m = x->acc_states; m; m &= m - 1) {
                        const uint8_t st = (uint8_t)__builtin_ctz(m);
                        x->log[x->nlog++] = (struct ahead_log){ .kind = FLUSHED, .from = x->acc[st], .state = st };
                    }
                    count_issue(pcc, pe, x, lanes);
                }
                if (tools & AHEAD_TRACE) x->producer_pc = 0; /* (read by samples only) */
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
        charge(T, c, x, at, pcc);
        x->state = state;
        if (tools & AHEAD_TRACE) x->producer_pc = producer;
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
#endif
