/* A WS_SHARED object reached only through a pointer held in module data:
 * no instruction of the kernel references it, so the walk of the kernel's
 * code did not reserve it, and the first store faulted as out of bounds of
 * "the block's 0 bytes of shared memory". Built at -O0 too, where the load
 * of the pointer cannot be folded away. */
#include <warpscope/kernel.h>

WS_SHARED int first[64];
WS_SHARED int second[64];
int *second_ptr = second; /* .data */

WS_KERNEL void via_data(int *out)
{
    unsigned t = threadIdx_x();
    int *p = second_ptr;
    p[t] = (int)t * 2;
    __syncthreads();
    out[t] = p[63 - t];
}

WS_KERNEL void direct_first(int *out)
{
    unsigned t = threadIdx_x();
    first[t] = (int)t;
    __syncthreads();
    out[t] = first[63 - t];
}
