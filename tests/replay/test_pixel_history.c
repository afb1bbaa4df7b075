/* Pixel and element history (src/capture/replay_pixel.c, replay_element.c)
 * over the test frame served by the stand-in replayer (stand_in.c). The
 * check of issue 12: the pixel history equals what the image shows after
 * each draw, at several pixels; the scene pixel has the events the frame
 * was built for; the element history lists exactly the copies that
 * changed the bytes; bad input is refused with a message.
 * usage: test_pixel_history gfx_shaders.elf */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../test.h"
#include "capture/replay_pixel.h"
#include "pixel_scene.h"

#define NPX (SCENE_W * SCENE_H)

typedef struct images {
    uint8_t (*rgba)[NPX * 4];     /* after each call (draws and clears only) */
    int *have;
} images;

static int grab(void *user, ws_replay *r, uint64_t index)
{
    images *im = user;
    struct ws_replay_call_info ci;
    if (ws_replay_describe_call(r, index, &ci) != WS_OK) return 1;
    if (ci.kind != WS_REPLAY_CALL_DRAW && ci.kind != WS_REPLAY_CALL_CLEAR) return 0;
    im->have[index] = ws_gfx_target_read(ws_replay_device(r), ws_replay_target_at(r, index), im->rgba[index],
                                         sizeof im->rgba[index]) == WS_OK;
    return 0;
}

/* After every clear and draw, the last event so far must be what the image shows. */
static void check_against_images(ws_replay *r, const images *im, uint32_t x, uint32_t y)
{
    ws_pixel_history h;
    char err[256];
    CHECK(ws_replay_pixel_collect(r, x, y, WS_REPLAY_LAST_TARGET, &h, err, sizeof err) == WS_OK);
    CHECK(h.initial_known && !memcmp(h.initial, "\0\0\0\0", 4) && h.initial_depth == 1.0f && h.has_depth);
    const uint8_t *cur = h.initial;
    size_t e = 0;
    for (uint64_t i = 0; i < ws_replay_call_count(r); i++) {
        while (e < h.n && h.ev[e].call == i) cur = h.ev[e++].rec.after;
        if (!im->have[i]) continue;
        const uint8_t *p = im->rgba[i] + ((size_t)y * SCENE_W + x) * 4;
        if (memcmp(cur, p, 4))
            fprintf(stderr, "(%u,%u) after call %llu: history %u %u %u %u, image %u %u %u %u\n", x, y,
                    (unsigned long long)i, cur[0], cur[1], cur[2], cur[3], p[0], p[1], p[2], p[3]);
        CHECK(!memcmp(cur, p, 4));
    }
    CHECK_EQ_U(e, h.n);
    ws_pixel_history_free(&h);
}

