/* Pixel history, element history and the report on the replayer
 * (src/capture/replay_*.c): the test frame is written as a capture file
 * (pixel_scene.c) and opened with ws_replay_open. The check of issue 12:
 * the pixel history equals what the image shows after each clear and draw,
 * at several pixels, with the events the frame was built for at the calls
 * that made them, in two runs (restore puts the frame's start back); the
 * printed form; a target named by a call; the element history lists the
 * calls that changed the bytes (not the memset beside them) and prints
 * them; the report carries the replayer's call texts and state; timing
 * mode gives the same history; bad input is refused with a message.
 * usage: test_pixel_capture gfx_shaders.elf WORKDIR */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "../test.h"
#include "capture/capture_calls.h"
#include "capture/replay_html.h"
#include "capture/replay_mesh.h"
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

/* A copy of capture `from` whose frame allocates its buffer outside the
 * device's memory (the address of the ws_malloc call that makes
 * SCENE_CAPTURE_BUF becomes 0x10): its replay fails at that call.
 * Returns 0 on success. */
static int write_failing_capture(const char *from, const char *to, char *err, size_t errlen)
{
    ws_capture_reader *rd = NULL;
    ws_capture_writer *w = NULL;
    if (ws_capture_reader_open(from, &rd, err, errlen) != WS_OK) return -1;
    if (ws_capture_writer_open(to, &w, err, errlen) != WS_OK) { ws_capture_reader_close(rd); return -1; }
    ws_capture_section sec;
    int changed = 0;
    while (ws_capture_reader_next(rd, &sec) == WS_OK) {
        uint8_t buf[16];
        const void *data = sec.data;
        uint32_t kind, addr;
        if (sec.type == WS_CAPTURE_API_CALL && sec.size == 16) { /* u32 WSCAP_MALLOC, u64 size, u32 address */
            memcpy(&kind, sec.data, 4);
            memcpy(&addr, (const uint8_t *)sec.data + 12, 4);
            if (kind == WSCAP_MALLOC && addr == SCENE_CAPTURE_BUF) {
                memcpy(buf, sec.data, 16);
                addr = 0x10;
                memcpy(buf + 12, &addr, 4);
                data = buf;
                changed++;
            }
        }
        if (ws_capture_writer_add_flags(w, sec.type, sec.flags, sec.id, data, sec.size) != WS_OK) break;
    }
    ws_capture_reader_close(rd);
    if (ws_capture_writer_close(w) != WS_OK) return -1;
    return changed == 1 ? 0 : -1;
}

/* A replay that fails at one of the capture's own calls is the capture's
 * failure, never the user's argument: the tools do not return
 * WS_ERR_INVALID_ARG for it (warpscope replay's usage error, exit status
 * 2, before 2026-11-28), and name the call. */
