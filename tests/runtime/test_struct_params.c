/* Structs and unions by value (WS_ARG_STRUCT): every shape the ilp32f
 * calling convention treats apart reaches the kernel field for field, on
 * every lane of two warps; a struct passed by reference is each lane's
 * own copy; the arguments past the registers go on the stack; the
 * parameter types say WS_TYPE_STRUCT and the size; wrong sizes and other
 * argument types are refused with the reason; modules with structs the
 * device does not pass are refused at load, naming them. Until 2026-11-29
 * every struct by value was refused at load.
 * usage: test_struct_params struct_param_kernels.elf [refused.elf huge.elf cxx.elf] */
#include <stdio.h>
#include <string.h>
#include "warpscope/warpscope.h"
#include "../test.h"
#include "struct_param_types.h"

#define THREADS 40
#define ROW 16

static ws_device *dev;
static ws_module *mod;
static ws_addr out;
static int got[THREADS * ROW];

static int fbits(float f) { int i; memcpy(&i, &f, 4); return i; }

/* Launch `name` with args (out among them) and read every lane's row. */
static int run(const char *name, const ws_arg *args, size_t n)
{
    ws_kernel *k;
    memset(got, 0x5a, sizeof got);
    if (ws_memcpy_htod(dev, out, got, sizeof got) || ws_kernel_get(mod, name, &k) ||
        ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(THREADS, 1, 1), 0, args, n) || ws_synchronize(dev) ||
        ws_memcpy_dtoh(dev, got, out, sizeof got)) {
        printf("FAIL %s: %s\n", name, ws_last_error(dev));
        return -1;
    }
    return 0;
}

/* Every lane's first n words are want[] (plus the lane index at `lane_at`
 * words, if not -1). */
static void expect_rows(const char *name, const int *want, int n, int lane_at)
{
    int bad = 0;
    for (int t = 0; t < THREADS && !bad; t++)
        for (int i = 0; i < n; i++) {
            int w = want[i] + (i == lane_at ? t : 0);
            if (got[t * ROW + i] != w) {
                printf("FAIL %s: lane %d word %d: %d (0x%08x), want %d (0x%08x)\n", name, t, i, got[t * ROW + i],
                       (unsigned)got[t * ROW + i], w, (unsigned)w);
                bad = 1;
                break;
            }
        }
    CHECK(!bad);
}

