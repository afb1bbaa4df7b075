/* Directed FPU tests: every rounding mode (RMM ties included), canonical
 * NaN, flags, fcvt saturation, fmin/fmax and compare NaN rules, fclass,
 * single-rounding FMA and its sign rules, subnormals and tininess after
 * rounding, rounding-mode legality; then random cross-checks against the
 * host (float ops and glibc fmaf under fesetround), and the warp-wide entry
 * (partial masks, aliasing, mixed dynamic modes, flag attribution) against
 * the scalar one. */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__)
#include <xmmintrin.h>
#endif

#include "isa/fpu.h"
#include "isa/isa.h"
#include "test.h"

enum { RNE = 0, RTZ = 1, RDN = 2, RUP = 3, RMM = 4, DYN = 7 };
enum { NX = WS_FFLAG_NX, UF = WS_FFLAG_UF, OF = WS_FFLAG_OF, DZ = WS_FFLAG_DZ, NV = WS_FFLAG_NV };
#define CNAN WS_CANONICAL_NAN

/* a few constants */
#define P0 0x00000000u
#define N0 0x80000000u
#define ONE 0x3F800000u
#define MONE 0xBF800000u
#define TWO 0x40000000u
#define HALF 0x3F000000u
#define PINF 0x7F800000u
#define NINF 0xFF800000u
#define F_QNAN 0x7FC00000u
#define F_SNAN 0x7F800001u
#define MAXF 0x7F7FFFFFu
#define MINN 0x00800000u

static ws_inst inst(ws_op op, unsigned rm)
{
    ws_inst in;
    memset(&in, 0, sizeof in);
    in.op = (uint16_t)op;
    in.rm = (uint8_t)rm;
    in.len = 4;
    return in;
}

static void check1(int line, ws_op op, unsigned rm, uint8_t frm, uint32_t a, uint32_t b, uint32_t c,
                   uint32_t want, unsigned want_fl)
{
    ws_inst in = inst(op, rm);
    uint32_t d = 0xDEADBEEF;
    uint8_t fl = 0;
    int rc = ws_fpu_exec1(&in, a, b, c, frm, &d, &fl);
    if (rc == 0 && d == want && fl == want_fl) ws_test_passed++;
    else {
        ws_test_failed++;
        fprintf(stderr, "test_fpu.c:%d: %s rm=%u a=0x%08x b=0x%08x c=0x%08x: got 0x%08x fl=0x%02x rc=%d, "
                        "want 0x%08x fl=0x%02x\n", line, ws_op_name(op), rm, a, b, c, d, fl, rc, want, want_fl);
    }
    /* The same case in every lane of a warp (the warp paths: flags read
     * from the host, or found in software), with the lanes' flags clear and
     * with NX accrued before. */
    for (int pre = 0; pre < 2; pre++) {
        uint32_t va[32], vb[32], vc[32], vd[32];
        uint8_t vfrm[32], vfl[32];
        for (int i = 0; i < 32; i++) va[i] = a, vb[i] = b, vc[i] = c, vd[i] = 0xDEADBEEF, vfrm[i] = frm,
                                     vfl[i] = pre ? NX : 0;
        ws_fpu_lanes l = { va, vb, vc, vd, vfrm, vfl };
        int bad = 0;
        rc = ws_fpu_exec(&in, 0xFFFFFFFFu, &l, &bad);
        int same = rc == 0;
        for (int i = 0; i < 32; i++) same &= vd[i] == want && vfl[i] == (want_fl | (pre ? NX : 0));
        if (same) { ws_test_passed++; continue; }
        ws_test_failed++;
        fprintf(stderr, "test_fpu.c:%d: warp %s rm=%u a=0x%08x b=0x%08x c=0x%08x (NX before: %d): lane 0 got "
                        "0x%08x fl=0x%02x rc=%d, want 0x%08x fl=0x%02x\n", line, ws_op_name(op), rm, a, b, c, pre,
                vd[0], vfl[0], rc, want, want_fl | (pre ? NX : 0));
    }
}

/* static rounding mode; frm deliberately invalid to show it is not read */
#define T(op, rm, a, b, c, want, fl) check1(__LINE__, OP_##op, rm, 6, a, b, c, want, fl)
/* dynamic rounding mode */
#define TD(op, frm, a, b, c, want, fl) check1(__LINE__, OP_##op, DYN, frm, a, b, c, want, fl)

