/* Parameters that point to arrays or vectors. Before 2026-11-27 the loader
 * spelt 'float (*rows)[4]' as "float[] *" and, reading two levels of
 * pointer-or-array, took its elements for addresses: ws_kernel_param_type
 * said pointee_float 0, so 'warpscope run ... iota:N' filled a float
 * buffer with integers, and the same for a pointer to a float vector and
 * a byte-sized pointee ("unsigned char (*)[4]" read as 4-byte elements).
 * A pointer declared _Atomic ('int * _Atomic p') made the whole module
 * fail to load ("has type '?' passed by value"). A pointer to anything is
 * a pointer parameter; vectors and structs by value stay refused.
 * usage: test_pointer_params POINTERS.elf ATOMIC.elf VECTOR_VALUE.elf VECTOR_STRUCT.elf */
#include <string.h>
#include "warpscope/warpscope.h"
#include "../test.h"

static const struct expect {
    int module; /* 0: POINTERS.elf, 1: ATOMIC.elf */
    const char *kernel;
    uint32_t param;
    const char *type;
    ws_arg_type arg;
    int pointee_float, pointee_unsigned;
    uint32_t pointee_size;
} expected[] = {
    { 0, "scale_rows", 0, "float (*)[4]", WS_TYPE_PTR, 1, 0, 4 },
    { 0, "scale_rows", 1, "float", WS_TYPE_F32, 0, 0, 0 },
    { 0, "cube", 0, "int (*)[3][4]", WS_TYPE_PTR, 0, 0, 4 },
    { 0, "bytes", 0, "unsigned char (*)[4]", WS_TYPE_PTR, 0, 1, 1 },
    { 0, "scale_vec", 0, "float4 *", WS_TYPE_PTR, 1, 0, 4 },
    { 0, "halves", 0, "short2 *", WS_TYPE_PTR, 0, 0, 2 },
    { 0, "row_ptrs", 0, "float *(*)[2]", WS_TYPE_PTR, 0, 0, 4 },  /* elements are addresses */
    { 0, "fn_ptrs", 0, "int (**)(int)", WS_TYPE_PTR, 0, 0, 4 },
    { 0, "const_rows", 0, "const float (*)[4]", WS_TYPE_PTR, 1, 0, 4 },
    { 0, "const_rows", 1, "float * const * restrict", WS_TYPE_PTR, 0, 0, 4 },
    { 1, "atomic_ptr", 0, "int * _Atomic", WS_TYPE_PTR, 0, 0, 4 },
    { 1, "atomic_ptr", 1, "_Atomic int", WS_TYPE_I32, 0, 0, 0 },
};

static void check_params(ws_module *m, int module)
{
    for (size_t i = 0; i < sizeof expected / sizeof *expected; i++) {
        const struct expect *e = &expected[i];
        const char *name, *type = "";
        ws_kernel *k;
        ws_param_type t;
        if (e->module != module) continue;
        memset(&t, 0xff, sizeof t);
        CHECK(ws_kernel_get(m, e->kernel, &k) == WS_OK);
        CHECK(ws_kernel_param(k, e->param, &name, &type) == WS_OK);
        CHECK(ws_kernel_param_type(k, e->param, &t) == WS_OK);
        if (strcmp(type, e->type) || t.arg != e->arg || t.pointee_float != e->pointee_float ||
            t.pointee_unsigned != e->pointee_unsigned || t.pointee_size != e->pointee_size) {
            fprintf(stderr, "%s parameter %u: '%s' arg %d pointee float %d unsigned %d size %u; expected '%s' arg %d "
                    "%d %d %u\n", e->kernel, e->param, type, t.arg, t.pointee_float, t.pointee_unsigned,
                    t.pointee_size, e->type, e->arg, e->pointee_float, e->pointee_unsigned, e->pointee_size);
            CHECK(0);
        }
    }
}

int main(int argc, char **argv)
{
    if (argc != 5) return 2;
    ws_device *dev;
    ws_module *m;
    ws_kernel *k;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    if (ws_module_load_file(dev, argv[1], &m) != WS_OK) {
        fprintf(stderr, "load: %s\n", ws_last_error(dev));
        CHECK(0);
        ws_device_close(dev);
        return TEST_SUMMARY();
    }
    check_params(m, 0);

    /* The launch takes a pointer for them, and nothing else. */
    float rows[2][4] = { { 1, 2, 3, 4 }, { 5, 6, 7, 8 } }, got[2][4];
    ws_addr a, b;
    CHECK(ws_malloc(dev, sizeof rows, &a) == WS_OK);
    CHECK(ws_memcpy_htod(dev, a, rows, sizeof rows) == WS_OK);
    CHECK(ws_kernel_get(m, "scale_rows", &k) == WS_OK);
    ws_arg bad[] = { WS_ARG_I32((int32_t)a), WS_ARG_F32(2.0f) };
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(2, 1, 1), 0, bad, 2) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "parameter 0 'rows' has type 'float (*)[4]': got an argument of type i32");
    ws_arg good[] = { WS_ARG_PTR(a), WS_ARG_F32(2.0f) };
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(2, 1, 1), 0, good, 2) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, got, a, sizeof got) == WS_OK);
    for (int r = 0; r < 2; r++)
        for (int j = 0; j < 4; j++) CHECK(got[r][j] == 2 * rows[r][j]);

    /* An _Atomic pointer is a pointer, an _Atomic int an int. */
    ws_module *ma;
    int vals[2] = { 0, 0 };
    CHECK(ws_malloc(dev, sizeof vals, &b) == WS_OK);
    if (ws_module_load_file(dev, argv[2], &ma) != WS_OK) {
        fprintf(stderr, "load: %s\n", ws_last_error(dev));
        CHECK(0);
        ws_device_close(dev);
        return TEST_SUMMARY();
    }
    check_params(ma, 1);
    CHECK(ws_kernel_get(ma, "atomic_ptr", &k) == WS_OK);
    ws_arg at[] = { WS_ARG_PTR(b), WS_ARG_I32(-7) };
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(2, 1, 1), 0, at, 2) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, vals, b, sizeof vals) == WS_OK);
    CHECK(vals[0] == -7 && vals[1] == -7);

    /* By value, a vector (ext_vector_type) is refused; a struct holding
     * one is passed (a copy of its 16 bytes per lane, since 2026-11-29). */
    ws_module *v;
    CHECK(ws_module_load_file(dev, argv[3], &v) == WS_ERR_BAD_MODULE);
    CHECK_STR_CONTAINS(ws_last_error(dev), "kernel 'take_f4' parameter 0 'v' has type 'float4' passed by value");
    CHECK(ws_module_load_file(dev, argv[4], &v) == WS_OK);
    const float boxed[4] = { 1.5f, 2.5f, 3.5f, 4.5f };
    float zs[2] = { 0, 0 };
    ws_arg bx[] = { WS_ARG_STRUCT(boxed, sizeof boxed), WS_ARG_PTR(b) };
    CHECK(ws_kernel_get(v, "take_boxed", &k) == WS_OK);
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(2, 1, 1), 0, bx, 2) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, zs, b, sizeof zs) == WS_OK);
    CHECK(zs[0] == 3.5f && zs[1] == 3.5f);
    CHECK(ws_device_close(dev) == WS_OK);
    return TEST_SUMMARY();
}
