/* A kernel reserves the static shared memory its code reaches; the walk
 * of its code followed every direct call's fall-through, also after a
 * call that never returns (a failed assert), into the next kernel's code:
 * `checked`, with an assert and 256 bytes of its own, reserved `big`'s
 * 32 KiB as well, and a launch with a 4 KiB limit per block was refused. */
#include "warpscope/warpscope.h"
#include "../test.h"

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s noreturn_kernels.elf\n", argv[0]); return 2; }
    ws_config c;
    ws_config_default(&c);
    c.max_shared_per_block = 4096;
    ws_device *dev = NULL;
    ws_module *mod = NULL;
    ws_kernel *k = NULL;
    ws_addr out = 0;
    CHECK(ws_device_open(&c, &dev) == WS_OK);
    CHECK(ws_module_load_file(dev, argv[1], &mod) == WS_OK);
    CHECK(ws_malloc(dev, 64 * sizeof(int), &out) == WS_OK);

    CHECK(ws_kernel_get(mod, "checked", &k) == WS_OK);
    ws_arg a[2] = { WS_ARG_PTR(out), WS_ARG_I32(5) };
    ws_status st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(64, 1, 1), 0, a, 2);
    if (st == WS_OK) st = ws_synchronize(dev);
    CHECK(st == WS_OK);
    if (st != WS_OK) printf("checked: %s\n", ws_last_error(dev));
    ws_launch_stats s = { 0 };
    CHECK(ws_last_launch_stats(dev, &s) == WS_OK);
    CHECK_EQ_U(s.shared_per_block, 256);
    int host[64];
    CHECK(ws_memcpy_dtoh(dev, host, out, sizeof host) == WS_OK);
    int bad = 0;
    for (int t = 0; t < 64; t++) bad += host[t] != 5 + (t + 1) % 64;
    CHECK_EQ_U(bad, 0);

    /* big still reserves its own array, and is refused for it */
    CHECK(ws_kernel_get(mod, "big", &k) == WS_OK);
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(64, 1, 1), 0, a, 1) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "32768 bytes of shared memory");
    printf("big: %s\n", ws_last_error(dev));
    ws_free(dev, out);
    ws_device_close(dev);
    return TEST_SUMMARY();
}
