/* WARPSCOPE_TOOL entries: one library listed twice is two instances (each
 * with its options), and an entry without a library path is refused with
 * a message saying so. usage: test_api_tools TOOL.so */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "warpscope/warpscope.h"
#include "../test.h"

/* ws_device_open with WARPSCOPE_TOOL=value; what it printed to stderr
 * (its only report when it fails: no device is left to ask) in msg. */
static ws_status open_with(const char *value, ws_device **dev, char *msg, size_t len)
{
    setenv("WARPSCOPE_TOOL", value, 1);
    fflush(stderr);
    FILE *tmp = tmpfile();
    int saved = dup(2);
    if (tmp) dup2(fileno(tmp), 2);
    ws_status st = ws_device_open(NULL, dev);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    msg[0] = 0;
    if (tmp) {
        rewind(tmp);
        size_t n = fread(msg, 1, len - 1, tmp);
        msg[n] = 0;
        fclose(tmp);
    }
    unsetenv("WARPSCOPE_TOOL");
    return st;
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: %s TOOL.so\n", argv[0]); return 2; }
    const char *lib = argv[1];
    /* held open here so its log outlives the device's unloading it */
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    const char *(*tool_log)(void) = NULL;
    if (h) *(void **)&tool_log = dlsym(h, "api_tool_log");
    CHECK(tool_log != NULL);
    if (!tool_log) return TEST_SUMMARY();

    char value[2048], msg[2048];
    ws_device *dev = NULL;
    snprintf(value, sizeof value, "%s=A:%s=B", lib, lib);
    CHECK(open_with(value, &dev, msg, sizeof msg) == WS_OK);
    if (dev) fprintf(stderr, "%s", msg);
    CHECK_STR_CONTAINS(tool_log(), "init A;init B;");
    CHECK(!dev || ws_device_close(dev) == WS_OK);
    CHECK_STR_CONTAINS(tool_log(), "init A;init B;detach B;detach A;");

    /* a name without a slash is looked for in the library search path, not
     * here: the message says how to name a file here (it gave dlopen's
     * bare "cannot open shared object file"); a path gets no such hint */
    CHECK(open_with("libws_no_such_tool.so", &dev, msg, sizeof msg) == WS_ERR_NOT_FOUND);
    CHECK(dev == NULL);
    CHECK_STR_CONTAINS(msg, "WARPSCOPE_TOOL: cannot load libws_no_such_tool.so: libws_no_such_tool.so: cannot open "
                       "shared object file: No such file or directory; a name without a slash is looked for in the "
                       "library search path (LD_LIBRARY_PATH, the system's directories), not in the current "
                       "directory: for a file there, write ./libws_no_such_tool.so");
    CHECK(open_with("/nonexistent/libws_no_such_tool.so", &dev, msg, sizeof msg) == WS_ERR_NOT_FOUND);
    CHECK_STR_CONTAINS(msg, "cannot open shared object file: No such file or directory");
    CHECK(strstr(msg, "without a slash") == NULL);
    {   /* the library itself, by its bare name from its own directory */
        char dir[1024], *slash;
        snprintf(dir, sizeof dir, "%s", lib);
        char cwd[1024];
        if ((slash = strrchr(dir, '/')) != NULL && getcwd(cwd, sizeof cwd) && (*slash = 0, chdir(dir) == 0)) {
            CHECK(open_with(slash + 1, &dev, msg, sizeof msg) == WS_ERR_NOT_FOUND);
            char want[1200];
            snprintf(want, sizeof want, "not in the current directory: for a file there, write ./%s", slash + 1);
            CHECK_STR_CONTAINS(msg, want);
            char dotted[1100];
            snprintf(dotted, sizeof dotted, "./%s", slash + 1);
            CHECK(open_with(dotted, &dev, msg, sizeof msg) == WS_OK); /* as the hint says */
            CHECK(!dev || ws_device_close(dev) == WS_OK);
            CHECK(chdir(cwd) == 0);
        }
    }

    CHECK(open_with("=opt", &dev, msg, sizeof msg) == WS_ERR_INVALID_ARG);
    CHECK(dev == NULL);
    CHECK_STR_CONTAINS(msg, "WARPSCOPE_TOOL: entry '=opt' has no library path");

    /* an init that fails without a message: the error says so (it ended
     * in "warpscope_tool_init failed: " and nothing, or an older message) */
    snprintf(value, sizeof value, "%s=fail-silently", lib);
    CHECK(open_with(value, &dev, msg, sizeof msg) == WS_ERR_UNSUPPORTED);
    CHECK(dev == NULL);
    CHECK_STR_CONTAINS(msg, "warpscope_tool_init returned WS_ERR_UNSUPPORTED without a message");

    /* the options text stays valid until the tool detaches: a tool may
     * keep it (until 2026-11-28 it was freed when ws_device_open returned,
     * so a tool that kept it read freed memory at detach). The allocations
     * in between take the freed block back, as a program's would. */
    snprintf(value, sizeof value, "%s=keep=the options text of this entry", lib);
    CHECK(open_with(value, &dev, msg, sizeof msg) == WS_OK);
    enum { REUSE = 64 };
    char *reuse[REUSE];
    for (int i = 0; i < REUSE; i++)
        if ((reuse[i] = malloc(strlen(value) + 1))) memset(reuse[i], '#', strlen(value));
    CHECK(!dev || ws_device_close(dev) == WS_OK);
    for (int i = 0; i < REUSE; i++) free(reuse[i]);
    CHECK_STR_CONTAINS(tool_log(), "kept keep=the options text of this entry;");

    dlclose(h);
    return TEST_SUMMARY();
}
