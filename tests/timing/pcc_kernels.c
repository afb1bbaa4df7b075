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
