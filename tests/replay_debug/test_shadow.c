/* The shadow unit (src/device/debug/debug_shadow.c) on a compute kernel:
 * the k-th hit's snapshot equals what a halting debugger sees at that
 * hit, results are bit-identical armed and unarmed, hit order is the same
 * in every run, thread mode counts one thread's instructions exactly.
 * Usage: test_shadow <case> <dbg_kernels.elf> */
#include <time.h>
#include "../test.h"
#include "../debug/dbg_harness.h"
#include "../debug/dbg_harness.c"

#define BLOCKS 4
#define THREADS 64
#define N (BLOCKS * THREADS)

static const char *g_elf;

static int open_compute(dbg_session *s, ws_addr *out)
{
    if (session_open(s, g_elf, 2, 2, WS_DBG_TOPO_BROADCAST, 1)) return -1;
    if (ws_malloc(s->dev, N * 4, out) != WS_OK) return -1;
    return 0;
}

/* One launch of `compute` on this thread; the output bytes in res. */
static void run_compute(dbg_session *s, ws_addr out, uint32_t res[N])
{
    ws_kernel *k = NULL;
    CHECK(ws_memset(s->dev, out, 0, N * 4) == WS_OK);
    ws_arg a[] = { WS_ARG_PTR(out) };
    CHECK(ws_kernel_get(s->mod, "compute", &k) == WS_OK);
    CHECK(ws_launch(s->dev, k, WS_DIM3(BLOCKS, 1, 1), WS_DIM3(THREADS, 1, 1), 0, a, 1) == WS_OK);
    CHECK(ws_synchronize(s->dev) == WS_OK);
    CHECK(ws_memcpy_dtoh(s->dev, res, out, N * 4) == WS_OK);
}

static ws_shadow_arm hits_arm(const ws_shadow_bp *bp, uint64_t k, uint64_t *rec, size_t cap)
{
    ws_shadow_arm a;
    memset(&a, 0, sizeof a);
    a.mode = WS_SHADOW_HITS;
    a.bps = bp;
    a.nbps = 1;
    a.k = k;
    a.before = UINT64_MAX;
    a.record = rec;
    a.ncap = cap;
    return a;
}

/* Counting: every thread hits bp_target once; order and results do not
 * depend on the unit; the k-th snapshot is the k-th recorded position. */
