/* Rounding functions that replace picolibc 1.8's (libwsmath.a, linked
 * before picolibc's libc.a, so a module that calls one of these gets this
 * one). picolibc's give wrong results on rv32 for arguments whose
 * fraction bits reach the low word or past the 64-bit shift range:
 * trunc(1e300) = 9.99999999995523e299, ceil(4294967295.5) = 4293918720,
 * floor(-4503599627370495.5) = -4503598553628672, truncf(1e15) loses bits
 * and llround(1e17) = 99999965640261632 (qemu-riscv32 runs picolibc's code
 * to the same values, so the device is not at fault). Built without line
 * information, as libwsatomic.a is: `step` goes over a call. */
#include <math.h>
#include <stdint.h>
#include <string.h>

static uint64_t bits_of(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static double double_of(uint64_t u)
{
    double x;
    memcpy(&x, &u, sizeof x);
    return x;
}

double trunc(double x)
{
    uint64_t u = bits_of(x);
    int e = (int)((u >> 52) & 0x7ff) - 1023;          /* unbiased exponent */
    if (e >= 52) return x;                            /* integral already, inf or NaN */
    if (e < 0) return double_of(u & (1ull << 63));     /* |x| < 1: zero of x's sign */
    return double_of(u & ~(0x000fffffffffffffull >> e)); /* clear the fraction's bits */
}

float truncf(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    int e = (int)((u >> 23) & 0xff) - 127;
    if (e >= 23) return x;
    u &= e < 0 ? 1u << 31 : ~(0x007fffffu >> e);
    memcpy(&x, &u, sizeof x);
    return x;
}

/* t = trunc(x) is exact, and so is t -/+ 1 below 2^52, where x can have a fraction */
double floor(double x)
{
    double t = trunc(x);
    return x < t ? t - 1.0 : t;
}

double ceil(double x)
{
    double t = trunc(x);
    return x > t ? t + 1.0 : t;
}

/* Halfway cases away from zero; x - trunc(x) is exact. Out of range or NaN
 * the result is unspecified, as C says, and is the conversion's. */
long long llround(double x)
{
    double t = trunc(x);
    if (fabs(x - t) >= 0.5) t += x < 0 ? -1.0 : 1.0;
    return (long long)t;
}
