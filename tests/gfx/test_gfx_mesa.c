/* Warpscope's rasteriser against Mesa's llvmpipe (written elsewhere): the
 * same clip-space triangles with interpolated colours through both. Pixel
 * coverage must be identical, edge cases included (shared edges and
 * vertices, slivers, degenerate triangles, the near plane, screen edges,
 * huge triangles, culling, blending order, depth); colours may differ by at
 * most 1/255 per channel.
 * usage: test_gfx_mesa gfx_shaders.elf */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../test.h"
#include "mesa_ref.h"
#include "ws_scene.h"

#define W 64
#define H 64
#define MAXV 3000

static ref_vertex V[MAXV];
static uint32_t nv;
static uint32_t rng = 12345;

static float rnd(void) /* [0, 1), deterministic */
{
    rng = rng * 1664525u + 1013904223u;
    return (float)(rng >> 8) / 16777216.0f;
}

static void vert(float x, float y, float z, float w, float r, float g, float b, float a)
{
    if (nv < MAXV) V[nv++] = (ref_vertex){ { x, y, z, w }, { r, g, b, a } };
}

/* Window pixel coordinates (y down, row 0 at top) to clip space at w = 1. */
static void pix(float px, float py, float z, float r, float g, float b, float a)
{
    vert(px / W * 2 - 1, 1 - py / H * 2, z, 1, r, g, b, a);
}

static ref_scene scene(int depth, int blend, int cull)
{
    ref_scene s = { .width = W, .height = H, .clear = { 0.0f, 0.0f, 0.2f, 1.0f }, .clear_depth = 1.0f,
                    .depth_test = depth, .blend = blend, .cull = cull, .ntris = nv / 3, .verts = V };
    return s;
}

