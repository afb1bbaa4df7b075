/* Static shared memory reached through a pointer in module data is
 * reserved for every kernel of the module (docs/device.md, "Static shared
 * memory per kernel"). */
#include "warpscope/warpscope.h"
#include "../test.h"

static void check(const char *elf)
{
    ws_device *dev = NULL;
    ws_module *mod = NULL;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    if (!dev) return;
    CHECK(ws_module_load_file(dev, elf, &mod) == WS_OK);
    static const char *const names[] = { "via_data", "direct_first" };
    for (int n = 0; mod && n < 2; n++) {
        ws_kernel *k = NULL;
        ws_addr out = 0;
        int host[64], bad = 0;
        CHECK(ws_kernel_get(mod, names[n], &k) == WS_OK);
        CHECK(ws_malloc(dev, sizeof host, &out) == WS_OK);
        ws_arg a[1] = { WS_ARG_PTR(out) };
        CHECK(k && ws_launch(dev, k, WS_DIM3(2, 1, 1), WS_DIM3(64, 1, 1), 0, a, 1) == WS_OK);
        ws_status st = ws_synchronize(dev);
        if (st != WS_OK) fprintf(stderr, "%s %s: %s\n", elf, names[n], ws_last_error(dev));
        CHECK(st == WS_OK);
        CHECK(ws_memcpy_dtoh(dev, host, out, sizeof host) == WS_OK);
        for (int t = 0; t < 64; t++) bad += host[t] != (n == 0 ? (63 - t) * 2 : 63 - t);
        CHECK_EQ_U(bad, 0);
        ws_launch_stats s;
        CHECK(ws_last_launch_stats(dev, &s) == WS_OK);
        /* both reserve `second` (its address is in data); direct_first
         * also its own array: the span from first to the end of second */
        CHECK_EQ_U(s.shared_per_block, n == 0 ? 256 : 512);
    }
    ws_device_close(dev);
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s MODULE...\n", argv[0]); return 2; }
    for (int i = 1; i < argc; i++) check(argv[i]);
    return TEST_SUMMARY();
}
