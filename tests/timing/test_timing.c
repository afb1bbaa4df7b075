/* Timing model: kernels built to stall in known ways show the expected
 * dominant warp state; exact bank-conflict counts; SIMT efficiency of a
 * divergent kernel; determinism; identical results in both modes;
 * several blocks per core with streaming. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include "timing_test.h"
#include "device/timing.h"
#include "device/trace/trace_cell.h"

static const char *elf, *gto_elf;

/* A device from config text `cfg` with the kernels loaded and an output
 * buffer of `words` words; -1 when there is no device. */
static int open_with_out(tdev *t, const char *cfg, unsigned words, ws_addr *out)
{
    CHECK(tdev_open(t, elf, cfg) == 0);
    if (!t->dev) return -1;
    CHECK(ws_malloc(t->dev, words * 4, out) == WS_OK);
    return 0;
}

/* Run `kernel` to completion and read back (and print) its counters. */
static void run_counted(tdev *t, const char *kernel, ws_dim3 grid, ws_dim3 block,
                        const ws_arg *a, size_t na, ws_timing_counters *c)
{
    CHECK(tdev_run(t, kernel, grid, block, a, na) == WS_OK);
    CHECK(ws_last_launch_counters(t->dev, c) == WS_OK);
    print_counters(kernel, c);
}

/* A dependent global load: long_scoreboard dominates. */
static void test_chase(void)
{
    tdev t;
    CHECK(tdev_open(&t, elf, "mode=timing, cores=1") == 0);
    if (!t.dev) return;
    const unsigned n = 32 * 4, steps = 40;
    ws_addr next, out;
    CHECK(ws_malloc(t.dev, n * 4, &next) == WS_OK);
    CHECK(ws_malloc(t.dev, (32 + 1) * 4, &out) == WS_OK);
    unsigned host[32 * 4];
    for (unsigned i = 0; i < n; i++) host[i] = next + ((i + 32) % n) * 4; /* lane l: l, l+32, ... */
    ws_memcpy_htod(t.dev, next, host, sizeof host);
    ws_arg a[] = { WS_ARG_PTR(next), WS_ARG_I32((int)steps), WS_ARG_PTR(out) };
    ws_timing_counters c;
    run_counted(&t, "chase", WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), a, 3, &c);
    CHECK_EQ_U(dominant_state(&c, 0), WS_STATE_LONG_SCOREBOARD);
    CHECK(c.state_cycles[WS_STATE_LONG_SCOREBOARD] > c.cycles * 8 / 10);
    CHECK(c.cycles >= (uint64_t)steps * 400);
    /* every lw reads one word per lane from 32 consecutive words */
    CHECK(c.gmem_requests >= steps);
    CHECK_EQ_U(c.state_cycles[WS_STATE_SELECTED], c.warp_instructions);
    CHECK_EQ_U(state_total(&c), c.resident_warp_cycles);
    CHECK_EQ_U(c.resident_warp_cycles, c.cycles); /* one warp, resident throughout */
    ws_launch_stats ls;
    CHECK(ws_last_launch_stats(t.dev, &ls) == WS_OK);
    CHECK_EQ_U(ls.cycles, c.cycles);
    unsigned res[33];
    ws_memcpy_dtoh(t.dev, res, out, sizeof res);
    CHECK_EQ_U(res[1 + 5], next + (5 + (steps % 4) * 32) * 4);
    ws_device_close(t.dev);
}

/* Warps 1..3 wait at the barrier while warp 0 computes. */
static void test_barrier(void)
{
    tdev t;
    ws_addr out;
    if (open_with_out(&t, "mode=timing, cores=1", 129, &out)) return;
    ws_arg a[] = { WS_ARG_PTR(out), WS_ARG_I32(2000) };
    ws_timing_counters c;
    run_counted(&t, "imbalance", WS_DIM3(1, 1, 1), WS_DIM3(128, 1, 1), a, 2, &c);
    CHECK_EQ_U(dominant_state(&c, 0), WS_STATE_BARRIER);
    CHECK(c.state_cycles[WS_STATE_BARRIER] > c.cycles * 25 / 10); /* ~3 warps x all cycles */
    ws_device_close(t.dev);
}

