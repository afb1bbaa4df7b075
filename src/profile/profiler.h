/* The sampling profiler as the rest of the library sees it: attach to a
 * device from WARPSCOPE_PROFILE (runtime/observers.c), run each launch with
 * its replay passes (device/cmdproc.c), write the reports at close.
 * docs/profiling.md describes the options and the outputs. */
#ifndef WS_PROFILE_PROFILER_H
#define WS_PROFILE_PROFILER_H
#include "device/device.h"

/* Runs one pass of a launch (cmdproc.c's run_launch). */
typedef ws_status (*ws_launch_runner)(ws_device *dev, ws_grid_run *L);

/* Attach a profiler to dev if `spec` (the WARPSCOPE_PROFILE text) is not
 * NULL: forces timing mode, allocates the event buffer. Errors leave
 * dev->profiler NULL and a message in dev->err. */
ws_status ws_profiler_attach(ws_device *dev, const char *spec);
/* Run launch L under the profiler: replay passes, sample read-back,
 * correlation. Memory ends as one run of L leaves it. */
ws_status ws_profiler_launch(ws_device *dev, ws_grid_run *L, ws_launch_runner run);
/* Write the report, JSON and trace files and free the profiler. */
void ws_profiler_detach(ws_device *dev);

#endif
