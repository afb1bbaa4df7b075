/* Thread `bad` of block 0 stores through a null pointer before the
 * others have written: the tracer's passes stop at different points, which
 * its note must not call a race (trace.fault_no_race). */
#include <warpscope/kernel.h>

WS_KERNEL void early_fault(int *p, int bad)
{
    int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    if (i == bad) *(volatile int *)0x10 = 1;
    p[i] = i;
}
