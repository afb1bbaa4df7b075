/* Programs unlike the examples, each image compared pixel by pixel with
 * one computed on the host from the rules of docs/graphics.md:
 *   - a full-screen triangle whose fragment shader draws a procedural
 *     pattern from its pixel and gl_FragCoord, on a non-square target,
 *     through a viewport and then a scissor;
 *   - many overlapping quads (one instanced strip, per-instance rectangle
 *     and unorm8x4 colour) in each blend mode.
 * usage: test_gfx_programs gfx_programs.elf */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../test.h"
#include "gfx/gfx_probe.h"
#include "warpscope/graphics.h"
#include "gfx_shaders.h"

static ws_device *dev;
static ws_module *mod;

/* A device copy of n bytes at data (the test's vertex, index and uniform
 * buffers); 0, and a failed check, if it cannot be made. */
static ws_addr upload(const void *data, size_t n)
{
    ws_addr a = 0;
    CHECK(ws_malloc(dev, n, &a) == WS_OK && ws_memcpy_htod(dev, a, data, n) == WS_OK);
    return a;
}

static ws_kernel *shader(const char *name) { return gfx_shader(dev, mod, name); }

/* The raster-output stage's conversion to 8 bits (docs/graphics.md, 14). */
static uint8_t unorm8(float v)
{
    if (!(v > 0.0f)) return 0;
    if (v >= 1.0f) return 255;
    return (uint8_t)(v * 255.0f + 0.5f);
}

/* Pixels of got that differ from want by more than tol in a channel;
 * prints the first few. */
static int differing(const uint8_t *got, const uint8_t *want, uint32_t w, uint32_t h, int tol, const char *what)
{
    int bad = 0;
    for (uint32_t i = 0; i < w * h; i++)
        for (int k = 0; k < 4; k++)
            if (abs(got[i * 4 + k] - want[i * 4 + k]) > tol) {
                if (bad++ < 5)
                    printf("%s: pixel (%u,%u) channel %d is %u, expected %u\n", what, i % w, i / w, k,
                           got[i * 4 + k], want[i * 4 + k]);
                break;
            }
    return bad;
}

/* ---- a procedural pattern through a viewport, then a scissor ---- */

#define PW 95u /* odd: the last column's and row's quads hang over the target */
#define PH 39u

/* The pattern_fs colour of pixel (x, y) in viewport (vx, vy, vw, vh); the
 * alpha is u, interpolated (so within 1/255 of the rounded value). */
static void pattern_pixel(uint32_t x, uint32_t y, float vx, float vw, uint8_t *p)
{
    p[0] = ((x / 4 + y / 4) & 1) ? 255 : 0;
    p[1] = (uint8_t)((x * 7u + y * 13u) & 255u);
    p[2] = 255;
    p[3] = unorm8((float)(((double)x + 0.5 - vx) / vw));
}

static void pattern_reference(uint8_t *want, float vx, float vy, float vw, float vh, const uint32_t sc[4])
{
    for (uint32_t y = 0; y < PH; y++)
        for (uint32_t x = 0; x < PW; x++) {
            uint8_t *p = want + (y * PW + x) * 4;
            int in = x + 0.5 >= vx && x + 0.5 < vx + vw && y + 0.5 > vy && y + 0.5 <= vy + vh;
            if (sc) in = in && x >= sc[0] && x < sc[0] + sc[2] && y >= sc[1] && y < sc[1] + sc[3];
            if (in) pattern_pixel(x, y, vx, vw, p);
            else { p[0] = 0; p[1] = 0; p[2] = 64; p[3] = 255; } /* the clear colour */
        }
}

