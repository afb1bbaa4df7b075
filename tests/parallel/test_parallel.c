/* Parallel simulation (docs/parallel.md): one launch gives the same
 * results, statistics, printf output and error report with 1, 2, 3 or 4
 * host threads when its result does not depend on racing blocks; racing
 * atomics keep the documented guarantee; a timing-mode launch on the
 * default threads hands over from one thread to several part way, with
 * the same results; and a tool attached to the device puts it back on the
 * one-thread schedule. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "device/parallel.h"
#include "device/timing.h"
#include "runtime/runtime.h"
#include "warpscope/warpscope.h"
#include "warpscope/tool.h"
#include "../test.h"

/* ThreadSanitizer cannot start threads in the child of a threaded fork */
#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif
#ifndef UNDER_TSAN
#define UNDER_TSAN 0
#endif

#define BLOCKS 61
#define THREADS 64
#define N (BLOCKS * THREADS)
#define TINY_BLOCKS 500

typedef struct run_result {
    ws_status st;
    char err[1024];
    ws_launch_stats stats;
    ws_timing_counters counters;   /* timing mode */
    int where[BLOCKS];
    int out[TINY_BLOCKS * THREADS];
    int sum;
    char printed[65536];
    size_t nprinted;
    uint64_t par_from;             /* timing mode: ws_timing_parallel_from */
    int events;                    /* the device had an event bus (WARPSCOPE_WATCH):
                                      one thread by design (docs/parallel.md) */
} run_result;

static void on_print(void *user, uint64_t launch, ws_dim3 block, ws_dim3 thread, const char *text, size_t len)
{
    run_result *r = user;
    int n = snprintf(r->printed + r->nprinted, sizeof r->printed - r->nprinted, "[%llu %u %u]%.*s",
                     (unsigned long long)launch, block.x, thread.x, (int)len, text);
    if (n > 0 && r->nprinted + (size_t)n < sizeof r->printed) r->nprinted += (size_t)n;
}

static int timing_mode; /* the cases run in functional, then in timing mode */

static ws_device *open_dev(uint32_t threads)
{
    ws_config c;
    ws_config_default(&c);
    c.threads = threads;
    if (timing_mode) c.mode = WS_MODE_TIMING;
    c.warps_per_core = 6; /* three 2-warp blocks per core: slots free up at different times */
    c.max_threads_per_block = 128;
    ws_device *d = NULL;
    CHECK(ws_device_open(&c, &d) == WS_OK);
    return d;
}

/* Run `name` on a fresh device with `threads` host threads (0: the
 * default, which is not asking for a number: $WARPSCOPE_THREADS is unset
 * meanwhile). */
