/* Every fault kind stops the launch with a precise report naming the kernel,
 * the faulting block and thread, the PC and (for memory) the address; the
 * device runs a good kernel correctly right afterwards. So do the watchdog
 * and the host's interrupt (ws_device_interrupt). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "warpscope/warpscope.h"
#include "../test.h"

static const struct { int kind; ws_status st; const char *what[2]; } cases[] = {
    { 0, WS_ERR_KERNEL_FAULT, { "illegal instruction", "illegal instruction: bits 0x0000 decode to no instruction" } },
    { 1, WS_ERR_KERNEL_FAULT, { "store access fault", "out of bounds: 0 bytes past the end of the 4096-byte allocation" } },
    { 2, WS_ERR_KERNEL_FAULT, { "store access fault", "null pointer" } },
    { 3, WS_ERR_KERNEL_FAULT, { "misaligned load", "misaligned 4-byte read" } },
    { 4, WS_ERR_KERNEL_FAULT, { "misaligned store", "misaligned 4-byte write" } },
    { 5, WS_ERR_KERNEL_FAULT, { "load access fault", "use after free" } },
    { 6, WS_ERR_KERNEL_FAULT, { "store access fault", "read-only" } },
    { 7, WS_ERR_KERNEL_FAULT, { "store access fault", "stack overflow" } },
    { 8, WS_ERR_KERNEL_FAULT, { "store access fault", "shared memory" } },
    { 9, WS_ERR_KERNEL_FAULT, { "breakpoint", "ebreak" } },
    { 10, WS_ERR_KERNEL_FAULT, { "environment call", "a7=4242" } },
    { 11, WS_ERR_KERNEL_ASSERT, { "assertion 'kind == 42' failed at", "fault_kernels.c:" } },
    { 12, WS_ERR_KERNEL_FAULT, { "trap", "custom trap message" } },
    { 13, WS_ERR_KERNEL_FAULT, { "instruction access fault", "cannot execute" } },
    { 14, WS_ERR_KERNEL_FAULT, { "load access fault", "read of 4 bytes" } },
    { 15, WS_ERR_KERNEL_FAULT, { "store access fault", "write of 1 byte at" } },
    { 16, WS_ERR_KERNEL_FAULT, { "store access fault", "at __atomic_fetch_add_8 (no line information), called from" } },
};

/* With global_mem_limit at its largest the arena still ends 16 MiB below
 * the stacks: a lane-0 frame below its stack faults as a stack overflow
 * and the highest allocation keeps its bytes. */
static void big_frame_at_largest_arena(const char *elf)
{
    ws_config cfg;
    ws_device *dev = NULL;
    ws_module *mod = NULL;
    ws_kernel *k = NULL;
    char err[256];
    ws_config_default(&cfg);
    if (ws_config_parse(&cfg, "global_mem_limit=3056M", err, sizeof err) == WS_OK) {
        CHECK(ws_device_open(&cfg, &dev) != WS_OK); /* past the largest: refused */
        if (dev) ws_device_close(dev), dev = NULL;
    }
    ws_config_default(&cfg);
    CHECK(ws_config_parse(&cfg, "global_mem_limit=3040M,cores=1", err, sizeof err) == WS_OK);
    CHECK(ws_device_open(&cfg, &dev) == WS_OK);
    if (!dev) return;
    CHECK(ws_module_load_file(dev, elf, &mod) == WS_OK);
    CHECK(mod && ws_kernel_get(mod, "bigframe", &k) == WS_OK);
    ws_addr top = 0, out = 0;
    CHECK(ws_malloc(dev, 4096, &out) == WS_OK);
    CHECK(ws_malloc_at(dev, WS_GLOBAL_MAX_END - 8192, 4096) == WS_OK); /* near the top (its redzone follows) */
    top = WS_GLOBAL_MAX_END - 8192;
    CHECK(ws_memset(dev, top, 0, 4096) == WS_OK);
    ws_arg a[] = { WS_ARG_PTR(out), WS_ARG_I32(0) };
    if (k) CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, a, 2) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_ERR_KERNEL_FAULT);
    CHECK_STR_CONTAINS(ws_last_error(dev), "stack overflow (the lane's");
    char host[4096], zero[4096] = { 0 };
    CHECK(ws_memcpy_dtoh(dev, host, top, sizeof host) == WS_OK);
    CHECK(!memcmp(host, zero, sizeof host));
    ws_device_close(dev);
}