static void test_pattern(void)
{
    ws_gfx_target *t = NULL;
    ws_gfx_pipeline *p = NULL;
    ws_gfx_pipeline_desc d = { .vertex_shader = shader("screen_vs"), .fragment_shader = shader("pattern_fs") };
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_OK);
    CHECK(ws_gfx_target_create(dev, PW, PH, 0, &t) == WS_OK);
    CHECK(ws_gfx_set_target(dev, t) == WS_OK && ws_gfx_set_pipeline(dev, p) == WS_OK);
    static uint8_t got[PW * PH * 4], want[PW * PH * 4];
    const float clear[4] = { 0, 0, 0.25f, 1 };
    /* the whole target, a viewport inside it, the viewport with a scissor,
     * viewports on half pixels (centres on their sides) and past the
     * target's sides */
    const float vp[][4] = { { 0, 0, PW, PH }, { 8, 4, 80, 32 }, { 8, 4, 80, 32 }, { 10.5f, 3.5f, 70, 30 },
                            { 7.25f, 2.75f, 61.5f, 20.5f }, { -20, -10, 140, 70 } };
    const uint32_t sc[4] = { 20, 10, 30, 15 };
    for (int i = 0; i < (int)(sizeof vp / sizeof vp[0]); i++) {
        CHECK(ws_gfx_set_viewport(dev, vp[i][0], vp[i][1], vp[i][2], vp[i][3], 0, 1) == WS_OK);
        if (i == 2) CHECK(ws_gfx_set_scissor(dev, sc[0], sc[1], sc[2], sc[3]) == WS_OK);
        else CHECK(ws_gfx_set_scissor(dev, 0, 0, 0, 0) == WS_OK);
        CHECK(ws_gfx_begin_frame(dev, NULL) == WS_OK && ws_gfx_clear(dev, clear, 1.0f) == WS_OK);
        CHECK(ws_gfx_draw(dev, 3, 1, 0, 0) == WS_OK);
        CHECK(ws_gfx_present(dev, t, got, sizeof got) == WS_OK);
        pattern_reference(want, vp[i][0], vp[i][1], vp[i][2], vp[i][3], i == 2 ? sc : NULL);
        char what[32];
        snprintf(what, sizeof what, "pattern %d", i);
        /* red, green, blue exact; alpha (the interpolated u) within 1 */
        CHECK_EQ_U(differing(got, want, PW, PH, 1, what), 0);
        int exact_rgb = 0;
        for (uint32_t k = 0; k < PW * PH; k++) exact_rgb += !memcmp(got + k * 4, want + k * 4, 3);
        CHECK_EQ_U(exact_rgb, PW * PH);
    }
    CHECK(ws_gfx_set_viewport(dev, 0, 0, 0, 0, 0, 0) == WS_OK && ws_gfx_set_scissor(dev, 0, 0, 0, 0) == WS_OK);
    ws_gfx_pipeline_destroy(dev, p);
    ws_gfx_target_destroy(dev, t);
}

/* ---- overlapping quads in each blend mode ---- */

#define QW 64u
#define QH 48u
#define NQUADS 40

typedef struct quad_inst { float rect[4]; uint8_t color[4]; } quad_inst;

static uint32_t lcg(uint32_t *s) { *s = *s * 1103515245u + 12345u; return *s >> 8; }

/* Rectangles with integer sides (no pixel centre on an edge), some past
 * the target's sides; colours with every alpha from transparent to opaque. */
static void make_quads(quad_inst *q)
{
    uint32_t s = 2026;
    for (int i = 0; i < NQUADS; i++) {
        int x0 = (int)(lcg(&s) % (QW + 8)) - 8, y0 = (int)(lcg(&s) % (QH + 8)) - 8;
        int w = 1 + (int)(lcg(&s) % 40), h = 1 + (int)(lcg(&s) % 30);
        q[i].rect[0] = (float)x0; q[i].rect[1] = (float)y0;
        q[i].rect[2] = (float)(x0 + w); q[i].rect[3] = (float)(y0 + h);
        for (int k = 0; k < 4; k++) q[i].color[k] = (uint8_t)lcg(&s);
    }
    q[0].color[3] = 0;   /* fully transparent */
    q[1].color[3] = 255; /* opaque */
}

/* The image: clear colour, then each quad over the pixels whose centre
 * it covers, in instance order, blended as the raster-output stage does. */
static void quads_reference(const quad_inst *q, ws_gfx_blend blend, const uint8_t clear[4], uint8_t *want)
{
    for (uint32_t i = 0; i < QW * QH; i++) memcpy(want + i * 4, clear, 4);
    for (int n = 0; n < NQUADS; n++)
        for (uint32_t y = 0; y < QH; y++)
            for (uint32_t x = 0; x < QW; x++) {
                if (!(x >= q[n].rect[0] && x < q[n].rect[2] && y >= q[n].rect[1] && y < q[n].rect[3])) continue;
                uint8_t *dst = want + (y * QW + x) * 4;
                float src[4], out[4];
                for (int k = 0; k < 4; k++) src[k] = (float)q[n].color[k] / 255.0f;
                for (int k = 0; k < 4; k++) {
                    float d = (float)dst[k] / 255.0f;
                    out[k] = blend == WS_GFX_BLEND_ALPHA ? src[k] * src[3] + d * (1.0f - src[3])
                           : blend == WS_GFX_BLEND_ADDITIVE ? src[k] + d : src[k];
                }
                for (int k = 0; k < 4; k++) dst[k] = unorm8(out[k]);
            }
}