static void test_hits(void)
{
    dbg_session s;
    ws_addr out;
    if (open_compute(&s, &out)) { CHECK(0); return; }
    uint32_t plain[N], armed[N];
    run_compute(&s, out, plain);
    for (uint32_t i = 0; i < N; i++) CHECK_EQ_U(plain[i], i * 3 + 1);

    ws_shadow_bp bp = { .pc = s.bp };
    static uint64_t r1[2 * N], r2[2 * N];
    ws_shadow_arm a = hits_arm(&bp, 0, r1, 2 * N);
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, armed);
    CHECK(!memcmp(plain, armed, sizeof plain));
    ws_shadow_result res;
    CHECK(ws_debug_shadow_result(s.d, &res) == WS_OK);
    CHECK_EQ_U(res.count, N);
    CHECK_EQ_U(res.taken, 0);
    for (uint32_t i = 1; i < N; i++) CHECK(r1[i] > r1[i - 1]); /* increasing */
    for (uint32_t i = 0; i < N; i++) CHECK_EQ_U(WS_SHADOW_POS_LAUNCH(r1[i]), 1);

    a = hits_arm(&bp, 0, r2, 2 * N);
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, armed);
    CHECK(!memcmp(r1, r2, N * sizeof *r1)); /* the same order in every run */

    /* snapshot the 77th hit; after/before select around a position */
    a = hits_arm(&bp, 77, NULL, 0);
    a.before = r1[100];
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, armed);
    CHECK(!memcmp(plain, armed, sizeof plain));
    CHECK(ws_debug_shadow_result(s.d, &res) == WS_OK);
    CHECK_EQ_U(res.taken, 1);
    CHECK_EQ_U(res.nbefore, 100);
    CHECK_EQ_U(res.last_before, r1[99]);
    const ws_shadow_state *st = NULL;
    CHECK(ws_debug_shadow_state(s.d, &st) == WS_OK);
    if (st) {
        CHECK_EQ_U(st->pos, r1[76]);
        CHECK_EQ_U(st->pc, s.bp);
        CHECK_EQ_U(st->regs.pc[st->lane], s.bp);
        uint32_t i = st->block.x * THREADS + st->thread[st->lane].x;
        CHECK_EQ_U(st->regs.x[10][st->lane], i); /* a0: bp_target's argument */
        CHECK_STR_CONTAINS(st->kernel, "compute");
    }
    /* the first hit after a position */
    a = hits_arm(&bp, 1, NULL, 0);
    a.after = r1[76];
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, armed);
    CHECK(ws_debug_shadow_state(s.d, &st) == WS_OK);
    if (st) CHECK_EQ_U(st->pos, r1[77]);
    /* a condition (agent expression): a0 == 37 holds for one lane */
    static const uint8_t a0_is_37[] = { 0x26, 0x10, 0x0a, 0x22, 37, 0x13, 0x27 };
    ws_shadow_bp cbp = { .pc = s.bp, .conds = { { a0_is_37, sizeof a0_is_37 } }, .nconds = 1 };
    a = hits_arm(&cbp, 1, NULL, 0);
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, armed);
    CHECK(ws_debug_shadow_result(s.d, &res) == WS_OK);
    CHECK_EQ_U(res.count, 1);
    CHECK(ws_debug_shadow_state(s.d, &st) == WS_OK);
    if (st) {
        CHECK_EQ_U(st->block.x, 0);
        CHECK_EQ_U(st->thread[st->lane].x, 37);
    }
    CHECK(ws_debug_shadow_disarm(s.d) == WS_OK);
    run_compute(&s, out, armed);
    CHECK(!memcmp(plain, armed, sizeof plain));
    session_close(&s);
}

/* All-stop: after the first halt event the device halts every other warp
 * at its next safe point, a moment later. Wait for that (up to 5 s), so a
 * warp whose own trigger hit in that moment is seen halted before the
 * round's resume. */
static void wait_all_halted(ws_debug *d)
{
    for (int tries = 0; tries < 5000; tries++) {
        ws_dbg_lane lanes[256];
        size_t n = 0, running = 0;
        if (ws_debug_lanes(d, lanes, 256, &n) != WS_OK) return;
        for (size_t i = 0; i < n && i < 256; i++) running += !lanes[i].halted;
        if (!running) return;
        struct timespec ms = { 0, 1000000 };
        nanosleep(&ms, NULL);
    }
}

/* The snapshot of one hit equals the warp a halting debugger stops at the
 * same thread's hit: registers of every lane, pcs, the lane's stack. */
