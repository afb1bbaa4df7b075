/* The struct parameter types of struct_param_kernels.c, shared with the
 * host test (test_struct_params.c): plain C, laid out alike by clang for
 * rv32 and by the host compiler (little-endian, double 8-byte aligned). */
#ifndef STRUCT_PARAM_TYPES_H
#define STRUCT_PARAM_TYPES_H
typedef struct { int a, b; } s_int2;
typedef struct { float x; } s_f1;
typedef struct { float x, y; } s_f2;
typedef struct { float x; int n; } s_fi;
typedef struct { char c; float x; } s_cf;
typedef struct { float x; short s; } s_fs;
typedef struct { double d; } s_d;
typedef struct { short s; char c; } s_sc;
typedef struct { int v[5]; float f; double d; } s_big;
typedef struct { float a[2]; } s_arr;
typedef struct { struct { float x; } in; int k; } s_nest;
typedef union { int i; float f; } u_if;
typedef struct { _Complex float z; } s_cplx;
typedef struct { } s_empty;
typedef struct { int a : 3; int b : 5; short c; } s_bits;
typedef struct __attribute__((packed)) { char c; int i; } s_packed;
typedef struct __attribute__((aligned(8))) { int a, b; } s_al8;
typedef struct { int v[256]; } s_k1;

#endif