static void test_rounding_modes(void)
{
    const uint32_t EPS24 = 0x33800000u; /* 2^-24: half an ulp of 1.0 */
    /* 1 + 2^-24 is a tie; 1.0 is even */
    T(FADD_S, RNE, ONE, EPS24, 0, ONE, NX);
    T(FADD_S, RTZ, ONE, EPS24, 0, ONE, NX);
    T(FADD_S, RDN, ONE, EPS24, 0, ONE, NX);
    T(FADD_S, RUP, ONE, EPS24, 0, 0x3F800001u, NX);
    T(FADD_S, RMM, ONE, EPS24, 0, 0x3F800001u, NX);
    T(FADD_S, RNE, MONE, 0xB3800000u, 0, MONE, NX);
    T(FADD_S, RTZ, MONE, 0xB3800000u, 0, MONE, NX);
    T(FADD_S, RDN, MONE, 0xB3800000u, 0, 0xBF800001u, NX);
    T(FADD_S, RUP, MONE, 0xB3800000u, 0, MONE, NX);
    T(FADD_S, RMM, MONE, 0xB3800000u, 0, 0xBF800001u, NX);
    /* (1 + 2^-23) + 2^-24: tie with an odd lower neighbour */
    T(FADD_S, RNE, 0x3F800001u, EPS24, 0, 0x3F800002u, NX);
    T(FADD_S, RMM, 0x3F800001u, EPS24, 0, 0x3F800002u, NX);
    T(FADD_S, RTZ, 0x3F800001u, EPS24, 0, 0x3F800001u, NX);
    /* the same through the dynamic mode */
    TD(FADD_S, RNE, ONE, EPS24, 0, ONE, NX);
    TD(FADD_S, RUP, ONE, EPS24, 0, 0x3F800001u, NX);
    TD(FADD_S, RMM, ONE, EPS24, 0, 0x3F800001u, NX);
    TD(FADD_S, RDN, MONE, 0xB3800000u, 0, 0xBF800001u, NX);
    /* RMM tie in a product: (2^23 + 3) * 1.5 = 12582916.5 */
    T(FMUL_S, RNE, 0x4B000003u, 0x3FC00000u, 0, 0x4B400004u, NX);
    T(FMUL_S, RMM, 0x4B000003u, 0x3FC00000u, 0, 0x4B400005u, NX);
    T(FMUL_S, RTZ, 0x4B000003u, 0x3FC00000u, 0, 0x4B400004u, NX);
    T(FMUL_S, RUP, 0x4B000003u, 0x3FC00000u, 0, 0x4B400005u, NX);
    T(FMUL_S, RMM, 0xCB000003u, 0x3FC00000u, 0, 0xCB400005u, NX);
    T(FMUL_S, RDN, 0xCB000003u, 0x3FC00000u, 0, 0xCB400005u, NX);
    /* 1/3 in each mode */
    T(FDIV_S, RNE, ONE, 0x40400000u, 0, 0x3EAAAAABu, NX);
    T(FDIV_S, RTZ, ONE, 0x40400000u, 0, 0x3EAAAAAAu, NX);
    T(FDIV_S, RDN, ONE, 0x40400000u, 0, 0x3EAAAAAAu, NX);
    T(FDIV_S, RUP, ONE, 0x40400000u, 0, 0x3EAAAAABu, NX);
    T(FDIV_S, RMM, ONE, 0x40400000u, 0, 0x3EAAAAABu, NX);
    T(FDIV_S, RDN, MONE, 0x40400000u, 0, 0xBEAAAAABu, NX);
    /* sqrt(2) */
    T(FSQRT_S, RNE, TWO, 0, 0, 0x3FB504F3u, NX);
    T(FSQRT_S, RTZ, TWO, 0, 0, 0x3FB504F3u, NX);
    T(FSQRT_S, RUP, TWO, 0, 0, 0x3FB504F4u, NX);
    T(FSQRT_S, RMM, TWO, 0, 0, 0x3FB504F3u, NX);
    T(FSQRT_S, RNE, 0x40800000u, 0, 0, TWO, 0);
    /* exact zero sums: +0 except under RDN */
    T(FSUB_S, RNE, ONE, ONE, 0, P0, 0);
    T(FSUB_S, RDN, ONE, ONE, 0, N0, 0);
    T(FADD_S, RMM, ONE, MONE, 0, P0, 0);
    T(FADD_S, RNE, P0, N0, 0, P0, 0);
    T(FADD_S, RDN, P0, N0, 0, N0, 0);
    T(FADD_S, RUP, N0, N0, 0, N0, 0);
    T(FADD_S, RDN, P0, P0, 0, P0, 0);
}

static void test_nan_and_invalid(void)
{
    /* every NaN result is canonical, quiet NaN inputs raise nothing */
    T(FADD_S, RNE, 0xFFC00001u, ONE, 0, CNAN, 0);
    T(FMUL_S, RNE, ONE, 0x7FC12345u, 0, CNAN, 0);
    T(FADD_S, RNE, F_SNAN, ONE, 0, CNAN, NV);
    T(FDIV_S, RNE, ONE, 0xFF800100u, 0, CNAN, NV);
    T(FSQRT_S, RNE, 0xFFC00000u, 0, 0, CNAN, 0);
    T(FSQRT_S, RNE, F_SNAN, 0, 0, CNAN, NV);
    /* invalid operations */
    T(FSUB_S, RNE, PINF, PINF, 0, CNAN, NV);
    T(FADD_S, RNE, PINF, NINF, 0, CNAN, NV);
    T(FMUL_S, RNE, PINF, P0, 0, CNAN, NV);
    T(FDIV_S, RNE, P0, N0, 0, CNAN, NV);
    T(FDIV_S, RNE, NINF, PINF, 0, CNAN, NV);
    T(FSQRT_S, RNE, MONE, 0, 0, CNAN, NV);
    T(FSQRT_S, RNE, NINF, 0, 0, CNAN, NV);
    T(FSQRT_S, RNE, 0x80000001u, 0, 0, CNAN, NV);
    T(FSQRT_S, RNE, N0, 0, 0, N0, 0);
    T(FSQRT_S, RNE, PINF, 0, 0, PINF, 0);
    /* division by zero: exact infinity, DZ only; inf/0 is not a division by zero */
    T(FDIV_S, RNE, ONE, P0, 0, PINF, DZ);
    T(FDIV_S, RNE, MONE, P0, 0, NINF, DZ);
    T(FDIV_S, RNE, ONE, N0, 0, NINF, DZ);
    T(FDIV_S, RTZ, ONE, P0, 0, PINF, DZ);
    T(FDIV_S, RNE, PINF, P0, 0, PINF, 0);
    T(FDIV_S, RNE, ONE, PINF, 0, P0, 0);
    /* inf arithmetic is exact */
    T(FADD_S, RNE, PINF, MAXF, 0, PINF, 0);
    T(FMUL_S, RTZ, NINF, TWO, 0, NINF, 0);
}

