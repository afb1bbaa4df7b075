/* A launch's inputs — global memory, lane stacks, shared memory — saved
 * before a tool runs the launch more than once (the profiler's replay
 * passes, the tracer's counting and recording passes) and put back before
 * each further run, so every run sees what the first one saw. */
#ifndef WS_RUNTIME_LAUNCH_SNAPSHOT_H
#define WS_RUNTIME_LAUNCH_SNAPSHOT_H
#include "device/device.h"

typedef struct ws_launch_snapshot {
    uint8_t *global, *stacks, *shared;
    size_t nglobal, nstacks, nshared;
    size_t hole_lo, hole_hi;    /* a global range that is not an input (offsets) */
} ws_launch_snapshot;

/* Save; [hole, hole + hole_size) of global memory (a tool's own buffer) is
 * left out (hole_size 0: none). Returns -1 when out of host memory. */
int ws_launch_snapshot_take(ws_device *dev, ws_launch_snapshot *s, uint32_t hole, size_t hole_size);
/* Put back what changed (page by page: a launch touches little). */
void ws_launch_snapshot_restore(ws_device *dev, const ws_launch_snapshot *s);
void ws_launch_snapshot_free(ws_launch_snapshot *s);

#endif
