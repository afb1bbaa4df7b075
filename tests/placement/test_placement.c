/* Issue 8 items 7 and 8: a launch reserves the static shared memory of the
 * launched kernel only, and the blocks of a small grid spread over the
 * cores. Results are checked too: moving the shared window must not change
 * what the kernels compute. */
#include <string.h>
#include "warpscope/warpscope.h"
#include "../test.h"

static ws_device *dev;
static ws_module *mod;

static ws_launch_stats run(const char *name, unsigned blocks, unsigned threads, unsigned dyn, int *host)
{
    ws_launch_stats s = { 0 };
    ws_kernel *k = NULL;
    ws_addr out = 0;
    size_t bytes = (size_t)blocks * threads * sizeof(int);
    CHECK(ws_kernel_get(mod, name, &k) == WS_OK);
    CHECK(ws_malloc(dev, bytes, &out) == WS_OK);
    ws_arg a[1] = { WS_ARG_PTR(out) };
    CHECK(ws_launch(dev, k, WS_DIM3(blocks, 1, 1), WS_DIM3(threads, 1, 1), dyn, a, 1) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, host, out, bytes) == WS_OK);
    CHECK(ws_last_launch_stats(dev, &s) == WS_OK);
    CHECK(ws_free(dev, out) == WS_OK);
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s place_kernels.elf\n", argv[0]); return 2; }
    ws_config c;
    ws_config_default(&c);
    c.cores = 4;
    c.shared_per_core = 8192;
    c.max_shared_per_block = 8192;
    CHECK(ws_device_open(&c, &dev) == WS_OK);
    CHECK(ws_module_load_file(dev, argv[1], &mod) == WS_OK);
    static int host[8 * 256];

    /* item 7: each kernel reserves what it uses, not the module's 5.25 KiB */
    ws_launch_stats s = run("use_a", 2, 32, 0, host);
    CHECK_EQ_U(s.shared_per_block, 1024);
    CHECK_EQ_U(s.blocks_per_core, 8); /* 8 KiB / 1 KiB, and 8 one-warp blocks */
    int bad = 0;
    for (unsigned b = 0; b < 2; b++)
        for (unsigned t = 0; t < 32; t++) bad += host[b * 32 + t] != (int)(b * 32 + 31 - t);
    CHECK_EQ_U(bad, 0);

    s = run("use_b", 2, 64, 0, host);
    CHECK_EQ_U(s.shared_per_block, 4096);
    CHECK_EQ_U(s.blocks_per_core, 2);
    bad = 0;
    for (unsigned i = 0; i < 128; i++) bad += host[i] != 1023 * 1024 / 2 + (int)(i % 64);
    CHECK_EQ_U(bad, 0);

    s = run("use_c_dyn", 1, 64, 64, host);
    CHECK_EQ_U(s.shared_per_block, 256 + 64);
    bad = 0;
    for (unsigned t = 0; t < 64; t++) bad += host[t] != (int)((t + 1) % 64) + (int)(48 + t % 16);
    CHECK_EQ_U(bad, 0);

    /* block-scope WS_SHARED (item 14): each kernel its own array */
    s = run("local_a", 2, 128, 0, host);
    CHECK_EQ_U(s.shared_per_block, 512);
    bad = 0;
    for (unsigned i = 0; i < 256; i++) bad += host[i] != (int)(127 - i % 128) * 3;
    CHECK_EQ_U(bad, 0);
    s = run("local_b", 1, 32, 0, host);
    CHECK_EQ_U(s.shared_per_block, 64);
    bad = 0;
    for (unsigned t = 0; t < 32; t++) bad += host[t] != (int)(t % 8);
    CHECK_EQ_U(bad, 0);

    /* a switch's jump table: its own array only */
    s = run("local_switch", 1, 32, 0, host);
    CHECK_EQ_U(s.shared_per_block, 128);
    bad = 0;
    for (unsigned t = 0; t < 32; t++) {
        const int u = (int)((t + 1) % 32), r = u % 8;
        const int want = r == 0 ? u * 5 : r == 1 ? u + 9 : r == 2 ? (u ^ 6) : r == 3 ? u - 3 : r == 4 ? u << 2
                         : r == 5 ? u * u + 1 : r == 6 ? u + 200 : u;
        bad += host[t] != want;
    }
    CHECK_EQ_U(bad, 0);

    /* a kernel that calls through a pointer reserves the module's whole
     * static shared memory (every array above); a launch refused for it
     * names the call, one refused for a kernel's own arrays does not */
    s = run("through_pointer", 1, 32, 0, host);
    CHECK(s.shared_per_block >= 1024 + 4096 + 256 + 512 + 64 + 128);
    CHECK_EQ_U(host[5], 10);
    ws_kernel *k = NULL;
    ws_arg none[] = { WS_ARG_PTR(0) };
    CHECK(ws_kernel_get(mod, "through_pointer", &k) == WS_OK);
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 8192 - 1024, none, 1) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "the static part is every WS_SHARED object of the module: the kernel "
                       "makes an indirect call or jump (at ");
    CHECK_STR_CONTAINS(ws_last_error(dev), "place_kernels.c:");
    CHECK_STR_CONTAINS(ws_last_error(dev), " in through_pointer)");
    CHECK(ws_kernel_get(mod, "use_b", &k) == WS_OK);
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 8192 - 4096 + 16, none, 1) == WS_ERR_BAD_LAUNCH);
    CHECK(strstr(ws_last_error(dev), "indirect") == NULL);

    /* item 8: a 4-block launch on 4 cores runs one block on each */
    s = run("use_none", 4, 32, 0, host);
    CHECK_EQ_U(s.shared_per_block, 0);
    CHECK_EQ_U(s.cores, 4);
    for (unsigned b = 0; b < 4; b++) {
        CHECK_EQ_U(host[b * 32], b);
        CHECK_EQ_U(s.core_blocks[b], 1);
        CHECK(s.core_warp_instructions[b] > 0);
        CHECK_EQ_U(s.core_warp_instructions[b], s.core_warp_instructions[0]);
    }
    /* 10 blocks: 3, 3, 2, 2 — spread first, then the next slots, in order */
    s = run("use_none", 10, 32, 0, host);
    CHECK_EQ_U(s.core_blocks[0], 3);
    CHECK_EQ_U(s.core_blocks[1], 3);
    CHECK_EQ_U(s.core_blocks[2], 2);
    CHECK_EQ_U(s.core_blocks[3], 2);
    CHECK_EQ_U(host[5 * 32], 1); /* block 5 lands in slot 1 of core 1 */
    ws_device_close(dev);
    return TEST_SUMMARY();
}
