/* Trace cells: stall attribution in samples (long_scoreboard at the load
 * with producer_pc = the load), exact sample accounting (written + dropped
 * = due samples, with the FIFO and the buffer overflowing), event triggers,
 * filters, and sampling that never changes simulated cycles. */
#include "timing_test.h"
#include "device/trace/trace_cell.h"

static const char *elf;

typedef struct run_out {
    ws_timing_counters c;
    ws_trace_header h;
    ws_trace_record *rec;
    unsigned key_pc;         /* out[0]: PC of the kernel's key instruction */
} run_out;

/* Run `kernel` (chase or bank_stride shapes) on one core with the cell
 * programmed by cfg (NULL: off). */
static int run_traced(const char *devcfg, const char *kernel, const ws_trace_config *tcfg, run_out *o,
                      unsigned nblocks, unsigned nthreads)
{
    tdev t;
    memset(o, 0, sizeof *o);
    if (tdev_open(&t, elf, devcfg)) return -1;
    const unsigned n = nblocks * nthreads;
    ws_addr next, out, buf = 0;
    ws_malloc(t.dev, n * 4, &next);
    ws_malloc(t.dev, (n + 1) * 4, &out);
    unsigned *host = malloc(n * 4);
    for (unsigned i = 0; i < n; i++) host[i] = next + ((i + 32) % n) * 4;
    ws_memcpy_htod(t.dev, next, host, n * 4);
    free(host);
    uint32_t cap = tcfg ? tcfg->capacity : 0;
    if (tcfg) {
        ws_trace_config c = *tcfg;
        ws_malloc(t.dev, sizeof(ws_trace_header) + cap * sizeof(ws_trace_record), &buf);
        c.buffer = buf;
        if (ws_trace_configure(t.dev, &c) != WS_OK) {
            fprintf(stderr, "configure: %s\n", ws_last_error(t.dev));
            ws_device_close(t.dev);
            return -1;
        }
    }
    ws_status st;
    if (strcmp(kernel, "chase") == 0) {
        ws_arg a[] = { WS_ARG_PTR(next), WS_ARG_I32(30), WS_ARG_PTR(out) };
        st = tdev_run(&t, kernel, WS_DIM3(nblocks, 1, 1), WS_DIM3(nthreads, 1, 1), a, 3);
    } else {
        ws_arg a[] = { WS_ARG_PTR(out), WS_ARG_I32(300) };
        st = tdev_run(&t, kernel, WS_DIM3(nblocks, 1, 1), WS_DIM3(nthreads, 1, 1), a, 2);
    }
    ws_last_launch_counters(t.dev, &o->c);
    ws_memcpy_dtoh(t.dev, &o->key_pc, out, 4);
    if (tcfg) {
        ws_memcpy_dtoh(t.dev, &o->h, buf, sizeof o->h);
        o->rec = calloc(cap, sizeof *o->rec);
        ws_memcpy_dtoh(t.dev, o->rec, buf + sizeof(ws_trace_header), cap * sizeof *o->rec);
    }
    ws_device_close(t.dev);
    return st == WS_OK ? 0 : -1;
}

static ws_trace_config cycles_cfg(unsigned log2, unsigned cap, ws_trace_mode mode)
{
    ws_trace_config c;
    memset(&c, 0, sizeof c);
    c.enabled = 1;
    c.trigger = WS_TRACE_ON_CYCLES;
    c.period_log2 = log2;
    c.mode = mode;
    c.core_mask = ~0ull;
    c.capacity = cap;
    return c;
}

