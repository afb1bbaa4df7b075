/* Kernels for test_thread_errors.c. */
#include <warpscope/kernel.h>

WS_KERNEL void fill(int *out, int value) { out[threadIdx_x()] = value; }

WS_KERNEL void fault(int *p) { p[threadIdx_x()] = 1; /* p = 0: a null-pointer store */ }

WS_KERNEL void say(int tag)
{
    if (threadIdx_x() == 0) printf("tag %d\n", tag);
}
