/* Timing-mode throughput on the benchmark kernels of bench/qemu_ratio (the
 * naive matrix multiply, n = 256, 119 M thread-instructions; vecadd over
 * 2^22 elements; the reduction of 2^24 ints, 256 per thread):
 * thread-instructions per second of host time in functional mode and in
 * timing mode, and their ratio (issue 14: timing within 2x of functional).
 * On the matmul also timing mode with every core's trace cell sampling all
 * warps every 2^10 cycles, and with the instruction counters armed. Best of
 * `reps` interleaved runs; output pages are touched before the launch, so
 * neither mode pays first-touch faults. Both modes run on one host thread
 * (threads=1); timing mode also with the cores on every host core (asked
 * for: threads=N, from the first cycle), with the default threads (handed
 * over to every host core once blocks prove long: docs/parallel.md), and
 * on one without running warps ahead (WARPSCOPE_TIMING_AHEAD=0: the effect
 * of docs/timing.md's "Running ahead"; the cycles must be the same).
 * Usage: timing_bench bench_kernels.elf [n] [reps] [only [kernel [threads]]]
 *   n: matmul size; only = functional | timing | counters | sampling: run
 *   just that configuration once on one kernel (mm, vecadd or reduce;
 *   default mm), for instruction counts under valgrind; threads: the
 *   device's `threads` setting (default 1; 0: the default threads). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "device/timing.h"
#include "device/trace/pc_counters.h"
#include "device/trace/trace_cell.h"
#include "warpscope/warpscope.h"
#include "../qemu_ratio/work.h"

typedef struct result { double secs, tips; uint64_t tinstr, cycles, samples, dropped, par_from; } result;

enum { OBS_NONE, OBS_SAMPLING, OBS_COUNTERS };
enum { K_MM, K_VECADD, K_REDUCE, K_COUNT };
static const char *const kname[K_COUNT] = { "mm", "vecadd", "reduce" };

static int run(const char *elf, const char *cfgtext, int kernel, int n, int obs, result *r)
{
    ws_config cfg;
    char err[256];
    ws_config_default(&cfg);
    if (ws_config_parse(&cfg, cfgtext, err, sizeof err)) { fprintf(stderr, "%s\n", err); return -1; }
    ws_device *dev;
    ws_module *mod;
    ws_kernel *k;
    if (ws_device_open(&cfg, &dev)) return -1;
    if (ws_module_load_file(dev, elf, &mod) || ws_kernel_get(mod, kname[kernel], &k)) {
        fprintf(stderr, "%s\n", ws_last_error(dev));
        return -1;
    }
    /* inputs a, b (floats, or ints for the reduction) and output c */
    size_t words = kernel == K_MM ? (size_t)n * n : kernel == K_VECADD ? VEC_N : RED_N;
    size_t bytes = words * 4, cbytes = kernel == K_REDUCE ? 4 : bytes;
    uint32_t *h = malloc(bytes);
    for (size_t i = 0; i < words; i++) {
        float f = (float)(i % 17) * 0.25f;
        if (kernel == K_REDUCE) h[i] = (uint32_t)(i % 1000);
        else memcpy(&h[i], &f, 4);
    }
    ws_addr a, b = 0, c, buf = 0;
    ws_malloc(dev, bytes, &a);
    ws_memcpy_htod(dev, a, h, bytes);
    if (kernel != K_REDUCE) {
        ws_malloc(dev, bytes, &b);
        ws_memcpy_htod(dev, b, h, bytes);
    }
    ws_malloc(dev, cbytes, &c);
    ws_memset(dev, c, 0, cbytes);
    const uint32_t cap = 1u << 18;
    if (obs == OBS_COUNTERS && ws_pc_counters_arm(dev, 1)) { fprintf(stderr, "%s\n", ws_last_error(dev)); return -1; }
    if (obs == OBS_SAMPLING) {
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
    ws_status st;
    if (kernel == K_MM) {
        ws_arg args[] = { WS_ARG_PTR(a), WS_ARG_PTR(b), WS_ARG_PTR(c), WS_ARG_I32(n) };
        st = ws_launch(dev, k, WS_DIM3(n / 16, n / 16, 1), WS_DIM3(16, 16, 1), 0, args, 4);
    } else if (kernel == K_VECADD) {
        ws_arg args[] = { WS_ARG_PTR(a), WS_ARG_PTR(b), WS_ARG_PTR(c) };
        st = ws_launch(dev, k, WS_DIM3(VEC_N / 256, 1, 1), WS_DIM3(256, 1, 1), 0, args, 3);
    } else {
        ws_arg args[] = { WS_ARG_PTR(a), WS_ARG_PTR(c) };
        st = ws_launch(dev, k, WS_DIM3(RED_N / RED_CHUNK / 256, 1, 1), WS_DIM3(256, 1, 1), 0, args, 2);
    }
    if (!st) st = ws_synchronize(dev);
    if (st) { fprintf(stderr, "%s\n", ws_last_error(dev)); return -1; }
    ws_launch_stats ls;
    ws_last_launch_stats(dev, &ls);
    r->secs = ls.host_seconds;
    r->tinstr = ls.thread_instructions;
    r->tips = ls.thread_instructions / ls.host_seconds;
    r->cycles = ls.cycles;
    r->par_from = ws_timing_parallel_from(dev);
    r->samples = r->dropped = 0;
    if (obs == OBS_SAMPLING) {
        ws_trace_header hd;
        ws_memcpy_dtoh(dev, &hd, buf, sizeof hd);
        r->samples = hd.written;
        r->dropped = hd.dropped;
    }
    free(h);
    ws_device_close(dev);
    return 0;
}

