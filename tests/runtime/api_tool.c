/* A tool library for test_api_tools.c: each warpscope_tool_init attaches
 * one instance, named by its options; api_tool_log says what happened. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/tool.h"

static char log_text[512]; /* the test reads it (one device at a time) */

__attribute__((visibility("default"))) const char *api_tool_log(void) { return log_text; }

static void note(const char *what, const char *tag)
{
    size_t n = strlen(log_text);
    snprintf(log_text + n, sizeof log_text - n, "%s %s;", what, tag);
}

static void on_detach(ws_device *dev, void *user)
{
    (void)dev;
    note("detach", user);
    free(user);
}

static const ws_tool tool = { .version = WS_TOOL_API_VERSION, .name = "api test tool", .detach = on_detach };

__attribute__((visibility("default"))) ws_status warpscope_tool_init(ws_device *dev, const char *options)
{
    if (options && !strcmp(options, "fail-silently")) return WS_ERR_UNSUPPORTED; /* no message set */
    char *tag = strdup(options ? options : "-");
    if (!tag) return WS_ERR_OUT_OF_MEMORY;
    note("init", tag);
    ws_status st = ws_tool_attach(dev, &tool, tag);
    if (st != WS_OK) free(tag);
    return st;
}
