/* instanced: 400 small coloured quads in ONE indexed draw, 320x240. The
 * quad's 4 corners come from vertex buffer binding 0 (per vertex); each
 * instance's offset and RGBA8 colour from binding 1 (per_instance = 1).
 * Writes instanced.png.
 *
 * Checks: the whole image equals a host rendering of the same rectangles
 * (pixel centres inside an instance's rectangle take its colour, all
 * others the background; no edge passes near a pixel centre, so coverage
 * is unambiguous) — reported separately for each instance's centre pixel
 * and for the background at the cell corners — and the draw's statistics
 * say every index of every instance was shaded: 6 * 400 vertices. */
#include <stdlib.h>
#include <string.h>
#include "../common/example.h"
#include "warpscope/graphics.h"

enum { W = 320, H = 240, COLS = 20, ROWS = 20, NINST = COLS * ROWS, NIDX = 6 };
#define HALF 0.03f /* quad half size in NDC: 4.8 x 3.6 pixels */

typedef struct { float offset[2]; uint8_t rgba[4]; } instance; /* binding 1 */
typedef struct { float half_size[2]; } uniforms;                /* Uniforms in instanced_kernel.c */

static const float corners[4][2] = {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}};
static const uint16_t indices[NIDX] = {0, 1, 2, 0, 2, 3}; /* counter-clockwise */

static void make_instances(instance *in)
{
    for (int j = 0; j < ROWS; j++)
        for (int i = 0; i < COLS; i++) {
            int k = j * COLS + i;
            in[k] = (instance){{-1.0f + 0.1f * (i + 0.5f), 1.0f - 0.1f * (j + 0.5f)},
                               {(uint8_t)(40 + 10 * i), (uint8_t)(40 + 10 * j), (uint8_t)(k * 53 % 256), 255}};
        }
}

/* The host's image: NDC to pixels as the viewport maps them (row 0 at the
 * top), a pixel covered when its centre is inside the rectangle. */
static void host_render(const instance *in, uint8_t *rgba)
{
    for (size_t p = 0; p < (size_t)W * H; p++) memcpy(rgba + p * 4, (const uint8_t[4]){0, 0, 0, 255}, 4);
    for (int k = 0; k < NINST; k++) {
        double x0 = (in[k].offset[0] - HALF + 1) * 0.5 * W, x1 = (in[k].offset[0] + HALF + 1) * 0.5 * W;
        double y0 = (1 - in[k].offset[1] - HALF) * 0.5 * H, y1 = (1 - in[k].offset[1] + HALF) * 0.5 * H;
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                if (x + 0.5 > x0 && x + 0.5 < x1 && y + 0.5 > y0 && y + 0.5 < y1)
                    memcpy(rgba + ((size_t)y * W + x) * 4, in[k].rgba, 4);
    }
}

