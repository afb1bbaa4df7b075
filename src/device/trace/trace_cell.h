/* The trace cell: one per core (the patent's hardware). It samples the PC
 * and state of resident warps every 2^N cycles, or every K occurrences of an
 * event, through a 16-entry FIFO into an event buffer in device memory that
 * the tool allocates. Sampling never changes simulated cycles. Only the
 * timing model drives it (functional mode has no cycles).
 *
 * A tool programs the cells through ws_trace_configure and reads the
 * records back from device memory with ws_memcpy_dtoh; the buffer layout
 * is a ws_trace_header followed by ws_trace_record[capacity].
 * docs/profiling.md documents the format. */
#ifndef WS_TRACE_TRACE_CELL_H
#define WS_TRACE_TRACE_CELL_H
#include <stdint.h>
#include "warpscope/warpscope.h"

#define WS_TRACE_FIFO_DEPTH 16

typedef enum ws_trace_trigger {
    WS_TRACE_ON_CYCLES = 0,     /* every 2^period_log2 cycles               */
    WS_TRACE_ON_GMEM_REQ,       /* every K global memory requests           */
    WS_TRACE_ON_BRANCH,         /* every K branches                         */
    WS_TRACE_ON_BARRIER         /* every K barrier arrivals                 */
} ws_trace_trigger;

typedef enum ws_trace_mode {
    WS_TRACE_ALL_WARPS = 0,     /* one record per resident warp per sample  */
    WS_TRACE_ROUND_ROBIN        /* one warp per sample, round-robin order   */
} ws_trace_mode;

typedef struct ws_trace_config {
    int enabled;
    ws_trace_trigger trigger;
    uint32_t period_log2;       /* WS_TRACE_ON_CYCLES: sample when
                                   ((cycle + phase) & (2^N - 1)) == 0
                                   (see dither)                             */
    uint32_t event_count;       /* K for event triggers (>= 1)              */
    uint64_t phase;             /* shifts the sampling points (replay passes) */
    /* Dithered sampling, dither = D >= 1 (at most 2^N): WS_TRACE_ON_CYCLES
     * takes the sample of each period at a pseudo-random cycle of the D
     * cycles that start at the fixed point above (D = 1: at the point), and
     * a FIFO overflow starts its round-robin at a pseudo-random resident
     * warp. The offsets come from the cells' generator, restarted at each
     * launch with one seed whatever the phase: replay passes whose phases
     * are D or more apart sample disjoint windows of each period. So a loop
     * whose period shares a factor with 2^N cannot line up with the
     * sampling points (fixed points every 2^N cycles see a 20-cycle loop at
     * every 4th of its cycles only), nor with the overflow's rotation. Same
     * configuration, same records. 0: the fixed rule, plain rotation. */
    uint64_t dither;
    ws_trace_mode mode;
    /* Filters. */
    uint64_t core_mask;         /* bit c: sample core c (cores >= 64: all)  */
    uint64_t launch_id;         /* 0: any launch                            */
    uint64_t block_lo, block_hi;/* linear block index range, inclusive;
                                   block_hi == 0: no block filter           */
    uint64_t cycle_lo, cycle_hi;/* cycle window, inclusive; cycle_hi == 0: none */
    /* The event buffer in device memory: header + capacity records. */
    ws_addr buffer;
    uint32_t capacity;          /* records                                  */
} ws_trace_config;

/* In device memory at `buffer`; the cells update it as they drain. */
typedef struct ws_trace_header {
    uint32_t magic;             /* WS_TRACE_MAGIC                           */
    uint32_t version;           /* 2                                        */
    uint32_t record_size;       /* sizeof(ws_trace_record)                  */
    uint32_t capacity;
    uint64_t written;           /* records stored                           */
    uint64_t dropped;           /* samples lost: buffer full or FIFO overflow */
    uint64_t overflowed;        /* of dropped: warps a sample left out because
                                   the FIFO had no room (overflow policy)   */
} ws_trace_header;
#define WS_TRACE_MAGIC 0x43525457u  /* "WTRC" */

typedef struct ws_trace_record {
    uint64_t cycle;
    uint64_t launch_id;
    uint64_t block;             /* linear block index                       */
    uint32_t pc;                /* the warp's next (stalled) instruction;
                                   barrier/membar: the one after the bar or
                                   fence it issued (timing.md, Record)      */
    uint32_t producer_pc;       /* scoreboard stalls: PC of the instruction
                                   whose result is awaited; else 0          */
    uint16_t core, warp;        /* warp = slot in the core                  */
    uint8_t state;              /* ws_warp_state                            */
    uint8_t reserved[3];
    uint32_t active_mask;       /* lanes that would issue                   */
} ws_trace_record;

/* Program every core's cell (same settings for all cores; core_mask picks
 * which sample). Writes the header into the buffer. Fails with a message
 * in ws_last_error if the buffer is not a live allocation large enough. */
ws_status ws_trace_configure(ws_device *dev, const ws_trace_config *cfg);
/* Turn sampling off; records already written stay in the buffer. */
ws_status ws_trace_disable(ws_device *dev);

/* A tool's host-side look at each sample as a cell takes it (no hardware
 * of the model: the profiler unwinds the warp's calls here). fn sees the
 * record and the warp it names, in the cycle of the sample, before the
 * record enters the FIFO (it may be dropped there). It must not change the
 * device: cycles and records stay what they are without it. Sampling runs
 * on one host thread, so calls never overlap. fn NULL: none. Kept until
 * replaced; fails only without trace cells (configure first). */
struct ws_warp;
typedef void (*ws_trace_observer)(void *user, const ws_device *dev, const struct ws_warp *w,
                                  const ws_trace_record *r);
ws_status ws_trace_observe(ws_device *dev, ws_trace_observer fn, void *user);

#endif
