/* RV32F semantics (see fpu.h).
 *
 * Strategy
 *  - Everything that is not arithmetic (sign injection, moves, compares,
 *    min/max, fclass, integer<->float conversions) is done with integer
 *    operations on the IEEE bits, so it is exact and host-independent.
 *  - Arithmetic (add sub mul div sqrt and the four FMAs) has two paths:
 *    * exact path, per lane: compute in double under round-toward-zero and
 *      turn the result into "round to odd" (set the last bit when the host
 *      reports inexact). Products and sums of two floats, float quotients,
 *      square roots and float fma (exact product + one sum) neither overflow
 *      nor underflow in double, and a round-to-odd value with 53 >= 24 + 2
 *      bits rounds to float exactly like the infinitely precise result. The
 *      final rounding to float (all five modes, with tininess after rounding,
 *      UF/OF/NX) is done in software by round_pack().
 *    * fast path, whole warp (uniform mode RNE/RTZ/RDN/RUP; the x86 host
 *      has no RMM): one loop per op with native float operations under the
 *      host rounding mode, and one host flag test per warp instruction.
 *      When the raised flags are already set in every active lane (the
 *      usual state once a kernel has had one inexact result) nothing needs
 *      attributing; otherwise each lane is rerun alone with a flag read.
 *      FMA under RNE: exact double product, double sum, one conversion;
 *      lanes where that could double-round are redone with an error-free
 *      TwoSum and round-to-odd (fma_rne); on a host with FMA instructions
 *      the host's fused multiply-add, in any of the four modes. FMA under
 *      directed modes without them, RMM and lanes with different dynamic
 *      modes take the exact path. Inexact as the only new flag is told lane
 *      by lane by exact arithmetic (lane_inexact), in every mode.
 *  - x86 specifics: MXCSR is set explicitly on entry (all exceptions masked,
 *    DAZ/FTZ off, wanted rounding mode) and the caller's MXCSR (mode and
 *    flags, normally round-to-nearest) is restored before returning. x86
 *    detects tininess after rounding and raises UE only when also inexact,
 *    as RISC-V does; its default NaN (sign set) never escapes because every
 *    NaN result is replaced by the canonical NaN.
 *  This file is compiled with -frounding-math -fsignaling-nans
 *  -ffp-contract=off; opaque() and FP_BEGIN/FP_END keep float operations
 *  between the flag clear and the flag read. */
#include <fenv.h>
#include <math.h>
#include <string.h>

#include "isa/fpu.h"

#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE2_MATH__))
#include <xmmintrin.h>
#define WS_HOST_MXCSR 1
#define opaque(v) __asm__ volatile("" : "+x"(v))
#else
#define WS_HOST_MXCSR 0
#define opaque(v) __asm__ volatile("" : "+m"(v))
#endif

#define SIGN 0x80000000u
#define F_NV WS_FFLAG_NV
#define F_DZ WS_FFLAG_DZ
#define F_OF WS_FFLAG_OF
#define F_UF WS_FFLAG_UF
#define F_NX WS_FFLAG_NX

/* ---------------------------------------------------------------------- */
/* bit helpers                                                            */

