/* Kernels of the real-capture seeds (make_seeds.sh): no library calls, so
 * the module stays a few kilobytes. seed_fill faults when given a null
 * pointer; seed_structs takes a struct in registers and one by
 * reference. */
#include <warpscope/kernel.h>
#include "seed_types.h"

WS_KERNEL void seed_fill(int *out, int v) { out[threadIdx_x()] = v + (int)threadIdx_x(); }

WS_KERNEL void seed_structs(int *out, seed_pair p, seed_big b)
{
    unsigned t = threadIdx_x();
    out[t] = (int)p.x + p.n + b.v[t % 5] + (int)b.f;
}
