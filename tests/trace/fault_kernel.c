/* A launch of several rounds of blocks whose block `bad` and later fault
 * after the others have started: the tracer must report the records up to
 * the fault (it read slots reserved but never written, and crashed). */
#include <warpscope/kernel.h>

WS_KERNEL void late_fault(int *a, int bad)
{
    unsigned i = ws_global_id_x();
    for (int k = 0; k < (int)(blockIdx_x() % 7) * 20; k++) a[i % 4096] += k;
    if ((int)blockIdx_x() >= bad && threadIdx_x() == 3) a[i + 100000] = 1;
    a[i % 4096] += 5;
}
