/* Warp-shuffle scans and reductions compiled at one -O level
 * (scan_kernels.c; a warp sum after a loop long enough for the
 * starvation guard too) against the host's answers, on the default device and
 * in timing mode, 16-lane warps and 2 host threads: every shuffle must see
 * every lane of its warp. usage: test_warp_scan scan_kernels_OX.elf [KERNEL...]
 * (default: every kernel) */
#include <stdlib.h>
#include "warpscope/warpscope.h"
#include "../test.h"

#define N 1000 /* ends mid-block (256 threads) */
#define THREADS 1024

static int in[THREADS], out[THREADS], want[THREADS];

/* The host's answer for one kernel, warps of `lanes` lanes. */
static void expected(const char *kernel, unsigned lanes)
{
    for (int w0 = 0; w0 < THREADS; w0 += (int)lanes) {
        int v[32];
        for (unsigned l = 0; l < lanes; l++) v[l] = in[w0 + (int)l];
        if (!strcmp(kernel, "irreducible_scan")) /* each lane's loop, entered at mid by the odd ones, then the scan */
            for (unsigned l = 0; l < lanes; l++) {
                int i = (l & 1) ? 3 : 0, acc = v[l];
                if (l & 1) goto mid;
            top:
                acc += i;
            mid:
                acc ^= i * 5;
                i++;
                if (i < 6) goto top;
                v[l] = acc;
            }
        if (!strcmp(kernel, "switch_scan")) /* each lane's case, then the scan */
            for (unsigned l = 0; l < lanes; l++) {
                static const int add[8] = { 0, 7, 0, -2, 0, 0, 100, 0 };
                const int x = v[l];
                v[l] = l % 8 == 0 ? x * 3 : l % 8 == 2 ? x ^ 5 : l % 8 == 4 ? x * 2 : l % 8 == 5 ? x * x : x + add[l % 8];
            }
        if (!strcmp(kernel, "guard_barrier_loop")) { /* two turns each; lane 0's 800 steps */
            for (unsigned l = 0; l < lanes; l++) {
                unsigned acc = (unsigned)v[l];
                for (int k = 0; l == 0 && k < 2; k++)
                    for (unsigned i = 0; i < 400; i++) acc = acc * 3u + i;
                v[l] = 2 * 100000 + (int)(acc & 0xffffu);
            }
        } else if (!strcmp(kernel, "switch_loop_scan")) { /* three turns: each lane's case, the scan, summed */
            int acc[32] = { 0 };
            for (int k = 0; k < 3; k++) {
                int r[32];
                for (unsigned l = 0; l < lanes; l++) {
                    const int x = v[l];
                    static const int fixed[7] = { 1, 0, 0, 0, 0, 55, 0 };
                    switch ((unsigned)(x + k) % 7u) {
                    case 1: r[l] = x + 2; break;
                    case 2: r[l] = x * 3; break;
                    case 3: r[l] = x - 4; break;
                    case 4: r[l] = x >> 1; break;
                    case 6: r[l] = k; break;
                    default: r[l] = fixed[(unsigned)(x + k) % 7u]; break;
                    }
                }
                for (unsigned l = 1; l < lanes; l++) r[l] += r[l - 1];
                for (unsigned l = 0; l < lanes; l++) acc[l] += r[l];
            }
            for (unsigned l = 0; l < lanes; l++) v[l] = acc[l];
        } else if (!strcmp(kernel, "work_queue") || !strcmp(kernel, "call_queue")) { /* rounds: the most work in the warp; done: summed over the warp */
            int rounds = 0, done = 0;
            for (unsigned l = 0; l < lanes; l++) {
                const int work = (int)(l % 7) + 1;
                rounds = work > rounds ? work : rounds;
                for (int k = work; k > 0; k--) done += in[w0 + (int)l] + k;
            }
            for (unsigned l = 0; l < lanes; l++) v[l] = rounds * 1000000 + done;
        } else if (!strcmp(kernel, "long_loop_sum")) { /* every lane: the warp's sum of its lanes' LCG results */
            unsigned sum = 0;
            for (unsigned l = 0; l < lanes; l++) {
                unsigned x = (unsigned)in[w0 + (int)l];
                for (unsigned i = 0, n = l ? l : 300; i < n; i++) x = x * 1103515245u + 12345u;
                sum += x;
            }
            for (unsigned l = 0; l < lanes; l++) v[l] = (int)sum;
        } else if (!strcmp(kernel, "reduce_if")) /* lane l adds its partner l + d while it has one: lane 0 gets the sum */
            for (unsigned d = lanes / 2; d; d >>= 1)
                for (unsigned l = 0; l + d < lanes; l++) v[l] += v[l + d];
        else /* inclusive scan */
            for (unsigned l = 1; l < lanes; l++) v[l] += v[l - 1];
        for (unsigned l = 0; l < lanes; l++) want[w0 + (int)l] = v[l];
    }
    if (!strcmp(kernel, "block_scan")) /* over each 256-thread block, up to N */
        for (int b = 0; b < THREADS; b += 256)
            for (int t = 0, acc = 0; t < 256; t++) {
                acc += b + t < N ? in[b + t] : 0;
                want[b + t] = b + t < N ? acc : -7;
            }
}

