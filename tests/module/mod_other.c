/* Second source file of the test module: more data with pointers, and a
 * kernel that another kernel calls (so DWARF holds a declaration of it
 * in this compilation unit before its definition in the other one). */
#include <warpscope/kernel.h>
#include "mod_shared.h"

static const int lookup[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
const int *const lookup_ptrs[2] = { lookup, lookup + 4 };
WS_SHARED int other_shared[16];

int shared_lookup(int i) { return lookup_ptrs[i & 1][i & 3]; }

WS_KERNEL void k_calls_other(const int *in, int n, int *out)
{
    other_shared[n & 15] = n;
    k_other(in, n, out);
    out[1] = other_shared[(n + 1) & 15];
}
