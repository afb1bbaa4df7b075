/* An example tool (docs/tools-api.md): logs every module load and every
 * launch with its kernel, grid, block, duration and status.
 *
 * Two ways to use it:
 *   WARPSCOPE_TOOL=liblaunch_logger.so ./program         (any program)
 *   WARPSCOPE_TOOL=liblaunch_logger.so=log=FILE ./program
 * or linked into a program: launch_logger_attach(dev, NULL). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/tool.h"
#include "launch_logger.h"

typedef struct logger {
    FILE *out;
    int own;           /* out is ours to close */
    unsigned launches;
} logger;

static void on_module(ws_device *dev, void *user, const ws_module *mod)
{
    logger *lg = user;
    ws_addr base = 0;
    uint32_t size = 0;
    ws_module_base(mod, &base, &size);
    (void)dev;
    fprintf(lg->out, "[launch-logger] module loaded at 0x%08x (%u bytes)\n", base, size);
}

static void on_launch_end(ws_device *dev, void *user, const ws_tool_launch *l)
{
    logger *lg = user;
    (void)dev;
    lg->launches++;
    fprintf(lg->out, "[launch-logger] launch %llu %s grid (%u,%u,%u) block (%u,%u,%u): %.3f ms, %s\n",
            (unsigned long long)l->launch_id, l->kernel, l->grid.x, l->grid.y, l->grid.z, l->block.x,
            l->block.y, l->block.z, l->stats ? l->stats->host_seconds * 1e3 : 0.0, ws_status_name(l->status));
    if (l->status != WS_OK && l->error) fprintf(lg->out, "[launch-logger]   %s\n", l->error);
}

static void on_detach(ws_device *dev, void *user)
{
    logger *lg = user;
    (void)dev;
    fprintf(lg->out, "[launch-logger] %u launch%s\n", lg->launches, lg->launches == 1 ? "" : "es");
    if (lg->own) fclose(lg->out);
    else fflush(lg->out);
    free(lg);
}

static const ws_tool launch_logger = {
    .version = WS_TOOL_API_VERSION,
    .name = "launch logger",
    .module_loaded = on_module,
    .launch_end = on_launch_end,
    .detach = on_detach,
};

ws_status launch_logger_attach(ws_device *dev, const char *options)
{
    logger *lg = calloc(1, sizeof *lg);
    if (!lg) return WS_ERR_OUT_OF_MEMORY;
    lg->out = stderr;
    if (options && !strncmp(options, "log=", 4)) {
        if (!(lg->out = fopen(options + 4, "w"))) {
            free(lg);
            return ws_tool_error(dev, WS_ERR_IO, "launch logger: cannot write the log %s: %s", options + 4,
                                 strerror(errno));
        }
        lg->own = 1;
    } else if (options && *options) { /* a misspelt option is not ignored */
        free(lg);
        return ws_tool_error(dev, WS_ERR_INVALID_ARG, "launch logger: unknown option '%s' (options: log=FILE)",
                             options);
    }
    ws_status st = ws_tool_attach(dev, &launch_logger, lg);
    if (st != WS_OK) {
        if (lg->own) fclose(lg->out);
        free(lg);
    }
    return st;
}

/* The entry point WARPSCOPE_TOOL looks for. */
__attribute__((visibility("default"))) ws_status warpscope_tool_init(ws_device *dev, const char *options)
{
    return launch_logger_attach(dev, options);
}
