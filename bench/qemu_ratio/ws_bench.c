/* Device throughput against qemu-riscv32 in the same run.
 *
 * For each workload the device runs the parallel kernel (functional mode,
 * default configuration, one host thread) and we report thread-instructions
 * per second. QEMU runs the same work as a scalar RV32 program (one loop
 * over all threads, same per-thread code); its instruction count is exact:
 * the identical program also runs as a one-thread device kernel. Ratio =
 * device thread-instr/s / qemu instr/s. Also: host memory per resident
 * thread, and the cost of an empty launch. Then the same workloads with
 * the cores on 2, 3, ... host threads, up to the host's cores (threads=N,
 * docs/parallel.md): speed-up over one thread. On one thread the rates are
 * also given per second of CPU time (the device's process, QEMU's child):
 * a machine shared with other work slows the wall clock of both, but
 * their CPU time much less. Last, the same work compiled for the host and
 * run natively, against the time the 5x goal allows the device: no
 * simulator runs faster than its host does the work itself.
 * usage: ws_bench DIR QEMU [--json FILE] */
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "warpscope/warpscope.h"
#include "work.h"
#include "native_floor.h"
#include "../../tests/rss.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static __attribute__((noreturn)) void die(ws_device *dev, const char *what)
{
    fprintf(stderr, "ws_bench: %s: %s\n", what, dev ? ws_last_error(dev) : "");
    exit(1);
}

typedef struct result {
    const char *name;
    double dev_rate, qemu_rate, qemu_s;
    double dev_cpu_rate, qemu_cpu_rate; /* per second of CPU time */
    uint64_t dev_instr, qemu_instr;
} result;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Best of `reps` launches: thread-instructions per second (of wall time;
 * *cpu_rate: of the process's CPU time). */
static double time_kernel(ws_device *dev, ws_kernel *k, ws_dim3 g, ws_dim3 b, const ws_arg *a, size_t n,
                          int reps, uint64_t *instr, double *cpu_rate)
{
    double best = 0;
    *cpu_rate = 0;
    for (int r = 0; r < reps; r++) {
        ws_launch_stats s;
        double c0 = cpu_now();
        if (ws_launch(dev, k, g, b, 0, a, n) || ws_synchronize(dev)) die(dev, "launch");
        double cpu = cpu_now() - c0;
        ws_last_launch_stats(dev, &s);
        double rate = (double)s.thread_instructions / s.host_seconds;
        if (rate > best) best = rate;
        if (cpu > 0 && (double)s.thread_instructions / cpu > *cpu_rate) *cpu_rate = (double)s.thread_instructions / cpu;
        *instr = s.thread_instructions;
    }
    return best;
}

static void open_with_threads(const char *path, uint32_t threads, ws_device **dev, ws_module **mod)
{
    ws_config cfg;
    ws_config_default(&cfg);
    cfg.threads = threads;
    *dev = NULL;
    if (ws_device_open(&cfg, dev) || ws_module_load_file(*dev, path, mod)) die(*dev, path);
}

/* The three workloads on a device whose cores run on `threads` host threads. */
static void workloads(const char *path, uint32_t threads, result *res)
{
    ws_device *dev;
    ws_module *mod;
    ws_kernel *kmm, *kvec, *kred;
    open_with_threads(path, threads, &dev, &mod);
    if (ws_kernel_get(mod, "mm", &kmm) || ws_kernel_get(mod, "vecadd", &kvec) || ws_kernel_get(mod, "reduce", &kred))
        die(dev, "kernels");
    ws_addr a, b, c, o;
    ws_addr rin;
    if (ws_malloc(dev, VEC_N * 4, &a) || ws_malloc(dev, VEC_N * 4, &b) || ws_malloc(dev, VEC_N * 4, &c) ||
        ws_malloc(dev, 4, &o) || ws_malloc(dev, RED_N * 4, &rin))
        die(dev, "malloc");
    float *h = malloc(VEC_N * 4);
    for (int i = 0; i < VEC_N; i++) h[i] = (float)(i % 7);
    ws_memcpy_htod(dev, a, h, VEC_N * 4);
    ws_memcpy_htod(dev, b, h, VEC_N * 4);
    free(h);
    ws_arg mma[] = { WS_ARG_PTR(a), WS_ARG_PTR(b), WS_ARG_PTR(c), WS_ARG_I32(MM_N) };
    ws_arg va[] = { WS_ARG_PTR(a), WS_ARG_PTR(b), WS_ARG_PTR(c) };
    ws_arg ra[] = { WS_ARG_PTR(rin), WS_ARG_PTR(o) };
    res[0].dev_rate = time_kernel(dev, kmm, WS_DIM3(MM_N / 16, MM_N / 16, 1), WS_DIM3(16, 16, 1), mma, 4, 3, &res[0].dev_instr,
                                  &res[0].dev_cpu_rate);
    res[1].dev_rate = time_kernel(dev, kvec, WS_DIM3(VEC_N / 256, 1, 1), WS_DIM3(256, 1, 1), va, 3, 3, &res[1].dev_instr,
                                  &res[1].dev_cpu_rate);
    res[2].dev_rate = time_kernel(dev, kred, WS_DIM3(RED_N / RED_CHUNK / 256, 1, 1), WS_DIM3(256, 1, 1), ra, 2, 3, &res[2].dev_instr,
                                  &res[2].dev_cpu_rate);
    ws_device_close(dev);
}

/* Exact instruction count of the scalar program: run it as one device thread. */
static uint64_t scalar_count(const char *dir, int work, unsigned *value)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/scalar_dev_%d.elf", dir, work);
    ws_config cfg;
    ws_config_default(&cfg);
    cfg.global_mem_limit = 256u << 20;
    ws_device *dev;
    ws_module *m;
    ws_kernel *k;
    ws_addr r;
    if (ws_device_open(&cfg, &dev) || ws_module_load_file(dev, path, &m) || ws_kernel_get(m, "scalar_entry", &k) ||
        ws_malloc(dev, 4, &r))
        die(dev, path);
    ws_arg a = WS_ARG_PTR(r);
    if (ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, &a, 1) || ws_memcpy_dtoh(dev, value, r, 4))
        die(dev, "scalar run");
    ws_launch_stats s;
    ws_last_launch_stats(dev, &s);
    ws_device_close(dev);
    return s.thread_instructions;
}

