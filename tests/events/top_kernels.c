#include <warpscope/kernel.h>

/* out[i] = i * v + the block's sum of tid (a barrier and an atomic, so the
 * watcher has scheduling and memory events to record). */
WS_SHARED int sum;

WS_KERNEL void fill(int *out, int n, int v)
{
    unsigned t = threadIdx_x();
    if (t == 0) sum = 0;
    ws_syncthreads();
    atomicAdd_i(&sum, (int)t);
    ws_syncthreads();
    unsigned i = blockIdx_x() * blockDim_x() + t;
    if ((int)i < n) out[i] = (int)i * v + sum;
}

/* One store at p: a fault the program makes on purpose. */
WS_KERNEL void poke(int *p)
{
    if (threadIdx_x() == 0) *p = 1;
}
