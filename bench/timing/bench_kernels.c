/* The benchmark kernels of bench/qemu_ratio (same per-thread bodies). */
#include <warpscope/kernel.h>
#include "work.h"

WS_KERNEL void mm(const float *a, const float *b, float *c, int n)
{
    mm_thread(a, b, c, n, blockIdx_y() * blockDim_y() + threadIdx_y(), blockIdx_x() * blockDim_x() + threadIdx_x());
}

WS_KERNEL void vecadd(const float *a, const float *b, float *c)
{
    vecadd_thread(a, b, c, ws_global_id_x());
}

WS_KERNEL void reduce(const int *in, int *out)
{
    reduce_thread(in, out, ws_global_id_x());
}
