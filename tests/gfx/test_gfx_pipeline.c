/* The graphics pipeline's behaviour beyond coverage (which gfx.vs_mesa
 * checks): pipeline checks against DWARF, bad input, shader faults naming
 * draw/primitive/pixel, discard, system values, instancing, strips,
 * scissor, texture filtering and mip selection from quad derivatives,
 * determinism across runs and between functional and timing mode.
 * usage: test_gfx_pipeline gfx_shaders.elf */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../test.h"
#include "warpscope/events.h"
#include "warpscope/graphics.h"
#include "gfx_shaders.h"
#include "warpscope/tool.h"

#define W 64
#define H 64

typedef struct vtx { float pos[4]; float color[4]; } vtx;

static ws_device *dev;
static ws_module *mod;
static ws_gfx_target *target;
static uint8_t img[W * H * 4];

static ws_kernel *shader(const char *name) { return gfx_shader(dev, mod, name); }

static ws_gfx_pipeline_desc desc(const char *vs, const char *fs)
{
    return gfx_pos_color_desc(shader(vs), shader(fs), sizeof(vtx));
}

/* Upload vertices and draw them (non-indexed) with pipeline d into a
 * cleared target; the image lands in img. Returns the draw's status. */
static ws_status draw(const ws_gfx_pipeline_desc *d, const vtx *v, uint32_t n, uint32_t instances, ws_addr uniforms)
{
    ws_gfx_pipeline *p = NULL;
    ws_addr vb = 0;
    ws_status st = ws_gfx_pipeline_create(dev, d, &p);
    if (st == WS_OK) st = ws_malloc(dev, n * sizeof *v, &vb);
    if (st == WS_OK) st = ws_memcpy_htod(dev, vb, v, n * sizeof *v);
    if (st == WS_OK) st = ws_gfx_set_vertex_buffer(dev, 0, vb, n * sizeof *v);
    if (st == WS_OK) st = ws_gfx_set_pipeline(dev, p);
    if (st == WS_OK) st = ws_gfx_set_uniforms(dev, uniforms);
    const float clear[4] = { 0, 0, 0, 1 };
    if (st == WS_OK) st = ws_gfx_begin_frame(dev, NULL);
    if (st == WS_OK) st = ws_gfx_clear(dev, clear, 1.0f);
    if (st == WS_OK) st = ws_gfx_draw(dev, n, instances, 0, 0);
    ws_status pst = ws_gfx_present(dev, target, img, sizeof img);
    if (st == WS_OK) st = pst;
    if (vb) ws_free(dev, vb);
    if (p) ws_gfx_pipeline_destroy(dev, p);
    return st;
}

static const uint8_t *px(int x, int y) { return img + (y * W + x) * 4; }

/* A full-screen quad as two triangles, colour c; uv (c[0], c[1]) from 0 to s. */
static void quad(vtx *v, float s, float alpha)
{
    const float xy[6][2] = { { -1, -1 }, { 1, -1 }, { 1, 1 }, { -1, -1 }, { 1, 1 }, { -1, 1 } };
    for (int i = 0; i < 6; i++)
        v[i] = (vtx){ { xy[i][0], xy[i][1], 0, 1 }, { (xy[i][0] + 1) / 2 * s, (1 - xy[i][1]) / 2 * s, 0.5f, alpha } };
}

/* The uniforms of the fault and hang shaders (pixel or vertex x, y, and a
 * third word) in a new buffer of the device. */
static ws_addr target_uniforms(unsigned x, unsigned y, unsigned z)
{
    const unsigned u[3] = { x, y, z };
    ws_addr ub = 0;
    CHECK(ws_malloc(dev, sizeof u, &ub) == WS_OK && ws_memcpy_htod(dev, ub, u, sizeof u) == WS_OK);
    return ub;
}

static void test_pipeline_checks(void)
{
    ws_gfx_pipeline *p = NULL;
    ws_gfx_pipeline_desc d = desc("small_vs", "ref_fs");
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "fetches 8 floats (32 bytes)");
    CHECK_STR_CONTAINS(ws_last_error(dev), "'const struct small_in *' (12 bytes");
    d = desc("int_vs", "int_fs");
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "struct of floats");
    d = desc("ref_vs", "int_fs");
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "must be the vertex output struct");
    d = desc("ref_fs", "ref_vs");
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "is not a vertex shader; mark it WS_VERTEX");
    d = desc("ref_vs", "not_a_shader");
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_ERR_INVALID_ARG);
    d = desc("ref_vs", "ref_fs");
    d.attributes[1].binding = 3;
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "attribute 1 uses binding 3");
    /* a shader is not a kernel */
    ws_arg a = WS_ARG_PTR(0);
    CHECK(ws_launch(dev, shader("ref_fs"), WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, &a, 1) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "fragment shader, not a kernel");
}

/* A halted command processor holds a render target's read as it holds
 * ws_memcpy_dtoh: with nothing queued too (until 2026-11-28 the read
 * drained the empty queue and copied). */
static void test_cp_halt_holds_target_read(void)
{
    ws_gfx_target *small = NULL;
    ws_addr a;
    float z[6] = { 0 };
    ws_event_config ec = { .capacity = 1 << 12 };
    ws_machine_program halt = { .enabled = 1, .nwatch = 1, .nactions = 1 };
    halt.watch[0].source = WS_EV_CP;
    halt.watch[0].id = WS_EV_CP_DONE;
    halt.watch[0].core = WS_EV_ANY_CORE;
    halt.actions[0].kind = WS_ACT_CP_HALT;
    CHECK(ws_gfx_target_create(dev, 3, 2, 1, &small) == WS_OK);
    CHECK(ws_malloc(dev, 4, &a) == WS_OK);
    CHECK(ws_events_configure(dev, &ec) == WS_OK && ws_events_machine(dev, 0, &halt) == WS_OK);
    CHECK(ws_memset(dev, a, 0, 4) == WS_OK && ws_synchronize(dev) == WS_OK); /* halted after it, nothing queued */
    CHECK(ws_gfx_target_read_depth(dev, small, z, 6) == WS_ERR_STOPPED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_gfx_target_read_depth: the command processor was halted by debug "
                       "machine 0 ('cp.done do cp.halt') with 0 commands queued");
    CHECK(z[0] == 0.0f);
    CHECK(ws_events_resume(dev) == WS_OK);
    CHECK(ws_gfx_target_read_depth(dev, small, z, 6) == WS_OK);
    CHECK(z[0] == 1.0f);
    CHECK(ws_events_disable(dev) == WS_OK);
    CHECK(ws_free(dev, a) == WS_OK && ws_gfx_target_destroy(dev, small) == WS_OK);
}

