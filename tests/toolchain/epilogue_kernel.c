/* Functions whose epilogues test_epilogue_cfi.c checks in the module's
 * CFI at every -O level: two exits (a return and a tail call), saved
 * float registers, a frame too large for one addi, and a variable-length
 * array (a frame pointer at every level). */
#include <warpscope/kernel.h>

volatile int ep_sink; /* (so no call is dropped as having no effect) */

__attribute__((noinline)) int ep_leaf(int x)
{
    ep_sink = x;
    return x * 3 + 1;
}

__attribute__((noinline)) int ep_two_exits(int *p, int x)
{
    int a = ep_leaf(x);
    if (a > 10) return ep_leaf(a + x);
    p[1] = a;
    return a + ep_leaf(a);
}

__attribute__((noinline)) float ep_floats(float a, float b)
{
    float c = a * b;
    ep_leaf((int)c);
    return c + a;
}

__attribute__((noinline)) int ep_big(int n)
{
    volatile int buf[1000];
    buf[n] = n;
    ep_leaf(n);
    return buf[n + 1];
}

__attribute__((noinline)) int ep_vla(int n)
{
    volatile int buf[n];
    buf[0] = n;
    ep_leaf(n);
    return buf[n - 1];
}

WS_KERNEL void ep_kernel(int *out)
{
    int t = (int)threadIdx_x();
    out[t] = ep_two_exits(out, t) + (int)ep_floats((float)t, 2.0f) + ep_big(t) + ep_vla(t + 2);
}
