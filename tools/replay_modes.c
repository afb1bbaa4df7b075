/* The replay modes built on other parts of the capture folder: pixel and
 * element history (src/capture/replay_pixel.h), the mesh view
 * (replay_mesh.h), the frame report
 * (replay_html.h) and the frame debugger (replay_debug.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include "capture/replay_debug.h"
#include "capture/replay_html.h"
#include "capture/replay_mesh.h"
#include "capture/replay_json.h"
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


static ws_status pixel_text(ws_replay *r, const void *h, FILE *f, char *e, size_t n) { return ws_replay_pixel_print(r, h, f, e, n); }
static ws_status pixel_json(ws_replay *r, const void *h, FILE *f, char *e, size_t n) { return ws_replay_pixel_json(r, h, f, e, n); }
static ws_status element_text(ws_replay *r, const void *h, FILE *f, char *e, size_t n) { return ws_replay_element_print(r, h, f, e, n); }
static ws_status element_json(ws_replay *r, const void *h, FILE *f, char *e, size_t n) { return ws_replay_element_json(r, h, f, e, n); }

ws_status replay_json_out(const replay_request *q, ws_replay *r, const void *what, replay_writer json, char *err,
                          size_t errlen)
{
    if (!strcmp(q->json, "-")) return json(r, what, stdout, err, errlen);
    FILE *f = fopen(q->json, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", q->json, strerror(errno));
        return WS_ERR_IO;
    }
    ws_status st = json(r, what, f, err, errlen);
    if (fclose(f) && st == WS_OK) {
        snprintf(err, errlen, "writing %s failed: %s", q->json, strerror(errno));
        st = WS_ERR_IO;
    }
    return st;
}

/* The mesh view and how many of its rows to write. */
typedef struct mesh_rows {
    const ws_mesh_view *v;
    uint64_t rows;
} mesh_rows;
static ws_status mesh_text(ws_replay *r, const void *m, FILE *f, char *e, size_t n)
{
    (void)r, (void)e, (void)n;
    const mesh_rows *mr = m;
    ws_replay_mesh_print(mr->v, mr->rows, f);
    return ferror(f) ? WS_ERR_IO : WS_OK;
}
static ws_status mesh_json(ws_replay *r, const void *m, FILE *f, char *e, size_t n)
{
    (void)r;
    const mesh_rows *mr = m;
    return ws_replay_mesh_json(mr->v, mr->rows, f, e, n);
}

/* The history as text on standard output, and as JSON when asked (on
 * standard output instead of the text for "-"). */
static ws_status history_out(const replay_request *q, ws_replay *r, const void *h, replay_writer text,
                             replay_writer json, char *err, size_t errlen)
{
    if (q->json && !strcmp(q->json, "-")) return replay_json_out(q, r, h, json, err, errlen);
    ws_status st = text(r, h, stdout, err, errlen);
    return st != WS_OK || !q->json ? st : replay_json_out(q, r, h, json, err, errlen);
}

int replay_modes_run(ws_replay *r, const replay_request *q)
{
    char err[1024];
    ws_status st;
    uint32_t x = 0, y = 0;
    if (q->pixel && (st = ws_replay_parse_pixel(q->pixel, &x, &y, err, sizeof err)) != WS_OK)
        return say_failure(q, REPLAY_EXIT_USAGE, err);
    uint64_t at = WS_REPLAY_LAST_TARGET; /* the call whose bound target the pixel is of */
    if (q->target && (st = ws_replay_target_call(r, q->target, &at, err, sizeof err)) != WS_OK)
        return mode_done(q, st, err);
    if (q->html) {
        ws_replay_html_options o = { .pixel_set = q->pixel != NULL, .pixel_x = x, .pixel_y = y,
                                       .target_set = q->target != 0, .target_call = at };
        if ((st = ws_replay_html(r, q->html, &o, err, sizeof err)) != WS_OK) return mode_done(q, st, err);
        printf("wrote %s/index.html\n", q->html);
        return 0;
    }
    if (q->pixel) {
        ws_pixel_history h;
        if ((st = ws_replay_pixel_collect(r, x, y, at, &h, err, sizeof err)) != WS_OK)
            return mode_done(q, st, err);
        st = history_out(q, r, &h, pixel_text, pixel_json, err, sizeof err);
        ws_pixel_history_free(&h);
        return mode_done(q, st, err);
    }
    if (q->element) {
        ws_addr addr;
        uint32_t size;
        ws_element_history h;
        if ((st = ws_replay_parse_element(q->element, &addr, &size, err, sizeof err)) != WS_OK)
            return say_failure(q, REPLAY_EXIT_USAGE, err);
        if ((st = ws_replay_element_collect(r, addr, size, &h, err, sizeof err)) != WS_OK) return mode_done(q, st, err);
        st = history_out(q, r, &h, element_text, element_json, err, sizeof err);
        ws_element_history_free(&h);
        return mode_done(q, st, err);
    }
    if (q->mesh) {
        uint64_t call, rows;
        if ((st = ws_replay_parse_mesh(q->mesh, &call, &rows, err, sizeof err)) != WS_OK)
            return say_failure(q, REPLAY_EXIT_USAGE, err);
        if (!q->json) return mode_done(q, ws_replay_mesh(r, call, rows, stdout, err, sizeof err), err);
        ws_mesh_view v;
        if ((st = ws_replay_mesh_collect(r, call, &v, err, sizeof err)) != WS_OK) return mode_done(q, st, err);
        mesh_rows mr = { &v, rows };
        st = history_out(q, r, &mr, mesh_text, mesh_json, err, sizeof err);
        ws_mesh_view_free(&v);
        return mode_done(q, st, err);
    }
    /* (its settings are parsed there: a refused one is a usage error) */
    st = ws_replay_debug_serve(r, q->debug, err, sizeof err);
    return st == WS_OK ? 0 : say_failure(q, st == WS_ERR_INVALID_ARG ? REPLAY_EXIT_USAGE : REPLAY_EXIT_FAILED, err);
}