static void test_overflow_underflow(void)
{
    const uint32_t NMAX = 0xFF7FFFFFu;
    T(FMUL_S, RNE, MAXF, TWO, 0, PINF, OF | NX);
    T(FMUL_S, RTZ, MAXF, TWO, 0, MAXF, OF | NX);
    T(FMUL_S, RDN, MAXF, TWO, 0, MAXF, OF | NX);
    T(FMUL_S, RUP, MAXF, TWO, 0, PINF, OF | NX);
    T(FMUL_S, RMM, MAXF, TWO, 0, PINF, OF | NX);
    T(FMUL_S, RNE, NMAX, TWO, 0, NINF, OF | NX);
    T(FMUL_S, RTZ, NMAX, TWO, 0, NMAX, OF | NX);
    T(FMUL_S, RDN, NMAX, TWO, 0, NINF, OF | NX);
    T(FMUL_S, RUP, NMAX, TWO, 0, NMAX, OF | NX);
    /* max + half an ulp: overflows only where it rounds up (after rounding) */
    T(FADD_S, RNE, MAXF, 0x73000000u, 0, PINF, OF | NX);
    T(FADD_S, RMM, MAXF, 0x73000000u, 0, PINF, OF | NX);
    T(FADD_S, RTZ, MAXF, 0x73000000u, 0, MAXF, NX);
    T(FADD_S, RDN, MAXF, 0x73000000u, 0, MAXF, NX);
    T(FADD_S, RUP, MAXF, 0x72800000u, 0, PINF, OF | NX);
    /* subnormals are neither flushed nor treated as zero */
    T(FADD_S, RNE, 0x00000001u, 0x00000001u, 0, 0x00000002u, 0);
    T(FMUL_S, RNE, 0x00400000u, TWO, 0, MINN, 0);
    T(FMUL_S, RNE, MINN, HALF, 0, 0x00400000u, 0);    /* exact tiny result: no UF */
    T(FSUB_S, RNE, 0x00800001u, MINN, 0, 0x00000001u, 0);
    /* 2^-127 + 2^-150: tiny and inexact */
    T(FMUL_S, RNE, 0x00800001u, HALF, 0, 0x00400000u, UF | NX);
    T(FMUL_S, RUP, 0x00800001u, HALF, 0, 0x00400001u, UF | NX);
    T(FMUL_S, RMM, 0x00800001u, HALF, 0, 0x00400001u, UF | NX);
    /* half the smallest subnormal */
    T(FMUL_S, RNE, 0x00000001u, HALF, 0, P0, UF | NX);
    T(FMUL_S, RMM, 0x00000001u, HALF, 0, 0x00000001u, UF | NX);
    T(FMUL_S, RDN, 0x80000001u, HALF, 0, 0x80000001u, UF | NX);
    T(FMUL_S, RTZ, 0x80000001u, HALF, 0, N0, UF | NX);
    /* 2^-126 (1 - 2^-46): rounds to 2^-126 with unbounded exponent (not tiny
     * after rounding, no UF) except when rounding toward zero */
    T(FMUL_S, RNE, 0x3F7FFFFEu, 0x00800001u, 0, MINN, NX);
    T(FMUL_S, RUP, 0x3F7FFFFEu, 0x00800001u, 0, MINN, NX);
    T(FMUL_S, RMM, 0x3F7FFFFEu, 0x00800001u, 0, MINN, NX);
    T(FMUL_S, RTZ, 0x3F7FFFFEu, 0x00800001u, 0, 0x007FFFFFu, UF | NX);
    T(FMUL_S, RDN, 0x3F7FFFFEu, 0x00800001u, 0, 0x007FFFFFu, UF | NX);
    /* 2^-126 - 2^-150: tiny even after rounding to 24 bits, rounds up to 2^-126 */
    T(FMUL_S, RNE, 0x3F7FFFFFu, MINN, 0, MINN, UF | NX);
}

static void test_fma(void)
{
    const uint32_t A = 0x3F800800u; /* 1 + 2^-12 */
    /* single rounding: (1 + 2^-12)^2 - 1 = 2^-11 + 2^-24 exactly */
    T(FMADD_S, RNE, A, A, MONE, 0x3A000400u, 0);
    T(FMSUB_S, RNE, A, A, ONE, 0x3A000400u, 0);
    T(FNMADD_S, RNE, A, A, MONE, 0xBA000400u, 0);
    T(FNMSUB_S, RNE, A, A, ONE, 0xBA000400u, 0);
    T(FMUL_S, RNE, A, A, 0, 0x3F801000u, NX); /* the unfused product rounds */
    /* sign rules: fmsub a*b-c, fnmsub -(a*b)+c, fnmadd -(a*b)-c */
    T(FMADD_S, RNE, ONE, TWO, 0x40400000u, 0x40A00000u, 0);
    T(FMSUB_S, RNE, ONE, TWO, 0x40400000u, MONE, 0);
    T(FNMSUB_S, RNE, ONE, TWO, 0x40400000u, ONE, 0);
    T(FNMADD_S, RNE, ONE, TWO, 0x40400000u, 0xC0A00000u, 0);
    /* signs of exact zeros */
    T(FMADD_S, RNE, P0, ONE, N0, P0, 0);
    T(FMADD_S, RDN, P0, ONE, N0, N0, 0);
    T(FMADD_S, RNE, N0, ONE, N0, N0, 0);
    T(FNMADD_S, RNE, P0, ONE, N0, P0, 0);
    T(FNMADD_S, RDN, P0, ONE, N0, N0, 0);
    T(FNMADD_S, RNE, P0, ONE, P0, N0, 0);
    T(FNMSUB_S, RNE, P0, ONE, N0, N0, 0);
    T(FMSUB_S, RNE, P0, ONE, P0, P0, 0);
    T(FMSUB_S, RDN, P0, ONE, P0, N0, 0);
    T(FMADD_S, RNE, ONE, ONE, MONE, P0, 0);
    T(FMADD_S, RDN, ONE, ONE, MONE, N0, 0);
    T(FMADD_S, RUP, ONE, ONE, MONE, P0, 0);
    /* RMM tie: 1*1 + 2^-24 */
    T(FMADD_S, RNE, ONE, ONE, 0x33800000u, ONE, NX);
    T(FMADD_S, RMM, ONE, ONE, 0x33800000u, 0x3F800001u, NX);
    T(FNMADD_S, RMM, ONE, ONE, 0x33800000u, 0xBF800001u, NX);
    /* inf * 0 is invalid even when the addend is a quiet NaN */
    T(FMADD_S, RNE, PINF, P0, F_QNAN, CNAN, NV);
    T(FMADD_S, RNE, N0, NINF, 0xFFC00001u, CNAN, NV);
    T(FNMSUB_S, RNE, PINF, P0, ONE, CNAN, NV);
    T(FMADD_S, RNE, F_QNAN, P0, ONE, CNAN, 0);
    T(FMADD_S, RNE, ONE, ONE, F_SNAN, CNAN, NV);
    T(FMADD_S, RNE, PINF, ONE, NINF, CNAN, NV);
    T(FMSUB_S, RNE, PINF, ONE, PINF, CNAN, NV);
    T(FMADD_S, RNE, PINF, ONE, PINF, PINF, 0);
    T(FMADD_S, RNE, ONE, ONE, PINF, PINF, 0);
    /* overflow and underflow through an FMA */
    T(FMADD_S, RNE, MAXF, TWO, NINF, NINF, 0);
    T(FMADD_S, RNE, MAXF, TWO, 0xFF7FFFFFu, MAXF, 0);
    T(FMADD_S, RNE, MAXF, MAXF, ONE, PINF, OF | NX);
    T(FMADD_S, RTZ, MAXF, MAXF, ONE, MAXF, OF | NX);
    T(FMADD_S, RNE, 0x00000001u, HALF, P0, P0, UF | NX);
    T(FMADD_S, RNE, MINN, 0x3F7FFFFFu, P0, MINN, UF | NX);
}

