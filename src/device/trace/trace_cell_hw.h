/* The trace cells as the timing model drives them (internal). The public
 * contract is trace_cell.h; this adds the per-cycle hooks. */
#ifndef WS_TRACE_TRACE_CELL_HW_H
#define WS_TRACE_TRACE_CELL_HW_H
#include "device/device.h"
#include "device/trace/trace_cell.h"

typedef struct ws_trace_cell {
    ws_trace_record fifo[WS_TRACE_FIFO_DEPTH];
    uint32_t head, count;
    uint64_t events;            /* trigger events seen this launch           */
    uint32_t rr;                /* round-robin (mode, or the overflow
                                   policy): next warp slot to consider      */
    uint64_t rng;               /* dither: where an overflow starts         */
} ws_trace_cell;

struct ws_trace_cells {
    ws_trace_config cfg;
    uint64_t mask;              /* 2^period_log2 - 1                         */
    int armed;                  /* enabled and this launch passes the filter */
    uint8_t *buf;               /* host view of the event buffer (armed)     */
    uint64_t base;              /* dither: the fixed point of this period     */
    uint64_t due;               /* dither: its sampling cycle (>= the cycle run) */
    uint64_t rng;               /* dither: draws the offsets                  */
    uint64_t offset;            /* dither: of the due point from the base     */
    uint32_t held, hold;        /* dither: periods the offset was kept, is kept */
    uint32_t ncores;
    ws_trace_cell *cell;
    ws_trace_observer observer; /* ws_trace_observe (NULL: none)          */
    void *observer_user;
};

/* At launch start: arm the cells if sampling is on, the launch passes the
 * launch filter and the buffer is still a live allocation. */
void ws_trace_launch_begin(ws_device *dev, uint64_t launch_id);
/* At launch end: the FIFOs empty into the buffer (no simulated cycles pass:
 * the cells' writes bypass the timing model). */
void ws_trace_launch_end(ws_device *dev);

/* Is a cycle-triggered sample due at `cycle` on core c? */
static inline int ws_trace_cycle_due(const struct ws_trace_cells *t, uint32_t core, uint64_t cycle)
{
    const ws_trace_config *c = &t->cfg;
    if (c->trigger != WS_TRACE_ON_CYCLES || (c->dither > 1 ? cycle != t->due : ((cycle + c->phase) & t->mask) != 0))
        return 0;
    if (core < 64 && !(c->core_mask >> core & 1)) return 0;
    return !c->cycle_hi || (cycle >= c->cycle_lo && cycle <= c->cycle_hi);
}
/* The first cycle-triggered sampling point at or after `cycle` (the
 * cycle being run, or later: a dithered one is drawn when its predecessor
 * has been taken, ws_trace_cycle_end). */
static inline uint64_t ws_trace_next_due(const struct ws_trace_cells *t, uint64_t cycle)
{
    return t->cfg.dither > 1 ? t->due : cycle + ((0 - (cycle + t->cfg.phase)) & t->mask);
}
/* Every core has run `cycle`: after a dithered sampling point, draw the
 * next period's. */
void ws_trace_dither_next(struct ws_trace_cells *t);
static inline void ws_trace_cycle_end(struct ws_trace_cells *t, uint64_t cycle)
{
    if (t->cfg.dither > 1 && t->cfg.trigger == WS_TRACE_ON_CYCLES && cycle == t->due) ws_trace_dither_next(t);
}
/* Dithered overflow: a pseudo-random number below n (n >= 1) from core c's
 * generator. */
uint32_t ws_trace_dither_pick(struct ws_trace_cells *t, uint32_t core, uint32_t n);
/* Count one trigger event on core c; returns 1 when it is the K-th. The
 * cells' trigger is checked here, inline: the timing loop asks at every
 * global access and branch. */
int ws_trace_event_count(struct ws_trace_cells *t, uint32_t core, uint64_t cycle, ws_trace_trigger ev);
static inline int ws_trace_event(struct ws_trace_cells *t, uint32_t core, uint64_t cycle, ws_trace_trigger ev)
{
    return t->cfg.trigger == ev && ws_trace_event_count(t, core, cycle, ev);
}
static inline int ws_trace_block_ok(const struct ws_trace_cells *t, uint64_t block)
{
    return !t->cfg.block_hi || (block >= t->cfg.block_lo && block <= t->cfg.block_hi);
}
/* Queue one record; counted as dropped when the FIFO is full. */
void ws_trace_push(struct ws_trace_cells *t, uint32_t core, const ws_trace_record *r);
/* Count n warps that a sample left out for lack of FIFO room. */
void ws_trace_overflow(struct ws_trace_cells *t, uint64_t n);
/* Move up to n records (one per cycle) from core c's FIFO to the buffer. */
void ws_trace_drain(struct ws_trace_cells *t, uint32_t core, uint64_t n);
/* The next n cycles, in which nothing is sampled: each core's
 * FIFO moves one record a cycle, cycle by cycle in core order (the order a
 * cycle-by-cycle model writes them to the buffer). */
void ws_trace_drain_cycles(struct ws_trace_cells *t, uint64_t n);
void ws_trace_cells_free(ws_device *dev);

#endif
