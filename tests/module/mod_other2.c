/* Third source file of the test module: the definition of k_other, which
 * mod_other.c calls (its DWARF declaration there must not be taken for
 * this definition). */
#include <warpscope/kernel.h>
#include "mod_shared.h"

WS_KERNEL void k_other(const int *in, int n, int *out)
{
    out[0] = in[n] + shared_lookup(n);
}