static void run(const char *elf, const char *name, uint32_t threads, int extra, run_result *r)
{
    memset(r, 0, sizeof *r);
    const char *env = getenv("WARPSCOPE_THREADS");
    char saved[32] = "";
    if (env) snprintf(saved, sizeof saved, "%s", env);
    if (!threads) unsetenv("WARPSCOPE_THREADS");
    ws_device *d = open_dev(threads);
    if (!threads && env) setenv("WARPSCOPE_THREADS", saved, 1);
    ws_module *m = NULL;
    ws_kernel *k = NULL;
    CHECK(ws_module_load_file(d, elf, &m) == WS_OK);
    CHECK(ws_kernel_get(m, name, &k) == WS_OK);
    CHECK(ws_set_printf_handler(d, on_print, r) == WS_OK);
    ws_addr where = 0, sum = 0, out = 0;
    CHECK(ws_malloc(d, sizeof r->where, &where) == WS_OK);
    CHECK(ws_malloc(d, sizeof r->sum, &sum) == WS_OK);
    CHECK(ws_malloc(d, sizeof r->out, &out) == WS_OK);
    CHECK(ws_memset(d, where, 0, sizeof r->where) == WS_OK);
    CHECK(ws_memset(d, sum, 0, sizeof r->sum) == WS_OK);
    CHECK(ws_memset(d, out, 0, sizeof r->out) == WS_OK);
    ws_arg a[3];
    int na;
    if (!strcmp(name, "uneven")) { a[0] = WS_ARG_PTR(where); a[1] = WS_ARG_PTR(sum); a[2] = WS_ARG_PTR(out); na = 3; }
    else if (!strcmp(name, "chatty") || !strcmp(name, "tiny") || !strcmp(name, "short_blocks")) { a[0] = WS_ARG_PTR(out); na = 1; }
    else { a[0] = WS_ARG_PTR(out); a[1] = WS_ARG_I32(extra); na = 2; }
    const int many_blocks = !strcmp(name, "tiny") || !strcmp(name, "short_blocks");
    r->st = ws_launch(d, k, WS_DIM3(many_blocks ? TINY_BLOCKS : BLOCKS, 1, 1), WS_DIM3(THREADS, 1, 1), 0, a, (unsigned)na);
    if (r->st == WS_OK) r->st = ws_synchronize(d);
    snprintf(r->err, sizeof r->err, "%s", r->st ? ws_last_error(d) : "");
    CHECK(ws_memcpy_dtoh(d, r->where, where, sizeof r->where) == WS_OK);
    CHECK(ws_memcpy_dtoh(d, &r->sum, sum, sizeof r->sum) == WS_OK);
    CHECK(ws_memcpy_dtoh(d, r->out, out, sizeof r->out) == WS_OK);
    CHECK(ws_last_launch_stats(d, &r->stats) == WS_OK);
    r->stats.host_seconds = 0; /* the one figure allowed to differ */
    if (timing_mode) CHECK(ws_last_launch_counters(d, &r->counters) == WS_OK);
    r->par_from = ws_timing_parallel_from(d);
    r->events = d->events != NULL;
    CHECK(ws_device_close(d) == WS_OK);
}

static void same(const char *what, uint32_t threads, const run_result *a, const run_result *b, int check_memory)
{
    int ok = a->st == b->st && !strcmp(a->err, b->err) &&
             a->nprinted == b->nprinted && !memcmp(a->printed, b->printed, a->nprinted);
    if (check_memory)
        ok = ok && !memcmp(&a->stats, &b->stats, sizeof a->stats) && !memcmp(a->where, b->where, sizeof a->where) &&
             !memcmp(a->out, b->out, sizeof a->out) && a->sum == b->sum &&
             !memcmp(&a->counters, &b->counters, sizeof a->counters);
    if (timing_mode) ok = ok && a->stats.cycles == b->stats.cycles; /* a failed launch too */
    if (!ok) {
        for (int i = 0; i < BLOCKS; i++)
            if (a->where[i] != b->where[i]) fprintf(stderr, "  block %d ran on core %d, not %d\n", i, b->where[i], a->where[i]);
        if (memcmp(a->printed, b->printed, a->nprinted)) fprintf(stderr, "  printf output in another order\n");
        if (memcmp(&a->stats, &b->stats, sizeof a->stats)) fprintf(stderr, "  other statistics\n");
        if (memcmp(&a->counters, &b->counters, sizeof a->counters))
            fprintf(stderr, "  other timing counters (cycles %llu / %llu)\n", (unsigned long long)a->counters.cycles,
                    (unsigned long long)b->counters.cycles);
    }
    if (!ok)
        fprintf(stderr, "%s with %u threads differs from 1 thread: status %d/%d, '%s' / '%s', "
                "warp-instructions %llu/%llu, printed %zu/%zu bytes\n", what, threads, a->st, b->st, a->err, b->err,
                (unsigned long long)a->stats.warp_instructions, (unsigned long long)b->stats.warp_instructions,
                a->nprinted, b->nprinted);
    CHECK(ok);
}

/* ---- racing tickets ---- */

