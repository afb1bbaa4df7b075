/* What the graphics tests share: a shader of their module by name, and
 * the pipeline most of them draw with (a vertex of two float4s, position
 * at 0 and colour at 16, in one binding). */
#ifndef WS_TESTS_GFX_SHADERS_H
#define WS_TESTS_GFX_SHADERS_H
#include <stdio.h>
#include "warpscope/graphics.h"

/* The shader `name` of mod, or NULL (said on stdout, with the reason). */
static inline ws_kernel *gfx_shader(ws_device *dev, ws_module *mod, const char *name)
{
    ws_kernel *k = NULL;
    if (ws_kernel_get(mod, name, &k) != WS_OK) printf("no shader %s: %s\n", name, ws_last_error(dev));
    return k;
}

/* vs and fs over vertices of `stride` bytes: position, then colour. */
static inline ws_gfx_pipeline_desc gfx_pos_color_desc(ws_kernel *vs, ws_kernel *fs, uint32_t stride)
{
    ws_gfx_pipeline_desc d = { .vertex_shader = vs, .fragment_shader = fs, .nattributes = 2, .nbindings = 1 };
    d.attributes[0] = (ws_gfx_attribute){ 0, 0, WS_GFX_FLOAT4 };
    d.attributes[1] = (ws_gfx_attribute){ 0, 16, WS_GFX_FLOAT4 };
    d.bindings[0] = (ws_gfx_binding){ stride, 0 };
    return d;
}
#endif