static void test_matches_halting(void)
{
    dbg_session s;
    ws_addr out;
    if (open_compute(&s, &out)) { CHECK(0); return; }
    uint32_t res[N];
    ws_shadow_bp bp = { .pc = s.bp };
    ws_shadow_arm a = hits_arm(&bp, 150, NULL, 0);
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, res);
    const ws_shadow_state *sp = NULL;
    CHECK(ws_debug_shadow_state(s.d, &sp) == WS_OK);
    if (!sp) { session_close(&s); return; }
    ws_shadow_state snap = *sp;
    uint8_t stack[64];
    uint32_t sp_addr = snap.regs.x[2][snap.lane] - sizeof stack; /* the words below sp */
    CHECK(ws_debug_shadow_read(s.d, snap.lane, sp_addr, stack, sizeof stack) == WS_OK);
    uint8_t glob[16];
    CHECK(ws_debug_shadow_read(s.d, snap.lane, (uint32_t)out, glob, sizeof glob) == WS_OK);
    CHECK(ws_debug_shadow_read(s.d, snap.lane, 0x10, glob, 4) != WS_OK); /* the null guard */
    CHECK(ws_debug_shadow_disarm(s.d) == WS_OK);
    ws_dbg_event stale; /* the launches so far queued their start/end events */
    while (ws_debug_wait_event(s.d, 0, &stale) == WS_OK) {}

    /* the halting debugger: an execute trigger on bp_target, all-stop */
    CHECK_EQ_U(set_trigger(s.d, 0, hart_of(0, 2, 0, 0), 0, TRIG_EXEC, s.bp), 0);
    CHECK_EQ_U(set_trigger(s.d, 0, hart_of(1, 2, 0, 0), 0, TRIG_EXEC, s.bp), 0);
    CHECK(ws_memset(s.dev, out, 0, N * 4) == WS_OK);
    session_launch(&s, "compute", BLOCKS, THREADS, out, 0);
    int found = 0, ended = 0;
    for (int guard = 0; guard < 256 && !ended; guard++) {
        ws_dbg_event ev;
        if (ws_debug_wait_event(s.d, 10000, &ev) != WS_OK) { CHECK(0); break; }
        /* every warp halted at the trigger now (two may have hit in one
         * round: both are halted until resume_all) */
        do {
            if (ev.kind == WS_DBG_EV_LAUNCH_END) ended = 1;
        } while (!ended && ws_debug_wait_event(s.d, 0, &ev) == WS_OK);
        if (ended) break;
        wait_all_halted(s.d);
        ws_dbg_lane lanes[256];
        size_t n = 0;
        CHECK(ws_debug_lanes(s.d, lanes, 256, &n) == WS_OK);
        int halted_hart = -1;
        for (size_t i = 0; i < n && i < 256; i++) {
            const ws_dbg_lane *l = &lanes[i];
            if (l->halted && halted_hart < 0) halted_hart = (int)l->hart;
            if (!l->halted || l->cause != WS_DCSR_CAUSE_TRIGGER || l->block.x != snap.block.x ||
                l->thread.x != snap.thread[snap.lane].x || l->lane != snap.lane)
                continue;
            if (found++) continue; /* compared once */
            ws_dbg_warp_regs wr;
            CHECK(ws_debug_warp_regs(s.d, l->hart / 32, &wr) == WS_OK);
            for (uint32_t ln = 0; ln < 32; ln++) {
                if (!(snap.live >> ln & 1)) continue;
                for (int r = 0; r < 32; r++) {
                    if (wr.x[r][ln] != snap.regs.x[r][ln] || wr.f[r][ln] != snap.regs.f[r][ln]) {
                        CHECK_EQ_U(wr.x[r][ln], snap.regs.x[r][ln]);
                        CHECK_EQ_U(wr.f[r][ln], snap.regs.f[r][ln]);
                    }
                }
                CHECK_EQ_U(wr.pc[ln], snap.regs.pc[ln]);
            }
            for (uint32_t o = 0; o < sizeof stack; o += 4) {
                uint32_t v = 0, want;
                CHECK_EQ_U(mem_read(s.d, 0, l->hart, sp_addr + o, 4, &v), 0);
                memcpy(&want, stack + o, 4);
                CHECK_EQ_U(v, want);
            }
        }
        resume_all(s.d);
        /* The device acts on a resume request when it next runs: until it
         * has (resumeack), the lanes still read halted, and a halt event
         * of this round that arrived after the drain above would show
         * them again as a new round, then fail under our hands. */
        if (halted_hart >= 0) CHECK(wait_status(s.d, 0, (uint32_t)halted_hart, DMS_ALLRESUMEACK) == 0);
    }
    CHECK(found >= 1); /* the halting debugger stopped the thread at the breakpoint */
    CHECK(app_join(&s.a) == WS_OK);
    session_close(&s);
}

