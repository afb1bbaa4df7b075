/* Shaders of the instanced example: a unit quad's corner (per vertex)
 * scaled and moved by its instance's offset, coloured by its instance's
 * colour (both per instance, from the second vertex buffer binding). */
#include <warpscope/shader.h>

typedef struct { float corner[2]; float offset[2]; float color[4]; } VIn;
typedef struct { ws_vec4 position; float color[4]; } VOut;
typedef struct { float half_size[2]; } Uniforms;

WS_VERTEX void inst_vs(const VIn *in, VOut *out, const Uniforms *u)
{
    out->position = ws_vec4_make(in->offset[0] + in->corner[0] * u->half_size[0],
                                 in->offset[1] + in->corner[1] * u->half_size[1], 0.0f, 1.0f);
    for (int i = 0; i < 4; i++) out->color[i] = in->color[i];
}

WS_FRAGMENT ws_vec4 inst_fs(const VOut *in)
{
    return ws_vec4_make(in->color[0], in->color[1], in->color[2], in->color[3]);
}