static void test_fcvt(void)
{
    const uint32_t F25 = 0x40200000u, M25 = 0xC0200000u;
    T(FCVT_W_S, RNE, F25, 0, 0, 2, NX);
    T(FCVT_W_S, RTZ, F25, 0, 0, 2, NX);
    T(FCVT_W_S, RDN, F25, 0, 0, 2, NX);
    T(FCVT_W_S, RUP, F25, 0, 0, 3, NX);
    T(FCVT_W_S, RMM, F25, 0, 0, 3, NX);
    T(FCVT_W_S, RNE, M25, 0, 0, (uint32_t)-2, NX);
    T(FCVT_W_S, RTZ, M25, 0, 0, (uint32_t)-2, NX);
    T(FCVT_W_S, RDN, M25, 0, 0, (uint32_t)-3, NX);
    T(FCVT_W_S, RUP, M25, 0, 0, (uint32_t)-2, NX);
    T(FCVT_W_S, RMM, M25, 0, 0, (uint32_t)-3, NX);
    TD(FCVT_W_S, RMM, HALF, 0, 0, 1, NX);
    TD(FCVT_W_S, RNE, HALF, 0, 0, 0, NX);
    T(FCVT_W_S, RNE, 0x3FC00000u, 0, 0, 2, NX); /* 1.5 */
    T(FCVT_W_S, RNE, N0, 0, 0, 0, 0);
    T(FCVT_W_S, RNE, 0x00000001u, 0, 0, 0, NX);
    T(FCVT_W_S, RUP, 0x00000001u, 0, 0, 1, NX);
    T(FCVT_W_S, RDN, 0x80000001u, 0, 0, 0xFFFFFFFFu, NX);
    T(FCVT_W_S, RNE, 0x4EFFFFFFu, 0, 0, 0x7FFFFF80u, 0);
    T(FCVT_W_S, RNE, 0xCF000000u, 0, 0, 0x80000000u, 0);
    /* saturation: NV, never NX */
    T(FCVT_W_S, RNE, 0x4F000000u, 0, 0, 0x7FFFFFFFu, NV);
    T(FCVT_W_S, RNE, 0xCF000001u, 0, 0, 0x80000000u, NV);
    T(FCVT_W_S, RNE, PINF, 0, 0, 0x7FFFFFFFu, NV);
    T(FCVT_W_S, RNE, NINF, 0, 0, 0x80000000u, NV);
    T(FCVT_W_S, RNE, F_QNAN, 0, 0, 0x7FFFFFFFu, NV);
    T(FCVT_W_S, RNE, 0xFFC00000u, 0, 0, 0x7FFFFFFFu, NV);
    T(FCVT_W_S, RNE, F_SNAN, 0, 0, 0x7FFFFFFFu, NV);
    T(FCVT_W_S, RNE, MAXF, 0, 0, 0x7FFFFFFFu, NV);
    /* unsigned */
    T(FCVT_WU_S, RNE, F25, 0, 0, 2, NX);
    T(FCVT_WU_S, RMM, F25, 0, 0, 3, NX);
    T(FCVT_WU_S, RNE, 0x4F7FFFFFu, 0, 0, 0xFFFFFF00u, 0);
    T(FCVT_WU_S, RNE, 0x4F800000u, 0, 0, 0xFFFFFFFFu, NV);
    T(FCVT_WU_S, RNE, MONE, 0, 0, 0, NV);
    T(FCVT_WU_S, RTZ, 0xBF000000u, 0, 0, 0, NX);  /* -0.5 truncates to 0: in range */
    T(FCVT_WU_S, RNE, 0xBF000000u, 0, 0, 0, NX);  /* -0.5 ties to even 0 */
    T(FCVT_WU_S, RMM, 0xBF000000u, 0, 0, 0, NV);  /* -0.5 rounds to -1 */
    T(FCVT_WU_S, RDN, 0xBE99999Au, 0, 0, 0, NV);  /* -0.3 rounds to -1 */
    T(FCVT_WU_S, RUP, 0xBE99999Au, 0, 0, 0, NX);  /* -0.3 rounds to -0 */
    T(FCVT_WU_S, RNE, N0, 0, 0, 0, 0);
    T(FCVT_WU_S, RNE, F_QNAN, 0, 0, 0xFFFFFFFFu, NV);
    T(FCVT_WU_S, RNE, 0xFFC00000u, 0, 0, 0xFFFFFFFFu, NV);
    T(FCVT_WU_S, RNE, PINF, 0, 0, 0xFFFFFFFFu, NV);
    T(FCVT_WU_S, RNE, NINF, 0, 0, 0, NV);
    /* integer to float */
    T(FCVT_S_W, RNE, 0x01000001u, 0, 0, 0x4B800000u, NX);
    T(FCVT_S_W, RTZ, 0x01000001u, 0, 0, 0x4B800000u, NX);
    T(FCVT_S_W, RUP, 0x01000001u, 0, 0, 0x4B800001u, NX);
    T(FCVT_S_W, RMM, 0x01000001u, 0, 0, 0x4B800001u, NX);
    T(FCVT_S_W, RNE, 0xFEFFFFFFu, 0, 0, 0xCB800000u, NX);
    T(FCVT_S_W, RDN, 0xFEFFFFFFu, 0, 0, 0xCB800001u, NX);
    T(FCVT_S_W, RMM, 0xFEFFFFFFu, 0, 0, 0xCB800001u, NX);
    T(FCVT_S_W, RNE, 0x80000000u, 0, 0, 0xCF000000u, 0);
    T(FCVT_S_W, RNE, 0x7FFFFFFFu, 0, 0, 0x4F000000u, NX);
    T(FCVT_S_W, RTZ, 0x7FFFFFFFu, 0, 0, 0x4EFFFFFFu, NX);
    T(FCVT_S_W, RDN, 0, 0, 0, P0, 0);
    T(FCVT_S_W, RNE, 0xFFFFFFFFu, 0, 0, MONE, 0);
    T(FCVT_S_WU, RNE, 0xFFFFFFFFu, 0, 0, 0x4F800000u, NX);
    T(FCVT_S_WU, RTZ, 0xFFFFFFFFu, 0, 0, 0x4F7FFFFFu, NX);
    T(FCVT_S_WU, RNE, 0x80000000u, 0, 0, 0x4F000000u, 0);
    T(FCVT_S_WU, RNE, 1, 0, 0, ONE, 0);
}

