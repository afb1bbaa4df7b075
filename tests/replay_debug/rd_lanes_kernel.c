/* Kernels for the `debug --record` scenarios in record/ (record_gdb.sh):
 * a breakpoint every lane of a warp reaches at once, a function several
 * warps call (reverse-finish), and a null load in one thread (a fault
 * the frame debugger must stop at, as the live server does). */
#include <warpscope/kernel.h>

WS_SHARED int vals[64];

static int clampi(int v, int lo, int hi)
{
    if (v < lo) return lo; /* MARK:clamp_lo */
    if (v > hi) return hi; /* MARK:clamp_hi */
    return v;
}

static int transform(int v, int k)
{
    int c = clampi(v * k - 10, 0, 100); /* MARK:transform_call */
    return c + 1;
}

WS_KERNEL void lanes(const int *in, int *out, int k)
{
    unsigned t = threadIdx_x();
    unsigned g = ws_global_id_x();
    int v = transform(in[g], k);
    vals[t] = v; /* MARK:store */
    __syncthreads();
    out[g] = vals[blockDim_x() - 1 - t] + (int)t;
}

/* thread `bad` of block 0 loads through a null pointer */
WS_KERNEL void nullload(const int *in, int *out, int bad)
{
    unsigned g = ws_global_id_x();
    const volatile int *p = in;
    if ((int)g == bad) p = 0;
    int v = p[g == (unsigned)bad ? 0 : g] * 2; /* MARK:fault */
    out[g] = v + 1;
}