static void check_failing_call(const char *good, const char *bad_path, const char *report_dir)
{
    char err[512] = "";
    ws_replay *r = NULL;
    CHECK(write_failing_capture(good, bad_path, err, sizeof err) == 0);
    CHECK(ws_replay_open(bad_path, NULL, &r, err, sizeof err) == WS_OK);
    if (!r) { printf("%s\n", err); return; }
    ws_pixel_history h;
    ws_status st = ws_replay_pixel_collect(r, SCENE_PX, SCENE_PY, WS_REPLAY_LAST_TARGET, &h, err, sizeof err);
    CHECK(st != WS_OK && st != WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "ws_malloc");
    ws_element_history eh;
    st = ws_replay_element_collect(r, SCENE_CAPTURE_BUF, 4, &eh, err, sizeof err);
    CHECK(st != WS_OK && st != WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "ws_malloc");
    st = ws_replay_html(r, report_dir, NULL, err, sizeof err);
    CHECK(st != WS_OK && st != WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "ws_malloc");
    uint64_t draw = 0;
    struct ws_replay_call_info ci;
    while (draw < ws_replay_call_count(r) && ws_replay_describe_call(r, draw, &ci) == WS_OK &&
           ci.kind != WS_REPLAY_CALL_DRAW)
        draw++;
    ws_mesh_view mv;
    st = ws_replay_mesh_collect(r, draw, &mv, err, sizeof err);
    CHECK(st != WS_OK && st != WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "ws_malloc");
    if (st == WS_OK) ws_mesh_view_free(&mv);
    ws_replay_close(r);
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: test_pixel_capture gfx_shaders.elf WORKDIR\n"); return 2; }
    char path[4200], dir[4096], err[512];
    mkdir(argv[2], 0777);
    snprintf(path, sizeof path, "%s/scene.wscap", argv[2]);
    snprintf(dir, sizeof dir, "%.4000s/report", argv[2]);
    if (scene_write_capture(path, argv[1], err, sizeof err)) { fprintf(stderr, "%s\n", err); return 1; }
    char path0[4200];
    snprintf(path0, sizeof path0, "%s", path);
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
    CHECK_STR_CONTAINS(text, "pixel (10,12) of render target 10 (32x32): 8 events in 7 calls");
    CHECK_STR_CONTAINS(text, "frame start: colour (  0   0   0   0)   depth 1 (the target was created during the frame)");
    CHECK_STR_CONTAINS(text, "call 20 ws_gfx_draw(3 vertices, 1 instances, first 3, first instance 0) draw 1   [ref_fs]");
    CHECK_STR_CONTAINS(text, "not shaded\n      depth 0.800000012 < 0.5: fail  -> failed the early depth test");
    CHECK_STR_CONTAINS(text, "shader discarded it\n      depth 0.25 < 0.5: pass  -> discarded");
    CHECK_STR_CONTAINS(text, "== 0.5: fail  -> failed the depth test");
    CHECK_STR_CONTAINS(text, "shader out (1, 0, 0, 1)");
    const uint8_t *fin = im.rgba[P + 13] + ((size_t)SCENE_PY * SCENE_W + SCENE_PX) * 4; /* after the last draw */
    char want[64];
    snprintf(want, sizeof want, "frame end: colour (%3u %3u %3u %3u)", fin[0], fin[1], fin[2], fin[3]);
    CHECK_STR_CONTAINS(text, want);
    CHECK(strstr(text, "call 29") == NULL); /* the corner draw did not touch it */
    free(text);

    /* the call list tells pipelines apart by the state that is not the
     * default (it showed only the shaders: pipelines 5 and 6 read alike) */
    struct ws_replay_call_info pc;
    CHECK(ws_replay_describe_call(r, 4, &pc) == WS_OK);
    CHECK_STR_CONTAINS(pc.text, "ws_gfx_pipeline_create(vs ref_vs, fs ref_fs, depth less write) = pipeline 5");
    CHECK(ws_replay_describe_call(r, 5, &pc) == WS_OK);
    CHECK_STR_CONTAINS(pc.text, "ws_gfx_pipeline_create(vs ref_vs, fs ref_fs, depth less, blend alpha) = pipeline 6");
    CHECK(ws_replay_describe_call(r, 8, &pc) == WS_OK);
    CHECK_STR_CONTAINS(pc.text, "ws_gfx_pipeline_create(vs ref_vs, fs ref_fs, blend additive) = pipeline 9");

    /* why no shader runs at the pixel in a draw (monitor debug-pixel's
     * note): draw 1's fragment loses the early depth test, draw 6 does
     * not cover it, draw 0 shades it, and some draw does */
    char why[512];
    int unshaded = -1;
    CHECK(ws_replay_pixel_unshaded(r, SCENE_PX, SCENE_PY, 1, &unshaded, why, sizeof why, err, sizeof err) == WS_OK);
    CHECK(unshaded == 1);
    CHECK_STR_CONTAINS(why, "no fragment shader runs at pixel (10,12) in draw 1: its fragment (primitive 0) failed the "
                            "early depth test, so its shader never ran: depth 0.800000012 < 0.5");
    CHECK(ws_replay_pixel_unshaded(r, SCENE_PX, SCENE_PY, 6, &unshaded, why, sizeof why, err, sizeof err) == WS_OK);
    CHECK(unshaded == 1);
    CHECK_STR_CONTAINS(why, "in draw 6: no primitive of it covers the pixel");
    CHECK(ws_replay_pixel_unshaded(r, SCENE_PX, SCENE_PY, 0, &unshaded, why, sizeof why, err, sizeof err) == WS_OK);
    CHECK(unshaded == 0 && !why[0]);
    CHECK(ws_replay_pixel_unshaded(r, SCENE_PX, SCENE_PY, UINT32_MAX, &unshaded, why, sizeof why, err, sizeof err) ==
          WS_OK);
    CHECK(unshaded == 0);

    /* the target named by a call: the same history; refusals */
    ws_pixel_history h2;
    CHECK(ws_replay_pixel_collect(r, SCENE_PX, SCENE_PY, P + 3, &h2, err, sizeof err) == WS_OK);
    CHECK(h2.n == 8 && h2.ev[7].call == P + 12);
    ws_pixel_history_free(&h2);
    CHECK(ws_replay_pixel_collect(r, SCENE_PX, SCENE_PY, 999, &h2, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "no call 999 (the frame has 34)");
    CHECK(ws_replay_pixel_collect(r, SCENE_PX, SCENE_PY, 2, &h2, err, sizeof err) == WS_ERR_NOT_FOUND);
    CHECK_STR_CONTAINS(err, "no render target is bound at call 2");
    CHECK(ws_replay_pixel_collect(r, 40, 3, WS_REPLAY_LAST_TARGET, &h2, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "pixel (40,3) is outside the 32x32 render target");
    uint32_t x, y;
    CHECK(ws_replay_parse_pixel("12,7", &x, &y, err, sizeof err) == WS_OK && x == 12 && y == 7);
    CHECK(ws_replay_parse_pixel("0,8191", &x, &y, err, sizeof err) == WS_OK && x == 0 && y == 8191);
    /* each refusal says what is wrong with the text given (a bad format
     * read "expected X,Y with each below 8192", as if a value were too large) */
    static const char *const bad[][2] = {
        { "", "--pixel: expected X,Y (pixels from the top left), got \"\"" },
        { "12", "--pixel: expected X,Y (pixels from the top left), got \"12\"" },
        { "12,", "--pixel: Y is missing in \"12,\" (expected X,Y)" },
        { ",3", "--pixel: X is missing in \",3\" (expected X,Y)" },
        { "-1,2", "--pixel: X \"-1\" in \"-1,2\" is not a whole number" },
        { "3,-2", "--pixel: Y \"-2\" in \"3,-2\" is not a whole number" },
        { "1,2,3", "--pixel: expected X,Y, two numbers, got 3 in \"1,2,3\"" },
        { "3,4x", "--pixel: Y \"4x\" in \"3,4x\" is not a whole number" },
        { " 3,4", "--pixel: X \" 3\" in \" 3,4\" is not a whole number" },
        { "+3,4", "--pixel: X \"+3\" in \"+3,4\" is not a whole number" },
        { "99999,1", "--pixel: X 99999 in \"99999,1\" is not below 8192 (the largest render target's side)" },
        { "1,8192", "--pixel: Y 8192 in \"1,8192\" is not below 8192 (the largest render target's side)" },
        { "1,99999999999999999999999", "--pixel: Y 99999999999999999999999 in \"1,99999999999999999999999\" is not "
                                       "below 8192 (the largest render target's side)" },
        { "a,b", "--pixel: X \"a\" in \"a,b\" is not a whole number" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        err[0] = 0;
        CHECK(ws_replay_parse_pixel(bad[i][0], &x, &y, err, sizeof err) == WS_ERR_INVALID_ARG);
        if (strcmp(err, bad[i][1])) fprintf(stderr, "--pixel %s: got '%s', expected '%s'\n", bad[i][0], err, bad[i][1]);
        CHECK(!strcmp(err, bad[i][1]));
    }

    /* element history: the htod and the dtod, not the memset beside them */
    ws_element_history eh;
    CHECK(ws_replay_element_collect(r, SCENE_CAPTURE_BUF + 8, 8, &eh, err, sizeof err) == WS_OK);
    /* the prefix's malloc makes it readable (zeros), its htod fills it, then the frame's two copies */
    CHECK_EQ_U(eh.n, 4);
    if (eh.n == 4) {
        CHECK(!ws_element_readable(eh.held_initial, 8) && !ws_element_readable(eh.ch[0].held_before, 8) && ws_element_readable(eh.ch[0].held_after, 8));
        CHECK(ws_element_readable(eh.ch[1].held_before, 8) && eh.ch[1].after[0] == 8 && eh.ch[1].after[7] == 15);
        CHECK_EQ_U(eh.ch[2].call, P + 14);
        CHECK(eh.ch[2].after[0] == 0xa0);
        CHECK_EQ_U(eh.ch[3].call, P + 16);
        CHECK(eh.ch[3].after[0] == 0x5e);
    }
    text = NULL;
    f = open_memstream(&text, &len);
    CHECK(f && ws_replay_element_print(r, &eh, f, err, sizeof err) == WS_OK);
    fclose(f);
    CHECK_STR_CONTAINS(text, "changed by 4 calls");
    CHECK_STR_CONTAINS(text, "call 30 ws_memcpy_htod(0x01201008, <8 bytes>)");
    CHECK_STR_CONTAINS(text, "    old 08 09 0a 0b 0c 0d 0e 0f  = 1084818905618843912");
    CHECK_STR_CONTAINS(text, "    new a0 a1 a2 a3 a4 a5 a6 a7  = 12080525177006498208");
    CHECK_STR_CONTAINS(text, "old (no allocation)");
    free(text);
    ws_element_history_free(&eh);
    /* 4 bytes print as numbers too; the memset is what changes them */
    CHECK(ws_replay_element_collect(r, SCENE_CAPTURE_BUF + 32, 4, &eh, err, sizeof err) == WS_OK);
    CHECK(eh.n == 3 && eh.ch[2].call == P + 15);
    text = NULL;
    f = open_memstream(&text, &len);
    CHECK(f && ws_replay_element_print(r, &eh, f, err, sizeof err) == WS_OK);
    fclose(f);
    CHECK_STR_CONTAINS(text, "new 5e 5e 5e 5e  = 1583242846 = 1583242846 = 4.00583697e+18");
    free(text);
    ws_element_history_free(&eh);
    /* an element running past the allocation's end: the bytes inside it
     * are still watched (it was "(no allocation)" and changed by 0 calls,
     * before 2026-11-28); the bytes outside print as "--" */
    CHECK(ws_replay_element_collect(r, SCENE_CAPTURE_BUF + SCENE_BUF_BYTES - 24, 32, &eh, err, sizeof err) == WS_OK);
    CHECK_EQ_U(eh.n, 3); /* the prefix's malloc and htod, the frame's memset */
    if (eh.n == 3) {
        CHECK(!ws_element_readable(eh.held_initial, 32) && ws_element_readable(eh.ch[0].held_after, 32));
        CHECK(eh.ch[0].held_after[23] && !eh.ch[0].held_after[24] && !eh.ch[0].held_after[31]);
        CHECK_EQ_U(eh.ch[1].after[0], SCENE_BUF_BYTES - 24);
        CHECK_EQ_U(eh.ch[2].call, P + 15);
        CHECK(eh.ch[2].after[0] == 0x5e && eh.ch[2].after[7] == 0x5e && eh.ch[2].after[8] == SCENE_BUF_BYTES - 16);
    }
    text = NULL;
    f = open_memstream(&text, &len);
    CHECK(f && ws_replay_element_print(r, &eh, f, err, sizeof err) == WS_OK);
    fclose(f);
    CHECK_STR_CONTAINS(text, "changed by 3 calls");
    CHECK_STR_CONTAINS(text, "new 5e 5e 5e 5e 5e 5e 5e 5e 30 31 32 33 34 35 36 37\n        38 39 3a 3b 3c 3d 3e 3f -- -- -- -- -- -- -- --\n");
    free(text);
    ws_element_history_free(&eh);
    CHECK(ws_replay_element_collect(r, 0, 4, &eh, err, sizeof err) == WS_OK); /* the null page */
    CHECK(!ws_element_readable(eh.held_initial, 4) && eh.n == 0);
    ws_element_history_free(&eh);
    /* a history is read from its arrays alone: one made by hand (as a
     * tool that loads a saved history would) prints the bytes its held
     * array says an allocation held (a separate readable flag, left 0
     * here, printed "(no allocation)") */
    {
        uint8_t bytes[4] = { 1, 2, 3, 4 }, held[4] = { 1, 1, 1, 0 };
        ws_element_history hand;
        memset(&hand, 0, sizeof hand);
        hand.addr = SCENE_CAPTURE_BUF;
        hand.size = 4;
        hand.initial = bytes;
        hand.held_initial = held;
        text = NULL;
        f = open_memstream(&text, &len);
        CHECK(f && ws_replay_element_print(r, &hand, f, err, sizeof err) == WS_OK);
        fclose(f);
        CHECK_STR_CONTAINS(text, "frame start: 01 02 03 --\n");
        free(text);
    }
    ws_addr a;
    uint32_t size;
    CHECK(ws_replay_parse_element("0x10000040", &a, &size, err, sizeof err) == WS_OK && a == 0x10000040 && size == 4);
    CHECK(ws_replay_parse_element("4096:16", &a, &size, err, sizeof err) == WS_OK && a == 4096 && size == 16);
    const char *bad_el[] = { "", "x", "0x10:", "0x10:0", "0x10:99999", "0xffffffff:8", "0x1000000000", "-4", "16:4:4" };
    for (size_t i = 0; i < sizeof bad_el / sizeof bad_el[0]; i++)
        CHECK(ws_replay_parse_element(bad_el[i], &a, &size, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "--element");
    CHECK(ws_replay_element_collect(r, 0, 0, &eh, err, sizeof err) == WS_ERR_INVALID_ARG);

    /* the report, with the replayer's texts and state */
    CHECK(ws_replay_html(r, dir, NULL, err, sizeof err) == WS_OK);
    snprintf(path, sizeof path, "%s/index.html", dir);
    size_t plen;
    char *page = (char *)ws_test_read_file(path, &plen);
    CHECK(page != NULL);
    if (page) {
        char *z = realloc(page, plen + 1);
        if (z) { page = z; page[plen] = 0; }
        CHECK_STR_CONTAINS(page, "Pixel (16, 16) of target 10: history");
        CHECK_STR_CONTAINS(page, "ws_gfx_draw");
        CHECK_STR_CONTAINS(page, "discard_fs");
        free(page);
    }
    /* timing mode computes the same frame: the same history, record for record */
    ws_replay *rt;
    ws_replay_options topt = { .config = "mode=timing" };
    CHECK(ws_replay_open(path0, &topt, &rt, err, sizeof err) == WS_OK);
    if (rt) {
        ws_pixel_history hf, ht;
        CHECK(ws_replay_pixel_collect(r, SCENE_PX, SCENE_PY, WS_REPLAY_LAST_TARGET, &hf, err, sizeof err) == WS_OK);
        CHECK(ws_replay_pixel_collect(rt, SCENE_PX, SCENE_PY, WS_REPLAY_LAST_TARGET, &ht, err, sizeof err) == WS_OK);
        CHECK(hf.n == 8 && ht.n == hf.n);
        for (size_t i = 0; i < hf.n && i < ht.n; i++) {
            CHECK_EQ_U(ht.ev[i].call, hf.ev[i].call);
            const ws_gfx_probe_rec *a = &hf.ev[i].rec, *b = &ht.ev[i].rec; /* draw ids count since the device opened */
            CHECK(a->event == b->event && a->command == b->command && a->prim == b->prim && a->front == b->front &&
                  a->shaded == b->shaded && !memcmp(a->color, b->color, sizeof a->color) && a->depth == b->depth &&
                  a->depth_test == b->depth_test && a->depth_compare == b->depth_compare &&
                  a->depth_before == b->depth_before && a->depth_after == b->depth_after &&
                  !memcmp(a->before, b->before, 4) && !memcmp(a->after, b->after, 4));
        }
        ws_pixel_history_free(&hf);
        ws_pixel_history_free(&ht);
        ws_replay_close(rt);
    }
    char bad_path[4200];
    snprintf(bad_path, sizeof bad_path, "%.4000s/failing_call.wscap", argv[2]);
    char bad_report[4200];
    snprintf(bad_report, sizeof bad_report, "%.4000s/failing_report", argv[2]);
    check_failing_call(path0, bad_path, bad_report);
    if (ws_test_failed) fprintf(stderr, "%s\n", err);
    free(im.rgba);
    free(im.have);
    ws_replay_close(r);
    return TEST_SUMMARY();
}
