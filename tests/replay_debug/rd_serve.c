/* Test driver for the frame debugger on a capture a program made
 * (`warpscope capture`): replays it once and writes the colour of one
 * pixel of its first render target (what gdb must find the fragment
 * shader returning there), serves gdb with ws_replay_debug_serve, then
 * checks that the frame still replays to its captured digest (or, in a
 * capture that records none, to the digest of the replay before gdb).
 *   rd_serve CAPTURE X Y PIXEL-FILE SPEC */
#include <stdint.h>
#include <stdlib.h>
#include "../test.h"
#include "capture/replayer.h"
#include "capture/replay_debug.h"

int main(int argc, char **argv)
{
    if (argc != 6) { fprintf(stderr, "usage: rd_serve CAPTURE X Y PIXEL-FILE SPEC\n"); return 2; }
    uint32_t x = (uint32_t)atoi(argv[2]), y = (uint32_t)atoi(argv[3]);
    ws_replay *r = NULL;
    char err[1024];
    CHECK(ws_replay_open(argv[1], NULL, &r, err, sizeof err) == WS_OK);
    if (!r) { fprintf(stderr, "%s\n", err); return TEST_SUMMARY(); }
    uint64_t want = 0, got = 0;
    CHECK(ws_replay_captured_hash(r, &want) == WS_OK);
    CHECK(ws_replay_run(r, 0, UINT64_MAX, NULL, NULL) == WS_OK);
    /* a capture written with the codec (the pixel-history test frame)
     * records no digest (0): the replay before gdb gives it */
    if (!want) CHECK(ws_replay_hash(r, &want) == WS_OK);
    ws_gfx_target *t = NULL;
    size_t n = 0;
    uint32_t w = 0, h = 0;
    CHECK(ws_replay_targets(r, &t, NULL, 1, &n) == WS_OK && n >= 1 && t);
    if (t && ws_gfx_target_size(t, &w, &h) == WS_OK && x < w && y < h) {
        uint8_t *px = malloc((size_t)w * h * 4);
        CHECK(px && ws_gfx_target_read(ws_replay_device(r), t, px, (size_t)w * h * 4) == WS_OK);
        FILE *f = fopen(argv[4], "w");
        CHECK(f != NULL);
        if (f && px) {
            const uint8_t *p = px + ((size_t)y * w + x) * 4;
            fprintf(f, "%u %u %u %u\n", p[0], p[1], p[2], p[3]);
            fclose(f);
        }
        free(px);
    } else {
        CHECK(0);
    }
    ws_status st = ws_replay_debug_serve(r, argv[5], err, sizeof err);
    if (st) fprintf(stderr, "serve: %s\n", err);
    CHECK(st == WS_OK);
    CHECK(ws_replay_restore(r) == WS_OK);
    CHECK(ws_replay_run(r, 0, UINT64_MAX, NULL, NULL) == WS_OK);
    CHECK(ws_replay_hash(r, &got) == WS_OK);
    CHECK_EQ_U(got, want);
    ws_replay_close(r);
    return TEST_SUMMARY();
}