typedef struct tickets_result {
    unsigned counter;
    unsigned owner[N];
    ws_launch_stats stats;
} tickets_result;

static ws_status noop_attach(ws_device *d, void *u) { (void)d; (void)u; return WS_OK; }

static void run_tickets(const char *elf, uint32_t threads, int with_tool, tickets_result *r)
{
    static const ws_tool observer = { .version = WS_TOOL_API_VERSION, .name = "observer", .attach = noop_attach };
    memset(r, 0, sizeof *r);
    ws_device *d = open_dev(threads);
    if (with_tool) CHECK(ws_tool_attach(d, &observer, NULL) == WS_OK);
    ws_module *m = NULL;
    ws_kernel *k = NULL;
    CHECK(ws_module_load_file(d, elf, &m) == WS_OK);
    CHECK(ws_kernel_get(m, "tickets", &k) == WS_OK);
    ws_addr counter = 0, owner = 0;
    CHECK(ws_malloc(d, sizeof r->counter, &counter) == WS_OK);
    CHECK(ws_malloc(d, sizeof r->owner, &owner) == WS_OK);
    CHECK(ws_memset(d, counter, 0, sizeof r->counter) == WS_OK);
    CHECK(ws_memset(d, owner, 0xFF, sizeof r->owner) == WS_OK);
    ws_arg a[2] = { WS_ARG_PTR(counter), WS_ARG_PTR(owner) };
    CHECK(ws_launch(d, k, WS_DIM3(BLOCKS, 1, 1), WS_DIM3(THREADS, 1, 1), 0, a, 2) == WS_OK);
    CHECK(ws_synchronize(d) == WS_OK);
    CHECK(ws_memcpy_dtoh(d, &r->counter, counter, sizeof r->counter) == WS_OK);
    CHECK(ws_memcpy_dtoh(d, r->owner, owner, sizeof r->owner) == WS_OK);
    CHECK(ws_last_launch_stats(d, &r->stats) == WS_OK);
    r->stats.host_seconds = 0;
    CHECK(ws_device_close(d) == WS_OK);
}

/* The guarantee for racing atomics: every atomic happens exactly once, so
 * the counter ends at N and the tickets are a permutation of the threads;
 * only which thread holds which ticket may differ. */
static void check_tickets(const tickets_result *r)
{
    static unsigned char seen[N];
    memset(seen, 0, sizeof seen);
    int bad = 0;
    for (unsigned i = 0; i < N; i++) {
        if (r->owner[i] >= N || seen[r->owner[i]]) bad++;
        else seen[r->owner[i]] = 1;
    }
    CHECK_EQ_U(r->counter, N);
    CHECK_EQ_U(bad, 0);
    CHECK_EQ_U(r->stats.thread_atomics, N);
}

/* A timing-mode launch that only the watchdog ends, on `threads` host
 * threads: the report names the cycle it stopped at, and the cycles and
 * counters are where the cores got (on several threads cycles were 0, the
 * counters of every resident warp were charged back to cycle 0, and the
 * report named no cycle). */
/* A device on `threads` host threads with a watchdog of watchdog_ms, the
 * kernel `name` of elf, and a zeroed flag word for it to spin on. */
static ws_device *open_spinner(const char *elf, uint32_t threads, int timing, uint32_t watchdog_ms, const char *name,
                               ws_kernel **k, ws_addr *flag)
{
    ws_config c;
    ws_config_default(&c);
    c.threads = threads;
    if (timing) c.mode = WS_MODE_TIMING;
    c.watchdog_ms = watchdog_ms;
    ws_device *d = NULL;
    CHECK(ws_device_open(&c, &d) == WS_OK);
    ws_module *m = NULL;
    CHECK(ws_module_load_file(d, elf, &m) == WS_OK);
    CHECK(ws_kernel_get(m, name, k) == WS_OK);
    CHECK(ws_malloc(d, 4, flag) == WS_OK);
    CHECK(ws_memset(d, *flag, 0, 4) == WS_OK);
    return d;
}