/* Bank conflicts: stride 32 = 31 conflicts per access, stride 1 = none. */
static void test_banks(void)
{
    const int iters = 50;
    ws_timing_counters c[2];
    for (int i = 0; i < 2; i++) {
        tdev t;
        ws_addr out;
        if (open_with_out(&t, "mode=timing, cores=1", 33, &out)) return;
        ws_arg a[] = { WS_ARG_PTR(out), WS_ARG_U32(i ? 1u : 32u), WS_ARG_I32(iters) };
        CHECK(tdev_run(&t, "bank_stride", WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), a, 3) == WS_OK);
        CHECK(ws_last_launch_counters(t.dev, &c[i]) == WS_OK);
        print_counters(i ? "stride 1" : "stride 32", &c[i]);
        ws_device_close(t.dev);
    }
    CHECK_EQ_U(c[0].shared_requests, 2 * iters);
    CHECK_EQ_U(c[0].shared_bank_conflicts, 2 * iters * 31);
    CHECK_EQ_U(c[1].shared_requests, 2 * iters);
    CHECK_EQ_U(c[1].shared_bank_conflicts, 0);
    uint64_t mio = c[0].state_cycles[WS_STATE_SHORT_SCOREBOARD] + c[0].state_cycles[WS_STATE_MIO_THROTTLE];
    unsigned d = dominant_state(&c[0], 0);
    CHECK(d == WS_STATE_SHORT_SCOREBOARD || d == WS_STATE_MIO_THROTTLE);
    CHECK(mio > c[0].cycles * 7 / 10);
    /* the 31 extra passes of each of the 100 accesses are on the critical path */
    CHECK(c[0].cycles - c[1].cycles >= (uint64_t)(2 * iters * 31 - 10));
    CHECK_EQ_U(c[0].unit_busy[WS_UNIT_MIO] - c[1].unit_busy[WS_UNIT_MIO], 2 * iters * 31);
}

/* Shared-memory atomics: 32 lanes on one word take 32 passes (read-modify-
 * writes never share a word, unlike loads: before 2026-11-27 one pass);
 * 32 lanes on 32 banks take one. */
static void test_shared_atomics(void)
{
    const int iters = 40;
    ws_timing_counters c[2];
    for (int i = 0; i < 2; i++) {
        tdev t;
        ws_addr out;
        CHECK(tdev_open(&t, gto_elf, "mode=timing, cores=1") == 0);
        if (!t.dev) return;
        CHECK(ws_malloc(t.dev, 32 * 4, &out) == WS_OK);
        ws_arg a[] = { WS_ARG_PTR(out), WS_ARG_U32((unsigned)i), WS_ARG_I32(iters) };
        CHECK(tdev_run(&t, "shared_atomics", WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), a, 3) == WS_OK);
        CHECK(ws_last_launch_counters(t.dev, &c[i]) == WS_OK);
        print_counters(i ? "atomics on 32 banks" : "atomics on one word", &c[i]);
        uint32_t got[32];
        CHECK(ws_memcpy_dtoh(t.dev, got, out, sizeof got) == WS_OK);
        CHECK_EQ_U(got[0], i ? (uint32_t)iters : 32u * iters); /* the atomics' results themselves */
        ws_device_close(t.dev);
    }
    /* the atomics and the store before the loop (one word per lane: no
     * conflict) and the load after it */
    CHECK_EQ_U(c[0].shared_requests, iters + 2);
    CHECK_EQ_U(c[0].shared_bank_conflicts, iters * 31);
    CHECK_EQ_U(c[1].shared_requests, iters + 2);
    CHECK_EQ_U(c[1].shared_bank_conflicts, 0);
    /* the 31 extra passes of each atomic occupy the MIO, and most of them the critical path */
    CHECK_EQ_U(c[0].unit_busy[WS_UNIT_MIO] - c[1].unit_busy[WS_UNIT_MIO], iters * 31);
    CHECK(c[0].cycles - c[1].cycles >= (uint64_t)(iters * 31 * 9 / 10));
}

/* One lane in eight works: SIMT efficiency well below 50%. */
static void test_divergent(void)
{
    tdev t;
    ws_addr out;
    if (open_with_out(&t, "mode=timing", 1024, &out)) return;
    ws_arg a[] = { WS_ARG_PTR(out), WS_ARG_I32(200) };
    ws_timing_counters c;
    run_counted(&t, "divergent", WS_DIM3(8, 1, 1), WS_DIM3(128, 1, 1), a, 2, &c);
    CHECK(c.simt_efficiency < 0.5);
    CHECK(c.simt_efficiency > 0.1);
    ws_device_close(t.dev);
}

/* A dependent ALU chain: wait dominates. */
static void test_alu_chain(void)
{
    tdev t;
    ws_addr out;
    if (open_with_out(&t, "mode=timing, cores=1", 33, &out)) return;
    ws_arg a[] = { WS_ARG_PTR(out), WS_ARG_I32(100) };
    ws_timing_counters c;
    run_counted(&t, "alu_chain", WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), a, 2, &c);
    CHECK_EQ_U(dominant_state(&c, 0), WS_STATE_WAIT);
    /* 15 of each 16 dependent adds wait 3 cycles (int_latency = 4); the
     * first waits behind the loop branch instead */
    CHECK(c.state_cycles[WS_STATE_WAIT] >= 1500 * 3);
    unsigned res[33];
    ws_memcpy_dtoh(t.dev, res, out, sizeof res);
    CHECK_EQ_U(res[1 + 7], 7 + 100 * 16 * 3);
    ws_device_close(t.dev);
}