int main(int argc, char **argv)
{
    if (argc < 2) return 2;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_module_load_file(dev, argv[1], &mod) == WS_OK);
    CHECK(ws_malloc(dev, sizeof got, &out) == WS_OK);
    const ws_arg O = WS_ARG_PTR(out);

    { s_int2 p = { -7, 123456 }; ws_arg a[] = { WS_ARG_STRUCT(&p, sizeof p), O };
      if (!run("k_int2", a, 2)) expect_rows("k_int2", (int[]){ -7, 123456 }, 2, -1); }
    { s_f1 p = { 1.5f }; ws_arg a[] = { WS_ARG_STRUCT(&p, sizeof p), O };
      if (!run("k_f1", a, 2)) expect_rows("k_f1", (int[]){ fbits(1.5f) }, 1, -1); }
    { s_f2 p = { -2.25f, 1e10f }; ws_arg a[] = { WS_ARG_STRUCT(&p, sizeof p), O };
      if (!run("k_f2", a, 2)) expect_rows("k_f2", (int[]){ fbits(-2.25f), fbits(1e10f) }, 2, -1); }
    { s_fi p = { 0.125f, -99 }; ws_arg a[] = { O, WS_ARG_STRUCT(&p, sizeof p) };
      if (!run("k_fi", a, 2)) expect_rows("k_fi", (int[]){ fbits(0.125f), -99 }, 2, -1); }
    { s_cf p = { 'q', 3.0f }; ws_arg a[] = { WS_ARG_STRUCT(&p, sizeof p), O };
      if (!run("k_cf", a, 2)) expect_rows("k_cf", (int[]){ 'q', fbits(3.0f) }, 2, -1); }
    { s_fs p = { -0.5f, -300 }; ws_arg a[] = { WS_ARG_STRUCT(&p, sizeof p), O };
      if (!run("k_fs", a, 2)) expect_rows("k_fs", (int[]){ fbits(-0.5f), -300 }, 2, -1); }
    { s_d p = { -1.0 / 3 }; long long b; memcpy(&b, &p.d, 8); ws_arg a[] = { WS_ARG_STRUCT(&p, sizeof p), O };
      if (!run("k_d", a, 2)) expect_rows("k_d", (int[]){ (int)b, (int)(b >> 32) }, 2, -1); }
    { s_sc p = { -300, 'z' }; ws_arg a[] = { WS_ARG_STRUCT(&p, sizeof p), O };
      if (!run("k_sc", a, 2)) expect_rows("k_sc", (int[]){ -300, 'z' }, 2, -1); }
    { s_big p = { { 10, 20, 30, 40, 50 }, 6.5f, 2.0 }; long long b; memcpy(&b, &p.d, 8);
      ws_arg a[] = { WS_ARG_STRUCT(&p, sizeof p), O };
      /* v[0] + the lane's index: each lane changed its own copy only */
      if (!run("k_big", a, 2))
          expect_rows("k_big", (int[]){ 10, 20, 30, 40, 50, fbits(6.5f), (int)b, (int)(b >> 32) }, 8, 0); }
    { s_arr p = { { 7.0f, -0.0f } }; ws_arg a[] = { WS_ARG_STRUCT(&p, sizeof p), O };
      if (!run("k_arr", a, 2)) expect_rows("k_arr", (int[]){ fbits(7.0f), fbits(-0.0f) }, 2, -1); }
    { s_nest p = { { 9.75f }, 42 }; ws_arg a[] = { WS_ARG_STRUCT(&p, sizeof p), O };
      if (!run("k_nest", a, 2)) expect_rows("k_nest", (int[]){ fbits(9.75f), 42 }, 2, -1); }
    { u_if p; p.i = 0x3f800001; ws_arg a[] = { WS_ARG_STRUCT(&p, sizeof p), O };
      if (!run("k_union", a, 2)) expect_rows("k_union", (int[]){ 0x3f800001 }, 1, -1); }
    { s_cplx p; __real__ p.z = 4.0f; __imag__ p.z = -8.0f; ws_arg a[] = { WS_ARG_STRUCT(&p, sizeof p), O };
      if (!run("k_cplx", a, 2)) expect_rows("k_cplx", (int[]){ fbits(4.0f), fbits(-8.0f) }, 2, -1); }
    { s_empty e; ws_arg a[] = { WS_ARG_I32(5), WS_ARG_STRUCT(&e, sizeof e), WS_ARG_I32(6), O };
      if (!run("k_empty", a, 4)) expect_rows("k_empty", (int[]){ 5, 6 }, 2, -1); }
    { s_bits p = { -3, 11, -1234 }; ws_arg a[] = { WS_ARG_STRUCT(&p, sizeof p), O };
      if (!run("k_bits", a, 2)) expect_rows("k_bits", (int[]){ -3, 11, -1234 }, 3, -1); }
    { s_packed p = { 'x', 0x12345678 }; ws_arg a[] = { WS_ARG_STRUCT(&p, sizeof p), O };
      CHECK(sizeof p == 5);
      if (!run("k_packed", a, 2)) expect_rows("k_packed", (int[]){ 'x', 0x12345678 }, 2, -1); }
    { s_al8 q = { 71, 72 }; s_big big = { { 1, 2, 3, 4, 5 }, 0.5f, 0 }; s_int2 t = { 81, 82 };
      s_f2 f = { 91.0f, 92.0f };
      ws_arg a[] = { WS_ARG_I32(1), WS_ARG_I32(2), WS_ARG_I32(3), WS_ARG_I32(4), WS_ARG_I32(5), WS_ARG_I32(6),
                     WS_ARG_I32(7), O, WS_ARG_I32(8), WS_ARG_STRUCT(&q, sizeof q), WS_ARG_STRUCT(&big, sizeof big),
                     WS_ARG_STRUCT(&t, sizeof t), WS_ARG_STRUCT(&f, sizeof f) };
      if (!run("k_stack", a, 13))
          expect_rows("k_stack", (int[]){ 36, 71, 72, 1, 5, fbits(0.5f), 81, 82, fbits(91.0f), fbits(92.0f) }, 10, 4); }
    { s_fi p = { -4.5f, 77 };
      ws_arg a[] = { WS_ARG_F32(1), WS_ARG_F32(2), WS_ARG_F32(3), WS_ARG_F32(4), WS_ARG_F32(5), WS_ARG_F32(6),
                     WS_ARG_F32(7), WS_ARG_F32(8), WS_ARG_STRUCT(&p, sizeof p), O };
      if (!run("k_nofpr", a, 10)) expect_rows("k_nofpr", (int[]){ fbits(36.0f), fbits(-4.5f), 77 }, 3, -1); }

    /* what the parameter types say */
    ws_kernel *k;
    ws_param_type t;
    CHECK(ws_kernel_get(mod, "k_big", &k) == WS_OK && ws_kernel_param_type(k, 0, &t) == WS_OK);
    CHECK(t.arg == WS_TYPE_STRUCT && t.size == sizeof(s_big) && t.bits == 8 * sizeof(s_big));
    const char *pname, *tname;
    CHECK(ws_kernel_param(k, 0, &pname, &tname) == WS_OK && !strcmp(pname, "p") && !strcmp(tname, "s_big"));

    /* refused: another size, NULL bytes, another argument type */
    s_int2 small = { 1, 2 };
    ws_arg wrong[] = { WS_ARG_STRUCT(&small, sizeof small), O };
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, wrong, 2) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "parameter 0 'p' has type 's_big': got 8 bytes; the struct is 32");
    ws_arg null_bytes[] = { WS_ARG_STRUCT(NULL, sizeof(s_big)), O };
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, null_bytes, 2) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "got NULL for 32 bytes");
    ws_arg ptr[] = { O, O };
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, ptr, 2) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "got an argument of type ptr");
    /* 1 KiB fits the launch's argument area (each lane its own copy) ... */
    static s_k1 k1;
    for (int i = 0; i < 256; i++) k1.v[i] = i * 3;
    { ws_arg a[] = { WS_ARG_STRUCT(&k1, sizeof k1), O };
      if (!run("k_one", a, 2)) expect_rows("k_one", (int[]){ 255 * 3 }, 1, -1); }
    /* ... three do not: refused before anything runs */
    ws_arg three[] = { WS_ARG_STRUCT(&k1, sizeof k1), WS_ARG_STRUCT(&k1, sizeof k1), WS_ARG_STRUCT(&k1, sizeof k1), O };
    CHECK(ws_kernel_get(mod, "k_three", &k) == WS_OK);
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, three, 4) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "launch of 'k_three': the arguments take more than 2048 bytes of each "
                       "lane's stack (struct copies included)");
    ws_device_close(dev);

    /* with 1 KiB lane stacks a 1 KiB copy does not fit half of one */
    ws_config tiny_stacks;
    char cerr[128];
    ws_config_default(&tiny_stacks);
    CHECK(ws_config_parse(&tiny_stacks, "stack_per_lane=1K", cerr, sizeof cerr) == WS_OK);
    CHECK(ws_device_open(&tiny_stacks, &dev) == WS_OK && ws_module_load_file(dev, argv[1], &mod) == WS_OK);
    CHECK(ws_malloc(dev, sizeof got, &out) == WS_OK && ws_kernel_get(mod, "k_one", &k) == WS_OK);
    ws_arg one[] = { WS_ARG_STRUCT(&k1, sizeof k1), WS_ARG_PTR(out) };
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, one, 2) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "the arguments take 1024 bytes of each lane's stack (struct copies "
                       "included); at most 512 fit (half of stack_per_lane=1024)");
    ws_device_close(dev);

    /* modules the device cannot pass a struct of: refused at load, by name */
    for (int i = 2; i < argc; i++) {
        CHECK(ws_device_open(NULL, &dev) == WS_OK);
        ws_module *m = NULL;
        CHECK(ws_module_load_file(dev, argv[i], &m) == WS_ERR_BAD_MODULE);
        const char *e = ws_last_error(dev);
        printf("refused: %s\n", e);
        CHECK(strstr(e, "parameter 0 'p' has type 's_fbits' passed by value: a struct of floats beside a bitfield") ||
              strstr(e, "parameter 0 'p' has type 's_huge' passed by value: it is 1200 bytes; kernels take structs "
                        "of at most 1024 bytes by value") ||
              strstr(e, "parameter 0 'c' has type 'struct counter' passed by value: a C++ class with base classes or member "
                        "functions is not passed by value here"));
        ws_device_close(dev);
    }
    return TEST_SUMMARY();
}