static void test_blended_quads(void)
{
    static quad_inst q[NQUADS];
    make_quads(q);
    const float corners[4][2] = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } };
    const float uni[2] = { QW, QH };
    const ws_addr vb = upload(corners, sizeof corners), ib = upload(q, sizeof q), ub = upload(uni, sizeof uni);
    ws_gfx_target *t = NULL;
    CHECK(ws_gfx_target_create(dev, QW, QH, 0, &t) == WS_OK && ws_gfx_set_target(dev, t) == WS_OK);
    CHECK(ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof corners) == WS_OK);
    CHECK(ws_gfx_set_vertex_buffer(dev, 1, ib, sizeof q) == WS_OK);
    CHECK(ws_gfx_set_uniforms(dev, ub) == WS_OK);
    const uint8_t clear8[4] = { 51, 102, 153, 204 };
    const float clear[4] = { 0.2f, 0.4f, 0.6f, 0.8f };
    static uint8_t got[QW * QH * 4], want[QW * QH * 4];
    const ws_gfx_blend modes[3] = { WS_GFX_BLEND_OPAQUE, WS_GFX_BLEND_ALPHA, WS_GFX_BLEND_ADDITIVE };
    for (int m = 0; m < 3; m++) {
        ws_gfx_pipeline_desc d = { .vertex_shader = shader("quad_vs"), .fragment_shader = shader("quad_fs"),
                                   .nattributes = 3, .nbindings = 2, .topology = WS_GFX_TRIANGLE_STRIP,
                                   .blend = modes[m] };
        d.attributes[0] = (ws_gfx_attribute){ 0, 0, WS_GFX_FLOAT2 };
        d.attributes[1] = (ws_gfx_attribute){ 1, offsetof(quad_inst, rect), WS_GFX_FLOAT4 };
        d.attributes[2] = (ws_gfx_attribute){ 1, offsetof(quad_inst, color), WS_GFX_UNORM8X4 };
        d.bindings[0] = (ws_gfx_binding){ sizeof corners[0], 0 };
        d.bindings[1] = (ws_gfx_binding){ sizeof(quad_inst), 1 };
        ws_gfx_pipeline *p = NULL;
        CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_OK && ws_gfx_set_pipeline(dev, p) == WS_OK);
        CHECK(ws_gfx_begin_frame(dev, NULL) == WS_OK && ws_gfx_clear(dev, clear, 1.0f) == WS_OK);
        CHECK(ws_gfx_draw(dev, 4, NQUADS, 0, 0) == WS_OK);
        CHECK(ws_gfx_present(dev, t, got, sizeof got) == WS_OK);
        quads_reference(q, modes[m], clear8, want);
        char what[32];
        snprintf(what, sizeof what, "blend mode %d", (int)modes[m]);
        CHECK_EQ_U(differing(got, want, QW, QH, 0, what), 0);
        ws_gfx_pipeline_destroy(dev, p);
    }
    ws_gfx_target_destroy(dev, t);
    ws_free(dev, vb);
    ws_free(dev, ib);
    ws_free(dev, ub);
}

/* ---- depth-tested quads from an indexed draw ---- */

typedef struct depth_inst { float rect[4]; uint8_t color[4]; float depth; } depth_inst;

/* The quads' image with depth test `op` over a depth image cleared to
 * `clear_depth`, window depth zmin + (z + 1) / 2 (zmax - zmin). */
static void depth_reference(const depth_inst *q, int n, ws_gfx_compare op, float clear_depth, float zmin, float zmax,
                            const uint8_t clear[4], uint8_t *want)
{
    static float zbuf[QW * QH];
    for (uint32_t i = 0; i < QW * QH; i++) { memcpy(want + i * 4, clear, 4); zbuf[i] = clear_depth; }
    for (int k = 0; k < n; k++) {
        float z = (float)(zmin + ((double)q[k].depth + 1.0) * 0.5 * ((double)zmax - zmin));
        for (uint32_t y = 0; y < QH; y++)
            for (uint32_t x = 0; x < QW; x++) {
                if (!(x >= q[k].rect[0] && x < q[k].rect[2] && y >= q[k].rect[1] && y < q[k].rect[3])) continue;
                float ref = zbuf[y * QW + x];
                int pass = op == WS_GFX_LESS ? z < ref : op == WS_GFX_LEQUAL ? z <= ref : op == WS_GFX_GREATER ? z > ref
                         : op == WS_GFX_GEQUAL ? z >= ref : op == WS_GFX_EQUAL ? z == ref : op == WS_GFX_NOTEQUAL ? z != ref
                         : op == WS_GFX_ALWAYS;
                if (!pass) continue;
                zbuf[y * QW + x] = z;
                memcpy(want + (y * QW + x) * 4, q[k].color, 4);
            }
    }
}