static inline float f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint32_t u32(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline double f64(uint64_t u) { double d; memcpy(&d, &u, 8); return d; }
static inline uint64_t u64(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

/* (as a signed compare of two non-negative values: SSE2 has that, so the
 * warp loops over it vectorise) */
static inline int is_nan(uint32_t u) { return (int32_t)(u & ~SIGN) > 0x7F800000; }
static inline int is_snan(uint32_t u) { return is_nan(u) && !(u & 0x00400000u); }
static inline int is_zero(uint32_t u) { return (u & ~SIGN) == 0; }
static inline uint32_t canon(uint32_t u) { return is_nan(u) ? WS_CANONICAL_NAN : u; }

/* Map float bits to an unsigned key with key order == numeric order and
 * -0 < +0 (NaNs excluded by callers). */
static inline uint32_t order_key(uint32_t u) { return (u & SIGN) ? ~u : u | SIGN; }

/* ---------------------------------------------------------------------- */
/* host floating-point environment                                        */

typedef struct host_fp {
#if WS_HOST_MXCSR
    unsigned saved, active;
#else
    int saved_round, round;
    fexcept_t saved_flags;
#endif
} host_fp;

#if WS_HOST_MXCSR
enum { MX_IE = 0x01, MX_DE = 0x02, MX_ZE = 0x04, MX_OE = 0x08, MX_UE = 0x10, MX_PE = 0x20, MX_FLAGS = 0x3F,
       MX_MASKS = 0x1F80 };

/* Enter rounding mode rm with the status flags cleared, except those of
 * `known` (RISC-V fflags every lane concerned has already, so whether the
 * op raises them does not matter) and the denormal flag (never read).
 * The register is written only when that changes it, and on leaving only
 * the caller's control bits (rounding, masks, DAZ, FTZ) are put back, not
 * its flags (ws_fpu_host_save). Why: on Intel hosts an SSE operation
 * after a write that changed MXCSR's flags waits 20-40 ns, and two such
 * writes per instruction were 40 % of a float kernel's time
 * (docs/performance.md, "MXCSR writes"; bench/fpu). */
static void host_enter(host_fp *h, unsigned rm, unsigned known)
{
    static const unsigned rc[4] = { 0x0000, 0x6000, 0x2000, 0x4000 }; /* RNE RTZ RDN RUP */
    const unsigned preset = (known & F_NV ? MX_IE : 0) | (known & F_DZ ? MX_ZE : 0) | (known & F_OF ? MX_OE : 0) |
                            (known & F_UF ? MX_UE : 0) | (known & F_NX ? MX_PE : 0);
    h->saved = _mm_getcsr();
    h->active = MX_MASKS | rc[rm & 3] | MX_DE | preset; /* DAZ and FTZ off */
    if (h->saved != h->active) _mm_setcsr(h->active);
}

static inline void host_clear(const host_fp *h) { _mm_setcsr(h->active); }

/* Round to nearest for a while, the flags kept (a write that changes the
 * rounding mode alone costs little), and back to h's mode. */
static inline void host_nearest(void) { _mm_setcsr(_mm_getcsr() & ~0x6000u); }
static inline void host_resume(const host_fp *h) { _mm_setcsr((_mm_getcsr() & MX_FLAGS) | (h->active & ~MX_FLAGS)); }

static inline void host_leave(const host_fp *h)
{
    if ((h->saved & ~MX_FLAGS) != (h->active & ~MX_FLAGS))
        _mm_setcsr((h->saved & ~MX_FLAGS) | (_mm_getcsr() & MX_FLAGS));
}

/* Raised host exceptions as RISC-V fflags (the x86 denormal flag is ignored). */
static inline unsigned host_flags(void)
{
    unsigned m = _mm_getcsr();
    return (m & MX_IE ? F_NV : 0) | (m & MX_ZE ? F_DZ : 0) | (m & MX_OE ? F_OF : 0) |
           (m & MX_UE ? F_UF : 0) | (m & MX_PE ? F_NX : 0);
}
#else
/* (known: see the MXCSR version; here every flag starts clear) */
static void host_enter(host_fp *h, unsigned rm, unsigned known)
{
    (void)known;
    static const int modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };
    h->saved_round = fegetround();
    fegetexceptflag(&h->saved_flags, FE_ALL_EXCEPT);
    h->round = modes[rm & 3];
    fesetround(h->round);
    feclearexcept(FE_ALL_EXCEPT);
}

static inline void host_clear(const host_fp *h) { (void)h; feclearexcept(FE_ALL_EXCEPT); }
static inline void host_nearest(void) { fesetround(FE_TONEAREST); }
static inline void host_resume(const host_fp *h) { fesetround(h->round); }

static inline void host_leave(const host_fp *h)
{
    fesetround(h->saved_round);
    fesetexceptflag(&h->saved_flags, FE_ALL_EXCEPT);
}

static inline unsigned host_flags(void)
{
    int e = fetestexcept(FE_ALL_EXCEPT);
    return (e & FE_INVALID ? F_NV : 0) | (e & FE_DIVBYZERO ? F_DZ : 0) |
           (e & FE_OVERFLOW ? F_OF : 0) | (e & FE_UNDERFLOW ? F_UF : 0) |
           (e & FE_INEXACT ? F_NX : 0);
}
#endif

void ws_fpu_host_save(ws_fpu_host *s)
{
#if WS_HOST_MXCSR
    s->mxcsr = _mm_getcsr();
#else
    s->round = fegetround();
    fegetexceptflag(&s->flags, FE_ALL_EXCEPT);
#endif
}

void ws_fpu_host_restore(const ws_fpu_host *s)
{
#if WS_HOST_MXCSR
    if (_mm_getcsr() != s->mxcsr) _mm_setcsr(s->mxcsr);
#else
    fesetround(s->round);
    fesetexceptflag(&s->flags, FE_ALL_EXCEPT);
#endif
}

/* ---------------------------------------------------------------------- */
/* software rounding to binary32                                          */

/* sig >> shift rounded per rm (shift >= 1, may exceed 63); *inexact set. */
static inline uint64_t round_shift(uint64_t sig, unsigned shift, unsigned sign, unsigned rm, int *inexact)
{
    uint64_t q;
    unsigned guard;
    int sticky;
    if (shift > 64) {
        q = 0; guard = 0; sticky = sig != 0;
    } else if (shift == 64) {
        q = 0; guard = (unsigned)(sig >> 63); sticky = (sig << 1) != 0;
    } else {
        q = sig >> shift;
        guard = (unsigned)(sig >> (shift - 1)) & 1u;
        sticky = (sig & ((UINT64_C(1) << (shift - 1)) - 1)) != 0;
    }
    *inexact = guard || sticky;
    switch (rm) {
    case WS_RM_RNE: return q + (guard && (sticky || (q & 1)));
    case WS_RM_RDN: return q + (*inexact && sign);
    case WS_RM_RUP: return q + (*inexact && !sign);
    case WS_RM_RMM: return q + guard;
    default: return q; /* RTZ */
    }
}

static uint32_t overflow_result(unsigned sign, unsigned rm)
{
    const uint32_t inf = 0x7F800000u, max = 0x7F7FFFFFu, s = sign ? SIGN : 0;
    switch (rm) {
    case WS_RM_RTZ: return s | max;
    case WS_RM_RDN: return s | (sign ? inf : max);
    case WS_RM_RUP: return s | (sign ? max : inf);
    default: return s | inf; /* RNE, RMM */
    }
}

/* Round sign * sig * 2^exp (sig != 0) to binary32, accruing NX/UF/OF.
 * Tininess is detected after rounding, as RISC-V requires. */
static uint32_t round_pack(unsigned sign, int exp, uint64_t sig, unsigned rm, unsigned *fl)
{
    int lz = __builtin_clzll(sig), inexact;
    sig <<= lz;
    int e = exp - lz + 63; /* unbiased exponent of the leading bit */
    uint32_t s = sign ? SIGN : 0;
    if (e > 127) {
        *fl |= F_OF | F_NX;
        return overflow_result(sign, rm);
    }
    if (e < -126) {
        /* tiny unless rounding to 24 bits with unbounded range reaches 2^-126 */
        int tiny = !(e == -127 && round_shift(sig, 40, sign, rm, &inexact) >> 24);
        uint64_t q = round_shift(sig, (unsigned)(40 + (-126 - e)), sign, rm, &inexact);
        if (inexact) *fl |= F_NX | (tiny ? F_UF : 0);
        return s | (uint32_t)q; /* q == 2^23 encodes the smallest normal */
    }
    uint64_t q = round_shift(sig, 40, sign, rm, &inexact);
    uint32_t mag = ((uint32_t)(e + 127) << 23) + (uint32_t)q - (1u << 23); /* carry bumps exp */
    if (mag >= 0x7F800000u) {
        *fl |= F_OF | F_NX;
        return overflow_result(sign, rm);
    }
    if (inexact) *fl |= F_NX;
    return s | mag;
}

/* Round a finite or infinite (not NaN) double to binary32. */
static uint32_t round_double(double d, unsigned rm, unsigned *fl)
{
    uint64_t u = u64(d);
    unsigned sign = (unsigned)(u >> 63), e = (unsigned)(u >> 52) & 0x7FFu;
    uint64_t m = u & ((UINT64_C(1) << 52) - 1);
    if (e == 0x7FF) return (sign ? SIGN : 0) | 0x7F800000u;
    if (e == 0 && m == 0) return sign ? SIGN : 0;
    if (e == 0) e = 1; /* double subnormal: cannot come from float operands */
    else m |= UINT64_C(1) << 52;
    return round_pack(sign, (int)e - 1075, m, rm, fl);
}

/* ---------------------------------------------------------------------- */
/* exact arithmetic path                                                  */

static int is_fma(ws_op op) { return op >= OP_FMADD_S && op <= OP_FNMADD_S; }
static int is_arith(ws_op op) { return op >= OP_FMADD_S && op <= OP_FSQRT_S; }

/* Ops whose rm field is a rounding mode (and so can be illegal). */
static int uses_rm(ws_op op)
{
    return is_arith(op) || op == OP_FCVT_W_S || op == OP_FCVT_WU_S || op == OP_FCVT_S_W ||
           op == OP_FCVT_S_WU;
}

/* Double with the last bit set when the host reported an inexact result:
 * round-to-odd from the truncated (RTZ) value. */
static inline double jam(double r, unsigned hf)
{
    return (hf & F_NX) ? f64(u64(r) | 1u) : r;
}

/* One arithmetic op on the exact path. The host must be in RTZ with all
 * exceptions masked (host_enter(h, WS_RM_RTZ, 0)). */
static uint32_t arith_exact(const host_fp *h, ws_op op, unsigned rm, uint32_t a, uint32_t b,
                            uint32_t c, unsigned *fl)
{
    double x, y, z = 0, r, s1 = 0, s2 = 0; /* s1, s2: the two addends of a sum */
    host_clear(h);
    /* the operands pass through an asm after the clear, so their conversion
     * (which raises invalid for an sNaN) cannot be hoisted above it */
    __asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c));
    /* convert only the operands the op has: an unused sNaN must not flag */
    x = f32(a);
    y = op == OP_FSQRT_S ? 0 : f32(b);
    if (is_fma(op)) z = f32(c);
    opaque(x); opaque(y); opaque(z);
    switch (op) {
    case OP_FADD_S: s1 = x; s2 = y; r = s1 + s2; break;
    case OP_FSUB_S: s1 = x; s2 = -y; r = s1 + s2; break;
    case OP_FMUL_S: r = x * y; break;
    case OP_FDIV_S: r = x / y; break;
    case OP_FSQRT_S: r = __builtin_sqrt(x); break;
    default: /* fma: the double product is exact, so only the sum rounds */
        s1 = x * y;
        s2 = z;
        opaque(s1);
        if (op == OP_FNMSUB_S || op == OP_FNMADD_S) s1 = -s1;
        if (op == OP_FMSUB_S || op == OP_FNMADD_S) s2 = -s2;
        r = s1 + s2;
        break;
    }
    opaque(r);
    unsigned hf = host_flags();
    *fl |= hf & (F_NV | F_DZ);
    if (r != r) return WS_CANONICAL_NAN;
    if (r == 0 && (is_fma(op) || op == OP_FADD_S || op == OP_FSUB_S)) {
        /* an exact zero sum is -0 only for (-0)+(-0), or under RDN unless (+0)+(+0) */
        int n1 = signbit(s1) != 0, n2 = signbit(s2) != 0;
        return (rm == WS_RM_RDN ? (n1 | n2) : (n1 & n2)) ? SIGN : 0;
    }
    return round_double(jam(r, hf), rm, fl);
}