static void test_bad_input(void)
{
    ws_gfx_texture *t = NULL;
    CHECK(ws_gfx_texture_create(dev, 0, 4, 1, &t) == WS_ERR_INVALID_ARG);
    CHECK(ws_gfx_texture_create(dev, 9000, 4, 1, &t) == WS_ERR_INVALID_ARG);
    CHECK(ws_gfx_texture_create(dev, 16, 4, 6, &t) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "at most 5");
    CHECK(ws_gfx_texture_create(dev, 16, 4, 0, &t) == WS_OK);
    uint8_t texels[16 * 4 * 4] = { 0 };
    CHECK(ws_gfx_texture_upload(dev, t, 0, texels, 10) == WS_ERR_INVALID_ARG);
    CHECK(ws_gfx_texture_upload(dev, t, 5, texels, 4) == WS_ERR_INVALID_ARG);
    CHECK(ws_gfx_texture_upload(dev, t, 0, texels, sizeof texels) == WS_OK);
    CHECK(ws_gfx_texture_destroy(dev, t) == WS_OK);
    CHECK(ws_gfx_texture_destroy(dev, t) == WS_ERR_INVALID_ARG); /* stale handle */
    /* a depth call's n counts floats, and a wrong one is named in floats
     * (before 2026-11-27: "needs a 24-byte buffer (got 96)" for n = 24) */
    ws_gfx_target *small = NULL;
    float z[6];
    CHECK(ws_gfx_target_create(dev, 3, 2, 1, &small) == WS_OK);
    CHECK(ws_gfx_target_read_depth(dev, small, z, sizeof z) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "depth image is 6 floats: n must be 6 (got 24)");
    CHECK(ws_gfx_target_write_depth(dev, small, z, sizeof z) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "n must be 6 (got 24)");
    /* n * 4 wrapping to the right byte count was accepted */
    CHECK(ws_gfx_target_read_depth(dev, small, z, 6 + ((size_t)1 << (sizeof(size_t) * 8 - 2))) == WS_ERR_INVALID_ARG);
    CHECK(ws_gfx_target_read_depth(dev, small, z, 6) == WS_OK);
    CHECK(z[0] == 1.0f && z[5] == 1.0f);
    CHECK(ws_gfx_target_write_depth(dev, small, z, 6) == WS_OK);
    CHECK(ws_gfx_target_destroy(dev, small) == WS_OK);
    /* a NaN clear depth is refused (it was stored: no later test passed) */
    const float black[4] = { 0, 0, 0, 1 };
    CHECK(ws_gfx_begin_frame(dev, NULL) == WS_OK);
    CHECK(ws_gfx_clear(dev, black, NAN) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_gfx_clear: depth is NaN");
    CHECK(ws_gfx_present(dev, target, NULL, 0) == WS_OK);
    /* a draw with no pipeline */
    CHECK(ws_gfx_set_pipeline(dev, NULL) == WS_OK);
    CHECK(ws_gfx_draw(dev, 3, 1, 0, 0) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "no pipeline");
    /* an index past the vertex buffer: a fault naming draw and index */
    ws_gfx_pipeline_desc d = desc("ref_vs", "ref_fs");
    ws_gfx_pipeline *p = NULL;
    vtx v[6];
    quad(v, 1, 1);
    uint16_t idx[3] = { 0, 1, 1000 };
    ws_addr vb = 0, ib = 0;
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_OK && ws_gfx_set_pipeline(dev, p) == WS_OK);
    CHECK(ws_malloc(dev, sizeof v, &vb) == WS_OK && ws_memcpy_htod(dev, vb, v, sizeof v) == WS_OK);
    CHECK(ws_malloc(dev, sizeof idx, &ib) == WS_OK && ws_memcpy_htod(dev, ib, idx, sizeof idx) == WS_OK);
    CHECK(ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof v) == WS_OK);
    CHECK(ws_gfx_draw_indexed(dev, 3, 1, 0, 0, 0) == WS_ERR_BAD_LAUNCH); /* no index buffer yet */
    CHECK(ws_gfx_set_index_buffer(dev, ib, sizeof idx, WS_GFX_INDEX_U16) == WS_OK);
    CHECK(ws_gfx_draw_indexed(dev, 3, 1, 0, 0, 0) == WS_OK);
    ws_status st = ws_synchronize(dev);
    CHECK(st == WS_ERR_KERNEL_FAULT);
    CHECK_STR_CONTAINS(ws_last_error(dev), "vertex fetch: vertex 1000 instance 0 (position 2 of the draw)");
    CHECK_STR_CONTAINS(ws_last_error(dev), "of vertex buffer slot 0, which holds 192 bytes");
    idx[2] = 2;
    CHECK(ws_memcpy_htod(dev, ib, idx, sizeof idx) == WS_OK);
    CHECK(ws_gfx_draw_indexed(dev, 4, 1, 0, 0, 0) == WS_OK);      /* past the index buffer's end */
    CHECK(ws_synchronize(dev) == WS_ERR_KERNEL_FAULT);
    CHECK_STR_CONTAINS(ws_last_error(dev), "index 3 is past the end of the index buffer (3 indices)");
    ws_free(dev, vb);
    ws_free(dev, ib);
    ws_gfx_pipeline_destroy(dev, p);
    /* NaN and infinite positions: the triangles are dropped, nothing crashes */
    quad(v, 1, 1);
    v[0].pos[0] = NAN;
    v[4].pos[1] = INFINITY;
    d = desc("ref_vs", "ref_fs");
    CHECK(draw(&d, v, 6, 1, 0) == WS_OK);
    ws_gfx_draw_stats s;
    CHECK(ws_gfx_last_draw_stats(dev, &s) == WS_OK);
    CHECK_EQ_U(s.primitives_invalid, 2);
    CHECK_EQ_U(s.pixels_written, 0);
}

static uint32_t lit_pixels(void)
{
    uint32_t n = 0;
    for (int i = 0; i < W * H; i++) n += img[i * 4] || img[i * 4 + 1] || img[i * 4 + 2];
    return n;
}

