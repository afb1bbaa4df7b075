/* The pixel-history probe (src/gfx/gfx_probe.c) against the images the
 * pipeline produces: the test frame (pixel_scene.c) is drawn call by call;
 * after each clear or draw the probe's records for the pixel must chain
 * (each one's "before" is the previous one's "after"), the last "after"
 * must equal the target's colour and depth there, the blended values must
 * follow the documented rules from the recorded shader output, and at the
 * pixel the frame was built for, the events must be the intended ones. An
 * armed probe must not change a single byte or count.
 * usage: test_pixel_probe gfx_shaders.elf */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../test.h"
#include "gfx/gfx_int.h"
#include "pixel_scene.h"

#define NPX (SCENE_W * SCENE_H)

/* The target after each call, and the draw statistics. */
typedef struct snap {
    uint8_t rgba[NPX * 4];
    float depth[NPX];
    ws_gfx_draw_stats stats;
} snap;

static int is_work(size_t i)
{
    struct ws_replay_call_info ci;
    scene_call_info(i, &ci);
    return ci.kind == WS_REPLAY_CALL_DRAW || ci.kind == WS_REPLAY_CALL_CLEAR;
}

/* The raster-output stage's rule, from the recorded shader output and the
 * recorded destination (the same float arithmetic, so exactly equal). */
static void blend(ws_gfx_blend mode, const float *c, const uint8_t *dst, uint8_t out[4])
{
    float s[4];
    for (int k = 0; k < 4; k++) s[k] = c[k] > 0 ? (c[k] < 1 ? c[k] : 1) : 0; /* the unorm target clamps the source */
    for (int k = 0; k < 4; k++) {
        float v;
        if (mode == WS_GFX_BLEND_ALPHA) {
            v = s[k] * s[3] + (float)dst[k] / 255.0f * (1.0f - s[3]);
        } else if (mode == WS_GFX_BLEND_ADDITIVE) {
            v = s[k] + (float)dst[k] / 255.0f;
        } else {
            v = s[k];
        }
        out[k] = gfx_unorm8(v);
    }
}

static int near4(const float *a, float r, float g, float b, float al)
{
    return fabsf(a[0] - r) < 1e-5f && fabsf(a[1] - g) < 1e-5f && fabsf(a[2] - b) < 1e-5f && fabsf(a[3] - al) < 1e-5f;
}

/* Run the frame; with the probe armed at (x, y) when x >= 0. out: one snap per call. */
static int run(scene *s, int x, int y, snap *out, size_t *nrec_total)
{
    size_t n = scene_call_count(), taken = 0;
    uint64_t command = 0;
    uint8_t cur[4] = { 0, 0, 0, 0 }; /* the restored target: colour 0, depth 1 */
    float curz = 1.0f;
    ws_gfx_blend mode = WS_GFX_BLEND_OPAQUE;
    if (scene_restore(s) != WS_OK) return -1;
    if (x >= 0) CHECK(ws_gfx_probe_arm(s->dev, (uint32_t)x, (uint32_t)y) == WS_OK);
    for (size_t i = 0; i < n; i++) {
        struct ws_replay_call_info ci;
        scene_call_info(i, &ci);
        if (scene_call(s, i) != WS_OK || ws_synchronize(s->dev) != WS_OK) {
            fprintf(stderr, "call %zu: %s\n", i, ws_last_error(s->dev));
            return -1;
        }
        CHECK(ws_gfx_target_read(s->dev, s->target, out[i].rgba, sizeof out[i].rgba) == WS_OK);
        CHECK(ws_gfx_target_read_depth(s->dev, s->target, out[i].depth, NPX) == WS_OK);
        memset(&out[i].stats, 0, sizeof out[i].stats);
        if (ci.kind == WS_REPLAY_CALL_DRAW) {
            CHECK(ws_gfx_last_draw_stats(s->dev, &out[i].stats) == WS_OK);
            /* times vary; ids count draws and launches since the device opened */
            out[i].stats.fixed_function_seconds = out[i].stats.vertex_seconds = out[i].stats.fragment_seconds = 0;
            out[i].stats.draw_id = out[i].stats.vertex_launch_id = out[i].stats.fragment_launch_id = 0;
        }
        if (!strcmp(ci.name, "ws_gfx_set_pipeline")) {
            static const ws_gfx_blend modes[] = { WS_GFX_BLEND_OPAQUE, WS_GFX_BLEND_ALPHA, WS_GFX_BLEND_OPAQUE,
                                                  WS_GFX_BLEND_OPAQUE, WS_GFX_BLEND_ADDITIVE };
            mode = modes[atoi(strchr(ci.text, '=') + 1) - 1];
        }
        if (x < 0) continue;
        const ws_gfx_probe_rec *rec;
        size_t nrec;
        CHECK(ws_gfx_probe_records(s->dev, &rec, &nrec) == WS_OK);
        if (!is_work(i)) { CHECK_EQ_U(nrec, taken); continue; } /* copies and state: nothing */
        for (size_t k = taken; k < nrec; k++) {
            const ws_gfx_probe_rec *r = &rec[k];
            CHECK_EQ_U(r->command, command);
            CHECK(!memcmp(r->before, cur, 4));
            CHECK(r->depth_before == curz);
            if (r->event == WS_GFX_PROBE_WRITTEN) {
                uint8_t want[4];
                blend(mode, r->color, r->before, want);
                CHECK(!memcmp(r->after, want, 4));
                CHECK(r->shaded);
            } else if (r->event != WS_GFX_PROBE_CLEAR) {
                CHECK(!memcmp(r->after, r->before, 4)); /* nothing written */
                CHECK(r->depth_after == r->depth_before);
            }
            memcpy(cur, r->after, 4);
            curz = r->depth_after;
        }
        /* the history equals what the image shows after the call */
        const uint8_t *p = out[i].rgba + ((size_t)y * SCENE_W + (size_t)x) * 4;
        if (memcmp(cur, p, 4) || curz != out[i].depth[y * SCENE_W + x])
            fprintf(stderr, "pixel (%d,%d) after call %zu: history %u %u %u %u z=%g, image %u %u %u %u z=%g\n", x, y,
                    i, cur[0], cur[1], cur[2], cur[3], curz, p[0], p[1], p[2], p[3], out[i].depth[y * SCENE_W + x]);
        CHECK(!memcmp(cur, p, 4));
        CHECK(curz == out[i].depth[y * SCENE_W + x]);
        taken = nrec;
        command++;
    }
    *nrec_total = taken;
    return 0;
}

