/* The public ws_device_open: a runtime device, then the tools the
 * environment asks for (env_tools.c). It lives above the runtime so the
 * runtime includes and calls no tool. */
#include <stdio.h>
#include "attach/env_tools.h"
#include "runtime/runtime.h"

ws_status ws_device_open(const ws_config *cfg, ws_device **out)
{
    ws_status st = ws_runtime_device_open(cfg, out);
    if (st != WS_OK) return st;
    st = ws_env_tools_attach(*out);
    if (st != WS_OK) { /* a tool the user asked for is missing: say so */
        fprintf(stderr, "warpscope: %s\n", ws_last_error(*out));
        ws_device_close(*out);
        *out = NULL;
    }
    return st;
}
