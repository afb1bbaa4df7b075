#include <warpscope/kernel.h>

static inline __attribute__((always_inline)) void store_at(int *p, int i, int v)
{
    p[i] = v; /* FAULT_LINE_INLINED */
}

/* Thread 5 stores through a null pointer inside an inlined helper. */
WS_KERNEL void bad_store(int *out)
{
    int *p = threadIdx_x() == 5 ? (int *)0 : out;
    store_at(p, (int)threadIdx_x(), 1); /* CALL_LINE */
}

/* Thread 2 loads out of bounds, in the kernel's own code. */
WS_KERNEL void bad_load(int *out, int n)
{
    int t = (int)threadIdx_x();
    out[t] = out[t + (t == 2 ? n * 1000 : 0)]; /* FAULT_LINE_DIRECT */
}