/* A frame larger than the stack in a lane other than device lane 0 is a
 * stack overflow too (it was "address is not mapped" for lane 1 and "not
 * this lane's stack" for the lanes above, naming no overflow), on both
 * engines. */
static void big_frame_other_lanes(const char *elf)
{
    static const char *const cfgs[] = { "engine=fast", "engine=interp" };
    for (int c = 0; c < 2; c++) {
        ws_config cfg;
        ws_device *dev = NULL;
        ws_module *mod = NULL;
        ws_kernel *k = NULL;
        ws_config_default(&cfg);
        CHECK(ws_config_parse(&cfg, cfgs[c], NULL, 0) == WS_OK);
        CHECK(ws_device_open(&cfg, &dev) == WS_OK);
        if (!dev) return;
        CHECK(ws_module_load_file(dev, elf, &mod) == WS_OK);
        CHECK(mod && ws_kernel_get(mod, "bigframe_lane", &k) == WS_OK);
        ws_addr out = 0;
        CHECK(ws_malloc(dev, 4096, &out) == WS_OK);
        static const int lanes[] = { 1, 2, 5, 31 };
        for (int i = 0; k && i < 4; i++) {
            ws_arg a[] = { WS_ARG_PTR(out), WS_ARG_I32(lanes[i]) };
            CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, a, 2) == WS_OK);
            CHECK(ws_synchronize(dev) == WS_ERR_KERNEL_FAULT);
            const char *msg = ws_last_error(dev);
            if (!strstr(msg, "stack overflow (the lane's")) fprintf(stderr, "%s lane %d: %s\n", cfgs[c], lanes[i], msg);
            CHECK_STR_CONTAINS(msg, "stack overflow (the lane's");
            char where[64];
            snprintf(where, sizeof where, "[core 0 warp 0 lane %d]", lanes[i]);
            CHECK_STR_CONTAINS(msg, where);
        }
        ws_device_close(dev);
    }
}

/* A 20 MiB frame jumps the 16 MiB guard below the stacks: its low end is
 * in the global arena, here inside an allocation. It must fault as a stack
 * overflow (at the write of sp) and leave the allocation's bytes alone, in
 * lane 0 and in another lane, on both engines and in timing mode; until
 * 2026-11-27 the store landed in the allocation and the launch succeeded. */
