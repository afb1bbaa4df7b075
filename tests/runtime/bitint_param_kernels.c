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

/* A declaration that DWARF places in a file that is no source file (the
 * #line below): the loader must not read /dev/zero for ever looking for
 * its line, and checks the storage's range instead. (Keep it last: the
 * #line renames everything after it.) */
#line 2 "/dev/zero"
WS_KERNEL void bitint_nowhere(_BitInt(12) s, int *out) { out[0] = s; }