/* Thread mode: the k-th instruction of one thread; stepping k forwards
 * and back lands on the same registers, bit for bit. */
static void test_thread(void)
{
    dbg_session s;
    ws_addr out;
    if (open_compute(&s, &out)) { CHECK(0); return; }
    uint32_t plain[N], armed[N];
    run_compute(&s, out, plain);
    ws_shadow_arm a;
    memset(&a, 0, sizeof a);
    a.mode = WS_SHADOW_THREAD;
    a.thread = (ws_shadow_thread){ 1, WS_DIM3(2, 0, 0), WS_DIM3(37, 0, 0) };
    a.before = UINT64_MAX;
    static uint64_t rec[4096];
    a.record = rec;
    a.ncap = 4096;
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, armed);
    CHECK(!memcmp(plain, armed, sizeof plain));
    ws_shadow_result res;
    CHECK(ws_debug_shadow_result(s.d, &res) == WS_OK);
    uint64_t total = res.count;
    CHECK(total > 8);
    CHECK_EQ_U(res.thread_total, total);
    ws_shadow_state snaps[3];
    for (uint64_t k = 4; k <= 6; k++) {
        a.k = k;
        a.record = NULL;
        a.ncap = 0;
        CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
        run_compute(&s, out, armed);
        CHECK(!memcmp(plain, armed, sizeof plain));
        const ws_shadow_state *st = NULL;
        CHECK(ws_debug_shadow_state(s.d, &st) == WS_OK);
        if (!st) break;
        snaps[k - 4] = *st;
        CHECK_EQ_U(st->pos, rec[k - 1]);
        CHECK_EQ_U(st->thread_count, k);
        CHECK_EQ_U(st->block.x, 2);
        CHECK_EQ_U(st->thread[st->lane].x, 37);
    }
    /* the first instruction after the 4th's warp-instruction is the 5th */
    a.k = 1;
    a.after = snaps[0].pos | 31;
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, armed);
    const ws_shadow_state *st = NULL;
    CHECK(ws_debug_shadow_state(s.d, &st) == WS_OK);
    if (st) {
        CHECK_EQ_U(st->thread_count, 5);
        CHECK(!memcmp(&st->regs, &snaps[1].regs, sizeof st->regs));
    }
    /* backwards: instructions before the 6th: 5, then the 4th again */
    a.after = 0;
    a.k = 0;
    a.before = snaps[2].pos;
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, armed);
    CHECK(ws_debug_shadow_result(s.d, &res) == WS_OK);
    CHECK_EQ_U(res.nbefore, 5);
    a.before = UINT64_MAX;
    a.k = 4;
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, armed);
    CHECK(ws_debug_shadow_state(s.d, &st) == WS_OK);
    if (st) CHECK(!memcmp(&st->regs, &snaps[0].regs, sizeof st->regs));
    /* a launch ordinal that never comes: nothing counted */
    a.thread.launch = 2;
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, armed);
    CHECK(ws_debug_shadow_result(s.d, &res) == WS_OK);
    CHECK_EQ_U(res.count, 0);
    CHECK(ws_debug_shadow_state(s.d, &st) == WS_ERR_NOT_FOUND);
    session_close(&s);
}

/* Observe-only: a faulting lane ends the launch with its fault (a
 * replaying tool runs the device on its own thread: a halted warp would
 * wait forever); the unit still counts, and lists the fault. */
