/* Kernels that take structs and unions by value, one of each shape the
 * ilp32f calling convention treats apart: in fa registers (one float, two
 * floats, a float and an integer, an array of two floats, a _Complex
 * float, a nested struct), in a registers (up to 8 bytes: a union, a
 * packed struct, bitfields, an 8-byte-aligned struct), by reference (a
 * copy per lane), and past the argument registers (on the stack). Each
 * lane writes what it reads of each field, as 32-bit words, to its row
 * of `out` (test_struct_params.c knows what it passed). */
#include <warpscope/kernel.h>
#include <string.h>

#include "struct_param_types.h"

#define ROW 16
static unsigned row(void) { return (blockIdx_x() * blockDim_x() + threadIdx_x()) * ROW; }
static int fbits(float f) { int i; memcpy(&i, &f, 4); return i; }

WS_KERNEL void k_int2(s_int2 p, int *out) { unsigned r = row(); out[r] = p.a; out[r + 1] = p.b; }
WS_KERNEL void k_f1(s_f1 p, int *out) { out[row()] = fbits(p.x); }
WS_KERNEL void k_f2(s_f2 p, int *out) { unsigned r = row(); out[r] = fbits(p.x); out[r + 1] = fbits(p.y); }
WS_KERNEL void k_fi(int *out, s_fi p) { unsigned r = row(); out[r] = fbits(p.x); out[r + 1] = p.n; }
WS_KERNEL void k_cf(s_cf p, int *out) { unsigned r = row(); out[r] = p.c; out[r + 1] = fbits(p.x); }
/* a negative short in an a register beside a float: the kernel extends it */
WS_KERNEL void k_fs(s_fs p, int *out) { unsigned r = row(); out[r] = fbits(p.x); out[r + 1] = p.s; }
WS_KERNEL void k_d(s_d p, int *out)
{
    long long b;
    memcpy(&b, &p.d, 8);
    unsigned r = row();
    out[r] = (int)b;
    out[r + 1] = (int)(b >> 32);
}
WS_KERNEL void k_sc(s_sc p, int *out) { unsigned r = row(); out[r] = p.s; out[r + 1] = p.c; }
/* each lane changes its own copy: no lane sees another's change */
WS_KERNEL void k_big(s_big p, int *out)
{
    unsigned r = row();
    p.v[0] += (int)threadIdx_x();
    for (int i = 0; i < 5; i++) out[r + i] = p.v[i];
    out[r + 5] = fbits(p.f);
    long long b;
    memcpy(&b, &p.d, 8);
    out[r + 6] = (int)b;
    out[r + 7] = (int)(b >> 32);
}
WS_KERNEL void k_arr(s_arr p, int *out) { unsigned r = row(); out[r] = fbits(p.a[0]); out[r + 1] = fbits(p.a[1]); }
WS_KERNEL void k_nest(s_nest p, int *out) { unsigned r = row(); out[r] = fbits(p.in.x); out[r + 1] = p.k; }
WS_KERNEL void k_union(u_if p, int *out) { out[row()] = p.i; }
WS_KERNEL void k_cplx(s_cplx p, int *out)
{
    unsigned r = row();
    out[r] = fbits(__real__ p.z);
    out[r + 1] = fbits(__imag__ p.z);
}
WS_KERNEL void k_empty(int a, s_empty e, int b, int *out)
{
    (void)e;
    unsigned r = row();
    out[r] = a;
    out[r + 1] = b;
}
WS_KERNEL void k_bits(s_bits p, int *out)
{
    unsigned r = row();
    out[r] = p.a;
    out[r + 1] = p.b;
    out[r + 2] = p.c;
}
WS_KERNEL void k_packed(s_packed p, int *out) { unsigned r = row(); out[r] = p.c; out[r + 1] = p.i; }
/* the a registers used up: the structs go on the stack, the big one's
 * address too (each lane's own copy), an 8-byte-aligned one 8-byte aligned */
WS_KERNEL void k_stack(int a0, int a1, int a2, int a3, int a4, int a5, int a6, int *out, int pad, s_al8 q,
                       s_big big, s_int2 t, s_f2 f)
{
    unsigned r = row();
    out[r] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + pad;
    out[r + 1] = q.a;
    out[r + 2] = q.b;
    big.v[4] += (int)threadIdx_x();
    out[r + 3] = big.v[0];
    out[r + 4] = big.v[4];
    out[r + 5] = fbits(big.f);
    out[r + 6] = t.a;
    out[r + 7] = t.b;
    out[r + 8] = fbits(f.x);
    out[r + 9] = fbits(f.y);
}
/* the fa registers used up: a float-and-int struct goes in a registers */
WS_KERNEL void k_nofpr(float f0, float f1, float f2, float f3, float f4, float f5, float f6, float f7, s_fi p,
                       int *out)
{
    unsigned r = row();
    out[r] = fbits(f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7);
    out[r + 1] = fbits(p.x);
    out[r + 2] = p.n;
}
/* 3 KiB of copies: more than a launch's argument area holds */
WS_KERNEL void k_three(s_k1 a, s_k1 b, s_k1 c, int *out) { out[row()] = a.v[255] + b.v[0] + c.v[1]; }
/* 1 KiB: fits the area, not half of a 1 KiB lane stack */
WS_KERNEL void k_one(s_k1 a, int *out) { out[row()] = a.v[255]; }