static void test_depth_indexed(void)
{
    /* 2 unused instances first (first_instance 2), depths on a 1/8 grid so
     * quads tie */
    enum { SKIP = 2, N = 30 };
    static depth_inst q[SKIP + N];
    uint32_t s = 77;
    for (int i = 0; i < SKIP + N; i++) {
        int x0 = (int)(lcg(&s) % QW) - 4, y0 = (int)(lcg(&s) % QH) - 4;
        q[i].rect[0] = (float)x0; q[i].rect[1] = (float)y0;
        q[i].rect[2] = (float)(x0 + 4 + (int)(lcg(&s) % 30)); q[i].rect[3] = (float)(y0 + 4 + (int)(lcg(&s) % 24));
        for (int k = 0; k < 4; k++) q[i].color[k] = (uint8_t)lcg(&s);
        q[i].depth = (float)((int)(lcg(&s) % 15) - 7) / 8.0f;
    }
    /* corners at vertices 5..8 behind junk; indices 10..13 behind junk, read
     * from index 3 with base_vertex -5 */
    float corners[9][2] = { { 9, 9 }, { 9, 9 }, { 9, 9 }, { 9, 9 }, { 9, 9 }, { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 1 } };
    const uint16_t idx[9] = { 0, 1, 2, 10, 11, 12, 12, 11, 13 };
    const float uni[2] = { QW, QH };
    const ws_addr vb = upload(corners, sizeof corners), ib = upload(idx, sizeof idx), qb = upload(q, sizeof q);
    const ws_addr ub = upload(uni, sizeof uni);
    ws_gfx_target *t = NULL;
    CHECK(ws_gfx_target_create(dev, QW, QH, 1, &t) == WS_OK && ws_gfx_set_target(dev, t) == WS_OK);
    CHECK(ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof corners) == WS_OK);
    CHECK(ws_gfx_set_vertex_buffer(dev, 1, qb, sizeof q) == WS_OK);
    CHECK(ws_gfx_set_index_buffer(dev, ib, sizeof idx, WS_GFX_INDEX_U16) == WS_OK);
    CHECK(ws_gfx_set_uniforms(dev, ub) == WS_OK);
    const uint8_t clear8[4] = { 0, 0, 0, 255 };
    const float clear[4] = { 0, 0, 0, 1 };
    static uint8_t got[QW * QH * 4], want[QW * QH * 4];
    /* each compare, in the default depth range and reversed (1..0) */
    for (int op = WS_GFX_NEVER; op <= WS_GFX_ALWAYS; op++)
        for (int rev = 0; rev < 2; rev++) {
            float zmin = rev ? 1.0f : 0.0f, zmax = rev ? 0.0f : 1.0f, cd = rev ? 0.25f : 0.75f;
            ws_gfx_pipeline_desc d = { .vertex_shader = shader("depth_quad_vs"), .fragment_shader = shader("quad_fs"),
                                       .nattributes = 4, .nbindings = 2, .depth_test = 1, .depth_write = 1,
                                       .depth_compare = (ws_gfx_compare)op };
            d.attributes[0] = (ws_gfx_attribute){ 0, 0, WS_GFX_FLOAT2 };
            d.attributes[1] = (ws_gfx_attribute){ 1, offsetof(depth_inst, rect), WS_GFX_FLOAT4 };
            d.attributes[2] = (ws_gfx_attribute){ 1, offsetof(depth_inst, color), WS_GFX_UNORM8X4 };
            d.attributes[3] = (ws_gfx_attribute){ 1, offsetof(depth_inst, depth), WS_GFX_FLOAT1 };
            d.bindings[0] = (ws_gfx_binding){ sizeof corners[0], 0 };
            d.bindings[1] = (ws_gfx_binding){ sizeof(depth_inst), 1 };
            ws_gfx_pipeline *p = NULL;
            CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_OK && ws_gfx_set_pipeline(dev, p) == WS_OK);
            CHECK(ws_gfx_set_viewport(dev, 0, 0, QW, QH, zmin, zmax) == WS_OK);
            CHECK(ws_gfx_begin_frame(dev, NULL) == WS_OK && ws_gfx_clear(dev, clear, cd) == WS_OK);
            CHECK(ws_gfx_draw_indexed(dev, 6, N, 3, -5, SKIP) == WS_OK);
            CHECK(ws_gfx_present(dev, t, got, sizeof got) == WS_OK);
            depth_reference(q + SKIP, N, (ws_gfx_compare)op, cd, zmin, zmax, clear8, want);
            char what[48];
            snprintf(what, sizeof what, "depth compare %d%s", op, rev ? " reversed" : "");
            CHECK_EQ_U(differing(got, want, QW, QH, 0, what), 0);
            ws_gfx_pipeline_destroy(dev, p);
        }
    CHECK(ws_gfx_set_viewport(dev, 0, 0, 0, 0, 0, 0) == WS_OK);
    ws_gfx_target_destroy(dev, t);
    ws_free(dev, vb);
    ws_free(dev, ib);
    ws_free(dev, qb);
    ws_free(dev, ub);
}

