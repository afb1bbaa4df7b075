/* Per-thread bodies shared by the parallel device kernels and the scalar
 * program (one loop over all threads) that runs under qemu-riscv32. */
#ifndef WS_BENCH_WORK_H
#define WS_BENCH_WORK_H
#define MM_N 256
#define VEC_N (1 << 22)
#define RED_N (1 << 24)
#define RED_CHUNK 256

static inline void mm_thread(const float *a, const float *b, float *c, int n, unsigned row, unsigned col)
{
    float acc = 0.0f;
    for (int k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = acc;
}

static inline void vecadd_thread(const float *a, const float *b, float *c, unsigned i)
{
    c[i] = a[i] + b[i];
}

static inline void reduce_thread(const int *in, int *out, unsigned t)
{
    int s = 0;
    for (unsigned i = t * RED_CHUNK; i < (t + 1) * RED_CHUNK; i++) s += in[i];
    __atomic_fetch_add(out, s, __ATOMIC_RELAXED);
}
#endif
