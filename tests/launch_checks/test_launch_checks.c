/* Launch misuse (wrong kernel, arguments, shapes, modules) gets a clear
 * error and leaves the device working; and runs are deterministic: same
 * results, statistics and printf stream, bit for bit. */
#include <stdlib.h>
#include <string.h>
#include "warpscope/warpscope.h"
#include "../test.h"


static int works(ws_device *dev, ws_kernel *k)
{
    ws_addr o;
    float r[64];
    if (ws_malloc(dev, sizeof r, &o)) return 0;
    ws_arg a[] = { WS_ARG_PTR(o), WS_ARG_I32(64), WS_ARG_F32(2.0f), WS_ARG_I32(3), WS_ARG_I64(10), WS_ARG_F64(0.5) };
    int ok = ws_launch(dev, k, WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0, a, 6) == WS_OK &&
             ws_memcpy_dtoh(dev, r, o, sizeof r) == WS_OK && r[63] == 16.5f;
    ws_free(dev, o);
    return ok;
}

static void misuse(const char *path)
{
    ws_device *dev;
    ws_module *mod, *mod2;
    ws_kernel *k, *k2;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_module_load_file(dev, path, &mod) == WS_OK);
    CHECK(ws_kernel_get(mod, "nope", &k) == WS_ERR_NOT_FOUND);
    CHECK_STR_CONTAINS(ws_last_error(dev), "no kernel named 'nope' (kernels: typed, busy, flag)");
    CHECK(ws_kernel_get(mod, "typed", &k) == WS_OK);
    CHECK(works(dev, k));
    ws_kernel *fk = NULL;
    ws_addr o = 0;
    int got = 0;
    CHECK(ws_kernel_get(mod, "flag", &fk) == WS_OK && ws_malloc(dev, 4, &o) == WS_OK);
    ws_arg fa[2] = { WS_ARG_PTR(o), WS_ARG_U32(2) };
    CHECK(ws_launch(dev, fk, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, fa, 2) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "launch of 'flag': parameter 1 'b' has type '_Bool': value 2 is out of range 0..1 "
                       "(a bool is 0 or 1)");
    /* the same lines as `warpscope run` (check_run_args.sh) */
    fa[1] = WS_ARG_I32(-1);
    CHECK(ws_launch(dev, fk, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, fa, 2) == WS_ERR_BAD_LAUNCH);
    CHECK(!strcmp(ws_last_error(dev), "launch of 'flag': parameter 1 'b' has type '_Bool': value -1 is out of "
                  "range 0..1 (a bool is 0 or 1)"));
    fa[1] = WS_ARG_U32(1);
    CHECK(ws_launch(dev, fk, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, fa, 2) == WS_OK && ws_synchronize(dev) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, &got, o, 4) == WS_OK && got == 11);
    const char *pn, *pt;
    CHECK_EQ_U(ws_kernel_param_count(k), 6);
    CHECK(ws_kernel_param(k, 3, &pn, &pt) == WS_OK);
    CHECK(!strcmp(pn, "c") && !strcmp(pt, "char"));

    ws_arg good[] = { WS_ARG_PTR(0x01000000), WS_ARG_I32(1), WS_ARG_F32(1), WS_ARG_I32(1), WS_ARG_I64(1), WS_ARG_F64(1) };
    ws_arg bad[6];
    memcpy(bad, good, sizeof bad);
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, good, 5) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "launch of 'typed': 5 arguments given, the kernel takes 6");
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, good, 1) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "launch of 'typed': 1 argument given, the kernel takes 6");
    bad[0] = WS_ARG_F32(1.0f);
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, bad, 6) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "parameter 0 'out' has type 'float *': got an argument of type f32");
    memcpy(bad, good, sizeof bad);
    bad[1] = WS_ARG_I64(5);
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, bad, 6) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "parameter 1 'n' has type 'int': got an argument of type i64");
    memcpy(bad, good, sizeof bad);
    bad[3] = WS_ARG_I32(300);
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, bad, 6) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "launch of 'typed': parameter 3 'c' has type 'char': value 300 is out of range 0..255");
    CHECK(ws_launch(dev, k, WS_DIM3(0, 1, 1), WS_DIM3(1, 1, 1), 0, good, 6) == WS_ERR_BAD_LAUNCH);
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(2048, 1, 1), 0, good, 6) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "has 2048 threads; the device allows at most 256 per block");
    /* 320 * 107367629 * 536903681 = 2^64 + 64: must not wrap to 64 threads */
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(320, 107367629, 536903681), 0, good, 6) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "block (320,107367629,536903681) has more than 2^64 threads");
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(65536, 65536, 1), 0, good, 6) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "has 4294967296 threads");
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 1u << 20, good, 6) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "bytes of shared memory");
    CHECK(works(dev, k));

    /* malformed and truncated modules: clean errors, never a crash */
    size_t len = 0;
    uint8_t *img = ws_test_read_file(path, &len);
    CHECK(img != NULL);
    int clean = 1, loaded = 0;
    for (size_t cut = 0; img && cut < len; cut += cut < 4096 ? 7 : 997) {
        ws_module *m;
        ws_status st = ws_module_load_data(dev, img, cut, "truncated.elf", &m);
        if (st == WS_OK) { loaded++; ws_module_unload(dev, m); }
        else clean &= st == WS_ERR_BAD_MODULE && strstr(ws_last_error(dev), "truncated.elf") != NULL;
    }
    uint32_t seed = 99;
    for (int i = 0; img && i < 300; i++) {
        uint8_t *copy = malloc(len);
        memcpy(copy, img, len);
        for (int f = 0; f < 4; f++) {
            seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5;
            copy[seed % (len < 4096 ? len : 4096)] ^= (uint8_t)(seed >> 24 | 1);
        }
        ws_module *m;
        ws_status st = ws_module_load_data(dev, copy, len, "flipped.elf", &m);
        if (st == WS_OK) ws_module_unload(dev, m);
        else clean &= st == WS_ERR_BAD_MODULE;
        free(copy);
    }
    CHECK(clean);
    CHECK_EQ_U(loaded, 0);
    CHECK(works(dev, k));

    /* two copies resident: the second is relocated; unloading one leaves the other */
    CHECK(ws_module_load_data(dev, img, len, "second copy", &mod2) == WS_OK);
    CHECK(ws_kernel_get(mod2, "typed", &k2) == WS_OK);
    ws_addr b1, b2;
    ws_module_base(mod, &b1, NULL);
    ws_module_base(mod2, &b2, NULL);
    CHECK(b1 != b2);
    CHECK(works(dev, k2));
    CHECK(ws_module_unload(dev, mod) == WS_OK);
    CHECK(works(dev, k2));
    free(img);
    ws_device_close(dev);
}