/* ---- nearest sampling of a non-square, non-power-of-two texture ---- */

#define TW 5u
#define TH 3u
#define TLEVELS 3u /* 5x3, 2x1, 1x1 */

/* Level l+1 of a texture from level l (docs/graphics.md: a 2x2 box filter
 * rounded to nearest; an odd side's last texel has no child, a 1-texel side
 * repeats its texel). */
static void host_mip(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst, uint32_t dw, uint32_t dh)
{
    for (uint32_t y = 0; y < dh; y++)
        for (uint32_t x = 0; x < dw; x++)
            for (int k = 0; k < 4; k++) {
                uint32_t xs[2] = { 2 * x, sw > 1 ? 2 * x + 1 : 2 * x }, ys[2] = { 2 * y, sh > 1 ? 2 * y + 1 : 2 * y };
                uint32_t sum = 0;
                for (int j = 0; j < 2; j++)
                    for (int i = 0; i < 2; i++) sum += src[(ys[j] * sw + xs[i]) * 4 + k];
                dst[(y * dw + x) * 4 + k] = (uint8_t)((sum + 2) / 4);
            }
}

static uint32_t wrap(double c, uint32_t size, ws_gfx_wrap mode)
{
    double i = floor(c);
    if (mode == WS_GFX_CLAMP) return i < 0 ? 0 : i >= size ? size - 1 : (uint32_t)i;
    double m = fmod(i, size);
    return (uint32_t)(m < 0 ? m + size : m);
}

