/* Control-flow differential test: generated C programs (gen_cf) with nested
 * divergent if/else, loops, break/continue, switches, early returns, calls
 * (noinline, recursive, through pointers), local arrays, 64-bit and float
 * arithmetic, and a shared-memory exchange behind a block barrier, built
 * for the device and for qemu-riscv32 (the reference, which runs the same
 * body once per thread id). Every thread's outputs must be equal on every
 * device configuration: both engines, one and two host threads, narrow
 * warps, timing mode. Statistics must agree between configurations that
 * must give the same ones, and timing mode must repeat its cycles.
 *
 * usage: test_cfdiff QEMU DIR NAME...        (DIR/NAME.elf, DIR/NAME.qemu)
 *        test_cfdiff --once CONFIG ELF        (one launch, for warpscope trace) */
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "warpscope/warpscope.h"
#include "cf_body.h"
#include "../qemu_diff/run_qemu.h"
#include "../test.h"

#define IN_WORDS (CF_THREADS * CF_IN)
#define OUT_WORDS (CF_THREADS * CF_OUT)

static uint32_t rng;
static uint32_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }

static void make_inputs(uint32_t *in, uint32_t seed)
{
    static const uint32_t v[] = { 0, 1, 2, 3, 5, 7, 8, 31, 32, 0xFFFFFFFFu, 0x80000000u, 0x7FFFFFFFu,
                                  0xFFFF, 0x10000, 0x3F800000u, 0x7FC00000u, 0xFF800000u };
    rng = 0x9E3779B9u ^ (seed * 0x85EBCA6Bu);
    for (int i = 0; i < IN_WORDS; i++) {
        uint32_t r = rnd();
        in[i] = r % 4 == 0 ? v[rnd() % (sizeof v / sizeof *v)] : r % 4 == 1 ? rnd() % 16 : rnd();
    }
}

/* device printf, collected: one line per EMIT of a thread */
typedef struct { char *text; size_t len, cap; } text_buf;
static void on_printf(void *user, uint64_t launch, ws_dim3 block, ws_dim3 thread, const char *text, size_t len)
{
    text_buf *b = user;
    (void)launch, (void)block, (void)thread;
    if (b->len + len + 1 > b->cap) {
        size_t cap = (b->len + len + 1) * 2;
        char *t = realloc(b->text, cap);
        if (!t) return;
        b->text = t, b->cap = cap;
    }
    memcpy(b->text + b->len, text, len);
    b->len += len;
    b->text[b->len] = 0;
}

/* A device of one configuration with the program loaded, kept for all the
 * runs of that program (a fault must leave it working). */
typedef struct {
    ws_device *dev;
    ws_kernel *k;
    ws_addr din, dout;
    text_buf print;
} dev_ctx;

static int ctx_open(dev_ctx *x, const char *config, const char *elf)
{
    ws_config cfg;
    char cerr[256] = "";
    ws_module *mod;
    ws_config_default(&cfg);
    if (ws_config_parse(&cfg, config, cerr, sizeof cerr) || ws_device_open(&cfg, &x->dev)) {
        fprintf(stderr, "%s: cannot open a device: %s\n", config, cerr);
        x->dev = NULL;
        return -1;
    }
    ws_set_printf_handler(x->dev, on_printf, &x->print);
    if (ws_module_load_file(x->dev, elf, &mod) == WS_OK && ws_kernel_get(mod, "cf_main", &x->k) == WS_OK &&
        ws_malloc(x->dev, IN_WORDS * 4, &x->din) == WS_OK && ws_malloc(x->dev, OUT_WORDS * 4, &x->dout) == WS_OK)
        return 0;
    fprintf(stderr, "%s [%s]: device: %s\n", elf, config, ws_last_error(x->dev));
    ws_device_close(x->dev);
    x->dev = NULL;
    return -1;
}

static void ctx_close(dev_ctx *x)
{
    if (x->dev) ws_device_close(x->dev);
    x->dev = NULL;
}

