/* Checks that the OSMesa reference renderer draws what GL specifies, and
 * measures which pixels Mesa gives a triangle when a pixel centre lies
 * exactly on an edge (the tie rule our rasteriser must match).
 *
 * Coordinates in this file: "window" means GL window space, y UP, pixel
 * (x, y) has its centre at (x + 0.5, y + 0.5). Images from mesa_ref_render
 * have row 0 at the top, so window row y is image row h - 1 - y. */
#include "mesa_ref.h"
#include "../test.h"
#include "../../examples/cube/cube_scene.h"

#include <math.h>
#include <stdint.h>

#define W 64
#define H 64

/* Which on-edge pixel centres the independent rasteriser below counts as
 * inside. Named in GL window space (y up). */
typedef enum tie_rule {
    TIE_NONE,        /* strict: no on-edge pixel is inside                  */
    TIE_ALL,         /* every on-edge pixel is inside                       */
    TIE_TOP_LEFT,    /* left edges and horizontal edges with interior below */
    TIE_BOTTOM_LEFT, /* left edges and horizontal edges with interior above */
    TIE_COUNT
} tie_rule;
static const char *const tie_names[TIE_COUNT] = {"none", "all", "top-left (y up)", "bottom-left (y up)"};

/* The rule llvmpipe follows (Mesa 22.3): left edges and bottom edges (GL
 * y up) own their on-edge pixels, so a shared horizontal edge's pixels go
 * to the triangle ABOVE it, a vertical or diagonal edge's to the triangle
 * on its right. test_tie_rule prints the evidence; only horizontal edges
 * tell this apart from Direct3D's top-left rule. softpipe differs
 * (GALLIUM_DRIVER=softpipe fails these checks): it is not the reference. */
#define MESA_RULE TIE_BOTTOM_LEFT

typedef struct wtri { double x[3], y[3]; } wtri; /* a triangle in window space */

/* Exact edge-function coverage at the pixel centre (px, py). The inputs in
 * this file are multiples of 1/16 below 64, so every product
 * below is exact in double. */
static int covers(const wtri *t, double px, double py, tie_rule rule)
{
    double area = (t->x[1] - t->x[0]) * (t->y[2] - t->y[0]) - (t->x[2] - t->x[0]) * (t->y[1] - t->y[0]);
    if (area == 0)
        return 0;
    int order[3] = {0, 1, 2};
    if (area < 0) { /* walk it counter-clockwise so "inside" is left of every edge */
        order[1] = 2;
        order[2] = 1;
    }
    for (int i = 0; i < 3; i++) {
        double ax = t->x[order[i]], ay = t->y[order[i]];
        double bx = t->x[order[(i + 1) % 3]], by = t->y[order[(i + 1) % 3]];
        double dx = bx - ax, dy = by - ay;
        double e = dx * (py - ay) - dy * (px - ax);
        if (e > 0)
            continue;
        if (e < 0)
            return 0;
        /* On the edge. Counter-clockwise in y up: a left edge runs down
         * (dy < 0), a bottom edge runs right (dy == 0, dx > 0), a top edge
         * runs left. */
        int left = dy < 0, bottom = dy == 0 && dx > 0, top = dy == 0 && dx < 0;
        int in = rule == TIE_ALL || (rule == TIE_TOP_LEFT && (left || top)) ||
                 (rule == TIE_BOTTOM_LEFT && (left || bottom));
        if (!in)
            return 0;
    }
    return 1;
}

static ref_vertex vtx(double wx, double wy, float z, const float c[4])
{
    ref_vertex v = {{(float)(wx * 2.0 / W - 1.0), (float)(wy * 2.0 / H - 1.0), z, 1.0f},
                    {c[0], c[1], c[2], c[3]}};
    return v;
}

static ref_scene scene(uint32_t ntris, const ref_vertex *v)
{
    ref_scene s = {W, H, {0, 0, 0, 0}, 1.0f, 0, REF_BLEND_OPAQUE, REF_CULL_NONE, ntris, v};
    return s;
}