static void frame_past_the_guard(const char *elf)
{
    static const char *const cfgs[] = { "engine=fast", "engine=interp", "mode=timing" };
    enum { AT = 0xBEC00000u, SIZE = 64 * 1024 };
    for (int c = 0; c < 3; c++) {
        for (int lane = 0; lane <= 5; lane += 5) {
            ws_config cfg;
            ws_device *dev = NULL;
            ws_module *mod = NULL;
            ws_kernel *k = NULL;
            ws_config_default(&cfg);
            CHECK(ws_config_parse(&cfg, "global_mem_limit=3040M,cores=1", NULL, 0) == WS_OK);
            CHECK(ws_config_parse(&cfg, cfgs[c], NULL, 0) == WS_OK);
            CHECK(ws_device_open(&cfg, &dev) == WS_OK);
            if (!dev) return;
            CHECK(ws_module_load_file(dev, elf, &mod) == WS_OK);
            CHECK(mod && ws_kernel_get(mod, lane ? "bigframe20m_lane" : "bigframe20m", &k) == WS_OK);
            ws_addr out = 0;
            CHECK(ws_malloc(dev, 4096, &out) == WS_OK);
            CHECK(ws_memset(dev, out, 0, 4096) == WS_OK);
            CHECK(ws_malloc_at(dev, AT, SIZE) == WS_OK);
            CHECK(ws_memset(dev, AT, 0, SIZE) == WS_OK);
            ws_arg a[] = { WS_ARG_PTR(out), WS_ARG_I32(lane) };
            if (k) CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(lane ? 32 : 1, 1, 1), 0, a, 2) == WS_OK);
            CHECK(ws_synchronize(dev) == WS_ERR_KERNEL_FAULT);
            const char *msg = ws_last_error(dev);
            if (!strstr(msg, "stack overflow (the lane's")) fprintf(stderr, "%s lane %d: %s\n", cfgs[c], lane, msg);
            CHECK_STR_CONTAINS(msg, "stack overflow (the lane's");
            char where[64];
            snprintf(where, sizeof where, "[core 0 warp 0 lane %d]", lane);
            CHECK_STR_CONTAINS(msg, where);
            static char host[SIZE], zero[SIZE];
            CHECK(ws_memcpy_dtoh(dev, host, AT, SIZE) == WS_OK);
            CHECK(!memcmp(host, zero, SIZE));
            ws_device_close(dev);
        }
    }
}

/* ws_device_interrupt from another thread while ws_synchronize waits
 * for a kernel that spins for ever: the launch ends with
 * WS_ERR_INTERRUPTED and says where it spins, on one host thread and
 * two, functional and timing; asked before a launch, it ends that one;
 * the device lives on. */
static void *interrupt_later(void *dev)
{
    struct timespec ts = { 0, 150 * 1000000L };
    nanosleep(&ts, NULL);
    ws_device_interrupt(dev);
    return NULL;
}

/* The printf handler of say_once: the host asks while the launch runs. */
static void interrupt_from_printf(void *dev, uint64_t launch_id, ws_dim3 block, ws_dim3 thread, const char *text,
                                  size_t len)
{
    (void)launch_id, (void)block, (void)thread, (void)text, (void)len;
    ws_device_interrupt(dev); /* (takes no lock: allowed from the handler) */
}

/* A launch of `good` on blocks x 64 threads and its status. */
static ws_status run_good(ws_device *dev, ws_kernel *good, ws_addr out, uint32_t blocks)
{
    ws_arg g[] = { WS_ARG_PTR(out) };
    const ws_status st = ws_launch(dev, good, WS_DIM3(blocks, 1, 1), WS_DIM3(64, 1, 1), 0, g, 1);
    return st != WS_OK ? st : ws_synchronize(dev);
}

/* ws_device_interrupt's request is answered by one launch, never a later
 * one: asked with nothing running, the next launch ends before it runs
 * anything, however short; asked while a launch runs that completes
 * before it looks, it is dropped with that launch. Until 2026-11-29 only
 * the run loops' checks (every 64 rounds, or 1024 cycle steps) took the
 * request: a short launch never did, and the request ended a later,
 * unrelated launch ("1024 blocks of 1024 done"). */
