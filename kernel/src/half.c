/* Conversions of _Float16 (IEEE binary16), which clang calls for every
 * _Float16 operation on rv32imafc (it computes in float): __extendhfsf2,
 * __truncsfhf2 and __truncdfhf2. Debian's rv32 libgcc (GCC 12) has none of
 * them, so until 2026-11-29 a kernel that did arithmetic on _Float16 did
 * not link. In libwsmath.a, without line information (`step` goes over a
 * call, as over libgcc's helpers).
 *
 * As an F-extension conversion would: the rounding mode is the lane's frm
 * (RNE, RTZ, RDN, RUP, RMM), the flags (NV, OF, UF, NX) are raised in its
 * fflags, tininess is detected after rounding, and a NaN result is the
 * canonical NaN (0x7e00 for binary16, 0x7fc00000 for binary32). Calling
 * convention as clang uses it: a _Float16 travels in the low 16 bits of an
 * integer register, a float in fa0, a double in a0/a1 (ilp32f). */
#include <stdint.h>
#include <string.h>

enum { FLAG_NX = 1, FLAG_UF = 2, FLAG_OF = 4, FLAG_NV = 16 };

static void raise_flags(uint32_t f)
{
    if (f) __asm__ volatile("csrs fflags, %0" : : "r"(f));
}

static uint32_t rounding_mode(void)
{
    uint32_t rm;
    __asm__ volatile("csrr %0, frm" : "=r"(rm));
    return rm;
}

/* Round q + rem/2^shift (rem < 2^shift, shift 1..64 bits below q) by rm
 * for a value of sign `neg`: 1 to add one to q, else 0. */
static uint32_t round_up(uint64_t q, uint64_t rem, uint64_t half, int neg, uint32_t rm)
{
    if (!rem) return 0;
    switch (rm) {
    case 1: return 0;                                          /* RTZ */
    case 2: return neg ? 1 : 0;                                /* RDN */
    case 3: return neg ? 0 : 1;                                /* RUP */
    case 4: return rem >= half;                                /* RMM */
    default: return rem > half || (rem == half && (q & 1));   /* RNE (5-7 are reserved) */
    }
}

/* binary16 of (-1)^neg * m * 2^(e-63), m != 0 with bit 63 set. */
static uint32_t pack_half(int neg, int32_t e, uint64_t m)
{
    const uint32_t rm = rounding_mode(), sign = neg ? 0x8000u : 0;
    /* bits below the 11 the result keeps (fewer for a subnormal result) */
    const int32_t shift = e >= -14 ? 53 : 53 + (-14 - e);
    uint64_t q, rem, half;
    if (shift < 64) {
        q = m >> shift;
        rem = m & ((1ull << shift) - 1);
        half = 1ull << (shift - 1);
    } else { /* below the smallest subnormal's half-step or at it */
        q = 0;
        rem = shift == 64 ? m : 1;              /* 1: any value below half */
        half = shift == 64 ? 1ull << 63 : 2;
    }
    q += round_up(q, rem, half, neg, rm);
    uint32_t flags = rem ? FLAG_NX : 0;
    /* tiny after rounding: below 2^-14 were the exponent unbounded */
    if (rem && e < -14) {
        int tiny = 1;
        if (e == -15) { /* [2^-15, 2^-14): tiny unless 11 bits round up to 2^-14 */
            uint64_t q11 = m >> 53, r11 = m & ((1ull << 53) - 1);
            tiny = q11 + round_up(q11, r11, 1ull << 52, neg, rm) < (1ull << 11);
        }
        if (tiny) flags |= FLAG_UF;
    }
    /* normal: exponent field e+15 over the implicit bit; subnormal: q alone
     * (a carry into bit 10 or 11 moves the exponent, as the encoding wants) */
    uint64_t enc = e >= -14 ? ((uint64_t)(e + 14) << 10) + q : q;
    if (enc >= 0x7c00) {
        raise_flags(FLAG_OF | FLAG_NX);
        int to_inf = rm == 0 || rm == 4 || rm > 4 || (rm == 2 && neg) || (rm == 3 && !neg);
        return sign | (to_inf ? 0x7c00u : 0x7bffu);
    }
    raise_flags(flags);
    return sign | (uint32_t)enc;
}

float __extendhfsf2(uint32_t h);
uint32_t __truncsfhf2(float f);
uint32_t __truncdfhf2(double d);

float __extendhfsf2(uint32_t h)
{
    const uint32_t sign = (h & 0x8000u) << 16, exp = h >> 10 & 0x1f;
    uint32_t frac = h & 0x3ff, out;
    if (exp == 0x1f) {
        if (frac) {
            if (!(frac & 0x200)) raise_flags(FLAG_NV); /* signalling NaN */
            out = 0x7fc00000u;
        } else {
            out = sign | 0x7f800000u;
        }
    } else if (exp) {
        out = sign | (exp + 112) << 23 | frac << 13;
    } else if (!frac) {
        out = sign;
    } else { /* subnormal: frac * 2^-24, normalised */
        int lead = 31 - __builtin_clz(frac);                /* 0..9 */
        out = sign | (uint32_t)(lead + 103) << 23 | (frac << (23 - lead) & 0x7fffff);
    }
    float f;
    memcpy(&f, &out, sizeof f);
    return f;
}

uint32_t __truncsfhf2(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    const int neg = u >> 31;
    const uint32_t exp = u >> 23 & 0xff, frac = u & 0x7fffff;
    if (exp == 0xff) {
        if (!frac) return (neg ? 0x8000u : 0) | 0x7c00u;
        if (!(frac & 0x400000)) raise_flags(FLAG_NV);
        return 0x7e00u;
    }
    if (!exp && !frac) return neg ? 0x8000u : 0;
    uint64_t m = exp ? (uint64_t)(frac | 0x800000) << 40 : (uint64_t)frac << 40;
    int32_t e = exp ? (int32_t)exp - 127 : -126;
    while (!(m >> 63)) { m <<= 1; e--; }
    return pack_half(neg, e, m);
}

uint32_t __truncdfhf2(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    const int neg = (int)(u >> 63);
    const uint32_t exp = (uint32_t)(u >> 52) & 0x7ff;
    const uint64_t frac = u & 0xfffffffffffffull;
    if (exp == 0x7ff) {
        if (!frac) return (neg ? 0x8000u : 0) | 0x7c00u;
        if (!(frac & 0x8000000000000ull)) raise_flags(FLAG_NV);
        return 0x7e00u;
    }
    if (!exp && !frac) return neg ? 0x8000u : 0;
    uint64_t m = exp ? (frac | 0x10000000000000ull) << 11 : frac << 11;
    int32_t e = exp ? (int32_t)exp - 1023 : -1022;
    while (!(m >> 63)) { m <<= 1; e--; }
    return pack_half(neg, e, m);
}