static void test_pixel(ws_replay *r)
{
    size_t n = ws_replay_call_count(r);
    images im = { calloc(n, sizeof *im.rgba), calloc(n, sizeof *im.have) };
    CHECK(im.rgba && im.have);
    CHECK(ws_replay_restore(r) == WS_OK && ws_replay_run(r, 0, UINT64_MAX, grab, &im) == WS_OK);
    const uint32_t px[][2] = { { SCENE_PX, SCENE_PY }, { 0, 0 }, { 1, 0 }, { 16, 16 }, { 31, 31 }, { 30, 2 } };
    for (size_t i = 0; i < sizeof px / sizeof px[0]; i++) check_against_images(r, &im, px[i][0], px[i][1]);

    /* the scene pixel: one event per intended outcome, each with its call */
    ws_pixel_history h;
    char err[256];
    CHECK(ws_replay_pixel_collect(r, SCENE_PX, SCENE_PY, WS_REPLAY_LAST_TARGET, &h, err, sizeof err) == WS_OK);
    const uint64_t calls[] = { 1, 3, 4, 6, 8, 10, 12, 12 };
    const ws_gfx_probe_event events[] = { WS_GFX_PROBE_CLEAR, WS_GFX_PROBE_WRITTEN, WS_GFX_PROBE_EARLY_Z_FAILED,
                                          WS_GFX_PROBE_WRITTEN, WS_GFX_PROBE_DISCARDED, WS_GFX_PROBE_DEPTH_FAILED,
                                          WS_GFX_PROBE_WRITTEN, WS_GFX_PROBE_WRITTEN };
    CHECK_EQ_U(h.n, 8);
    CHECK_EQ_U(h.ncalls, 7);
    CHECK(h.w == SCENE_W && h.h == SCENE_H && h.target == stand_in_scene(r)->target);
    for (size_t i = 0; i < h.n && i < 8; i++) {
        CHECK_EQ_U(h.ev[i].call, calls[i]);
        CHECK_EQ_U(h.ev[i].rec.event, events[i]);
    }
    /* the printed form names the calls, the outcomes and the final colour */
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f && ws_replay_pixel_print(r, &h, f, err, sizeof err) == WS_OK);
    fclose(f);
    CHECK_STR_CONTAINS(text, "pixel (10,12) of the 32x32 render target: 8 events in 7 calls");
    CHECK_STR_CONTAINS(text, "call 4 ws_gfx_draw(vertex_count=3, instance_count=1, first_vertex=3");
    CHECK_STR_CONTAINS(text, "not shaded\n      depth 0.800000012 < 0.5: fail  -> failed the early depth test");
    CHECK_STR_CONTAINS(text, "-> discarded");
    CHECK_STR_CONTAINS(text, "== 0.5: fail  -> failed the depth test");
    CHECK_STR_CONTAINS(text, "shader out (1, 0, 0, 1)");
    const uint8_t *fin = im.rgba[13] + ((size_t)SCENE_PY * SCENE_W + SCENE_PX) * 4;
    char want[64];
    snprintf(want, sizeof want, "frame end: colour (%3u %3u %3u %3u)", fin[0], fin[1], fin[2], fin[3]);
    CHECK_STR_CONTAINS(text, want);
    CHECK(strstr(text, "call 13") == NULL); /* the corner draw did not touch it */
    free(text);
    ws_pixel_history_free(&h);

    /* the target named by a call: the same history */
    ws_pixel_history h2;
    CHECK(ws_replay_pixel_collect(r, SCENE_PX, SCENE_PY, 3, &h2, err, sizeof err) == WS_OK);
    CHECK(h2.n == 8 && h2.ev[7].call == 12);
    ws_pixel_history_free(&h2);
    CHECK(ws_replay_pixel_collect(r, SCENE_PX, SCENE_PY, 999, &h2, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "no call 999 (the frame has 18)");

    /* refusals */
    CHECK(ws_replay_pixel_collect(r, 40, 3, WS_REPLAY_LAST_TARGET, &h, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "pixel (40,3) is outside the 32x32 render target");
    uint32_t x, y;
    CHECK(ws_replay_parse_pixel("12,7", &x, &y, err, sizeof err) == WS_OK && x == 12 && y == 7);
    const char *bad[] = { "", "12", "12,", ",3", "-1,2", "3,-2", "1,2,3", "99999,1", "a,b" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(ws_replay_parse_pixel(bad[i], &x, &y, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "--pixel");
    free(im.rgba);
    free(im.have);
}

static void test_element(ws_replay *r)
{
    ws_addr buf = stand_in_scene(r)->buf;
    ws_element_history h;
    char err[256];
    for (int pass = 0; pass < 2; pass++) { /* again: restore puts the start back */
        CHECK(ws_replay_element_collect(r, buf + 8, 8, &h, err, sizeof err) == WS_OK);
        CHECK(h.readable_initial && h.initial[0] == 8 && h.initial[7] == 15);
        CHECK_EQ_U(h.n, 2); /* the htod at call 14 and the dtod at 16; not the memset at 15 */
        if (h.n == 2) {
            CHECK_EQ_U(h.ch[0].call, 14);
            CHECK(h.ch[0].before[0] == 8 && h.ch[0].after[0] == 0xa0 && h.ch[0].after[7] == 0xa7);
            CHECK_EQ_U(h.ch[1].call, 16);
            CHECK(h.ch[1].before[0] == 0xa0 && h.ch[1].after[0] == 0x5e && h.ch[1].after[7] == 0x5e);
        }
        if (pass) break;
        ws_element_history_free(&h);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f && ws_replay_element_print(r, &h, f, err, sizeof err) == WS_OK);
    fclose(f);
    CHECK_STR_CONTAINS(text, "changed by 2 calls");
    CHECK_STR_CONTAINS(text, "call 14 ws_memcpy_htod");
    CHECK_STR_CONTAINS(text, "    old 08 09 0a 0b 0c 0d 0e 0f  = 1084818905618843912");
    CHECK_STR_CONTAINS(text, "    new a0 a1 a2 a3 a4 a5 a6 a7  = 12080525177006498208");
    free(text);
    ws_element_history_free(&h);

    /* a 4-byte element also prints as numbers; the null page is no allocation */
    CHECK(ws_replay_element_collect(r, buf + 32, 4, &h, err, sizeof err) == WS_OK);
    CHECK_EQ_U(h.n, 1);
    text = NULL;
    f = open_memstream(&text, &len);
    CHECK(f && ws_replay_element_print(r, &h, f, err, sizeof err) == WS_OK);
    fclose(f);
    CHECK_STR_CONTAINS(text, "new 5e 5e 5e 5e  = 1583242846 = 1583242846 = 4.00583697e+18");
    free(text);
    ws_element_history_free(&h);
    CHECK(ws_replay_element_collect(r, 0, 4, &h, err, sizeof err) == WS_OK);
    CHECK(!h.readable_initial && h.n == 0);
    ws_element_history_free(&h);

    ws_addr a;
    uint32_t size;
    CHECK(ws_replay_parse_element("0x10000040", &a, &size, err, sizeof err) == WS_OK && a == 0x10000040 && size == 4);
    CHECK(ws_replay_parse_element("4096:16", &a, &size, err, sizeof err) == WS_OK && a == 4096 && size == 16);
    const char *bad[] = { "", "x", "0x10:", "0x10:0", "0x10:99999", "0xffffffff:8", "0x1000000000", "-4", "16:4:4" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(ws_replay_parse_element(bad[i], &a, &size, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "--element");
    CHECK(ws_replay_element_collect(r, 0, 0, &h, err, sizeof err) == WS_ERR_INVALID_ARG);
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: test_pixel_history gfx_shaders.elf\n"); return 2; }
    ws_replay *r;
    char err[256];
    if (ws_replay_open(argv[1], NULL, &r, err, sizeof err) != WS_OK) { fprintf(stderr, "%s\n", err); return 1; }
    test_pixel(r);
    test_element(r);
    ws_replay_close(r);
    return TEST_SUMMARY();
}
