/* Shaders of gfx.programs: programs unlike the examples, each checked
 * against an image computed on the host (test_gfx_programs.c). */
#include <warpscope/shader.h>

/* A full-screen triangle (vertex ids 0..2, no vertex input) with the
 * viewport's u, v as varyings; the fragment shader draws a procedural
 * pattern from its pixel and its gl_FragCoord. */
struct screen_out { ws_vec4 position; float uv[2]; };
WS_VERTEX void screen_vs(const void *in, struct screen_out *out)
{
    (void)in;
    unsigned id = ws_vertex_id();
    float x = id == 1 ? 3.0f : -1.0f, y = id == 2 ? 3.0f : -1.0f;
    out->position = ws_vec4_make(x, y, 0, 1);
    out->uv[0] = (x + 1.0f) * 0.5f;
    out->uv[1] = (1.0f - y) * 0.5f;
}
WS_FRAGMENT ws_vec4 pattern_fs(const struct screen_out *in)
{
    unsigned x = ws_pixel_x(), y = ws_pixel_y();
    float checker = ((x / 4 + y / 4) & 1) ? 1.0f : 0.0f;
    float hash = (float)((x * 7u + y * 13u) & 255u) / 255.0f;
    /* gl_FragCoord: the pixel's centre */
    int centre = in->position.x == (float)x + 0.5f && in->position.y == (float)y + 0.5f;
    return ws_vec4_make(checker, hash, centre ? 1.0f : 0.0f, in->uv[0]);
}

/* Axis-aligned quads, one per instance: corner (0 or 1 per axis) per
 * vertex, the rectangle in pixels and the colour per instance. */
struct quad_in { float corner[2]; float rect[4]; float color[4]; };
struct quad_out { ws_vec4 position; float color[4]; };
struct quad_uni { float width, height; };
WS_VERTEX void quad_vs(const struct quad_in *in, struct quad_out *out, const struct quad_uni *u)
{
    float x = in->rect[0] + in->corner[0] * (in->rect[2] - in->rect[0]);
    float y = in->rect[1] + in->corner[1] * (in->rect[3] - in->rect[1]);
    out->position = ws_vec4_make(x * 2.0f / u->width - 1.0f, 1.0f - y * 2.0f / u->height, 0, 1);
    for (int i = 0; i < 4; i++) out->color[i] = in->color[i];
}
WS_FRAGMENT ws_vec4 quad_fs(const struct quad_out *in)
{
    return ws_vec4_make(in->color[0], in->color[1], in->color[2], in->color[3]);
}

/* The same quads at a depth of their own (clip z, w = 1). */
struct depth_quad_in { float corner[2]; float rect[4]; float color[4]; float depth; };
WS_VERTEX void depth_quad_vs(const struct depth_quad_in *in, struct quad_out *out, const struct quad_uni *u)
{
    float x = in->rect[0] + in->corner[0] * (in->rect[2] - in->rect[0]);
    float y = in->rect[1] + in->corner[1] * (in->rect[3] - in->rect[1]);
    out->position = ws_vec4_make(x * 2.0f / u->width - 1.0f, 1.0f - y * 2.0f / u->height, in->depth, 1);
    for (int i = 0; i < 4; i++) out->color[i] = in->color[i];
}

/* Texture coordinates from the pixel, scaled and shifted so they run
 * negative and past 1, sampled at an explicit level of detail. */
struct tex_uni { float scale, shift, lod; unsigned slot; };
WS_FRAGMENT ws_vec4 texcoord_fs(const struct screen_out *in, const struct tex_uni *u)
{
    (void)in;
    float s = (float)ws_pixel_x() * u->scale - u->shift, t = (float)ws_pixel_y() * u->scale - u->shift;
    return ws_tex2d_lod(u->slot, s, t, u->lod);
}

/* Many overlapping triangles with the widest records (32 varyings): each
 * vertex's position from the buffer, varying i = i / 32. */
struct pos_in { float pos[4]; };
struct wide_out { ws_vec4 position; float v[32]; };
WS_VERTEX void wide_pos_vs(const struct pos_in *in, struct wide_out *out)
{
    out->position = ws_vec4_make(in->pos[0], in->pos[1], in->pos[2], in->pos[3]);
    for (int i = 0; i < 32; i++) out->v[i] = (float)i / 32.0f;
}
/* the primitive in red (low 8 bits) and blue (high), the varyings' sum
 * (15.5) in green */
WS_FRAGMENT ws_vec4 wide_prim_fs(const struct wide_out *in)
{
    float sum = 0;
    for (int i = 0; i < 32; i++) sum += in->v[i];
    unsigned p = ws_primitive_id();
    return ws_vec4_make((float)(p & 255u) / 255.0f, sum / 31.0f, (float)(p >> 8) / 255.0f, 1);
}

/* A clip-space position and two varyings as they are; the fragment shader
 * shows the varyings in red and green, and samples texture slot 0 at them
 * in blue and alpha (linear filtering: see test_gfx_programs.c). */
struct persp_in { float pos[4]; float uv[2]; };
struct persp_out { ws_vec4 position; float uv[2]; };
WS_VERTEX void persp_vs(const struct persp_in *in, struct persp_out *out)
{
    out->position = ws_vec4_make(in->pos[0], in->pos[1], in->pos[2], in->pos[3]);
    out->uv[0] = in->uv[0];
    out->uv[1] = in->uv[1];
}
WS_FRAGMENT ws_vec4 persp_fs(const struct persp_out *in)
{
    ws_vec4 t = ws_tex2d_lod(0, in->uv[0], in->uv[1], 0);
    return ws_vec4_make(in->uv[0], in->uv[1], t.x, t.y);
}
