/* One load instruction that reaches two memory spaces in one warp request
 * (a generic pointer: even lanes read shared memory, odd lanes global):
 * memtrace counts each space's lanes on its own row (all 32 went to
 * global, with the shared addresses' sectors added: 8.00 sectors/request). */
#include <warpscope/kernel.h>

WS_SHARED int sh[64];

__attribute__((noinline)) static int rd(const int *p) { return *p; }

WS_KERNEL void two_spaces(const int *g, int *out)
{
    unsigned t = threadIdx_x();
    sh[t] = (int)t;
    ws_syncthreads();
    const int *p = (t & 1) ? &g[t] : &sh[t];
    out[t] = rd(p);
}
