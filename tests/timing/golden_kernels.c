/* Kernels whose simulated timing test_timing_golden pins: the benchmark
 * shapes (naive and tiled matmul, vecadd, a per-thread reduction with an
 * atomic) and a kernel that spills to its stack, diverges and fences. */
#include <warpscope/kernel.h>

WS_KERNEL void mm_naive(const float *a, const float *b, float *c, int n)
{
    unsigned row = blockIdx_y() * blockDim_y() + threadIdx_y(), col = blockIdx_x() * blockDim_x() + threadIdx_x();
    float acc = 0.0f;
    for (int k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = acc;
}

#define T 16
WS_KERNEL void mm_tiled(const float *a, const float *b, float *c, int n)
{
    WS_SHARED float ta[T][T], tb[T][T];
    unsigned tx = threadIdx_x(), ty = threadIdx_y();
    unsigned row = blockIdx_y() * T + ty, col = blockIdx_x() * T + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += T) {
        ta[ty][tx] = a[row * n + k0 + tx];
        tb[ty][tx] = b[(k0 + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < T; k++) acc += ta[ty][k] * tb[k][tx];
        __syncthreads();
    }
    c[row * n + col] = acc;
}

WS_KERNEL void vecadd(const float *a, const float *b, float *c)
{
    unsigned i = ws_global_id_x();
    c[i] = a[i] + b[i];
}

WS_KERNEL void reduce(const int *in, int *out, int chunk)
{
    unsigned t = ws_global_id_x();
    int s = 0;
    for (unsigned i = t * (unsigned)chunk; i < (t + 1) * (unsigned)chunk; i++) s += in[i];
    __atomic_fetch_add(out, s, __ATOMIC_RELAXED);
}

WS_KERNEL void spill(int *out, int n)
{
    volatile int local[24];
    unsigned t = ws_global_id_x();
    for (int i = 0; i < 24; i++) local[i] = (int)t * i;
    int acc = 0;
    if (t % 3 == 0)
        for (int i = 0; i < n; i++) acc += local[(i + t) % 24] / (i + 1);
    else
        acc = local[t % 24] * 7;
    ws_threadfence();
    out[t] = acc;
}

/* Lane 200 stores to an unmapped address after some work: the launch
 * faults while other warps are mid-flight. */
WS_KERNEL void fault_late(int *out, int n)
{
    unsigned t = ws_global_id_x();
    int acc = 0;
    for (int i = 0; i < n + (int)(t / 32); i++) acc += i * (int)t;
    if (t == 200) *(volatile int *)16 = acc;
    out[t] = acc;
}