/* The mixed kernel over many blocks, several per core (streaming): results
 * equal functional mode's bit for bit; counters identical across runs. */
static int run_mixed(const char *cfg, float *data_out, unsigned *hist_out, ws_timing_counters *c)
{
    tdev t;
    if (tdev_open(&t, elf, cfg)) return -1;
    const int n = 64 * 200;
    float *host = malloc(n * sizeof *host);
    for (int i = 0; i < n; i++) host[i] = (float)((i * 7919) % 1000) / 10.0f;
    ws_addr d, h;
    ws_malloc(t.dev, n * 4, &d);
    ws_malloc(t.dev, 16 * 4, &h);
    ws_memset(t.dev, h, 0, 64);
    ws_memcpy_htod(t.dev, d, host, n * 4);
    ws_arg a[] = { WS_ARG_PTR(d), WS_ARG_PTR(h), WS_ARG_I32(n) };
    int r = tdev_run(&t, "mixed", WS_DIM3(200, 1, 1), WS_DIM3(64, 1, 1), a, 3) == WS_OK ? 0 : -1;
    ws_memcpy_dtoh(t.dev, data_out, d, n * 4);
    ws_memcpy_dtoh(t.dev, hist_out, h, 64);
    if (c && ws_last_launch_counters(t.dev, c)) r = -1;
    free(host);
    ws_device_close(t.dev);
    return r;
}

static void test_modes_agree(void)
{
    const int n = 64 * 200;
    float *f = calloc(n, 4), *t1 = calloc(n, 4), *t2 = calloc(n, 4);
    unsigned hf[16], h1[16], h2[16];
    ws_timing_counters c1, c2;
    CHECK(run_mixed("mode=functional", f, hf, NULL) == 0);
    CHECK(run_mixed("mode=timing, cores=2, warps_per_core=8", t1, h1, &c1) == 0);
    CHECK(run_mixed("mode=timing, cores=2, warps_per_core=8", t2, h2, &c2) == 0);
    CHECK(memcmp(f, t1, n * 4) == 0);
    CHECK(memcmp(hf, h1, sizeof hf) == 0);
    CHECK(memcmp(t1, t2, n * 4) == 0);
    CHECK(memcmp(&c1, &c2, sizeof c1) == 0); /* deterministic, bit for bit */
    print_counters("mixed", &c1);
    CHECK(c1.achieved_occupancy > 0.5);     /* 4 blocks of 2 warps per core */
    CHECK(c1.state_cycles[WS_STATE_BARRIER] > 0);
    CHECK(c1.state_cycles[WS_STATE_MEMBAR] > 0);
    CHECK(c1.shared_requests > 0 && c1.gmem_requests > 0);
    CHECK(c1.sectors_per_request >= 1.0);
    CHECK_EQ_U(c1.unit_instances[WS_UNIT_INT], 2 * 2);  /* 2 cores x 2 schedulers */
    CHECK_EQ_U(c1.unit_instances[WS_UNIT_LSU], 2);
    for (unsigned u = 0; u < WS_UNIT_COUNT; u++)
        CHECK(c1.unit_busy[u] <= c1.cycles * c1.unit_instances[u]);
    /* GTO scheduling: same results, different cycles possible */
    FILE *fp = fopen("gto.timing", "w");
    if (fp) { fputs("scheduler = gto\nschedulers = 4\n", fp); fclose(fp); }
    ws_timing_counters c3;
    CHECK(run_mixed("mode=timing, cores=2, timing=gto.timing", t2, h2, &c3) == 0);
    CHECK(memcmp(f, t2, n * 4) == 0);
    CHECK(c3.cycles > 0);
    free(f); free(t1); free(t2);
}