static void check_watchdog_timing(const char *elf, uint32_t threads)
{
    ws_kernel *k = NULL;
    ws_addr flag = 0;
    ws_device *d = open_spinner(elf, threads, 1, 150, "spins", &k, &flag);
    ws_arg a[1] = { WS_ARG_PTR(flag) };
    CHECK(ws_launch(d, k, WS_DIM3(8, 1, 1), WS_DIM3(64, 1, 1), 0, a, 1) == WS_OK);
    CHECK_EQ_U(ws_synchronize(d), WS_ERR_TIMEOUT);
    CHECK_STR_CONTAINS(ws_last_error(d), "watchdog: still running after 150 ms (0 blocks of 8 done, cycle ");
    ws_launch_stats st;
    ws_timing_counters k2;
    CHECK(ws_last_launch_stats(d, &st) == WS_OK);
    CHECK(ws_last_launch_counters(d, &k2) == WS_OK);
    CHECK(st.cycles > 1000);
    CHECK(st.warp_instructions > 0);
    CHECK_EQ_U(k2.cycles, st.cycles);
    CHECK_EQ_U(k2.warp_instructions, st.warp_instructions);
    /* 16 warps resident on 4 cores of 8 slots the whole time */
    CHECK(k2.achieved_occupancy > 0.45 && k2.achieved_occupancy <= 0.5);
    uint64_t sum = 0;
    for (int s = 0; s < WS_WARP_STATE_COUNT; s++) sum += k2.state_cycles[s];
    CHECK_EQ_U(sum, k2.resident_warp_cycles);
    CHECK(ws_device_close(d) == WS_OK);
}

/* A child of fork() uses a device whose worker threads the parent
 * started: only the forking thread exists in the child, so its launches
 * need workers of their own (they waited for the parent's for ever), and
 * closing the device must not join threads of another process. */