/* One launch; 0 when it ran, else -1 with the error report in err. */
static int ctx_run(dev_ctx *x, const uint32_t *in, uint32_t *out, ws_launch_stats *st, char *err, size_t errlen)
{
    static const uint32_t zeros[OUT_WORDS];
    x->print.len = 0;
    if (x->print.text) x->print.text[0] = 0;
    err[0] = 0;
    if (!x->dev) {
        snprintf(err, errlen, "no device");
        return -1;
    }
    ws_arg a[2] = { WS_ARG_PTR(x->din), WS_ARG_PTR(x->dout) };
    if (ws_memcpy_htod(x->dev, x->din, in, IN_WORDS * 4) == WS_OK &&
        ws_memcpy_htod(x->dev, x->dout, zeros, OUT_WORDS * 4) == WS_OK &&
        ws_launch(x->dev, x->k, WS_DIM3(CF_GRID, 1, 1), WS_DIM3(CF_BLOCK, 1, 1), 0, a, 2) == WS_OK &&
        ws_memcpy_dtoh(x->dev, out, x->dout, OUT_WORDS * 4) == WS_OK && ws_last_launch_stats(x->dev, st) == WS_OK)
        return 0;
    snprintf(err, errlen, "%s", ws_last_error(x->dev));
    return -1;
}

/* A group shares statistics and printf order (same warp width, same mode,
 * same schedule); votes and shuffles depend on the warp width only. */
static const struct { const char *config; int group, lanes; } configs[] = {
    { "engine=fast,threads=1", 0, 32 },
    { "engine=interp,threads=1", 0, 32 },
    { "engine=fast,threads=2", 0, 32 },
    { "engine=interp,threads=2", 0, 32 },
    { "engine=fast,cores=1,warp_quantum=1", 7, 32 }, /* another schedule: own printf order and fault place */
    { "lanes_per_warp=16", 1, 16 },
    { "lanes_per_warp=8,engine=interp", 2, 8 },
    { "lanes_per_warp=8", 2, 8 },
    { "lanes_per_warp=4,warps_per_core=16", 3, 4 },
    { "lanes_per_warp=4,warps_per_core=16,threads=2", 3, 4 },
    { "lanes_per_warp=1,warps_per_core=64", 4, 1 },
    { "lanes_per_warp=7", 8, 7 },
    { "lanes_per_warp=24,engine=interp", 9, 24 },
    { "lanes_per_warp=24", 9, 24 },
    { "mode=timing,threads=1", 5, 32 },
    { "mode=timing,threads=1", 5, 32 },
    { "mode=timing,engine=interp,threads=1", 5, 32 },
    { "mode=timing,threads=2", 5, 32 },
    { "mode=timing,lanes_per_warp=8,threads=2", 6, 8 },
    { "mode=timing,lanes_per_warp=8,engine=interp,threads=1", 6, 8 },
};
#define NCONFIGS (int)(sizeof configs / sizeof *configs)

static int same_stats(const ws_launch_stats *a, const ws_launch_stats *b, int timing)
{
    return a->thread_instructions == b->thread_instructions && a->warp_instructions == b->warp_instructions &&
           a->thread_loads == b->thread_loads && a->thread_stores == b->thread_stores &&
           a->thread_atomics == b->thread_atomics && a->blocks == b->blocks &&
           (!timing || a->cycles == b->cycles);
}

static void print_stats(const char *what, const ws_launch_stats *s)
{
    fprintf(stderr, "  %s: thread %llu warp %llu loads %llu stores %llu atomics %llu blocks %llu cycles %llu\n",
            what, (unsigned long long)s->thread_instructions, (unsigned long long)s->warp_instructions,
            (unsigned long long)s->thread_loads, (unsigned long long)s->thread_stores,
            (unsigned long long)s->thread_atomics, (unsigned long long)s->blocks,
            (unsigned long long)s->cycles);
}

