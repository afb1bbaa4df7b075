#include <warpscope/kernel.h>

/* One compare-exchange step of a bitonic sort: thread i pairs with
 * i ^ stride; `size` is the length of the bitonic sequences being merged. */
WS_KERNEL void bitonic_step(unsigned *keys, unsigned stride, unsigned size)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    unsigned j = i ^ stride;
    if (j <= i) return;
    int ascending = (i & size) == 0;
    unsigned a = keys[i], b = keys[j];
    if ((a > b) == ascending) {
        keys[i] = b;
        keys[j] = a;
    }
}