static void test_texture_nearest(void)
{
    static uint8_t lvl[TLEVELS][TW * TH * 4];
    uint32_t s = 5;
    for (uint32_t i = 0; i < TW * TH * 4; i++) lvl[0][i] = (uint8_t)lcg(&s);
    uint32_t lw[TLEVELS] = { TW, 2, 1 }, lh[TLEVELS] = { TH, 1, 1 };
    for (uint32_t l = 1; l < TLEVELS; l++) host_mip(lvl[l - 1], lw[l - 1], lh[l - 1], lvl[l], lw[l], lh[l]);
    ws_gfx_texture *tex = NULL;
    uint32_t w = 0, h = 0, levels = 0;
    CHECK(ws_gfx_texture_create(dev, TW, TH, 0, &tex) == WS_OK);
    CHECK(ws_gfx_texture_levels(tex, &w, &h, &levels) == WS_OK);
    CHECK_EQ_U(levels, TLEVELS);
    CHECK(ws_gfx_texture_upload(dev, tex, 0, lvl[0], TW * TH * 4) == WS_OK);
    CHECK(ws_gfx_texture_generate_mips(dev, tex) == WS_OK);
    for (uint32_t l = 1; l < TLEVELS; l++) {
        uint8_t got[TW * TH * 4];
        CHECK(ws_gfx_texture_read(dev, tex, l, got, lw[l] * lh[l] * 4) == WS_OK);
        CHECK(memcmp(got, lvl[l], lw[l] * lh[l] * 4) == 0);
    }
    ws_gfx_pipeline *p = NULL;
    ws_gfx_pipeline_desc d = { .vertex_shader = shader("screen_vs"), .fragment_shader = shader("texcoord_fs") };
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_OK && ws_gfx_set_pipeline(dev, p) == WS_OK);
    ws_gfx_target *t = NULL;
    CHECK(ws_gfx_target_create(dev, QW, QH, 0, &t) == WS_OK && ws_gfx_set_target(dev, t) == WS_OK);
    ws_addr ub = 0;
    CHECK(ws_malloc(dev, 16, &ub) == WS_OK && ws_gfx_set_uniforms(dev, ub) == WS_OK);
    static uint8_t got[QW * QH * 4], want[QW * QH * 4];
    /* lod 0.5 is level 0 (a tie takes the finer level), 0.51 level 1 */
    const float lods[] = { 0.0f, 0.5f, 0.51f, 1.4f, 1.6f, 7.0f };
    for (int wrapmode = 0; wrapmode < 2; wrapmode++)
        for (size_t li = 0; li < sizeof lods / sizeof lods[0]; li++) {
            struct { float scale, shift, lod; unsigned slot; } u = { 0.0625f, 1.3f, lods[li], 3 };
            CHECK(ws_memcpy_htod(dev, ub, &u, sizeof u) == WS_OK);
            ws_gfx_sampler smp = { WS_GFX_NEAREST, WS_GFX_NEAREST, 1, (ws_gfx_wrap)wrapmode, (ws_gfx_wrap)wrapmode };
            CHECK(ws_gfx_set_texture(dev, 3, tex, &smp) == WS_OK);
            CHECK(ws_gfx_begin_frame(dev, NULL) == WS_OK);
            CHECK(ws_gfx_draw(dev, 3, 1, 0, 0) == WS_OK);
            CHECK(ws_gfx_present(dev, t, got, sizeof got) == WS_OK);
            uint32_t l = lods[li] <= 0.5f ? 0 : (uint32_t)ceilf(lods[li] + 0.5f) - 1;
            if (l > TLEVELS - 1) l = TLEVELS - 1;
            for (uint32_t y = 0; y < QH; y++)
                for (uint32_t x = 0; x < QW; x++) {
                    float su = (float)x * u.scale - u.shift, sv = (float)y * u.scale - u.shift;
                    uint32_t tx = wrap((double)su * lw[l], lw[l], (ws_gfx_wrap)wrapmode);
                    uint32_t ty = wrap((double)sv * lh[l], lh[l], (ws_gfx_wrap)wrapmode);
                    memcpy(want + (y * QW + x) * 4, lvl[l] + (ty * lw[l] + tx) * 4, 4);
                }
            char what[48];
            snprintf(what, sizeof what, "%s lod %.2f", wrapmode ? "clamp" : "repeat", (double)lods[li]);
            CHECK_EQ_U(differing(got, want, QW, QH, 0, what), 0);
        }
    ws_free(dev, ub);
    ws_gfx_pipeline_destroy(dev, p);
    ws_gfx_target_destroy(dev, t);
    ws_gfx_texture_destroy(dev, tex);
}

/* ---- a batch of overlapping triangles with the widest records ---- */

/* 4096 triangles (one batch of the rasteriser) on a 32x16 target, two
 * 16x16 tiles: the first covers the right tile only, the 4095 others the
 * whole target, so the left tile has 4095 x 256 fragments and the right
 * 4096 x 256: more than the 2^20 lanes a batch of fragments may hold, 160
 * bytes of device memory each with 32 varyings. Each pixel ends with the
 * last triangle's colour. */