/* At the scene's pixel the frame was built to produce these events. */
static void check_scene_pixel(scene *s)
{
    const ws_gfx_probe_rec *r;
    size_t n;
    CHECK(ws_gfx_probe_records(s->dev, &r, &n) == WS_OK);
    CHECK_EQ_U(n, 8);
    if (n != 8) return;
    CHECK(r[0].event == WS_GFX_PROBE_CLEAR && r[0].after[0] == 26 && r[0].after[1] == 51 && r[0].after[2] == 77);
    CHECK(r[0].depth_after == 1.0f);
    CHECK(r[1].event == WS_GFX_PROBE_WRITTEN && near4(r[1].color, 1, 0, 0, 1) && r[1].depth_test && r[1].prim == 0);
    CHECK(r[1].depth == 0.5f && r[1].depth_after == 0.5f && r[1].after[0] == 255 && r[1].after[1] == 0);
    CHECK(r[2].event == WS_GFX_PROBE_EARLY_Z_FAILED && !r[2].shaded && fabsf(r[2].depth - 0.8f) < 1e-6f);
    CHECK(r[3].event == WS_GFX_PROBE_WRITTEN && near4(r[3].color, 0, 0.2f, 1, 0.5f));
    CHECK(r[3].depth_after == 0.5f); /* depth write off */
    CHECK(r[4].event == WS_GFX_PROBE_DISCARDED && r[4].shaded);
    CHECK(r[5].event == WS_GFX_PROBE_DEPTH_FAILED && r[5].shaded && r[5].depth_compare == WS_GFX_EQUAL);
    CHECK(r[6].event == WS_GFX_PROBE_WRITTEN && r[6].prim == 0 && !r[6].depth_test && r[6].command == 6);
    CHECK(r[7].event == WS_GFX_PROBE_WRITTEN && r[7].prim == 1 && r[7].command == 6);
    CHECK(near4(r[7].color, 0, 0.1f, 0.2f, 0));
    for (size_t k = 0; k < n; k++) CHECK(r[k].command != 7); /* the corner draw misses the pixel */
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: test_pixel_probe gfx_shaders.elf\n"); return 2; }
    scene s;
    char err[256];
    if (scene_open(&s, argv[1], err, sizeof err)) { fprintf(stderr, "%s\n", err); return 1; }
    size_t n = scene_call_count(), nrec = 0;
    snap *plain = calloc(n, sizeof *plain), *probed = calloc(n, sizeof *probed);
    if (!plain || !probed) return 1;
    CHECK(run(&s, -1, -1, plain, &nrec) == 0);
    const int pixels[][2] = { { SCENE_PX, SCENE_PY }, { 0, 0 }, { 1, 1 }, { 31, 31 }, { 5, 30 } };
    for (size_t p = 0; p < sizeof pixels / sizeof pixels[0]; p++) {
        CHECK(run(&s, pixels[p][0], pixels[p][1], probed, &nrec) == 0);
        if (p == 0) check_scene_pixel(&s);
        if (p == 1) CHECK(nrec >= 5); /* the corner: clear, red, blue, two additive, the corner draw */
        for (size_t i = 0; i < n; i++) { /* not one byte or count changed */
            CHECK(!memcmp(plain[i].rgba, probed[i].rgba, sizeof plain[i].rgba));
            CHECK(!memcmp(plain[i].depth, probed[i].depth, sizeof plain[i].depth));
            CHECK(!memcmp(&plain[i].stats, &probed[i].stats, sizeof plain[i].stats));
        }
        CHECK(ws_gfx_probe_disarm(s.dev) == WS_OK);
    }
    /* misuse is an error with a message, not a crash */
    const ws_gfx_probe_rec *r;
    CHECK(ws_gfx_probe_records(s.dev, &r, &nrec) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(s.dev), "not armed");
    CHECK(ws_gfx_probe_arm(s.dev, 9000, 0) == WS_ERR_INVALID_ARG);
    free(plain);
    free(probed);
    scene_close(&s);
    return TEST_SUMMARY();
}
