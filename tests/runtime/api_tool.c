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

/* An instance that keeps the options text itself, as a tool may: it is
 * its user and is read again at detach. */
static void on_detach_kept(ws_device *dev, void *user)
{
    (void)dev;
    note("kept", user);
}

static const ws_tool keeper = { .version = WS_TOOL_API_VERSION, .name = "api test keeper", .detach = on_detach_kept };

__attribute__((visibility("default"))) ws_status warpscope_tool_init(ws_device *dev, const char *options)
{
    if (options && !strcmp(options, "fail-silently")) return WS_ERR_UNSUPPORTED; /* no message set */
    if (options && !strncmp(options, "keep=", 5)) return ws_tool_attach(dev, &keeper, (void *)options);
    char *tag = strdup(options ? options : "-");
    if (!tag) return WS_ERR_OUT_OF_MEMORY;
    note("init", tag);
    ws_status st = ws_tool_attach(dev, &tool, tag);
    if (st != WS_OK) free(tag);
    return st;
}
