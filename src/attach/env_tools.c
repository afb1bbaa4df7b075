/* The environment variables that attach tools to every device a program
 * opens, so an unmodified program can be debugged, profiled or traced:
 *   WARPSCOPE_PROFILE  the sampling profiler (src/profile, docs/profiling.md)
 *   WARPSCOPE_DEBUG    the gdb server (src/gdbstub, docs/debugging.md)
 *   WARPSCOPE_JTAG     the JTAG remote_bitbang port for OpenOCD (src/jtag,
 *                      docs/jtag-openocd.md)
 *   WARPSCOPE_TRACE    the instrumentation tracer (src/instrument, docs/tracing.md)
 *   WARPSCOPE_WATCH    the event watcher (src/watch, docs/events.md); with
 *                      WARPSCOPE_WATCH_MACHINES alone, its machines without a trace
 *   WARPSCOPE_TOOL     tool libraries, "a.so[=OPTIONS]:b.so..." (docs/tools-api.md)
 * A new built-in tool adds one row to the table. */
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include "attach/env_tools.h"
#include "device/device.h"
#include "gdbstub/gdbserver.h"
#include "jtag/jtag_server.h"
#include "instrument/tracer.h"
#include "watch/watch.h"
#include "profile/profiler.h"
#include "warpscope/tool.h"

typedef struct env_tool {
    const char *variable;
    ws_status (*attach)(ws_device *dev, const char *value);
} env_tool;

static ws_status attach_libraries(ws_device *dev, const char *value);

/* Attach order is call order for begin events (tool.h): the profiler
 * replays launches, the debugger sees each pass. */
static const env_tool env_tools[] = {
    { "WARPSCOPE_PROFILE", ws_profiler_attach },
    { "WARPSCOPE_DEBUG", ws_gdbserver_attach },
    { "WARPSCOPE_JTAG", ws_jtag_server_attach },
    { "WARPSCOPE_TRACE", ws_tracer_attach },
    { "WARPSCOPE_WATCH", ws_watch_attach },
    { "WARPSCOPE_WATCH_MACHINES", ws_watch_attach_machines }, /* (alone: machines, no trace) */
    { "WARPSCOPE_TOOL", attach_libraries },
};

/* A tool library stays loaded until the device closes: this tool, attached
 * before the library's own, is detached after it and unloads it. Its user
 * is one per entry, not the dlopen handle: a library listed twice (two
 * instances, e.g. with different options) gets the same handle, opened
 * and closed once per entry. It also owns the entry's options, which the
 * library's tool may keep until it detaches (docs/tools-api.md). */
typedef struct loaded_library { void *handle; char *options; } loaded_library;

static void unload_library(ws_device *dev, void *user)
{
    loaded_library *lib = user;
    (void)dev;
    dlclose(lib->handle);
    free(lib->options);
    free(lib);
}

static const ws_tool library_unloader = {
    .version = WS_TOOL_API_VERSION,
    .name = "tool library loader",
    .detach = unload_library,
};

/* What to add to dlopen's reason when the library needs the API from the
 * program and the program does not export it (linked with the static
 * library without -rdynamic). */
static const char *export_hint(const char *why)
{
    return why && strstr(why, "undefined symbol: ws_")
               ? "; the program does not export the warpscope API to tool libraries: link it with "
                 "libwarpscope.so, or export the static library's symbols (-rdynamic, CMake's ENABLE_EXPORTS)"
               : "";
}

static ws_status attach_library(ws_device *dev, char *entry)
{
    char *options = strchr(entry, '=');
    if (options == entry) /* dlopen("") would open the program itself */
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "WARPSCOPE_TOOL: entry '%s' has no library path "
                            "(expected LIBRARY.so[=OPTIONS])", entry);
    if (options) *options++ = 0;
    void *h = dlopen(entry, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        const char *why = dlerror();
        /* dlopen looks for a name without a slash in the library search
         * path only, so a file in the current directory is "not found" there
         * and its bare message does not say why */
        const int searched = !strchr(entry, '/') && why && strstr(why, "cannot open shared object file");
        return ws_set_error(dev, WS_ERR_NOT_FOUND, "WARPSCOPE_TOOL: cannot load %s: %s%s%s%s", entry, why ? why : "?",
                            export_hint(why),
                            searched ? "; a name without a slash is looked for in the library search path "
                                       "(LD_LIBRARY_PATH, the system's directories), not in the current directory: "
                                       "for a file there, write ./" : "",
                            searched ? entry : "");
    }
    ws_tool_init_fn init;
    *(void **)&init = dlsym(h, WS_TOOL_INIT_SYMBOL);
    if (!init) {
        dlclose(h);
        return ws_set_error(dev, WS_ERR_NOT_FOUND, "WARPSCOPE_TOOL: %s has no %s function", entry,
                            WS_TOOL_INIT_SYMBOL);
    }
    loaded_library *lib = calloc(1, sizeof *lib);
    if (lib && options && !(lib->options = strdup(options))) {
        free(lib);
        lib = NULL;
    }
    if (!lib) {
        dlclose(h);
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "WARPSCOPE_TOOL: %s: out of host memory", entry);
    }
    lib->handle = h;
    ws_status st = ws_tool_attach(dev, &library_unloader, lib);
    if (st != WS_OK) {
        dlclose(h);
        free(lib->options);
        free(lib);
        return st;
    }
    dev->err[0] = 0; /* (an earlier call's message would explain nothing) */
    st = init(dev, lib->options); /* (not options: the entry's text is freed when the list is read) */
    if (st != WS_OK && !dev->err[0])
        ws_set_error(dev, st, "WARPSCOPE_TOOL: %s: %s returned %s without a message", entry, WS_TOOL_INIT_SYMBOL,
                     ws_status_name(st));
    else if (st != WS_OK && !strstr(dev->err, entry)) {
        char why[WS_ERRLEN - 128];
        memcpy(why, dev->err, sizeof why - 1); /* the tool's own message, shortened to fit */
        why[sizeof why - 1] = 0;
        ws_set_error(dev, st, "WARPSCOPE_TOOL: %s: %s failed: %.700s", entry, WS_TOOL_INIT_SYMBOL, why);
    }
    return st;
}

static ws_status attach_libraries(ws_device *dev, const char *value)
{
    char *list = strdup(value);
    if (!list) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "WARPSCOPE_TOOL: out of host memory");
    ws_status st = WS_OK;
    char *save = NULL;
    for (char *e = strtok_r(list, ":", &save); e && st == WS_OK; e = strtok_r(NULL, ":", &save))
        st = attach_library(dev, e);
    free(list);
    return st;
}

ws_status ws_env_tools_attach(ws_device *dev)
{
    /* One debugger per device. Checked before any tool attaches: the gdb
     * server, attached first, waits for gdb at open, so the JTAG port's
     * own refusal came only after a gdb connected, and a probe meanwhile
     * found no port at all. */
    const char *gdb = getenv("WARPSCOPE_DEBUG"), *jtag = getenv("WARPSCOPE_JTAG");
    if (gdb && *gdb && jtag && *jtag)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "WARPSCOPE_DEBUG and WARPSCOPE_JTAG are both set: one debugger "
                            "per device (the gdb server or the JTAG port for OpenOCD); unset one of them");
    for (size_t i = 0; i < sizeof env_tools / sizeof *env_tools; i++) {
        const char *v = getenv(env_tools[i].variable);
        if (!v || !*v) continue;
        ws_status st = env_tools[i].attach(dev, v);
        if (st != WS_OK) return st;
    }
    return WS_OK;
}