static uint8_t img[W * H * 4];
static const uint8_t *px(uint32_t x, uint32_t wy) { return img + ((size_t)(H - 1 - wy) * W + x) * 4; }

static int render(const ref_scene *s)
{
    char err[256];
    if (mesa_ref_render(s, img, err, sizeof err) != 0) {
        fprintf(stderr, "render failed: %s\n", err);
        return -1;
    }
    return 0;
}

static void test_full_screen_red(void)
{
    static const float red[4] = {1, 0, 0, 1};
    ref_vertex v[6] = {vtx(0, 0, 0, red), vtx(W, 0, 0, red), vtx(W, H, 0, red),
                       vtx(0, 0, 0, red), vtx(W, H, 0, red), vtx(0, H, 0, red)};
    ref_scene s = scene(2, v);
    CHECK(render(&s) == 0);
    int bad = 0;
    for (size_t i = 0; i < (size_t)W * H; i++)
        bad += img[4 * i] != 255 || img[4 * i + 1] || img[4 * i + 2] || img[4 * i + 3] != 255;
    printf("full screen red: %d of %d pixels not (255,0,0,255)\n", bad, W * H);
    CHECK_EQ_U(bad, 0);
}

/* Renders tris (white on transparent black, no blending) and counts, for
 * each tie rule, the pixels where Mesa and the exact edge test disagree. */
static void compare_coverage(const char *name, const wtri *t, int n, int diffs[TIE_COUNT], int *mesa_count)
{
    static const float white[4] = {1, 1, 1, 1};
    ref_vertex v[3 * 256];
    for (int i = 0; i < n; i++)
        for (int k = 0; k < 3; k++)
            v[3 * i + k] = vtx(t[i].x[k], t[i].y[k], 0, white);
    ref_scene s = scene((uint32_t)n, v);
    CHECK(render(&s) == 0);
    *mesa_count = 0;
    for (int r = 0; r < TIE_COUNT; r++)
        diffs[r] = 0;
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            int mesa = px(x, y)[0] != 0;
            *mesa_count += mesa;
            for (int r = 0; r < TIE_COUNT; r++) {
                int exp = 0;
                for (int i = 0; i < n && !exp; i++)
                    exp = covers(&t[i], x + 0.5, y + 0.5, (tie_rule)r);
                diffs[r] += exp != mesa;
            }
        }
    printf("%-34s mesa covers %4d px; differing px by rule:", name, *mesa_count);
    for (int r = 0; r < TIE_COUNT; r++)
        printf(" %s=%d", tie_names[r], diffs[r]);
    printf("\n");
}

/* The top-left half of the image (in the picture, row 0 at the top): the
 * hypotenuse runs through the centres of the diagonal pixels. */
static void test_top_left_half(void)
{
    wtri t = {{0, W, 0}, {H, H, 0}};
    int d[TIE_COUNT], n;
    compare_coverage("top-left half triangle", &t, 1, d, &n);
    int strict = W * (W - 1) / 2; /* pixels with y > x, before ties */
    printf("  strictly inside %d, on the hypotenuse %d, Mesa %d -> Mesa gives the diagonal %s\n", strict, W, n,
           n == strict ? "to the OTHER triangle" : n == strict + W ? "to THIS triangle" : "partly");
    CHECK_EQ_U(d[MESA_RULE], 0);
    /* The side: the covered pixels are in the picture's top-left corner. */
    CHECK(px(0, H - 1)[0] == 255 && px(W - 1, 0)[0] == 0);
}

/* The evidence for the tie rule: a horizontal and a vertical edge through a
 * row/column of pixel centres, each seen from both sides. */