static void test_observe_only(void)
{
    dbg_session s;
    ws_addr buf;
    if (open_compute(&s, &buf)) { CHECK(0); return; }
    CHECK(ws_debug_set_observe_only(s.d, 1) == WS_OK);
    ws_shadow_bp bp = { .pc = s.bp };
    ws_shadow_arm a = hits_arm(&bp, 0, NULL, 0);
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    ws_kernel *k = NULL;
    ws_arg args[] = { WS_ARG_PTR(buf) };
    CHECK(ws_kernel_get(s.mod, "faulty", &k) == WS_OK);
    CHECK(ws_launch(s.dev, k, WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0, args, 1) == WS_OK);
    CHECK(ws_synchronize(s.dev) == WS_ERR_KERNEL_FAULT);
    CHECK_STR_CONTAINS(ws_last_error(s.dev), "block (1,0,0) thread (5,0,0)");
    /* ... and the unit lists it, for a replaying debugger to stop at */
    const ws_shadow_fault *f = NULL;
    size_t nf = 0;
    CHECK(ws_debug_shadow_faults(s.d, &f, &nf) == WS_OK);
    CHECK_EQ_U(nf, 1);
    if (nf == 1) {
        CHECK_EQ_U(f->thread.launch, 1);
        CHECK_EQ_U(f->thread.block.x, 1);
        CHECK_EQ_U(f->thread.thread.x, 5);
        CHECK_STR_CONTAINS(f->message, "block (1,0,0) thread (5,0,0)");
    }
    uint32_t res[N];
    run_compute(&s, buf, res); /* the device works on, and the unit counts */
    ws_shadow_result r;
    CHECK(ws_debug_shadow_result(s.d, &r) == WS_OK);
    CHECK_EQ_U(r.count, N);
    session_close(&s);
}

/* Watched ranges: a lane whose store touches a watched byte is an event
 * before its access (the snapshot still holds the old bytes), loads only
 * for read watches; ranges tied to one thread count only its accesses. */
static ws_shadow_arm watch_arm(const ws_shadow_watch *v, uint64_t k, uint64_t *rec, size_t cap)
{
    ws_shadow_arm a = hits_arm(NULL, k, rec, cap);
    a.nbps = 0;
    a.watches = v;
    a.nwatches = 1;
    return a;
}

