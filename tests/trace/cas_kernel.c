/* Atomics that several warps contend for (nand64: the device library's
 * compare-and-swap loop on amocas.d; the others single AMOs since
 * 2026-11-28), keeping the
 * value each atomic returned: what a thread gets depends on the order in
 * which warps reach the word, deterministic on this device
 * (trace.cas_schedule). */
#include <warpscope/kernel.h>
WS_KERNEL void add64(unsigned long long *acc, unsigned long long *old)
{
    unsigned t = ws_global_id_x();
    old[t] = atomicAdd(acc, t + 0x100000000ull);
}
/* A 64-bit nand has no AMO: a compare-and-swap loop whose turns depend
 * on the order in which warps reach the word. */
WS_KERNEL void nand64(unsigned long long *acc, unsigned long long *old)
{
    unsigned t = ws_global_id_x();
    old[t] = __atomic_fetch_nand(acc, ~(0x9e3779b97f4a7c15ull * (t + 1)), __ATOMIC_SEQ_CST);
}
/* A 32-bit compare-and-swap loop every thread retries until its update
 * lands: how often depends on the order in which warps reach the word. */
WS_KERNEL void cas32(unsigned *acc, unsigned *old)
{
    unsigned t = ws_global_id_x();
    unsigned o = atomicCAS(acc, 0u, 0u), seen;
    while ((seen = atomicCAS(acc, o, o * 3u + t)) != o) o = seen;
    old[t] = o;
}
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