typedef struct stream { char text[1 << 16]; size_t len; } stream;
static void sink(void *u, uint64_t l, ws_dim3 b, ws_dim3 t, const char *s, size_t n)
{
    (void)l; (void)b; (void)t;
    stream *st = u;
    if (st->len + n < sizeof st->text) { memcpy(st->text + st->len, s, n); st->len += n; }
}

typedef struct outcome { unsigned bins[17]; unsigned order[4096]; ws_launch_stats stats; stream out; } outcome;

static void run_busy(const char *path, const char *config, outcome *o)
{
    ws_config cfg;
    ws_config_default(&cfg);
    CHECK(ws_config_parse(&cfg, config, NULL, 0) == WS_OK);
    ws_device *dev;
    ws_module *mod;
    ws_kernel *k;
    memset(o, 0, sizeof *o);
    CHECK(ws_device_open(&cfg, &dev) == WS_OK);
    CHECK(ws_module_load_file(dev, path, &mod) == WS_OK && ws_kernel_get(mod, "busy", &k) == WS_OK);
    ws_set_printf_handler(dev, sink, &o->out);
    unsigned in[4096];
    for (int i = 0; i < 4096; i++) in[i] = (unsigned)i * 2654435761u >> 7;
    ws_addr din = 0, dbins = 0, dorder = 0;
    CHECK(ws_malloc(dev, sizeof in, &din) == WS_OK && ws_malloc(dev, sizeof o->bins, &dbins) == WS_OK &&
          ws_malloc(dev, sizeof o->order, &dorder) == WS_OK);
    ws_memcpy_htod(dev, din, in, sizeof in);
    ws_arg a[] = { WS_ARG_PTR(din), WS_ARG_PTR(dbins), WS_ARG_PTR(dorder), WS_ARG_I32(4096) };
    CHECK(ws_launch(dev, k, WS_DIM3(8, 1, 1), WS_DIM3(128, 1, 1), 0, a, 4) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, o->bins, dbins, sizeof o->bins) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, o->order, dorder, sizeof o->order) == WS_OK);
    ws_last_launch_stats(dev, &o->stats);
    ws_device_close(dev);
}

static void determinism(const char *path)
{
    static outcome a, b, c, d;
    /* The arrival order is a race between blocks: bit for bit on one host
     * thread, every run (docs/parallel.md) */
    run_busy(path, "threads=1", &a);
    run_busy(path, "threads=1", &b);
    CHECK(memcmp(a.bins, b.bins, sizeof a.bins) == 0);
    CHECK(memcmp(a.order, b.order, sizeof a.order) == 0);
    CHECK(a.out.len > 0 && a.out.len == b.out.len && memcmp(a.out.text, b.out.text, a.out.len) == 0);
    CHECK_EQ_U(a.stats.thread_instructions, b.stats.thread_instructions);
    CHECK_EQ_U(a.stats.warp_instructions, b.stats.warp_instructions);
    CHECK(a.stats.simt_efficiency == b.stats.simt_efficiency);
    CHECK_EQ_U(a.bins[16], 4096);
    /* another scheduling quantum interleaves warps differently: the
     * histogram is the same, the arrival order may not be */
    run_busy(path, "threads=1,warp_quantum=5", &c);
    CHECK(memcmp(a.bins, c.bins, sizeof a.bins) == 0);
    /* ... and so do the cores on several host threads: every atomic once */
    run_busy(path, "threads=2", &d);
    CHECK(memcmp(a.bins, d.bins, sizeof a.bins) == 0);
    CHECK_EQ_U(d.stats.thread_atomics, a.stats.thread_atomics);
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: test_launch_checks MODULE\n"); return 2; }
    misuse(argv[1]);
    determinism(argv[1]);
    return TEST_SUMMARY();
}
