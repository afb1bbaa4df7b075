/* cube: the demo scene of the graphics pipeline. A textured (256x256 with
 * generated mips, trilinear, REPEAT), lit (per-vertex diffuse + ambient),
 * depth-tested, back-face-culled cube spinning over N frames at 640x480.
 *
 * Usage: cube [frames]   (default 8)
 * Writes cube.png (every frame downsampled 4x, side by side) and
 * cube_frame0.png (frame 0 at full size).
 *
 * Every frame is checked against host-side invariants computed without
 * the pipeline: the cube's silhouette (the convex hull of its 8 projected
 * corners) must be covered and everything clearly outside it must stay
 * background; the covered pixels' mean colour must be plausible and change
 * from frame to frame; each covered pixel is written exactly once (the cube
 * is convex and back faces are culled); and frame 0 drawn again must give
 * the same bytes. Only deterministic values are printed, so the timing-mode
 * run prints the same lines. */
#include <stdlib.h>
#include <string.h>
#include "../common/example.h"
#include "cube_gfx.h"

enum { W = 640, H = 480, SCALE = 4, SW = W / SCALE, SH = H / SCALE };

static uint64_t fnv1a64(const uint8_t *p, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

typedef struct { double x, y; } pt;

static double cross(pt o, pt a, pt b) { return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x); }

static int pt_cmp(const void *a, const void *b)
{
    const pt *p = a, *q = b;
    return p->x < q->x ? -1 : p->x > q->x ? 1 : (p->y > q->y) - (p->y < q->y);
}

/* Monotone-chain convex hull of n points into hull; returns its size. The
 * order's orientation does not matter to signed_dist below. */
static int convex_hull(pt *p, int n, pt *hull)
{
    int k = 0;
    qsort(p, (size_t)n, sizeof *p, pt_cmp);
    for (int i = 0; i < n; i++) {
        while (k >= 2 && cross(hull[k - 2], hull[k - 1], p[i]) <= 0) k--;
        hull[k++] = p[i];
    }
    for (int i = n - 2, lo = k + 1; i >= 0; i--) {
        while (k >= lo && cross(hull[k - 2], hull[k - 1], p[i]) <= 0) k--;
        hull[k++] = p[i];
    }
    return k - 1;
}

/* Signed distance from q to the hull's boundary, positive inside: exact
 * inside; outside it is the largest edge distance, which never exceeds the
 * true distance, so "< -1" still means more than one pixel out. */
static double signed_dist(const pt *hull, int n, pt q)
{
    double d = 1e30;
    for (int i = 0; i < n; i++) {
        pt a = hull[i], b = hull[(i + 1) % n];
        double len = sqrt((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y));
        double e = cross(a, b, q) / len; /* counter-clockwise in y-up: >0 is inside */
        if (e < d) d = e;
    }
    return d;
}

/* The window positions of the cube's corners, as the pipeline maps clip
 * space: x right, row 0 at the top. */
static int cube_silhouette(uint32_t frame, pt *hull)
{
    float model[16], mvp[16];
    pt corners[8];
    cube_frame_matrices(frame, W, H, model, mvp);
    for (int i = 0; i < 8; i++) {
        float v[3] = {i & 1 ? 0.5f : -0.5f, i & 2 ? 0.5f : -0.5f, i & 4 ? 0.5f : -0.5f}, c[4];
        for (int r = 0; r < 4; r++) c[r] = mvp[r] * v[0] + mvp[4 + r] * v[1] + mvp[8 + r] * v[2] + mvp[12 + r];
        /* y flipped so the hull is counter-clockwise in window coordinates too */
        corners[i] = (pt){(c[0] / c[3] + 1.0) * 0.5 * W, (c[1] / c[3] + 1.0) * 0.5 * H};
    }
    return convex_hull(corners, 8, hull);
}

typedef struct { uint32_t covered, bad_in, bad_out; double mean[3]; } frame_check;

static frame_check check_frame(uint32_t frame, const uint8_t *rgba, const float *depth)
{
    frame_check r = {0};
    pt hull[16];
    int n = cube_silhouette(frame, hull);
    uint8_t bg[4];
    for (int k = 0; k < 4; k++) bg[k] = (uint8_t)(cube_clear_rgba[k] * 255.0f + 0.5f);
    double sum[3] = {0};
    for (uint32_t y = 0; y < H; y++)
        for (uint32_t x = 0; x < W; x++) {
            size_t i = (size_t)y * W + x;
            const uint8_t *p = rgba + i * 4;
            int covered = depth[i] < 1.0f;
            double d = signed_dist(hull, n, (pt){x + 0.5, H - (y + 0.5)});
            if (d > 1.0 && !covered) r.bad_in++;
            if (d < -1.0 && (covered || memcmp(p, bg, 4) != 0)) r.bad_out++;
            if (!covered) continue;
            r.covered++;
            for (int k = 0; k < 3; k++) sum[k] += p[k];
        }
    for (int k = 0; k < 3; k++) r.mean[k] = r.covered ? sum[k] / r.covered : 0;
    return r;
}