/* Functional mode has no counters; a fault in timing mode is reported. */
static void test_misc(void)
{
    tdev t;
    ws_timing_counters c;
    CHECK(tdev_open(&t, elf, "mode=functional") == 0);
    if (t.dev) {
        CHECK(ws_last_launch_counters(t.dev, &c) == WS_ERR_NOT_FOUND);
        CHECK_STR_CONTAINS(ws_last_error(t.dev), "mode=timing");
        ws_device_close(t.dev);
    }
    CHECK(tdev_open(&t, elf, "mode=timing") == 0);
    if (t.dev) {
        ws_arg a[] = { WS_ARG_PTR(0x10), WS_ARG_I32(3), WS_ARG_PTR(0x10) };
        ws_kernel *k;
        ws_kernel_get(t.mod, "chase", &k);
        ws_launch(t.dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, a, 3);
        CHECK(ws_synchronize(t.dev) == WS_ERR_KERNEL_FAULT);
        CHECK_STR_CONTAINS(ws_last_error(t.dev), "chase");
        /* The one warp was resident from cycle 0 up to and including the
         * cycle it faulted in: as many warp-cycles as the launch's cycles
         * (the cycle of the fault was missing from them: 74 warp-cycles
         * in 73 cycles, an occupancy over 1). */
        CHECK(ws_last_launch_counters(t.dev, &c) == WS_OK);
        uint64_t states = 0;
        for (int s = 0; s < WS_WARP_STATE_COUNT; s++) states += c.state_cycles[s];
        CHECK(c.cycles > 0);
        CHECK_EQ_U(c.resident_warp_cycles, c.cycles);
        CHECK_EQ_U(states, c.resident_warp_cycles);
        CHECK(c.achieved_occupancy <= 1.0);
        ws_device_close(t.dev);
    }
}

/* A barrier mismatch ends with the deadlock report; a kernel that runs
 * too long with the watchdog's. */
static void test_deadlock_watchdog(void)
{
    tdev t;
    ws_addr out, next;
    if (open_with_out(&t, "mode=timing, watchdog_ms=300", 128, &out)) return;
    ws_arg a[] = { WS_ARG_PTR(out) };
    ws_kernel *k;
    ws_kernel_get(t.mod, "deadlock", &k);
    ws_launch(t.dev, k, WS_DIM3(1, 1, 1), WS_DIM3(64, 1, 1), 0, a, 1);
    CHECK(ws_synchronize(t.dev) == WS_ERR_DEADLOCK);
    CHECK_STR_CONTAINS(ws_last_error(t.dev), "barrier");
    /* a 2^30-step pointer chase: the watchdog ends it */
    unsigned host[32];
    CHECK(ws_malloc(t.dev, sizeof host, &next) == WS_OK);
    for (unsigned i = 0; i < 32; i++) host[i] = next + i * 4;
    ws_memcpy_htod(t.dev, next, host, sizeof host);
    ws_arg b[] = { WS_ARG_PTR(next), WS_ARG_I32(1 << 30), WS_ARG_PTR(out) };
    ws_kernel_get(t.mod, "chase", &k);
    ws_launch(t.dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, b, 3);
    CHECK(ws_synchronize(t.dev) == WS_ERR_TIMEOUT);
    CHECK_STR_CONTAINS(ws_last_error(t.dev), "watchdog_ms");
    ws_device_close(t.dev);
}

/* The watchdog also ends a launch handed over to several host threads:
 * on the default threads, eight blocks of a 2^30-step chase start on one
 * thread, which hands them over after the first window without a release
 * (docs/parallel.md). */
static void test_watchdog_after_handover(void)
{
    const char *env = getenv("WARPSCOPE_THREADS");
    char saved[32] = "";
    if (env) snprintf(saved, sizeof saved, "%s", env);
    unsetenv("WARPSCOPE_THREADS"); /* (the default threads: not asked for) */
    tdev t;
    ws_addr out, next;
    const int failed = open_with_out(&t, "mode=timing, watchdog_ms=300", 512, &out);
    if (env) setenv("WARPSCOPE_THREADS", saved, 1);
    if (failed) return;
    unsigned host[256];
    CHECK(ws_malloc(t.dev, sizeof host, &next) == WS_OK);
    for (unsigned i = 0; i < 256; i++) host[i] = next + i * 4; /* each lane's word points at itself */
    ws_memcpy_htod(t.dev, next, host, sizeof host);
    ws_arg a[] = { WS_ARG_PTR(next), WS_ARG_I32(1 << 30), WS_ARG_PTR(out) };
    ws_kernel *k;
    ws_kernel_get(t.mod, "chase", &k);
    ws_launch(t.dev, k, WS_DIM3(8, 1, 1), WS_DIM3(32, 1, 1), 0, a, 3);
    CHECK(ws_synchronize(t.dev) == WS_ERR_TIMEOUT);
    CHECK_STR_CONTAINS(ws_last_error(t.dev), "watchdog_ms");
    const uint64_t from = ws_timing_parallel_from(t.dev);
    /* an event bus (WARPSCOPE_WATCH set for the run) keeps every launch on
     * one thread, by design (docs/parallel.md) */
    if (t.dev->events) CHECK_EQ_U(from == UINT64_MAX, 1);
    else if (sysconf(_SC_NPROCESSORS_ONLN) > 1) CHECK(from > 0 && from != UINT64_MAX);
    else printf("one host core: the hand-over is not exercised\n");
    ws_device_close(t.dev);
}

