/* Instruction counters: exact per-instruction metrics the timing model
 * counts while they are armed (the profiler arms them), the way a GPU's
 * per-instruction (SASS-level) counters feed Nsight Compute's source page.
 * For every instruction address of the launch's module: warp- and
 * thread-instructions issued, shared-memory requests and wavefronts (bank
 * conflicts are the extra wavefronts), global/local requests and their
 * 32-byte sectors (and how many of the requests were local: lane stacks), and the warp-cycles a warp spent with this instruction
 * as its next one, per warp state (waits at a barrier, and in `membar`,
 * are the bar's and the fence's the warp issued). Summed over all addresses, plus the
 * `outside` entry, they equal the launch's counters (ws_last_launch_counters). */
#ifndef WS_TRACE_PC_COUNTERS_H
#define WS_TRACE_PC_COUNTERS_H
#include <stddef.h>
#include <stdint.h>
#include "device/device.h"
#include "device/warp_state.h"

typedef struct ws_pc_counter {
    uint64_t warp_instructions, thread_instructions;
    uint64_t shared_requests, shared_wavefronts;  /* bank conflicts = wavefronts - requests */
    uint64_t gmem_requests, gmem_sectors;
    uint64_t local_requests;                       /* of gmem_requests: to the lanes' stacks */
    uint64_t stall_cycles[WS_STATE_COUNT];         /* warp-cycles at this PC, per state     */
    uint64_t exit_drains;                          /* warps that ran to their end whose
                                                      store or atomic to complete last was
                                                      this one: what their exit drain waited
                                                      for (timing.md)                       */
} ws_pc_counter;

typedef struct ws_pc_counters {
    int armed;
    uint64_t launch_id;          /* the launch counted last                   */
    uint32_t lo, hi;             /* code range counted: [lo, hi)              */
    ws_pc_counter *e;            /* one per 2-byte granule of [lo, hi)        */
    size_t n, cap;
    ws_pc_counter outside;       /* PCs outside [lo, hi): the exit stub a
                                    retired warp drains at, mostly           */
} ws_pc_counters;

/* Arm or disarm (on = 0) the counters; arming creates them. */
ws_status ws_pc_counters_arm(ws_device *dev, int on);
/* Timing model, at launch start: when armed, clear and size the table for
 * the code region holding the launch's entry. */
void ws_pc_counters_launch_begin(ws_device *dev, const ws_grid_run *L);
/* The counters of the last armed launch (NULL if none): entry i counts
 * address lo + 2 i. */
const ws_pc_counters *ws_pc_counters_get(const ws_device *dev);
void ws_pc_counters_free(ws_device *dev);

/* The entry for pc (`outside` beyond the module), or NULL if not armed. */
static inline ws_pc_counter *ws_pcc_at(ws_pc_counters *p, uint32_t pc)
{
    if (!p || !p->armed || !p->n) return NULL;
    return pc >= p->lo && pc < p->hi ? &p->e[(pc - p->lo) >> 1] : &p->outside;
}

#endif