static void check(const char *elf, const char *config, const char *kernel, unsigned lanes)
{
    ws_config cfg;
    ws_device *dev = NULL;
    ws_module *mod = NULL;
    ws_kernel *k = NULL;
    ws_addr din = 0, dout = 0;
    char err[256];
    ws_config_default(&cfg);
    CHECK(ws_config_parse(&cfg, config, err, sizeof err) == WS_OK);
    CHECK(ws_device_open(&cfg, &dev) == WS_OK);
    CHECK(ws_module_load_file(dev, elf, &mod) == WS_OK);
    CHECK(ws_kernel_get(mod, kernel, &k) == WS_OK);
    for (int i = 0; i < THREADS; i++) out[i] = -7;
    CHECK(ws_malloc(dev, sizeof in, &din) == WS_OK && ws_malloc(dev, sizeof out, &dout) == WS_OK);
    CHECK(ws_memcpy_htod(dev, din, in, sizeof in) == WS_OK && ws_memcpy_htod(dev, dout, out, sizeof out) == WS_OK);
    ws_arg a[3] = { WS_ARG_PTR(din), WS_ARG_PTR(dout), WS_ARG_I32(N) };
    CHECK(ws_launch(dev, k, WS_DIM3(THREADS / 256, 1, 1), WS_DIM3(256, 1, 1), 0, a, strcmp(kernel, "block_scan") ? 2 : 3) ==
          WS_OK);
    CHECK(ws_memcpy_dtoh(dev, out, dout, sizeof out) == WS_OK);
    expected(kernel, lanes);
    int bad = -1;
    for (int i = 0; i < THREADS && bad < 0; i++)
        if (out[i] != want[i]) bad = i;
    if (bad >= 0) printf("%s %s [%s]: out[%d] = %d, expected %d\n", elf, kernel, config, bad, out[bad], want[bad]);
    else printf("%s %s [%s]: all %d right\n", elf, kernel, config, THREADS);
    CHECK_EQ_U(bad, (uint64_t)-1);
    ws_device_close(dev);
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s scan_kernels.elf [KERNEL...]\n", argv[0]); return 2; }
    for (int i = 0; i < THREADS; i++) in[i] = (i * 7919) % 23 - 5;
    static const char *const kernels[] = { "scan_if", "scan_select", "reduce_if", "block_scan", "long_loop_sum",
                                           "work_queue", "call_queue", "switch_scan",
                                           "switch_loop_scan", "guard_barrier_loop", "irreducible_scan" };
    static const struct { const char *config; unsigned lanes; } shapes[] = {
        { "", 32 }, { "mode=timing", 32 }, { "lanes_per_warp=16,warps_per_core=16", 16 }, { "threads=2", 32 },
    };
    const char *const *run = argc > 2 ? (const char *const *)argv + 2 : kernels; /* the kernels named, or all */
    const size_t nrun = argc > 2 ? (size_t)argc - 2 : sizeof kernels / sizeof *kernels;
    for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++)
        for (size_t k = 0; k < nrun; k++) check(argv[1], shapes[s].config, run[k], shapes[s].lanes);
    return TEST_SUMMARY();
}