/* Best wall time of the scalar program under qemu (*cpu: its best CPU
 * time, user and system); its exit code is the program's result (low 7
 * bits), checked against the device run. */
static double time_qemu(const char *qemu, const char *dir, int work, unsigned expect, int reps, double *cpu)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/scalar_qemu_%d", dir, work);
    double best = 1e30;
    *cpu = 1e30;
    for (int r = 0; r < reps; r++) {
        double t0 = now();
        pid_t pid = fork();
        if (pid == 0) { execl(qemu, qemu, path, (char *)NULL); _exit(127); }
        int st;
        struct rusage ru;
        wait4(pid, &st, 0, &ru);
        double t = now() - t0;
        double c = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
                   ru.ru_stime.tv_usec * 1e-6;
        if (c < *cpu) *cpu = c;
        if (!WIFEXITED(st) || (unsigned)WEXITSTATUS(st) != (expect & 0x7f)) {
            fprintf(stderr, "ws_bench: %s under qemu exited with %d, expected %u\n", path,
                    WIFEXITED(st) ? WEXITSTATUS(st) : -1, expect & 0x7f);
            exit(1);
        }
        if (t < best) best = t;
    }
    return best;
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: ws_bench DIR QEMU [--json FILE]\n"); return 2; }
    const char *dir = argv[1], *qemu = argv[2], *json = argc > 4 && !strcmp(argv[3], "--json") ? argv[4] : NULL;
    int have_qemu = access(qemu, X_OK) == 0;
    char path[4096];
    snprintf(path, sizeof path, "%s/device_kernels.elf", dir);

    long rss0 = ws_rss_kib();
    double t0 = now();
    ws_device *dev;
    ws_module *mod;
    open_with_threads(path, 1, &dev, &mod);
    double open_ms = (now() - t0) * 1e3;
    ws_config cfg;
    ws_device_config(dev, &cfg);
    ws_kernel *kempty, *ktouch;
    if (ws_kernel_get(mod, "empty", &kempty) || ws_kernel_get(mod, "touch_stack", &ktouch)) die(dev, "kernels");

    /* memory per resident thread: every lane touches 1 KiB of its stack */
    uint32_t lanes = cfg.cores * cfg.warps_per_core * cfg.lanes_per_warp;
    ws_addr tout;
    long rss1 = ws_rss_kib();
    if (ws_malloc(dev, lanes * 4, &tout)) die(dev, "malloc");
    ws_arg ta = WS_ARG_PTR(tout);
    if (ws_launch(dev, ktouch, WS_DIM3(lanes / 256, 1, 1), WS_DIM3(256, 1, 1), 0, &ta, 1) || ws_synchronize(dev))
        die(dev, "touch_stack");
    long rss2 = ws_rss_kib();

    /* empty launches */
    enum { EMPTY = 2000 };
    t0 = now();
    for (int i = 0; i < EMPTY; i++)
        if (ws_launch(dev, kempty, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, NULL, 0) || ws_synchronize(dev)) die(dev, "empty");
    double empty_us = (now() - t0) / EMPTY * 1e6;

    ws_device_close(dev);
    result res[3] = { { .name = "matmul (naive, n=256)" }, { .name = "vecadd (2^22)" },
                      { .name = "reduction (2^24)" } };
    workloads(path, 1, res);

    for (int w = 0; w < 3 && have_qemu; w++) {
        unsigned value = 0;
        res[w].qemu_instr = scalar_count(dir, w + 1, &value);
        double qemu_cpu;
        res[w].qemu_s = time_qemu(qemu, dir, w + 1, value, 3, &qemu_cpu);
        res[w].qemu_rate = (double)res[w].qemu_instr / res[w].qemu_s;
        res[w].qemu_cpu_rate = (double)res[w].qemu_instr / qemu_cpu;
    }

    printf("Warpscope device vs qemu-riscv32 (functional mode, %u cores x %u warps x %u lanes, one host thread)\n\n",
           cfg.cores, cfg.warps_per_core, cfg.lanes_per_warp);
    printf("%-24s %14s %14s %12s %8s\n", "workload", "device Mi/s", "qemu Mi/s", "qemu s", "ratio");
    for (int w = 0; w < 3; w++)
        printf("%-24s %14.1f %14.1f %12.3f %8.2f\n", res[w].name, res[w].dev_rate / 1e6, res[w].qemu_rate / 1e6,
               res[w].qemu_s, have_qemu ? res[w].dev_rate / res[w].qemu_rate : 0.0);
    if (!have_qemu) printf("(qemu-riscv32 not found: no comparison)\n");
    printf("\nthe same, per second of CPU time (less disturbed by other work on the machine)\n");
    printf("%-24s %14s %14s %8s  %s\n", "workload", "device Mi/cpu-s", "qemu Mi/cpu-s", "ratio", "goal >= 5");
    for (int w = 0; w < 3; w++) {
        const double ratio = have_qemu ? res[w].dev_cpu_rate / res[w].qemu_cpu_rate : 0.0;
        printf("%-24s %14.1f %14.1f %8.2f  %s\n", res[w].name, res[w].dev_cpu_rate / 1e6, res[w].qemu_cpu_rate / 1e6,
               ratio, !have_qemu ? "-" : ratio >= 5 ? "met" : "not met");
    }

    /* the goal's time budget against the host doing the work natively */
    native_times native[3];
    int have_native = 1;
    for (int w = 0; w < 3; w++) have_native &= native_floor(w + 1, 3, &native[w]) == 0;
    if (have_native && have_qemu) {
        printf("\nthe 5x goal's budget against native host code (same work, this compiler, one thread; ms)\n");
        printf("%-24s %10s %12s %16s %14s\n", "workload", "device", "5x budget", "native, threads", "native, warps");
        for (int w = 0; w < 3; w++)
            printf("%-24s %10.2f %12.2f %16.2f %14.2f\n", res[w].name, (double)res[w].dev_instr / res[w].dev_cpu_rate * 1e3,
                   (double)res[w].dev_instr / (5 * res[w].qemu_cpu_rate) * 1e3, native[w].thread_order_ms,
                   native[w].warp_order_ms);
        printf("(device and budget per CPU second; native, warps: the threads' loops interleaved in the order a\n"
               " warp's lanes read memory)\n");
    }

    /* scaling over host threads */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    uint32_t most = cpus > 1 ? (uint32_t)cpus : 1;
    if (most > cfg.cores) most = cfg.cores;
    printf("\nscaling: the same workloads with the %u cores on N host threads (speed-up over 1 thread; goal >= 0.8 N)\n",
           cfg.cores);
    printf("%-24s %8s %14s %10s %12s  %s\n", "workload", "threads", "device Mi/s", "speed-up", "per thread",
           "goal >= 0.8");
    for (int w = 0; w < 3; w++)
        printf("%-24s %8u %14.1f %10.2f %12.2f  -\n", res[w].name, 1u, res[w].dev_rate / 1e6, 1.0, 1.0);
    result scaled[3];
    double speedup[3] = { 1, 1, 1 };
    for (uint32_t t = 2; t <= most; t++) {
        workloads(path, t, scaled);
        for (int w = 0; w < 3; w++) {
            speedup[w] = scaled[w].dev_rate / res[w].dev_rate;
            printf("%-24s %8u %14.1f %10.2f %12.2f  %s\n", res[w].name, t, scaled[w].dev_rate / 1e6, speedup[w],
                   speedup[w] / t, speedup[w] / t >= 0.8 ? "met" : "not met");
        }
    }
    if (most < 2) printf("(one host core: no scaling to measure)\n");
    printf("\ndevice open + module load: %.2f ms (RSS %ld KiB before)\n", open_ms, rss0);
    printf("empty launch (1 thread) + synchronize: %.1f us\n", empty_us);
    printf("host memory per resident thread: %.0f bytes (%u resident lanes; RSS %ld -> %ld KiB with 1 KiB of stack touched per lane)\n",
           (double)(rss2 - rss1) * 1024.0 / lanes, lanes, rss1, rss2);
    if (json) {
        FILE *f = fopen(json, "w");
        if (!f) { perror(json); return 1; }
        fprintf(f, "{\"workloads\":[");
        for (int w = 0; w < 3; w++)
            fprintf(f, "%s{\"name\":\"%s\",\"device_thread_instr_per_s\":%.0f,\"qemu_instr_per_s\":%.0f,"
                       "\"ratio\":%.3f,\"cpu_time_ratio\":%.3f,\"device_thread_instr\":%llu,\"qemu_instr\":%llu}", w ? "," : "",
                    res[w].name, res[w].dev_rate, res[w].qemu_rate, have_qemu ? res[w].dev_rate / res[w].qemu_rate : 0.0,
                    have_qemu ? res[w].dev_cpu_rate / res[w].qemu_cpu_rate : 0.0,
                    (unsigned long long)res[w].dev_instr, (unsigned long long)res[w].qemu_instr);
        if (have_native)
            fprintf(f, "],\"native_ms\":[[%.3f,%.3f],[%.3f,%.3f],[%.3f,%.3f]", native[0].thread_order_ms,
                    native[0].warp_order_ms, native[1].thread_order_ms, native[1].warp_order_ms,
                    native[2].thread_order_ms, native[2].warp_order_ms);
        fprintf(f, "],\"empty_launch_us\":%.2f,\"open_ms\":%.2f,\"bytes_per_resident_thread\":%.0f,"
                   "\"max_threads\":%u,\"speedup_at_max_threads\":[%.3f,%.3f,%.3f]}\n", empty_us,
                open_ms, (double)(rss2 - rss1) * 1024.0 / lanes, most, speedup[0], speedup[1], speedup[2]);
        fclose(f);
    }
    return 0;
}
