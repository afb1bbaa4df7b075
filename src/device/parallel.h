/* Parallel simulation: the cores of a functional-mode launch run on
 * several host threads (docs/parallel.md). Cores only meet where the work
 * distributor places a block, so each core runs its scheduling rounds on
 * its own and waits only after a round in which it freed a block slot,
 * until every core has finished that round; the placement is then made
 * exactly as one thread would make it. Statistics are folded, the first
 * fault in (round, core) order is reported and printf output is emitted
 * in (round, core) order, so a program whose result does not depend on
 * racing blocks gives the same results, statistics, output and fault
 * report with any number of threads. */
#ifndef WS_DEVICE_PARALLEL_H
#define WS_DEVICE_PARALLEL_H
#include "device/device.h"

/* Host threads for a device opened with configuration c: c->threads (the
 * runtime puts $WARPSCOPE_THREADS there when the configuration has 0), or
 * one per host core; never more than the cores. *asked: the number was
 * given (not the host's core count). */
uint32_t ws_par_threads_for(const ws_config *c, int *asked);

/* May launch L run on several threads? Only when nothing observes the
 * device instruction by instruction: no debugger, no event bus, no
 * attached tool, and more than one thread and block. (Timing mode decides
 * when: timing.c, docs/parallel.md.) */
int ws_par_launch_ok(const ws_device *dev, const ws_grid_run *L);

/* One step of core c, which has finished `now` rounds (functional mode:
 * scheduling rounds; timing mode: cycles): one round or more. Sets *next
 * to its round count after the step and *released to the blocks it freed
 * (a step that frees one ends with that round). Returns 0; 1 if nothing on
 * the core can change any more, as no placement reaches it (done, or
 * stuck); -1 on a fault (recorded with ws_fault_raise) in round *next - 1. */
typedef int (*ws_par_core_fn)(ws_device *dev, uint32_t core, uint64_t now, uint64_t *next, uint32_t *released);

typedef enum ws_par_result {
    WS_PAR_DONE, WS_PAR_FAULT, WS_PAR_DEADLOCK, WS_PAR_TIMEOUT, WS_PAR_INTERRUPTED,
    WS_PAR_NO_THREADS    /* the pool could not start; nothing ran            */
} ws_par_result;

typedef struct ws_par_launch {
    ws_par_core_fn step;
    /* Blocks were placed, for round `round`, on the cores c with
     * cores[c] != 0 (called under the pool's lock, those cores idle). NULL:
     * each core's own thread sets its new warps up. */
    void (*placed)(ws_device *dev, const uint8_t *cores, uint64_t round);
    double limit_s;      /* host seconds before WS_PAR_TIMEOUT; 0: none      */
    uint64_t start;      /* rounds every core has finished (0, or the cycle a
                            timing-mode launch run on one thread so far
                            hands over at)                                  */
} ws_par_launch;

/* Run the current launch (its first blocks already placed) to its end on
 * the pool. WS_PAR_FAULT: dev->fault holds the fault one thread would have
 * raised first. WS_PAR_NO_THREADS: the caller runs the launch on its own
 * thread. A launch whose cores each run their own sequence of blocks
 * (L->per_core_order, functional mode) places them on the core's own
 * thread; otherwise a core that freed a slot waits for the placement one
 * thread would make. */
ws_par_result ws_par_run(ws_device *dev, const ws_par_launch *how);

/* A step that runs several rounds says which one core c is in (printf
 * output is ordered by it). */
void ws_par_at_round(ws_device *dev, uint32_t c, uint64_t round);

/* Core c's round count in the parallel launch that ran last. */
uint64_t ws_par_core_round(const ws_device *dev, uint32_t c);

/* printf from a lane while the cores run in parallel: held until the
 * launch ends. Returns -1 if host memory ran out. */
int ws_par_print(ws_device *dev, const ws_warp *w, ws_dim3 thread, const char *text, uint32_t len);

/* Stop the worker threads and free the buffers (device close). */
void ws_par_free(ws_device *dev);
#endif
