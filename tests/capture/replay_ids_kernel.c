/* A fragment shader whose colour is its draw's id (ws_draw_id()) and a
 * kernel that stores its launch's id (ws_launch_id()): a frame replays
 * identically only if every pass gives its draws and launches the ids they
 * had when the frame was captured. */
#include <warpscope/kernel.h>
#include <warpscope/shader.h>

typedef struct { float pos[3]; } VIn;
typedef struct { ws_vec4 position; } VOut;

WS_VERTEX void ids_vs(const VIn *in, VOut *out)
{
    out->position = ws_vec4_make(in->pos[0], in->pos[1], in->pos[2], 1.0f);
}

WS_FRAGMENT ws_vec4 ids_fs(const VOut *in)
{
    (void)in;
    return ws_vec4_make((float)(ws_draw_id() % 8) / 8.0f, 0.5f, 0.0f, 1.0f);
}

WS_KERNEL void ids_tag(unsigned *out)
{
    out[threadIdx_x()] = ws_launch_id();
}