static void test_watch(void)
{
    dbg_session s;
    ws_addr out;
    if (open_compute(&s, &out)) { CHECK(0); return; }
    uint32_t plain[N], armed[N];
    run_compute(&s, out, plain);
    /* out[37..40]: one store each, by threads 37..40 */
    ws_shadow_watch v = { .addr = (uint32_t)out + 37 * 4, .len = 16, .rw = 2 };
    uint64_t rec[8];
    ws_shadow_arm a = watch_arm(&v, 1, rec, 8);
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, armed);
    CHECK(!memcmp(plain, armed, sizeof plain));
    ws_shadow_result res;
    CHECK(ws_debug_shadow_result(s.d, &res) == WS_OK);
    CHECK_EQ_U(res.count, 4);
    for (uint32_t i = 1; i < 4; i++) CHECK(rec[i] > rec[i - 1]);
    const ws_shadow_state *st = NULL;
    CHECK(ws_debug_shadow_state(s.d, &st) == WS_OK);
    if (st) {
        CHECK_EQ_U(st->watch, 1);
        CHECK_EQ_U(st->data_addr, (uint32_t)out + 37 * 4);
        CHECK_EQ_U(st->thread[st->lane].x, 37);
        CHECK_EQ_U(st->pos, rec[0]);
        uint32_t before = 1;
        CHECK(ws_debug_shadow_read(s.d, st->lane, (uint32_t)out + 37 * 4, (uint8_t *)&before, 4) == WS_OK);
        CHECK_EQ_U(before, 0); /* run_compute zeroes out; the store has not run */
    }
    /* a read watch: compute never loads out[] */
    v.rw = 1;
    a = watch_arm(&v, 0, NULL, 0);
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, armed);
    CHECK(ws_debug_shadow_result(s.d, &res) == WS_OK);
    CHECK_EQ_U(res.count, 0);
    /* two bytes across out[37] and out[38]: both stores, the first
     * watched byte each touches */
    v = (ws_shadow_watch){ .addr = (uint32_t)out + 37 * 4 + 3, .len = 2, .rw = 3 };
    a = watch_arm(&v, 2, NULL, 0);
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, armed);
    CHECK(ws_debug_shadow_result(s.d, &res) == WS_OK);
    CHECK_EQ_U(res.count, 2);
    CHECK(ws_debug_shadow_state(s.d, &st) == WS_OK);
    if (st) {
        CHECK_EQ_U(st->thread[st->lane].x, 38);
        CHECK_EQ_U(st->data_addr, (uint32_t)out + 38 * 4);
    }
    /* tied to thread 38 of the first launch, then of a second launch */
    v = (ws_shadow_watch){ .addr = (uint32_t)out, .len = N * 4, .rw = 2, .bind = 2,
                           .thread = { 1, { 0, 0, 0 }, { 38, 0, 0 } } };
    a = watch_arm(&v, 0, NULL, 0);
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, armed);
    CHECK(ws_debug_shadow_result(s.d, &res) == WS_OK);
    CHECK_EQ_U(res.count, 1);
    v.thread.launch = 2;
    a = watch_arm(&v, 0, NULL, 0);
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
    run_compute(&s, out, armed);
    CHECK(ws_debug_shadow_result(s.d, &res) == WS_OK);
    CHECK_EQ_U(res.count, 0);
    /* shared memory, the same addresses in every block: with_bar stores
     * tile[t] and loads tile[t + 1] in each of its blocks; a range tied to
     * block 2 of the first launch sees that block's 64 of each */
    ws_kernel *kb = NULL;
    CHECK(ws_kernel_get(s.mod, "with_bar", &kb) == WS_OK);
    ws_arg args[] = { WS_ARG_PTR(out) };
    const uint8_t rws[] = { 2, 1, 2, 2 }, binds[] = { 0, 1, 1, 1 };
    const uint32_t launch_of[] = { 1, 1, 1, 2 }, want[] = { N, THREADS, THREADS, 0 };
    for (int i = 0; i < 4; i++) {
        v = (ws_shadow_watch){ .addr = WS_SHARED_BASE, .len = 0x10000, .rw = rws[i], .bind = binds[i],
                               .thread = { launch_of[i], { 2, 0, 0 }, { 0, 0, 0 } } };
        a = watch_arm(&v, 0, NULL, 0);
        CHECK(ws_debug_shadow_arm(s.d, &a) == WS_OK);
        CHECK(ws_launch(s.dev, kb, WS_DIM3(BLOCKS, 1, 1), WS_DIM3(THREADS, 1, 1), 0, args, 1) == WS_OK);
        CHECK(ws_synchronize(s.dev) == WS_OK);
        CHECK(ws_debug_shadow_result(s.d, &res) == WS_OK);
        CHECK_EQ_U(res.count, want[i]);
    }
    /* refused: an empty range, a range past the address space */
    v = (ws_shadow_watch){ .addr = (uint32_t)out, .len = 0, .rw = 2 };
    a = watch_arm(&v, 0, NULL, 0);
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_ERR_INVALID_ARG);
    v = (ws_shadow_watch){ .addr = 0xFFFFFFF0u, .len = 32, .rw = 2 };
    a = watch_arm(&v, 0, NULL, 0);
    CHECK(ws_debug_shadow_arm(s.d, &a) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_debug_error(s.d), "0xfffffff0");
    CHECK(ws_debug_shadow_disarm(s.d) == WS_OK);
    session_close(&s);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s <case> <dbg_kernels.elf>\n", argv[0]);
        return 2;
    }
    g_elf = argv[2];
    if (!strcmp(argv[1], "hits")) test_hits();
    else if (!strcmp(argv[1], "matches_halting")) test_matches_halting();
    else if (!strcmp(argv[1], "thread")) test_thread();
    else if (!strcmp(argv[1], "observe_only")) test_observe_only();
    else if (!strcmp(argv[1], "watch")) test_watch();
    else { fprintf(stderr, "unknown case %s\n", argv[1]); return 2; }
    return TEST_SUMMARY();
}
