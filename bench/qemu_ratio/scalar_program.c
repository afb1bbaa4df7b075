/* The same work as one scalar loop over all threads, for qemu-riscv32. The
 * identical function also runs as a one-thread device kernel to count its
 * instructions exactly. WORK selects the workload (1 mm, 2 vecadd, 3 reduce). */
#include "work.h"

#if WORK == 1
static float a[MM_N * MM_N], b[MM_N * MM_N], c[MM_N * MM_N];
#elif WORK == 2
static float a[VEC_N], b[VEC_N], c[VEC_N];
#else
static int in[RED_N], out;
#endif

unsigned scalar_program(void)
{
#if WORK == 1
    for (int i = 0; i < MM_N * MM_N; i++) { a[i] = (float)(i % 7); b[i] = (float)(i % 5); }
    for (unsigned r = 0; r < MM_N; r++)
        for (unsigned col = 0; col < MM_N; col++) mm_thread(a, b, c, MM_N, r, col);
    return (unsigned)c[77];
#elif WORK == 2
    for (int i = 0; i < VEC_N; i++) { a[i] = (float)i; b[i] = (float)(i & 255); }
    for (unsigned i = 0; i < VEC_N; i++) vecadd_thread(a, b, c, i);
    return (unsigned)c[VEC_N - 1];
#else
    for (int i = 0; i < RED_N; i++) in[i] = i & 1023;
    for (unsigned t = 0; t < RED_N / RED_CHUNK; t++) reduce_thread(in, &out, t);
    return (unsigned)out;
#endif
}
