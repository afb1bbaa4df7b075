#include <warpscope/kernel.h>

#define BINS 256

WS_SHARED unsigned block_bins[BINS];

/* Per-block histogram in shared memory (atomics on shared), then merged
 * into the global histogram (atomics on global). */
WS_KERNEL void histogram(const unsigned char *data, unsigned *bins, int n)
{
    for (unsigned b = threadIdx_x(); b < BINS; b += blockDim_x()) block_bins[b] = 0;
    ws_syncthreads();
    for (int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x()); i < n;
         i += (int)(gridDim_x() * blockDim_x()))
        atomicAdd(&block_bins[data[i]], 1u);
    ws_syncthreads();
    for (unsigned b = threadIdx_x(); b < BINS; b += blockDim_x())
        if (block_bins[b]) atomicAdd(&bins[b], block_bins[b]);
}