/* Keep the faster of r and *best (first = no best yet). */
static void keep(result *best, const result *r, int first)
{
    if (first || r->secs < best->secs) *best = *r;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s bench_kernels.elf [n] [reps] [only [kernel [threads]]]\n", argv[0]); return 2; }
    int n = argc > 2 ? atoi(argv[2]) : 256, reps = argc > 3 ? atoi(argv[3]) : 9;
    if (n < 16 || n % 16 || reps < 1) { fprintf(stderr, "n must be a multiple of 16, reps >= 1\n"); return 2; }
    if (argc > 4) { /* one configuration, once */
        static const char *const only[] = { "functional", "timing", "sampling", "counters" };
        int o = 0, kernel = 0;
        while (o < 4 && strcmp(argv[4], only[o])) o++;
        while (argc > 5 && kernel < K_COUNT && strcmp(argv[5], kname[kernel])) kernel++;
        if (o == 4 || kernel == K_COUNT) {
            fprintf(stderr, "only: functional, timing, sampling or counters; kernel: mm, vecadd or reduce\n");
            return 2;
        }
        result r;
        const char *threads = argc > 6 ? argv[6] : "1";
        char cfg[64];
        snprintf(cfg, sizeof cfg, "mode=%s,threads=%s", o ? "timing" : "functional", threads);
        if (run(argv[1], cfg, kernel, n, o ? o - 1 : OBS_NONE, &r)) return 1;
        printf("%s %s: %llu cycles, %.3f s\n", argv[4], kname[kernel], (unsigned long long)r.cycles, r.secs);
        return 0;
    }
    result f[K_COUNT], t[K_COUNT], m[K_COUNT], d[K_COUNT], a[K_COUNT], s = { 0 }, p = { 0 };
    char all_threads[64];
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    snprintf(all_threads, sizeof all_threads, "mode=timing,threads=%ld", cpus > 0 ? cpus : 1);
    /* Interleaved, best of each: the host is shared, so noise only adds. */
    for (int i = 0; i < reps; i++) {
        for (int k = 0; k < K_COUNT; k++) {
            result rf, rt;
            if (run(argv[1], "mode=functional,threads=1", k, n, OBS_NONE, &rf) || run(argv[1], "mode=timing,threads=1", k, n, OBS_NONE, &rt))
                return 1;
            keep(&f[k], &rf, i == 0);
            keep(&t[k], &rt, i == 0);
            result rm; /* timing mode with the cores on every host core */
            if (run(argv[1], all_threads, k, n, OBS_NONE, &rm)) return 1;
            keep(&m[k], &rm, i == 0);
            result rd; /* the default: threads not asked for (the environment's unset meanwhile) */
            const char *env = getenv("WARPSCOPE_THREADS");
            char *saved = env ? strdup(env) : NULL;
            unsetenv("WARPSCOPE_THREADS");
            int failed = run(argv[1], "mode=timing", k, n, OBS_NONE, &rd);
            if (saved) setenv("WARPSCOPE_THREADS", saved, 1);
            free(saved);
            if (failed) return 1;
            keep(&d[k], &rd, i == 0);
            result ra; /* timing mode without running ahead (read at device open) */
            setenv("WARPSCOPE_TIMING_AHEAD", "0", 1);
            int bad = run(argv[1], "mode=timing,threads=1", k, n, OBS_NONE, &ra);
            unsetenv("WARPSCOPE_TIMING_AHEAD");
            if (bad) return 1;
            keep(&a[k], &ra, i == 0);
        }
        result rs, rp;
        if (run(argv[1], "mode=timing,threads=1", K_MM, n, OBS_SAMPLING, &rs) || run(argv[1], "mode=timing,threads=1", K_MM, n, OBS_COUNTERS, &rp))
            return 1;
        keep(&s, &rs, i == 0);
        keep(&p, &rp, i == 0);
    }
    static const char *const title[K_COUNT] = { "naive matmul", "vecadd", "reduction" };
    printf("best of %d; M = 10^6 thread-instructions per second of host time\n", reps);
    printf("%-14s %14s %12s %12s %12s %12s  %s\n", "kernel", "thread-instr", "functional", "timing", "func/timing",
           "cycles", "goal <= 2");
    for (int k = 0; k < K_COUNT; k++) {
        char label[32];
        snprintf(label, sizeof label, k == K_MM ? "%s n=%d" : "%s", title[k], n);
        const double slower = f[k].tips / t[k].tips;
        printf("%-14s %14llu %10.1f M %10.1f M %12.2f %12llu  %s\n", label, (unsigned long long)f[k].tinstr,
               f[k].tips / 1e6, t[k].tips / 1e6, slower, (unsigned long long)t[k].cycles, slower <= 2 ? "met" : "not met");
    }
    for (int k = 0; k < K_COUNT; k++)
        printf("%-14s timing on all host threads: %10.1f M, %.2fx one thread, %s cycles\n", title[k], m[k].tips / 1e6,
               m[k].tips / t[k].tips, m[k].cycles == t[k].cycles ? "same" : "DIFFERENT");
    for (int k = 0; k < K_COUNT; k++) {
        char when[48];
        if (d[k].par_from == UINT64_MAX) snprintf(when, sizeof when, "stayed on one thread");
        else snprintf(when, sizeof when, "threads from cycle %llu", (unsigned long long)d[k].par_from);
        printf("%-14s timing, default threads: %10.1f M, %.2fx one thread, %s, %s cycles\n", title[k],
               d[k].tips / 1e6, d[k].tips / t[k].tips, when, d[k].cycles == t[k].cycles ? "same" : "DIFFERENT");
    }
    for (int k = 0; k < K_COUNT; k++)
        printf("%-14s timing without running ahead: %8.1f M; running ahead %.2fx faster, %s cycles\n", title[k],
               a[k].tips / 1e6, t[k].tips / a[k].tips, a[k].cycles == t[k].cycles ? "same" : "DIFFERENT");
    printf("matmul: timing + sampling   %8.3f s  %8.1f M  %llu cycles  %llu records (+%llu dropped)  cost %+.1f%%\n",
           s.secs, s.tips / 1e6, (unsigned long long)s.cycles, (unsigned long long)s.samples,
           (unsigned long long)s.dropped, (s.secs / t[K_MM].secs - 1) * 100);
    printf("matmul: timing + instr. ctrs %8.3f s  %8.1f M  %llu cycles  cost %+.1f%%\n", p.secs, p.tips / 1e6,
           (unsigned long long)p.cycles, (p.secs / t[K_MM].secs - 1) * 100);
    printf("timing vs GPGPU-Sim performance mode (~0.18 M thread-instr/s, published): %.0fx on the matmul\n",
           t[K_MM].tips / 0.18e6);
    int same_cycles = 1;
    for (int k = 0; k < K_COUNT; k++)
        same_cycles &= m[k].cycles == t[k].cycles && d[k].cycles == t[k].cycles && a[k].cycles == t[k].cycles;
    /* neither observing, host threads nor running ahead may change simulated cycles */
    return s.cycles == t[K_MM].cycles && p.cycles == t[K_MM].cycles && same_cycles ? 0 : 1;
}
