/* Native host timings of the benchmark's work (see native_floor.h). The
 * arrays hold the scalar program's values; a volatile sink keeps the
 * compiler from dropping the work. */
#include "native_floor.h"
#include <stdlib.h>
#include <time.h>
#include "work.h"

enum { WARP = 32 };

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static volatile float sink_f;
static volatile int sink_i;

/* The device's matmul warp: 16x16 blocks, so a warp is two rows of 16
 * columns; its lanes take each k together. */
static void mm_warp_order(const float *a, const float *b, float *c)
{
    for (unsigned r0 = 0; r0 < MM_N; r0 += 2)
        for (unsigned c0 = 0; c0 < MM_N; c0 += 16) {
            float acc[WARP] = { 0 };
            for (int k = 0; k < MM_N; k++)
                for (int l = 0; l < WARP; l++)
                    acc[l] += a[(r0 + l / 16) * MM_N + k] * b[k * MM_N + c0 + l % 16];
            for (int l = 0; l < WARP; l++) c[(r0 + l / 16) * MM_N + c0 + l % 16] = acc[l];
        }
}

/* The device's reduction warp: 32 threads whose chunks lie 1 KiB apart,
 * read one word each per step. */
static int reduce_warp_order(const int *in)
{
    int total = 0;
    for (unsigned t0 = 0; t0 < RED_N / RED_CHUNK; t0 += WARP) {
        int s[WARP] = { 0 };
        for (unsigned i = 0; i < RED_CHUNK; i++)
            for (int l = 0; l < WARP; l++) s[l] += in[(t0 + l) * RED_CHUNK + i];
        for (int l = 0; l < WARP; l++) total += s[l];
    }
    return total;
}

static double run_once(int work, int warp_order, float *a, float *b, float *c, int *in)
{
    const double t0 = now_ms();
    if (work == 1) {
        if (warp_order) mm_warp_order(a, b, c);
        else
            for (unsigned r = 0; r < MM_N; r++)
                for (unsigned col = 0; col < MM_N; col++) mm_thread(a, b, c, MM_N, r, col);
        sink_f = c[77];
    } else if (work == 2) { /* a warp's lanes are consecutive elements: one order */
        for (unsigned i = 0; i < VEC_N; i++) vecadd_thread(a, b, c, i);
        sink_f = c[VEC_N - 1];
    } else {
        int out = 0;
        if (warp_order) out = reduce_warp_order(in);
        else
            for (unsigned t = 0; t < RED_N / RED_CHUNK; t++) reduce_thread(in, &out, t);
        sink_i = out;
    }
    return now_ms() - t0;
}

int native_floor(int work, int reps, native_times *out)
{
    const size_t n = work == 1 ? (size_t)MM_N * MM_N : work == 2 ? (size_t)VEC_N : 0;
    float *a = n ? malloc(n * sizeof *a) : NULL, *b = n ? malloc(n * sizeof *b) : NULL;
    float *c = n ? malloc(n * sizeof *c) : NULL;
    int *in = work == 3 ? malloc((size_t)RED_N * sizeof *in) : NULL;
    if ((n && (!a || !b || !c)) || (work == 3 && !in)) {
        free(a), free(b), free(c), free(in);
        return -1;
    }
    for (size_t i = 0; i < n; i++) {
        a[i] = work == 1 ? (float)(i % 7) : (float)i;
        b[i] = work == 1 ? (float)(i % 5) : (float)(i & 255);
    }
    for (size_t i = 0; in && i < RED_N; i++) in[i] = (int)(i & 1023);
    out->thread_order_ms = out->warp_order_ms = 1e30;
    for (int r = 0; r < reps; r++) {
        double t = run_once(work, 0, a, b, c, in);
        if (t < out->thread_order_ms) out->thread_order_ms = t;
        t = run_once(work, 1, a, b, c, in);
        if (t < out->warp_order_ms) out->warp_order_ms = t;
    }
    free(a), free(b), free(c), free(in);
    return 0;
}
