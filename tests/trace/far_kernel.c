/* A loop long enough that, once instrumented, its closing branch no longer
 * reaches its head: the rewriter writes it as a far-branch triple (hint,
 * inverted branch, jal; docs/device.md). Lanes of odd threads run one more
 * turn. check_far_break.sh breaks on the branch and on the jal. */
#include <warpscope/kernel.h>

#define R(k) s += p[(i + (k)) & 63];
#define R4(k) R(k) R(k + 1) R(k + 2) R(k + 3)
#define R16(k) R4(k) R4(k + 4) R4(k + 8) R4(k + 12)
#define R64(k) R16(k) R16(k + 16) R16(k + 32) R16(k + 48)

WS_KERNEL void far_loop(unsigned *out, unsigned n)
{
    volatile unsigned *p = out;
    unsigned t = threadIdx_x(), s = t;
    for (unsigned i = 0; i < n + (t & 1); i++) {
        R64(0) R64(64) R64(128) R64(192) R64(256)
    }
    out[64 + t] = s;
}
