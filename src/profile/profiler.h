/* The sampling profiler as the rest of the library sees it: a tool
 * (include/warpscope/tool.h) that the environment attaches
 * (WARPSCOPE_PROFILE, src/attach), runs each launch with its replay passes
 * through the tool interface's run_launch hook, and writes the reports at
 * device close. docs/profiling.md describes the options and the outputs. */
#ifndef WS_PROFILE_PROFILER_H
#define WS_PROFILE_PROFILER_H
#include "device/device.h"
#include "warpscope/tool.h"

/* Attach a profiler to dev as configured by `spec` (the WARPSCOPE_PROFILE
 * text): forces timing mode, allocates the event buffer. Errors leave
 * nothing attached and a message in dev->err. */
ws_status ws_profiler_attach(ws_device *dev, const char *spec);

#endif