/* Geometry at the edges of what projects, and the largest records. */
static void test_degenerate_and_large(void)
{
    ws_gfx_draw_stats s;
    /* no attributes: VIn must be void (it would read other records) */
    ws_gfx_pipeline_desc d = desc("ref_vs", "ref_fs");
    d.nattributes = d.nbindings = 0;
    ws_gfx_pipeline *p = NULL;
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "'const struct vin *' (32 bytes), but the vertex layout fetches no attributes");
    d.vertex_shader = shader("from_id_vs");
    vtx none[3] = { 0 };
    CHECK(draw(&d, none, 3, 1, 0) == WS_OK);
    CHECK_EQ_U(lit_pixels(), W * H);
    CHECK(px(W - 1, 0)[0] == 64 && px(W - 1, 0)[1] == 128 && px(W - 1, 0)[2] == 191);
    /* a vertex at clip (0, 0, 0, 0), or with a w whose 1/w overflows:
     * dropped as invalid (it rasterised NaN window coordinates) */
    d.vertex_shader = shader("partial_vs");
    CHECK(draw(&d, none, 3, 1, 0) == WS_OK);
    CHECK(ws_gfx_last_draw_stats(dev, &s) == WS_OK);
    CHECK_EQ_U(s.primitives_invalid, 1);
    CHECK_EQ_U(s.pixels_written, 0);
    d = desc("ref_vs", "ref_fs");
    vtx v[3] = { { { -0.5f, -0.5f, 0, 1 }, { 1, 1, 1, 1 } }, { { 0.5f, -0.5f, 0, 1 }, { 1, 1, 1, 1 } },
                 { { 0, 0, 0, 1e-40f }, { 1, 1, 1, 1 } } };
    CHECK(draw(&d, v, 3, 1, 0) == WS_OK);
    CHECK(ws_gfx_last_draw_stats(dev, &s) == WS_OK);
    CHECK_EQ_U(s.primitives_invalid, 1);
    CHECK_EQ_U(s.pixels_written, 0);
    /* far vertices: the half plane y > 0 is the top half however far they
     * are (the guard-band clip computed its crossings in float: half of
     * it was lost from 1e10 on; then in double: lost from 1e16 on) */
    for (float far = 1e3f; far <= 1e36f; far *= 1e3f) {
        vtx h[3] = { { { -far, 0, 0, 1 }, { 1, 1, 1, 1 } }, { { far, 0, 0, 1 }, { 1, 1, 1, 1 } },
                     { { 0, far, 0, 1 }, { 1, 1, 1, 1 } } };
        CHECK(draw(&d, h, 3, 1, 0) == WS_OK);
        CHECK_EQ_U(lit_pixels(), W * H / 2);
        CHECK(px(W / 2, H / 2 - 1)[0] == 255 && px(W / 2, H / 2)[0] == 0);
    }
    /* a clip-space vertex times k > 0 is the same point: the coverage of
     * a triangle must not change when one vertex outside the guard band
     * (or behind the eye) is pushed 1e18 or 1e30 times farther along its
     * ray (interpolating from made vertices lost half of a full-screen
     * triangle from about 1e16 on) */
    {
        static const float tris[][3][4] = {
            { { -1, -1, 0, 1 }, { 300, -1, 0, 1 }, { -1, 3, 0, 1 } },             /* full screen */
            { { -0.5f, -0.7f, 0, 1 }, { 0.2f, -0.7f, 0, 1 }, { 90, 300, 0, 1 } },  /* a strip    */
            { { -1, 1, 0.5f, 1 }, { 1, 1, 0.5f, 1 }, { 100, -400, 0.5f, -2 } },   /* behind      */
            { { -200, -90, -3, 2 }, { 250, -70, 1, 2 }, { 30, 500, 0.2f, 1 } },  /* corners     */
            { { -0.9f, -0.8f, 0, 1 }, { 150, -0.6f, -9, 3 }, { 0.3f, 0.9f, 0, 1 } }, /* near plane */
        };
        static uint8_t want[W * H];
        for (size_t t = 0; t < sizeof tris / sizeof tris[0]; t++)
            for (int scale = 0; scale < 4; scale++) {
                static const float ks[4] = { 1, 1e9f, 1e18f, 1e30f };
                vtx f[3];
                for (int i = 0; i < 3; i++) {
                    float k = i == 2 || (t == 4 && i == 1) ? ks[scale] : 1;
                    f[i] = (vtx){ { tris[t][i][0] * k, tris[t][i][1] * k, tris[t][i][2] * k, tris[t][i][3] * k },
                                  { 1, 1, 1, 1 } };
                }
                CHECK(draw(&d, f, 3, 1, 0) == WS_OK);
                uint32_t differ = 0, lit = 0;
                for (int i = 0; i < W * H; i++) {
                    uint8_t c = img[i * 4] != 0;
                    lit += c;
                    if (!scale) want[i] = c;
                    differ += want[i] != c;
                }
                if (t == 0) CHECK_EQ_U(lit, W * H);
                if (differ) printf("far vertex: triangle %zu times %g: %u pixels differ\n", t, (double)ks[scale], differ);
                CHECK_EQ_U(differ, 0);
                CHECK(lit > 0);
            }
    }
    /* 2^24 - 1 invocations of 400-byte records: 6.7 GB of scratch, which
     * the 32-bit size cut to 2.4 GB's remainder (a host crash): an error */
    d = desc("fat_vs", "fat_fs");
    d.nattributes = 16;
    for (int i = 0; i < 16; i++) d.attributes[i] = (ws_gfx_attribute){ 0, 0, WS_GFX_FLOAT4 };
    d.bindings[0] = (ws_gfx_binding){ 0, 0 }; /* stride 0: every vertex reads one element */
    CHECK(draw(&d, v, 1, 1, 0) == WS_OK);
    ws_addr vb = 0;
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_OK && ws_gfx_set_pipeline(dev, p) == WS_OK);
    CHECK(ws_malloc(dev, sizeof v, &vb) == WS_OK && ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof v) == WS_OK);
    CHECK(ws_gfx_begin_frame(dev, NULL) == WS_OK);
    /* past 2^24 invocations: refused by the call, not at the present */
    CHECK(ws_gfx_draw(dev, 1u << 12, (1u << 12) + 1, 0, 0) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_gfx_draw: 16781312 vertex invocations (4096 vertices x 4097 "
                                           "instances): at most 2^24 per draw");
    /* instance and vertex ids past 2^32 - 1: refused by the call (they
     * wrapped: the second instance of a draw from instance 2^32 - 1 was
     * instance 0 again) */
    CHECK(ws_gfx_draw(dev, 3, 2, 0, UINT32_MAX) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_gfx_draw: instances 4294967295..4294967296 (first instance "
                                           "4294967295, 2 instances) run past 2^32 - 1");
    CHECK(ws_gfx_draw(dev, 3, 1, UINT32_MAX - 1, 0) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_gfx_draw: vertices 4294967294..4294967296");
    CHECK(ws_gfx_draw_indexed(dev, 3, 3, 0, 0, UINT32_MAX - 1) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_gfx_draw_indexed: instances 4294967294..4294967296");
    CHECK(ws_gfx_draw(dev, (1u << 24) - 1, 1, 0, 0) == WS_OK);
    CHECK(ws_gfx_present(dev, target, img, sizeof img) == WS_ERR_OUT_OF_MEMORY);
    CHECK_STR_CONTAINS(ws_last_error(dev), "(shaders 'fat_vs', 'fat_fs'): 6710886000 bytes of shader inputs");
    ws_free(dev, vb);
    ws_gfx_pipeline_destroy(dev, p);
    /* 32 varyings over a 1024x1024 target: the fragment batch needs 168 MB
     * of the 256 MiB arena; the power of two above it does not fit */
    ws_gfx_target *big = NULL;
    d.vertex_shader = shader("wide_vs");
    d.nattributes = d.nbindings = 0;
    p = NULL;
    CHECK(ws_gfx_target_create(dev, 1024, 1024, 0, &big) == WS_OK);
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_OK && ws_gfx_set_pipeline(dev, p) == WS_OK);
    CHECK(ws_gfx_set_target(dev, big) == WS_OK && ws_gfx_begin_frame(dev, NULL) == WS_OK);
    CHECK(ws_gfx_draw(dev, 3, 1, 0, 0) == WS_OK);
    CHECK(ws_gfx_present(dev, big, NULL, 0) == WS_OK);
    CHECK(ws_gfx_last_draw_stats(dev, &s) == WS_OK);
    CHECK_EQ_U(s.pixels_written, 1024 * 1024);
    ws_gfx_pipeline_destroy(dev, p);
    ws_gfx_target_destroy(dev, big);
    CHECK(ws_gfx_set_target(dev, target) == WS_OK);
}

static void test_fault_names_pixel(void)
{
    ws_addr ub = target_uniforms(10, 12, 0);
    vtx v[6];
    quad(v, 1, 1);
    ws_gfx_pipeline_desc d = desc("ref_vs", "fault_fs");
    uint64_t id = 0;
    char who[96];
    CHECK(ws_gfx_next_draw_id(dev, &id) == WS_OK);
    CHECK(draw(&d, v, 6, 1, ub) == WS_ERR_KERNEL_FAULT);
    const char *e = ws_last_error(dev);
    /* the header names the shader's stage and draw: a shader is not a
     * kernel (it said "kernel 'fault_fs' launch N") */
    snprintf(who, sizeof who, "; fragment shader 'fault_fs' of draw %llu, launch ", (unsigned long long)id);
    CHECK_STR_CONTAINS(e, who);
    CHECK(strstr(e, "kernel") == NULL);
    CHECK_STR_CONTAINS(e, "pixel (10,12)");
    CHECK_STR_CONTAINS(e, "primitive 1");   /* the quad's second triangle covers the top left */
    CHECK_STR_CONTAINS(e, "gfx_shaders.c:");
    CHECK(strstr(e, " instance ") == NULL); /* one instance: not named */
    printf("fault report: %s\n", e);
    /* two instances over the pixel (the second 16 pixels to the right):
     * the report names the instance of the fragment that faulted (it said
     * "primitive 1" only, which both instances have there) */
    d = desc("instance_vs", "fault_fs");
    CHECK(draw(&d, v, 6, 2, ub) == WS_ERR_KERNEL_FAULT);
    e = ws_last_error(dev);
    CHECK_STR_CONTAINS(e, "primitive 1 instance 0 pixel (10,12)");
    CHECK_STR_CONTAINS(e, "; fragment shader 'fault_fs' of draw ");
    printf("fault report: %s\n", e);
    ws_free(dev, ub);
    /* a vertex shader's out-of-bounds load: its stage, draw and vertex */
    ws_addr small = 0;
    CHECK(ws_malloc(dev, 16, &small) == WS_OK);
    ub = target_uniforms(4, 0, (unsigned)(small + 16)); /* just past it */
    d = desc("fault_vs", "ref_fs");
    CHECK(ws_gfx_next_draw_id(dev, &id) == WS_OK);
    CHECK(draw(&d, v, 6, 1, ub) == WS_ERR_KERNEL_FAULT);
    e = ws_last_error(dev);
    snprintf(who, sizeof who, "load access fault: ");
    CHECK_STR_CONTAINS(e, who);
    snprintf(who, sizeof who, "; vertex shader 'fault_vs' of draw %llu, launch ", (unsigned long long)id);
    CHECK_STR_CONTAINS(e, who);
    CHECK_STR_CONTAINS(e, "vertex 4 instance 0");
    CHECK(strstr(e, "kernel") == NULL);
    printf("fault report: %s\n", e);
    ws_free(dev, ub);
    ws_free(dev, small);
}

/* The suite's device, module and target, kept while a test runs on a
 * device of its own configuration. */
typedef struct saved_device {
    ws_device *dev;
    ws_module *mod;
    ws_gfx_target *target;
} saved_device;

/* Open a device with config, load elf on it and make a W x H target with
 * depth current; the globals then name them and *s keeps the suite's.
 * -1 (a failed check, the globals unchanged) if the device cannot open. */
static int side_device_open(const char *config, const char *elf, saved_device *s)
{
    ws_config cfg;
    char err[128];
    ws_config_default(&cfg);
    CHECK(ws_config_parse(&cfg, config, err, sizeof err) == WS_OK);
    *s = (saved_device){ dev, mod, target };
    if (ws_device_open(&cfg, &dev) != WS_OK) { CHECK(0); dev = s->dev; return -1; }
    CHECK(ws_module_load_file(dev, elf, &mod) == WS_OK);
    CHECK(ws_gfx_target_create(dev, W, H, 1, &target) == WS_OK && ws_gfx_set_target(dev, target) == WS_OK);
    return 0;
}

/* Close the test's own device and give the suite's back. */
static void side_device_close(const saved_device *s)
{
    ws_device_close(dev);
    dev = s->dev;
    mod = s->mod;
    target = s->target;
}

/* A shader that never returns: the watchdog's report names the draw and
 * the pixel or vertex still running, as a fault's does (it named the
 * launch's block and thread only, which a user cannot map to a pixel). */
static void test_hang_names_pixel(const char *elf)
{
    saved_device saved;
    if (side_device_open("watchdog_ms=200", elf, &saved)) return;
    unsigned u[3] = { 10, 12, 7 };
    ws_addr ub;
    CHECK(ws_malloc(dev, sizeof u, &ub) == WS_OK && ws_memcpy_htod(dev, ub, u, sizeof u) == WS_OK);
    vtx v[6];
    quad(v, 1, 1);
    ws_gfx_pipeline_desc d = desc("ref_vs", "hang_fs");
    CHECK(draw(&d, v, 6, 1, ub) == WS_ERR_TIMEOUT);
    const char *e = ws_last_error(dev);
    CHECK_STR_CONTAINS(e, ", fragment shader 'hang_fs' of draw 0, launch ");
    CHECK_STR_CONTAINS(e, "the first still running: block ");
    CHECK_STR_CONTAINS(e, "]; draw 0 primitive 1 pixel (10,12), pc 0x");
    CHECK_STR_CONTAINS(e, "in hang_fs");
    printf("hang report: %s\n", e);
    u[0] = 4; /* the vertex */
    CHECK(ws_memcpy_htod(dev, ub, u, sizeof u) == WS_OK);
    d = desc("hang_vs", "ref_fs");
    CHECK(draw(&d, v, 6, 1, ub) == WS_ERR_TIMEOUT);
    e = ws_last_error(dev);
    CHECK_STR_CONTAINS(e, "]; draw 1 vertex 4 instance 0, pc 0x");
    CHECK_STR_CONTAINS(e, ", vertex shader 'hang_vs' of draw 1, launch ");
    printf("hang report: %s\n", e);
    side_device_close(&saved);
}

/* The statistics are the most recent draw's even when it faulted before
 * its fragments (they were the draw before's, under that draw's id). */
static void test_stats_of_faulted_draw(void)
{
    vtx v[6];
    quad(v, 1, 1);
    ws_gfx_pipeline_desc d = desc("ref_vs", "ref_fs");
    CHECK(draw(&d, v, 6, 1, 0) == WS_OK);
    uint64_t id = 0;
    CHECK(ws_gfx_next_draw_id(dev, &id) == WS_OK);
    ws_gfx_pipeline *p = NULL;
    ws_addr vb = 0;
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_OK && ws_gfx_set_pipeline(dev, p) == WS_OK);
    CHECK(ws_malloc(dev, sizeof v, &vb) == WS_OK && ws_memcpy_htod(dev, vb, v, sizeof v) == WS_OK);
    CHECK(ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof v) == WS_OK);
    CHECK(ws_gfx_draw(dev, 7, 1, 0, 0) == WS_OK); /* vertex 6 is past the buffer */
    CHECK(ws_synchronize(dev) == WS_ERR_KERNEL_FAULT);
    CHECK_STR_CONTAINS(ws_last_error(dev), "vertex fetch: vertex 6 instance 0");
    ws_gfx_draw_stats s;
    CHECK(ws_gfx_last_draw_stats(dev, &s) == WS_OK);
    CHECK_EQ_U(s.draw_id, id);
    CHECK_EQ_U(s.vertices_shaded, 0);
    CHECK_EQ_U(s.pixels_written, 0);
    CHECK_EQ_U(s.vertex_launch_id, ~0ull);
    ws_free(dev, vb);
    ws_gfx_pipeline_destroy(dev, p);
}