static void test_overlap_batch(void)
{
    enum { NT = 4096 };
    static float pos[NT * 3][4];
    for (int t = 0; t < NT; t++) {
        const float full[3][2] = { { -1, -1 }, { 3, -1 }, { -1, 3 } }, right[3][2] = { { 0, -1 }, { 2, -1 }, { 0, 3 } };
        for (int k = 0; k < 3; k++) {
            pos[t * 3 + k][0] = t ? full[k][0] : right[k][0];
            pos[t * 3 + k][1] = t ? full[k][1] : right[k][1];
            pos[t * 3 + k][2] = 0;
            pos[t * 3 + k][3] = 1;
        }
    }
    const ws_addr vb = upload(pos, sizeof pos);
    ws_gfx_pipeline_desc d = { .vertex_shader = shader("wide_pos_vs"), .fragment_shader = shader("wide_prim_fs"),
                               .nattributes = 1, .nbindings = 1 };
    d.attributes[0] = (ws_gfx_attribute){ 0, 0, WS_GFX_FLOAT4 };
    d.bindings[0] = (ws_gfx_binding){ sizeof pos[0], 0 };
    ws_gfx_pipeline *p = NULL;
    ws_gfx_target *t = NULL;
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_OK && ws_gfx_set_pipeline(dev, p) == WS_OK);
    CHECK(ws_gfx_target_create(dev, 32, 16, 0, &t) == WS_OK && ws_gfx_set_target(dev, t) == WS_OK);
    CHECK(ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof pos) == WS_OK);
    const float black[4] = { 0, 0, 0, 0 };
    static uint8_t got[32 * 16 * 4];
    /* the pixel history of a pixel of the right tile, whose fragments the
     * batch limit splits between two launches */
    CHECK(ws_gfx_probe_arm(dev, 20, 5) == WS_OK);
    CHECK(ws_gfx_begin_frame(dev, NULL) == WS_OK && ws_gfx_clear(dev, black, 1.0f) == WS_OK);
    CHECK(ws_gfx_draw(dev, NT * 3, 1, 0, 0) == WS_OK);
    ws_status st = ws_gfx_present(dev, t, got, sizeof got);
    CHECK(st == WS_OK);
    if (st != WS_OK) printf("overlapping batch: %s\n", ws_last_error(dev));
    ws_gfx_draw_stats s;
    CHECK(ws_gfx_last_draw_stats(dev, &s) == WS_OK);
    CHECK_EQ_U(s.pixels_written, (NT - 1) * 32 * 16 + 256);
    /* two fragment launches of at most 2^20 lanes (the vertex launch first) */
    CHECK_EQ_U(s.fragments_shaded, (NT - 1) * 32 * 16 + 256);
    CHECK_EQ_U(s.fragment_launch_id - s.vertex_launch_id, 2);
    const uint8_t last[4] = { (NT - 1) & 255, unorm8(15.5f / 31.0f), (NT - 1) >> 8, 255 };
    int bad = 0;
    for (uint32_t i = 0; i < 32 * 16; i++)
        if (memcmp(got + i * 4, last, 4) && !bad++)
            printf("overlapping batch: pixel (%u,%u) is %u %u %u %u\n", i % 32, i / 32, got[i * 4], got[i * 4 + 1],
                   got[i * 4 + 2], got[i * 4 + 3]);
    CHECK_EQ_U(bad, 0);
    /* the clear, then every triangle's fragment in primitive order, each
     * written over the one before */
    const ws_gfx_probe_rec *r = NULL;
    size_t n = 0;
    CHECK(ws_gfx_probe_records(dev, &r, &n) == WS_OK);
    CHECK_EQ_U(n, 1 + NT);
    int in_order = n == 1 + NT && r[0].event == WS_GFX_PROBE_CLEAR;
    for (size_t i = 1; in_order && i < n; i++)
        in_order = r[i].event == WS_GFX_PROBE_WRITTEN && r[i].prim == i - 1 && !memcmp(r[i].before, r[i - 1].after, 4);
    CHECK(in_order);
    if (n) CHECK(memcmp(r[n - 1].after, last, 4) == 0);
    CHECK(ws_gfx_probe_disarm(dev) == WS_OK);
    ws_gfx_pipeline_destroy(dev, p);
    ws_gfx_target_destroy(dev, t);
    ws_free(dev, vb);
}

/* ---- perspective-correct varyings and linear filtering ---- */

/* A quad leaning away from the viewer: its left side at w = 1, its right
 * side at w = 4 (clip x, y scaled by w, so it fills the target on screen),
 * u running 0..1 from left to right, v from top to bottom, drawn as two
 * triangles. The host interpolates each pixel as docs/graphics.md says,
 * v = sum(b_i v_i / w_i) / sum(b_i / w_i) with the screen-space
 * barycentrics b_i of its centre in the triangle that covers it. The
 * texture is 4x4, red = 60 x, green = 60 y: linear filtering (clamped) of
 * the texels around (4u - 1/2, 4v - 1/2) gives 60 (4u - 1/2), clamped to
 * 0..180. */
typedef struct screen_vertex { double x, y, w, u, v; } screen_vertex;

static void perspective_uv(const screen_vertex *t, double px, double py, double *u, double *v)
{
    double area = (t[1].x - t[0].x) * (t[2].y - t[0].y) - (t[1].y - t[0].y) * (t[2].x - t[0].x);
    double b[3] = { ((t[1].x - px) * (t[2].y - py) - (t[1].y - py) * (t[2].x - px)) / area,
                    ((t[2].x - px) * (t[0].y - py) - (t[2].y - py) * (t[0].x - px)) / area, 0 };
    b[2] = 1 - b[0] - b[1];
    double nu = 0, nv = 0, den = 0;
    for (int i = 0; i < 3; i++) {
        nu += b[i] * t[i].u / t[i].w;
        nv += b[i] * t[i].v / t[i].w;
        den += b[i] / t[i].w;
    }
    *u = nu / den;
    *v = nv / den;
}

