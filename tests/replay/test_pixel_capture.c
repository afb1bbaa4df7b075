/* Pixel history, element history and the report on the real replayer
 * (src/capture/replay_*.c): the test frame is written as a capture file
 * (pixel_scene.c) and opened with ws_replay_open. The pixel history must
 * equal what the image shows after each clear and draw, at several pixels,
 * with the events the frame was built for; the element history must list
 * the copies that changed the bytes; the report must be written with the
 * replayer's own call texts and state, and a second run of each must give
 * the same answer (restore puts the frame's start back).
 * usage: test_pixel_capture gfx_shaders.elf WORKDIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../test.h"
#include "capture/replay_html.h"
#include "capture/replay_pixel.h"
#include "pixel_scene.h"

#define NPX (SCENE_W * SCENE_H)

typedef struct images {
    uint8_t (*rgba)[NPX * 4];
    int *have;
} images;

static int grab(void *user, ws_replay *r, uint64_t index)
{
    images *im = user;
    ws_replay_call_info ci;
    if (ws_replay_describe_call(r, index, &ci) != WS_OK) return 1;
    if (ci.kind != WS_REPLAY_CALL_DRAW && ci.kind != WS_REPLAY_CALL_CLEAR) return 0;
    im->have[index] = ws_gfx_target_read(ws_replay_device(r), ws_replay_target_at(r, index), im->rgba[index],
                                         sizeof im->rgba[index]) == WS_OK;
    return 0;
}

static void check_pixel(ws_replay *r, const images *im, uint32_t x, uint32_t y)
{
    ws_pixel_history h;
    char err[256];
    CHECK(ws_replay_pixel_collect(r, x, y, WS_REPLAY_LAST_TARGET, &h, err, sizeof err) == WS_OK);
    const uint8_t *cur = h.initial;
    size_t e = 0, checked = 0;
    for (uint64_t i = 0; i < ws_replay_call_count(r); i++) {
        while (e < h.n && h.ev[e].call == i) cur = h.ev[e++].rec.after;
        if (!im->have[i]) continue;
        const uint8_t *p = im->rgba[i] + ((size_t)y * SCENE_W + x) * 4;
        if (memcmp(cur, p, 4))
            fprintf(stderr, "(%u,%u) after call %llu: history %u %u %u %u, image %u %u %u %u\n", x, y,
                    (unsigned long long)i, cur[0], cur[1], cur[2], cur[3], p[0], p[1], p[2], p[3]);
        CHECK(!memcmp(cur, p, 4));
        checked++;
    }
    CHECK_EQ_U(checked, 8); /* one clear, seven draws */
    CHECK_EQ_U(e, h.n);
    ws_pixel_history_free(&h);
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: test_pixel_capture gfx_shaders.elf WORKDIR\n"); return 2; }
    char path[4200], dir[4096], err[512];
    mkdir(argv[2], 0777);
    snprintf(path, sizeof path, "%s/scene.wscap", argv[2]);
    snprintf(dir, sizeof dir, "%.4000s/report", argv[2]);
    if (scene_write_capture(path, argv[1], err, sizeof err)) { fprintf(stderr, "%s\n", err); return 1; }
    ws_replay *r;
    if (ws_replay_open(path, NULL, &r, err, sizeof err) != WS_OK) { fprintf(stderr, "%s\n", err); return 1; }
    uint64_t n = ws_replay_call_count(r);
    CHECK_EQ_U(n, SCENE_CAPTURE_PREFIX + scene_call_count());

    images im = { calloc(n, sizeof *im.rgba), calloc(n, sizeof *im.have) };
    CHECK(ws_replay_restore(r) == WS_OK && ws_replay_run(r, 0, UINT64_MAX, grab, &im) == WS_OK);
    const uint32_t px[][2] = { { SCENE_PX, SCENE_PY }, { 0, 0 }, { 16, 16 }, { 31, 31 }, { 30, 2 } };
    for (size_t i = 0; i < sizeof px / sizeof px[0]; i++) check_pixel(r, &im, px[i][0], px[i][1]);

    /* the scene pixel, twice: the same events at the same calls */
    const uint64_t P = SCENE_CAPTURE_PREFIX;
    const uint64_t calls[] = { P + 1, P + 3, P + 4, P + 6, P + 8, P + 10, P + 12, P + 12 };
    const ws_gfx_probe_event events[] = { WS_GFX_PROBE_CLEAR, WS_GFX_PROBE_WRITTEN, WS_GFX_PROBE_EARLY_Z_FAILED,
                                          WS_GFX_PROBE_WRITTEN, WS_GFX_PROBE_DISCARDED, WS_GFX_PROBE_DEPTH_FAILED,
                                          WS_GFX_PROBE_WRITTEN, WS_GFX_PROBE_WRITTEN };
    for (int pass = 0; pass < 2; pass++) {
        ws_pixel_history h;
        CHECK(ws_replay_pixel_collect(r, SCENE_PX, SCENE_PY, WS_REPLAY_LAST_TARGET, &h, err, sizeof err) == WS_OK);
        CHECK_EQ_U(h.n, 8);
        for (size_t i = 0; i < h.n && i < 8; i++) {
            CHECK_EQ_U(h.ev[i].call, calls[i]);
            CHECK_EQ_U(h.ev[i].rec.event, events[i]);
        }
        /* the target is created inside the frame: the start is read from
         * the first record (it did not exist when the frame began) */
        CHECK(!memcmp(h.initial, "\0\0\0\0", 4));
        ws_pixel_history_free(&h);
    }
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    CHECK(f && ws_replay_pixel_history(r, SCENE_PX, SCENE_PY, f, err, sizeof err) == WS_OK);
    fclose(f);
    CHECK_STR_CONTAINS(text, "8 events in 7 calls");
    CHECK_STR_CONTAINS(text, "-> failed the early depth test");
    printf("%s", text);
    free(text);

    /* element history: the htod and the dtod, not the memset beside them */
    ws_element_history eh;
    CHECK(ws_replay_element_collect(r, SCENE_CAPTURE_BUF + 8, 8, &eh, err, sizeof err) == WS_OK);
    /* the prefix's malloc makes it readable (zeros), its htod fills it, then the frame's two copies */
    CHECK_EQ_U(eh.n, 4);
    if (eh.n == 4) {
        CHECK(!eh.readable_initial && !eh.ch[0].readable_before && eh.ch[0].readable_after);
        CHECK(eh.ch[1].readable_before && eh.ch[1].after[0] == 8 && eh.ch[1].after[7] == 15);
        CHECK_EQ_U(eh.ch[2].call, P + 14);
        CHECK(eh.ch[2].after[0] == 0xa0);
        CHECK_EQ_U(eh.ch[3].call, P + 16);
        CHECK(eh.ch[3].after[0] == 0x5e);
    }
    ws_element_history_free(&eh);

    /* the report, with the replayer's texts and state */
    CHECK(ws_replay_html(r, dir, NULL, err, sizeof err) == WS_OK);
    snprintf(path, sizeof path, "%s/index.html", dir);
    size_t plen;
    char *page = (char *)ws_test_read_file(path, &plen);
    CHECK(page != NULL);
    if (page) {
        char *z = realloc(page, plen + 1);
        if (z) { page = z; page[plen] = 0; }
        CHECK_STR_CONTAINS(page, "Pixel (16, 16): history");
        CHECK_STR_CONTAINS(page, "ws_gfx_draw");
        CHECK_STR_CONTAINS(page, "discard_fs");
        free(page);
    }
    if (ws_test_failed) fprintf(stderr, "%s\n", err);
    free(im.rgba);
    free(im.have);
    ws_replay_close(r);
    return TEST_SUMMARY();
}
