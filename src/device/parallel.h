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

/* Host threads for a device opened with configuration c: c->threads, or
 * $WARPSCOPE_THREADS, or one per host core; never more than the cores. */
uint32_t ws_par_threads_for(const ws_config *c);

/* May launch L run on several threads? Only when nothing observes the
 * device instruction by instruction: no debugger, no event bus, no
 * attached tool, functional mode, and more than one thread and block. */
int ws_par_launch_ok(const ws_device *dev, const ws_grid_run *L);

/* One scheduling round of core c: adds the warp-instructions it issued
 * and the blocks it released; returns 0, or -1 on a fault (recorded with
 * ws_fault_raise). */
typedef int (*ws_par_core_fn)(ws_device *dev, uint32_t core, int64_t *issued, uint32_t *released);

typedef enum ws_par_result {
    WS_PAR_DONE, WS_PAR_FAULT, WS_PAR_DEADLOCK, WS_PAR_TIMEOUT,
    WS_PAR_NO_THREADS,   /* the pool could not start; nothing ran            */
    WS_PAR_SERIAL        /* the cores waited for each other too often: every
                            core stopped at one round boundary, and the rest
                            of the launch is the caller's to run on one thread */
} ws_par_result;

/* Run the current launch (its first blocks already placed) to its end on
 * the pool. WS_PAR_FAULT: dev->fault holds the fault one thread would have
 * raised first. WS_PAR_TIMEOUT: still running after limit_s seconds of
 * host time (0: no limit). WS_PAR_NO_THREADS and WS_PAR_SERIAL: the
 * caller runs the (rest of the) launch on its own thread. */
ws_par_result ws_par_run(ws_device *dev, ws_par_core_fn fn, double limit_s);

/* printf from a lane while the cores run in parallel: held until the
 * launch ends. Returns -1 if host memory ran out. */
int ws_par_print(ws_device *dev, const ws_warp *w, ws_dim3 thread, const char *text, uint32_t len);

/* Stop the worker threads and free the buffers (device close). */
void ws_par_free(ws_device *dev);
#endif
