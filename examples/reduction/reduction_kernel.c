#include <warpscope/kernel.h>

WS_SHARED int warp_sums[256]; /* one per warp of a 256-thread block, down to 1-lane warps */

/* Grid-stride sum: each thread adds its elements, warps reduce with
 * shuffles, warp 0 reduces the per-warp sums, one atomic per block. */
WS_KERNEL void reduce_sum(const int *in, int *out, int n)
{
    int sum = 0;
    for (int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x()); i < n;
         i += (int)(gridDim_x() * blockDim_x()))
        sum += in[i];
    for (int d = (int)ws_warp_size() / 2; d > 0; d /= 2) sum += ws_shfl_down(sum, d);

    unsigned lane = ws_lane_id(), warp = threadIdx_x() / ws_warp_size();
    if (lane == 0) warp_sums[warp] = sum;
    ws_syncthreads();
    if (warp == 0) {
        unsigned nwarps = (blockDim_x() + ws_warp_size() - 1) / ws_warp_size();
        sum = 0; /* (more warps than lanes on narrow warps: lanes_per_warp=8 makes 32 of them) */
        for (unsigned k = lane; k < nwarps; k += ws_warp_size()) sum += warp_sums[k];
        for (int d = (int)ws_warp_size() / 2; d > 0; d /= 2) sum += ws_shfl_down(sum, d);
        if (lane == 0) atomicAdd(out, sum);
    }
}
