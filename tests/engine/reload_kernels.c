/* Two builds of one kernel (-DVARIANT=1, 2) with the same layout and
 * different instructions: test_engine.c loads them in turn at one address,
 * so blocks decoded from the first must not run for the second. */
#include <warpscope/kernel.h>

WS_KERNEL void step(int *out, int n)
{
    unsigned t = blockIdx_x() * blockDim_x() + threadIdx_x();
    int v = (int)t;
    for (int i = 0; i < n; i++) v = v * (VARIANT * 2 + 1) + VARIANT * 1000;
    out[t] = v;
}