/* Helper lanes (uncovered pixels of a quad, discarded fragments) run the
 * shader but their stores and atomics have no effect, as a GPU's helper
 * invocations: a shader that counts or marks its fragments sees exactly
 * the pixels written (it also saw the helpers, 116 of them here), in both
 * execution engines. */
static void test_helpers_store_nothing(const char *elf)
{
    const char *configs[2] = { "engine=interp", "engine=fast" };
    for (int c = 0; c < 2; c++) {
        saved_device saved;
        if (side_device_open(configs[c], elf, &saved)) return;
        /* a slanted triangle (partly covered quads along its edges), its
         * fragments left of x = 20 discarded */
        vtx v[3] = { { { -0.9f, -0.9f, 0, 1 }, { 1, 1, 1, 1 } }, { { 0.8f, -0.7f, 0, 1 }, { 1, 1, 1, 1 } },
                     { { -0.6f, 0.85f, 0, 1 }, { 1, 1, 1, 1 } } };
        v[0].color[3] = -1.5f; /* alpha 1/2 at x of about 20 */
        static uint32_t marks[2 + W * H];
        memset(marks, 0, sizeof marks);
        marks[1] = 1;
        ws_addr mb;
        CHECK(ws_malloc(dev, sizeof marks, &mb) == WS_OK && ws_memcpy_htod(dev, mb, marks, sizeof marks) == WS_OK);
        ws_gfx_pipeline_desc d = desc("ref_vs", "mark_fs");
        CHECK(draw(&d, v, 3, 1, mb) == WS_OK);
        ws_gfx_draw_stats s;
        CHECK(ws_gfx_last_draw_stats(dev, &s) == WS_OK);
        CHECK(ws_memcpy_dtoh(dev, marks, mb, sizeof marks) == WS_OK);
        uint32_t written = 0, marked_elsewhere = 0;
        for (int i = 0; i < W * H; i++) {
            written += img[i * 4] != 0;
            marked_elsewhere += marks[2 + i] != (img[i * 4] != 0);
        }
        printf("%s: %u pixels written, %u fragments counted, %llu helper lanes, %llu discarded, %u pixels "
               "marked wrongly\n", configs[c], written, marks[0], (unsigned long long)s.helper_lanes,
               (unsigned long long)s.fragments_discarded, marked_elsewhere);
        CHECK(s.helper_lanes > 0 && s.fragments_discarded > 0 && written > 0);
        CHECK_EQ_U(written, s.pixels_written);
        CHECK_EQ_U(marks[0], written);
        CHECK_EQ_U(marked_elsewhere, 0);
        CHECK_EQ_U(marks[1], 1); /* every lane's own stack held its local */
        side_device_close(&saved);
    }
}

static char printed[256];

static void on_printf(void *user, uint64_t launch, ws_dim3 block, ws_dim3 thread, const char *text, size_t len)
{
    (void)user; (void)launch; (void)block; (void)thread;
    size_t have = strlen(printed);
    if (have + len < sizeof printed) memcpy(printed + have, text, len), printed[have + len] = 0;
}

static void test_printf_assert(void)
{
    vtx v[6];
    quad(v, 1, 1);
    CHECK(ws_set_printf_handler(dev, on_printf, NULL) == WS_OK);
    ws_gfx_pipeline_desc d = desc("ref_vs", "printf_fs");
    CHECK(draw(&d, v, 6, 1, 0) == WS_OK);
    CHECK_STR_CONTAINS(printed, "fragment (3,4) depth 0.50");
    CHECK(ws_set_printf_handler(dev, NULL, NULL) == WS_OK);
    d = desc("ref_vs", "assert_fs");
    CHECK(draw(&d, v, 6, 1, 0) == WS_ERR_KERNEL_ASSERT);
    CHECK_STR_CONTAINS(ws_last_error(dev), "pixel (5,6)");
    CHECK_STR_CONTAINS(ws_last_error(dev), "assert_fs");
}

static void test_discard_and_sysvals(void)
{
    vtx v[6];
    quad(v, 1, 1);
    for (int i = 0; i < 6; i++) v[i].color[3] = v[i].pos[0] < 0 ? 0.0f : 1.0f; /* alpha 0 at the left */
    ws_gfx_pipeline_desc d = desc("ref_vs", "discard_fs");
    CHECK(draw(&d, v, 6, 1, 0) == WS_OK);
    ws_gfx_draw_stats s;
    ws_gfx_last_draw_stats(dev, &s);
    CHECK(s.fragments_discarded > 0);
    CHECK_EQ_U(s.pixels_written + s.fragments_discarded, W * H);
    CHECK(px(2, 30)[0] == 0 && px(2, 30)[1] == 0);      /* discarded: background */
    CHECK(px(60, 30)[2] == 128 && px(60, 30)[3] == 255); /* kept: (u, v, 0.5, 1) */
    /* pixel coordinates and facing; the second triangle is clockwise */
    quad(v, 1, 1);
    vtx t = v[4]; v[4] = v[5]; v[5] = t;
    d = desc("ref_vs", "sysval_fs");
    CHECK(draw(&d, v, 6, 1, 0) == WS_OK);
    CHECK_EQ_U(px(37, 5)[0], 37);
    CHECK_EQ_U(px(37, 5)[1], 5);
    int front_a = px(60, 60)[2], front_b = px(2, 2)[2];
    CHECK(front_a == 255 && front_b == 0);               /* CCW first triangle faces the viewer */
    CHECK_EQ_U(px(60, 60)[3], 0);                        /* primitive 0 */
    CHECK_EQ_U(px(2, 2)[3], 1);                          /* primitive 1 */
    d.cull = WS_GFX_CULL_BACK;
    CHECK(draw(&d, v, 6, 1, 0) == WS_OK);
    CHECK(px(60, 60)[2] == 255 && px(2, 2)[2] == 0 && px(2, 2)[0] == 0);
}

/* Draw v with shaders vs and fs, expecting a fault whose report holds
 * each of the strings in want (NULL-terminated). */
static void expect_draw_fault(const char *vs, const char *fs, const vtx *v, const char *const *want)
{
    ws_gfx_pipeline_desc d = desc(vs, fs);
    CHECK(draw(&d, v, 6, 1, 0) == WS_ERR_KERNEL_FAULT);
    const char *e = ws_last_error(dev);
    for (; *want; want++) CHECK_STR_CONTAINS(e, *want);
    printf("fault report: %s\n", e);
}

/* What the check at pipeline creation cannot refuse, a read of the other
 * stage's value on some paths only, is a fault when it runs, naming the
 * value, the stage, the draw and the vertex or pixel (it read
 * WS_GFX_WRONG_STAGE, 0xFFFFFFFF, which looked like a value). */
static void test_sysvals_read_at_run_time(vtx *v)
{
    /* through a pointer, which the check cannot follow */
    const char *const vs_read[] = { "ws_pixel_x() (CSR 0xcd8) read in a vertex shader: a system value of "
                                    "fragment shaders only", "vertex shader 'pointer_pixel_vs' of draw ",
                                    " vertex 0 instance 0", "in read_pixel_x", NULL };
    expect_draw_fault("pointer_pixel_vs", "ref_fs", v, vs_read);
    const char *const fs_read[] = { "ws_vertex_id() (CSR 0xcde) read in a fragment shader: a system value of "
                                    "vertex shaders only", "fragment shader 'pointer_vertex_fs' of draw ",
                                    " pixel (", "in read_vertex_id", NULL };
    expect_draw_fault("ref_vs", "pointer_vertex_fs", v, fs_read);
    /* a helper shared by both stages that reads the pixel on its fragment
     * path only: accepted, and the vertex shader runs it without the read */
    ws_gfx_pipeline_desc d = desc("shared_helper_vs", "shared_helper_fs");
    CHECK(draw(&d, v, 6, 1, 0) == WS_OK);
    CHECK_EQ_U(px(37, 5)[0], 37);  /* the fragment shader's ws_pixel_x() */
    /* ... until a vertex (alpha 2) takes that path */
    vtx odd[6];
    memcpy(odd, v, sizeof odd);
    odd[2].color[3] = 2.0f;
    const char *const helper_read[] = { "ws_pixel_x() (CSR 0xcd8) read in a vertex shader",
                                        "vertex shader 'shared_helper_vs' of draw ", " vertex 2 instance 0",
                                        "in pixel_or", NULL };
    expect_draw_fault("shared_helper_vs", "ref_fs", odd, helper_read);
    /* ws_discard() in a vertex shader: refused if every run calls it,
     * else accepted and a fault if a vertex does */
    ws_gfx_pipeline *p = NULL;
    d = desc("discard_vs", "ref_fs");
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "vertex shader 'discard_vs' calls ws_discard() (pc 0x");
    CHECK_STR_CONTAINS(ws_last_error(dev), "gfx_shaders.c:");
    CHECK_STR_CONTAINS(ws_last_error(dev), "on every run");
    printf("refused: %s\n", ws_last_error(dev));
    d = desc("maybe_discard_vs", "ref_fs");
    CHECK(draw(&d, v, 6, 1, 0) == WS_OK);
    const char *const discard[] = { "ws_discard called in a vertex shader", "vertex shader 'maybe_discard_vs' of draw ",
                                    " vertex 2 instance 0", NULL };
    expect_draw_fault("maybe_discard_vs", "ref_fs", odd, discard);
}

