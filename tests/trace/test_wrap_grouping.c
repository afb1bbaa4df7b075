/* A 64-bit counter's carry must not change how the device groups lanes.
 * guard_kernel.c's mask_at_head: lane 0 loops long below the others, the
 * starvation guard sends them round a loop whose head reads the active
 * mask; the masks read depend on where each guard turn starts and ends.
 * The wide counting twin (WSI_WIDE_COUNTS) runs it with every counter
 * started a few adds short of 2^32, so that a low word wraps while the
 * guard's group runs: the kernel's results must be the plain launch's,
 * and the counters its counts plus the start. (The carry was a branch
 * only the wrapping lane fell through: the group split there, which ends
 * a guard turn, and the masks came out otherwise.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../test.h"
#include "wide_counters.h"

enum { THREADS = 32 };

static ws_status run(ws_device *dev, ws_module *m, ws_addr out, uint32_t n, uint32_t *host)
{
    ws_kernel *k;
    ws_status st = ws_kernel_get(m, "mask_at_head", &k);
    ws_arg a[] = { WS_ARG_PTR(out), WS_ARG_U32(n) };
    uint32_t zero[THREADS] = { 0 };
    if (!st) st = ws_memcpy_htod(dev, out, zero, sizeof zero);
    if (!st) st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(THREADS, 1, 1), 0, a, 2);
    if (!st) st = ws_synchronize(dev);
    if (!st) st = ws_memcpy_dtoh(dev, host, out, THREADS * 4);
    return st;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s guard_kernel.elf\n", argv[0]); return 2; }
    size_t n = 0, tn = 0;
    uint8_t *elf = ws_test_read_file(argv[1], &n), *twin = NULL;
    CHECK(elf != NULL);
    if (!elf) return TEST_SUMMARY();
    wsi_module_info info;
    char err[512];
    twin = wide_twin(elf, n, argv[1], &tn, &info, err, sizeof err);
    CHECK(twin != NULL);
    ws_device *dev = NULL;
    ws_module *orig = NULL, *m = NULL;
    ws_addr out = 0;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    if (twin && dev && ws_module_load_data(dev, elf, n, "guard_kernel.elf", &orig) == WS_OK &&
        ws_module_load_twin(dev, twin, tn, "guard_kernel.elf [counted]", info.orig_ranges, info.norig, &m) == WS_OK &&
        ws_malloc(dev, THREADS * 4, &out) == WS_OK) {
        uint32_t *ctl = wide_counters(dev, m, &info);
        const uint32_t trips[] = { 300, 1000 };
        /* lane counters this far short of 2^32 (warp counters: a tenth as far) */
        const uint32_t shorts[] = { 1, 2, 5, 17, 31, 32, 40, 100, 250, 600, 1500 };
        int wrapped = 0;
        for (unsigned a = 0; a < sizeof trips / sizeof *trips; a++) {
            uint32_t want[THREADS], got[THREADS];
            CHECK(run(dev, orig, out, trips[a], want) == WS_OK);
            uint64_t *lane = calloc(info.nblocks, sizeof *lane), *warp = calloc(info.nblocks, sizeof *warp);
            memset(ctl, 0, (size_t)info.nblocks * WSI_CTL_COUNTER_SIZE);
            CHECK(run(dev, m, out, trips[a], got) == WS_OK);
            CHECK(!memcmp(got, want, sizeof got)); /* from zero: no carry */
            for (uint32_t b = 0; lane && warp && b < info.nblocks; b++) {
                lane[b] = get64(ctl + 4 * b);
                warp[b] = get64(ctl + 4 * b + 2);
            }
            for (unsigned s = 0; lane && warp && s < sizeof shorts / sizeof *shorts; s++) {
                const uint64_t lane0 = (1ull << 32) - shorts[s], warp0 = 3ull << 32 | (uint32_t)-(shorts[s] / 10 + 1);
                for (uint32_t b = 0; b < info.nblocks; b++) set_block_counters(ctl, b, lane0, warp0);
                CHECK(run(dev, m, out, trips[a], got) == WS_OK);
                if (memcmp(got, want, sizeof got)) {
                    fprintf(stderr, "mask_at_head %u, counters 2^32 - %u: results differ from the launch's\n", trips[a],
                            shorts[s]);
                    CHECK(0);
                }
                for (uint32_t b = 0; b < info.nblocks; b++) {
                    CHECK_EQ_U(get64(ctl + 4 * b), lane0 + lane[b]);
                    CHECK_EQ_U(get64(ctl + 4 * b + 2), warp0 + warp[b]);
                    wrapped += lane[b] >= shorts[s];
                }
            }
            free(lane);
            free(warp);
        }
        CHECK(wrapped > 0);
    }
    if (m) ws_module_unload_twin(dev, m);
    ws_device_close(dev);
    free(twin);
    free(elf);
    wsi_info_free(&info);
    return TEST_SUMMARY();
}
