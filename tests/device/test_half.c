/* _Float16 conversions in kernels against a reference computed here from
 * the values themselves (the half grid as doubles, no host _Float16):
 * every binary16 value widened to float; floats and doubles (every half,
 * the midpoints between neighbours and their float neighbours, ties that a
 * double rounded to float first would get wrong, subnormals, overflow,
 * NaNs, random patterns) narrowed in the five rounding modes, with the
 * fflags each raises (NV, OF, UF after rounding, NX). Until 2026-11-29 a
 * kernel using _Float16 arithmetic did not link (no __extendhfsf2 in the
 * device's libraries).
 * usage: test_half MODULE.elf */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/warpscope.h"
#include "../device_config.h"
#include "../test.h"

enum { NV = 16, OF = 4, UF = 2, NX = 1 };
enum { RNE, RTZ, RDN, RUP, RMM };

static double half_value(unsigned enc) /* finite, non-negative encodings 0..0x7bff */
{
    unsigned e = enc >> 10, f = enc & 0x3ff;
    return e ? ldexp(1024 + f, (int)e - 25) : ldexp(f, -24);
}

static float float_of(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static uint32_t bits_f(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* x (finite, non-zero magnitude a, sign neg) to binary16 by mode rm */
static unsigned ref_trunc(double x, int rm, unsigned *flags)
{
    *flags = 0;
    if (isnan(x)) return 0x7e00;
    const int neg = signbit(x) != 0;
    const unsigned sign = neg ? 0x8000 : 0;
    if (isinf(x)) return sign | 0x7c00;
    const double a = fabs(x);
    if (a == 0) return sign;
    const int up_dir = (rm == RUP && !neg) || (rm == RDN && neg); /* magnitude rounds up when inexact */
    const double max = 65504.0, T = ldexp(1, -14);
    if (a >= 65536.0 || (a > max && (rm == RNE || rm == RMM ? a >= 65520.0 : up_dir))) {
        *flags = OF | NX;
        int inf = rm == RNE || rm == RMM || up_dir;
        return sign | (inf ? 0x7c00 : 0x7bff);
    }
    if (a > max) { *flags = NX; return sign | 0x7bff; }
    unsigned lo = 0, hi = 0x7bff; /* largest encoding with value <= a */
    while (lo < hi) {
        unsigned mid = (lo + hi + 1) / 2;
        if (half_value(mid) <= a) lo = mid; else hi = mid - 1;
    }
    const double vlo = half_value(lo);
    if (vlo == a) return sign | lo;
    const double vhi = half_value(lo + 1), m = (vlo + vhi) / 2; /* exact: 12 bits */
    int up;
    switch (rm) {
    case RNE: up = a > m || (a == m && (lo & 1)); break;
    case RMM: up = a >= m; break;
    default: up = up_dir; break;
    }
    *flags = NX;
    /* tiny after rounding: below 2^-14 with an unbounded exponent (11 bits) */
    if (a < T) {
        int tiny = 1;
        if (a > T - ldexp(1, -25))
            tiny = !((rm == RNE || rm == RMM) ? a >= T - ldexp(1, -26) : up_dir);
        if (tiny) *flags |= UF;
    }
    return sign | (lo + (unsigned)up);
}

static uint32_t ref_extend(unsigned h, unsigned *flags)
{
    *flags = 0;
    unsigned mag = h & 0x7fff;
    if (mag > 0x7c00) {
        if (!(mag & 0x200)) *flags = NV;
        return 0x7fc00000;
    }
    if (mag == 0x7c00) return (h & 0x8000 ? 0xff800000u : 0x7f800000u);
    float f = (float)half_value(mag);
    return bits_f(h & 0x8000 ? -f : f);
}

static uint32_t rng = 2463534242u;
static uint32_t next(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }

enum { NMAX = 1 << 18 };
static double dins[NMAX];
static float fins[NMAX];
static unsigned short hout[NMAX], hins[65536];
static uint32_t fout[65536], flg[NMAX];

static ws_device *dev;
static ws_module *mod;

static void run(ws_kernel *k, ws_addr in, ws_addr out, ws_addr fl, int n, int rm, int with_rm)
{
    ws_arg args[] = { WS_ARG_PTR(in), WS_ARG_PTR(out), WS_ARG_PTR(fl), WS_ARG_I32(n), WS_ARG_I32(rm) };
    ws_status st = ws_launch(dev, k, WS_DIM3((unsigned)(n + 255) / 256, 1, 1), WS_DIM3(256, 1, 1), 0, args,
                             with_rm ? 5 : 4);
    if (st == WS_OK) st = ws_synchronize(dev);
    if (st) fprintf(stderr, "launch: %s\n", ws_last_error(dev));
    CHECK(st == WS_OK);
}

static void narrow(int dbl, int n, ws_addr in, ws_addr out, ws_addr fl)
{
    ws_kernel *k = NULL;
    CHECK(ws_kernel_get(mod, dbl ? "trunc_d" : "trunc_f", &k) == WS_OK);
    if (!k) return;
    CHECK(ws_memcpy_htod(dev, in, dbl ? (void *)dins : (void *)fins, (size_t)n * (dbl ? 8 : 4)) == WS_OK);
    for (int rm = RNE; rm <= RMM; rm++) {
        run(k, in, out, fl, n, rm, 1);
        CHECK(ws_memcpy_dtoh(dev, hout, out, (size_t)n * 2) == WS_OK);
        CHECK(ws_memcpy_dtoh(dev, flg, fl, (size_t)n * 4) == WS_OK);
        int bad = 0;
        for (int i = 0; i < n; i++) {
            double x = dbl ? dins[i] : (double)fins[i];
            unsigned wf, want = ref_trunc(x, rm, &wf);
            if (isnan(x)) { /* NV for a signalling NaN only */
                uint64_t u;
                memcpy(&u, &dins[i], 8);
                uint32_t v = bits_f(fins[i]);
                int snan = dbl ? !(u >> 51 & 1) : !(v >> 22 & 1);
                wf = snan ? NV : 0;
            }
            if (hout[i] != want || flg[i] != wf) {
                if (bad++ < 10)
                    fprintf(stderr, "%s rm %d: %.17g -> 0x%04x flags %u, expected 0x%04x flags %u\n",
                            dbl ? "double" : "float", rm, x, hout[i], flg[i], want, wf);
            }
        }
        CHECK_EQ_U(bad, 0);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s MODULE.elf\n", argv[0]);
        return 2;
    }
    CHECK(ws_test_open_with("threads=1", argv[1], &dev, &mod) == WS_OK);
    if (!dev) return TEST_SUMMARY();
    ws_addr in, out, fl;
    CHECK(ws_malloc(dev, NMAX * 8, &in) == WS_OK && ws_malloc(dev, NMAX * 4, &out) == WS_OK &&
          ws_malloc(dev, NMAX * 4, &fl) == WS_OK);

    /* every half, widened */
    ws_kernel *ext = NULL;
    CHECK(ws_kernel_get(mod, "extend", &ext) == WS_OK);
    for (unsigned h = 0; h < 65536; h++) hins[h] = (unsigned short)h;
    CHECK(ws_memcpy_htod(dev, in, hins, sizeof hins) == WS_OK);
    if (ext) {
        run(ext, in, out, fl, 65536, 0, 0);
        CHECK(ws_memcpy_dtoh(dev, fout, out, sizeof fout) == WS_OK);
        CHECK(ws_memcpy_dtoh(dev, flg, fl, 65536 * 4) == WS_OK);
        int bad = 0;
        for (unsigned h = 0; h < 65536; h++) {
            unsigned wf;
            uint32_t want = ref_extend(h, &wf);
            if (fout[h] != want || flg[h] != wf) {
                if (bad++ < 10)
                    fprintf(stderr, "extend 0x%04x -> 0x%08x flags %u, expected 0x%08x flags %u\n", h, fout[h],
                            flg[h], want, wf);
            }
        }
        CHECK_EQ_U(bad, 0);
    }

    /* narrowing inputs, as doubles (all exact in float too but the last group) */
    int n = 0;
    for (unsigned e = 0; e < 0x7c00; e++) {
        double v = half_value(e), w = half_value(e + 1), m = (v + w) / 2;
        double s = (e & 1) ? -1 : 1;
        dins[n++] = s * v;
        if (e < 0x7bff) {
            dins[n++] = s * m;
            dins[n++] = s * nextafterf((float)m, 0);
            dins[n++] = s * nextafterf((float)m, INFINITY);
        }
    }
    static const double special[] = { 65504, 65519.99, 65520, 65535.9, 65536, 70000, 1e10, 1e300,
                                      5.960464477539063e-08, 2.9802322387695312e-08, 2.98e-08, 2.99e-08,
                                      1e-10, 1e-300, 6.103515625e-05, 6.1004e-05, 6.1015e-05, 6.10336e-05,
                                      6.1031e-05, 0, INFINITY };
    for (size_t i = 0; i < sizeof special / sizeof *special; i++) {
        dins[n++] = special[i];
        dins[n++] = -special[i];
    }
    for (int i = 0; i < 4000; i++) { /* random floats around the half range */
        uint32_t u = (next() & 0x807fffff) | (uint32_t)(96 + next() % 50) << 23;
        dins[n++] = float_of(u);
    }
    for (int i = 0; i < 200; i++) dins[n++] = float_of(next() & 0x807fffff); /* float subnormals */
    const int nf = n;
    for (int i = 0; i < nf; i++) fins[i] = (float)dins[i];
    fins[n] = float_of(0x7fc00000); fins[n + 1] = float_of(0x7f800001); fins[n + 2] = float_of(0xffa00000);
    CHECK(n + 3 <= NMAX);
    narrow(0, n + 3, in, out, fl);

    /* doubles: the same, plus ties a double rounded to float first would
     * break (midpoint + 2^-40 of it rounds to the midpoint as a float) */
    for (unsigned e = 1; e < 0x7bff && n + 2 < NMAX; e += 7) {
        double m = (half_value(e) + half_value(e + 1)) / 2;
        dins[n++] = m + ldexp(m, -40);
        dins[n++] = -(m - ldexp(m, -40));
    }
    uint64_t snan = 0x7ff4000000000000ull, qnan = 0xfff8000000000000ull;
    memcpy(&dins[n++], &snan, 8);
    memcpy(&dins[n++], &qnan, 8);
    CHECK(n <= NMAX);
    narrow(1, n, in, out, fl);

    /* arithmetic: a * a + b, each step rounded to binary16 */
    ws_kernel *k = NULL;
    CHECK(ws_kernel_get(mod, "fma_half", &k) == WS_OK);
    static const unsigned short a[4] = { 0x3e00, 0x4200, 0x3c01, 0x7bff }, b[4] = { 0x3c00, 0xbc00, 0x0001, 0x3c00 };
    static const unsigned short want[4] = { 0x4280, 0x4800, 0x3c02, 0x7c00 }; /* 3.25, 8, 1+2^-9, inf */
    unsigned short y[4];
    ws_addr da, db, dy;
    if (k && ws_malloc(dev, 8, &da) == WS_OK && ws_malloc(dev, 8, &db) == WS_OK && ws_malloc(dev, 8, &dy) == WS_OK) {
        ws_memcpy_htod(dev, da, a, 8);
        ws_memcpy_htod(dev, db, b, 8);
        ws_arg args[] = { WS_ARG_PTR(da), WS_ARG_PTR(db), WS_ARG_PTR(dy) };
        CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(4, 1, 1), 0, args, 3) == WS_OK);
        CHECK(ws_memcpy_dtoh(dev, y, dy, 8) == WS_OK);
        for (int i = 0; i < 4; i++) CHECK_EQ_U(y[i], want[i]);
    }
    ws_device_close(dev);
    return TEST_SUMMARY();
}
