/* _BitInt(N) parameters narrower than their storage (test_bitint_param.c):
 * clang 14's DWARF gives them only a byte size, so the launch reads N from
 * these declarations. */
#include <warpscope/kernel.h>

typedef unsigned _BitInt(5) five_bits;

WS_KERNEL void bitints(_BitInt(12) s, unsigned _BitInt(7) u, five_bits t, unsigned _BitInt(33) big,
                       _BitInt(16) whole, int *out)
{
    out[0] = s;
    out[1] = u;
    out[2] = t;
    out[3] = (int)(big >> 32);
    out[4] = (int)(unsigned)big;
    out[5] = whole;
}
