/* The demo cube on Warpscope's graphics pipeline: the resources and the
 * per-frame draw, shared by examples/cube/cube.c and the speed benchmark
 * bench/gfx/cube_ws.c so both draw exactly the same thing. Header-only
 * because each example builds from one source file. */
#ifndef WS_CUBE_GFX_H
#define WS_CUBE_GFX_H
#include <stdio.h>
#include <stdlib.h>
#include "cube_scene.h"
#include "warpscope/graphics.h"

/* Mirrors Uniforms in cube_kernel.c. */
typedef struct cube_uniforms {
    float mvp[16], model[16];
    float light_dir[3], ambient, diffuse;
} cube_uniforms;

typedef struct cube_gfx {
    ws_device *dev;
    uint32_t w, h;
    ws_gfx_pipeline *pipe;
    ws_gfx_target *target;
    ws_gfx_texture *tex;
    ws_addr vb, ib, ub;
} cube_gfx;

/* The clear colour both renderers use (cube_mesa.c's glClearColor). */
static const float cube_clear_rgba[4] = {0.1f, 0.1f, 0.15f, 1.0f};

/* Create the pipeline, a w x h target with depth, the mipmapped texture
 * and the buffers, and bind them all. 0, or -1 with the device error. */
static inline int cube_gfx_init(cube_gfx *c, ws_device *dev, ws_module *mod, uint32_t w, uint32_t h)
{
    ws_kernel *vs = NULL, *fs = NULL;
    ws_gfx_pipeline_desc d = {.nattributes = 3, .nbindings = 1, .topology = WS_GFX_TRIANGLE_LIST,
                              .cull = WS_GFX_CULL_BACK, .front_face = WS_GFX_CCW, .depth_test = 1,
                              .depth_write = 1, .depth_compare = WS_GFX_LESS, .blend = WS_GFX_BLEND_OPAQUE};
    d.attributes[0] = (ws_gfx_attribute){0, offsetof(cube_vertex, pos), WS_GFX_FLOAT3};
    d.attributes[1] = (ws_gfx_attribute){0, offsetof(cube_vertex, normal), WS_GFX_FLOAT3};
    d.attributes[2] = (ws_gfx_attribute){0, offsetof(cube_vertex, uv), WS_GFX_FLOAT2};
    d.bindings[0] = (ws_gfx_binding){sizeof(cube_vertex), 0};
    const ws_gfx_sampler trilinear = {WS_GFX_LINEAR, WS_GFX_LINEAR, 1, WS_GFX_REPEAT, WS_GFX_REPEAT};
    const size_t texbytes = (size_t)CUBE_TEXTURE_SIZE * CUBE_TEXTURE_SIZE * 4;
    uint8_t *texels = malloc(texbytes);
    *c = (cube_gfx){.dev = dev, .w = w, .h = h};
    if (!texels) return -1;
    cube_texture(texels, CUBE_TEXTURE_SIZE);
    int ok = ws_kernel_get(mod, "cube_vs", &vs) == WS_OK && ws_kernel_get(mod, "cube_fs", &fs) == WS_OK;
    d.vertex_shader = vs;
    d.fragment_shader = fs;
    ok = ok && ws_gfx_pipeline_create(dev, &d, &c->pipe) == WS_OK &&
         ws_gfx_target_create(dev, w, h, 1, &c->target) == WS_OK &&
         ws_gfx_texture_create(dev, CUBE_TEXTURE_SIZE, CUBE_TEXTURE_SIZE, 0, &c->tex) == WS_OK &&
         ws_gfx_texture_upload(dev, c->tex, 0, texels, texbytes) == WS_OK &&
         ws_gfx_texture_generate_mips(dev, c->tex) == WS_OK &&
         ws_malloc(dev, sizeof cube_vertices, &c->vb) == WS_OK &&
         ws_memcpy_htod(dev, c->vb, cube_vertices, sizeof cube_vertices) == WS_OK &&
         ws_malloc(dev, sizeof cube_indices, &c->ib) == WS_OK &&
         ws_memcpy_htod(dev, c->ib, cube_indices, sizeof cube_indices) == WS_OK &&
         ws_malloc(dev, sizeof(cube_uniforms), &c->ub) == WS_OK &&
         ws_gfx_set_target(dev, c->target) == WS_OK && ws_gfx_set_pipeline(dev, c->pipe) == WS_OK &&
         ws_gfx_set_vertex_buffer(dev, 0, c->vb, sizeof cube_vertices) == WS_OK &&
         ws_gfx_set_index_buffer(dev, c->ib, sizeof cube_indices, WS_GFX_INDEX_U16) == WS_OK &&
         ws_gfx_set_uniforms(dev, c->ub) == WS_OK && ws_gfx_set_texture(dev, 0, c->tex, &trilinear) == WS_OK;
    free(texels);
    if (!ok) fprintf(stderr, "cube: setting up the pipeline: %s\n", ws_last_error(dev));
    return ok ? 0 : -1;
}

/* Draw frame `frame` (posed by cube_frame_matrices) and read the colour
 * image into rgba (w*h*4 bytes) when it is not NULL. */
static inline int cube_gfx_frame(cube_gfx *c, uint32_t frame, uint8_t *rgba)
{
    cube_uniforms u = {.light_dir = {cube_light_dir[0], cube_light_dir[1], cube_light_dir[2]},
                       .ambient = CUBE_AMBIENT, .diffuse = CUBE_DIFFUSE};
    cube_frame_matrices(frame, c->w, c->h, u.model, u.mvp);
    /* The uniforms are copied in queue order, so the draw sees this frame's. */
    int ok = ws_memcpy_htod(c->dev, c->ub, &u, sizeof u) == WS_OK && ws_gfx_begin_frame(c->dev, NULL) == WS_OK &&
             ws_gfx_clear(c->dev, cube_clear_rgba, 1.0f) == WS_OK &&
             ws_gfx_draw_indexed(c->dev, CUBE_NINDICES, 1, 0, 0, 0) == WS_OK &&
             ws_gfx_present(c->dev, c->target, rgba, rgba ? (size_t)c->w * c->h * 4 : 0) == WS_OK;
    if (!ok) fprintf(stderr, "cube: frame %u: %s\n", frame, ws_last_error(c->dev));
    return ok ? 0 : -1;
}

static inline void cube_gfx_free(cube_gfx *c)
{
    if (c->ub) ws_free(c->dev, c->ub);
    if (c->ib) ws_free(c->dev, c->ib);
    if (c->vb) ws_free(c->dev, c->vb);
    if (c->tex) ws_gfx_texture_destroy(c->dev, c->tex);
    if (c->target) ws_gfx_target_destroy(c->dev, c->target);
    if (c->pipe) ws_gfx_pipeline_destroy(c->dev, c->pipe);
}
#endif