/* ---------------------------------------------------------------------- */
/* non-arithmetic ops (integer logic only)                                */

static uint32_t fclass(uint32_t u)
{
    unsigned neg = u >> 31, e = (u >> 23) & 0xFFu, m = u & 0x7FFFFFu;
    if (e == 0xFF) {
        if (m == 0) return neg ? 1u << 0 : 1u << 7;
        return (m & 0x400000u) ? 1u << 9 : 1u << 8;
    }
    if (e == 0) {
        if (m == 0) return neg ? 1u << 3 : 1u << 4;
        return neg ? 1u << 2 : 1u << 5;
    }
    return neg ? 1u << 1 : 1u << 6;
}

static inline uint32_t fcmp(ws_op op, uint32_t a, uint32_t b, unsigned *fl)
{
    if (is_nan(a) || is_nan(b)) {
        /* feq is a quiet compare; flt/fle signal on any NaN */
        if (op != OP_FEQ_S || is_snan(a) || is_snan(b)) *fl |= F_NV;
        return 0;
    }
    if (is_zero(a) && is_zero(b)) return op != OP_FLT_S; /* -0 == +0 */
    uint32_t ka = order_key(a), kb = order_key(b);
    switch (op) {
    case OP_FEQ_S: return a == b;
    case OP_FLT_S: return ka < kb;
    default: return ka <= kb;
    }
}

