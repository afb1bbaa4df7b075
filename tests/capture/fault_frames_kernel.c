/* Shaders and a kernel of fault_frames.c: a full-target quad whose
 * fragment shader stores through the uniforms' pointer at one pixel when
 * it is set (a null pointer in the faulting frame), and a kernel that
 * does the same at one thread. The colour's blue is the draw's id. */
#include <warpscope/kernel.h>
#include <warpscope/shader.h>

typedef struct { int *bad; float tint; } Uniforms;
typedef struct { float pos[2]; } VIn;
typedef struct { ws_vec4 position; } VOut;

WS_VERTEX void ff_vs(const VIn *in, VOut *out)
{
    out->position = ws_vec4_make(in->pos[0], in->pos[1], 0.0f, 1.0f);
}

WS_FRAGMENT ws_vec4 ff_fs(const VOut *in, const Uniforms *u)
{
    (void)in;
    if (u->bad && ws_pixel_x() == 5 && ws_pixel_y() == 7) *u->bad = 1;
    return ws_vec4_make(u->tint, 0.5f, (float)ws_draw_id() / 8.0f, 1.0f); /* replays keep the draw ids */
}

WS_KERNEL void ff_fill(int *out, int n, int v, int *bad)
{
    int i = (int)ws_global_id_x();
    if (i < n) out[i] = v + i;
    if (bad && i == 3) *bad = 1;
}
