/* The fast engine against the interpreter (issue 14): every kernel of
 * engine_kernels.c runs on a fresh device with engine=interp and with
 * engine=fast under several configurations (warp quanta that end runs in
 * the middle of blocks, partial and odd-sized warps, one core); memory,
 * launch status, the fault report and every launch statistic must be
 * identical. Then a module is unloaded and another build of it loaded at
 * the same address: no block decoded from the first may run.
 * usage: test_engine engine_kernels.elf reload_1.elf reload_2.elf */
#include <stdint.h>
#include "warpscope/warpscope.h"
#include "../test.h"

typedef struct buf { uint32_t bytes; int init; } buf; /* init: 0 zero, 1 pseudo-random */
typedef struct kcase {
    const char *kernel;
    ws_dim3 grid, block;
    buf bufs[5];
    uint32_t nbufs;
    int32_t scalars[3];              /* after the buffer arguments */
    uint32_t nscalars;
} kcase;

#define B(n, i) { (n), (i) }
static const kcase cases[] = {
    { "diverge_loops", { 4, 1, 1 }, { 80, 1, 1 }, { B(320 * 4, 1), B(320 * 4, 0) }, 2, { 300 }, 1 },
    { "widths", { 2, 1, 1 }, { 128, 1, 1 }, { B(800, 1), B(600, 1), B(1024, 1), B(2560, 0) }, 4, { 0 }, 0 },
    { "race", { 4, 1, 1 }, { 64, 1, 1 }, { B(4, 0), B(256 * 20 * 4, 0), B(1025 * 4, 0) }, 3, { 20 }, 1 },
    { "spin", { 4, 1, 1 }, { 64, 1, 1 }, { B((256 + 32) * 4, 0), B(512 * 4, 0) }, 2, { 0 }, 0 },
    { "long_diverge", { 2, 1, 1 }, { 64, 1, 1 }, { B(128 * 4, 1), B((4096 + 128) * 4, 0) }, 2, { 0 }, 0 },
    { "mm", { 2, 2, 1 }, { 16, 16, 1 }, { B(32 * 32 * 4, 1), B(32 * 32 * 4, 1), B(32 * 32 * 4, 0) }, 3, { 32 }, 1 },
    { "vecadd", { 16, 1, 1 }, { 256, 1, 1 }, { B(4096 * 4, 1), B(4096 * 4, 1), B(4096 * 4, 0) }, 3, { 0 }, 0 },
    { "reduce", { 2, 1, 1 }, { 128, 1, 1 }, { B(4096 * 4, 1), B(4, 0) }, 2, { 16 }, 1 },
    { "neighbours", { 2, 1, 1 }, { 128, 1, 1 }, { B(256 * 4, 1), B(256 * 4, 0) }, 2, { 1 }, 1 },
    { "gathers", { 2, 1, 1 }, { 128, 1, 1 }, { B(256 * 4, 0), B(256 * 4, 0) }, 2, { 9 }, 1 },
    { "fault_load", { 2, 1, 1 }, { 128, 1, 1 }, { B(256 * 4, 1), B(256 * 4, 0) }, 2, { 77, 37 }, 2 },
    { "fault_store", { 2, 1, 1 }, { 128, 1, 1 }, { B(4096 + 64, 0) }, 1, { 45, 13 }, 2 },
};

static const char *const configs[] = {
    "",
    "warp_quantum=1",
    "warp_quantum=3",
    "warp_quantum=7",
    "warp_quantum=1000",
    "lanes_per_warp=16,warps_per_core=16,warp_quantum=5",
    "lanes_per_warp=24,warps_per_core=16,warp_quantum=9",
    "cores=1,warps_per_core=8",
};

typedef struct result {
    ws_status open, launch, sync;
    char err[2048];
    ws_launch_stats st;
    uint8_t mem[32768];
    size_t len;
} result;

static uint32_t lcg(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s >> 7; }

static ws_status open_dev(const char *text, uint32_t engine, ws_device **dev)
{
    ws_config cfg;
    char err[256];
    ws_config_default(&cfg);
    if (ws_config_parse(&cfg, text, err, sizeof err) != WS_OK) {
        fprintf(stderr, "config '%s': %s\n", text, err);
        return WS_ERR_INVALID_ARG;
    }
    cfg.engine = engine;
    /* Several kernels here race between threads on purpose (the values
     * read record the interleaving): one host thread keeps that
     * interleaving fixed (docs/parallel.md); tests/parallel covers threads. */
    cfg.threads = 1;
    ws_status st = ws_device_open(&cfg, dev);
    if (st != WS_OK) fprintf(stderr, "config '%s': cannot open a device: %s\n", text, ws_status_name(st));
    return st;
}

