/* The kernel of gdb.e2e.stats_*: a `next` over a line whose callee
 * branches on its argument, and over one whose callee does atomics, on
 * 2 blocks of 64 threads (two warps each, the other warp of the block
 * running alongside in timing mode). Lines the tests break on carry
 * "MARK:" comments (stats_same.sh finds them). */
#include <warpscope/kernel.h>

WS_SHARED int part[64];
WS_SHARED int total[2];

static int clamp_to(int v, int lo, int hi)
{
    if (v < lo) return lo;
    if (v > hi) return hi;
    return v;
}

static int shape(int v, int k)
{
    int c = clamp_to(v * k - 10, 0, 100);
    return c + 1;
}

static void gather(int *sum, int v)
{
    atomicAdd(&sum[0], v);
    atomicMax(&sum[1], v);
}

WS_KERNEL void next_stats(const int *in, int *out, int k)
{
    unsigned t = threadIdx_x();
    unsigned g = ws_global_id_x();
    int v = shape(in[g], k); /* MARK:diverging_call */
    part[t] = v;
    __syncthreads();
    gather(total, part[blockDim_x() - 1 - t]); /* MARK:atomic_call */
    __syncthreads();
    out[g] = v + (t == 0 ? total[0] + total[1] : 0);
}
