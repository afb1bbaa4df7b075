/* blend: translucency over opaque geometry, 256x256. An opaque ground and
 * two opaque blocks (depth test and write), then three translucent quads
 * (WS_GFX_BLEND_ALPHA, depth test on, depth write off) back to front and
 * one additive quad on top. Writes blend.png.
 *
 * Checks: at sample pixels every 4 pixels (all unambiguous, as the quads'
 * edges lie on pixel boundaries) the colour equals a host computation of
 * the documented rules within 1/255: 8-bit destination read as v/255,
 * alpha: dst = src*a + dst*(1-a), additive: dst = min(src + dst, 1),
 * written back as round(clamp(v)*255). Then the translucent quads are drawn
 * in the reverse order: the host expectation must hold again, samples
 * under two or more translucent quads must change and the others must
 * not. Finally the first order drawn again must give the same bytes. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "../common/example.h"
#include "warpscope/graphics.h"

enum { W = 256, H = 256, NQUADS = 7, STEP = 4 };

typedef struct quad {
    int x0, y0, x1, y1;       /* pixels [x0, x1) x [y0, y1), row 0 at the top */
    float z;                  /* clip-space (NDC) depth                       */
    float rgba[4];
    ws_gfx_blend mode;
} quad;

static const quad quads[NQUADS] = {
    {0, 0, 256, 256, 0.8f, {0.25f, 0.30f, 0.35f, 1.0f}, WS_GFX_BLEND_OPAQUE},   /* ground       */
    {40, 40, 120, 120, 0.0f, {1.0f, 0.15f, 0.1f, 1.0f}, WS_GFX_BLEND_OPAQUE},    /* red block    */
    {150, 150, 230, 230, 0.2f, {0.1f, 0.6f, 0.2f, 1.0f}, WS_GFX_BLEND_OPAQUE},   /* green block  */
    {20, 90, 180, 170, 0.5f, {0.1f, 0.2f, 0.9f, 0.5f}, WS_GFX_BLEND_ALPHA},      /* blue, behind red */
    {90, 60, 220, 140, -0.1f, {0.9f, 0.8f, 0.1f, 0.4f}, WS_GFX_BLEND_ALPHA},     /* yellow       */
    {60, 120, 160, 240, -0.3f, {0.8f, 0.1f, 0.7f, 0.6f}, WS_GFX_BLEND_ALPHA},    /* magenta      */
    {120, 20, 250, 200, -0.5f, {0.35f, 0.15f, 0.05f, 0.25f}, WS_GFX_BLEND_ADDITIVE},
};
/* Back to front, and the translucent quads reversed. */
static const int order_a[NQUADS] = {0, 1, 2, 3, 4, 5, 6};
static const int order_b[NQUADS] = {0, 1, 2, 5, 4, 3, 6};

typedef struct { float pos[3]; float color[4]; } vertex; /* VIn in blend_kernel.c */

static int inside(const quad *q, int x, int y) { return x >= q->x0 && x < q->x1 && y >= q->y0 && y < q->y1; }

static uint8_t unorm8(double v) { return (uint8_t)lround((v < 0 ? 0 : v > 1 ? 1 : v) * 255.0); }

/* The expected colour of pixel (x, y): the draws replayed on the host. */
static void expect_pixel(const int *order, int x, int y, uint8_t out[4])
{
    uint8_t dst[4] = {0, 0, 0, 255}; /* the clear colour */
    double depth = 1.0;
    for (int i = 0; i < NQUADS; i++) {
        const quad *q = &quads[order[i]];
        double z = (q->z + 1.0) * 0.5; /* window depth, range 0..1 */
        if (!inside(q, x, y) || !(z < depth)) continue;
        if (q->mode == WS_GFX_BLEND_OPAQUE) depth = z;
        for (int k = 0; k < 4; k++) {
            double s = q->rgba[k], d = dst[k] / 255.0, a = q->rgba[3];
            dst[k] = unorm8(q->mode == WS_GFX_BLEND_ALPHA ? s * a + d * (1 - a)
                            : q->mode == WS_GFX_BLEND_ADDITIVE ? fmin(s + d, 1.0) : s);
        }
    }
    memcpy(out, dst, 4);
}

typedef struct scene {
    ws_device *dev;
    ws_gfx_pipeline *pipe[3]; /* indexed by ws_gfx_blend */
    ws_gfx_target *target;
    ws_addr vb;
} scene;