static void run(const char *elf, const char *text, uint32_t engine, const kcase *c, result *r)
{
    memset(r, 0, sizeof *r);
    ws_device *dev = NULL;
    ws_module *mod = NULL;
    ws_kernel *k = NULL;
    r->open = open_dev(text, engine, &dev);
    if (r->open != WS_OK) return;
    CHECK(ws_module_load_file(dev, elf, &mod) == WS_OK);
    CHECK(ws_kernel_get(mod, c->kernel, &k) == WS_OK);
    ws_addr addr[5] = { 0 };
    ws_arg args[8];
    uint32_t na = 0, seed = 12345;
    static uint8_t host[32768];
    for (uint32_t i = 0; i < c->nbufs; i++) {
        CHECK(ws_malloc(dev, c->bufs[i].bytes, &addr[i]) == WS_OK);
        for (uint32_t j = 0; j < c->bufs[i].bytes; j++)
            host[j] = c->bufs[i].init ? (uint8_t)lcg(&seed) : 0;
        if (!strcmp(c->kernel, "widths") && i == 2) /* finite floats */
            for (uint32_t j = 0; j < c->bufs[i].bytes / 4; j++) {
                float f = (float)((int)(lcg(&seed) % 2001) - 1000) / 37.0f;
                memcpy(host + j * 4, &f, 4);
            }
        if ((!strcmp(c->kernel, "mm") || !strcmp(c->kernel, "vecadd")) && i < 2)
            for (uint32_t j = 0; j < c->bufs[i].bytes / 4; j++) {
                float f = (float)(lcg(&seed) % 7);
                memcpy(host + j * 4, &f, 4);
            }
        CHECK(ws_memcpy_htod(dev, addr[i], host, c->bufs[i].bytes) == WS_OK);
        args[na++] = WS_ARG_PTR(addr[i]);
    }
    for (uint32_t i = 0; i < c->nscalars; i++) args[na++] = WS_ARG_I32(c->scalars[i]);
    r->launch = ws_launch(dev, k, c->grid, c->block, 0, args, na);
    r->sync = ws_synchronize(dev);
    if (r->launch != WS_OK || r->sync != WS_OK) snprintf(r->err, sizeof r->err, "%s", ws_last_error(dev));
    ws_last_launch_stats(dev, &r->st);
    for (uint32_t i = 0; i < c->nbufs; i++) {
        if (r->len + c->bufs[i].bytes > sizeof r->mem) break;
        CHECK(ws_memcpy_dtoh(dev, r->mem + r->len, addr[i], c->bufs[i].bytes) == WS_OK);
        r->len += c->bufs[i].bytes;
    }
    ws_device_close(dev);
}

#define SAME(field) do { if (a->field != b->field) { \
    fprintf(stderr, "%s [%s]: %s differs: interp %llu, fast %llu\n", c->kernel, text, #field, \
            (unsigned long long)a->field, (unsigned long long)b->field); bad++; } } while (0)

static int compare(const char *text, const kcase *c, const result *a, const result *b)
{
    int bad = 0;
    SAME(open); SAME(launch); SAME(sync);
    SAME(st.launch_id); SAME(st.thread_instructions); SAME(st.warp_instructions); SAME(st.blocks);
    SAME(st.threads); SAME(st.cycles); SAME(st.shared_per_block); SAME(st.blocks_per_core); SAME(st.cores);
    SAME(st.thread_loads); SAME(st.thread_stores); SAME(st.thread_atomics); SAME(len);
    for (int i = 0; i < WS_STATS_MAX_CORES; i++) {
        SAME(st.core_blocks[i]);
        SAME(st.core_warp_instructions[i]);
    }
    if (strcmp(a->err, b->err)) {
        fprintf(stderr, "%s [%s]: reports differ:\n  interp: %s\n  fast:   %s\n", c->kernel, text, a->err, b->err);
        bad++;
    }
    if (a->len == b->len && memcmp(a->mem, b->mem, a->len)) {
        size_t i = 0;
        while (a->mem[i] == b->mem[i]) i++;
        fprintf(stderr, "%s [%s]: memory differs from byte %zu\n", c->kernel, text, i);
        bad++;
    }
    return bad;
}