/* Samples of the chase kernel: long_scoreboard at the load, producer = the load. */
static void test_attribution(void)
{
    ws_trace_config tc = cycles_cfg(4, 4096, WS_TRACE_ALL_WARPS);
    run_out o;
    CHECK(run_traced("mode=timing, cores=1", "chase", &tc, &o, 1, 32) == 0);
    CHECK_EQ_U(o.h.magic, WS_TRACE_MAGIC);
    CHECK_EQ_U(o.h.record_size, sizeof(ws_trace_record));
    uint64_t hist[WS_WARP_STATE_COUNT] = { 0 }, at_load = 0;
    for (uint64_t i = 0; i < o.h.written && i < 4096; i++) {
        const ws_trace_record *r = &o.rec[i];
        hist[r->state]++;
        if (r->state == WS_STATE_LONG_SCOREBOARD) {
            at_load += r->pc == o.key_pc && r->producer_pc == o.key_pc;
        }
        CHECK(r->cycle % 16 == 0);
    }
    unsigned best = 0;
    for (unsigned s = 0; s < WS_WARP_STATE_COUNT; s++) if (hist[s] > hist[best]) best = s;
    CHECK_EQ_U(best, WS_STATE_LONG_SCOREBOARD);
    CHECK(at_load > hist[WS_STATE_LONG_SCOREBOARD] * 9 / 10);
    fprintf(stderr, "chase: %llu samples, %llu long_scoreboard, %llu at the load 0x%08x\n",
            (unsigned long long)o.h.written, (unsigned long long)hist[WS_STATE_LONG_SCOREBOARD],
            (unsigned long long)at_load, o.key_pc);
    /* Exact accounting: one warp resident from cycle 0 to the end. */
    uint64_t due = (o.c.cycles - 1) / 16 + 1;
    CHECK_EQ_U(o.h.written + o.h.dropped, due);
    CHECK_EQ_U(o.h.dropped, 0);

    /* The same run samples the same records, bit for bit. */
    run_out again;
    CHECK(run_traced("mode=timing, cores=1", "chase", &tc, &again, 1, 32) == 0);
    CHECK(memcmp(&again.h, &o.h, sizeof o.h) == 0);
    CHECK(memcmp(again.rec, o.rec, 4096 * sizeof *o.rec) == 0);
    free(again.rec);
    free(o.rec);

    /* Sampling does not change simulated cycles or states. */
    run_out off;
    CHECK(run_traced("mode=timing, cores=1", "chase", NULL, &off, 1, 32) == 0);
    CHECK(memcmp(&off.c, &o.c, sizeof o.c) == 0);
}

/* A small buffer: written = capacity, the rest dropped, none lost. */
static void test_buffer_full(void)
{
    ws_trace_config tc = cycles_cfg(3, 10, WS_TRACE_ALL_WARPS);
    run_out o;
    CHECK(run_traced("mode=timing, cores=1", "chase", &tc, &o, 1, 32) == 0);
    uint64_t due = (o.c.cycles - 1) / 8 + 1;
    CHECK_EQ_U(o.h.written, 10);
    CHECK_EQ_U(o.h.written + o.h.dropped, due);
    free(o.rec);
}

/* Every cycle, every resident warp (8 per core, 2 blocks streamed over 4
 * slots): 8 records a cycle into a FIFO that drains 1 - it overflows, and
 * written + dropped = resident warp-cycles exactly. */
static void test_fifo_overflow(void)
{
    ws_trace_config tc = cycles_cfg(0, 1u << 16, WS_TRACE_ALL_WARPS);
    run_out o;
    CHECK(run_traced("mode=timing, cores=1, warps_per_core=8", "chase", &tc, &o, 6, 128) == 0);
    CHECK(o.h.dropped > 0);
    CHECK_EQ_U(o.h.written + o.h.dropped, o.c.resident_warp_cycles);
    CHECK(o.h.written <= o.c.cycles + 16); /* one record drains per cycle, the FIFO at the end */
    fprintf(stderr, "fifo: %llu written, %llu dropped, %llu resident warp-cycles\n",
            (unsigned long long)o.h.written, (unsigned long long)o.h.dropped,
            (unsigned long long)o.c.resident_warp_cycles);
    free(o.rec);
}

/* Samples (written + dropped) of the chase kernel, one block of 32 on one
 * core, with the cell programmed by tc; c (if not NULL) gets the counters. */