/* A device the profiler turns to timing mode builds its model when the
 * profiler attaches (at the open), from the parameter file validated
 * there. Built at the first launch, it read the file again: a file
 * changed since the open failed that launch, with WS_ERR_OUT_OF_MEMORY and
 * a report of a fault that never happened. */
static void test_profiled_params(void)
{
    FILE *f = fopen("profiled.timing", "w");
    if (!f) { CHECK(0); return; }
    fputs("int_latency = 5\n", f);
    fclose(f);
    setenv("WARPSCOPE_PROFILE", "report=profiled.report", 1);
    tdev t;
    ws_addr out;
    const int r = open_with_out(&t, "cores=1, timing=profiled.timing", 33, &out);
    unsetenv("WARPSCOPE_PROFILE");
    if (r) return;
    f = fopen("profiled.timing", "w"); /* bad now: the open's parameters hold */
    if (f) { fputs("int_latency = 0\n", f); fclose(f); }
    ws_arg a[] = { WS_ARG_PTR(out), WS_ARG_I32(10) };
    ws_timing_counters c;
    run_counted(&t, "alu_chain", WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), a, 2, &c);
    /* int_latency = 5: 15 of each 16 dependent adds wait 4 cycles */
    CHECK(c.state_cycles[WS_STATE_WAIT] >= 10 * 15 * 4);
    ws_device_close(t.dev);
}

/* GTO: the warp issued last issues again while it is eligible, else the
 * eligible warp dispatched earliest (docs/timing.md). A warp that took the
 * slot of the warp issued last took its priority too: a new block's first
 * instruction issued before an older warp eligible in the same cycle.
 * gto_kernels.c's probe meets that case within a range of its block 0's
 * work; every cycle of every run is checked (one scheduler, blocks of one
 * warp: block order is dispatch order; records of both warps every other
 * cycle, in two passes). */
static void test_gto_order(void)
{
    FILE *f = fopen("gto1.timing", "w");
    if (!f) { CHECK(0); return; }
    fputs("scheduler = gto\nschedulers = 1\n", f);
    fclose(f);
    tdev t;
    ws_addr buf, tb;
    if (tdev_open(&t, gto_elf, "mode=timing, cores=1, warps_per_core=2, timing=gto1.timing")) { CHECK(0); return; }
    enum { CAP = 4096, MAXC = 2048 };
    CHECK(ws_malloc(t.dev, 64 * 4, &buf) == WS_OK);
    CHECK(ws_malloc(t.dev, sizeof(ws_trace_header) + CAP * sizeof(ws_trace_record), &tb) == WS_OK);
    ws_trace_record *r = calloc(CAP, sizeof *r);
    uint64_t choices = 0, bad = 0;
    for (int k = 26; k <= 34 && r; k++)
        for (int m = 0; m <= 9; m++) {
            /* per cycle: the block selected, and the oldest block passed over (+1; 0: none) */
            uint64_t sel[MAXC] = { 0 }, passed[MAXC] = { 0 }, cycles = 0;
            for (unsigned phase = 0; phase < 2; phase++) {
                ws_trace_config tc;
                memset(&tc, 0, sizeof tc);
                tc.enabled = 1;
                tc.trigger = WS_TRACE_ON_CYCLES;
                tc.period_log2 = 1;
                tc.phase = phase;
                tc.core_mask = ~0ull;
                tc.buffer = tb;
                tc.capacity = CAP;
                CHECK(ws_trace_configure(t.dev, &tc) == WS_OK);
                ws_arg a[] = { WS_ARG_PTR(buf), WS_ARG_I32(k), WS_ARG_I32(m) };
                CHECK(tdev_run(&t, "gto_probe", WS_DIM3(3, 1, 1), WS_DIM3(32, 1, 1), a, 3) == WS_OK);
                ws_timing_counters c;
                CHECK(ws_last_launch_counters(t.dev, &c) == WS_OK);
                cycles = c.cycles;
                ws_trace_header h;
                ws_memcpy_dtoh(t.dev, &h, tb, sizeof h);
                CHECK_EQ_U(h.dropped, 0);
                const uint64_t n = h.written < CAP ? h.written : CAP;
                ws_memcpy_dtoh(t.dev, r, tb + sizeof h, n * sizeof *r);
                for (uint64_t i = 0; i < n; i++) {
                    if (r[i].cycle >= MAXC) continue;
                    if (r[i].state == WS_STATE_SELECTED) sel[r[i].cycle] = r[i].block + 1;
                    if (r[i].state == WS_STATE_NOT_SELECTED &&
                        (!passed[r[i].cycle] || r[i].block + 1 < passed[r[i].cycle]))
                        passed[r[i].cycle] = r[i].block + 1;
                }
            }
            CHECK(cycles > 0 && cycles < MAXC);
            uint64_t last = 0;
            for (uint64_t cy = 0; cy < cycles && cy < MAXC; cy++) {
                if (!sel[cy]) continue;
                if (passed[cy]) {
                    choices++;
                    if (sel[cy] != last && sel[cy] > passed[cy]) {
                        if (!bad)
                            fprintf(stderr, "gto (k=%d m=%d): cycle %llu: block %llu issued, older block %llu "
                                    "eligible, block %llu issued last\n", k, m, (unsigned long long)cy,
                                    (unsigned long long)sel[cy] - 1, (unsigned long long)passed[cy] - 1,
                                    (unsigned long long)last - 1);
                        bad++;
                    }
                }
                last = sel[cy];
            }
        }
    ws_trace_disable(t.dev);
    printf("gto: %llu cycles with a choice, %llu against the rule\n", (unsigned long long)choices,
           (unsigned long long)bad);
    CHECK(choices > 0);
    CHECK_EQ_U(bad, 0);
    free(r);
    ws_device_close(t.dev);
}