static void interrupt_ends_one_launch(const char *cfgname, ws_device *dev, ws_module *mod, ws_kernel *good)
{
    enum { BIG = 4096 }; /* blocks: enough rounds and cycle steps for the run loops to look many times */
    ws_kernel *say = NULL;
    ws_addr small = 0, big = 0;
    CHECK(ws_kernel_get(mod, "say_once", &say) == WS_OK);
    CHECK(ws_malloc(dev, 64 * sizeof(int), &small) == WS_OK && ws_malloc(dev, BIG * 64 * sizeof(int), &big) == WS_OK);
    if (!say || !small || !big) return;
    CHECK(ws_device_interrupt(dev) == WS_OK);
    ws_status st = run_good(dev, good, small, 1);
    if (st != WS_ERR_INTERRUPTED) fprintf(stderr, "%s: idle interrupt, short launch: %s\n", cfgname, ws_status_name(st));
    CHECK(st == WS_ERR_INTERRUPTED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "interrupted: the host asked it to end (0 blocks of 1 done");
    int res[64] = { 0 }, ran = 0;
    CHECK(ws_memcpy_dtoh(dev, res, small, sizeof res) == WS_OK);
    for (int t = 0; t < 64; t++) ran += res[t] != 0;
    CHECK_EQ_U(ran, 0); /* it ended before running anything */
    for (int i = 0; i < 5; i++) {
        st = run_good(dev, good, small, 1);
        if (st != WS_OK) fprintf(stderr, "%s: short launch %d after: %s: %s\n", cfgname, i, ws_status_name(st), ws_last_error(dev));
        CHECK(st == WS_OK);
    }
    st = run_good(dev, good, big, BIG);
    if (st != WS_OK) fprintf(stderr, "%s: large launch after: %s: %s\n", cfgname, ws_status_name(st), ws_last_error(dev));
    CHECK(st == WS_OK);

    /* asked while say_once runs (from its printf handler): it may end that
     * launch, or be dropped when the launch completes; never the next */
    ws_arg sa[] = { WS_ARG_PTR(small) };
    CHECK(ws_set_printf_handler(dev, interrupt_from_printf, dev) == WS_OK);
    CHECK(ws_launch(dev, say, WS_DIM3(1, 1, 1), WS_DIM3(64, 1, 1), 0, sa, 1) == WS_OK);
    st = ws_synchronize(dev);
    CHECK(ws_set_printf_handler(dev, NULL, NULL) == WS_OK);
    CHECK(st == WS_OK || st == WS_ERR_INTERRUPTED);
    st = run_good(dev, good, big, BIG);
    if (st != WS_OK) fprintf(stderr, "%s: launch after one that was asked to end: %s: %s\n", cfgname,
                             ws_status_name(st), ws_last_error(dev));
    CHECK(st == WS_OK);
    CHECK(ws_free(dev, small) == WS_OK && ws_free(dev, big) == WS_OK);
}

