/* For toolchain.warp_order_warning: a warp scan after a jump to a label
 * address computed in code (`goto *p`, GNU C), whose targets the device's
 * issue order cannot know, which `warpscope cc` warns of (the scans of
 * tests/reconvergence/scan_kernels.c, after a jump-table switch or a loop
 * entered in its middle, are ordered: no warning). */
#include <warpscope/kernel.h>

WS_KERNEL void computed_jump_scan(int *out, int pick)
{
    int lane = (int)ws_lane_id(), acc = lane;
    void *volatile go = ((lane + pick) & 1) ? &&odd : &&even;
    goto *go;
even:
    acc += 3;
    goto join;
odd:
    acc *= 5;
join:
    for (int d = 1; d < 32; d <<= 1) {
        int u = ws_shfl_up(acc, d);
        if (lane >= d) acc += u;
    }
    out[ws_global_id_x()] = acc;
}
