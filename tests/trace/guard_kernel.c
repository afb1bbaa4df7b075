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
