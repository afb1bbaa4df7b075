/* Kernels of the debugger scale benchmark (bench/debug_scale/run.sh). */
#include <warpscope/kernel.h>

/* grid: one element per thread; the breakpoint line is the store. */
WS_KERNEL void grid_work(int *out, const int *in, int n)
{
    int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    if (i < n) out[i] = in[i] * 3 + 1; /* BREAK:grid */
}

/* resident: every lane loops long enough to be stopped mid-way. */
WS_KERNEL void resident_work(int *out, int iters)
{
    int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    int acc = 0;
    for (int k = 0; k < iters; k++) {
        acc += k ^ i; /* BREAK:loop */
    }
    out[i] = acc;
}
