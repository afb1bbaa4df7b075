/* Lane 0 loops far past the starvation guard's 256 turns while lanes that
 * finished a short loop wait below it: the guard gives those a turn, and
 * as one group they enter new blocks. The recording pass must group lanes
 * as the counting pass (and the launch) do. */
#include <warpscope/kernel.h>

WS_KERNEL void long_lane(unsigned *out, unsigned n)
{
    unsigned t = threadIdx_x(), s = t;
    unsigned trips = t == 0 ? n : t % 3;
    for (unsigned i = 0; i < trips; i++) s = s * 33 + i;
    out[t] = s;
}

__attribute__((noinline)) static unsigned mix(unsigned a, unsigned b)
{
    if ((a ^ b) & 4) return a - b;
    return a * 3 + b;
}

/* Several lanes loop long with a divergent if inside; the guard's group
 * then calls a function whose lanes diverge: when its turn ends it stops
 * one instruction into a block that other lanes enter later. */
WS_KERNEL void long_lanes_calls(unsigned *out, unsigned n)
{
    unsigned t = threadIdx_x(), s = t;
    unsigned trips = (t & 3) == 0 ? n + t : t % 3;
    for (unsigned i = 0; i < trips; i++) {
        s = s * 33 + i;
        if (s & 1) s ^= 0x55;
    }
    for (unsigned i = 0; i < (t & 7) * 30; i++) s = mix(s, i);
    out[t] = s;
}

/* Lane 0 loops long below the others, which the guard sends round a loop
 * whose head reads the active mask: when a guard turn ends the group runs
 * one more instruction, the block's first, before it yields. Under the
 * tracer that instruction must still be the mask read, not the first
 * inserted one (a hold hint makes it so), or lane 0 arriving later reads
 * the mask together with them where the launch read it alone. */
WS_KERNEL void mask_at_head(unsigned *out, unsigned n)
{
    unsigned t = threadIdx_x(), s = t, m = 0;
    unsigned trips = t == 0 ? n : 0;
    for (unsigned i = 0; i < trips; i++) s = s * 33 + i;
    for (unsigned j = 0; j < 200; j++) {
        m ^= ws_active_mask();
        s = s * 5 + j;
    }
    out[t] = s ^ m;
}