/* IEEE 754-2019 minimumNumber/maximumNumber with -0 < +0. */
static inline uint32_t fminmax(ws_op op, uint32_t a, uint32_t b, unsigned *fl)
{
    if (is_snan(a) || is_snan(b)) *fl |= F_NV;
    if (is_nan(a) && is_nan(b)) return WS_CANONICAL_NAN;
    if (is_nan(a)) return b;
    if (is_nan(b)) return a;
    int a_less = order_key(a) < order_key(b);
    return (op == OP_FMIN_S) == a_less ? a : b;
}

/* fcvt.w[u].s: round per rm, saturate out-of-range and NaN with NV only. */
static inline uint32_t f_to_int(uint32_t u, int is_unsigned, unsigned rm, unsigned *fl)
{
    unsigned neg = u >> 31, e = (u >> 23) & 0xFFu;
    uint32_t pos_max = is_unsigned ? 0xFFFFFFFFu : 0x7FFFFFFFu;
    uint32_t neg_max = is_unsigned ? 0u : 0x80000000u;
    if (is_nan(u)) { *fl |= F_NV; return pos_max; }
    if (e >= 127 + 32) { *fl |= F_NV; return neg ? neg_max : pos_max; } /* also inf */
    uint64_t sig = (u & 0x7FFFFFu) | (e ? 0x800000u : 0);
    int exp = (e ? (int)e : 1) - 150; /* value = sig * 2^exp */
    int inexact = 0;
    uint64_t mag = exp >= 0 ? sig << exp : round_shift(sig, (unsigned)-exp, neg, rm, &inexact);
    int out_of_range = neg ? (is_unsigned ? mag != 0 : mag > 0x80000000u) : mag > pos_max;
    if (out_of_range) { *fl |= F_NV; return neg ? neg_max : pos_max; }
    if (inexact) *fl |= F_NX;
    return neg ? (uint32_t)(0u - (uint32_t)mag) : (uint32_t)mag;
}

static uint32_t int_to_f(uint32_t x, int is_signed, unsigned rm, unsigned *fl)
{
    unsigned neg = is_signed && (x & SIGN);
    uint32_t mag = neg ? 0u - x : x;
    if (mag == 0) return 0;
    return round_pack(neg, 0, mag, rm, fl);
}

/* Any float op except the arithmetic ones; rm already resolved. */
static uint32_t simple_op(ws_op op, unsigned rm, uint32_t a, uint32_t b, unsigned *fl)
{
    switch (op) {
    case OP_FSGNJ_S: return (a & ~SIGN) | (b & SIGN);
    case OP_FSGNJN_S: return (a & ~SIGN) | (~b & SIGN);
    case OP_FSGNJX_S: return a ^ (b & SIGN);
    case OP_FMIN_S: case OP_FMAX_S: return fminmax(op, a, b, fl);
    case OP_FEQ_S: case OP_FLT_S: case OP_FLE_S: return fcmp(op, a, b, fl);
    case OP_FCLASS_S: return fclass(a);
    case OP_FCVT_W_S: return f_to_int(a, 0, rm, fl);
    case OP_FCVT_WU_S: return f_to_int(a, 1, rm, fl);
    case OP_FCVT_S_W: return int_to_f(a, 1, rm, fl);
    case OP_FCVT_S_WU: return int_to_f(a, 0, rm, fl);
    default: return a; /* fmv.x.w, fmv.w.x: bits move unchanged */
    }
}

