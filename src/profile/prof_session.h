/* The profiler session attached to a device (the profiler tool's user
 * pointer, prof_session.c). */
#ifndef WS_PROFILE_PROF_SESSION_H
#define WS_PROFILE_PROF_SESSION_H
#include "profile/profiler.h"
#include "profile/prof_internal.h"
#include "runtime/runtime.h"

typedef struct ws_profiler ws_profiler;

typedef struct prof_module {
    const struct ws_module *mod;  /* identity only: may be unloaded later */
    uint32_t base;
    uint32_t link_base;           /* of the ELF file (DWARF addresses)     */
    char *name;
    ws_line_map *map;             /* NULL: no source lines                */
} prof_module;

struct ws_profiler {
    prof_options opt;
    ws_addr buffer;               /* header + capacity records            */
    uint32_t capacity;
    uint32_t device_number;       /* from devices=FILE as the device opened (0: numbered at close) */
    prof_launch *launches;
    size_t nlaunches, launchcap;
    prof_module *mods;
    size_t nmods, modcap;
};

prof_module *prof_module_for(ws_profiler *P, const struct ws_module *m);
/* Run launch L under the profiler: replay passes through the tool
 * interface's runner, sample read-back, correlation (prof_replay.c). Memory
 * ends as one run of L leaves it. */
ws_status prof_launch_run(ws_device *dev, ws_profiler *P, ws_grid_run *L, ws_tool_runner *run);

#endif
