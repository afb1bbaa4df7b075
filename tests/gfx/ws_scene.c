/* Warpscope's side of the reference comparison (ws_scene.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ws_scene.h"

int ws_scene_open(ws_scene_ctx *c, const char *elf, const char *config)
{
    memset(c, 0, sizeof *c);
    ws_config cfg;
    char err[256];
    ws_config_default(&cfg);
    if (config && *config && ws_config_parse(&cfg, config, err, sizeof err) != WS_OK) {
        fprintf(stderr, "config: %s\n", err);
        return -1;
    }
    if (ws_device_open(&cfg, &c->dev) != WS_OK) return -1;
    if (ws_module_load_file(c->dev, elf, &c->mod) != WS_OK || ws_kernel_get(c->mod, "ref_vs", &c->vs) != WS_OK ||
        ws_kernel_get(c->mod, "ref_fs", &c->fs) != WS_OK) {
        fprintf(stderr, "%s\n", ws_last_error(c->dev));
        return -1;
    }
    return 0;
}

void ws_scene_close(ws_scene_ctx *c)
{
    if (c->dev) ws_device_close(c->dev);
    c->dev = NULL;
}

int ws_scene_render(ws_scene_ctx *c, const ref_scene *s, uint8_t *rgba)
{
    ws_device *dev = c->dev;
    ws_gfx_pipeline_desc d = { .vertex_shader = c->vs, .fragment_shader = c->fs, .nattributes = 2, .nbindings = 1 };
    d.attributes[0] = (ws_gfx_attribute){ 0, 0, WS_GFX_FLOAT4 };
    d.attributes[1] = (ws_gfx_attribute){ 0, 16, WS_GFX_FLOAT4 };
    d.bindings[0] = (ws_gfx_binding){ sizeof(ref_vertex), 0 };
    d.cull = s->cull == REF_CULL_BACK ? WS_GFX_CULL_BACK : s->cull == REF_CULL_FRONT ? WS_GFX_CULL_FRONT : WS_GFX_CULL_NONE;
    d.depth_test = d.depth_write = s->depth_test;
    d.depth_compare = WS_GFX_LESS;
    d.blend = s->blend == REF_BLEND_ALPHA ? WS_GFX_BLEND_ALPHA : s->blend == REF_BLEND_ADD ? WS_GFX_BLEND_ADDITIVE
                                                                                           : WS_GFX_BLEND_OPAQUE;
    ws_gfx_pipeline *p = NULL;
    ws_gfx_target *t = NULL;
    ws_addr vb = 0;
    size_t vbytes = (size_t)s->ntris * 3 * sizeof(ref_vertex);
    int ok = ws_gfx_pipeline_create(dev, &d, &p) == WS_OK &&
             ws_gfx_target_create(dev, s->width, s->height, 1, &t) == WS_OK &&
             (!vbytes || (ws_malloc(dev, vbytes, &vb) == WS_OK && ws_memcpy_htod(dev, vb, s->verts, vbytes) == WS_OK &&
                          ws_gfx_set_vertex_buffer(dev, 0, vb, (uint32_t)vbytes) == WS_OK)) &&
             ws_gfx_set_target(dev, t) == WS_OK && ws_gfx_set_pipeline(dev, p) == WS_OK &&
             ws_gfx_begin_frame(dev, NULL) == WS_OK && ws_gfx_clear(dev, s->clear, s->clear_depth) == WS_OK &&
             (!vbytes || ws_gfx_draw(dev, s->ntris * 3, 1, 0, 0) == WS_OK) &&
             ws_gfx_present(dev, t, rgba, (size_t)s->width * s->height * 4) == WS_OK;
    if (!ok) fprintf(stderr, "warpscope: %s\n", ws_last_error(dev));
    if (vb) ws_free(dev, vb);
    if (t) ws_gfx_target_destroy(dev, t);
    if (p) ws_gfx_pipeline_destroy(dev, p);
    return ok ? 0 : -1;
}
