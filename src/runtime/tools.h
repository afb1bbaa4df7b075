/* The attached tools of a device (include/warpscope/tool.h) as the rest of
 * the runtime drives them: module and close events, and the launch hook the
 * command processor calls for every launch (src/runtime/tools.c). */
#ifndef WS_RUNTIME_TOOLS_H
#define WS_RUNTIME_TOOLS_H
#include "device/device.h"
#include "warpscope/tool.h"

/* Install the launch hook (device open). */
void ws_tools_init(ws_device *dev);
void ws_tools_module_loaded(ws_device *dev, const ws_module *m);
void ws_tools_module_unloading(ws_device *dev, const ws_module *m);
/* For a tool built into the library: like ws_tool_run, but start the
 * launch's warps at `entry` (a kernel of a module placed with
 * ws_module_load_twin) instead of the kernel's own entry. */
ws_status ws_tool_run_entry(ws_tool_runner *r, uint32_t entry);
/* A graphics frame was begun (begin = 1) or presented: tools of API
 * version 2 and later hear of it, in attach order. */
void ws_tools_frame(ws_device *dev, uint64_t frame, int begin);
/* device_close, then detach, of every tool, newest first; frees the list. */
void ws_tools_close(ws_device *dev);
/* Is a tool callback running (attach, detach, module, frame or close
 * events)? ws_device_close is refused then: the list it would free is in use. */
int ws_tools_in_callback(const ws_device *dev);
/* The name of the attached tool that runs launches itself (run_launch;
 * at most one is), "another tool" if it has none; NULL when none is. */
const char *ws_tools_replayer(const ws_device *dev);

#endif
