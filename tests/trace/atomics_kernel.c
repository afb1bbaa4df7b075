/* 64-bit and float atomics for `warpscope trace --tool memtrace`
 * (check_atomics_race.sh, trace.atomics_race): amofadd.s on shared and
 * global floats, amofadd.d on a double, and the device library's
 * __atomic_fetch_add_8 / __atomic_fetch_max_8 (amoadd.d, amomax.d), which
 * have no line information. Lines marked AT: are the ones checked. */
#include <warpscope/kernel.h>

WS_SHARED float bins[8];

WS_KERNEL void mixed(unsigned long long *acc, double *dsum, float *fbins, long long *top)
{
    unsigned t = threadIdx_x(), g = ws_global_id_x();
    if (t < 8) bins[t] = 0.0f;
    ws_syncthreads();
    atomicAdd(&bins[t % 8], 0.25f);                 /* AT:shared_fadd */
    atomicAdd(acc, 0x100000001ull);
    atomicAdd(dsum, (double)g * 0.5);               /* AT:dadd */
    atomicMax(top, (long long)g << 33);
    ws_syncthreads();
    if (t < 8) atomicAdd(&fbins[t], bins[t]);       /* AT:global_fadd */
}