static void test_minmax_compare(void)
{
    T(FMIN_S, 0, N0, P0, 0, N0, 0);
    T(FMIN_S, 0, P0, N0, 0, N0, 0);
    T(FMAX_S, 0, N0, P0, 0, P0, 0);
    T(FMAX_S, 0, P0, N0, 0, P0, 0);
    T(FMIN_S, 0, F_QNAN, ONE, 0, ONE, 0);
    T(FMAX_S, 0, ONE, 0xFFC00001u, 0, ONE, 0);
    T(FMIN_S, 0, F_SNAN, ONE, 0, ONE, NV);
    T(FMAX_S, 0, MONE, F_SNAN, 0, MONE, NV);
    T(FMIN_S, 0, F_QNAN, 0xFFC00001u, 0, CNAN, 0);
    T(FMAX_S, 0, F_SNAN, F_QNAN, 0, CNAN, NV);
    T(FMIN_S, 0, NINF, ONE, 0, NINF, 0);
    T(FMAX_S, 0, ONE, TWO, 0, TWO, 0);
    T(FMIN_S, 0, MONE, 0xC0000000u, 0, 0xC0000000u, 0);
    T(FMAX_S, 0, 0x80000001u, N0, 0, N0, 0);
    /* feq is quiet, flt/fle signal on any NaN */
    T(FEQ_S, 0, F_QNAN, ONE, 0, 0, 0);
    T(FEQ_S, 0, F_QNAN, F_QNAN, 0, 0, 0);
    T(FEQ_S, 0, F_SNAN, ONE, 0, 0, NV);
    T(FLT_S, 0, F_QNAN, ONE, 0, 0, NV);
    T(FLE_S, 0, ONE, F_QNAN, 0, 0, NV);
    T(FEQ_S, 0, P0, N0, 0, 1, 0);
    T(FLT_S, 0, N0, P0, 0, 0, 0);
    T(FLE_S, 0, N0, P0, 0, 1, 0);
    T(FLE_S, 0, P0, N0, 0, 1, 0);
    T(FEQ_S, 0, ONE, ONE, 0, 1, 0);
    T(FLT_S, 0, ONE, ONE, 0, 0, 0);
    T(FLE_S, 0, ONE, ONE, 0, 1, 0);
    T(FLT_S, 0, MONE, ONE, 0, 1, 0);
    T(FLT_S, 0, 0xC0000000u, MONE, 0, 1, 0);
    T(FLT_S, 0, MONE, 0xC0000000u, 0, 0, 0);
    T(FLT_S, 0, NINF, 0xFF7FFFFFu, 0, 1, 0);
    T(FLE_S, 0, 0x80000001u, N0, 0, 1, 0);
    T(FLT_S, 0, 0x00000001u, 0x00000002u, 0, 1, 0);
}

static void test_class_and_moves(void)
{
    T(FCLASS_S, 0, NINF, 0, 0, 1u << 0, 0);
    T(FCLASS_S, 0, MONE, 0, 0, 1u << 1, 0);
    T(FCLASS_S, 0, 0x807FFFFFu, 0, 0, 1u << 2, 0);
    T(FCLASS_S, 0, N0, 0, 0, 1u << 3, 0);
    T(FCLASS_S, 0, P0, 0, 0, 1u << 4, 0);
    T(FCLASS_S, 0, 0x00000001u, 0, 0, 1u << 5, 0);
    T(FCLASS_S, 0, MINN, 0, 0, 1u << 6, 0);
    T(FCLASS_S, 0, PINF, 0, 0, 1u << 7, 0);
    T(FCLASS_S, 0, F_SNAN, 0, 0, 1u << 8, 0);
    T(FCLASS_S, 0, 0xFFBFFFFFu, 0, 0, 1u << 8, 0);
    T(FCLASS_S, 0, F_QNAN, 0, 0, 1u << 9, 0);
    T(FCLASS_S, 0, 0xFFC00001u, 0, 0, 1u << 9, 0);
    /* sign injection and moves keep NaN payloads and raise nothing */
    T(FSGNJ_S, 0, ONE, 0xC0000000u, 0, MONE, 0);
    T(FSGNJN_S, 0, ONE, 0xC0000000u, 0, ONE, 0);
    T(FSGNJX_S, 0, MONE, 0xC0000000u, 0, ONE, 0);
    T(FSGNJ_S, 0, F_SNAN, N0, 0, 0xFF800001u, 0);
    T(FSGNJN_S, 0, F_SNAN, F_SNAN, 0, 0xFF800001u, 0);
    T(FSGNJX_S, 0, 0xFFC00001u, N0, 0, 0x7FC00001u, 0);
    T(FMV_X_W, 0, 0xFFC00001u, 0, 0, 0xFFC00001u, 0);
    T(FMV_W_X, 0, F_SNAN, 0, 0, F_SNAN, 0);
}

