/* The pipeline's check of what a shader does on every run follows direct
 * calls and goes on after them, unless the call never returns (a trap, an
 * assert's failure, an illegal instruction): then the bytes after it are
 * the next function's. It went on into them, and a stub vertex shader that
 * only traps was refused for the ws_pixel_x() of the fragment shader after
 * it. usage: test_gfx_noreturn noreturn_shaders.elf */
#include <stdio.h>
#include "../test.h"
#include "warpscope/graphics.h"
#include "gfx_shaders.h"

#define W 16
#define H 16

typedef struct vtx { float pos[4]; float color[4]; } vtx;

static ws_device *dev;
static ws_module *mod;

static ws_kernel *shader(const char *name) { return gfx_shader(dev, mod, name); }

static ws_gfx_pipeline_desc desc(const char *vs, const char *fs)
{
    return gfx_pos_color_desc(shader(vs), shader(fs), sizeof(vtx));
}

/* Create a pipeline of vs and fs and draw one triangle with it. */
static ws_status draw(const char *vs, const char *fs, ws_gfx_target *target)
{
    static const vtx v[3] = { { { -1, -1, 0, 1 }, { 0, 0, 0, 1 } }, { { 1, -1, 0, 1 }, { 0, 0, 0, 1 } },
                              { { -1, 1, 0, 1 }, { 0, 0, 0, 1 } } };
    ws_gfx_pipeline_desc d = desc(vs, fs);
    ws_gfx_pipeline *p = NULL;
    ws_addr vb = 0;
    static uint8_t img[W * H * 4];
    ws_status st = ws_gfx_pipeline_create(dev, &d, &p);
    if (st != WS_OK) return st;
    st = ws_malloc(dev, sizeof v, &vb);
    if (st == WS_OK) st = ws_memcpy_htod(dev, vb, v, sizeof v);
    if (st == WS_OK) st = ws_gfx_set_vertex_buffer(dev, 0, vb, sizeof v);
    if (st == WS_OK) st = ws_gfx_set_pipeline(dev, p);
    if (st == WS_OK) st = ws_gfx_begin_frame(dev, NULL);
    if (st == WS_OK) st = ws_gfx_draw(dev, 3, 1, 0, 0);
    ws_status pst = ws_gfx_present(dev, target, img, sizeof img);
    if (st == WS_OK) st = pst;
    if (vb) ws_free(dev, vb);
    ws_gfx_pipeline_destroy(dev, p);
    return st;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s noreturn_shaders.elf\n", argv[0]); return 2; }
    ws_gfx_target *target = NULL;
    if (ws_device_open(NULL, &dev) != WS_OK) return 1;
    if (ws_module_load_file(dev, argv[1], &mod) != WS_OK) { printf("%s\n", ws_last_error(dev)); return 1; }
    CHECK(ws_gfx_target_create(dev, W, H, 1, &target) == WS_OK);
    CHECK(ws_gfx_set_target(dev, target) == WS_OK);

    /* the stub is accepted; its draw stops in the helper that traps */
    ws_gfx_pipeline_desc d = desc("unwritten_vs", "pixel_fs");
    ws_gfx_pipeline *p = NULL;
    ws_status st = ws_gfx_pipeline_create(dev, &d, &p);
    CHECK(st == WS_OK);
    if (st != WS_OK) printf("refused: %s\n", ws_last_error(dev));
    else ws_gfx_pipeline_destroy(dev, p);
    st = draw("unwritten_vs", "pixel_fs", target);
    CHECK(st == WS_ERR_KERNEL_FAULT);
    printf("draw: %s\n", ws_last_error(dev));
    CHECK_STR_CONTAINS(ws_last_error(dev), "vertex shader 'unwritten_vs'");
    CHECK_STR_CONTAINS(ws_last_error(dev), "not_written");

    /* the shader with an assert draws (its vertices pass the assert) */
    CHECK(draw("checked_vs", "pixel_fs", target) == WS_OK);

    /* a read on every run after a call that returns is still refused */
    d = desc("pixel_vs", "pixel_fs");
    CHECK(ws_gfx_pipeline_create(dev, &d, &p) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "vertex shader 'pixel_vs' reads ws_pixel_x()");
    CHECK_STR_CONTAINS(ws_last_error(dev), "noreturn_shaders.c:");

    ws_gfx_target_destroy(dev, target);
    ws_device_close(dev);
    return TEST_SUMMARY();
}