/* Average SCALE x SCALE blocks (rounded) into column `frame` of the strip. */
static void downsample(const uint8_t *rgba, uint8_t *strip, uint32_t frame, uint32_t nframes)
{
    for (uint32_t y = 0; y < SH; y++)
        for (uint32_t x = 0; x < SW; x++)
            for (int k = 0; k < 4; k++) {
                unsigned s = 0;
                for (uint32_t dy = 0; dy < SCALE; dy++)
                    for (uint32_t dx = 0; dx < SCALE; dx++)
                        s += rgba[(((size_t)y * SCALE + dy) * W + x * SCALE + dx) * 4 + k];
                strip[((size_t)y * SW * nframes + frame * SW + x) * 4 + k] = (uint8_t)((s + SCALE * SCALE / 2) / (SCALE * SCALE));
            }
}

static int write_png(const char *path, uint32_t w, uint32_t h, const uint8_t *rgba)
{
    char err[256];
    if (ws_gfx_write_png(path, w, h, rgba, err, sizeof err) == WS_OK) return 0;
    fprintf(stderr, "cube: %s: %s\n", path, err);
    return -1;
}

int main(int argc, char **argv)
{
    long nframes = argc > 1 ? strtol(argv[1], NULL, 10) : 8;
    if (nframes < 1 || nframes > 64) {
        fprintf(stderr, "usage: cube [frames 1..64]\n");
        return 2;
    }
    uint32_t n = (uint32_t)nframes;
    example ex;
    if (example_open(&ex, "cube", argv[0], "cube_kernel.elf")) return 1;
    cube_gfx c;
    uint8_t *rgba = malloc((size_t)W * H * 4), *frame0 = malloc((size_t)W * H * 4);
    uint8_t *strip = calloc((size_t)SW * SH * 4, n);
    float *depth = malloc((size_t)W * H * sizeof(float));
    if (!rgba || !frame0 || !strip || !depth || cube_gfx_init(&c, ex.dev, ex.mod, W, H)) return 1;

    int ok = 1;
    double prev[3] = {-1, -1, -1};
    for (uint32_t f = 0; f < n; f++) {
        ws_gfx_draw_stats st;
        if (cube_gfx_frame(&c, f, rgba) || ws_gfx_last_draw_stats(ex.dev, &st) ||
            ws_gfx_target_read_depth(ex.dev, c.target, depth, (size_t)W * H))
            return example_fail(&ex, "drawing a frame");
        frame_check r = check_frame(f, rgba, depth);
        int plausible = r.covered > 1000, changed = 0;
        for (int k = 0; k < 3; k++) {
            plausible &= r.mean[k] >= 20 && r.mean[k] <= 240;
            changed |= r.mean[k] != prev[k];
            prev[k] = r.mean[k];
        }
        int fok = r.bad_in == 0 && r.bad_out == 0 && plausible && changed && st.pixels_written == r.covered;
        printf("frame %u: covered %u, mean rgb %.2f %.2f %.2f, hash %016llx, fragments %llu, quads %llu, "
               "helpers %llu, early-z killed %llu%s\n",
               f, r.covered, r.mean[0], r.mean[1], r.mean[2], (unsigned long long)fnv1a64(rgba, (size_t)W * H * 4),
               (unsigned long long)st.fragments_shaded, (unsigned long long)st.quads,
               (unsigned long long)st.helper_lanes, (unsigned long long)st.fragments_early_z_killed,
               fok ? "" : "  <-- FAILED");
        if (!fok)
            printf("  uncovered inside the silhouette %u, drawn outside it %u, plausible colour %d, changed %d, "
                   "pixels written %llu\n", r.bad_in, r.bad_out, plausible, changed,
                   (unsigned long long)st.pixels_written);
        ok &= fok;
        if (f == 0) memcpy(frame0, rgba, (size_t)W * H * 4);
        downsample(rgba, strip, f, n);
    }
    /* Determinism: frame 0 again, after the others, must match byte for byte. */
    if (cube_gfx_frame(&c, 0, rgba)) return example_fail(&ex, "drawing frame 0 again");
    int same = memcmp(rgba, frame0, (size_t)W * H * 4) == 0;
    int png_ok = write_png("cube.png", SW * n, SH, strip) == 0 && write_png("cube_frame0.png", W, H, frame0) == 0;
    char detail[256];
    snprintf(detail, sizeof detail, "%u frames %dx%d, silhouettes and colours as expected: %s, "
             "frame 0 redrawn identically: %s, cube.png %s", n, W, H, ok ? "yes" : "NO", same ? "yes" : "NO",
             png_ok ? "written" : "NOT written");
    cube_gfx_free(&c);
    free(rgba), free(frame0), free(strip), free(depth);
    return example_finish(&ex, ok && same && png_ok, detail);
}
