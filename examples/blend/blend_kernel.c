/* Shaders of the blend example: positions already in clip space, one
 * flat RGBA colour per vertex. */
#include <warpscope/shader.h>

typedef struct { float pos[3]; float color[4]; } VIn;
typedef struct { ws_vec4 position; float color[4]; } VOut;

WS_VERTEX void blend_vs(const VIn *in, VOut *out)
{
    out->position = ws_vec4_make(in->pos[0], in->pos[1], in->pos[2], 1.0f);
    for (int i = 0; i < 4; i++) out->color[i] = in->color[i];
}

WS_FRAGMENT ws_vec4 blend_fs(const VOut *in)
{
    return ws_vec4_make(in->color[0], in->color[1], in->color[2], in->color[3]);
}