/* A kernel that reads a shader's system value faults, naming the value,
 * the kernel, its block, thread and pc (it read 0, silently). */
static void test_sysval_in_kernel(void)
{
    ws_addr out = 0;
    CHECK(ws_malloc(dev, 4 * 4, &out) == WS_OK);
    ws_arg a = WS_ARG_PTR(out);
    ws_status st = ws_launch(dev, shader("pixel_in_kernel"), WS_DIM3(1, 1, 1), WS_DIM3(4, 1, 1), 0, &a, 1);
    if (st == WS_OK) st = ws_synchronize(dev);
    CHECK(st == WS_ERR_KERNEL_FAULT);
    const char *e = ws_last_error(dev);
    CHECK_STR_CONTAINS(e, "ws_pixel_x() (CSR 0xcd8) read in a kernel: a system value of fragment shaders only");
    CHECK_STR_CONTAINS(e, "kernel 'pixel_in_kernel'");
    CHECK_STR_CONTAINS(e, "block (0,0,0) thread (0,0,0)");
    CHECK_STR_CONTAINS(e, "pc 0x");
    printf("fault report: %s\n", e);
    ws_free(dev, out);
}

/* A shader that reads the other stage's system values is refused at
 * pipeline creation, naming the value and its source line (a vertex
 * shader's ws_pixel_x() read its vertex index and a fragment shader's
 * ws_vertex_id() its pixel's x, silently); read where the check cannot
 * see (through a function pointer) the value is WS_GFX_WRONG_STAGE. */
static void test_sysvals_of_other_stage(const char *elf)
{
    ws_gfx_pipeline *p = NULL;
    ws_gfx_pipeline_desc d = desc("pixel_in_vs", "ref_fs");
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_ERR_INVALID_ARG);
    const char *e = ws_last_error(dev);
    CHECK_STR_CONTAINS(e, "vertex shader 'pixel_in_vs' reads ws_pixel_x() (CSR 0xcd8, pc 0x");
    CHECK_STR_CONTAINS(e, "gfx_shaders.c:");
    CHECK_STR_CONTAINS(e, "a system value of fragment shaders only");
    printf("refused: %s\n", e);
    d = desc("primitive_in_vs", "ref_fs"); /* read in a function it calls */
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "vertex shader 'primitive_in_vs' reads ws_primitive_id()");
    CHECK_STR_CONTAINS(ws_last_error(dev), "in primitive_of_vertex");
    d = desc("ref_vs", "vertex_in_fs");
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "fragment shader 'vertex_in_fs' reads ws_vertex_id() (CSR 0xcde");
    CHECK_STR_CONTAINS(ws_last_error(dev), "a system value of vertex shaders only");
    printf("refused: %s\n", ws_last_error(dev));
    /* the values each stage has are accepted (instance_vs reads the vertex
     * and instance, sysval_fs the pixel, facing and primitive) */
    d = desc("instance_vs", "sysval_fs");
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_OK);
    ws_gfx_pipeline_destroy(dev, p);
    vtx v[6];
    quad(v, 1, 1);
    test_sysvals_read_at_run_time(v);
    /* A vertex shader reading SYS0 (0xCD8) as the header compiled
     * ws_vertex_id() before 2026-11-28: refused in a module built with the
     * header's mark (it is ws_pixel_x() there), and in the same module
     * without the mark (built before: old captures hold such modules) it
     * is accepted and reads the vertex index, as it did. */
    d = desc("old_vertex_vs", "ref_fs");
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "vertex shader 'old_vertex_vs' reads ws_pixel_x()");
    size_t n = 0;
    unsigned char *image = ws_test_read_file(elf, &n);
    char *mark = NULL; /* the mark's name in the section name table */
    for (size_t i = 0; image && !mark && i + sizeof ".ws_sysvals" <= n; i++)
        if (!memcmp(image + i, ".ws_sysvals", sizeof ".ws_sysvals")) mark = (char *)image + i;
    CHECK(mark != NULL);
    if (!mark) { free(image); return; }
    mark[sizeof ".ws_sysvals" - 2] = 'z'; /* the section is no longer the mark */
    ws_module *marked = mod, *old = NULL;
    CHECK(ws_module_load_data(dev, image, n, "unmarked", &old) == WS_OK);
    free(image);
    mod = old;
    d = desc("old_vertex_vs", "ref_fs");
    CHECK(draw(&d, v, 6, 1, 0) == WS_OK);
    CHECK_EQ_U(px(63, 63)[0], 1); /* next to vertex 1 (the bottom right corner) */
    CHECK_EQ_U(px(0, 0)[0], 5);   /* next to vertex 5 (the top left) */
    mod = marked;
    ws_module_unload(dev, old);
}

static void test_instances_and_strips(void)
{
    vtx v[3] = { { { -1, -1, 0, 1 }, { 0, 0, 1, 1 } }, { { -0.8f, -1, 0, 1 }, { 0, 0, 1, 1 } },
                 { { -1, -0.8f, 0, 1 }, { 0, 0, 1, 1 } } };
    ws_gfx_pipeline_desc d = desc("instance_vs", "ref_fs");
    CHECK(draw(&d, v, 3, 3, 0) == WS_OK);
    for (int i = 0; i < 3; i++) { /* instance i is moved right by i * 0.25 (8 pixels) */
        const uint8_t *p = px(1 + 8 * i, 62);
        CHECK_EQ_U(p[1], i);
        CHECK(p[2] == 255);
    }
    ws_gfx_draw_stats s;
    ws_gfx_last_draw_stats(dev, &s);
    CHECK_EQ_U(s.vertices_shaded, 9);
    /* ws_instance_id() in a fragment shader: its primitive's instance (it
     * read the pixel's y, 62) */
    d = desc("instance_vs", "instance_fs");
    CHECK(draw(&d, v, 3, 3, 0) == WS_OK);
    for (int i = 0; i < 3; i++) CHECK_EQ_U(px(1 + 8 * i, 62)[1], i);
    /* a strip of four vertices is two triangles of the same facing */
    vtx q[4] = { { { -1, -1, 0, 1 }, { 1, 0, 0, 1 } }, { { 1, -1, 0, 1 }, { 1, 0, 0, 1 } },
                 { { -1, 1, 0, 1 }, { 1, 0, 0, 1 } }, { { 1, 1, 0, 1 }, { 1, 0, 0, 1 } } };
    d = desc("ref_vs", "ref_fs");
    d.topology = WS_GFX_TRIANGLE_STRIP;
    d.cull = WS_GFX_CULL_BACK;
    CHECK(draw(&d, q, 4, 1, 0) == WS_OK);
    ws_gfx_last_draw_stats(dev, &s);
    CHECK_EQ_U(s.pixels_written, W * H);
    CHECK_EQ_U(s.primitives_culled, 0);
    /* scissor */
    CHECK(ws_gfx_set_scissor(dev, 8, 4, 10, 6) == WS_OK);
    CHECK(draw(&d, q, 4, 1, 0) == WS_OK);
    ws_gfx_last_draw_stats(dev, &s);
    CHECK_EQ_U(s.pixels_written, 60);
    CHECK(px(8, 4)[0] == 255 && px(7, 4)[0] == 0 && px(17, 9)[0] == 255 && px(18, 9)[0] == 0);
    CHECK(ws_gfx_set_scissor(dev, 0, 0, 0, 0) == WS_OK);
}

