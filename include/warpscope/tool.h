/* Warpscope tool interface: a tool is a table of callbacks that the
 * runtime calls at fixed points of a device's life, as CUPTI's callback API
 * or NVBit's tool hooks do. The gdb server and the profiler are two users
 * of it; docs/tools-api.md describes the contract and walks through the
 * example tool in examples/launch_logger.
 *
 * A tool attaches to one device (ws_tool_attach, or from the environment:
 * WARPSCOPE_TOOL=path/to/tool.so, whose warpscope_tool_init is called at
 * device open). Everything else a tool learns or steers goes through the
 * public API and the device's debug and trace blocks. */
#ifndef WARPSCOPE_TOOL_H
#define WARPSCOPE_TOOL_H
#include "warpscope.h"

#ifdef __cplusplus
extern "C" {
#endif

/* 2 added frame_begin and frame_present; tables of version 1 (which end
 * before them) are still accepted. */
#define WS_TOOL_API_VERSION 2

/* One launch as tools see it. */
typedef struct ws_tool_launch {
    uint64_t launch_id;
    const char *kernel;            /* kernel name                             */
    const ws_module *module;       /* the module that holds it                */
    ws_dim3 grid, block;
    uint32_t dynamic_shared;
    /* launch_end only: */
    ws_status status;              /* WS_OK, or why the launch failed         */
    const char *error;             /* the fault report when status != WS_OK   */
    const ws_launch_stats *stats;  /* the launch's statistics                 */
    void *device_launch;           /* the device's own descriptor: for tools
                                      built into the library; leave it alone */
} ws_tool_launch;

/* Runs the launch being handed to a run_launch hook (opaque). */
typedef struct ws_tool_runner ws_tool_runner;

/* Every callback is optional (NULL). `user` is the pointer given to
 * ws_tool_attach. Callbacks run on the thread that made the API call that
 * caused them, with the device's API lock held: a callback may call the
 * public API on its device (the lock is recursive), except from inside a
 * launch (launch_begin .. launch_end and run_launch), where only the
 * read-only calls the printf handler may make work (docs/api.md,
 * "Threads": ws_last_error, ws_last_error_copy, ws_device_config,
 * ws_mem_info, ws_last_launch_stats, ws_last_launch_counters, the module
 * and kernel queries). No callback may close its device,
 * and none may attach a tool once the device is closing (WS_ERR_BUSY). */
typedef struct ws_tool {
    int version;                   /* WS_TOOL_API_VERSION                     */
    const char *name;              /* for messages ("profiler", "gdb server") */
    /* the tool was attached / is being detached (last call it gets) */
    ws_status (*attach)(ws_device *dev, void *user);
    void (*detach)(ws_device *dev, void *user);
    void (*module_loaded)(ws_device *dev, void *user, const ws_module *mod);
    void (*module_unloading)(ws_device *dev, void *user, const ws_module *mod);
    void (*launch_begin)(ws_device *dev, void *user, const ws_tool_launch *launch);
    void (*launch_end)(ws_device *dev, void *user, const ws_tool_launch *launch);
    /* Run the launch yourself: call ws_tool_run(runner) once or more (the
     * profiler's replay passes; returning WS_OK without fails the launch).
     * At most one attached tool may have it. */
    ws_status (*run_launch)(ws_device *dev, void *user, const ws_tool_launch *launch, ws_tool_runner *runner);
    /* ws_device_close has begun: write reports now (detach follows). */
    void (*device_close)(ws_device *dev, void *user);
    /* Version 2: graphics frames (warpscope/graphics.h). A frame was begun
     * (ws_gfx_begin_frame), or presented (ws_gfx_present, after its work
     * ran and before the image goes back to the application; also when
     * that work failed and the present returns the failure). */
    void (*frame_begin)(ws_device *dev, void *user, uint64_t frame);
    void (*frame_present)(ws_device *dev, void *user, uint64_t frame);
} ws_tool;

/* Attach a tool. Tools are called in attach order for attach,
 * module_loaded and launch_begin, and in reverse order for launch_end,
 * module_unloading, device_close and detach. Fails with WS_ERR_BUSY if
 * the tool needs run_launch and another attached tool already has it,
 * WS_ERR_UNSUPPORTED for another API version, or with the status of the
 * tool's own attach callback. */
WS_API ws_status ws_tool_attach(ws_device *dev, const ws_tool *tool, void *user);
/* Detach a tool attached with the same table and user pointer. */
WS_API ws_status ws_tool_detach(ws_device *dev, const ws_tool *tool, void *user);
/* A tool's own failure, in words: makes the message ws_last_error(dev)
 * returns (printf-style, at most about 1 KiB) and returns st, so an init
 * function or a callback can fail with a reason:
 *     return ws_tool_error(dev, WS_ERR_INVALID_ARG, "my tool: unknown option '%s'", opt);
 * (a failure without one is reported as "... returned WS_ERR_IO without a
 * message"). */
WS_API ws_status ws_tool_error(ws_device *dev, ws_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* A tool that waited for the device's queue on the program's behalf (to
 * read results) and met a failure of the program's work (st: a kernel
 * fault, assert, deadlock, watchdog; report: ws_last_error's message)
 * hands it back: the program's next call that waits for the queue
 * discards the work queued since and reports it, as if the tool had not
 * waited. WS_ERR_INVALID_ARG for a status that is not such a failure, or
 * a NULL or empty report (nothing is handed back then). */
WS_API ws_status ws_tool_hand_back(ws_device *dev, ws_status st, const char *report);
/* The host process is exiting with `status` (the value main returned or
 * exit was given) while dev is still open: an exit hook that closes the
 * devices a program left open (the exit closer the warpscope commands
 * preload) says so first, and the tools that report the program's end
 * pass it on (the gdb server: gdb prints "exited with code N"). Unset, or
 * for a device the program closes itself, the status is 0. */
WS_API ws_status ws_tool_set_exit_status(ws_device *dev, int status);
/* From a run_launch hook: run the launch once, from its queued state (grid
 * position, arguments, statistics). Device memory is not restored: a tool
 * that replays a launch saves and restores the buffers it needs. */
WS_API ws_status ws_tool_run(ws_tool_runner *runner);

/* The entry point a tool library exports for WARPSCOPE_TOOL: called at
 * device open with the text after '=' in "path.so=OPTIONS" (or NULL); it
 * attaches with ws_tool_attach and returns its status. */
typedef ws_status (*ws_tool_init_fn)(ws_device *dev, const char *options);
#define WS_TOOL_INIT_SYMBOL "warpscope_tool_init"

#ifdef __cplusplus
}
#endif
#endif
