#include <warpscope/kernel.h>

/* out[i] = sum over r of table[idx[(i + 97 r) % n]]: every gather needs the
 * index its thread has just loaded, so each warp waits on global memory
 * twice per round. docs/profiling.md profiles this kernel. */
WS_KERNEL void gather(const int *idx, const float *table, float *out, int n, int rounds)
{
    int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    if (i >= n) return;
    float acc = 0.0f;
    for (int r = 0; r < rounds; r++) {
        int j = idx[(i + r * 97) % n];
        acc += table[j];
    }
    out[i] = acc;
}