/* Mip levels of distinct colours show which level the quad derivatives pick. */
static void test_texture_lod(void)
{
    ws_gfx_texture *t = NULL;
    CHECK(ws_gfx_texture_create(dev, 256, 256, 0, &t) == WS_OK);
    static uint8_t level[256 * 256 * 4];
    const uint8_t colors[9][3] = { { 255, 0, 0 }, { 0, 255, 0 }, { 0, 0, 255 }, { 255, 255, 0 }, { 0, 255, 255 },
                                   { 255, 0, 255 }, { 128, 128, 128 }, { 255, 255, 255 }, { 64, 0, 0 } };
    for (uint32_t l = 0; l < 9; l++) {
        uint32_t n = (256 >> l) * (256 >> l);
        for (uint32_t i = 0; i < n; i++) {
            memcpy(level + 4 * i, colors[l], 3);
            level[4 * i + 3] = 255;
        }
        CHECK(ws_gfx_texture_upload(dev, t, l, level, n * 4) == WS_OK);
    }
    ws_gfx_sampler smp = { .filter = WS_GFX_NEAREST, .mip_filter = WS_GFX_NEAREST, .mipmaps = 1 };
    CHECK(ws_gfx_set_texture(dev, 0, t, &smp) == WS_OK);
    ws_gfx_pipeline_desc d = desc("ref_vs", "tex_fs");
    vtx v[6];
    /* uv from 0 to s over 64 pixels: 256*s/64 texels per pixel */
    const float scales[3] = { 0.25f, 0.5f, 1.0f };
    for (int i = 0; i < 3; i++) {
        quad(v, scales[i], 1);
        CHECK(draw(&d, v, 6, 1, 0) == WS_OK);
        CHECK(memcmp(px(20, 20), colors[i], 3) == 0);
        CHECK(memcmp(px(50, 41), colors[i], 3) == 0);
    }
    /* Between levels, nearest takes the level nearest the lod, and a lod
     * half-way between two takes the finer one: ceil(lod + 1/2) - 1, as
     * OpenGL and Vulkan define it (until 2026-11-28 ties went to the
     * coarser level: 0.5 sampled level 1 and 1.5 level 2) */
    const float lods[6] = { 0.25f, 0.5f, 0.75f, 1.5f, 1.5001f, 2.5f };
    const int lod_level[6] = { 0, 0, 1, 1, 2, 2 };
    ws_gfx_pipeline_desc dl = desc("ref_vs", "tex_lod_fs");
    for (int i = 0; i < 6; i++) {
        quad(v, 1, 1);
        for (int k = 0; k < 6; k++) v[k].color[2] = lods[i];
        CHECK(draw(&dl, v, 6, 1, 0) == WS_OK);
        if (memcmp(px(20, 20), colors[lod_level[i]], 3))
            printf("lod %g: sampled (%d,%d,%d), level %d is (%d,%d,%d)\n", (double)lods[i], px(20, 20)[0],
                   px(20, 20)[1], px(20, 20)[2], lod_level[i], colors[lod_level[i]][0], colors[lod_level[i]][1],
                   colors[lod_level[i]][2]);
        CHECK(memcmp(px(20, 20), colors[lod_level[i]], 3) == 0);
    }
    /* an explicit sampler without mipmaps stays on level 0 */
    smp.mipmaps = 0;
    CHECK(ws_gfx_set_texture(dev, 0, t, &smp) == WS_OK);
    CHECK(draw(&d, v, 6, 1, 0) == WS_OK);
    CHECK(memcmp(px(20, 20), colors[0], 3) == 0);
    /* linear filtering between a black and a white texel is grey */
    ws_gfx_texture *bw = NULL;
    uint8_t two[2 * 1 * 4] = { 0, 0, 0, 255, 255, 255, 255, 255 };
    CHECK(ws_gfx_texture_create(dev, 2, 1, 1, &bw) == WS_OK && ws_gfx_texture_upload(dev, bw, 0, two, 8) == WS_OK);
    ws_gfx_sampler lin = { .filter = WS_GFX_LINEAR, .wrap_u = WS_GFX_CLAMP, .wrap_v = WS_GFX_CLAMP };
    CHECK(ws_gfx_set_texture(dev, 0, bw, &lin) == WS_OK);
    quad(v, 1, 1);
    CHECK(draw(&d, v, 6, 1, 0) == WS_OK);
    CHECK(px(0, 10)[0] == 0 && px(63, 10)[0] == 255);
    int mid = px(32, 10)[0];
    CHECK(mid > 100 && mid < 155);
    /* an unbound slot is a fault in the shader, not a crash */
    CHECK(ws_gfx_set_texture(dev, 0, NULL, NULL) == WS_OK);
    CHECK(draw(&d, v, 6, 1, 0) == WS_ERR_KERNEL_FAULT);
    CHECK_STR_CONTAINS(ws_last_error(dev), "texture slot 0 is not bound");
    CHECK_STR_CONTAINS(ws_last_error(dev), "; fragment shader 'tex_fs' of draw ");
    /* generated mips: an odd side's last texel has no parent in the next
     * level (3 -> 1 takes texels 0 and 1), a 1-texel side repeats it */
    ws_gfx_texture *odd = NULL;
    uint8_t three[3 * 4] = { 0, 0, 0, 0, 100, 100, 100, 100, 255, 255, 255, 255 }, l1[4];
    CHECK(ws_gfx_texture_create(dev, 3, 1, 0, &odd) == WS_OK && ws_gfx_texture_upload(dev, odd, 0, three, 12) == WS_OK &&
          ws_gfx_texture_generate_mips(dev, odd) == WS_OK && ws_gfx_texture_read(dev, odd, 1, l1, 4) == WS_OK);
    CHECK_EQ_U(l1[0], (0 + 100 + 0 + 100 + 2) / 4);
    ws_gfx_texture_destroy(dev, odd);
    ws_gfx_texture_destroy(dev, t);
    ws_gfx_texture_destroy(dev, bw);
}

/* The same frame twice, and in timing mode: byte-identical. */
static uint64_t frame_hash(const char *config, const char *elf)
{
    ws_config cfg;
    char err[128];
    ws_config_default(&cfg);
    if (config) ws_config_parse(&cfg, config, err, sizeof err);
    ws_device *dv;
    ws_module *m;
    ws_kernel *vs, *fs;
    if (ws_device_open(&cfg, &dv) != WS_OK || ws_module_load_file(dv, elf, &m) != WS_OK ||
        ws_kernel_get(m, "ref_vs", &vs) != WS_OK || ws_kernel_get(m, "ref_fs", &fs) != WS_OK)
        return 0;
    ws_device *save = dev;
    ws_module *save_m = mod;
    ws_gfx_target *save_t = target;
    dev = dv;
    mod = m;
    ws_gfx_target_create(dev, W, H, 1, &target);
    ws_gfx_set_target(dev, target);
    vtx v[30];
    uint32_t r = 7;
    for (int i = 0; i < 30; i++) {
        float f[8];
        for (int k = 0; k < 8; k++) { r = r * 1103515245u + 12345u; f[k] = (float)(r >> 9) / 4194304.0f; }
        v[i] = (vtx){ { f[0] * 2 - 1, f[1] * 2 - 1, f[2] - 0.5f, 1 }, { f[3], f[4], f[5], f[6] } };
    }
    ws_gfx_pipeline_desc d = desc("ref_vs", "ref_fs");
    d.depth_test = d.depth_write = 1;
    d.depth_compare = WS_GFX_LESS;
    d.blend = WS_GFX_BLEND_ALPHA;
    uint64_t h = 1469598103934665603ull;
    if (draw(&d, v, 30, 1, 0) == WS_OK)
        for (size_t i = 0; i < sizeof img; i++) h = (h ^ img[i]) * 1099511628211ull;
    else
        h = 0;
    ws_device_close(dev);
    dev = save;
    mod = save_m;
    target = save_t;
    return h;
}

/* Tools hear of frames: version 2 tables get frame_begin/frame_present; a
 * version-1 table (allocated only up to where version 2 added fields, so a
 * read past it shows under AddressSanitizer) gets nothing. */
static char frames[64];
static void on_frame_begin(ws_device *d, void *u, uint64_t f) { (void)d; (void)u; snprintf(frames + strlen(frames), 8, "b%llu ", (unsigned long long)f); }
static void on_frame_present(ws_device *d, void *u, uint64_t f) { (void)d; (void)u; snprintf(frames + strlen(frames), 8, "p%llu ", (unsigned long long)f); }

static void test_frames_for_tools(void)
{
    static const ws_tool watcher = { .version = WS_TOOL_API_VERSION, .name = "frame watcher",
                                     .frame_begin = on_frame_begin, .frame_present = on_frame_present };
    size_t v1_size = offsetof(ws_tool, frame_begin);
    const ws_tool v1 = { .version = 1, .name = "version 1 tool" };
    void *old = malloc(v1_size);
    if (!old) return;
    memcpy(old, &v1, v1_size);
    CHECK(ws_tool_attach(dev, &watcher, NULL) == WS_OK);
    CHECK(ws_tool_attach(dev, old, NULL) == WS_OK);
    vtx v[6];
    quad(v, 1, 1);
    ws_gfx_pipeline_desc d = desc("ref_vs", "ref_fs");
    CHECK(draw(&d, v, 6, 1, 0) == WS_OK);
    CHECK(draw(&d, v, 6, 1, 0) == WS_OK);
    CHECK_STR_CONTAINS(frames, "b");
    uint64_t f;
    CHECK(ws_gfx_begin_frame(dev, &f) == WS_OK);
    CHECK(ws_gfx_begin_frame(dev, NULL) == WS_ERR_INVALID_ARG); /* still open */
    CHECK(ws_gfx_present(dev, target, NULL, 0) == WS_OK);
    char want[64];
    snprintf(want, sizeof want, "b%llu p%llu b%llu p%llu b%llu p%llu ", (unsigned long long)f - 2,
             (unsigned long long)f - 2, (unsigned long long)f - 1, (unsigned long long)f - 1, (unsigned long long)f,
             (unsigned long long)f);
    CHECK_STR_CONTAINS(frames, want);
    CHECK(ws_gfx_present(dev, target, NULL, 0) == WS_ERR_INVALID_ARG); /* no frame open */
    /* a frame whose work faults has ended too: its present is heard (it
     * was not, so a tool saw frame f+1 begin and never end) */
    ws_addr ub = target_uniforms(10, 12, 0);
    ws_gfx_pipeline_desc fd = desc("ref_vs", "fault_fs");
    CHECK(draw(&fd, v, 6, 1, ub) == WS_ERR_KERNEL_FAULT);
    ws_free(dev, ub);
    snprintf(want, sizeof want, "p%llu b%llu p%llu ", (unsigned long long)f, (unsigned long long)f + 1,
             (unsigned long long)f + 1);
    CHECK_STR_CONTAINS(frames, want);
    CHECK(ws_tool_detach(dev, old, NULL) == WS_OK);
    CHECK(ws_tool_detach(dev, &watcher, NULL) == WS_OK);
    free(old);
}

