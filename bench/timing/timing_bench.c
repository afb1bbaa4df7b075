/* Timing-mode throughput on the naive matrix multiply (n = 256, 119 M
 * thread-instructions): thread-instructions per second of host time in
 * functional mode, in timing mode, and in timing mode with every core's
 * trace cell sampling all warps every 2^10 cycles, and in timing mode with
 * the instruction counters armed. Best of `reps` interleaved runs.
 * Usage: timing_bench bench_kernels.elf [n] [reps] [only]
 *   only = timing | counters: run just that configuration once (for
 *   instruction counts under valgrind). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "device/trace/pc_counters.h"
#include "device/trace/trace_cell.h"
#include "warpscope/warpscope.h"

typedef struct result { double secs, tips; uint64_t tinstr, cycles, samples, dropped; } result;

static int run(const char *elf, const char *cfgtext, int n, int sample, result *r)
{
    ws_config cfg;
    char err[256];
    ws_config_default(&cfg);
    if (ws_config_parse(&cfg, cfgtext, err, sizeof err)) { fprintf(stderr, "%s\n", err); return -1; }
    ws_device *dev;
    ws_module *mod;
    ws_kernel *k;
    if (ws_device_open(&cfg, &dev)) return -1;
    if (ws_module_load_file(dev, elf, &mod) || ws_kernel_get(mod, "mm", &k)) {
        fprintf(stderr, "%s\n", ws_last_error(dev));
        return -1;
    }
    size_t bytes = (size_t)n * n * 4;
    float *h = malloc(bytes);
    for (int i = 0; i < n * n; i++) h[i] = (float)(i % 17) * 0.25f;
    ws_addr a, b, c, buf = 0;
    ws_malloc(dev, bytes, &a);
    ws_malloc(dev, bytes, &b);
    ws_malloc(dev, bytes, &c);
    ws_memcpy_htod(dev, a, h, bytes);
    ws_memcpy_htod(dev, b, h, bytes);
    const uint32_t cap = 1u << 18;
    if (sample == 2 && ws_pc_counters_arm(dev, 1)) { fprintf(stderr, "%s\n", ws_last_error(dev)); return -1; }
    if (sample == 1) {
        ws_malloc(dev, sizeof(ws_trace_header) + cap * sizeof(ws_trace_record), &buf);
        ws_trace_config tc;
        memset(&tc, 0, sizeof tc);
        tc.enabled = 1;
        tc.trigger = WS_TRACE_ON_CYCLES;
        tc.period_log2 = 10;
        tc.mode = WS_TRACE_ALL_WARPS;
        tc.core_mask = ~0ull;
        tc.buffer = buf;
        tc.capacity = cap;
        if (ws_trace_configure(dev, &tc)) { fprintf(stderr, "%s\n", ws_last_error(dev)); return -1; }
    }
    ws_arg args[] = { WS_ARG_PTR(a), WS_ARG_PTR(b), WS_ARG_PTR(c), WS_ARG_I32(n) };
    ws_status st = ws_launch(dev, k, WS_DIM3(n / 16, n / 16, 1), WS_DIM3(16, 16, 1), 0, args, 4);
    if (!st) st = ws_synchronize(dev);
    if (st) { fprintf(stderr, "%s\n", ws_last_error(dev)); return -1; }
    ws_launch_stats ls;
    ws_last_launch_stats(dev, &ls);
    r->secs = ls.host_seconds;
    r->tinstr = ls.thread_instructions;
    r->tips = ls.thread_instructions / ls.host_seconds;
    r->cycles = ls.cycles;
    r->samples = r->dropped = 0;
    if (sample == 1) {
        ws_trace_header hd;
        ws_memcpy_dtoh(dev, &hd, buf, sizeof hd);
        r->samples = hd.written;
        r->dropped = hd.dropped;
    }
    free(h);
    ws_device_close(dev);
    return 0;
}

static int best(const char *elf, const char *cfg, int n, int sample, int reps, result *out)
{
    for (int i = 0; i < reps; i++) {
        result r;
        if (run(elf, cfg, n, sample, &r)) return -1;
        if (i == 0 || r.secs < out->secs) *out = r;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s bench_kernels.elf [n] [reps]\n", argv[0]); return 2; }
    int n = argc > 2 ? atoi(argv[2]) : 256, reps = argc > 3 ? atoi(argv[3]) : 9;
    if (n < 16 || n % 16 || reps < 1) { fprintf(stderr, "n must be a multiple of 16, reps >= 1\n"); return 2; }
    if (argc > 4) { /* one configuration, once */
        result r;
        int counters = !strcmp(argv[4], "counters");
        if (!counters && strcmp(argv[4], "timing")) { fprintf(stderr, "only: timing or counters\n"); return 2; }
        if (run(argv[1], "mode=timing", n, counters ? 2 : 0, &r)) return 1;
        printf("%s: %llu cycles, %.3f s\n", argv[4], (unsigned long long)r.cycles, r.secs);
        return 0;
    }
    result f, t, s, p;
    /* Interleaved, best of each: the host is shared, so noise only adds. */
    for (int i = 0; i < reps; i++) {
        result rf, rt, rs, rp;
        if (best(argv[1], "mode=functional", n, 0, 1, &rf) || best(argv[1], "mode=timing", n, 0, 1, &rt) ||
            best(argv[1], "mode=timing", n, 1, 1, &rs) || best(argv[1], "mode=timing", n, 2, 1, &rp))
            return 1;
        if (i == 0 || rf.secs < f.secs) f = rf;
        if (i == 0 || rt.secs < t.secs) t = rt;
        if (i == 0 || rs.secs < s.secs) s = rs;
        if (i == 0 || rp.secs < p.secs) p = rp;
    }
    printf("naive matmul n=%d, %llu thread-instructions, best of %d\n", n, (unsigned long long)f.tinstr, reps);
    printf("functional          %8.3f s  %8.1f M thread-instr/s\n", f.secs, f.tips / 1e6);
    printf("timing              %8.3f s  %8.1f M thread-instr/s  %llu cycles  (functional/timing speed ratio %.2f)\n",
           t.secs, t.tips / 1e6, (unsigned long long)t.cycles, f.tips / t.tips);
    printf("timing + sampling   %8.3f s  %8.1f M thread-instr/s  %llu cycles  %llu records (+%llu dropped)  cost %+.1f%%\n",
           s.secs, s.tips / 1e6, (unsigned long long)s.cycles, (unsigned long long)s.samples,
           (unsigned long long)s.dropped, (s.secs / t.secs - 1) * 100);
    printf("timing + instr. ctrs %8.3f s  %8.1f M thread-instr/s  %llu cycles  cost %+.1f%%\n", p.secs, p.tips / 1e6,
           (unsigned long long)p.cycles, (p.secs / t.secs - 1) * 100);
    printf("timing vs GPGPU-Sim performance mode (~0.18 M thread-instr/s, published): %.0fx\n", t.tips / 0.18e6);
    return s.cycles == t.cycles && p.cycles == t.cycles ? 0 : 1; /* observing must not change simulated cycles */
}