static void test_rm_legality(void)
{
    uint32_t d = 7;
    uint8_t fl = 0;
    ws_inst in = inst(OP_FADD_S, 5);
    CHECK(ws_fpu_exec1(&in, ONE, ONE, 0, 0, &d, &fl) == -1);
    in.rm = 6;
    CHECK(ws_fpu_exec1(&in, ONE, ONE, 0, 0, &d, &fl) == -1);
    in.rm = DYN;
    for (uint8_t frm = 5; frm <= 7; frm++) CHECK(ws_fpu_exec1(&in, ONE, ONE, 0, frm, &d, &fl) == -1);
    CHECK(d == 7 && fl == 0);
    in = inst(OP_FCVT_S_W, 5); /* rounding illegal even when the result is exact */
    CHECK(ws_fpu_exec1(&in, 1, 0, 0, 0, &d, &fl) == -1);
    in = inst(OP_FCVT_W_S, DYN);
    CHECK(ws_fpu_exec1(&in, ONE, 0, 0, 7, &d, &fl) == -1);
    /* ops without a rounding mode never consult frm */
    in = inst(OP_FSGNJ_S, 0);
    CHECK_EQ_U(ws_fpu_exec1(&in, ONE, ONE, 0, 7, &d, &fl), 0);
    in = inst(OP_FMIN_S, DYN);
    CHECK_EQ_U(ws_fpu_exec1(&in, ONE, TWO, 0, 5, &d, &fl), 0);
    CHECK_EQ_U(d, ONE);
    /* not a float computation */
    in = inst(OP_FLW, 0);
    CHECK(ws_fpu_exec1(&in, ONE, ONE, 0, 0, &d, &fl) == -1);
    in = inst(OP_ADD, 0);
    CHECK(ws_fpu_exec1(&in, ONE, ONE, 0, 0, &d, &fl) == -1);

    /* warp: a bad frm in one lane rejects the whole instruction untouched */
    uint32_t a[32], b[32], dd[32];
    uint8_t frm[32], ff[32];
    for (int i = 0; i < 32; i++) { a[i] = ONE; b[i] = 0x33800000u; dd[i] = 0xABCD; frm[i] = RNE; ff[i] = 0; }
    frm[5] = 5;
    frm[9] = 7;
    ws_fpu_lanes l = { a, b, b, dd, frm, ff };
    int bad = -1;
    in = inst(OP_FADD_S, DYN);
    CHECK(ws_fpu_exec(&in, 0xFFFFFFFFu, &l, &bad) == -1);
    CHECK_EQ_U(bad, 5);
    CHECK(ws_fpu_exec(&in, 0xFFFFFFDFu, &l, &bad) == -1);
    CHECK_EQ_U(bad, 9);
    int untouched = 1;
    for (int i = 0; i < 32; i++) untouched &= dd[i] == 0xABCD && ff[i] == 0;
    CHECK(untouched);
    /* lanes with a bad frm that are not in the mask do not matter */
    CHECK_EQ_U(ws_fpu_exec(&in, 0x0000001Fu, &l, &bad), 0);
    CHECK(dd[0] == ONE && ff[0] == NX && dd[5] == 0xABCD && ff[5] == 0);
    in = inst(OP_FMUL_S, 6);
    CHECK(ws_fpu_exec(&in, 0x00F00000u, &l, &bad) == -1);
    CHECK_EQ_U(bad, 20);
    /* an empty mask does nothing */
    CHECK_EQ_U(ws_fpu_exec(&in, 0, &l, &bad), 0);
    /* static rm ignores an invalid frm; non-rounding ops too */
    in = inst(OP_FADD_S, RUP);
    CHECK_EQ_U(ws_fpu_exec(&in, 1u << 5, &l, &bad), 0);
    CHECK(dd[5] == 0x3F800001u && ff[5] == NX);
    in = inst(OP_FSGNJN_S, 0);
    CHECK_EQ_U(ws_fpu_exec(&in, 1u << 9, &l, &bad), 0);
    CHECK_EQ_U(dd[9], 0xBF800000u);
}

/* ---- random cross-checks ---- */

static uint32_t rng(uint32_t *s)
{
    uint32_t x = *s;
    x ^= x << 13; x ^= x >> 17; x ^= x << 5;
    return *s = x;
}

/* Random float bits, mostly finite, with specials mixed in. */
static uint32_t rnd_operand(uint32_t *s)
{
    static const uint32_t specials[] = { P0, N0, ONE, MONE, PINF, NINF, F_QNAN, F_SNAN, MAXF, MINN,
                                         0x00000001u, 0x807FFFFFu, 0x33800000u, 0x4B000000u };
    uint32_t r = rng(s);
    switch (r & 15) {
    case 0: return specials[(r >> 4) % (sizeof specials / sizeof specials[0])];
    case 1: return rng(s);
    case 2: return (r & 0x80000000u) | ((r >> 8) % 3) << 23 | (rng(s) & 0x7FFFFF);
    default: return (r & 0x80000000u) | (110 + (r >> 8) % 36) << 23 | (rng(s) & 0x7FFFFF);
    }
}

