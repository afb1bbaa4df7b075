/* Compare-and-swap loops that several warps contend for (the 64-bit
 * atomics are amocas.d retry loops in the device library), keeping the
 * value each atomic returned: what a thread gets depends on the order in
 * which warps reach the word, deterministic on this device
 * (trace.cas_schedule). */
#include <warpscope/kernel.h>
WS_KERNEL void add64(unsigned long long *acc, unsigned long long *old)
{
    unsigned t = ws_global_id_x();
    old[t] = atomicAdd(acc, t + 0x100000000ull);
}
WS_KERNEL void addf64(double *acc, double *old)
{
    unsigned t = ws_global_id_x();
    old[t] = atomicAdd(acc, (double)t * 0.25 + 1.0);
}