static int compare(ws_scene_ctx *c, const char *name, const ref_scene *s)
{
    static uint8_t a[W * H * 4], b[W * H * 4];
    char err[256];
    if (ws_scene_render(c, s, a) || mesa_ref_render(s, b, err, sizeof err)) {
        printf("FAIL %s: could not render (%s)\n", name, err);
        CHECK(0);
        return -1;
    }
    uint8_t clear[4] = { 0, 0, 51, 255 };
    int cov_diff = 0, col_diff = 0, maxd = 0, covered = 0;
    for (int i = 0; i < W * H; i++) {
        int ca = memcmp(a + 4 * i, clear, 4) != 0, cb = memcmp(b + 4 * i, clear, 4) != 0;
        covered += cb;
        if (ca != cb) {
            if (cov_diff++ < 4)
                printf("  %s: pixel (%d,%d) warpscope %d,%d,%d,%d mesa %d,%d,%d,%d\n", name, i % W, i / W, a[4 * i],
                       a[4 * i + 1], a[4 * i + 2], a[4 * i + 3], b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]);
            continue;
        }
        for (int k = 0; k < 4; k++) {
            int d = abs((int)a[4 * i + k] - (int)b[4 * i + k]);
            if (d > maxd) maxd = d;
            if (d > 1 && col_diff++ < 4)
                printf("  %s: pixel (%d,%d) channel %d: warpscope %d mesa %d\n", name, i % W, i / W, k, a[4 * i + k],
                       b[4 * i + k]);
        }
    }
    printf("%-28s %5d px covered (mesa), %d coverage differences, %d colour channels off by > 1, max %d\n", name,
           covered, cov_diff, col_diff, maxd);
    CHECK(cov_diff == 0);
    CHECK(col_diff == 0);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s gfx_shaders.elf\n", argv[0]); return 2; }
    char renderer[128] = "";
    mesa_ref_renderer(renderer, sizeof renderer);
    printf("reference: %s\n", renderer);
    ws_scene_ctx c;
    if (ws_scene_open(&c, argv[1], "")) return 1;
    ref_scene s;

    /* A fan of 12 triangles around a pixel centre, added at 0.5: a pixel
     * drawn twice would read 1.0. */
    nv = 0;
    for (int i = 0; i < 12; i++) {
        float a0 = (float)i * 6.2831853f / 12, a1 = (float)(i + 1) * 6.2831853f / 12;
        pix(32.5f, 32.5f, 0, 0.5f, 0, 0, 1);
        pix(32.5f + 30 * cosf(a0), 32.5f + 30 * sinf(a0), 0, 0.5f, 0, 0, 1);
        pix(32.5f + 30 * cosf(a1), 32.5f + 30 * sinf(a1), 0, 0.5f, 0, 0, 1);
    }
    s = scene(0, REF_BLEND_ADD, REF_CULL_NONE);
    compare(&c, "fan, additive", &s);

    /* A grid of quads split both ways, corners on pixel centres: every
     * edge runs through pixel centres (horizontal, vertical, diagonal). */
    nv = 0;
    for (int gy = 0; gy < 8; gy++)
        for (int gx = 0; gx < 8; gx++) {
            float x0 = 0.5f + gx * 8, y0 = 0.5f + gy * 8, x1 = x0 + 8, y1 = y0 + 8, r = rnd(), g = rnd();
            if ((gx + gy) & 1) {
                pix(x0, y0, 0, r, g, 0, 1); pix(x0, y1, 0, r, g, 0, 1); pix(x1, y1, 0, r, g, 0, 1);
                pix(x0, y0, 0, g, r, 1, 1); pix(x1, y1, 0, g, r, 1, 1); pix(x1, y0, 0, g, r, 1, 1);
            } else {
                pix(x0, y0, 0, r, g, 0, 1); pix(x0, y1, 0, r, g, 0, 1); pix(x1, y0, 0, r, g, 0, 1);
                pix(x1, y0, 0, g, r, 1, 1); pix(x0, y1, 0, g, r, 1, 1); pix(x1, y1, 0, g, r, 1, 1);
            }
        }
    s = scene(0, REF_BLEND_ADD, REF_CULL_NONE);
    compare(&c, "grid on pixel centres", &s);

    /* Random triangles, vertices on a 1/16-pixel grid, distinct depths;
     * on screen: Mesa clips triangles at the screen's sides, and its new
     * vertices move an edge by a rounding error (our guard band does not
     * clip there), so off-screen vertices are the huge-triangle scene's. */
    nv = 0;
    for (int i = 0; i < 64; i++) {
        float z = -0.9f + 0.025f * i;
        for (int k = 0; k < 3; k++)
            pix(floorf(rnd() * 64 * 16) / 16, floorf(rnd() * 64 * 16) / 16, z, rnd(), rnd(), rnd(), 1);
    }
    s = scene(1, REF_BLEND_OPAQUE, REF_CULL_NONE);
    compare(&c, "random, depth tested", &s);

    /* Random triangles on a half-pixel grid (many exact edge hits). */
    nv = 0;
    for (int i = 0; i < 64; i++)
        for (int k = 0; k < 3; k++)
            pix(floorf(rnd() * 128) / 2, floorf(rnd() * 128) / 2, 0, rnd() * 0.5f, rnd() * 0.5f, 0, 1);
    s = scene(0, REF_BLEND_ADD, REF_CULL_NONE);
    compare(&c, "random, half-pixel grid", &s);

    /* Slivers and degenerate triangles. */
    nv = 0;
    for (int i = 0; i < 16; i++) {
        float y = 2.5f + i * 3.7f;
        pix(1, y, 0, 1, 1, 1, 1); pix(63, y + 0.3f + i * 0.05f, 0, 1, 1, 1, 1); pix(62, y + 0.6f, 0, 1, 1, 1, 1);
    }
    pix(10, 10, 0, 1, 0, 0, 1); pix(20, 20, 0, 1, 0, 0, 1); pix(30, 30, 0, 1, 0, 0, 1); /* collinear */
    pix(40, 40, 0, 1, 0, 0, 1); pix(40, 40, 0, 1, 0, 0, 1); pix(50, 45, 0, 1, 0, 0, 1); /* two equal vertices */
    s = scene(0, REF_BLEND_OPAQUE, REF_CULL_NONE);
    compare(&c, "slivers and degenerates", &s);

    /* Triangles crossing the near plane, the far plane and the screen
     * edges, and a huge one (clipped against the guard band). */
    nv = 0;
    vert(-0.5f, -0.5f, -2.0f, 1.0f, 1, 0, 0, 1);  /* behind the near plane */
    vert(0.5f, -0.5f, 0.5f, 1.0f, 0, 1, 0, 1);
    vert(0.0f, 0.7f, 0.5f, 1.0f, 0, 0, 1, 1);
    vert(-0.9f, 0.9f, 0.0f, 0.5f, 1, 1, 0, 1);    /* w < 1: perspective */
    vert(-0.2f, -0.3f, 0.0f, 2.0f, 0, 1, 1, 1);
    vert(0.9f, 0.8f, 1.5f, 1.0f, 1, 0, 1, 1);     /* beyond the far plane */
    vert(-300.0f, -300.0f, 0.0f, 1.0f, 0.3f, 0.3f, 0.3f, 1); /* huge */
    vert(300.0f, -300.0f, 0.0f, 1.0f, 0.3f, 0.6f, 0.3f, 1);
    vert(0.0f, -0.6f, 0.0f, 1.0f, 0.3f, 0.3f, 0.6f, 1);
    vert(0.8f, 0.2f, 0.2f, -0.5f, 1, 1, 1, 1);     /* one vertex behind the eye */
    vert(0.9f, 0.9f, 0.2f, 1.0f, 1, 1, 1, 1);
    vert(0.3f, 0.9f, 0.2f, 1.0f, 1, 1, 1, 1);
    s = scene(0, REF_BLEND_ADD, REF_CULL_NONE);
    compare(&c, "near/far planes, huge", &s);

    /* Culling: the same mixed-winding triangles, back and front culled. */
    nv = 0;
    for (int i = 0; i < 24; i++)
        for (int k = 0; k < 3; k++) pix(rnd() * 64, rnd() * 64, 0, 0.2f, 0.2f, rnd() * 0.2f, 1);
    s = scene(0, REF_BLEND_ADD, REF_CULL_BACK);
    compare(&c, "cull back", &s);
    s = scene(0, REF_BLEND_ADD, REF_CULL_FRONT);
    compare(&c, "cull front", &s);

    /* Blending order: overlapping translucent triangles, in two orders. */
    nv = 0;
    for (int i = 0; i < 6; i++) {
        float r = (i % 3 == 0), g = (i % 3 == 1), b = (i % 3 == 2), x = 8 + i * 6.0f;
        /* inside the screen: where Mesa clips at the screen edge its new
         * vertices move edges by a rounding error */
        pix(x, 4, 0, r, g, b, 0.4f); pix(x + 20, 30, 0, r, g, b, 0.4f); pix(x - 4, 60, 0, r, g, b, 0.4f);
    }
    s = scene(0, REF_BLEND_ALPHA, REF_CULL_NONE);
    compare(&c, "alpha blend, order A", &s);
    for (uint32_t i = 0; i < nv / 2; i += 3) /* reverse the triangle order */
        for (int k = 0; k < 3; k++) { ref_vertex t = V[i + k]; V[i + k] = V[nv - 3 - i + k]; V[nv - 3 - i + k] = t; }
    s = scene(0, REF_BLEND_ALPHA, REF_CULL_NONE);
    compare(&c, "alpha blend, order B", &s);

    /* Depth ties: the same triangle twice at the same depth; LESS keeps
     * the first colour. */
    nv = 0;
    pix(4, 4, 0.25f, 1, 0, 0, 1); pix(60, 10, 0.25f, 1, 0, 0, 1); pix(20, 60, 0.25f, 1, 0, 0, 1);
    pix(4, 4, 0.25f, 0, 1, 0, 1); pix(60, 10, 0.25f, 0, 1, 0, 1); pix(20, 60, 0.25f, 0, 1, 0, 1);
    s = scene(1, REF_BLEND_OPAQUE, REF_CULL_NONE);
    compare(&c, "depth ties", &s);

    ws_scene_close(&c);
    return TEST_SUMMARY();
}
