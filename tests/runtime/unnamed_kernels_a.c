/* One of two modules with a kernel named `work`, loaded from memory
 * without a name (test_unnamed_modules.c). */
#include <warpscope/kernel.h>

WS_KERNEL void work(float *v, int n)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    if (i < (unsigned)n) v[i] = v[i] * 2.0f + 1.0f;
}