static uint64_t chase_samples(const ws_trace_config *tc, ws_timing_counters *c)
{
    run_out o;
    CHECK(run_traced("mode=timing, cores=1", "chase", tc, &o, 1, 32) == 0);
    free(o.rec);
    if (c) *c = o.c;
    return o.h.written + o.h.dropped;
}

/* Round-robin: one record per sample, warps in turn; block filter. */
static void test_round_robin_and_filters(void)
{
    ws_trace_config tc = cycles_cfg(5, 1u << 14, WS_TRACE_ROUND_ROBIN);
    run_out o;
    CHECK(run_traced("mode=timing, cores=1, warps_per_core=4, max_threads_per_block=128", "chase", &tc, &o, 1, 128) == 0);
    /* 4 warps resident from cycle 0 until the last exits: at most one per sample */
    uint64_t due = (o.c.cycles - 1) / 32 + 1;
    CHECK(o.h.written + o.h.dropped <= due);
    CHECK(o.h.written + o.h.dropped >= due - 2);
    int turns_ok = 1;
    for (uint64_t i = 1; i < o.h.written && i < 8; i++) turns_ok &= o.rec[i].warp == (o.rec[i - 1].warp + 1) % 4;
    CHECK(turns_ok);
    free(o.rec);

    /* block filter: only block 2 of 4 (one block resident at a time) */
    tc = cycles_cfg(4, 1u << 14, WS_TRACE_ALL_WARPS);
    tc.block_lo = 2;
    tc.block_hi = 2;
    CHECK(run_traced("mode=timing, cores=1, warps_per_core=1, max_threads_per_block=32", "chase", &tc, &o, 4, 32) == 0);
    int only2 = o.h.written > 0;
    for (uint64_t i = 0; i < o.h.written; i++) only2 &= o.rec[i].block == 2;
    CHECK(only2);
    free(o.rec);

    /* cycle window and launch filter */
    tc = cycles_cfg(0, 1u << 14, WS_TRACE_ALL_WARPS);
    tc.cycle_lo = 100;
    tc.cycle_hi = 199;
    CHECK_EQ_U(chase_samples(&tc, NULL), 100);
    tc.launch_id = 99;
    CHECK_EQ_U(chase_samples(&tc, NULL), 0);
    /* core mask excluding the only core */
    tc = cycles_cfg(2, 1u << 14, WS_TRACE_ALL_WARPS);
    tc.core_mask = 2;
    CHECK_EQ_U(chase_samples(&tc, NULL), 0);
}

/* Every K-th global memory request takes a sample. */
static void test_event_trigger(void)
{
    ws_trace_config tc = cycles_cfg(0, 4096, WS_TRACE_ROUND_ROBIN);
    tc.trigger = WS_TRACE_ON_GMEM_REQ;
    tc.event_count = 3;
    ws_timing_counters c;
    uint64_t n = chase_samples(&tc, &c);
    CHECK_EQ_U(n, c.gmem_requests / 3);
}

/* Every barrier instruction (K = 1): the 4 warps of the imbalance kernel
 * each arrive once; every branch (K = 5) of the chase kernel. */