static void interrupts(const char *elf)
{
    static const char *const cfgs[] = { "threads=1", "threads=2", "mode=timing,threads=1", "mode=timing,threads=2" };
    CHECK(ws_device_interrupt(NULL) == WS_ERR_INVALID_ARG);
    for (size_t c = 0; c < sizeof cfgs / sizeof *cfgs; c++) {
        ws_config cfg;
        ws_device *dev;
        ws_module *mod;
        ws_kernel *spin = NULL, *good = NULL;
        ws_addr flag = 0, out = 0;
        ws_config_default(&cfg);
        CHECK(ws_config_parse(&cfg, cfgs[c], NULL, 0) == WS_OK);
        CHECK(ws_device_open(&cfg, &dev) == WS_OK);
        CHECK(ws_module_load_file(dev, elf, &mod) == WS_OK);
        CHECK(ws_kernel_get(mod, "spin_forever", &spin) == WS_OK && ws_kernel_get(mod, "good", &good) == WS_OK);
        CHECK(ws_malloc(dev, 4096, &flag) == WS_OK && ws_malloc(dev, 4096, &out) == WS_OK);
        if (!spin || !good) {
            ws_device_close(dev);
            continue;
        }
        ws_arg sa[] = { WS_ARG_PTR(flag) }, g[] = { WS_ARG_PTR(out) };
        pthread_t th;
        CHECK(ws_launch(dev, spin, WS_DIM3(4, 1, 1), WS_DIM3(64, 1, 1), 0, sa, 1) == WS_OK);
        CHECK(pthread_create(&th, NULL, interrupt_later, dev) == 0);
        ws_status st = ws_synchronize(dev);
        pthread_join(th, NULL);
        if (st != WS_ERR_INTERRUPTED) fprintf(stderr, "%s: %s: %s\n", cfgs[c], ws_status_name(st), ws_last_error(dev));
        CHECK(st == WS_ERR_INTERRUPTED);
        CHECK_STR_CONTAINS(ws_last_error(dev), "interrupted: the host asked it to end (0 blocks of 4 done");
        CHECK_STR_CONTAINS(ws_last_error(dev), "the first still running: block (0,0,0) thread (0,0,0)");
        CHECK_STR_CONTAINS(ws_last_error(dev), "fault_kernels.c:53 in spin_forever");
        CHECK_STR_CONTAINS(ws_last_error(dev), "kernel 'spin_forever'");
        /* asked with nothing running: the next launch ends at once */
        CHECK(ws_device_interrupt(dev) == WS_OK);
        CHECK(ws_launch(dev, spin, WS_DIM3(4, 1, 1), WS_DIM3(64, 1, 1), 0, sa, 1) == WS_OK);
        CHECK(ws_synchronize(dev) == WS_ERR_INTERRUPTED);
        interrupt_ends_one_launch(cfgs[c], dev, mod, good);
        int res[256] = { 0 }, bad = 0;
        CHECK(ws_launch(dev, good, WS_DIM3(4, 1, 1), WS_DIM3(64, 1, 1), 0, g, 1) == WS_OK);
        CHECK(ws_memcpy_dtoh(dev, res, out, sizeof res) == WS_OK);
        for (int t = 0; t < 256; t++) bad += res[t] != t * 3;
        CHECK_EQ_U(bad, 0);
        ws_device_close(dev);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: test_kernel_faults MODULE\n"); return 2; }
    ws_device *dev;
    ws_module *mod;
    ws_kernel *fault, *good;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_module_load_file(dev, argv[1], &mod) == WS_OK);
    CHECK(ws_kernel_get(mod, "fault", &fault) == WS_OK && ws_kernel_get(mod, "good", &good) == WS_OK);
    if (!fault || !good) return TEST_SUMMARY();
    ws_addr buf, freed, out;
    CHECK(ws_malloc(dev, 4096, &buf) == WS_OK && ws_malloc(dev, 4096, &out) == WS_OK);
    ws_kernel *ov0 = NULL;
    CHECK(ws_kernel_get(mod, "overflow0", &ov0) == WS_OK);
    ws_arg ob[] = { WS_ARG_PTR(buf) };
    CHECK(ws_launch(dev, ov0, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, ob, 1) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_ERR_KERNEL_FAULT);
    CHECK_STR_CONTAINS(ws_last_error(dev), "stack overflow (the lane's");
    CHECK_STR_CONTAINS(ws_last_error(dev), "[core 0 warp 0 lane 0]");
    interrupts(argv[1]);
    big_frame_at_largest_arena(argv[1]);
    big_frame_other_lanes(argv[1]);
    frame_past_the_guard(argv[1]);
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        CHECK(ws_malloc(dev, 64, &freed) == WS_OK);
        CHECK(ws_free(dev, freed) == WS_OK);
        ws_arg a[] = { WS_ARG_I32(cases[i].kind), WS_ARG_PTR(buf), WS_ARG_PTR(freed) };
        CHECK(ws_launch(dev, fault, WS_DIM3(4, 1, 1), WS_DIM3(64, 1, 1), 0, a, 3) == WS_OK);
        ws_status st = ws_synchronize(dev);
        const char *msg = ws_last_error(dev);
        if (getenv("WS_SHOW")) printf("%s\n", msg);
        if (st != cases[i].st) fprintf(stderr, "case %d: %s: %s\n", cases[i].kind, ws_status_name(st), msg);
        CHECK(st == cases[i].st);
        CHECK_STR_CONTAINS(msg, cases[i].what[0]);
        CHECK_STR_CONTAINS(msg, cases[i].what[1]);
        CHECK_STR_CONTAINS(msg, "block (2,0,0) thread (5,0,0)");
        CHECK_STR_CONTAINS(msg, "kernel 'fault'");
        if (cases[i].st == WS_ERR_KERNEL_FAULT) CHECK_STR_CONTAINS(msg, "pc 0x");
        /* the device still works */
        ws_arg g[] = { WS_ARG_PTR(out) };
        int res[256] = { 0 }, bad = 0;
        CHECK(ws_launch(dev, good, WS_DIM3(4, 1, 1), WS_DIM3(64, 1, 1), 0, g, 1) == WS_OK);
        CHECK(ws_memcpy_dtoh(dev, res, out, sizeof res) == WS_OK);
        for (int t = 0; t < 256; t++) bad += res[t] != t * 3;
        CHECK_EQ_U(bad, 0);
    }
    /* a fault cancels the work queued behind it, and only that */
    ws_arg a[] = { WS_ARG_I32(1), WS_ARG_PTR(buf), WS_ARG_PTR(buf) };
    ws_arg g[] = { WS_ARG_PTR(out) };
    CHECK(ws_memset(dev, out, 0, 1024) == WS_OK);
    CHECK(ws_launch(dev, fault, WS_DIM3(4, 1, 1), WS_DIM3(64, 1, 1), 0, a, 3) == WS_OK);
    CHECK(ws_launch(dev, good, WS_DIM3(4, 1, 1), WS_DIM3(64, 1, 1), 0, g, 1) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_ERR_KERNEL_FAULT);
    CHECK(ws_synchronize(dev) == WS_OK);
    int first = -1;
    CHECK(ws_memcpy_dtoh(dev, &first, out + 4, 4) == WS_OK);
    CHECK_EQ_U(first, 0); /* the cancelled launch never ran */
    ws_device_close(dev);

    /* the watchdog ends a launch that never finishes; the device lives on */
    ws_config cfg;
    ws_config_default(&cfg);
    CHECK(ws_config_parse(&cfg, "watchdog_ms=200", NULL, 0) == WS_OK);
    CHECK(ws_device_open(&cfg, &dev) == WS_OK);
    ws_kernel *spin;
    CHECK(ws_module_load_file(dev, argv[1], &mod) == WS_OK);
    CHECK(ws_kernel_get(mod, "spin_forever", &spin) == WS_OK && ws_kernel_get(mod, "good", &good) == WS_OK);
    CHECK(ws_malloc(dev, 4096, &buf) == WS_OK && ws_malloc(dev, 4096, &out) == WS_OK);
    ws_arg sa[] = { WS_ARG_PTR(buf) };
    CHECK(ws_launch(dev, spin, WS_DIM3(2, 1, 1), WS_DIM3(64, 1, 1), 0, sa, 1) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_ERR_TIMEOUT);
    CHECK_STR_CONTAINS(ws_last_error(dev), "watchdog: still running after 200 ms");
    CHECK_STR_CONTAINS(ws_last_error(dev), "kernel 'spin_forever'");
    /* and says where it spins: a block, a thread, the pc and its line */
    CHECK_STR_CONTAINS(ws_last_error(dev), "the first still running: block (0,0,0) thread (0,0,0) [core 0 warp 0 lane 0] pc 0x");
    CHECK_STR_CONTAINS(ws_last_error(dev), "fault_kernels.c:53 in spin_forever");
    int res[256] = { 0 }, bad = 0;
    g[0] = WS_ARG_PTR(out);
    CHECK(ws_launch(dev, good, WS_DIM3(4, 1, 1), WS_DIM3(64, 1, 1), 0, g, 1) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, res, out, sizeof res) == WS_OK);
    for (int t = 0; t < 256; t++) bad += res[t] != t * 3;
    CHECK_EQ_U(bad, 0);
    ws_device_close(dev);
    return TEST_SUMMARY();
}