/* docs/timing.md's taken branch, cycle by cycle: fetch 0-3, beq 4,
 * branch_resolving 5, no_instructions 6-9 (the target is not the next
 * PC), add 10, ret 11, branch_resolving 12, drain 13 (the lanes retire at
 * the exit stub without an issue slot). */
static void test_taken_branch(void)
{
    tdev t;
    if (tdev_open(&t, gto_elf, "mode=timing, cores=1")) { CHECK(0); return; }
    ws_timing_counters c;
    run_counted(&t, "taken_branch", WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), NULL, 0, &c);
    CHECK_EQ_U(c.cycles, 14);
    CHECK_EQ_U(c.state_cycles[WS_STATE_SELECTED], 3);
    CHECK_EQ_U(c.state_cycles[WS_STATE_NO_INSTRUCTIONS], 8);
    CHECK_EQ_U(c.state_cycles[WS_STATE_BRANCH_RESOLVING], 2);
    CHECK_EQ_U(c.state_cycles[WS_STATE_DRAIN], 1);
    CHECK_EQ_U(c.resident_warp_cycles, 14);
    ws_device_close(t.dev);
}

/* amocas.d's second registers are on the scoreboard (gto_kernels.c): an
 * add reading rd + 1 waits for the atomic as one reading rd does, and the
 * atomic waits for a load into rs2 + 1 as for one into rs2. */
static void test_cas_pairs(void)
{
    tdev t;
    if (tdev_open(&t, gto_elf, "mode=timing, cores=1")) { CHECK(0); return; }
    ws_addr p;
    CHECK(ws_malloc(t.dev, 16, &p) == WS_OK && ws_memset(t.dev, p, 0, 16) == WS_OK);
    static const char *const k[] = { "cas_rd_lo", "cas_rd_hi", "cas_rs2_lo", "cas_rs2_hi", "cas_none" };
    uint64_t cycles[5], waits[5];
    ws_arg a[] = { WS_ARG_PTR(p) };
    for (int i = 0; i < 5; i++) {
        ws_timing_counters c;
        run_counted(&t, k[i], WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), a, 1, &c);
        cycles[i] = c.cycles;
        waits[i] = c.state_cycles[WS_STATE_LONG_SCOREBOARD];
    }
    printf("cas pairs: cycles rd %llu / %llu, rs2 %llu / %llu, none %llu\n", (unsigned long long)cycles[0],
           (unsigned long long)cycles[1], (unsigned long long)cycles[2], (unsigned long long)cycles[3],
           (unsigned long long)cycles[4]);
    CHECK_EQ_U(cycles[1], cycles[0]);
    CHECK_EQ_U(waits[1], waits[0]);
    CHECK_EQ_U(cycles[3], cycles[2]);
    CHECK_EQ_U(waits[3], waits[2]);
    CHECK(waits[0] > waits[4] + 100); /* the add waited for the atomic's old value */
    ws_device_close(t.dev);
}

/* A launch ends only when its warps' last memory writes have completed:
 * an atomic whose old value is never read drains like a store (both wait
 * out the memory latency in `drain`). */
