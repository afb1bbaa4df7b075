#include <warpscope/kernel.h>

/* C = A x B, one thread per element, no tiling: the reference
 * kernel for the tracer's overhead (every iteration loads A and B). */
WS_KERNEL void matmul_naive(const float *a, const float *b, float *c, int n)
{
    int row = (int)(blockIdx_y() * blockDim_y() + threadIdx_y());
    int col = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    if (row >= n || col >= n) return;
    float acc = 0.0f;
    for (int k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = acc;
}
