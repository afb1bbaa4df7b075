/* Atomics that several warps contend for, keeping the
 * value each atomic returned: what a thread gets depends on the order in
 * which warps reach the word, deterministic on this device
 * (trace.cas_schedule). */
#include <warpscope/kernel.h>
WS_KERNEL void add64(unsigned long long *acc, unsigned long long *old)
{
    unsigned t = ws_global_id_x();
    old[t] = atomicAdd(acc, t + 0x100000000ull);
}
/* (a double's add is one amofadd.d since 2026-11-28) */
WS_KERNEL void addf64(double *acc, double *old)
{
    unsigned t = ws_global_id_x();
    old[t] = atomicAdd(acc, (double)t * 0.25 + 1.0);
}
/* A single 32-bit atomic (amoadd.w), its returned value kept, a thread's
 * number of turns depending on its index (before 2026-11-27 the passes
 * left other values: DIFFERENT). */
WS_KERNEL void ticket(unsigned *ctr, unsigned *out)
{
    unsigned t = ws_global_id_x();
    unsigned v = 0;
    for (unsigned i = 0; i < (t % 5) + 1; i++) v += atomicAdd(ctr, i + 1) * (i + 1);
    out[t] = v;
}