static void test_barrier_branch_triggers(void)
{
    tdev t;
    CHECK(tdev_open(&t, elf, "mode=timing, cores=1") == 0);
    if (!t.dev) return;
    ws_addr out, buf;
    ws_malloc(t.dev, 129 * 4, &out);
    ws_malloc(t.dev, sizeof(ws_trace_header) + 64 * sizeof(ws_trace_record), &buf);
    ws_trace_config tc = cycles_cfg(0, 64, WS_TRACE_ROUND_ROBIN);
    tc.trigger = WS_TRACE_ON_BARRIER;
    tc.event_count = 1;
    tc.buffer = buf;
    CHECK(ws_trace_configure(t.dev, &tc) == WS_OK);
    ws_arg a[] = { WS_ARG_PTR(out), WS_ARG_I32(100) };
    CHECK(tdev_run(&t, "imbalance", WS_DIM3(1, 1, 1), WS_DIM3(128, 1, 1), a, 2) == WS_OK);
    ws_trace_header h;
    ws_memcpy_dtoh(t.dev, &h, buf, sizeof h);
    CHECK_EQ_U(h.written + h.dropped, 4);

    /* Cycle samples of the same kernel: the waiting warps are in state
     * barrier at the instruction after the barrier (bar is 4 bytes). */
    ws_trace_config cc = cycles_cfg(3, 64, WS_TRACE_ALL_WARPS);
    cc.buffer = buf;
    cc.cycle_lo = 1000; /* well after start-up: 16 samples of 4 warps */
    cc.cycle_hi = 1000 + 16 * 8 - 1;
    CHECK(ws_trace_configure(t.dev, &cc) == WS_OK);
    ws_arg a2[] = { WS_ARG_PTR(out), WS_ARG_I32(2000) };
    CHECK(tdev_run(&t, "imbalance", WS_DIM3(1, 1, 1), WS_DIM3(128, 1, 1), a2, 2) == WS_OK);
    ws_trace_record rec[64];
    unsigned bar_pc = 0;
    ws_memcpy_dtoh(t.dev, &h, buf, sizeof h);
    ws_memcpy_dtoh(t.dev, rec, buf + sizeof h, sizeof rec);
    ws_memcpy_dtoh(t.dev, &bar_pc, out + 128 * 4, 4);
    unsigned nbar = 0, at_next = 0;
    for (uint64_t i = 0; i < h.written && i < 64; i++)
        if (rec[i].state == WS_STATE_BARRIER) nbar++, at_next += rec[i].pc == bar_pc + 4 && rec[i].warp != 0;
    CHECK_EQ_U(h.written, 64);
    CHECK_EQ_U(nbar, 48);   /* warps 1-3 wait; warp 0 computes */
    CHECK_EQ_U(at_next, nbar);
    ws_device_close(t.dev);

    ws_trace_config bc = cycles_cfg(0, 4096, WS_TRACE_ALL_WARPS);
    bc.trigger = WS_TRACE_ON_BRANCH;
    bc.event_count = 5;
    /* 30 loop branches + the kernel's own few: at least 6 samples, 1 warp each */
    uint64_t n = chase_samples(&bc, NULL);
    CHECK(n >= 6 && n <= 8);
}

/* Bad programming is refused with a message. */
static void test_configure_errors(void)
{
    tdev t;
    CHECK(tdev_open(&t, elf, "mode=timing") == 0);
    if (!t.dev) return;
    ws_trace_config tc = cycles_cfg(4, 100, WS_TRACE_ALL_WARPS);
    tc.buffer = 0x1000;
    CHECK(ws_trace_configure(t.dev, &tc) == WS_ERR_BAD_ADDRESS);
    CHECK_STR_CONTAINS(ws_last_error(t.dev), "event buffer");
    ws_addr small;
    ws_malloc(t.dev, 64, &small);
    tc.buffer = small;
    CHECK(ws_trace_configure(t.dev, &tc) == WS_ERR_BAD_ADDRESS);
    tc.capacity = 0;
    CHECK(ws_trace_configure(t.dev, &tc) == WS_ERR_INVALID_ARG);
    tc.capacity = 1;
    tc.trigger = WS_TRACE_ON_BRANCH;
    tc.event_count = 0;
    CHECK(ws_trace_configure(t.dev, &tc) == WS_ERR_INVALID_ARG);
    CHECK(ws_trace_disable(t.dev) == WS_OK);
    ws_device_close(t.dev);
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s timing_kernels.elf\n", argv[0]); return 2; }
    elf = argv[1];
    test_attribution();
    test_buffer_full();
    test_fifo_overflow();
    test_round_robin_and_filters();
    test_event_trigger();
    test_barrier_branch_triggers();
    test_configure_errors();
    return TEST_SUMMARY();
}
