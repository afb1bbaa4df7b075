#include <warpscope/kernel.h>

WS_SHARED int tile[256];

/* Two barriers per block, one atomic per warp, divergence on odd threads. */
WS_KERNEL void staged(int *out, int *counter)
{
    unsigned t = threadIdx_x();
    tile[t] = (int)t;
    ws_syncthreads();
    int v = tile[(t + 1) % blockDim_x()];
    if (t & 1) v *= 3;
    ws_syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = v;
    if ((t & 31) == 0) atomicAdd_i(counter, 1);
}