int main(int argc, char **argv)
{
    static uint32_t in[IN_WORDS], ref[OUT_WORDS], out[OUT_WORDS];
    static char err[NCONFIGS][1100];
    if (argc == 4 && !strcmp(argv[1], "--once")) {
        ws_launch_stats st;
        dev_ctx x = { 0 };
        make_inputs(in, 1);
        int r = ctx_open(&x, argv[2], argv[3]) || ctx_run(&x, in, out, &st, err[0], sizeof err[0]);
        if (r) fprintf(stderr, "%s\n", err[0]);
        else fwrite(x.print.text ? x.print.text : "", 1, x.print.len, stdout);
        ctx_close(&x);
        return r;
    }
    if (argc < 4) { fprintf(stderr, "usage: test_cfdiff QEMU DIR NAME...\n"); return 2; }
    if (access(argv[1], X_OK)) { printf("qemu-riscv32 not found: skipped\n"); return 77; }
    unsigned long long words = 0;
    int programs = 0, faults = 0;
    for (int p = 3; p < argc; p++) {
        char elf[4096], prog[4096];
        snprintf(elf, sizeof elf, "%s/%s.elf", argv[2], argv[p]);
        snprintf(prog, sizeof prog, "%s/%s.qemu", argv[2], argv[p]);
        programs++;
        static dev_ctx ctx[NCONFIGS];
        for (int c = 0; c < NCONFIGS; c++) CHECK(ctx_open(&ctx[c], configs[c].config, elf) == 0);
        for (uint32_t round = 1; round <= 2; round++) {
            make_inputs(in, round);
            int q = run_qemu(argv[1], prog, in, IN_WORDS * 4, ref, OUT_WORDS * 4);
            if (q) fprintf(stderr, "%s: qemu-riscv32 failed\n", prog);
            CHECK(q == 0);
            if (q) continue;
            ws_launch_stats st[NCONFIGS];
            int ok[NCONFIGS];
            static text_buf print[NCONFIGS];
            static uint32_t outs[NCONFIGS][OUT_WORDS];
            for (int c = 0; c < NCONFIGS; c++) {
                ok[c] = ctx_run(&ctx[c], in, out, &st[c], err[c], sizeof err[c]) == 0;
                if (!ok[c]) fprintf(stderr, "%s [%s] inputs %u: %s\n", argv[p], configs[c].config, round, err[c]);
                CHECK(ok[c]);
                if (!ok[c]) continue;
                text_buf *pb = &print[c];
                pb->len = 0;
                on_printf(pb, 0, WS_DIM3(0, 0, 0), WS_DIM3(0, 0, 0), ctx[c].print.text ? ctx[c].print.text : "",
                          ctx[c].print.len);
                int mismatches = 0;
                memcpy(outs[c], out, sizeof out);
                for (int t = 0; t < CF_THREADS; t++)
                    for (int w = 0; w < CF_OUT; w++) {
                        uint32_t a = out[t * CF_OUT + w], b = ref[t * CF_OUT + w];
                        if (w == CF_VOTE_WORD) continue; /* device only: compared below */
                        words++;
                        if (a != b && mismatches++ < 5)
                            fprintf(stderr, "%s [%s] inputs %u thread %d out[%d]: device 0x%08x, qemu 0x%08x\n",
                                    argv[p], configs[c].config, round, t, w, a, b);
                    }
                CHECK_EQ_U(mismatches, 0);
                /* the same statistics within a group; the same thread-level
                 * counts everywhere (they do not depend on warp width or mode) */
                int timing = strstr(configs[c].config, "mode=timing") != NULL;
                for (int o = 0; o < c; o++) {
                    if (!ok[o]) continue;
                    int group = configs[o].group == configs[c].group;
                    if (!group && o != 0) continue;
                    int same = group ? same_stats(&st[o], &st[c], timing)
                               : st[o].thread_instructions == st[c].thread_instructions &&
                                 st[o].thread_loads == st[c].thread_loads &&
                                 st[o].thread_stores == st[c].thread_stores;
                    if (!same) {
                        fprintf(stderr, "%s inputs %u: statistics differ between [%s] and [%s]\n", argv[p], round,
                                configs[o].config, configs[c].config);
                        print_stats(configs[o].config, &st[o]);
                        print_stats(configs[c].config, &st[c]);
                    }
                    CHECK(same);
                    if (group) { /* the same printf lines in the same order */
                        int same_print = print[o].len == print[c].len &&
                                         (!print[c].len || !memcmp(print[o].text, print[c].text, print[c].len));
                        if (!same_print)
                            fprintf(stderr, "%s inputs %u: printf output differs between [%s] and [%s]\n", argv[p],
                                    round, configs[o].config, configs[c].config);
                        CHECK(same_print);
                    }
                    if (group) break; /* the first of its group is enough */
                }
                for (int o = 0; o < c; o++) { /* the same votes and shuffles */
                    if (!ok[o] || configs[o].lanes != configs[c].lanes) continue;
                    int votes = 0;
                    for (int t = 0; t < CF_THREADS; t++)
                        if (outs[o][t * CF_OUT + CF_VOTE_WORD] != outs[c][t * CF_OUT + CF_VOTE_WORD] && votes++ < 3)
                            fprintf(stderr, "%s inputs %u thread %d: votes 0x%08x in [%s], 0x%08x in [%s]\n", argv[p],
                                    round, t, outs[o][t * CF_OUT + CF_VOTE_WORD], configs[o].config,
                                    outs[c][t * CF_OUT + CF_VOTE_WORD], configs[c].config);
                    CHECK_EQ_U(votes, 0);
                    break;
                }
                if (timing && ok[0] && !strstr(configs[c].config, "lanes_per_warp")) {
                    if (st[c].warp_instructions != st[0].warp_instructions)
                        fprintf(stderr, "%s inputs %u: [%s] issued %llu warp-instructions, [%s] %llu\n", argv[p],
                                round, configs[c].config, (unsigned long long)st[c].warp_instructions,
                                configs[0].config, (unsigned long long)st[0].warp_instructions);
                    CHECK_EQ_U(st[c].warp_instructions, st[0].warp_instructions);
                }
                if (c == 0) { /* no work lost: some thread ran every phase */
                    CHECK(st[c].blocks == CF_GRID);
                    CHECK(st[c].threads == CF_THREADS);
                }
            }
        }
        /* Fault runs: some threads store to the null page at the first
         * FAULT site they reach whose tag is j mod 4. The report, and the
         * printf lines before it, must not depend on the engine or the
         * number of host threads. */
        for (uint32_t j = 0; j < 2; j++) {
            make_inputs(in, 1);
            for (int t = (int)j; t < CF_THREADS; t += 3 + (int)j) in[t * CF_IN + 15] = 0xFA000000u + j;
            static text_buf print[NCONFIGS];
            int rc[NCONFIGS];
            for (int c = 0; c < NCONFIGS; c++) {
                ws_launch_stats st;
                rc[c] = ctx_run(&ctx[c], in, out, &st, err[c], sizeof err[c]);
                print[c].len = 0;
                on_printf(&print[c], 0, WS_DIM3(0, 0, 0), WS_DIM3(0, 0, 0),
                          ctx[c].print.text ? ctx[c].print.text : "", ctx[c].print.len);
                for (int o = 0; o < c; o++) {
                    if (configs[o].group != configs[c].group) continue;
                    int same = rc[o] == rc[c] && !strcmp(err[o], err[c]);
                    int same_print = print[o].len == print[c].len &&
                                     (!print[c].len || !memcmp(print[o].text, print[c].text, print[c].len));
                    if (!same)
                        fprintf(stderr, "%s fault run %u: [%s] and [%s] end differently:\n  %s\n  %s\n", argv[p], j,
                                configs[o].config, configs[c].config, rc[o] ? err[o] : "(no fault)",
                                rc[c] ? err[c] : "(no fault)");
                    if (!same_print)
                        fprintf(stderr, "%s fault run %u: printf output differs between [%s] and [%s]\n", argv[p], j,
                                configs[o].config, configs[c].config);
                    CHECK(same);
                    CHECK(same_print);
                    break;
                }
                if (rc[c] && !strstr(err[c], "null")) {
                    fprintf(stderr, "%s fault run %u [%s]: unexpected error: %s\n", argv[p], j, configs[c].config, err[c]);
                    CHECK(0);
                }
            }
            if (rc[0]) faults++;
        }
        for (int c = 0; c < NCONFIGS; c++) ctx_close(&ctx[c]);
    }
    printf("%d of the fault runs faulted\n", faults);
    printf("compared %llu words over %d programs, %d device configurations\n", words, programs, NCONFIGS);
    return TEST_SUMMARY();
}