static int is_fpu_op(ws_op op) { return op >= OP_FMADD_S && op <= OP_FMV_W_X; }

/* Effective rounding mode, or -1 if reserved (5, 6, or dyn with frm > 4). */
static int effective_rm(ws_op op, unsigned rm, unsigned frm)
{
    if (!uses_rm(op)) return 0;
    if (rm == WS_RM_DYN) rm = frm;
    return rm <= WS_RM_RMM ? (int)rm : -1;
}

/* ---------------------------------------------------------------------- */
/* scalar entry                                                           */

int ws_fpu_exec1(const ws_inst *in, uint32_t a, uint32_t b, uint32_t c, uint8_t frm,
                 uint32_t *d, uint8_t *fflags)
{
    ws_op op = (ws_op)in->op;
    int rm = effective_rm(op, in->rm, frm);
    if (!is_fpu_op(op) || rm < 0) return -1;
    unsigned fl = 0;
    if (is_arith(op)) {
        host_fp h;
        host_enter(&h, WS_RM_RTZ, 0);
        *d = arith_exact(&h, op, (unsigned)rm, a, b, c, &fl);
        host_leave(&h);
    } else {
        *d = simple_op(op, (unsigned)rm, a, b, &fl);
    }
    *fflags = (uint8_t)(*fflags | fl);
    return 0;
}

/* ---------------------------------------------------------------------- */
/* warp entry                                                             */

/* Run BODY for each lane i of mask. A full warp (the common case) is a
 * fixed-count loop the compiler vectorises; a contiguous mask from lane 0
 * is a counted loop; anything else walks the set bits. */
#define FOR_MASK(mask, i, BODY) do {                                          \
        uint32_t m_ = (mask);                                                \
        if (m_ == 0xFFFFFFFFu) {                                             \
            for (unsigned i = 0; i < 32; i++) { BODY; }                      \
        } else if ((m_ & (m_ + 1)) == 0) {                                   \
            unsigned n_ = (unsigned)__builtin_ctz(~m_);                      \
            for (unsigned i = 0; i < n_; i++) { BODY; }                      \
        } else {                                                             \
            for (; m_; m_ &= m_ - 1) {                                       \
                unsigned i = (unsigned)__builtin_ctz(m_);                    \
                BODY;                                                        \
            }                                                                \
        }                                                                    \
    } while (0)

/* Keep float work between the flag clear and the flag read. FP_BEGIN: no
 * lane load moves above it. FP_END(t): the results in t[0..31] are stored
 * before it (t is read as a memory operand, so its address does not escape
 * and the lane loops still vectorise). */
#define FP_BEGIN() __asm__ volatile("" : : : "memory")
#define FP_END(t) __asm__ volatile("" : : "m"(*(const uint32_t(*)[32])(t)))

/* fma under RNE: exact double product, TwoSum for the exact error of the
 * double sum, round-to-odd, then one conversion that rounds (and flags)
 * exactly as the infinitely precise result would. */
static inline float fma_rne(float a, float b, float c, int neg_p, int neg_c)
{
    double p = (double)a * (double)b, z = c;
    if (neg_p) p = -p;
    if (neg_c) z = -z;
    double s = p + z;
    uint64_t su = u64(s);
    if (((su >> 52) & 0x7FF) != 0x7FF) {
        double bb = s - p;
        double err = (p - (s - bb)) + (z - bb);
        if (err != 0) {
            /* truncate toward zero, then make odd */
            if ((u64(err) ^ su) >> 63) su -= 1;
            s = f64(su | 1u);
        }
    }
    return (float)s;
}

/* fma under RNE for a whole loop: the double sum rounded to float is the
 * correctly rounded result, with the right flags, unless the double is a
 * float rounding midpoint or a float itself while the exact sum is not
 * (then a tiny inexact result would not raise underflow). Both kinds of
 * double have their low 28 bits zero; such lanes are redone with fma_rne.
 * Returns the bits and sets *redo. */
static inline uint32_t fma_rne_wide(float a, float b, float c, int neg_p, int neg_c, uint8_t *redo)
{
    double p = (double)a * (double)b, z = c;
    if (neg_p) p = -p;
    if (neg_c) z = -z;
    double s = p + z;
    *redo = ((uint32_t)u64(s) & 0x0FFFFFFFu) == 0;
    return u32((float)s);
}

#if defined(__x86_64__) && defined(__GNUC__)
#define WS_HOST_HW_FMA 1
#include <immintrin.h>
/* The host's fused multiply-add rounds once in the current MXCSR mode and
 * raises IEEE flags, as RISC-V requires; negating an input is exact. Lanes
 * whose addend is a NaN go to the exact path, because hosts differ on
 * whether inf*0 + qNaN is invalid. Returns those lanes. */