static int32_t step_ref(uint32_t t, int variant, int n)
{
    uint32_t v = t;
    for (int i = 0; i < n; i++) v = v * (uint32_t)(variant * 2 + 1) + (uint32_t)variant * 1000u;
    return (int32_t)v;
}

/* Run `step` of the loaded module and check it against variant. */
static void run_step(ws_device *dev, ws_module *m, int variant, uint32_t engine)
{
    ws_kernel *k = NULL;
    ws_addr out = 0;
    int32_t host[256];
    CHECK(ws_kernel_get(m, "step", &k) == WS_OK);
    CHECK(ws_malloc(dev, sizeof host, &out) == WS_OK);
    ws_arg a[2] = { WS_ARG_PTR(out), WS_ARG_I32(40) };
    CHECK(ws_launch(dev, k, WS_DIM3(2, 1, 1), WS_DIM3(128, 1, 1), 0, a, 2) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, host, out, sizeof host) == WS_OK);
    int wrong = 0;
    for (uint32_t t = 0; t < 256; t++) wrong += host[t] != step_ref(t, variant, 40);
    if (wrong) fprintf(stderr, "reload: engine %u ran variant %d with %d wrong results\n", engine, variant, wrong);
    CHECK_EQ_U(wrong, 0);
    CHECK(ws_free(dev, out) == WS_OK);
}

static void reload(const char *elf1, const char *elf2, uint32_t engine)
{
    size_t n1 = 0, n2 = 0;
    unsigned char *img1 = ws_test_read_file(elf1, &n1), *img2 = ws_test_read_file(elf2, &n2);
    CHECK(img1 && img2);
    if (!img1 || !img2) { free(img1); free(img2); return; }
    ws_device *dev = NULL;
    ws_module *m = NULL;
    ws_addr base = 0, base2 = 0;
    uint32_t size = 0;
    CHECK(open_dev("", engine, &dev) == WS_OK);
    CHECK(ws_module_load_data(dev, img1, n1, "reload_1", &m) == WS_OK);
    CHECK(ws_module_base(m, &base, &size) == WS_OK);
    run_step(dev, m, 1, engine);
    for (int round = 0; round < 4; round++) { /* 2, 1, 2, 1 at the same address */
        int variant = round % 2 ? 1 : 2;
        CHECK(ws_module_unload(dev, m) == WS_OK);
        CHECK(ws_module_load_data_at(dev, variant == 2 ? img2 : img1, variant == 2 ? n2 : n1,
                                     variant == 2 ? "reload_2" : "reload_1", base, &m) == WS_OK);
        CHECK(ws_module_base(m, &base2, &size) == WS_OK);
        CHECK_EQ_U(base2, base);
        run_step(dev, m, variant, engine);
    }
    ws_device_close(dev);
    free(img1);
    free(img2);
}

int main(int argc, char **argv)
{
    if (argc < 4) { fprintf(stderr, "usage: %s engine_kernels.elf reload_1.elf reload_2.elf\n", argv[0]); return 2; }
    static result a, b;
    int differ = 0;
    for (size_t ci = 0; ci < sizeof configs / sizeof *configs; ci++)
        for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
            const kcase *c = &cases[k];
            run(argv[1], configs[ci], 1, c, &a);
            run(argv[1], configs[ci], 0, c, &b);
            int bad = compare(configs[ci], c, &a, &b);
            CHECK_EQ_U(bad, 0);
            differ += bad != 0;
            /* the kernels themselves must do what they are for */
            CHECK(a.open == WS_OK);
            int faults = !strncmp(c->kernel, "fault_", 6);
            CHECK(faults ? a.sync == WS_ERR_KERNEL_FAULT : a.sync == WS_OK);
            if (faults) CHECK_STR_CONTAINS(a.err, !strcmp(c->kernel, "fault_load") ? "thread (77," : "thread (45,");
            if (!ci) printf("%-14s %10llu warp-instructions, %s\n", c->kernel,
                            (unsigned long long)a.st.warp_instructions, bad ? "DIFFERENT" : "identical");
        }
    printf("%d of %zu runs differ between the engines\n", differ,
           sizeof configs / sizeof *configs * (sizeof cases / sizeof *cases));
    reload(argv[2], argv[3], 0);
    reload(argv[2], argv[3], 1);
    return TEST_SUMMARY();
}