/* The target is unorm: the shader's colour is clamped to [0, 1] before
 * blending, as every graphics API does (it was blended unclamped: 1.5 at
 * alpha 0.5 over grey gave white, -0.5 added to grey gave black). */
static void test_blend_clamps_source(void)
{
    static const struct { ws_gfx_blend mode; float c[4]; uint8_t want[4]; } cases[] = {
        { WS_GFX_BLEND_ALPHA, { -0.5f, 1.5f, 0.25f, 0.5f }, { 64, 192, 96, 128 } },
        { WS_GFX_BLEND_ALPHA, { 2.0f, 0.0f, 1.0f, 3.0f }, { 255, 0, 255, 255 } },
        { WS_GFX_BLEND_ADDITIVE, { -0.5f, 0.25f, 1.5f, -1.0f }, { 128, 192, 255, 128 } },
        { WS_GFX_BLEND_OPAQUE, { -0.5f, 1.5f, 0.25f, 7.0f }, { 0, 255, 64, 255 } },
    };
    const float grey[4] = { 0.5f, 0.5f, 0.5f, 0.5f }; /* 128 each */
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ws_gfx_pipeline_desc d = desc("ref_vs", "ref_fs");
        d.blend = cases[i].mode;
        vtx v[6];
        quad(v, 1, 1);
        for (int k = 0; k < 6; k++) memcpy(v[k].color, cases[i].c, sizeof v[k].color);
        ws_gfx_pipeline *p = NULL;
        ws_addr vb = 0;
        CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_OK);
        CHECK(ws_malloc(dev, sizeof v, &vb) == WS_OK && ws_memcpy_htod(dev, vb, v, sizeof v) == WS_OK);
        CHECK(ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof v) == WS_OK && ws_gfx_set_pipeline(dev, p) == WS_OK);
        CHECK(ws_gfx_begin_frame(dev, NULL) == WS_OK && ws_gfx_clear(dev, grey, 1.0f) == WS_OK);
        CHECK(ws_gfx_draw(dev, 6, 1, 0, 0) == WS_OK);
        CHECK(ws_gfx_present(dev, target, img, sizeof img) == WS_OK);
        const uint8_t *q = px(W / 2, H / 2);
        if (memcmp(q, cases[i].want, 4))
            printf("blend case %zu: got (%u %u %u %u), want (%u %u %u %u)\n", i, q[0], q[1], q[2], q[3], cases[i].want[0],
                   cases[i].want[1], cases[i].want[2], cases[i].want[3]);
        CHECK(!memcmp(q, cases[i].want, 4));
        ws_free(dev, vb);
        ws_gfx_pipeline_destroy(dev, p);
    }
}

/* Depth write without the depth test: the depth image keeps its values,
 * as every graphics API has it (a GL overlay drawn with the test off and
 * the default depth mask must not move the depth buffer); the draw wrote
 * its depths. With the test on (ALWAYS) the depths are written. */
static void test_depth_write_needs_test(void)
{
    static float depth[W * H];
    for (int with_test = 0; with_test < 2; with_test++) {
        ws_gfx_pipeline_desc d = desc("ref_vs", "ref_fs");
        d.depth_test = with_test;
        d.depth_write = 1;
        d.depth_compare = WS_GFX_ALWAYS;
        vtx v[6];
        quad(v, 1, 1);
        for (int k = 0; k < 6; k++) v[k].pos[2] = 0.5f; /* window depth 0.75 */
        ws_gfx_pipeline *p = NULL;
        ws_addr vb = 0;
        CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_OK);
        CHECK(ws_malloc(dev, sizeof v, &vb) == WS_OK && ws_memcpy_htod(dev, vb, v, sizeof v) == WS_OK);
        CHECK(ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof v) == WS_OK && ws_gfx_set_pipeline(dev, p) == WS_OK);
        CHECK(ws_gfx_begin_frame(dev, NULL) == WS_OK && ws_gfx_clear(dev, (const float[4]){ 0, 0, 0, 1 }, 1.0f) == WS_OK);
        CHECK(ws_gfx_draw(dev, 6, 1, 0, 0) == WS_OK);
        CHECK(ws_gfx_present(dev, target, img, sizeof img) == WS_OK);
        CHECK(ws_gfx_target_read_depth(dev, target, depth, W * H) == WS_OK);
        float want = with_test ? 0.75f : 1.0f;
        if (depth[(H / 2) * W + W / 2] != want)
            printf("depth test %d, depth write 1: depth %g, want %g\n", with_test, depth[(H / 2) * W + W / 2], want);
        CHECK(depth[(H / 2) * W + W / 2] == want);
        CHECK(px(W / 2, H / 2)[0] > 100); /* the colour is written either way (red is u, about 0.5) */
        ws_free(dev, vb);
        ws_gfx_pipeline_destroy(dev, p);
    }
}

/* The primitive statistics count the draw's triangles, not the pieces the
 * clipper cuts them into (a culled triangle crossing the near and far
 * planes was three culled primitives of one, before 2026-11-27). */
static void test_stats_count_primitives(void)
{
    ws_gfx_draw_stats s;
    /* clockwise as the viewer sees it (back), through the near and far planes */
    const vtx v[3] = { { { -0.8f, 0.8f, -2, 1 }, { 1, 1, 1, 1 } }, { { 0.8f, 0.8f, 0, 1 }, { 1, 1, 1, 1 } },
                       { { 0, -0.8f, 2, 1 }, { 1, 1, 1, 1 } } };
    ws_gfx_pipeline_desc d = desc("ref_vs", "ref_fs");
    d.cull = WS_GFX_CULL_BACK;
    CHECK(draw(&d, v, 3, 4, 0) == WS_OK);
    CHECK(ws_gfx_last_draw_stats(dev, &s) == WS_OK);
    CHECK_EQ_U(s.primitives_in, 4);
    CHECK_EQ_U(s.primitives_clipped, 4);
    CHECK_EQ_U(s.primitives_culled, 4);
    CHECK_EQ_U(s.primitives_rasterized, 0);
    CHECK_EQ_U(s.pixels_written, 0);
    d.cull = WS_GFX_CULL_NONE;
    CHECK(draw(&d, v, 3, 4, 0) == WS_OK);
    CHECK(ws_gfx_last_draw_stats(dev, &s) == WS_OK);
    CHECK_EQ_U(s.primitives_in, 4);
    CHECK_EQ_U(s.primitives_clipped, 4);
    CHECK_EQ_U(s.primitives_culled, 0);
    CHECK_EQ_U(s.primitives_rasterized, 4);
    /* one triangle off screen (inside the guard band), one of zero area:
     * neither is rasterised, the zero-area one is culled */
    const vtx w[6] = { { { 2, 2, 0, 1 }, { 1, 1, 1, 1 } }, { { 3, 2, 0, 1 }, { 1, 1, 1, 1 } },
                       { { 2, 3, 0, 1 }, { 1, 1, 1, 1 } }, { { -0.5f, -0.5f, 0, 1 }, { 1, 1, 1, 1 } },
                       { { 0, 0, 0, 1 }, { 1, 1, 1, 1 } }, { { 0.5f, 0.5f, 0, 1 }, { 1, 1, 1, 1 } } };
    CHECK(draw(&d, w, 6, 1, 0) == WS_OK);
    CHECK(ws_gfx_last_draw_stats(dev, &s) == WS_OK);
    CHECK_EQ_U(s.primitives_in, 2);
    CHECK_EQ_U(s.primitives_clipped, 0);
    CHECK_EQ_U(s.primitives_culled, 1);
    CHECK_EQ_U(s.primitives_rasterized, 0);
}

/* Two viewports that tile the target along a row of pixel centres
 * (y = 10.5): full-viewport quads, added, cover each pixel of rows 1..20
 * once. The rectangle kept centres on its top side and dropped them on its
 * bottom one, the opposite of the fill rule, so row 10 was drawn by neither
 * (before 2026-11-28). */
static void test_viewports_tile(void)
{
    vtx v[6];
    quad(v, 1, 1);
    for (int k = 0; k < 6; k++) { v[k].color[0] = 0.25f; v[k].color[1] = v[k].color[2] = 0; v[k].color[3] = 1; }
    ws_gfx_pipeline_desc d = desc("ref_vs", "ref_fs");
    d.blend = WS_GFX_BLEND_ADDITIVE;
    ws_gfx_pipeline *p = NULL;
    ws_addr vb = 0;
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_OK);
    CHECK(ws_malloc(dev, sizeof v, &vb) == WS_OK && ws_memcpy_htod(dev, vb, v, sizeof v) == WS_OK);
    CHECK(ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof v) == WS_OK && ws_gfx_set_pipeline(dev, p) == WS_OK);
    CHECK(ws_gfx_begin_frame(dev, NULL) == WS_OK && ws_gfx_clear(dev, (const float[4]){ 0, 0, 0, 1 }, 1.0f) == WS_OK);
    CHECK(ws_gfx_set_viewport(dev, 0, 0.5f, W, 10, 0, 1) == WS_OK);
    CHECK(ws_gfx_draw(dev, 6, 1, 0, 0) == WS_OK);
    CHECK(ws_gfx_set_viewport(dev, 0, 10.5f, W, 10, 0, 1) == WS_OK);
    CHECK(ws_gfx_draw(dev, 6, 1, 0, 0) == WS_OK);
    CHECK(ws_gfx_present(dev, target, img, sizeof img) == WS_OK);
    CHECK(ws_gfx_set_viewport(dev, 0, 0, 0, 0, 0, 0) == WS_OK);
    int wrong = 0;
    for (int y = 0; y < H; y++) {
        uint8_t want = y >= 1 && y <= 20 ? 64 : 0;
        for (int x = 0; x < W; x++)
            if (px(x, y)[0] != want) {
                if (!wrong++) printf("viewports tile: pixel (%d,%d) red %u, want %u\n", x, y, px(x, y)[0], want);
            }
    }
    CHECK_EQ_U(wrong, 0);
    ws_free(dev, vb);
    ws_gfx_pipeline_destroy(dev, p);
}