static uint32_t bits_of(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static float float_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static int nan_bits(uint32_t u) { return (u & 0x7FFFFFFFu) > 0x7F800000u; }

/* Host result and flags of one op under a host rounding mode. */
static uint32_t host_op(ws_op op, int mode, uint32_t a, uint32_t b, uint32_t c, unsigned *fl)
{
    volatile float x = float_of(a), y = float_of(b), z = float_of(c);
    volatile float r;
    fesetround(mode);
    feclearexcept(FE_ALL_EXCEPT);
    switch (op) {
    case OP_FADD_S: r = x + y; break;
    case OP_FSUB_S: r = x - y; break;
    case OP_FMUL_S: r = x * y; break;
    case OP_FDIV_S: r = x / y; break;
    case OP_FSQRT_S: r = sqrtf(x); break;
    default: r = fmaf(x, y, z); break;
    }
    int e = fetestexcept(FE_ALL_EXCEPT);
    fesetround(FE_TONEAREST);
    *fl = (e & FE_INVALID ? NV : 0) | (e & FE_DIVBYZERO ? DZ : 0) | (e & FE_OVERFLOW ? OF : 0) |
          (e & FE_UNDERFLOW ? UF : 0) | (e & FE_INEXACT ? NX : 0);
    uint32_t u = bits_of(r);
    return nan_bits(u) ? CNAN : u;
}

/* The FPU against host float arithmetic and glibc's correctly rounded fmaf,
 * in the four modes the host has (RMM is covered by the qemu test). */
static void test_against_host(void)
{
    static const ws_op ops[] = { OP_FADD_S, OP_FSUB_S, OP_FMUL_S, OP_FDIV_S, OP_FSQRT_S, OP_FMADD_S };
    static const int modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
    uint32_t s = 0xC0FFEE11u;
    long bad = 0, n = 0;
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        for (unsigned rm = 0; rm < 4; rm++) {
            ws_inst in = inst(ops[k], rm);
            for (int i = 0; i < 20000; i++) {
                uint32_t a = rnd_operand(&s), b = rnd_operand(&s), c = rnd_operand(&s);
                if (ops[k] == OP_FMADD_S && (i & 1)) { /* an addend that nearly cancels */
                    float p = float_of(a) * float_of(b);
                    c = bits_of(-p) ^ (rng(&s) & 0x3F);
                }
                unsigned hfl;
                uint32_t want = host_op(ops[k], modes[rm], a, b, c, &hfl), d = 0;
                uint8_t fl = 0;
                ws_fpu_exec1(&in, a, b, c, 0, &d, &fl);
                /* x86 FMA may not flag inf*0+qNaN; compare fma flags only without NaN inputs */
                int skip_flags = ops[k] == OP_FMADD_S && (nan_bits(a) || nan_bits(b) || nan_bits(c));
                n++;
                if (d != want || (!skip_flags && fl != hfl)) {
                    if (bad++ < 10)
                        fprintf(stderr, "host mismatch %s rm=%u a=0x%08x b=0x%08x c=0x%08x: got 0x%08x/%02x, "
                                        "host 0x%08x/%02x\n", ws_op_name(ops[k]), rm, a, b, c, d, fl, want, hfl);
                }
            }
        }
    }
    CHECK_EQ_U(bad, 0);
    printf("host cross-check: %ld cases\n", n);
}

/* ---- warp-wide entry against the scalar one ---- */

static const ws_op all_ops[] = {
    OP_FMADD_S, OP_FMSUB_S, OP_FNMSUB_S, OP_FNMADD_S, OP_FADD_S, OP_FSUB_S, OP_FMUL_S,
    OP_FDIV_S, OP_FSQRT_S, OP_FSGNJ_S, OP_FSGNJN_S, OP_FSGNJX_S, OP_FMIN_S, OP_FMAX_S,
    OP_FCVT_W_S, OP_FCVT_WU_S, OP_FMV_X_W, OP_FEQ_S, OP_FLT_S, OP_FLE_S, OP_FCLASS_S,
    OP_FCVT_S_W, OP_FCVT_S_WU, OP_FMV_W_X,
};

static uint32_t rnd_mask(uint32_t *s)
{
    uint32_t r = rng(s);
    switch (r & 7) {
    case 0: return 0xFFFFFFFFu;
    case 1: return 0x0000FFFFu;                      /* contiguous from lane 0 */
    case 2: return 1u << (r >> 27);                  /* one lane */
    case 3: return 0xFFFFFFFFu << (r >> 27);         /* not from lane 0 */
    default: return rng(s) | 1u << (r >> 27);        /* scattered */
    }
}

/* One warp instruction: lanes in mask must match ws_fpu_exec1, the others
 * stay untouched; optionally the destination aliases the first source. */
static int warp_case(uint32_t *s, ws_op op, unsigned rm, int alias)
{
    uint32_t a[32], b[32], c[32], d[32], want[32];
    uint8_t frm[32], ff[32], want_ff[32];
    uint32_t mask = rnd_mask(s);
    unsigned preset_kind = rng(s) % 4, frm_kind = rng(s) % 3;
    /* 0: random, 1: benign (no new flags but NX), 2: specials, 3: lanes
     * exact (small multiples of 1/4) and inexact mixed, as in real data */
    int vals = rng(s) % 4;
    for (int i = 0; i < 32; i++) {
        a[i] = rnd_operand(s); b[i] = rnd_operand(s); c[i] = rnd_operand(s);
        if (vals == 1) { a[i] = (a[i] & 0x807FFFFFu) | 0x3F800000u; b[i] = (b[i] & 0x807FFFFFu) | 0x3F800000u;
                         c[i] = (c[i] & 0x807FFFFFu) | 0x3F000000u; }
        if (vals == 2 && (i & 3) == 0) a[i] = (i & 4) ? F_SNAN : F_QNAN;
        if (vals == 3 && (rng(s) & 1)) {
            float fa = (float)(rng(s) % 64) * 0.25f, fb = (float)(rng(s) % 64 + 1) * 0.25f, fc = (float)(rng(s) % 64) * 0.5f;
            memcpy(&a[i], &fa, 4); memcpy(&b[i], &fb, 4); memcpy(&c[i], &fc, 4);
        } else if (vals == 3) {
            a[i] = (a[i] & 0x807FFFFFu) | 0x3F800000u; b[i] = (b[i] & 0x007FFFFFu) | 0x40000000u;
            c[i] = (c[i] & 0x807FFFFFu) | 0x3F000000u;
        }
        d[i] = 0x5EED0000u + (uint32_t)i;
        frm[i] = frm_kind == 0 ? RNE : frm_kind == 1 ? (uint8_t)(rng(s) % 5) : RTZ;
        ff[i] = preset_kind == 0 ? 0 : preset_kind == 1 ? NX : preset_kind == 2 ? (uint8_t)(rng(s) & 0x1F) : 0x1F;
    }
    if (alias) memcpy(d, a, sizeof d);
    for (int i = 0; i < 32; i++) {
        want[i] = d[i];
        want_ff[i] = ff[i];
        if (mask >> i & 1) {
            ws_inst in = inst(op, rm);
            ws_fpu_exec1(&in, a[i], b[i], c[i], frm[i], &want[i], &want_ff[i]);
        }
    }
    ws_inst in = inst(op, rm);
    ws_fpu_lanes l = { alias ? d : a, b, c, d, frm, ff };
    int bad = -1;
    if (ws_fpu_exec(&in, mask, &l, &bad) != 0) return 1;
    return memcmp(d, want, sizeof d) != 0 || memcmp(ff, want_ff, sizeof ff) != 0;
}

