/* The second module of test_fault_modules: calls a function of the first
 * (line_kernels.c) through a pointer it was given. */
#include <warpscope/kernel.h>

WS_KERNEL void call_other(const unsigned *fp, int *out)
{
    int (*f)(const int *) = (int (*)(const int *))(uintptr_t)fp[0];
    const int *p = threadIdx_x() == 5 ? (const int *)0 : out;
    out[threadIdx_x()] = f(p) + 1; /* CALL_OTHER_LINE */
}
