/* Warp-state names (Nsight Compute's spelling, so users recognise them). */
#include "device/warp_state.h"
#include "warpscope/warpscope.h"

_Static_assert(WS_STATE_COUNT == WS_WARP_STATE_COUNT, "public state count out of date");

const char *ws_warp_state_name(ws_warp_state s)
{
    static const char *const names[WS_STATE_COUNT] = {
        "selected", "not_selected", "wait", "long_scoreboard", "short_scoreboard",
        "mio_throttle", "lg_throttle", "math_pipe_throttle", "barrier", "membar",
        "branch_resolving", "no_instructions", "dispatch_stall", "sleeping", "drain", "misc" };
    return (unsigned)s < WS_STATE_COUNT ? names[s] : "?";
}

const char *ws_warp_state_label(unsigned s) { return ws_warp_state_name((ws_warp_state)s); }

const char *ws_unit_label(unsigned u)
{
    static const char *const names[WS_UNIT_COUNT] = { "int", "mul", "div", "fp", "fdiv", "mio", "lsu" };
    return u < WS_UNIT_COUNT ? names[u] : "?";
}
