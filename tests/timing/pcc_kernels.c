/* Kernels with known per-instruction costs for the instruction counters
 * (tests/timing/test_pc_counters.c works the expected values out). */
#include <warpscope/kernel.h>

/* Every lane of a warp hits bank 0: 32 wavefronts per request. */
WS_KERNEL void conflict(float *out)
{
    WS_SHARED float s[64 * 32];
    unsigned t = threadIdx_x();
    s[t * 32] = (float)t; /* LINE:conflict_store */
    __syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = s[t * 32]; /* LINE:conflict_load */
}

/* One lane in eight runs the loop: 4 of 32 lanes active there. */
WS_KERNEL void diverge(int *out, int n)
{
    unsigned t = threadIdx_x();
    int acc = 0;
    if (t % 8 == 0)
        for (int i = 0; i < n; i++) acc ^= acc * 31 + i; /* no closed form; LINE:diverge_loop */
    out[blockIdx_x() * blockDim_x() + t] = acc;
}

/* Lane l reads word 32 l: one 32-byte sector per lane. */
WS_KERNEL void strided(const float *in, float *out)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    out[i] = in[i * 32]; /* LINE:strided */
}

/* The fixes, for docs/profiling.md's walkthroughs. */

/* Padding each row by one word puts lane t in bank t: one wavefront. */
WS_KERNEL void conflict_padded(float *out)
{
    WS_SHARED float s[64 * 33];
    unsigned t = threadIdx_x();
    s[t * 33] = (float)t; /* LINE:padded_store */
    __syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = s[t * 33]; /* LINE:padded_load */
}

/* The same loop work for lanes 0, 8, 16, ... done by the first lanes of
 * the block together: whole warps agree on the branch. */
WS_KERNEL void diverge_packed(int *out, int n)
{
    unsigned t = threadIdx_x();
    int acc = 0;
    if (t < blockDim_x() / 8) {
        unsigned owner = t * 8; /* the lane whose result this is */
        for (int i = 0; i < n; i++) acc ^= acc * 31 + i; /* LINE:packed_loop */
        out[blockIdx_x() * blockDim_x() + owner] = acc;
    }
}

/* Neighbouring lanes read neighbouring words. */
WS_KERNEL void contiguous(const float *in, float *out)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    out[i] = in[i]; /* LINE:contiguous */
}
