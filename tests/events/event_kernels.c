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

/* Block 1 deadlocks (its two warps wait at different barriers) while
 * block 0's warp 0 waits for its warp 1, which works `n` iterations
 * first: block 1's waits begin while block 0's is still going. */
WS_KERNEL void late_deadlock(int *out, int n)
{
    unsigned t = threadIdx_x();
    volatile int *v = out;
    if (blockIdx_x() == 1) {
        for (int i = 0; i < 10; i++) v[64 + t] += i;
        if (t < 32) ws_barrier(0);
        else ws_barrier(1);
    } else {
        if (t >= 32)
            for (int i = 0; i < n; i++) v[t] += i;
        ws_barrier(0);
    }
    out[blockIdx_x() * blockDim_x() + t] += 1;
}

/* Warp 0 waits at the barrier; warp 1 spins until warp 0 has passed it,
 * which never happens (a livelock: warp 1 keeps issuing). */
WS_KERNEL void bar_spin(int *flag)
{
    volatile int *f = flag;
    if (threadIdx_x() < 32) {
        ws_syncthreads();
        *f = 1;
    } else {
        while (*f == 0) {
        }
    }
}
