/* A fault in a function of one module called from a kernel of another:
 * the report names the function's line and the line of the kernel that
 * called it (the unwinder crosses modules), the same on every engine and
 * host thread count, in timing mode too.
 * Usage: test_fault_modules LINE.elf line_kernels.c CALLER.elf caller_kernels.c */
#include "warpscope/warpscope.h"
#include "../test.h"

/* "FILE:LINE" of the line holding mark in the source file path. */
static void where(const char *path, const char *mark, char *out, size_t len)
{
    FILE *f = fopen(path, "r");
    char line[512];
    int n = 0, found = 0;
    while (f && fgets(line, sizeof line, f)) {
        n++;
        if (strstr(line, mark)) { found = n; break; }
    }
    if (f) fclose(f);
    snprintf(out, len, "%s:%d", path, found);
}

static void run_once(const char **argv, const char *conf, char *msg, size_t len)
{
    ws_config cfg;
    ws_device *dev = NULL;
    ws_module *a = NULL, *b = NULL;
    ws_kernel *pub = NULL, *call = NULL;
    ws_addr fp = 0, out = 0;
    char err[256];
    msg[0] = 0;
    ws_config_default(&cfg);
    CHECK(ws_config_parse(&cfg, conf, err, sizeof err) == WS_OK);
    CHECK(ws_device_open(&cfg, &dev) == WS_OK);
    if (!dev) return;
    CHECK(ws_module_load_file(dev, argv[1], &a) == WS_OK);
    CHECK(ws_module_load_file(dev, argv[3], &b) == WS_OK);
    CHECK(a && ws_kernel_get(a, "publish", &pub) == WS_OK);
    CHECK(b && ws_kernel_get(b, "call_other", &call) == WS_OK);
    CHECK(ws_malloc(dev, 64, &fp) == WS_OK && ws_malloc(dev, 32 * 4, &out) == WS_OK);
    ws_arg pa[] = { WS_ARG_PTR(fp) }, ca[] = { WS_ARG_PTR(fp), WS_ARG_PTR(out) };
    if (pub) CHECK(ws_launch(dev, pub, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, pa, 1) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_OK);
    if (call) CHECK(ws_launch(dev, call, WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0, ca, 2) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_ERR_KERNEL_FAULT);
    snprintf(msg, len, "%s", ws_last_error(dev));
    ws_device_close(dev);
}

int main(int argc, const char **argv)
{
    if (argc < 5) return 2;
    char victim[600], caller[600], want[1400], msg[2048], again[2048];
    where(argv[2], "OTHER_FAULT_LINE", victim, sizeof victim);
    where(argv[4], "CALL_OTHER_LINE", caller, sizeof caller);
    snprintf(want, sizeof want, "at %s in other_victim, called from %s in call_other", victim, caller);
    run_once(argv, "cores=2", msg, sizeof msg);
    CHECK_STR_CONTAINS(msg, want);
    CHECK_STR_CONTAINS(msg, "thread (5,0,0)");
    static const char *const confs[] = { "cores=2,engine=interp", "cores=2,threads=2", "cores=2,mode=timing" };
    for (size_t i = 0; i < sizeof confs / sizeof *confs; i++) {
        run_once(argv, confs[i], again, sizeof again);
        CHECK(!strcmp(again, msg));
        if (strcmp(again, msg)) fprintf(stderr, "%s:\n  %s\nvs\n  %s\n", confs[i], again, msg);
    }
    return TEST_SUMMARY();
}
