/* For toolchain.warp_order_warning: a warp scan after a loop entered in
 * its middle by the odd lanes (a `goto` into it: an irreducible loop the
 * device's issue order does not follow), which `warpscope cc` warns of;
 * and a scan after a jump-table switch, which it follows, so no warning. */
#include <warpscope/kernel.h>

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