static void test_tie_rule(void)
{
    const double m = W / 2 + 0.5; /* the centre line of column/row 32 */
    struct { const char *name; wtri t; } cases[] = {
        {"edge y=32.5, triangle above it", {{0, W, W / 2.0}, {m, m, H}}},
        {"edge y=32.5, triangle below it", {{0, W / 2.0, W}, {m, 0, m}}},
        {"edge x=32.5, triangle right of it", {{m, W, m}, {0, H / 2.0, H}}},
        {"edge x=32.5, triangle left of it", {{m, m, 0}, {0, H, H / 2.0}}},
    };
    int on_edge[4];
    for (int c = 0; c < 4; c++) {
        int d[TIE_COUNT], n;
        compare_coverage(cases[c].name, &cases[c].t, 1, d, &n);
        on_edge[c] = 0;
        for (int i = 0; i < W; i++) /* row or column 32 */
            on_edge[c] += (c < 2 ? px((uint32_t)i, W / 2) : px(W / 2, (uint32_t)i))[0] != 0;
        CHECK_EQ_U(d[MESA_RULE], 0);
    }
    printf("  on-edge pixels drawn: above %d, below %d, right %d, left %d\n", on_edge[0], on_edge[1], on_edge[2],
           on_edge[3]);
    printf("  => horizontal edge pixels go to the triangle %s the edge (y up), vertical ones to the triangle %s\n",
           on_edge[0] && !on_edge[1] ? "ABOVE" : !on_edge[0] && on_edge[1] ? "BELOW" : "(neither/both?)",
           on_edge[2] && !on_edge[3] ? "on the RIGHT" : !on_edge[2] && on_edge[3] ? "on the LEFT" : "(neither/both?)");
}

/* Many random triangles, one per 8x8 cell so none overlap. With a grid of
 * 1/2 pixel many edges pass exactly through pixel centres (ties); with 1/16
 * (still exact after llvmpipe's 1/256-pixel vertex snapping) few do, which
 * checks the interior test as well. */
static void test_random_triangles(const char *name, double step)
{
    wtri t[64];
    uint32_t seed = 12345;
    uint32_t steps = (uint32_t)(8.0 / step) + 1;
    for (int i = 0; i < 64; i++) {
        double cx = (i % 8) * 8.0, cy = (i / 8) * 8.0;
        for (int k = 0; k < 3; k++) {
            seed = seed * 1664525u + 1013904223u;
            t[i].x[k] = cx + (double)((seed >> 8) % steps) * step; /* 0..8 in the cell */
            seed = seed * 1664525u + 1013904223u;
            t[i].y[k] = cy + (double)((seed >> 8) % steps) * step;
        }
    }
    int d[TIE_COUNT], n;
    compare_coverage(name, t, 64, d, &n);
    CHECK_EQ_U(d[MESA_RULE], 0);
}

/* A fan around a pixel centre covering the whole image, drawn with additive
 * blending of 0.5 red: a pixel drawn twice would read ~255, a hole 0. */
static void test_shared_edges_additive(void)
{
    static const float half[4] = {0.5f, 0, 0, 1};
    const double c = W / 2 + 0.5;
    const double ring[8][2] = {{0, 0}, {c, 0}, {W, 0}, {W, c}, {W, H}, {c, H}, {0, H}, {0, c}};
    ref_vertex v[3 * 8];
    for (int i = 0; i < 8; i++) {
        v[3 * i] = vtx(c, c, 0, half);
        v[3 * i + 1] = vtx(ring[i][0], ring[i][1], 0, half);
        v[3 * i + 2] = vtx(ring[(i + 1) % 8][0], ring[(i + 1) % 8][1], 0, half);
    }
    /* then the full-screen quad split along its diagonal, in a second image */
    ref_scene s = scene(8, v);
    s.blend = REF_BLEND_ADD;
    CHECK(render(&s) == 0);
    int once = 0, twice = 0, holes = 0, other = 0;
    uint8_t single = img[0];
    for (size_t i = 0; i < (size_t)W * H; i++) {
        uint8_t r = img[4 * i];
        if (r == 0)
            holes++;
        else if (r >= 250)
            twice++;
        else if (r == single)
            once++;
        else
            other++;
    }
    printf("additive fan (8 tris, shared edges through centres): single value %u: %d px, doubled %d, holes %d, other %d\n",
           single, once, twice, holes, other);
    CHECK(single == 127 || single == 128);
    CHECK_EQ_U(once, W * H);

    ref_vertex q[6] = {vtx(0, 0, 0, half), vtx(W, 0, 0, half), vtx(W, H, 0, half),
                       vtx(0, 0, 0, half), vtx(W, H, 0, half), vtx(0, H, 0, half)};
    s = scene(2, q);
    s.blend = REF_BLEND_ADD;
    CHECK(render(&s) == 0);
    once = 0;
    for (size_t i = 0; i < (size_t)W * H; i++)
        once += img[4 * i] == single;
    printf("additive diagonal split: %d of %d px drawn exactly once\n", once, W * H);
    CHECK_EQ_U(once, W * H);
}