static void test_warp(void)
{
    static const unsigned rms[] = { RNE, RTZ, RDN, RUP, RMM, DYN };
    uint32_t s = 0xBADC0DEu;
    long bad = 0, n = 0;
    for (size_t k = 0; k < sizeof all_ops / sizeof all_ops[0]; k++)
        for (size_t r = 0; r < sizeof rms / sizeof rms[0]; r++)
            for (int t = 0; t < 200; t++) {
                n++;
                if (warp_case(&s, all_ops[k], rms[r], t & 1)) {
                    if (bad++ < 10) fprintf(stderr, "warp mismatch: %s rm=%u trial %d\n",
                                            ws_op_name(all_ops[k]), rms[r], t);
                }
            }
    CHECK_EQ_U(bad, 0);
    printf("warp cross-check: %ld warp instructions\n", n);
}

/* NULL b/c arrays are fine for ops that do not read them. */
static void test_warp_null_sources(void)
{
    uint32_t a[4] = { 0x40800000u, TWO, MONE, 5 }, d[4] = { 0 };
    uint8_t frm[4] = { 0 }, ff[4] = { 0 };
    ws_fpu_lanes l = { a, NULL, NULL, d, frm, ff };
    ws_inst in = inst(OP_FSQRT_S, RNE);
    CHECK_EQ_U(ws_fpu_exec(&in, 0x7, &l, NULL), 0);
    CHECK(d[0] == TWO && d[1] == 0x3FB504F3u && d[2] == CNAN);
    CHECK(ff[0] == 0 && ff[1] == NX && ff[2] == NV && d[3] == 0);
    in = inst(OP_FCVT_S_W, DYN);
    CHECK_EQ_U(ws_fpu_exec(&in, 0x8, &l, NULL), 0);
    CHECK_EQ_U(d[3], 0x40A00000u);
}

/* The caller's rounding mode, masks and DAZ/FTZ are left as they were
 * (its status flags are not: ws_fpu_host_save/restore put them back, as
 * the command processor does); DAZ/FTZ or a different rounding mode in
 * the caller do not change results. */
static void test_host_state(void)
{
    uint32_t a[32], b[32], d[32];
    uint8_t frm[32], ff[32];
    for (int i = 0; i < 32; i++) { a[i] = 0x00400000u; b[i] = TWO; frm[i] = 0; ff[i] = 0; }
    ws_fpu_lanes l = { a, b, b, d, frm, ff };
    ws_inst mul = inst(OP_FMUL_S, RNE), div = inst(OP_FDIV_S, DYN);
    fesetround(FE_UPWARD);
    ws_fpu_exec(&mul, 0xFFFFFFFFu, &l, NULL);
    CHECK_EQ_U(fegetround(), FE_UPWARD);
    fesetround(FE_TONEAREST);
    CHECK_EQ_U(d[0], MINN);
    /* the caller rounding up, the same mode in the instruction, a first
     * inexact result: its lanes are told inexact in round to nearest, and
     * the caller's mode is put back (1/3 rounds up to 0x3EAAAAAB) */
    for (int i = 0; i < 32; i++) a[i] = ONE, b[i] = 0x40400000u, ff[i] = 0;
    ws_inst div_up = inst(OP_FDIV_S, RUP);
    fesetround(FE_UPWARD);
    ws_fpu_exec(&div_up, 0xFFFFFFFFu, &l, NULL);
#if defined(__x86_64__)
    CHECK_EQ_U(_mm_getcsr() & 0x6000u, 0x4000u); /* (fegetround reads the x87 unit's mode) */
#else
    CHECK_EQ_U(fegetround(), FE_UPWARD);
#endif
    fesetround(FE_TONEAREST);
    CHECK_EQ_U(d[31], 0x3EAAAAABu);
    CHECK_EQ_U(ff[31], NX);
    for (int i = 0; i < 32; i++) a[i] = 0x00400000u, b[i] = TWO, ff[i] = 0;
#if defined(__x86_64__)
    unsigned saved = _mm_getcsr();
    unsigned odd = (saved & ~0x7FFFu) | 0x1F80u | 0x6000u | 0x8040u | 0x0001u; /* RTZ, DAZ, FTZ, IE */
    _mm_setcsr(odd);
    ws_fpu_host host;
    ws_fpu_host_save(&host);
    ws_fpu_exec(&mul, 0xFFFFFFFFu, &l, NULL);
    uint32_t one_third = 0;
    uint8_t fl = 0;
    ws_fpu_exec1(&div, ONE, 0x40400000u, 0, RNE, &one_third, &fl);
    for (int i = 0; i < 32; i++) a[i] = 0x00000003u;
    ws_fpu_exec(&div, 0xFFFFFFFFu, &l, NULL); /* subnormal / 2: tiny, inexact */
    unsigned after = _mm_getcsr();
    ws_fpu_host_restore(&host);
    unsigned restored = _mm_getcsr();
    _mm_setcsr(saved);
    CHECK_EQ_U(after & ~0x3Fu, odd & ~0x3Fu); /* control bits kept */
    CHECK_EQ_U(restored, odd);                /* and the flags restored */
    CHECK_EQ_U(one_third, 0x3EAAAAABu);
    CHECK_EQ_U(d[0], 0x00000002u);  /* 1.5 ulp rounds to even under RNE, not flushed */
    CHECK_EQ_U(ff[0], UF | NX);
#endif
}

int main(void)
{
    test_rounding_modes();
    test_nan_and_invalid();
    test_overflow_underflow();
    test_fma();
    test_fcvt();
    test_minmax_compare();
    test_class_and_moves();
    test_rm_legality();
    test_against_host();
    test_warp();
    test_warp_null_sources();
    test_host_state();
    return TEST_SUMMARY();
}
