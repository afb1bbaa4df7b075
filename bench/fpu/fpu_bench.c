/* What a host charges for MXCSR writes around SSE work, and what one
 * float warp-instruction costs through ws_fpu_exec in the cases that
 * differ: lanes that have the flags the operation raises or not, exact or
 * inexact results, the caller's own flags set or clear.
 * (docs/performance.md, "MXCSR writes on Intel hosts".)
 * usage: fpu_bench [iterations] */
#include <fenv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "isa/fpu.h"
#include "isa/isa.h"

#if defined(__x86_64__)
#include <immintrin.h>
#define HAVE_MXCSR 1
#else
#define HAVE_MXCSR 0
#endif

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static float fa[32], fb[32], fc[32], ft[32];

#if HAVE_MXCSR
/* A warp's fused multiply-adds, four lanes per instruction, as the FPU's
 * fast path does them. */
__attribute__((noinline, target("fma"))) static void lanes(void)
{
    for (int i = 0; i < 32; i += 4)
        _mm_storeu_ps(ft + i, _mm_fmadd_ps(_mm_loadu_ps(fa + i), _mm_loadu_ps(fb + i), _mm_loadu_ps(fc + i)));
}

/* ns per warp of lanes() with MXCSR written around it as `how` says */
static double raw(long n, int how)
{
    const unsigned base = _mm_getcsr() & ~0x3Fu; /* flags clear */
    _mm_setcsr(base);
    double t0 = now();
    for (long k = 0; k < n; k++) {
        const unsigned s = _mm_getcsr();
        if (how == 1) _mm_setcsr(s);            /* writes that change nothing */
        if (how == 2) _mm_setcsr(s ^ 0x6000u);  /* ... that change the rounding mode */
        if (how == 3) _mm_setcsr(s ^ 0x20u);    /* ... that flip the inexact flag */
        lanes();
        if (how) _mm_setcsr(s);
        fc[k & 31] = ft[(k * 7) & 31] * 0.0f + 0.25f;
    }
    double t = now() - t0;
    _mm_setcsr(base);
    return t / (double)n * 1e9;
}
#endif

/* ns per ws_fpu_exec of op (rounding mode rm) over a full warp */
static double warp(long n, ws_op op, unsigned rm, int inexact, int lanes_have_nx, int host_flags_set)
{
    uint32_t a[32], b[32], c[32], d[32];
    uint8_t frm[32], ff[32];
    for (int i = 0; i < 32; i++) {
        float x = inexact ? 1.1f + (float)i / 7.0f : 0.25f * (float)(i % 17);
        float y = inexact ? 0.3f * (float)i + 0.1f : 0.5f * (float)(i % 5);
        float z = 0.25f;
        memcpy(&a[i], &x, 4);
        memcpy(&b[i], &y, 4);
        memcpy(&c[i], &z, 4);
        frm[i] = 0;
    }
    ws_inst in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.rm = (uint8_t)rm;
    ws_fpu_lanes l = { a, b, c, d, frm, ff };
    ws_fpu_host saved;
    ws_fpu_host_save(&saved);
    feclearexcept(FE_ALL_EXCEPT);
    if (host_flags_set) feraiseexcept(FE_INEXACT);
    double t0 = now();
    for (long k = 0; k < n; k++) {
        memset(ff, lanes_have_nx ? WS_FFLAG_NX : 0, sizeof ff); /* a new warp's lanes have none */
        ws_fpu_exec(&in, 0xFFFFFFFFu, &l, NULL);
        c[k & 31] = d[(k * 7) & 31] & 0x807FFFFFu ? c[k & 31] : d[0]; /* a dependence, no change */
    }
    double t = now() - t0;
    ws_fpu_host_restore(&saved);
    return t / (double)n * 1e9;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 2000000;
    if (n <= 0) {
        fprintf(stderr, "usage: %s [iterations > 0]\n", argv[0]);
        return 2;
    }
    for (int i = 0; i < 32; i++) { fa[i] = 0.25f * (float)(i % 17); fb[i] = 0.5f * (float)(i % 5); fc[i] = 0.25f; }
#if HAVE_MXCSR
    printf("a warp of vfmadd (8 x 4 lanes), ns per warp, %ld iterations:\n", n);
    printf("  no MXCSR writes                      %6.1f\n", raw(n, 0));
    printf("  writes that change nothing           %6.1f\n", raw(n, 1));
    printf("  writes that change the rounding mode %6.1f\n", raw(n, 2));
    printf("  writes that flip a status flag       %6.1f\n", raw(n, 3));
#endif
    printf("ws_fpu_exec, fmadd.s over 32 lanes, ns per warp-instruction:\n");
    printf("  exact results,   host flags clear    %6.1f\n", warp(n, OP_FMADD_S, 0, 0, 0, 0));
    printf("  exact results,   host inexact set    %6.1f\n", warp(n, OP_FMADD_S, 0, 0, 0, 1));
    printf("  inexact, lanes already inexact       %6.1f\n", warp(n, OP_FMADD_S, 0, 1, 1, 1));
    printf("  inexact, lanes without the flag      %6.1f\n", warp(n / 10, OP_FMADD_S, 0, 1, 0, 1));
    /* rounding up: the upper bounds of interval arithmetic */
    printf("the same rounding up (rm = rup), inexact results:\n");
    printf("  fadd.s,  lanes already inexact       %6.1f\n", warp(n, OP_FADD_S, WS_RM_RUP, 1, 1, 1));
    printf("  fadd.s,  lanes without the flag      %6.1f\n", warp(n / 10, OP_FADD_S, WS_RM_RUP, 1, 0, 1));
    printf("  fmadd.s, lanes already inexact       %6.1f\n", warp(n / 10, OP_FMADD_S, WS_RM_RUP, 1, 1, 1));
    printf("  fmadd.s, lanes without the flag      %6.1f\n", warp(n / 10, OP_FMADD_S, WS_RM_RUP, 1, 0, 1));
    return 0;
}
