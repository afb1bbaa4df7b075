/* Pixel and element history on frames captured from the examples by
 * `warpscope capture` (the shim) and opened with the real replayer.
 *   test_pixel_e2e pixel CAPTURE REPORT_DIR   (examples/blend: 7 quads,
 *       opaque, alpha and additive): at a grid of pixels the history equals
 *       what the image shows after each clear and draw; where translucent
 *       quads overlap, each one is a written event; the report is written.
 *   test_pixel_e2e element CAPTURE REPORT_DIR (examples/vecadd): c[i]
 *       changes at the launch to a[i] + b[i], a[i] at its upload only; the
 *       report of a frame that draws nothing lists its calls; c[i] is
 *       read as a float, the type of the kernel's parameter c.
 *   test_pixel_e2e typed CAPTURE REPORT_DIR (examples/instanced): an
 *       instance's colour is read as rgba8 unorm and its offset as float2,
 *       the pipeline's attribute formats, and its indices as uint16, in
 *       the printed history too. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../test.h"
#include "capture/replay_html.h"
#include "capture/replay_pixel.h"

typedef struct images {
    uint8_t **rgba;               /* after each clear and draw, else NULL    */
    uint32_t w, h;
} images;

static int grab(void *user, ws_replay *r, uint64_t index)
{
    images *im = user;
    ws_replay_call_info ci;
    if (ws_replay_describe_call(r, index, &ci) != WS_OK) return 1;
    if (ci.kind != WS_REPLAY_CALL_DRAW && ci.kind != WS_REPLAY_CALL_CLEAR) return 0;
    ws_gfx_target *t = ws_replay_target_at(r, index);
    if (!t || ws_gfx_target_size(t, &im->w, &im->h) != WS_OK) return 1;
    im->rgba[index] = malloc((size_t)im->w * im->h * 4);
    return !im->rgba[index] ||
           ws_gfx_target_read(ws_replay_device(r), t, im->rgba[index], (size_t)im->w * im->h * 4) != WS_OK;
}

static size_t check_pixel(ws_replay *r, const images *im, uint32_t x, uint32_t y)
{
    ws_pixel_history h;
    char err[512];
    ws_status st = ws_replay_pixel_collect(r, x, y, WS_REPLAY_LAST_TARGET, &h, err, sizeof err);
    CHECK(st == WS_OK);
    if (st != WS_OK) { fprintf(stderr, "%s\n", err); return 0; }
    const uint8_t *cur = h.initial;
    size_t e = 0, written = 0;
    for (uint64_t i = 0; i < ws_replay_call_count(r); i++) {
        for (; e < h.n && h.ev[e].call == i; e++) {
            cur = h.ev[e].rec.after;
            written += h.ev[e].rec.event == WS_GFX_PROBE_WRITTEN;
        }
        if (!im->rgba[i]) continue;
        const uint8_t *p = im->rgba[i] + ((size_t)y * im->w + x) * 4;
        if (memcmp(cur, p, 4))
            fprintf(stderr, "(%u,%u) after call %llu: history %u %u %u %u, image %u %u %u %u\n", x, y,
                    (unsigned long long)i, cur[0], cur[1], cur[2], cur[3], p[0], p[1], p[2], p[3]);
        CHECK(!memcmp(cur, p, 4));
    }
    CHECK_EQ_U(e, h.n);
    ws_pixel_history_free(&h);
    return written;
}

static void pixel(ws_replay *r, const char *report)
{
    char err_pixel[512];
    uint64_t n = ws_replay_call_count(r);
    images im = { calloc(n, sizeof *im.rgba), 0, 0 };
    CHECK(ws_replay_restore(r) == WS_OK && ws_replay_run(r, 0, UINT64_MAX, grab, &im) == WS_OK);
    CHECK(im.w == 256 && im.h == 256);
    if (im.w != 256) return;
    size_t checked = 0;
    for (uint32_t y = 10; y < 256; y += 37)
        for (uint32_t x = 6; x < 256; x += 41, checked++) check_pixel(r, &im, x, y);
    CHECK(checked >= 40);
    /* (100, 130): under the blue, yellow and magenta quads, the ground and
     * the red block (examples/blend/blend.c) */
    size_t written = check_pixel(r, &im, 100, 130);
    CHECK(written >= 4);
    /* the translucent quads pass the depth test without writing depth
     * (their pipeline's depth_write is 0): the history says so, where the
     * opaque ground's does not (it showed "pass -> written" and a depth
     * that did not move, with no reason) */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f && ws_replay_pixel_history(r, 100, 130, f, err_pixel, sizeof err_pixel) == WS_OK);
    if (f) fclose(f);
    CHECK_STR_CONTAINS(text, "< 1: pass  -> written");
    CHECK_STR_CONTAINS(text, ": pass, depth write off  -> written");
    free(text);
    char err[512];
    ws_replay_html_options o = { .pixel_set = 1, .pixel_x = 100, .pixel_y = 130, .title = "blend, frame 0" };
    CHECK(ws_replay_html(r, report, &o, err, sizeof err) == WS_OK);
    for (uint64_t i = 0; i < n; i++) free(im.rgba[i]);
    free(im.rgba);
}

