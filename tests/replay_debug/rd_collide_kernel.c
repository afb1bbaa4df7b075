/* One warp whose 32 lanes all store to one word, then all add to another,
 * then all add to a float (watch_lanes.sh: a watchpoint conditional on the thread must stop for
 * that thread's own store). */
#include <warpscope/kernel.h>

WS_KERNEL void collide(int *out)
{
    int t = (int)threadIdx_x();
    out[0] = t + 100;        /* every lane: lane 31's 131 stays */
    atomicAdd_i(&out[1], 1); /* every lane: 32 */
    out[2 + t] = t;
    atomicAdd((float *)&out[34], 0.5f); /* every lane, amofadd.s: 16.0 */
}