static int scene_init(scene *s, example *ex)
{
    vertex v[NQUADS * 6];
    for (int i = 0; i < NQUADS; i++) {
        const quad *q = &quads[i];
        float x0 = q->x0 / 128.0f - 1, x1 = q->x1 / 128.0f - 1, y0 = 1 - q->y0 / 128.0f, y1 = 1 - q->y1 / 128.0f;
        const float corners[6][2] = {{x0, y1}, {x1, y1}, {x1, y0}, {x0, y1}, {x1, y0}, {x0, y0}};
        for (int c = 0; c < 6; c++) {
            vertex *p = &v[i * 6 + c];
            *p = (vertex){{corners[c][0], corners[c][1], q->z}, {0}};
            memcpy(p->color, q->rgba, sizeof p->color);
        }
    }
    ws_kernel *vs = example_kernel(ex, "blend_vs"), *fs = example_kernel(ex, "blend_fs");
    if (!vs || !fs) return -1;
    memset(s, 0, sizeof *s);
    s->dev = ex->dev;
    for (int m = 0; m < 3; m++) {
        ws_gfx_pipeline_desc d = {.vertex_shader = vs, .fragment_shader = fs, .nattributes = 2, .nbindings = 1,
                                  .cull = WS_GFX_CULL_NONE, .depth_test = 1, .depth_compare = WS_GFX_LESS,
                                  .depth_write = m == WS_GFX_BLEND_OPAQUE, .blend = (ws_gfx_blend)m};
        d.attributes[0] = (ws_gfx_attribute){0, offsetof(vertex, pos), WS_GFX_FLOAT3};
        d.attributes[1] = (ws_gfx_attribute){0, offsetof(vertex, color), WS_GFX_FLOAT4};
        d.bindings[0] = (ws_gfx_binding){sizeof(vertex), 0};
        if (ws_gfx_pipeline_create(s->dev, &d, &s->pipe[m])) return example_fail(ex, "creating a pipeline");
    }
    if (ws_gfx_target_create(s->dev, W, H, 1, &s->target) || ws_malloc(s->dev, sizeof v, &s->vb) ||
        ws_memcpy_htod(s->dev, s->vb, v, sizeof v) || ws_gfx_set_target(s->dev, s->target) ||
        ws_gfx_set_vertex_buffer(s->dev, 0, s->vb, sizeof v))
        return example_fail(ex, "creating the target and vertex buffer");
    return 0;
}

static int render(scene *s, const int *order, uint8_t *rgba)
{
    static const float clear[4] = {0, 0, 0, 1};
    int ok = ws_gfx_begin_frame(s->dev, NULL) == WS_OK && ws_gfx_clear(s->dev, clear, 1.0f) == WS_OK;
    for (int i = 0; ok && i < NQUADS; i++) {
        const quad *q = &quads[order[i]];
        ok = ws_gfx_set_pipeline(s->dev, s->pipe[q->mode]) == WS_OK &&
             ws_gfx_draw(s->dev, 6, 1, (uint32_t)order[i] * 6, 0) == WS_OK;
    }
    ok = ok && ws_gfx_present(s->dev, s->target, rgba, (size_t)W * H * 4) == WS_OK;
    if (!ok) fprintf(stderr, "blend: drawing: %s\n", ws_last_error(s->dev));
    return ok ? 0 : -1;
}

/* Samples whose colour is more than 1/255 from the host's expectation. */
static int count_mismatches(const int *order, const uint8_t *rgba, int *samples)
{
    int bad = 0;
    *samples = 0;
    for (int y = STEP / 2; y < H; y += STEP)
        for (int x = STEP / 2; x < W; x += STEP) {
            uint8_t e[4];
            const uint8_t *p = rgba + ((size_t)y * W + x) * 4;
            expect_pixel(order, x, y, e);
            int off = 0;
            for (int k = 0; k < 4; k++) off |= abs(p[k] - e[k]) > 1;
            if (off && bad < 5)
                printf("  (%d,%d): got %u %u %u %u, expected %u %u %u %u\n", x, y, p[0], p[1], p[2], p[3], e[0],
                       e[1], e[2], e[3]);
            bad += off;
            ++*samples;
        }
    return bad;
}

static int translucent_layers(int x, int y)
{
    int n = 0;
    for (int i = 0; i < NQUADS; i++) n += quads[i].mode == WS_GFX_BLEND_ALPHA && inside(&quads[i], x, y);
    return n;
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : "blend.png";
    example ex;
    scene s;
    if (example_open(&ex, "blend", argv[0], "blend_kernel.elf") || scene_init(&s, &ex)) return 1;
    const size_t n = (size_t)W * H * 4;
    uint8_t *a = malloc(n), *b = malloc(n), *a2 = malloc(n);
    if (!a || !b || !a2 || render(&s, order_a, a) || render(&s, order_b, b) || render(&s, order_a, a2)) return 1;

    int samples, bad_a = count_mismatches(order_a, a, &samples), bad_b = count_mismatches(order_b, b, &samples);
    /* Order must matter exactly where two or more translucent quads overlap
     * (the samples of that region whose stacking has a visible effect). */
    int changed = 0, wrongly_changed = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int diff = memcmp(a + ((size_t)y * W + x) * 4, b + ((size_t)y * W + x) * 4, 4) != 0;
            if (translucent_layers(x, y) >= 2) changed += diff;
            else wrongly_changed += diff;
        }
    int same = memcmp(a, a2, n) == 0;
    char err[256];
    int png_ok = ws_gfx_write_png(out, W, H, a, err, sizeof err) == WS_OK;
    if (!png_ok) fprintf(stderr, "blend: %s: %s\n", out, err);
    printf("%d samples: %d differ from the host in back-to-front order, %d in reversed order\n", samples, bad_a,
           bad_b);
    printf("reversing the translucent quads changed %d overlapped pixels and %d others\n", changed, wrongly_changed);
    int ok = bad_a == 0 && bad_b == 0 && changed > 0 && wrongly_changed == 0 && same && png_ok;
    char detail[256];
    snprintf(detail, sizeof detail, "%dx%d, %d quads, colours as computed on the host, order matters, "
             "redraw identical: %s, image %s %s", W, H, NQUADS, same ? "yes" : "NO",
             png_ok ? "written to" : "NOT written to", out);
    for (int m = 0; m < 3; m++) ws_gfx_pipeline_destroy(s.dev, s.pipe[m]);
    ws_gfx_target_destroy(s.dev, s.target);
    ws_free(s.dev, s.vb);
    free(a), free(b), free(a2);
    return example_finish(&ex, ok, detail);
}