static void element(ws_replay *r)
{
    uint32_t addr[8];
    uint64_t size[8];
    size_t nb = 0;
    char err[512];
    /* the buffers exist after a run: a, b, c by ascending address */
    CHECK(ws_replay_restore(r) == WS_OK && ws_replay_run(r, 0, UINT64_MAX, NULL, NULL) == WS_OK);
    CHECK(ws_replay_buffers(r, addr, size, 8, &nb) == WS_OK && nb == 3);
    if (nb != 3) return;
    const uint32_t i = 12345;
    float a, b;
    CHECK(ws_memcpy_dtoh(ws_replay_device(r), &a, addr[0] + i * 4, 4) == WS_OK);
    CHECK(ws_memcpy_dtoh(ws_replay_device(r), &b, addr[1] + i * 4, 4) == WS_OK);
    ws_element_history h;
    CHECK(ws_replay_element_collect(r, addr[2] + i * 4, 4, &h, err, sizeof err) == WS_OK);
    size_t launches = 0;
    for (size_t k = 0; k < h.n; k++) {
        ws_replay_call_info ci;
        CHECK(ws_replay_describe_call(r, h.ch[k].call, &ci) == WS_OK);
        if (ci.kind != WS_REPLAY_CALL_LAUNCH) { CHECK(!strcmp(ci.name, "ws_malloc")); continue; }
        launches++;
        float c;
        memcpy(&c, h.ch[k].after, 4);
        CHECK(c == a + b && c != 0);
    }
    CHECK_EQ_U(launches, 1);
    /* typed by the kernel's DWARF: vecadd(const float *a, const float *b, float *c, int n) */
    CHECK(h.type.scalar == WS_ELEMENT_FLOAT && h.type.scalar_size == 4 && !strcmp(h.type.name, "float"));
    char want[128];
    snprintf(want, sizeof want, "parameter 2 'c' (float *) of vecadd, launched by call ");
    CHECK_STR_CONTAINS(h.type.source, want);
    snprintf(want, sizeof want, ": element %" PRIu32, i);
    CHECK_STR_CONTAINS(h.type.source, want);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f && ws_replay_element_print(r, &h, f, err, sizeof err) == WS_OK);
    if (f) fclose(f);
    snprintf(want, sizeof want, "  = float (%.9g)\n", (double)(a + b));
    CHECK_STR_CONTAINS(text, want);
    CHECK_STR_CONTAINS(text, "read as float by parameter 2 'c'");
    free(text);
    ws_element_history_free(&h);
    CHECK(ws_replay_element_collect(r, addr[0] + i * 4, 4, &h, err, sizeof err) == WS_OK);
    CHECK(h.n >= 1);
    if (h.n) {
        ws_replay_call_info ci;
        CHECK(ws_replay_describe_call(r, h.ch[h.n - 1].call, &ci) == WS_OK && !strcmp(ci.name, "ws_memcpy_htod"));
        CHECK(!memcmp(h.ch[h.n - 1].after, &a, 4));
    }
    ws_element_history_free(&h);
}

/* A compute frame still gets a report: the calls, no image, no pixel. */
static void compute_report(ws_replay *r, const char *dir)
{
    char err[512], path[4200];
    CHECK(ws_replay_html(r, dir, NULL, err, sizeof err) == WS_OK);
    snprintf(path, sizeof path, "%.4000s/index.html", dir);
    size_t len;
    char *page = (char *)ws_test_read_file(path, &len), *z = page ? realloc(page, len + 1) : NULL;
    CHECK(z != NULL);
    if (!z) { free(page); return; }
    z[len] = 0;
    CHECK_STR_CONTAINS(z, "<code>ws_launch(vecadd, grid (4096,1,1), block (256,1,1)");
    CHECK_STR_CONTAINS(z, "The frame draws into no render target.");
    CHECK(!strstr(z, "<img"));
    free(z);
    ws_replay_html_options o = { .pixel_set = 1 };
    CHECK(ws_replay_html(r, dir, &o, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "draws into no render target");
}

/* The address after `key` ("vertex buffer 1: 0x") in the context of the
 * frame's first draw. */
static uint32_t bound_at_draw(ws_replay *r, const char *key, uint64_t *draw)
{
    ws_replay_call_info ci;
    for (*draw = 0; ws_replay_describe_call(r, *draw, &ci) == WS_OK; (*draw)++) {
        if (ci.kind != WS_REPLAY_CALL_DRAW) continue;
        char state[4096];
        CHECK(ws_replay_state_text(r, *draw, state, sizeof state) == WS_OK);
        const char *p = strstr(state, key);
        return p ? (uint32_t)strtoul(p + strlen(key), NULL, 16) : 0;
    }
    return 0;
}

/* The element's history, printed. */
static char *printed(ws_replay *r, const ws_element_history *h)
{
    char *text = NULL, err[512];
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f && ws_replay_element_print(r, h, f, err, sizeof err) == WS_OK);
    if (f) fclose(f);
    return text;
}

