#include <warpscope/kernel.h>

/* Planted bug 1: half of each block waits at barrier 0, the other half at
 * barrier 1. Neither can ever release: a barrier deadlock. */
WS_KERNEL void split_barrier(int *out)
{
    unsigned t = threadIdx_x();
    if (t < blockDim_x() / 2) ws_barrier(0);
    else ws_barrier(1);
    out[blockIdx_x() * blockDim_x() + t] = 1;
}

/* Planted bug 2: every thread takes one global spin lock. The lanes of a
 * warp that did not get it spin at a lower PC than the lane that holds it,
 * and lowest-PC-first scheduling keeps running them: the holder only moves
 * when the starvation guard steps in. Correct, but starved. */
WS_KERNEL void spin_lock(int *lock, int *count)
{
    while (atomicCAS_i(lock, 0, 1) != 0) {
    }
    *(volatile int *)count += 1;
    atomicExch_i(lock, 0);
}
