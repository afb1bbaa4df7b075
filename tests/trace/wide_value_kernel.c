/* A 64-bit atomic (amocas.d in the device library) beside 4-byte stores,
 * for `warpscope trace --values` (trace.value_width). */
#include <warpscope/kernel.h>
WS_KERNEL void big(unsigned long long *acc, double *d)
{
    unsigned t = ws_global_id_x();
    atomicAdd(acc, 0x500000007ull);
    d[t] = (double)t + 0.5;
}