/* examples/instanced: binding 1 holds { float offset[2]; uint8_t rgba[4]; }
 * per instance, read as float2 (attribute 1) and rgba8 unorm (attribute 2). */
static void typed(ws_replay *r)
{
    enum { INSTANCE = 5, STRIDE = 12 };
    char err[512], want[256];
    uint64_t draw;
    uint32_t vb = bound_at_draw(r, "vertex buffer 1: 0x", &draw);
    CHECK(vb != 0);
    ws_element_history h;
    CHECK(ws_replay_element_collect(r, vb + INSTANCE * STRIDE + 8, 4, &h, err, sizeof err) == WS_OK);
    CHECK(h.type.scalar == WS_ELEMENT_UNORM && h.type.count == 4 && !strcmp(h.type.name, "rgba8 unorm"));
    snprintf(want, sizeof want, "vertex attribute 2 of pipeline ");
    CHECK_STR_CONTAINS(h.type.source, want);
    snprintf(want, sizeof want, "drawn by call %" PRIu64 ": instance %d, binding 1 at 0x%08x, stride %d, offset 8",
             draw, INSTANCE, vb, STRIDE);
    CHECK_STR_CONTAINS(h.type.source, want);
    char *text = printed(r, &h);
    const uint8_t *c = h.initial;
    snprintf(want, sizeof want, "  = rgba8 unorm (%.9g, %.9g, %.9g, %.9g)\n", c[0] / 255.0, c[1] / 255.0,
             c[2] / 255.0, c[3] / 255.0);
    CHECK(ws_element_readable(h.held_initial, 4));
    CHECK_STR_CONTAINS(text, want);
    free(text);
    ws_element_history_free(&h);

    /* the offset's y alone: a float2 from its second component */
    CHECK(ws_replay_element_collect(r, vb + INSTANCE * STRIDE + 4, 4, &h, err, sizeof err) == WS_OK);
    CHECK(h.type.scalar == WS_ELEMENT_FLOAT && h.type.first == 1 && !strcmp(h.type.name, "float2"));
    float y;
    memcpy(&y, h.initial, 4);
    text = printed(r, &h);
    snprintf(want, sizeof want, "  = float2 from .y (%.9g)\n", (double)y);
    CHECK_STR_CONTAINS(text, want);
    CHECK(y != 0);
    free(text);
    ws_element_history_free(&h);

    /* the quad's indices: u16 (the index buffer's type at the draw) */
    uint32_t ib = bound_at_draw(r, "index buffer: 0x", &draw);
    CHECK(ib != 0);
    CHECK(ws_replay_element_collect(r, ib + 2, 4, &h, err, sizeof err) == WS_OK);
    CHECK(h.type.scalar == WS_ELEMENT_UINT && h.type.scalar_size == 2 && !strcmp(h.type.name, "uint16"));
    snprintf(want, sizeof want, "the index buffer of call %" PRIu64 " at 0x%08x: index 1", draw, ib);
    CHECK_STR_CONTAINS(h.type.source, want);
    text = printed(r, &h);
    snprintf(want, sizeof want, "  = uint16 (%u, %u)\n", h.initial[0] | h.initial[1] << 8,
             h.initial[2] | h.initial[3] << 8);
    CHECK_STR_CONTAINS(text, want);
    free(text);
    ws_element_history_free(&h);
}

int main(int argc, char **argv)
{
    if (argc != 4 || (strcmp(argv[1], "pixel") && strcmp(argv[1], "element") && strcmp(argv[1], "typed"))) {
        fprintf(stderr, "usage: test_pixel_e2e pixel|element|typed CAPTURE REPORT_DIR\n");
        return 2;
    }
    ws_replay *r;
    char err[512];
    if (ws_replay_open(argv[2], NULL, &r, err, sizeof err) != WS_OK) { fprintf(stderr, "%s\n", err); return 1; }
    if (!strcmp(argv[1], "pixel")) pixel(r, argv[3]);
    else if (!strcmp(argv[1], "typed")) typed(r);
    else {
        element(r);
        compute_report(r, argv[3]);
    }
    ws_replay_close(r);
    return TEST_SUMMARY();
}
