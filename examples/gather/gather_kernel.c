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

/* The same sums with four rounds' index loads issued before their gathers:
 * four loads in flight per wait instead of one. */
WS_KERNEL void gather_unrolled(const int *idx, const float *table, float *out, int n, int rounds)
{
    int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    if (i >= n) return;
    float acc = 0.0f;
    for (int r = 0; r + 3 < rounds; r += 4) {
        int j0 = idx[(i + r * 97) % n], j1 = idx[(i + (r + 1) * 97) % n];
        int j2 = idx[(i + (r + 2) * 97) % n], j3 = idx[(i + (r + 3) * 97) % n];
        float t0 = table[j0], t1 = table[j1], t2 = table[j2], t3 = table[j3];
        acc += t0;
        acc += t1;
        acc += t2;
        acc += t3;
    }
    out[i] = acc;
}