/* Two overlapping triangles at different depths, in both orders: the near
 * (green, z=-0.5) one must win where they overlap. */
static void test_depth_order(void)
{
    static const float red[4] = {1, 0, 0, 1}, green[4] = {0, 1, 0, 1};
    ref_vertex far_t[3] = {vtx(0, 0, 0.5f, red), vtx(48, 0, 0.5f, red), vtx(0, 48, 0.5f, red)};
    ref_vertex near_t[3] = {vtx(16, 16, -0.5f, green), vtx(64, 16, -0.5f, green), vtx(16, 64, -0.5f, green)};
    for (int order = 0; order < 2; order++) {
        ref_vertex v[6];
        for (int k = 0; k < 3; k++) {
            v[k] = order ? near_t[k] : far_t[k];
            v[3 + k] = order ? far_t[k] : near_t[k];
        }
        ref_scene s = scene(2, v);
        s.depth_test = 1;
        CHECK(render(&s) == 0);
        const uint8_t *overlap = px(20, 20), *far_only = px(4, 4), *near_only = px(24, 40);
        printf("depth, %s first: overlap (%u,%u,%u) far-only (%u,%u,%u) near-only (%u,%u,%u)\n",
               order ? "near" : "far", overlap[0], overlap[1], overlap[2], far_only[0], far_only[1], far_only[2],
               near_only[0], near_only[1], near_only[2]);
        CHECK(overlap[0] == 0 && overlap[1] == 255);
        CHECK(far_only[0] == 255 && far_only[1] == 0);
        CHECK(near_only[0] == 0 && near_only[1] == 255);
    }
}

/* (1,0,0,0.5) over a clear of (0,0,1,1) with SRC_ALPHA, ONE_MINUS_SRC_ALPHA
 * on all four channels: (0.5, 0, 0.5, 0.75). */
static void test_alpha_blend(void)
{
    static const float c[4] = {1, 0, 0, 0.5f};
    ref_vertex v[6] = {vtx(0, 0, 0, c), vtx(W, 0, 0, c), vtx(W, H, 0, c),
                       vtx(0, 0, 0, c), vtx(W, H, 0, c), vtx(0, H, 0, c)};
    ref_scene s = scene(2, v);
    s.clear[2] = 1;
    s.clear[3] = 1;
    s.blend = REF_BLEND_ALPHA;
    CHECK(render(&s) == 0);
    const double want[4] = {127.5, 0, 127.5, 191.25};
    int bad = 0;
    for (size_t i = 0; i < (size_t)W * H; i++)
        for (int k = 0; k < 4; k++)
            bad += fabs(img[4 * i + k] - want[k]) > 1.0;
    printf("alpha blend: got (%u,%u,%u,%u), want (127.5,0,127.5,191.25) +-1; %d channel values off\n", img[0], img[1],
           img[2], img[3], bad);
    CHECK_EQ_U(bad, 0);
}

/* Culling: a clockwise triangle is a back face. */
static void test_cull(void)
{
    static const float w[4] = {1, 1, 1, 1};
    ref_vertex ccw[3] = {vtx(0, 0, 0, w), vtx(W, 0, 0, w), vtx(0, H, 0, w)};
    ref_vertex cw[3] = {vtx(0, 0, 0, w), vtx(0, H, 0, w), vtx(W, 0, 0, w)};
    int drawn[2][3];
    for (int face = 0; face < 2; face++)
        for (int cull = 0; cull < 3; cull++) {
            ref_scene s = scene(1, face ? cw : ccw);
            s.cull = cull;
            CHECK(render(&s) == 0);
            drawn[face][cull] = px(2, 2)[0] == 255;
        }
    printf("cull none/back/front: CCW drawn %d/%d/%d, CW drawn %d/%d/%d\n", drawn[0][0], drawn[0][1], drawn[0][2],
           drawn[1][0], drawn[1][1], drawn[1][2]);
    CHECK(drawn[0][0] && drawn[0][1] && !drawn[0][2]);
    CHECK(drawn[1][0] && !drawn[1][1] && drawn[1][2]);
}