__attribute__((target("fma"))) static uint32_t fma_hw_lanes(uint32_t mask, uint32_t *restrict tmp,
                                                            const uint32_t *restrict a,
                                                            const uint32_t *restrict b,
                                                            const uint32_t *restrict c, int np, int nc)
{
    const uint32_t sa = np ? SIGN : 0, sc = nc ? SIGN : 0;
    uint32_t odd = 0, any = 0;
    /* A full warp: four lanes per vfmadd (the same fused operation, per
     * lane, as the scalar one: same results, same flags). The NaN check is
     * a separate loop that vectorises; the mask only when needed. */
    if (mask == 0xFFFFFFFFu) {
        const __m128 xa = _mm_castsi128_ps(_mm_set1_epi32((int)sa)), xc = _mm_castsi128_ps(_mm_set1_epi32((int)sc));
        for (unsigned i = 0; i < 32; i += 4) {
            __m128 va = _mm_xor_ps(_mm_loadu_ps((const float *)&a[i]), xa);
            __m128 vb = _mm_loadu_ps((const float *)&b[i]);
            __m128 vc = _mm_xor_ps(_mm_loadu_ps((const float *)&c[i]), xc);
            _mm_storeu_ps((float *)&tmp[i], _mm_fmadd_ps(va, vb, vc));
        }
    } else {
        FOR_MASK(mask, i, tmp[i] = u32(__builtin_fmaf(f32(a[i] ^ sa), f32(b[i]), f32(c[i] ^ sc))));
    }
    FOR_MASK(mask, i, any |= (uint32_t)((c[i] & 0x7FFFFFFFu) > 0x7F800000u));
    if (any) FOR_MASK(mask, i, odd |= (uint32_t)((c[i] & 0x7FFFFFFFu) > 0x7F800000u) << i);
    return odd;
}

static int host_has_fma(void) { return __builtin_cpu_supports("fma"); }
#else
#define WS_HOST_HW_FMA 0
#endif

/* Does native_lanes run the fmas on the host's fused multiply-add? */
static inline int host_fma(void)
{
#if WS_HOST_HW_FMA
    return host_has_fma();
#else
    return 0;
#endif
}

/* One lane of the fast path (host rounding mode already set). */
static inline uint32_t native_op(ws_op op, uint32_t a, uint32_t b, uint32_t c)
{
    switch (op) {
    case OP_FADD_S: return u32(f32(a) + f32(b));
    case OP_FSUB_S: return u32(f32(a) - f32(b));
    case OP_FMUL_S: return u32(f32(a) * f32(b));
    case OP_FDIV_S: return u32(f32(a) / f32(b));
    case OP_FSQRT_S: return u32(__builtin_sqrtf(f32(a)));
    case OP_FMADD_S: return u32(fma_rne(f32(a), f32(b), f32(c), 0, 0));
    case OP_FMSUB_S: return u32(fma_rne(f32(a), f32(b), f32(c), 0, 1));
    case OP_FNMSUB_S: return u32(fma_rne(f32(a), f32(b), f32(c), 1, 0));
    default: return u32(fma_rne(f32(a), f32(b), f32(c), 1, 1));
    }
}

/* tmp[i] = op(lanes) for the lanes of mask, host mode already set. One
 * loop per op so the common ones vectorise; restrict: tmp is local, the
 * sources are only read. */
static void native_lanes(ws_op op, uint32_t mask, uint32_t *restrict tmp, const uint32_t *restrict a,
                         const uint32_t *restrict b, const uint32_t *restrict c)
{
    switch (op) {
    case OP_FADD_S: FOR_MASK(mask, i, tmp[i] = native_op(OP_FADD_S, a[i], b[i], 0)); break;
    case OP_FSUB_S: FOR_MASK(mask, i, tmp[i] = native_op(OP_FSUB_S, a[i], b[i], 0)); break;
    case OP_FMUL_S: FOR_MASK(mask, i, tmp[i] = native_op(OP_FMUL_S, a[i], b[i], 0)); break;
    case OP_FDIV_S: FOR_MASK(mask, i, tmp[i] = native_op(OP_FDIV_S, a[i], b[i], 0)); break;
    case OP_FSQRT_S: FOR_MASK(mask, i, tmp[i] = native_op(OP_FSQRT_S, a[i], 0, 0)); break;
    default: { /* the four fmas */
        int np = op == OP_FNMSUB_S || op == OP_FNMADD_S, nc = op == OP_FMSUB_S || op == OP_FNMADD_S;
#if WS_HOST_HW_FMA
        if (host_has_fma()) {
            uint32_t odd = fma_hw_lanes(mask, tmp, a, b, c, np, nc);
            FOR_MASK(odd, i, tmp[i] = native_op(op, a[i], b[i], c[i]));
            break;
        }
#endif
        uint8_t redo[32];
        FOR_MASK(mask, i, tmp[i] = fma_rne_wide(f32(a[i]), f32(b[i]), f32(c[i]), np, nc, &redo[i]));
        FOR_MASK(mask, i, if (redo[i]) tmp[i] = native_op(op, a[i], b[i], c[i]));
        break;
    }
    }
}

static inline int finite32(uint32_t u) { return (u & 0x7F800000u) != 0x7F800000u; }

