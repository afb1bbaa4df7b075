/* The replay modes built on other parts of the capture folder: pixel and
 * element history (src/capture/replay_pixel.h), the mesh view
 * (replay_mesh.h), the frame report
 * (replay_html.h) and the frame debugger (replay_debug.h). */
#include <stdio.h>
#include <string.h>
#include "capture/replay_debug.h"
#include "capture/replay_html.h"
#include "capture/replay_mesh.h"
#include "capture/replay_pixel.h"
#include "replay_modes.h"

/* Exit statuses: 2 when the command line alone is wrong (an option's value
 * that does not parse), 1 when the capture has no such thing (no such
 * call, a call that is not a draw, a pixel outside the target) or the
 * replay fails (docs/capture-replay.md, "Exit status"). */
enum { REPLAY_EXIT_FAILED = 1, REPLAY_EXIT_USAGE = 2 };

/* Say err (with the capture's name: a script may replay several) and
 * return status. */
static int say_failure(const replay_request *q, int status, const char *err)
{
    /* (a failure at a captured call names the file already) */
    if (strstr(err, q->path)) fprintf(stderr, "warpscope replay: %s\n", err);
    else fprintf(stderr, "warpscope replay: %s: %s\n", q->path, err);
    return status;
}

static int mode_done(const replay_request *q, ws_status st, const char *err)
{
    return st == WS_OK ? 0 : say_failure(q, REPLAY_EXIT_FAILED, err);
}

int replay_modes_run(ws_replay *r, const replay_request *q)
{
    char err[1024];
    ws_status st;
    uint32_t x = 0, y = 0;
    if (q->pixel && (st = ws_replay_parse_pixel(q->pixel, &x, &y, err, sizeof err)) != WS_OK)
        return say_failure(q, REPLAY_EXIT_USAGE, err);
    if (q->html) {
        ws_replay_html_options o = { .pixel_set = q->pixel != NULL, .pixel_x = x, .pixel_y = y };
        if ((st = ws_replay_html(r, q->html, &o, err, sizeof err)) != WS_OK) return mode_done(q, st, err);
        printf("wrote %s/index.html\n", q->html);
        return 0;
    }
    if (q->pixel) {
        return mode_done(q, ws_replay_pixel_history(r, x, y, stdout, err, sizeof err), err);
    }
    if (q->element) {
        ws_addr addr;
        uint32_t size;
        if ((st = ws_replay_parse_element(q->element, &addr, &size, err, sizeof err)) != WS_OK)
            return say_failure(q, REPLAY_EXIT_USAGE, err);
        return mode_done(q, ws_replay_element_history(r, addr, size, stdout, err, sizeof err), err);
    }
    if (q->mesh) {
        uint64_t call, rows;
        if ((st = ws_replay_parse_mesh(q->mesh, &call, &rows, err, sizeof err)) != WS_OK)
            return say_failure(q, REPLAY_EXIT_USAGE, err);
        return mode_done(q, ws_replay_mesh(r, call, rows, stdout, err, sizeof err), err);
    }
    /* (its settings are parsed there: a refused one is a usage error) */
    st = ws_replay_debug_serve(r, q->debug, err, sizeof err);
    return st == WS_OK ? 0 : say_failure(q, st == WS_ERR_INVALID_ARG ? REPLAY_EXIT_USAGE : REPLAY_EXIT_FAILED, err);
}
