/* A module the test application builds in memory and loads only after
 * its first kernel has run: gdb must resolve a pending breakpoint in it. */
#include <warpscope/kernel.h>

WS_KERNEL void late(int *out, int n)
{
    int i = (int)threadIdx_x();
    if (i < n) out[i] = 1000 + i; /* MARK:late */
}