/* Was lane op(a, b, c) = r inexact? Told by exact double arithmetic, not
 * the host's flags (1 or 0), or -1 when this cannot tell: an operand or
 * the result not finite, a quotient or root of zero. The host must be in
 * RNE (TwoSum's error term is exact only under round to nearest). A sum
 * s + err of doubles with err != 0 is no double, so no float; with err = 0
 * it is exact iff s is a float. Products of floats are exact in double. */
static int lane_inexact(ws_op op, uint32_t a, uint32_t b, uint32_t c, uint32_t r)
{
    if (!finite32(a) || !finite32(r)) return -1;
    double x = f32(a), y = f32(b), p, z;
    switch (op) {
    case OP_FSQRT_S:
        if (is_zero(r)) return -1;
        p = (double)f32(r) * f32(r);
        return p != x;
    case OP_FDIV_S:
        if (!finite32(b) || is_zero(r)) return -1;
        p = (double)f32(r) * y;
        return p != x;
    case OP_FMUL_S:
        if (!finite32(b)) return -1;
        p = x * y;
        opaque(p);
        return (double)(float)p != p;
    case OP_FADD_S: case OP_FSUB_S:
        if (!finite32(b)) return -1;
        p = x;
        z = op == OP_FSUB_S ? -y : y;
        break;
    default: /* the four fmas */
        if (!finite32(b) || !finite32(c)) return -1;
        p = x * y;
        opaque(p);
        if (op == OP_FNMSUB_S || op == OP_FNMADD_S) p = -p;
        z = f32(c);
        if (op == OP_FMSUB_S || op == OP_FNMADD_S) z = -z;
        break;
    }
    double sum = p + z; /* TwoSum */
    opaque(sum);
    double bp = sum - p;
    opaque(bp);
    const double err = (p - (sum - bp)) + (z - bp);
    return err != 0 || (double)(float)sum != sum;
}

/* Fast path over the warp; returns 0 if it did the work, -1 to fall back.
 * One flag test for the warp; per-lane flag reads only when some lane
 * gains a new flag. */
static int fast_arith(ws_op op, unsigned rm, uint32_t mask, const uint32_t *a,
                      const uint32_t *b, const uint32_t *c, const ws_fpu_lanes *l)
{
    /* a directed fma only on the host's fused multiply-add (one rounding in
     * the host's mode); the software one rounds to nearest */
    const int directed_fma = is_fma(op) && rm != WS_RM_RNE;
    if (rm == WS_RM_RMM || (directed_fma && !host_fma())) return -1;
    uint32_t tmp[32];
    unsigned common = 0x1F; /* the flags every lane has already */
    if (mask == 0xFFFFFFFFu) { /* a full warp: the 32 bytes as four words */
        uint64_t v[4];
        memcpy(v, l->fflags, sizeof v);
        uint64_t all = v[0] & v[1] & v[2] & v[3];
        all &= all >> 32;
        all &= all >> 16;
        all &= all >> 8;
        common &= (unsigned)all;
    } else
        FOR_MASK(mask, i, common &= l->fflags[i]);
    host_fp h;
    host_enter(&h, rm, common);
    FP_BEGIN();
    native_lanes(op, mask, tmp, a, b, c);
    FP_END(tmp);
    unsigned raised = host_flags();
#if !WS_HOST_MXCSR
    /* a host that detects tininess before rounding (ARM) may report an
     * underflow RISC-V does not have: let the exact path decide */
    if (raised & F_UF) { host_leave(&h); return -1; }
#endif

    if (raised & ~common) { /* some lane gains a flag: find out which */
        uint32_t ask = mask; /* the lanes whose flags the host must tell */
        if ((raised & ~common) == F_NX) {
            /* inexact alone, the usual case: told lane by lane without
             * clearing the host's flags per lane (host_enter: 20-40 ns
             * each on an Intel host, 32 to a warp), by arithmetic that
             * rounds to nearest whatever mode the results were rounded in */
            ask = 0;
            if (rm != WS_RM_RNE) host_nearest();
            FOR_MASK(mask, i, {
                const int nx = lane_inexact(op, a[i], b[i], c[i], tmp[i]);
                if (nx < 0) ask |= 1u << i;
                else if (nx) l->fflags[i] = (uint8_t)(l->fflags[i] | F_NX);
            });
            if (rm != WS_RM_RNE) host_resume(&h);
        }
        if (ask && directed_fma) { /* a lane rerun alone takes the software fma */
            host_leave(&h);
            return -1;
        }
        FOR_MASK(ask, i, {
            uint32_t r;
            host_clear(&h);
            FP_BEGIN();
            r = native_op(op, a[i], b[i], c[i]);
            opaque(r);
            l->fflags[i] = (uint8_t)(l->fflags[i] | host_flags());
        });
    }
    host_leave(&h);
    if (mask == 0xFFFFFFFFu) { /* in place first: no aliasing to check, so it vectorises */
        for (unsigned i = 0; i < 32; i++) tmp[i] = canon(tmp[i]);
        memcpy(l->d, tmp, sizeof tmp);
    } else
        FOR_MASK(mask, i, l->d[i] = canon(tmp[i]));
    return 0;
}

