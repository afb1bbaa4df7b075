/* For toolchain.warp_order_warning: a warp scan after a jump to a label
 * address computed in code (`goto *p`, GNU C), whose targets the device's
 * issue order cannot know, which `warpscope cc` warns of; and scans after
 * a jump-table switch and after a loop entered in its middle (a `goto`
 * into it), which it orders, so no warning. */
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

WS_KERNEL void irreducible_scan(int *out)
{
    int lane = (int)ws_lane_id(), i = (lane & 1) ? 3 : 0, acc = 0;
    if (lane & 1) goto mid;
top:
    acc += i;
mid:
    acc ^= i * 5;
    i++;
    if (i < 6) goto top;
    for (int d = 1; d < 32; d <<= 1) {
        int u = ws_shfl_up(acc, d);
        if (lane >= d) acc += u;
    }
    out[ws_global_id_x()] = acc;
}

WS_KERNEL void switch_then_scan(int *out, int mode)
{
    int lane = (int)ws_lane_id(), v = lane;
    switch (mode) {
    case 0: v = v * 3; break;
    case 1: v = v + 7; break;
    case 2: v = v ^ 5; break;
    case 3: v = v - 2; break;
    case 4: v = v << 1; break;
    case 5: v = v * v; break;
    default: break;
    }
    for (int d = 1; d < 32; d <<= 1) {
        int u = ws_shfl_up(v, d);
        if (lane >= d) v += u;
    }
    out[ws_global_id_x()] = v;
}
