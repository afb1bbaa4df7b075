/* gdb_app's graphics mode: one indexed quad through gdb_vs/gdb_fs into a
 * 64x64 target; the result is checked at a pixel. */
#include <stdio.h>
#include "warpscope/graphics.h"

int run_gfx(ws_device *dev, ws_module *mod);

int run_gfx(ws_device *dev, ws_module *mod)
{
    const float pos[4][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, 1 } };
    const uint16_t idx[6] = { 0, 1, 2, 0, 2, 3 };
    static uint8_t img[64 * 64 * 4];
    ws_kernel *vs, *fs;
    ws_gfx_pipeline *p;
    ws_gfx_target *t;
    ws_addr vb, ib;
    ws_gfx_pipeline_desc d = { .nattributes = 1, .nbindings = 1 };
    d.attributes[0] = (ws_gfx_attribute){ 0, 0, WS_GFX_FLOAT2 };
    d.bindings[0] = (ws_gfx_binding){ 8, 0 };
    const float clear[4] = { 0, 0, 0, 1 };
    ws_status st;
    if ((st = ws_kernel_get(mod, "gdb_vs", &vs)) || (st = ws_kernel_get(mod, "gdb_fs", &fs)) ||
        (d.vertex_shader = vs, d.fragment_shader = fs, st = ws_gfx_pipeline_create(dev, &d, &p)) ||
        (st = ws_gfx_target_create(dev, 64, 64, 0, &t)) || (st = ws_malloc(dev, sizeof pos, &vb)) ||
        (st = ws_malloc(dev, sizeof idx, &ib)) || (st = ws_memcpy_htod(dev, vb, pos, sizeof pos)) ||
        (st = ws_memcpy_htod(dev, ib, idx, sizeof idx)) || (st = ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof pos)) ||
        (st = ws_gfx_set_index_buffer(dev, ib, sizeof idx, WS_GFX_INDEX_U16)) || (st = ws_gfx_set_target(dev, t)) ||
        (st = ws_gfx_set_pipeline(dev, p)) || (st = ws_gfx_begin_frame(dev, NULL)) ||
        (st = ws_gfx_clear(dev, clear, 1)) || (st = ws_gfx_draw_indexed(dev, 6, 1, 0, 0, 0)) ||
        (st = ws_gfx_present(dev, t, img, sizeof img))) {
        printf("gfx: %s: %s\n", ws_status_name(st), ws_last_error(dev));
        return 1;
    }
    const uint8_t *px = img + (12 * 64 + 10) * 4;
    printf("pixel (10,12) = %d %d %d\n", px[0], px[1], px[2]);
    return px[1] != 128;
}
