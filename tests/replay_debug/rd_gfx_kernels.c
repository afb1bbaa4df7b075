/* Shaders of rd_gfx_program.c: clip-space positions, a flat colour; and
 * a compute kernel it launches between and inside its frames. */
#include <warpscope/kernel.h>
#include <warpscope/shader.h>

typedef struct { float pos[2]; float color[4]; } VIn;
typedef struct { ws_vec4 position; float color[4]; } VOut;

WS_VERTEX void rdg_vs(const VIn *in, VOut *out)
{
    out->position = ws_vec4_make(in->pos[0], in->pos[1], 0.0f, 1.0f);
    for (int i = 0; i < 4; i++) out->color[i] = in->color[i];
}

WS_FRAGMENT ws_vec4 rdg_fs(const VOut *in)
{
    return ws_vec4_make(in->color[0], in->color[1], in->color[2], in->color[3]); /* MARK:fs */
}

WS_KERNEL void rdg_count(int *counts, int step)
{
    counts[threadIdx_x()] += step;
}
