/* Pass 1's block counters are 64-bit: the counting twin of calls_kernel.elf
 * runs once from zero (the counts), then again from counters a few adds
 * short of 2^32 (lane counts) and of 2^32 with 7 in the high word (warp
 * counts); every block must then hold the start plus its count exactly,
 * carried into the high word (a block entered 2^32 times or more wrapped
 * the 32-bit counters and bbcount reported it MISMATCH). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../test.h"
#include "wide_counters.h"

enum { GRID = 2, BLOCK = 64 };

static ws_status run(ws_device *dev, ws_module *m, ws_addr out)
{
    ws_kernel *k;
    ws_status st = ws_kernel_get(m, "use_calls", &k);
    ws_arg a[] = { WS_ARG_PTR(out) };
    if (!st) st = ws_launch(dev, k, WS_DIM3(GRID, 1, 1), WS_DIM3(BLOCK, 1, 1), 0, a, 1);
    return st ? st : ws_synchronize(dev);
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s calls_kernel.elf\n", argv[0]); return 2; }
    size_t n = 0, tn = 0;
    uint8_t *elf = ws_test_read_file(argv[1], &n), *twin = NULL;
    CHECK(elf != NULL);
    if (!elf) return TEST_SUMMARY();
    wsi_module_info info;
    char err[512];
    twin = wide_twin(elf, n, argv[1], &tn, &info, err, sizeof err);
    CHECK(twin != NULL);
    ws_device *dev = NULL;
    ws_module *m = NULL;
    ws_addr out = 0;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    if (twin && dev && ws_module_load_twin(dev, twin, tn, "calls_kernel.elf [counted]", info.orig_ranges, info.norig, &m) == WS_OK &&
        ws_malloc(dev, GRID * BLOCK * 4, &out) == WS_OK) {
        const size_t words = (size_t)info.nblocks * WSI_CTL_COUNTER_SIZE / 4;
        uint32_t *ctl = wide_counters(dev, m, &info);
        memset(ctl, 0, words * 4);
        CHECK(run(dev, m, out) == WS_OK);
        uint64_t *lane = calloc(info.nblocks, sizeof *lane), *warp = calloc(info.nblocks, sizeof *warp);
        uint64_t total = 0, entered = 0, wraps = 0;
        for (uint32_t b = 0; lane && warp && b < info.nblocks; b++) {
            lane[b] = get64(ctl + 4 * b);
            warp[b] = get64(ctl + 4 * b + 2);
            total += lane[b];
            entered += lane[b] != 0;
        }
        CHECK(total > (uint64_t)GRID * BLOCK); /* fib recurses: blocks run many times */
        CHECK(entered > 4);
        const uint64_t lane0 = 0xFFFFFFFFull - 40, warp0 = 7ull << 32 | 0xFFFFFFFEull;
        for (uint32_t b = 0; b < info.nblocks; b++) set_block_counters(ctl, b, lane0, warp0);
        CHECK(run(dev, m, out) == WS_OK);
        ctl = wide_counters(dev, m, &info);
        for (uint32_t b = 0; lane && warp && b < info.nblocks; b++) {
            CHECK_EQ_U(get64(ctl + 4 * b), lane0 + lane[b]);
            CHECK_EQ_U(get64(ctl + 4 * b + 2), warp0 + warp[b]);
            wraps += lane[b] > 40;
        }
        CHECK(wraps > 0); /* some block's lane counter did wrap */
        free(lane);
        free(warp);
    }
    if (m) ws_module_unload_twin(dev, m); /* (a twin is its loader's to free) */
    ws_device_close(dev);
    free(twin);
    free(elf);
    wsi_info_free(&info);
    return TEST_SUMMARY();
}
