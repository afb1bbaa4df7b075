/* Kernels for bench/debug_overhead: `work` is timed; `never` is never
 * launched, so breakpoints set on it are never reached. */
#include <warpscope/kernel.h>

WS_KERNEL void work(int *out, int iters)
{
    int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    int acc = i;
    for (int k = 0; k < iters; k++) acc = acc * 1664525 + 1013904223 + (k ^ i);
    out[i] = acc;
}

WS_KERNEL void never(int *out, int n)
{
    for (int k = 0; k < n; k++) out[k] = out[k] * 3 + 1;
}
