/* A one-frame graphics program for the frame debugger tests, linked with
 * libwarpscope.so so `warpscope capture` can record it. On a 32x32
 * target: draw 0, nothing (see below); draw A, a red quad over everything; an empty draw (0 instances:
 * accepted, draws nothing, gets no draw id); draw B, a green quad over the
 * left half. Before them, a draw whose scissor lies outside the target
 * (it gets a draw id but launches nothing). With FRAMES, that many frames, each into a target of its own
 * made before its begin_frame and destroyed after its present (the host
 * allocator gives the next target the same handle address back). Each
 * frame launches the compute kernel rdg_count twice: once before its
 * begin_frame and once inside it (launch ordinals 2f and 2f+1). With
 * "stale", before the frames a buffer is bound to vertex slot 3 and as
 * the index buffer and then freed: the bindings stay (no draw uses them).
 * With "fault", frame 0 ends with a draw whose vertex fetch runs past the
 * buffer: its ws_gfx_present reports the fault (the frame has ended all
 * the same) and the program goes on. With "write", each frame ends with
 * ws_gfx_target_write making the whole target blue, after its draws. With
 * "open", after the frames one more is begun and never presented before
 * the device is closed. With "sampler", a 2x2 texture is bound to slot 2
 * before the frames with a linear sampler that repeats in u and clamps in
 * v, and a 1x1 one to slot 5 that clamps in both (no shader samples them).
 * With "instances", each frame ends with draw 3: the red quad again, as
 * instances 5, 6 and 7 of one draw, all three over every pixel, whose
 * colour comes from a per-instance binding: blue = instance / 8.
 *   rd_gfx_program SHADERS.elf [FRAMES [stale|fault|write|open|sampler|instances]] */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/graphics.h"

