/* The other module with a kernel named `work` (test_unnamed_modules.c):
 * longer, so its profile differs from the first's. */
#include <warpscope/kernel.h>

WS_KERNEL void work(float *v, int n)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    if (i < (unsigned)n) {
        float x = v[i];
        for (int k = 0; k < 40; k++) x = x * 0.5f + 3.0f;
        v[i] = x;
    }
}
