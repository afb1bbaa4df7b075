/* A kernel that spills: forty accumulators live across its loop, more
 * than the registers hold, so the loop reloads and stores some of them on
 * the lane's stack. check_no_spill.py must find these spills, or its
 * verdict on the test kernels means nothing. */
#include <warpscope/kernel.h>

#define A8(x) x##0, x##1, x##2, x##3, x##4, x##5, x##6, x##7
#define ADD8(x, o) \
    x##0 += p[o] * x##1; x##1 += p[o + 1] ^ x##2; x##2 += p[o + 2] * x##3; x##3 += p[o + 3] ^ x##4; \
    x##4 += p[o + 4] * x##5; x##5 += p[o + 5] ^ x##6; x##6 += p[o + 6] * x##7; x##7 += p[o + 7] ^ x##0;
#define SUM8(x) (x##0 + x##1 + x##2 + x##3 + x##4 + x##5 + x##6 + x##7)

WS_KERNEL void spill_probe(const int *in, int *out, int n)
{
    int A8(a) = 0, A8(b) = 0, A8(c) = 0, A8(d) = 0, A8(e) = 0;
    for (int k = 0; k < n; k++) {
        const int *p = in + k * 40;
        ADD8(a, 0) ADD8(b, 8) ADD8(c, 16) ADD8(d, 24) ADD8(e, 32)
    }
    out[threadIdx_x()] = SUM8(a) ^ SUM8(b) ^ SUM8(c) ^ SUM8(d) ^ SUM8(e);
}