/* cube_scene.h: every triangle's winding agrees with its face normal and
 * the normal points outward; and Mesa draws frame 0's front faces over the
 * same pixels as its back faces (a closed convex solid). */
static void test_cube_scene(void)
{
    int bad = 0;
    for (int t = 0; t < CUBE_NINDICES / 3; t++) {
        const cube_vertex *a = &cube_vertices[cube_indices[3 * t]], *b = &cube_vertices[cube_indices[3 * t + 1]],
                          *c = &cube_vertices[cube_indices[3 * t + 2]];
        float e1[3], e2[3], n[3];
        for (int k = 0; k < 3; k++)
            e1[k] = b->pos[k] - a->pos[k], e2[k] = c->pos[k] - a->pos[k];
        cube_vec_cross(n, e1, e2);
        float along = n[0] * a->normal[0] + n[1] * a->normal[1] + n[2] * a->normal[2];
        float out = a->pos[0] * a->normal[0] + a->pos[1] * a->normal[1] + a->pos[2] * a->normal[2];
        bad += !(along > 0 && out > 0);
    }
    printf("cube: %d of %d triangles wound against their outward normal\n", bad, CUBE_NINDICES / 3);
    CHECK_EQ_U(bad, 0);

    float model[16], mvp[16];
    cube_frame_matrices(0, W, H, model, mvp);
    ref_vertex v[CUBE_NINDICES];
    for (int i = 0; i < CUBE_NINDICES; i++) {
        const cube_vertex *cv = &cube_vertices[cube_indices[i]];
        for (int r = 0; r < 4; r++)
            v[i].pos[r] = mvp[r] * cv->pos[0] + mvp[4 + r] * cv->pos[1] + mvp[8 + r] * cv->pos[2] + mvp[12 + r];
        for (int k = 0; k < 3; k++)
            v[i].color[k] = cv->normal[k] * 0.5f + 0.5f;
        v[i].color[3] = 1;
    }
    int count[3] = {0, 0, 0};
    for (int cull = REF_CULL_BACK; cull <= REF_CULL_FRONT; cull++) {
        ref_scene s = scene(CUBE_NINDICES / 3, v);
        s.cull = cull;
        CHECK(render(&s) == 0);
        for (size_t i = 0; i < (size_t)W * H; i++)
            count[cull] += img[4 * i + 3] != 0;
    }
    printf("cube frame 0 at %dx%d: front faces cover %d px, back faces %d px\n", W, H, count[1], count[2]);
    CHECK(count[1] > W * H / 20);
    CHECK_EQ_U(count[1], count[2]);
}

int main(void)
{
    int chose_driver = getenv("GALLIUM_DRIVER") != NULL;
    char r[256];
    CHECK(mesa_ref_renderer(r, sizeof r) == 0);
    printf("renderer: %s\n", r);
    if (!chose_driver)
        CHECK_STR_CONTAINS(r, "llvmpipe");

    char err[128];
    ref_scene bad = scene(0, NULL);
    bad.width = 0;
    CHECK(mesa_ref_render(&bad, img, err, sizeof err) == -1 && err[0]);

    test_full_screen_red();
    test_top_left_half();
    test_tie_rule();
    test_random_triangles("64 random tris, 1/2-px grid", 0.5);
    test_random_triangles("64 random tris, 1/16-px grid", 1.0 / 16);
    test_shared_edges_additive();
    test_depth_order();
    test_alpha_blend();
    test_cull();
    test_cube_scene();
    return TEST_SUMMARY();
}