static void check_fork(const char *elf)
{
    ws_device *d = open_dev(2);
    ws_module *m = NULL;
    ws_kernel *k = NULL;
    CHECK(ws_module_load_file(d, elf, &m) == WS_OK);
    CHECK(ws_kernel_get(m, "chatty", &k) == WS_OK);
    ws_addr out = 0;
    CHECK(ws_malloc(d, BLOCKS * THREADS * 4, &out) == WS_OK);
    ws_arg a[1] = { WS_ARG_PTR(out) };
    static run_result printed;
    memset(&printed, 0, sizeof printed);
    CHECK(ws_set_printf_handler(d, on_print, &printed) == WS_OK);
    CHECK(ws_launch(d, k, WS_DIM3(BLOCKS, 1, 1), WS_DIM3(THREADS, 1, 1), 0, a, 1) == WS_OK);
    CHECK(ws_synchronize(d) == WS_OK); /* the pool exists now */
    fflush(NULL);
    pid_t child = fork();
    CHECK(child >= 0);
    if (child == 0) {
        alarm(20); /* a hang ends the child with SIGALRM */
        ws_launch_stats st;
        int ok = ws_launch(d, k, WS_DIM3(BLOCKS, 1, 1), WS_DIM3(THREADS, 1, 1), 0, a, 1) == WS_OK &&
                 ws_synchronize(d) == WS_OK && ws_last_launch_stats(d, &st) == WS_OK && st.blocks == BLOCKS &&
                 ws_device_close(d) == WS_OK;
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    CHECK(waitpid(child, &status, 0) == child);
    CHECK(WIFEXITED(status));
    if (WIFSIGNALED(status)) fprintf(stderr, "fork: the child ended with signal %d\n", WTERMSIG(status));
    CHECK_EQ_U(WIFEXITED(status) ? WEXITSTATUS(status) : 99, 0);
    /* the parent's pool goes on working */
    CHECK(ws_launch(d, k, WS_DIM3(BLOCKS, 1, 1), WS_DIM3(THREADS, 1, 1), 0, a, 1) == WS_OK);
    CHECK(ws_synchronize(d) == WS_OK);
    CHECK(ws_device_close(d) == WS_OK);
}

/* printf lines reach the handler while the cores still run: a kernel
 * that prints and then hangs shows its lines long before the watchdog
 * ends it, as on one thread (on several they were held to the end of the
 * launch, so a hang without a watchdog showed no line at all). */
static double first_line_at = -1;
static int hang_lines;
static void on_hang_print(void *user, uint64_t launch, ws_dim3 block, ws_dim3 thread, const char *text, size_t len)
{
    (void)launch, (void)block, (void)thread, (void)text, (void)len;
    if (first_line_at < 0) first_line_at = ws_now_seconds() - *(double *)user;
    hang_lines++;
}

static void check_prints_while_running(const char *elf, uint32_t threads, int timing)
{
    ws_kernel *k = NULL;
    ws_addr flag = 0;
    ws_device *d = open_spinner(elf, threads, timing, 2000, "prints_then_hangs", &k, &flag);
    double t0 = ws_now_seconds();
    first_line_at = -1;
    hang_lines = 0;
    CHECK(ws_set_printf_handler(d, on_hang_print, &t0) == WS_OK);
    ws_arg a[1] = { WS_ARG_PTR(flag) };
    CHECK(ws_launch(d, k, WS_DIM3(8, 1, 1), WS_DIM3(64, 1, 1), 0, a, 1) == WS_OK);
    CHECK_EQ_U(ws_synchronize(d), WS_ERR_TIMEOUT);
    CHECK_EQ_U(hang_lines, 8);
    if (!(first_line_at >= 0 && first_line_at < 1.0))
        fprintf(stderr, "%s mode, %u threads: the first line came %.3f s after the launch (watchdog 2 s)\n",
                timing ? "timing" : "functional", threads, first_line_at);
    CHECK(first_line_at >= 0 && first_line_at < 1.0);
    CHECK(ws_device_close(d) == WS_OK);
}

/* A slow printf handler does not stall the cores: it runs without the
 * core's print lock, so while it waits on a line of core 1 (on the second
 * thread) core 1 goes on running and printing (it stopped at its next
 * line until the handler returned); and a handler that calls the
 * library's read-only API gets an answer. The output is byte for byte
 * that of one thread. */
typedef struct slow_printer {
    ws_device *dev;
    int wait;             /* wait on core 1's first line (two threads) */
    int waited, core1_went_on, api_ok;
    char printed[32768];
    size_t n;
} slow_printer;

#define SLOW_ROUNDS 2000 /* rounds core 1 must run during the wait: several lines' worth */

static void on_slow_print(void *user, uint64_t launch, ws_dim3 block, ws_dim3 thread, const char *text, size_t len)
{
    slow_printer *s = user;
    (void)launch, (void)thread;
    if (s->n + len < sizeof s->printed) memcpy(s->printed + s->n, text, len), s->n += len;
    ws_launch_stats st;
    ws_config cfg;
    /* (the device's first launch: none has finished yet, which is the answer) */
    s->api_ok += ws_last_launch_stats(s->dev, &st) == WS_ERR_NOT_FOUND && ws_device_config(s->dev, &cfg) == WS_OK;
    if (!s->wait || s->waited || block.x != 1) return;
    s->waited = 1;
    const uint64_t from = ws_par_core_round(s->dev, 1);
    const double t0 = ws_now_seconds();
    while (ws_par_core_round(s->dev, 1) < from + SLOW_ROUNDS && ws_now_seconds() - t0 < 5.0) usleep(1000);
    s->core1_went_on = ws_par_core_round(s->dev, 1) >= from + SLOW_ROUNDS;
}

static void run_slow_printer(const char *elf, uint32_t threads, slow_printer *s)
{
    memset(s, 0, sizeof *s);
    s->dev = open_dev(threads);
    s->wait = threads > 1;
    ws_module *m = NULL;
    ws_kernel *k = NULL;
    ws_addr out = 0;
    CHECK(ws_module_load_file(s->dev, elf, &m) == WS_OK);
    CHECK(ws_kernel_get(m, "prints_all_along", &k) == WS_OK);
    CHECK(ws_malloc(s->dev, 2 * 32 * sizeof(int), &out) == WS_OK);
    CHECK(ws_set_printf_handler(s->dev, on_slow_print, s) == WS_OK);
    ws_arg a[1] = { WS_ARG_PTR(out) };
    CHECK(ws_launch(s->dev, k, WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0, a, 1) == WS_OK);
    CHECK(ws_synchronize(s->dev) == WS_OK);
    CHECK(ws_device_close(s->dev) == WS_OK);
}

static void check_slow_handler(const char *elf)
{
    static slow_printer one, two;
    run_slow_printer(elf, 1, &one);
    run_slow_printer(elf, 2, &two);
    CHECK_STR_CONTAINS(one.printed, "block 1 line 399 core 1\n");
    CHECK_EQ_U(one.n, two.n);
    CHECK(!memcmp(one.printed, two.printed, one.n));
    CHECK_EQ_U(one.api_ok, 800);
    CHECK_EQ_U(two.api_ok, 800);
    CHECK_EQ_U(two.waited, 1);
    if (!two.core1_went_on) fprintf(stderr, "core 1 stood still while the printf handler ran on its line\n");
    CHECK_EQ_U(two.core1_went_on, 1);
}

/* $WARPSCOPE_THREADS is read as configuration text reads `threads=` (one
 * reader: decimal, leading zeros decimal too, or 0x hex; 0 to 256): what
 * the text takes counts, what it refuses leaves the host's core count (not
 * asked). Until 2026-11-28 the variable took decimal digits only, while
 * the text took threads=0x3. */
static void check_threads_env(void)
{
    const char *saved = getenv("WARPSCOPE_THREADS");
    char *keep = saved ? strdup(saved) : NULL;
    ws_config c;
    ws_config_default(&c);
    c.cores = 256; /* (the number of threads is capped at the cores) */
    const struct { const char *env; uint32_t want; } taken[] = { { "3", 3 },   { "1", 1 },     { "256", 256 },
                                                               { "007", 7 }, { "0x3", 3 },   { "0X10", 16 },
                                                               { "0x100", 256 } };
    for (size_t i = 0; i < sizeof taken / sizeof *taken; i++) {
        int asked = 0;
        setenv("WARPSCOPE_THREADS", taken[i].env, 1);
        c.threads = ws_config_threads_from_env();
        CHECK_EQ_U(ws_par_threads_for(&c, &asked), taken[i].want);
        CHECK_EQ_U(asked, 1);
        /* the same value in configuration text */
        char text[64], err[256];
        ws_config t;
        ws_config_default(&t);
        snprintf(text, sizeof text, "threads=%s", taken[i].env);
        CHECK_EQ_U(ws_config_parse(&t, text, err, sizeof err), WS_OK);
        CHECK_EQ_U(t.threads, taken[i].want);
    }
    const char *ignored[] = { "", "0", "257", "0x101", "99999999999999999999", "-3", "-18446744073709551613",
                              "+3", " 3", "3 ", "3x", "0x", "1K" };
    for (size_t i = 0; i < sizeof ignored / sizeof *ignored; i++) {
        int asked = 1;
        setenv("WARPSCOPE_THREADS", ignored[i], 1);
        c.threads = ws_config_threads_from_env();
        ws_par_threads_for(&c, &asked);
        if (asked) fprintf(stderr, "WARPSCOPE_THREADS=\"%s\" was taken\n", ignored[i]);
        CHECK_EQ_U(asked, 0);
        char text[64], err[256];
        ws_config t;
        ws_config_default(&t);
        snprintf(text, sizeof text, "threads=\"%s\"", ignored[i]);
        const ws_status st = ws_config_parse(&t, text, err, sizeof err);
        if (!st && t.threads) fprintf(stderr, "threads=\"%s\" was taken\n", ignored[i]);
        CHECK(st != WS_OK || t.threads == 0);
    }
    /* and a device opened with threads=0 takes the variable so */
    setenv("WARPSCOPE_THREADS", "0x3", 1);
    ws_config_default(&c);
    ws_device *d = NULL;
    CHECK(ws_device_open(&c, &d) == WS_OK);
    CHECK_EQ_U(d->host_threads, 3);
    CHECK_EQ_U(d->threads_asked, 1);
    CHECK(ws_device_close(d) == WS_OK);
    if (keep) setenv("WARPSCOPE_THREADS", keep, 1);
    else unsetenv("WARPSCOPE_THREADS");
    free(keep);
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s par_kernels.elf\n", argv[0]); return 2; }
    const char *elf = argv[1];
    static run_result one, many;
    check_threads_env();

    const struct { const char *name; int extra; ws_status want; const char *msg; } cases[] = {
        { "uneven", 0, WS_OK, NULL },
        { "chatty", 0, WS_OK, NULL },
        { "tiny", 0, WS_OK, NULL },
        { "faults_late", 37, WS_ERR_KERNEL_FAULT, "block (37,0,0)" },
        { "stuck", 45, WS_ERR_DEADLOCK, "deadlock" },
    };
    for (timing_mode = 0; timing_mode < 2; timing_mode++)
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        run(elf, cases[i].name, 1, cases[i].extra, &one);
        CHECK_EQ_U(one.st, cases[i].want);
        if (cases[i].msg) CHECK_STR_CONTAINS(one.err, cases[i].msg);
        for (uint32_t t = 2; t <= 4; t++) {
            run(elf, cases[i].name, t, cases[i].extra, &many);
            /* after a fault, other cores may have run further: memory and
             * counts are compared for launches that complete */
            same(cases[i].name, t, &one, &many, cases[i].want == WS_OK);
        }
    }
    /* Timing mode: the distributor's decisions depend on when slots free
     * up (next block of the grid to the first free slot), so some block
     * of `uneven` runs elsewhere than core b mod 4 ... */
    timing_mode = 1;
    run(elf, "uneven", 1, 0, &one);
    int elsewhere = 0;
    for (int b = 0; b < BLOCKS; b++) elsewhere += one.where[b] != b % 4;
    CHECK(elsewhere > 0);
    /* ... while functional mode runs each core's own sequence b = c, c + 4,
     * ... for a small grid (docs/device.md), on any number of threads ... */
    timing_mode = 0;
    for (uint32_t t = 1; t <= 2; t++) {
        run(elf, "uneven", t, 0, &one);
        elsewhere = 0;
        for (int b = 0; b < BLOCKS; b++) elsewhere += one.where[b] != b % 4;
        CHECK_EQ_U(elsewhere, 0);
        for (int c = 0; c < 4; c++) CHECK_EQ_U(one.stats.core_blocks[c], (BLOCKS - c + 3) / 4);
    }
    /* ... in chunks of consecutive blocks when the grid is large: 500
     * blocks on 4 cores make chunks of 500 / (4 * 16) = 7 blocks, chunk j
     * on core j mod 4 (`tiny` stores its core in thread 0's word). */
    for (uint32_t t = 1; t <= 2; t++) {
        run(elf, "tiny", t, 0, &many);
        int wrong = 0;
        for (int b = 0; b < TINY_BLOCKS; b++) wrong += many.out[b * THREADS] != (b / 7) % 4;
        CHECK_EQ_U(wrong, 0);
    }
    CHECK(one.nprinted == 0);

    /* Timing mode on the default threads: blocks of ~30 000 cycles start
     * on one thread, which hands the launch over to the others after the
     * first window of cycles without a release; the results, printf
     * output, counters and fault or deadlock report are those of one
     * thread. Short
     * blocks stay on one thread; threads asked for run from cycle 0. */
    timing_mode = 1;
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const int bads[] = { -1, 37 };
    for (int i = 0; i < 2; i++) {
        run(elf, "long_blocks", 1, bads[i], &one);
        CHECK_EQ_U(one.st, bads[i] < 0 ? WS_OK : WS_ERR_KERNEL_FAULT);
        CHECK(one.stats.cycles > 100000);
        if (bads[i] < 0) CHECK_STR_CONTAINS(one.printed, "long block 56 ends with");
        else CHECK_STR_CONTAINS(one.err, "block (37,0,0)");
        CHECK_EQ_U(one.par_from == UINT64_MAX, 1);
        run(elf, "long_blocks", 0, bads[i], &many);
        same("long_blocks (default threads)", 0, &one, &many, bads[i] < 0);
        if (many.events) { /* (an event bus: one thread throughout, by design) */
            CHECK_EQ_U(many.par_from == UINT64_MAX, 1);
        } else if (cpus > 1) { /* (one host core: nothing to hand over to) */
            CHECK(many.par_from > 0 && many.par_from < one.stats.cycles);
        } else {
            printf("one host core: the hand-over is not exercised\n");
        }
        run(elf, "long_blocks", 2, bads[i], &many);
        same("long_blocks", 2, &one, &many, bads[i] < 0);
        CHECK_EQ_U(many.par_from, many.events ? UINT64_MAX : 0);
    }
    run(elf, "long_stuck", 1, 45, &one);
    CHECK_EQ_U(one.st, WS_ERR_DEADLOCK);
    run(elf, "long_stuck", 0, 45, &many);
    same("long_stuck (default threads)", 0, &one, &many, 0);
    if (many.events) CHECK_EQ_U(many.par_from == UINT64_MAX, 1);
    else if (cpus > 1) CHECK(many.par_from > 0 && many.par_from < one.stats.cycles);
    run(elf, "short_blocks", 0, 0, &many);
    CHECK(many.stats.cycles > 3 * 16384); /* (several windows looked at) */
    CHECK_EQ_U(many.par_from == UINT64_MAX, 1);
    timing_mode = 0;

    run(elf, "chatty", 2, 0, &many);
    CHECK_EQ_U(many.nprinted > 0, 1);
    CHECK_STR_CONTAINS(many.printed, "block 60 thread 48 sum");

    /* the watchdog in timing mode, on one and on several threads */
    check_watchdog_timing(elf, 1);
    check_watchdog_timing(elf, 2);
    check_watchdog_timing(elf, 4);

    check_prints_while_running(elf, 1, 0);
    check_prints_while_running(elf, 2, 0);
    check_prints_while_running(elf, 2, 1);
    check_slow_handler(elf);
    if (!UNDER_TSAN) check_fork(elf);
    else printf("ThreadSanitizer: the fork check is left out\n");

    /* racing atomics */
    static tickets_result t1, t1b, t2, tool2;
    run_tickets(elf, 1, 0, &t1);
    run_tickets(elf, 1, 0, &t1b);
    check_tickets(&t1);
    CHECK(!memcmp(&t1, &t1b, sizeof t1)); /* one thread: bit for bit, every run */
    for (int rep = 0; rep < 3; rep++) {
        run_tickets(elf, 2, 0, &t2);
        check_tickets(&t2);
        CHECK(!memcmp(&t1.stats, &t2.stats, sizeof t1.stats));
    }
    /* an attached tool gets the one-thread schedule: identical tickets */
    run_tickets(elf, 2, 1, &tool2);
    CHECK(!memcmp(&t1, &tool2, sizeof t1));
    return TEST_SUMMARY();
}
