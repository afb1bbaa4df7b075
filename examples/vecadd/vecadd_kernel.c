#include <warpscope/kernel.h>

/* One thread per element. */
WS_KERNEL void vecadd(const float *a, const float *b, float *c, int n)
{
    int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    if (i < n) c[i] = a[i] + b[i];
}
