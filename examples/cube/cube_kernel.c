/* Shaders of the cube example (and of bench/gfx/cube_ws): per-vertex
 * diffuse + ambient lighting as cube_scene.h defines it, a trilinear
 * texture lookup per fragment. */
#include <warpscope/shader.h>

typedef struct { float pos[3]; float normal[3]; float uv[2]; } VIn;
typedef struct { ws_vec4 position; float uv[2]; float light; } VOut;
/* Host mirror: cube_uniforms in cube.c and cube_ws.c. */
typedef struct { ws_mat4 mvp; ws_mat4 model; float light_dir[3]; float ambient, diffuse; } Uniforms;

WS_VERTEX void cube_vs(const VIn *in, VOut *out, const Uniforms *u)
{
    ws_vec3 n = ws_mat4_mul_dir(&u->model, ws_vec3_make(in->normal[0], in->normal[1], in->normal[2]));
    float d = ws_dot3(n, ws_vec3_make(u->light_dir[0], u->light_dir[1], u->light_dir[2]));
    out->position = ws_mat4_mul(&u->mvp, ws_vec4_make(in->pos[0], in->pos[1], in->pos[2], 1.0f));
    out->uv[0] = in->uv[0];
    out->uv[1] = in->uv[1];
    out->light = u->ambient + u->diffuse * (d > 0.0f ? d : 0.0f);
}

WS_FRAGMENT ws_vec4 cube_fs(const VOut *in)
{
    ws_vec4 t = ws_tex2d(0, in->uv[0], in->uv[1]);
    return ws_vec4_make(t.x * in->light, t.y * in->light, t.z * in->light, t.w);
}
