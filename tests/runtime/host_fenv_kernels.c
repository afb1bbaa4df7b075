/* Float work that raises inexact and divide-by-zero, for test_host_fenv.c. */
#include <warpscope/kernel.h>

WS_KERNEL void thirds(const float *x, float *third, float *inv, int n)
{
    int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    if (i < n) {
        third[i] = x[i] / 3.0f;
        inv[i] = 1.0f / x[i];
    }
}
