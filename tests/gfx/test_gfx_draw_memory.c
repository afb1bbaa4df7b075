/* A draw of many triangles keeps a bounded number of them in host memory
 * (it kept every post-transform triangle, about 448 bytes each: a draw of
 * a few million used gigabytes), and its image is still exact: specks
 * (gfx_shaders.c speck_vs) of which every 1000th covers its pixel's centre
 * and adds 1/64 of red, compared with the same sums made on the host.
 * usage: test_gfx_draw_memory gfx_shaders.elf [triangles]
 *   (default 200000; with a count it also prints the draw's statistics
 *   and its peak memory, for docs/performance.md) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include "../test.h"
#include "warpscope/graphics.h"

#define W 64
#define H 64

static long peak_kib(void)
{
    struct rusage ru;
    return getrusage(RUSAGE_SELF, &ru) == 0 ? ru.ru_maxrss : 0;
}

/* The expected red channel of each pixel: per covering speck, additive
 * blending of 1/64 over the 8-bit value, rounded as the raster-output
 * stage rounds (docs/graphics.md, stage 14). */
static void expected_red(uint32_t tris, uint8_t *red)
{
    memset(red, 0, W * H);
    for (uint32_t t = 0; t < tris; t += 1000) {
        uint8_t *r = &red[(t / 64 % 64) * W + t % 64];
        float v = 1.0f / 64.0f + (float)*r / 255.0f;
        *r = v >= 1.0f ? 255 : (uint8_t)(v * 255.0f + 0.5f);
    }
}

/* One draw of `tris` specks on a device with `config`: checks its
 * statistics and image; returns how much the peak memory grew (KiB). */
static long draw_specks(const char *elf, const char *config, uint32_t tris, int verbose)
{
    ws_config cfg;
    char err[128];
    ws_config_default(&cfg);
    if (config) CHECK(ws_config_parse(&cfg, config, err, sizeof err) == WS_OK);
    ws_device *dev = NULL;
    ws_module *mod = NULL;
    ws_kernel *vs = NULL, *fs = NULL;
    ws_gfx_target *target = NULL;
    ws_gfx_pipeline *pipe = NULL;
    if (ws_device_open(&cfg, &dev) != WS_OK) { CHECK(0); return 0; }
    CHECK(ws_module_load_file(dev, elf, &mod) == WS_OK);
    CHECK(ws_kernel_get(mod, "speck_vs", &vs) == WS_OK && ws_kernel_get(mod, "speck_fs", &fs) == WS_OK);
    ws_gfx_pipeline_desc d = { .vertex_shader = vs, .fragment_shader = fs, .blend = WS_GFX_BLEND_ADDITIVE };
    CHECK(ws_gfx_pipeline_create(dev, &d, &pipe) == WS_OK);
    CHECK(ws_gfx_target_create(dev, W, H, 0, &target) == WS_OK);
    CHECK(ws_gfx_set_target(dev, target) == WS_OK && ws_gfx_set_pipeline(dev, pipe) == WS_OK);
    static uint8_t img[W * H * 4];
    const float black[4] = { 0, 0, 0, 1 };
    long before = peak_kib();
    CHECK(ws_gfx_begin_frame(dev, NULL) == WS_OK && ws_gfx_clear(dev, black, 1.0f) == WS_OK);
    CHECK(ws_gfx_draw(dev, 3 * tris, 1, 0, 0) == WS_OK);
    CHECK(ws_gfx_present(dev, target, img, sizeof img) == WS_OK);
    long grew = peak_kib() - before;
    ws_gfx_draw_stats s;
    CHECK(ws_gfx_last_draw_stats(dev, &s) == WS_OK);
    CHECK_EQ_U(s.primitives_in, tris);
    CHECK_EQ_U(s.primitives_rasterized, (tris + 999) / 1000);
    CHECK_EQ_U(s.pixels_written, (tris + 999) / 1000);
    static uint8_t red[W * H];
    expected_red(tris, red);
    int wrong = 0;
    for (int i = 0; i < W * H; i++) wrong += img[i * 4] != red[i] || img[i * 4 + 1] != 0 || img[i * 4 + 3] != 255;
    CHECK_EQ_U(wrong, 0);
    if (verbose)
        printf("%u triangles (%s): peak memory grew by %ld KiB during the draw (%.0f bytes per triangle); "
               "vertex %.2f s, fragment %.2f s, fixed function %.2f s\n", tris, config ? config : "functional",
               grew, grew * 1024.0 / tris, s.vertex_seconds, s.fragment_seconds, s.fixed_function_seconds);
    ws_gfx_pipeline_destroy(dev, pipe);
    ws_gfx_target_destroy(dev, target);
    ws_device_close(dev);
    return grew;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: test_gfx_draw_memory gfx_shaders.elf [triangles]\n"); return 2; }
    if (argc > 2) {
        draw_specks(argv[1], NULL, (uint32_t)strtoul(argv[2], NULL, 10), 1);
        return TEST_SUMMARY();
    }
    /* The triangles alone were 448 bytes each (90 MB here); what is left is
     * the vertex records (16 bytes of position per vertex, on the device and
     * copied to the host, and 20 bytes of system values): 22 MB. */
    long grew = draw_specks(argv[1], NULL, 200000, 1);
    CHECK(grew < 48 * 1024);
    /* The same 49 batches in timing mode */
    draw_specks(argv[1], "mode=timing", 200000, 1);
    return TEST_SUMMARY();
}