/* Non-arithmetic ops with a uniform rounding mode: one loop per op. */
static void simple_warp(ws_op op, unsigned rm, uint32_t mask, const uint32_t *a,
                        const uint32_t *b, const ws_fpu_lanes *l)
{
    uint32_t *d = l->d;
    uint8_t *ff = l->fflags;
#define FLAGGED(EXPR) FOR_MASK(mask, i, { unsigned fl_ = 0; uint32_t r_ = EXPR; d[i] = r_; \
                                          ff[i] = (uint8_t)(ff[i] | fl_); })
    switch (op) {
    case OP_FSGNJ_S: FOR_MASK(mask, i, d[i] = (a[i] & ~SIGN) | (b[i] & SIGN)); break;
    case OP_FSGNJN_S: FOR_MASK(mask, i, d[i] = (a[i] & ~SIGN) | (~b[i] & SIGN)); break;
    case OP_FSGNJX_S: FOR_MASK(mask, i, d[i] = a[i] ^ (b[i] & SIGN)); break;
    case OP_FMV_X_W: case OP_FMV_W_X: FOR_MASK(mask, i, d[i] = a[i]); break;
    case OP_FCLASS_S: FOR_MASK(mask, i, d[i] = fclass(a[i])); break;
    case OP_FMIN_S: case OP_FMAX_S: FLAGGED(fminmax(op, a[i], b[i], &fl_)); break;
    case OP_FEQ_S: case OP_FLT_S: case OP_FLE_S: FLAGGED(fcmp(op, a[i], b[i], &fl_)); break;
    case OP_FCVT_W_S: FLAGGED(f_to_int(a[i], 0, rm, &fl_)); break;
    case OP_FCVT_WU_S: FLAGGED(f_to_int(a[i], 1, rm, &fl_)); break;
    case OP_FCVT_S_W: FLAGGED(int_to_f(a[i], 1, rm, &fl_)); break;
    default: FLAGGED(int_to_f(a[i], 0, rm, &fl_)); break; /* OP_FCVT_S_WU */
    }
#undef FLAGGED
}

/* Rounding mode for the lanes of mask: the uniform mode (>= 0), -1 if the
 * lanes differ, or -2 with *bad set to the first lane where it is reserved. */
static int warp_rm(ws_op op, unsigned rm, uint32_t mask, const uint8_t *frm, int *bad)
{
    if (!uses_rm(op)) return 0;
    if (rm != WS_RM_DYN) {
        if (rm <= WS_RM_RMM) return (int)rm;
        *bad = __builtin_ctz(mask);
        return -2;
    }
    unsigned f0 = frm[__builtin_ctz(mask)], diff = 0, reserved = 0;
    if (mask == 0xFFFFFFFFu) { /* a full warp: its 32 modes as four words, all f0 (the usual case)? */
        uint64_t v[4];
        const uint64_t all = 0x0101010101010101ull * f0;
        memcpy(v, frm, sizeof v);
        if (!((v[0] ^ all) | (v[1] ^ all) | (v[2] ^ all) | (v[3] ^ all)) && f0 <= WS_RM_RMM) return (int)f0;
    }
    FOR_MASK(mask, i, { diff |= frm[i] ^ f0; reserved |= frm[i] > WS_RM_RMM; });
    if (reserved) {
        for (uint32_t m = mask; m; m &= m - 1)
            if (frm[__builtin_ctz(m)] > WS_RM_RMM) { *bad = __builtin_ctz(m); break; }
        return -2;
    }
    return diff ? -1 : (int)f0;
}

int ws_fpu_exec(const ws_inst *in, uint32_t mask, const ws_fpu_lanes *l, int *bad_lane)
{
    static const uint32_t zeros[32];
    ws_op op = (ws_op)in->op;
    if (!mask) return 0;
    int bad = __builtin_ctz(mask);
    int rm = is_fpu_op(op) ? warp_rm(op, in->rm, mask, l->frm, &bad) : -2;
    if (rm == -2) {
        if (bad_lane) *bad_lane = bad;
        return -1;
    }
    const uint32_t *a = l->a, *b = l->b ? l->b : zeros, *c = l->c ? l->c : zeros;

    if (!is_arith(op) && rm >= 0) {
        simple_warp(op, (unsigned)rm, mask, a, b, l);
        return 0;
    }
    if (is_arith(op) && rm >= 0 && fast_arith(op, (unsigned)rm, mask, a, b, c, l) == 0) return 0;

    /* mixed dynamic modes, RMM, fma in directed modes: exact path per lane */
    host_fp h;
    host_enter(&h, WS_RM_RTZ, 0);
    FOR_MASK(mask, i, {
        unsigned fl = 0;
        unsigned lrm = (unsigned)effective_rm(op, in->rm, l->frm[i]);
        l->d[i] = is_arith(op) ? arith_exact(&h, op, lrm, a[i], b[i], c[i], &fl)
                               : simple_op(op, lrm, a[i], b[i], &fl);
        l->fflags[i] = (uint8_t)(l->fflags[i] | fl);
    });
    host_leave(&h);
    return 0;
}
