/* The naive matrix multiply of bench/qemu_ratio (same per-thread body). */
#include <warpscope/kernel.h>
#include "work.h"

WS_KERNEL void mm(const float *a, const float *b, float *c, int n)
{
    mm_thread(a, b, c, n, blockIdx_y() * blockDim_y() + threadIdx_y(), blockIdx_x() * blockDim_x() + threadIdx_x());
}