static void test_atomic_drain(void)
{
    tdev t;
    if (tdev_open(&t, gto_elf, "mode=timing, cores=1")) { CHECK(0); return; }
    ws_addr p;
    CHECK(ws_malloc(t.dev, 16, &p) == WS_OK && ws_memset(t.dev, p, 0, 16) == WS_OK);
    ws_arg a[] = { WS_ARG_PTR(p) };
    ws_timing_counters store, atomic;
    run_counted(&t, "last_store", WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), a, 1, &store);
    run_counted(&t, "last_atomic", WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), a, 1, &atomic);
    printf("last write: store %llu cycles (%llu drain), atomic %llu (%llu drain)\n",
           (unsigned long long)store.cycles, (unsigned long long)store.state_cycles[WS_STATE_DRAIN],
           (unsigned long long)atomic.cycles, (unsigned long long)atomic.state_cycles[WS_STATE_DRAIN]);
    CHECK(store.state_cycles[WS_STATE_DRAIN] > 300);
    CHECK(atomic.state_cycles[WS_STATE_DRAIN] >= store.state_cycles[WS_STATE_DRAIN]);
    CHECK(atomic.cycles >= store.cycles);
    uint32_t v = 0;
    CHECK(ws_memcpy_dtoh(t.dev, &v, p, 4) == WS_OK);
    CHECK_EQ_U(v, 33); /* the store's 1, then 32 lanes' atomic adds */
    ws_device_close(t.dev);
}

/* A global atomic's lanes on one word take turns at the LSU port, one
 * sector's cycles each (as a GPU's L2 atomic unit serialises them): 32
 * lanes on one word keep it busy for 32 sector times, 32 lanes on 32
 * neighbouring words for their 4 sectors. Until 2026-11-28 both took
 * their sectors only (1 and 4). */
static void test_atomic_turns(void)
{
    tdev t;
    if (tdev_open(&t, gto_elf, "mode=timing, cores=1")) { CHECK(0); return; }
    ws_addr p;
    CHECK(ws_malloc(t.dev, 128, &p) == WS_OK && ws_memset(t.dev, p, 0, 128) == WS_OK);
    const ws_timing_params *P = ws_timing_params_of(t.dev);
    ws_timing_counters one, own;
    unsigned zero = 0, spread1 = 1;
    ws_arg a0[] = { WS_ARG_PTR(p), WS_ARG_U32(zero) }, a1[] = { WS_ARG_PTR(p), WS_ARG_U32(spread1) };
    run_counted(&t, "atomic_words", WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), a0, 2, &one);
    run_counted(&t, "atomic_words", WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), a1, 2, &own);
    CHECK(P != NULL);
    if (P) {
        CHECK_EQ_U(one.gmem_sectors, 1);
        CHECK_EQ_U(one.unit_busy[WS_UNIT_LSU], 32ull * P->sector_cycles);
        CHECK_EQ_U(own.gmem_sectors, 4);
        CHECK_EQ_U(own.unit_busy[WS_UNIT_LSU], 4ull * P->sector_cycles);
        CHECK(one.cycles > own.cycles);
    }
    uint32_t v[32];
    CHECK(ws_memcpy_dtoh(t.dev, v, p, sizeof v) == WS_OK);
    CHECK_EQ_U(v[0], 33); /* 32 adds on word 0, then lane 0's own */
    for (int i = 1; i < 32; i++) CHECK_EQ_U(v[i], 1);
    ws_device_close(t.dev);
}

/* An ecall's operands follow its service (a7): write's buffer (a1) is
 * waited for (gto_kernels.c's ecall_waits_a1 waits for its load), a
 * texture sample reads the slot and fa0, fa1 (fa2 with a level) and writes
 * fa0..fa3, an assert reads a0..a3. */
static void test_ecall_operands(void)
{
    ws_inst in;
    memset(&in, 0, sizeof in);
    in.op = OP_ECALL;
    in.len = 4;
    ws_op_timing o;
    ws_op_timing_of(&in, &o);
    CHECK(o.unit == WS_UNIT_MIO && o.dst == 10 && o.src[0] == 10 && o.src[1] == 12 && o.src[2] == 17 &&
          o.more == 2 && o.more_src[0] == 11);
    ws_op_timing_ecall(WS_ECALL_TEX, &o);
    CHECK(o.src[0] == 10 && o.src[1] == 32 + 10 && o.src[2] == 17 && o.more_src[0] == 32 + 11 && !o.more_src[1]);
    CHECK(o.dst == 32 + 10 && o.more_dst[0] == 32 + 11 && o.more_dst[1] == 32 + 12 && o.more_dst[2] == 32 + 13);
    ws_op_timing_of(&in, &o);
    ws_op_timing_ecall(WS_ECALL_TEX_LOD, &o);
    CHECK(o.more_src[1] == 32 + 12);
    ws_op_timing_of(&in, &o);
    ws_op_timing_ecall(WS_ECALL_ASSERT, &o);
    CHECK(o.src[0] == 10 && o.more_src[0] == 11 && o.src[1] == 12 && o.more_src[1] == 13 && o.dst == 10);

    tdev t;
    if (tdev_open(&t, gto_elf, "mode=timing, cores=1")) { CHECK(0); return; }
    ws_addr p;
    CHECK(ws_malloc(t.dev, 16, &p) == WS_OK);
    const uint32_t buf = (uint32_t)p + 8;
    CHECK(ws_memcpy_htod(t.dev, p, &buf, 4) == WS_OK);
    ws_arg a[] = { WS_ARG_PTR(p) };
    ws_timing_counters c;
    run_counted(&t, "ecall_waits_a1", WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), a, 1, &c);
    CHECK(c.state_cycles[WS_STATE_LONG_SCOREBOARD] >= 300); /* the ecall waited for a1's load */
    ws_device_close(t.dev);
}