/* Window depth 1 - m * 2^-24 (adjacent floats below the far plane) as
 * the clip z of a vertex with w = 1: z + 1 and the halving are exact. */
static float far_z(int m) { return 1.0f - (float)m * 0x1p-23f; }

/* One triangle drawn twice: first with LEQUAL and depth write, so the
 * depth image holds the late test's depths, then again without the write
 * and with compare `op`. Returns the second draw's statistics. */
static ws_gfx_draw_stats draw_twice(ws_gfx_pipeline *first, ws_gfx_pipeline *second, ws_addr vb)
{
    ws_gfx_draw_stats s;
    memset(&s, 0, sizeof s);
    CHECK(ws_gfx_set_vertex_buffer(dev, 0, vb, 3 * sizeof(vtx)) == WS_OK);
    CHECK(ws_gfx_begin_frame(dev, NULL) == WS_OK && ws_gfx_clear(dev, (const float[4]){ 0, 0, 0, 1 }, 1.0f) == WS_OK);
    CHECK(ws_gfx_set_pipeline(dev, first) == WS_OK && ws_gfx_draw(dev, 3, 1, 0, 0) == WS_OK);
    CHECK(ws_gfx_set_pipeline(dev, second) == WS_OK && ws_gfx_draw(dev, 3, 1, 0, 0) == WS_OK);
    CHECK(ws_gfx_present(dev, target, NULL, 0) == WS_OK);
    CHECK(ws_gfx_last_draw_stats(dev, &s) == WS_OK);
    return s;
}

/* The early depth test (before shading) and the late one (raster output)
 * must see the same depth for a fragment: redrawing a triangle over its
 * own depths, LESS and GREATER reject every pixel early (none late), and
 * LEQUAL and GEQUAL keep every pixel (none rejected early). Triangles:
 * large ones past the target's edges, tiny ones, long thin ones, depths
 * at the near plane and one float apart below the far plane (a pixel
 * whose exact depth is halfway between two floats: the early test divided
 * by the area, the interpolation multiplied by its inverse, and the two
 * rounded that pixel to different floats). */
static void test_early_depth_matches_late(void)
{
    static const ws_gfx_compare ops[] = { WS_GFX_LESS, WS_GFX_GREATER, WS_GFX_LEQUAL, WS_GFX_GEQUAL };
    ws_gfx_pipeline *first = NULL, *second[4] = { NULL };
    ws_gfx_pipeline_desc d = desc("ref_vs", "ref_fs");
    d.depth_test = 1;
    d.depth_write = 1;
    d.depth_compare = WS_GFX_LEQUAL;
    CHECK(ws_gfx_pipeline_create(dev, &d, &first) == WS_OK);
    d.depth_write = 0;
    for (int k = 0; k < 4; k++) {
        d.depth_compare = ops[k];
        CHECK(ws_gfx_pipeline_create(dev, &d, &second[k]) == WS_OK);
    }
    ws_addr vb = 0;
    CHECK(ws_malloc(dev, 3 * sizeof(vtx), &vb) == WS_OK);
    const float depths[][3] = {
        { far_z(0), far_z(1), far_z(0) }, { far_z(1), far_z(2), far_z(3) }, { far_z(0), far_z(3), far_z(1) },
        { -1.0f, -1.0f, 1.0f }, { -1.0f, 0.0f, 1.0f }, { -0.3f, 0.7f, 0.1f },
    };
    /* Triangles (24.8 fixed-point window x, y; clip z) with a pixel whose
     * two depths rounded to different floats (found by searching). */
    static const struct { int x[3], y[3]; float z[3]; } rounding[] = {
        { { 10189, 6963, 15791 }, { 10121, 7543, 6978 }, { -0x1.23903cp-1f, 0x1.640288p-1f, -0x1.b061ap-4f } },
        { { 9899, 11735, 9467 }, { 4463, 1116, 8853 }, { -0x1.6128d4p-1f, -0x1.6c2fp-4f, 0x1.8ad79cp-1f } },
        { { 12088, 10701, 11571 }, { 10169, 393, 1911 }, { 0x1.a87ebcp-1f, 0x1.64aa1p-2f, -0x1.1f9078p-2f } },
    };
    const int nround = (int)(sizeof rounding / sizeof *rounding);
    unsigned seed = 12345, mismatches = 0, pixels = 0;
    for (int tri = 0; tri < nround + 48 && first && vb; tri++) {
        vtx v[3];
        if (tri < nround) {
            for (int k = 0; k < 3; k++)
                v[k] = (vtx){ { (float)rounding[tri].x[k] / 8192.0f - 1.0f, 1.0f - (float)rounding[tri].y[k] / 8192.0f,
                                rounding[tri].z[k], 1 }, { 1, 1, 1, 1 } };
        } else {
            /* sizes: a third large (past the edges), a third tiny, a third thin */
            int span = tri % 3 == 0 ? 160 : tri % 3 == 1 ? 3 : 40;
            float xy[3][2];
            int cx = 8 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 48;
            int cy = 8 + (int)((seed = seed * 1103515245u + 12345u) >> 16) % 48;
            for (int k = 0; k < 3; k++)
                for (int c = 0; c < 2; c++) {
                    seed = seed * 1103515245u + 12345u;
                    int off = (int)((seed >> 16) % (unsigned)(span + 1)) - span / 2;
                    if (tri % 3 == 2 && c == (k & 1)) off /= 16; /* thin: squeeze one axis */
                    xy[k][c] = (float)((c ? cy : cx) + off) + (float)((seed >> 8) & 1) * 0.5f;
                }
            const float *z = depths[tri % (sizeof depths / sizeof *depths)];
            for (int k = 0; k < 3; k++)
                v[k] = (vtx){ { xy[k][0] / (W / 2) - 1, xy[k][1] / (H / 2) - 1, z[k], 1 }, { 1, 1, 1, 1 } };
        }
        CHECK(ws_memcpy_htod(dev, vb, v, sizeof v) == WS_OK);
        uint64_t shown = 0;
        for (int k = 0; k < 4; k++) {
            ws_gfx_draw_stats s = draw_twice(first, second[k], vb);
            int rejects = ops[k] == WS_GFX_LESS || ops[k] == WS_GFX_GREATER;
            uint64_t covered = s.pixels_written + s.fragments_early_z_killed + s.fragments_late_z_killed;
            if (k && covered != shown) mismatches++; /* every redraw covers the same pixels */
            shown = covered;
            pixels += (unsigned)covered;
            int bad = rejects ? s.pixels_written || s.fragments_late_z_killed : s.fragments_early_z_killed ||
                                                                                 s.fragments_late_z_killed;
            if (bad && !mismatches++)
                printf("early/late depth: triangle %d, compare %d: %llu written, %llu early-killed, %llu late-killed\n",
                       tri, (int)ops[k], (unsigned long long)s.pixels_written,
                       (unsigned long long)s.fragments_early_z_killed, (unsigned long long)s.fragments_late_z_killed);
        }
    }
    CHECK(pixels > 10000); /* the triangles really cover pixels */
    CHECK_EQ_U(mismatches, 0);
    ws_free(dev, vb);
    ws_gfx_pipeline_destroy(dev, first);
    for (int k = 0; k < 4; k++) ws_gfx_pipeline_destroy(dev, second[k]);
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s gfx_shaders.elf\n", argv[0]); return 2; }
    if (ws_device_open(NULL, &dev) != WS_OK) return 1;
    if (ws_module_load_file(dev, argv[1], &mod) != WS_OK) { printf("%s\n", ws_last_error(dev)); return 1; }
    CHECK(ws_gfx_target_create(dev, W, H, 1, &target) == WS_OK);
    CHECK(ws_gfx_set_target(dev, target) == WS_OK);
    test_pipeline_checks();
    test_bad_input();
    test_cp_halt_holds_target_read();
    test_degenerate_and_large();
    test_fault_names_pixel();
    test_hang_names_pixel(argv[1]);
    test_stats_of_faulted_draw();
    test_helpers_store_nothing(argv[1]);
    test_discard_and_sysvals();
    test_printf_assert();
    test_sysvals_of_other_stage(argv[1]);
    test_sysval_in_kernel();
    test_instances_and_strips();
    test_texture_lod();
    test_frames_for_tools();
    test_blend_clamps_source();
    test_depth_write_needs_test();
    test_stats_count_primitives();
    test_viewports_tile();
    test_early_depth_matches_late();
    ws_device_close(dev);

    uint64_t a = frame_hash(NULL, argv[1]), b = frame_hash(NULL, argv[1]), c = frame_hash("mode=timing", argv[1]);
    printf("frame hash: functional %016llx, again %016llx, timing %016llx\n", (unsigned long long)a,
           (unsigned long long)b, (unsigned long long)c);
    CHECK(a != 0 && a == b && a == c);
    /* quads need warps of a multiple of four lanes */
    CHECK(frame_hash("lanes_per_warp=2", argv[1]) == 0);
    return TEST_SUMMARY();
}
