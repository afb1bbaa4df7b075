#include <warpscope/kernel.h>

WS_KERNEL void typed(float *out, int n, float s, char c, long long big, double d)
{
    if ((int)ws_global_id_x() < n) out[ws_global_id_x()] = s * (float)c + (float)big + (float)d;
}

/* Atomics, shared memory and printf: everything that could differ between runs. */
WS_SHARED unsigned hist[16];
WS_KERNEL void busy(const unsigned *in, unsigned *bins, unsigned *order, int n)
{
    unsigned t = threadIdx_x();
    if (t < 16) hist[t] = 0;
    ws_syncthreads();
    for (int i = (int)ws_global_id_x(); i < n; i += (int)(gridDim_x() * blockDim_x())) {
        atomicAdd(&hist[in[i] % 16], 1u);
        order[i] = atomicAdd(&bins[16], 1u); /* arrival order */
    }
    ws_syncthreads();
    if (t < 16) atomicAdd(&bins[t], hist[t]);
    if (t % 50 == 0) printf("block %u thread %u sees %u\n", blockIdx_x(), t, hist[t % 16]);
}

/* A bool takes 0 or 1 only: 2 would reach the kernel as an invalid _Bool
 * (b ? 10 : 20 plus (int)b gave 12, not 11). */
WS_KERNEL void flag(int *out, _Bool b) { out[0] = (b ? 10 : 20) + (int)b; }