/* Operands and units of every op class the scoreboard relies on. */
static void test_op_table(void)
{
    ws_inst in;
    ws_op_timing o;
    memset(&in, 0, sizeof in);
    in.rd = 5; in.rs1 = 6; in.rs2 = 7; in.rs3 = 8; in.len = 4;
    static const struct { ws_op op; unsigned unit, dst, s0, s1; } want[] = {
        { OP_ADDI, WS_UNIT_INT, 5, 6, 0 }, { OP_XOR, WS_UNIT_INT, 5, 6, 7 }, { OP_SRA, WS_UNIT_INT, 5, 6, 7 },
        { OP_SLLI, WS_UNIT_INT, 5, 6, 0 }, { OP_LUI, WS_UNIT_INT, 5, 0, 0 }, { OP_MUL, WS_UNIT_MUL, 5, 6, 7 },
        { OP_REMU, WS_UNIT_DIV, 5, 6, 7 }, { OP_LW, WS_UNIT_LSU, 5, 6, 0 }, { OP_SW, WS_UNIT_LSU, 0, 6, 7 },
        { OP_FLW, WS_UNIT_LSU, 37, 6, 0 }, { OP_FSW, WS_UNIT_LSU, 0, 6, 39 }, { OP_FADD_S, WS_UNIT_FP, 37, 38, 39 },
        { OP_FMADD_S, WS_UNIT_FP, 37, 38, 39 }, { OP_FDIV_S, WS_UNIT_FDIV, 37, 38, 39 },
        { OP_FCVT_W_S, WS_UNIT_FP, 5, 38, 0 }, { OP_FMV_W_X, WS_UNIT_FP, 37, 6, 0 },
        { OP_SHFL_DOWN, WS_UNIT_MIO, 5, 6, 7 }, { OP_CSRRS, WS_UNIT_MIO, 5, 6, 0 },
        { OP_AMOADD_W, WS_UNIT_LSU, 5, 6, 7 }, { OP_BEQ, WS_UNIT_INT, 0, 6, 7 }, { OP_VOTE_ANY, WS_UNIT_INT, 5, 6, 0 },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        in.op = (uint16_t)want[i].op;
        ws_op_timing_of(&in, &o);
        int ok = o.unit == want[i].unit && o.dst == want[i].dst && o.src[0] == want[i].s0 && o.src[1] == want[i].s1;
        if (!ok) fprintf(stderr, "op %s: unit %u dst %u src %u %u\n", ws_op_name(want[i].op), o.unit, o.dst, o.src[0], o.src[1]);
        CHECK(ok);
    }
    /* every real op names its unit; loads and stores are memory ops */
    for (unsigned op = 1; op < OP_COUNT; op++) {
        in.op = (uint16_t)op;
        ws_op_timing_of(&in, &o);
        ws_op_class c = ws_op_class_of((ws_op)op);
        if ((c == CLASS_LOAD || c == CLASS_STORE || c == CLASS_ATOMIC) != (o.mem != 0))
            fprintf(stderr, "op %s: mem %u\n", ws_op_name((ws_op)op), o.mem);
        CHECK((c == CLASS_LOAD || c == CLASS_STORE || c == CLASS_ATOMIC) == (o.mem != 0));
        CHECK((c == CLASS_BRANCH || c == CLASS_JUMP) == (o.branch != 0));
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: %s timing_kernels.elf gto_kernels.elf\n", argv[0]); return 2; }
    elf = argv[1];
    gto_elf = argv[2];
    test_op_table();
    test_chase();
    test_barrier();
    test_banks();
    test_shared_atomics();
    test_divergent();
    test_alu_chain();
    test_modes_agree();
    test_misc();
    test_deadlock_watchdog();
    test_watchdog_after_handover();
    test_profiled_params();
    test_gto_order();
    test_taken_branch();
    test_cas_pairs();
    test_ecall_operands();
    test_atomic_drain();
    test_atomic_turns();
    return TEST_SUMMARY();
}
