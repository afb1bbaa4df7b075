/* Kernels that stall in known ways, for the profiler's end-to-end tests.
 * The tests find lines by the marker comments: keep one marker per line. */
#include <warpscope/kernel.h>

/* Each global load's value is needed by the very next statement. */
WS_KERNEL void dep_load(const int *data, int *out, int steps)
{
    int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    int acc = 0;
    for (int s = 0; s < steps; s++) {
        int v = data[(i + s * 67) & 255];              /* MARK_LOAD */
        acc = (acc ^ v) + 1;                           /* MARK_USE */
    }
    out[i] = acc;
}

/* Warp 0 works while the other warps of the block wait at the barrier. */
WS_KERNEL void barrier_wait(int *out, int work)
{
    unsigned t = threadIdx_x();
    unsigned acc = t;
    if (t < 32)
        for (int k = 0; k < work; k++) acc = (acc ^ (acc >> 3)) + (unsigned)k; /* MARK_WORK */
    __syncthreads();                                   /* MARK_BARRIER */
    out[blockIdx_x() * blockDim_x() + t] = (int)acc;
}

/* Every lane of a warp reads the same shared-memory bank. */
WS_SHARED int tile[1024];
WS_KERNEL void bank_conflict(int *out, int reps)
{
    unsigned t = threadIdx_x();
    for (unsigned k = 0; k < 32; k++) tile[(t * 32 + k) & 1023] = (int)(t + k);
    __syncthreads();
    int acc = 0;
    for (int r = 0; r < reps; r++)
        acc += tile[(t * 32 + (unsigned)r) & 1023];    /* MARK_CONFLICT */
    out[blockIdx_x() * blockDim_x() + t] = acc;
}

/* A chain of dependent integer operations: fixed-latency waits only. */
WS_KERNEL void arith_chain(int *out, int n)
{
    unsigned x = threadIdx_x() + 1;
    for (int k = 0; k < n; k++) {
        x += x << 3;                                   /* MARK_CHAIN */
        x ^= x >> 7;
        x += x << 5;
        x ^= x >> 11;
        x += x << 2;
        x ^= x >> 3;
    }
    out[blockIdx_x() * blockDim_x() + threadIdx_x()] = (int)x;
}

/* Device printf: replay passes must not print it more than once. */
WS_KERNEL void hello(int *out, int n)
{
    if (threadIdx_x() == 0) printf("block %u says hello\n", blockIdx_x());
    out[blockIdx_x() * blockDim_x() + threadIdx_x()] = n;
}