static int setup(example *ex, const instance *inst, ws_gfx_target **target)
{
    ws_device *dev = ex->dev;
    ws_kernel *vs = example_kernel(ex, "inst_vs"), *fs = example_kernel(ex, "inst_fs");
    if (!vs || !fs) return 1;
    ws_gfx_pipeline_desc d = {.vertex_shader = vs, .fragment_shader = fs, .nattributes = 3, .nbindings = 2,
                              .cull = WS_GFX_CULL_BACK, .front_face = WS_GFX_CCW};
    d.attributes[0] = (ws_gfx_attribute){0, 0, WS_GFX_FLOAT2};
    d.attributes[1] = (ws_gfx_attribute){1, offsetof(instance, offset), WS_GFX_FLOAT2};
    d.attributes[2] = (ws_gfx_attribute){1, offsetof(instance, rgba), WS_GFX_UNORM8X4};
    d.bindings[0] = (ws_gfx_binding){sizeof corners[0], 0};
    d.bindings[1] = (ws_gfx_binding){sizeof(instance), 1};
    const uniforms u = {{HALF, HALF}};
    const size_t ibytes = NINST * sizeof(instance);
    ws_gfx_pipeline *pipe;
    ws_addr vb, instb, ib, ub;
    if (ws_gfx_pipeline_create(dev, &d, &pipe) || ws_gfx_target_create(dev, W, H, 0, target) ||
        ws_malloc(dev, sizeof corners, &vb) || ws_memcpy_htod(dev, vb, corners, sizeof corners) ||
        ws_malloc(dev, ibytes, &instb) || ws_memcpy_htod(dev, instb, inst, ibytes) ||
        ws_malloc(dev, sizeof indices, &ib) || ws_memcpy_htod(dev, ib, indices, sizeof indices) ||
        ws_malloc(dev, sizeof u, &ub) || ws_memcpy_htod(dev, ub, &u, sizeof u) ||
        ws_gfx_set_target(dev, *target) || ws_gfx_set_pipeline(dev, pipe) ||
        ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof corners) ||
        ws_gfx_set_vertex_buffer(dev, 1, instb, (uint32_t)ibytes) ||
        ws_gfx_set_index_buffer(dev, ib, sizeof indices, WS_GFX_INDEX_U16) || ws_gfx_set_uniforms(dev, ub))
        return example_fail(ex, "setting up the draw");
    return 0;
}

int main(int argc, char **argv)
{
    const char *out = argc > 1 ? argv[1] : "instanced.png";
    static instance inst[NINST];
    static uint8_t img[W * H * 4], expect[W * H * 4];
    static const float clear[4] = {0, 0, 0, 1};
    example ex;
    ws_gfx_target *target;
    ws_gfx_draw_stats st;
    make_instances(inst);
    if (example_open(&ex, "instanced", argv[0], "instanced_kernel.elf") || setup(&ex, inst, &target)) return 1;
    if (ws_gfx_begin_frame(ex.dev, NULL) || ws_gfx_clear(ex.dev, clear, 1.0f) ||
        ws_gfx_draw_indexed(ex.dev, NIDX, NINST, 0, 0, 0) || ws_gfx_present(ex.dev, target, img, sizeof img) ||
        ws_gfx_last_draw_stats(ex.dev, &st))
        return example_fail(&ex, "drawing");
    host_render(inst, expect);

    int bad_centre = 0, bad_bg = 0, bad_px = 0;
    for (int j = 0; j < ROWS; j++)
        for (int i = 0; i < COLS; i++) {
            size_t c = ((size_t)(12 * j + 6) * W + 16 * i + 8) * 4, b = ((size_t)(12 * j) * W + 16 * i) * 4;
            bad_centre += memcmp(img + c, inst[j * COLS + i].rgba, 4) != 0;
            bad_bg += memcmp(img + b, (const uint8_t[4]){0, 0, 0, 255}, 4) != 0;
        }
    for (size_t p = 0; p < sizeof img; p += 4) bad_px += memcmp(img + p, expect + p, 4) != 0;
    printf("%d instances: %d centre pixels with the wrong colour, %d background spots drawn on, "
           "%d pixels differ from the host image\n", NINST, bad_centre, bad_bg, bad_px);
    printf("draw stats: vertices shaded %llu (expected %d), primitives %llu, fragments %llu, pixels written %llu\n",
           (unsigned long long)st.vertices_shaded, NIDX * NINST, (unsigned long long)st.primitives_rasterized,
           (unsigned long long)st.fragments_shaded, (unsigned long long)st.pixels_written);
    char err[256];
    int png_ok = ws_gfx_write_png(out, W, H, img, err, sizeof err) == WS_OK;
    if (!png_ok) fprintf(stderr, "instanced: %s: %s\n", out, err);
    int ok = !bad_centre && !bad_bg && !bad_px && st.vertices_shaded == (uint64_t)NIDX * NINST && png_ok;
    char detail[160];
    snprintf(detail, sizeof detail, "%dx%d, %d instances in one draw, image %s %s", W, H, NINST,
             png_ok ? "written to" : "NOT written to", out);
    return example_finish(&ex, ok, detail);
}