static void test_perspective_linear(void)
{
    const double wl = 1, wr = 4;
    const float verts[6][6] = {
        { -1, -1, 0, 1, 0, 1 }, { 4, -4, 0, 4, 1, 1 }, { 4, 4, 0, 4, 1, 0 },
        { -1, -1, 0, 1, 0, 1 }, { 4, 4, 0, 4, 1, 0 }, { -1, 1, 0, 1, 0, 0 },
    };
    uint8_t texels[4 * 4 * 4];
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 4; x++) {
            uint8_t *t = texels + (y * 4 + x) * 4;
            t[0] = (uint8_t)(60 * x); t[1] = (uint8_t)(60 * y); t[2] = 0; t[3] = 255;
        }
    ws_gfx_texture *tex = NULL;
    CHECK(ws_gfx_texture_create(dev, 4, 4, 1, &tex) == WS_OK && ws_gfx_texture_upload(dev, tex, 0, texels, sizeof texels) == WS_OK);
    ws_gfx_sampler lin = { WS_GFX_LINEAR, WS_GFX_NEAREST, 0, WS_GFX_CLAMP, WS_GFX_CLAMP };
    CHECK(ws_gfx_set_texture(dev, 0, tex, &lin) == WS_OK);
    const ws_addr vb = upload(verts, sizeof verts);
    ws_gfx_pipeline_desc d = { .vertex_shader = shader("persp_vs"), .fragment_shader = shader("persp_fs"),
                               .nattributes = 2, .nbindings = 1 };
    d.attributes[0] = (ws_gfx_attribute){ 0, 0, WS_GFX_FLOAT4 };
    d.attributes[1] = (ws_gfx_attribute){ 0, 16, WS_GFX_FLOAT2 };
    d.bindings[0] = (ws_gfx_binding){ sizeof verts[0], 0 };
    ws_gfx_pipeline *p = NULL;
    ws_gfx_target *t = NULL;
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_OK && ws_gfx_set_pipeline(dev, p) == WS_OK);
    CHECK(ws_gfx_target_create(dev, QW, QH, 0, &t) == WS_OK && ws_gfx_set_target(dev, t) == WS_OK);
    CHECK(ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof verts) == WS_OK);
    static uint8_t got[QW * QH * 4], want[QW * QH * 4];
    CHECK(ws_gfx_begin_frame(dev, NULL) == WS_OK);
    CHECK(ws_gfx_draw(dev, 6, 1, 0, 0) == WS_OK);
    CHECK(ws_gfx_present(dev, t, got, sizeof got) == WS_OK);
    /* the triangles on screen (pixels, y down): lower right, upper left */
    const screen_vertex lower[3] = { { 0, QH, wl, 0, 1 }, { QW, QH, wr, 1, 1 }, { QW, 0, wr, 1, 0 } };
    const screen_vertex upper[3] = { { 0, QH, wl, 0, 1 }, { QW, 0, wr, 1, 0 }, { 0, 0, wl, 0, 0 } };
    for (uint32_t y = 0; y < QH; y++)
        for (uint32_t x = 0; x < QW; x++) {
            double px = x + 0.5, py = y + 0.5, u, v;
            /* below the diagonal from (0, QH) to (QW, 0): the lower triangle */
            perspective_uv(px * QH + py * QW > (double)QW * QH ? lower : upper, px, py, &u, &v);
            double fu = 60 * (u * 4 - 0.5), fv = 60 * (v * 4 - 0.5);
            uint8_t *w = want + (y * QW + x) * 4;
            w[0] = unorm8((float)u);
            w[1] = unorm8((float)v);
            w[2] = (uint8_t)lrint(fu < 0 ? 0 : fu > 180 ? 180 : fu);
            w[3] = (uint8_t)lrint(fv < 0 ? 0 : fv > 180 ? 180 : fv);
        }
    CHECK_EQ_U(differing(got, want, QW, QH, 1, "perspective"), 0);
    ws_gfx_pipeline_destroy(dev, p);
    ws_gfx_target_destroy(dev, t);
    ws_gfx_texture_destroy(dev, tex);
    ws_free(dev, vb);
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s gfx_programs.elf\n", argv[0]); return 2; }
    if (ws_device_open(NULL, &dev) != WS_OK || ws_module_load_file(dev, argv[1], &mod) != WS_OK) {
        fprintf(stderr, "cannot open the device or load %s\n", argv[1]);
        return 1;
    }
    test_pattern();
    test_blended_quads();
    test_depth_indexed();
    test_texture_nearest();
    test_overlap_batch();
    test_perspective_linear();
    ws_device_close(dev);
    return TEST_SUMMARY();
}