typedef struct { float pos[2]; float color[4]; } vertex;

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4) { fprintf(stderr, "usage: rd_gfx_program SHADERS.elf [FRAMES [stale|fault|write|open|sampler]]\n"); return 2; }
    int frames = argc >= 3 ? atoi(argv[2]) : 1, stale = argc == 4 && !strcmp(argv[3], "stale");
    int fault = argc == 4 && !strcmp(argv[3], "fault"), write = argc == 4 && !strcmp(argv[3], "write");
    int instances = argc == 4 && !strcmp(argv[3], "instances");
    static uint8_t blue[32 * 32 * 4];
    for (int i = 0; i < 32 * 32; i++) blue[4 * i + 2] = blue[4 * i + 3] = 255;
    static const vertex v[12] = {
        {{-1, -1}, {1, 0, 0, 1}}, {{1, -1}, {1, 0, 0, 1}}, {{1, 1}, {1, 0, 0, 1}},
        {{-1, -1}, {1, 0, 0, 1}}, {{1, 1}, {1, 0, 0, 1}}, {{-1, 1}, {1, 0, 0, 1}},
        {{-1, -1}, {0, 1, 0, 1}}, {{0, -1}, {0, 1, 0, 1}}, {{0, 1}, {0, 1, 0, 1}},
        {{-1, -1}, {0, 1, 0, 1}}, {{0, 1}, {0, 1, 0, 1}}, {{-1, 1}, {0, 1, 0, 1}},
    };
    ws_device *dev;
    ws_module *mod = NULL;
    ws_kernel *vs = NULL, *fs = NULL, *count = NULL;
    ws_gfx_pipeline *pipe = NULL, *ipipe = NULL;
    ws_gfx_target *t = NULL;
    ws_addr vb = 0, counts = 0, gone = 0;
    if (ws_device_open(NULL, &dev)) return 1;
    ws_gfx_pipeline_desc d = { .nattributes = 2, .nbindings = 1 };
    d.attributes[0] = (ws_gfx_attribute){ 0, offsetof(vertex, pos), WS_GFX_FLOAT2 };
    d.attributes[1] = (ws_gfx_attribute){ 0, offsetof(vertex, color), WS_GFX_FLOAT4 };
    d.bindings[0] = (ws_gfx_binding){ sizeof(vertex), 0 };
    static const float clear[4] = { 0, 0, 0, 1 };
    int ok = ws_module_load_file(dev, argv[1], &mod) == WS_OK && ws_kernel_get(mod, "rdg_vs", &vs) == WS_OK &&
             ws_kernel_get(mod, "rdg_fs", &fs) == WS_OK && ws_kernel_get(mod, "rdg_count", &count) == WS_OK &&
             ws_malloc(dev, 32 * sizeof(int), &counts) == WS_OK && ws_memset(dev, counts, 0, 32 * sizeof(int)) == WS_OK;
    d.vertex_shader = vs;
    d.fragment_shader = fs;
    ok = ok && ws_gfx_pipeline_create(dev, &d, &pipe) == WS_OK && ws_malloc(dev, sizeof v, &vb) == WS_OK &&
         ws_memcpy_htod(dev, vb, v, sizeof v) == WS_OK && ws_gfx_set_pipeline(dev, pipe) == WS_OK &&
         ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof v) == WS_OK;
    if (ok && instances) {
        float icolor[8][4];
        for (int i = 0; i < 8; i++) icolor[i][0] = 1, icolor[i][1] = 0, icolor[i][2] = (float)i / 8, icolor[i][3] = 1;
        ws_gfx_pipeline_desc di = d;
        di.nbindings = 2;
        di.attributes[1] = (ws_gfx_attribute){ 1, 0, WS_GFX_FLOAT4 };
        di.bindings[1] = (ws_gfx_binding){ sizeof icolor[0], 1 };
        ws_addr ib = 0;
        ok = ws_gfx_pipeline_create(dev, &di, &ipipe) == WS_OK && ws_malloc(dev, sizeof icolor, &ib) == WS_OK &&
             ws_memcpy_htod(dev, ib, icolor, sizeof icolor) == WS_OK &&
             ws_gfx_set_vertex_buffer(dev, 1, ib, sizeof icolor) == WS_OK;
    }
    if (ok && stale)
        ok = ws_malloc(dev, 4096, &gone) == WS_OK && ws_gfx_set_vertex_buffer(dev, 3, gone, 4096) == WS_OK &&
             ws_gfx_set_index_buffer(dev, gone, 64, WS_GFX_INDEX_U32) == WS_OK && ws_free(dev, gone) == WS_OK;
    if (ok && argc == 4 && !strcmp(argv[3], "sampler")) {
        static const uint8_t texels[16] = { 255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255 };
        ws_gfx_texture *tx = NULL, *one = NULL;
        const ws_gfx_sampler mixed = { WS_GFX_LINEAR, WS_GFX_NEAREST, 0, WS_GFX_REPEAT, WS_GFX_CLAMP };
        const ws_gfx_sampler clamp = { WS_GFX_NEAREST, WS_GFX_NEAREST, 0, WS_GFX_CLAMP, WS_GFX_CLAMP };
        ok = ws_gfx_texture_create(dev, 2, 2, 1, &tx) == WS_OK && ws_gfx_texture_upload(dev, tx, 0, texels, 16) == WS_OK &&
             ws_gfx_set_texture(dev, 2, tx, &mixed) == WS_OK && ws_gfx_texture_create(dev, 1, 1, 1, &one) == WS_OK &&
             ws_gfx_texture_upload(dev, one, 0, texels, 4) == WS_OK && ws_gfx_set_texture(dev, 5, one, &clamp) == WS_OK;
    }
    ws_arg args[2] = { WS_ARG_PTR(counts), WS_ARG_I32(1) };
    for (int f = 0; ok && f < frames; f++) {
        ok = ws_gfx_target_create(dev, 32, 32, 0, &t) == WS_OK && ws_gfx_set_target(dev, t) == WS_OK &&
             ws_launch(dev, count, (ws_dim3){ 1, 1, 1 }, (ws_dim3){ 32, 1, 1 }, 0, args, 2) == WS_OK &&
             ws_gfx_begin_frame(dev, NULL) == WS_OK && ws_gfx_clear(dev, clear, 1.0f) == WS_OK &&
             ws_launch(dev, count, (ws_dim3){ 1, 1, 1 }, (ws_dim3){ 32, 1, 1 }, 0, args, 2) == WS_OK &&
             ws_gfx_set_scissor(dev, 100, 100, 4, 4) == WS_OK && ws_gfx_draw(dev, 6, 1, 0, 0) == WS_OK &&
             ws_gfx_set_scissor(dev, 0, 0, 0, 0) == WS_OK && ws_gfx_draw(dev, 6, 1, 0, 0) == WS_OK &&
             ws_gfx_draw(dev, 6, 0, 6, 0) == WS_OK && ws_gfx_draw(dev, 6, 1, 6, 0) == WS_OK &&
             (!write || ws_gfx_target_write(dev, t, blue, sizeof blue) == WS_OK) &&
             (!instances || (ws_gfx_set_pipeline(dev, ipipe) == WS_OK && ws_gfx_draw(dev, 6, 3, 0, 5) == WS_OK &&
                             ws_gfx_set_pipeline(dev, pipe) == WS_OK));
        if (ok && fault && f == 0) { /* vertices 100.. of a 12-vertex buffer: a fault at the present */
            ok = ws_gfx_draw(dev, 3, 1, 100, 0) == WS_OK && ws_gfx_present(dev, t, NULL, 0) == WS_ERR_KERNEL_FAULT;
            if (ok) fprintf(stderr, "rd_gfx_program: frame 0 faulted as planned: %s\n", ws_last_error(dev));
        } else {
            ok = ok && ws_gfx_present(dev, t, NULL, 0) == WS_OK;
        }
        ok = ok && ws_gfx_target_destroy(dev, t) == WS_OK;
    }
    if (ok && argc == 4 && !strcmp(argv[3], "open"))
        ok = ws_gfx_target_create(dev, 32, 32, 0, &t) == WS_OK && ws_gfx_set_target(dev, t) == WS_OK &&
             ws_gfx_begin_frame(dev, NULL) == WS_OK && ws_gfx_clear(dev, clear, 1.0f) == WS_OK;
    if (!ok) fprintf(stderr, "rd_gfx_program: %s\n", ws_last_error(dev));
    ws_device_close(dev);
    return ok ? 0 : 1;
}
