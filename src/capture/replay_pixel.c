/* Pixel history (replay_pixel.h): the frame run once with the graphics
 * pipeline's pixel probe armed, each clear's and draw's records taken as
 * soon as the call has run (the device is synchronised after it), so every
 * record belongs to exactly one call. */
#include "capture/replay_pixel.h"
#include "capture/replay_tool.h"
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/* One coordinate of --pixel text, the len bytes at s: decimal digits only
 * (no sign, space or suffix), below WS_GFX_MAX_SIZE; what is wrong with it
 * is said of the text given. */
static ws_status pixel_coordinate(const char *text, const char *s, size_t len, const char *which, uint32_t *out,
                                  char *err, size_t errlen)
{
    if (!len) return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "--pixel: %s is missing in \"%s\" (expected X,Y)", which, text);
    unsigned long v = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] < '0' || s[i] > '9')
            return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "--pixel: %s \"%.*s\" in \"%s\" is not a whole number",
                           which, (int)len, s, text);
        if (v < WS_GFX_MAX_SIZE) v = v * 10 + (unsigned long)(s[i] - '0'); /* (stops growing once too large) */
    }
    if (v >= WS_GFX_MAX_SIZE)
        return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "--pixel: %s %.*s in \"%s\" is not below %u (the largest "
                       "render target's side)", which, (int)len, s, text, WS_GFX_MAX_SIZE);
    *out = (uint32_t)v;
    return WS_OK;
}

ws_status ws_replay_parse_pixel(const char *text, uint32_t *x, uint32_t *y, char *err, size_t errlen)
{
    const char *comma = text ? strchr(text, ',') : NULL;
    if (!comma)
        return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "--pixel: expected X,Y (pixels from the top left), got \"%s\"",
                       text ? text : "");
    unsigned parts = 1;
    for (const char *c = text; *c; c++) parts += *c == ',';
    if (parts > 2) /* (it read "expected X,Y with each below 8192", as if a value were too large) */
        return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "--pixel: expected X,Y, two numbers, got %u in \"%s\"", parts,
                       text);
    uint32_t a, b;
    ws_status st = pixel_coordinate(text, text, (size_t)(comma - text), "X", &a, err, errlen);
    if (st == WS_OK) st = pixel_coordinate(text, comma + 1, strlen(comma + 1), "Y", &b, err, errlen);
    if (st != WS_OK) return st;
    *x = a;
    *y = b;
    return WS_OK;
}

void ws_pixel_history_free(ws_pixel_history *h)
{
    if (!h) return;
    free(h->ev);
    memset(h, 0, sizeof *h);
}

typedef struct pix_run {
    ws_pixel_history *h;
    ws_device *dev;
    size_t cap;
    uint64_t target_call;         /* whose target; UINT64_MAX: the last     */
    ws_gfx_target *target;        /* the target bound at that call (this run) */
    uint32_t target_id;           /* and its capture id                      */
    uint32_t tw, th;              /* and its size                            */
    ws_status st;
    char *err;
    size_t errlen;
} pix_run;

static int after_call(void *user, ws_replay *r, uint64_t index)
{
    pix_run *p = user;
    struct ws_replay_call_info ci;
    if (ws_replay_describe_call(r, index, &ci) != WS_OK) {
        p->st = rt_fail(p->err, p->errlen, WS_ERR_INTERNAL, "pixel history: %s", ws_replay_error(r));
        return 1;
    }
    if (ci.kind != WS_REPLAY_CALL_DRAW && ci.kind != WS_REPLAY_CALL_CLEAR) return 0;
    const ws_gfx_probe_rec *rec;
    size_t n;
    /* run the call now, so the records so far are all its own */
    ws_status sync = ws_replay_wait(r);
    if (sync != WS_OK && ws_replay_frame_failure(sync)) /* its records up to the fault are kept below */
        snprintf(p->h->failure, sizeof p->h->failure, "call %" PRIu64 " %s: %s", index, ci.name, ws_last_error(p->dev));
    else if (sync != WS_OK) {
        p->st = rt_fail(p->err, p->errlen, WS_ERR_INTERNAL, "pixel history: call %" PRIu64 " %s: %s", index, ci.name,
                     ws_last_error(p->dev));
        return 1;
    }
    if (ws_gfx_probe_records(p->dev, &rec, &n) != WS_OK) {
        p->st = rt_fail(p->err, p->errlen, WS_ERR_INTERNAL, "pixel history: call %" PRIu64 " %s: %s", index, ci.name,
                     ws_last_error(p->dev));
        return 1;
    }
    ws_gfx_target *t = ws_replay_target_at(r, index);
    uint32_t tid = ws_replay_target_id_at(r, index);
    if (p->target_call == WS_REPLAY_LAST_TARGET || p->target_call == index) {
        p->target = t;
        p->target_id = tid;
        /* its size now: the frame may destroy it before its end */
        if (!t || ws_gfx_target_size(t, &p->tw, &p->th) != WS_OK) p->tw = p->th = 0;
    }
    ws_pixel_history *h = p->h;
    for (size_t k = 0; k < n; k++) {
        if (h->n == p->cap) {
            size_t cap = p->cap ? p->cap * 2 : 32;
            ws_pixel_event *ev = realloc(h->ev, cap * sizeof *ev);
            if (!ev) {
                p->st = rt_fail(p->err, p->errlen, WS_ERR_OUT_OF_MEMORY, "pixel history: out of host memory");
                return 1;
            }
            h->ev = ev;
            p->cap = cap;
        }
        h->ev[h->n++] = (ws_pixel_event){ .call = index, .target = t, .target_id = tid, .rec = rec[k] };
    }
    ws_gfx_probe_empty(p->dev);
    return h->failure[0] != 0; /* the frame ended at the failure */
}

ws_status ws_replay_target_call(ws_replay *r, uint32_t id, uint64_t *call, char *err, size_t errlen)
{
    const uint64_t n = ws_replay_call_count(r);
    uint64_t bound = UINT64_MAX;
    char ids[256] = "";
    size_t o = 0;
    for (uint64_t i = 0; i < n; i++) {
        const uint32_t t = ws_replay_target_id_at(r, i);
        struct ws_replay_call_info ci;
        const int work = ws_replay_describe_call(r, i, &ci) == WS_OK &&
                         (ci.kind == WS_REPLAY_CALL_DRAW || ci.kind == WS_REPLAY_CALL_CLEAR);
        if (t == id && work) { *call = i; return WS_OK; }
        if (t == id && bound == UINT64_MAX) bound = i;
        /* the targets written, each once, for the message */
        char one[16];
        snprintf(one, sizeof one, " %u,", t);
        if (work && t && o + strlen(one) < sizeof ids && !strstr(ids, one)) {
            memcpy(ids + o, one, strlen(one) + 1);
            o += strlen(one);
        }
    }
    if (bound != UINT64_MAX) { *call = bound; return WS_OK; }
    if (o) ids[o - 1] = 0; /* (the last comma) */
    if (!o)
        return rt_fail(err, errlen, WS_ERR_NOT_FOUND, "pixel history: no call of the frame binds render target %u "
                       "(no clear or draw writes a render target)", id);
    return rt_fail(err, errlen, WS_ERR_NOT_FOUND, "pixel history: no call of the frame binds render target %u (its "
                   "clears and draws write target%s%s, as --list names them)", id, strchr(ids + 1, ',') ? "s" : "", ids);
}

/* The pixel of target t as it is now (0 when t cannot be read). */
static int read_pixel(ws_device *dev, ws_gfx_target *t, uint32_t x, uint32_t y, uint8_t rgba[4], float *depth,
                      int *has_depth)
{
    uint32_t w, h;
    if (!t || ws_gfx_target_size(t, &w, &h) != WS_OK || x >= w || y >= h) return 0;
    size_t n = (size_t)w * h;
    uint8_t *img = malloc(n * 4);
    float *z = malloc(n * sizeof *z);
    int ok = img && z && ws_gfx_target_read(dev, t, img, n * 4) == WS_OK;
    if (ok) {
        memcpy(rgba, img + ((size_t)y * w + x) * 4, 4);
        *has_depth = ws_gfx_target_read_depth(dev, t, z, n) == WS_OK;
        *depth = *has_depth ? z[(size_t)y * w + x] : 0;
    }
    free(img);
    free(z);
    return ok;
}

ws_status ws_replay_pixel_collect(ws_replay *r, uint32_t x, uint32_t y, uint64_t target_call,
                                  ws_pixel_history *out, char *err, size_t errlen)
{
    if (!r || !out) return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "pixel history: no replay or no output");
    memset(out, 0, sizeof *out);
    ws_device *dev = ws_replay_device(r);
    out->x = x;
    out->y = y;
    if (ws_replay_restore(r) != WS_OK)
        return rt_fail(err, errlen, WS_ERR_INTERNAL, "pixel history: %s", ws_replay_error(r));
    /* the pixel as the frame found it (the target may not exist yet) */
    uint8_t init[4] = { 0 };
    float init_z = 0;
    int init_depth = 0, init_known = 0;
    uint64_t ncalls = ws_replay_call_count(r), at = target_call;
    if (at != WS_REPLAY_LAST_TARGET && at >= ncalls)
        return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "pixel history: no call %" PRIu64 " (the frame has %" PRIu64 ")",
                    at, ncalls);
    if (at == WS_REPLAY_LAST_TARGET) /* the frame's last clear or draw */
        for (uint64_t i = ncalls; i-- > 0 && at == WS_REPLAY_LAST_TARGET;) {
            struct ws_replay_call_info ci;
            if (ws_replay_describe_call(r, i, &ci) == WS_OK &&
                (ci.kind == WS_REPLAY_CALL_DRAW || ci.kind == WS_REPLAY_CALL_CLEAR))
                at = i;
        }
    /* NULL when the target is created inside the frame */
    ws_gfx_target *guess = at < ncalls ? ws_replay_target_at(r, at) : NULL;
    uint32_t guess_id = guess ? ws_replay_target_id_at(r, at) : 0;
    init_known = read_pixel(dev, guess, x, y, init, &init_z, &init_depth);

    ws_status st = ws_gfx_probe_arm(dev, x, y);
    if (st != WS_OK) return rt_fail(err, errlen, st, "pixel history: %s", ws_last_error(dev));
    pix_run p = { .h = out, .dev = dev, .target_call = at, .st = WS_OK, .err = err, .errlen = errlen };
    st = ws_replay_run(r, 0, UINT64_MAX, after_call, &p);
    ws_gfx_probe_disarm(dev);
    if (p.st != WS_OK) { ws_pixel_history_free(out); return p.st; }
    /* work that failed where no clear or draw waited for it (a kernel
     * launch, seen by the next call or the end of the frame) ends the
     * frame too */
    if (st != WS_OK && ws_replay_frame_failure(st) && !out->failure[0])
        snprintf(out->failure, sizeof out->failure, "%s", ws_replay_error(r));
    if (out->failure[0]) st = WS_OK;
    ws_replay_passed_collect(r, out->passed, sizeof out->passed, &out->order);
    if (st != WS_OK) {
        ws_pixel_history_free(out);
        return rt_fail(err, errlen, rt_replay_failed(st), "pixel history: %s", ws_replay_error(r));
    }
    out->x = x;
    out->y = y;
    /* the handle only if the target still exists: one the frame destroyed
     * is freed (and its address may have gone to another target) */
    out->target = ws_replay_target_by_id(r, p.target_id);
    out->target_id = p.target_id;
    out->w = p.tw;
    out->h = p.th;
    if (!p.target) {
        ws_pixel_history_free(out);
        if (target_call != WS_REPLAY_LAST_TARGET)
            return rt_fail(err, errlen, WS_ERR_NOT_FOUND, "pixel history: no render target is bound at call %" PRIu64,
                        target_call);
        return rt_fail(err, errlen, WS_ERR_NOT_FOUND, "pixel history: the frame has no clear or draw into a render target");
    }
    if (x >= out->w || y >= out->h) {
        uint32_t w = out->w, h = out->h;
        ws_pixel_history_free(out);
        return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "pixel history: pixel (%u,%u) is outside the %ux%u render target",
                    x, y, w, h);
    }
    /* keep the chosen target's events: by capture id, since the handle of
     * a target the frame destroyed can come back as a later target's */
    size_t k = 0;
    uint64_t last_call = UINT64_MAX;
    for (size_t i = 0; i < out->n; i++) {
        if (out->ev[i].target_id != out->target_id) continue;
        if (out->ev[i].call != last_call) out->ncalls++;
        last_call = out->ev[i].call;
        out->ev[k++] = out->ev[i];
    }
    out->n = k;
    if (guess && guess_id == out->target_id && init_known) {
        memcpy(out->initial, init, 4);
        out->initial_depth = init_z;
        out->has_depth = init_depth;
        out->initial_known = 1;
    } else if (out->n) { /* created during the frame: its first record knows */
        memcpy(out->initial, out->ev[0].rec.before, 4);
        out->initial_depth = out->ev[0].rec.depth_before;
        out->has_depth = out->ev[0].rec.has_depth;
    }
    if (out->n) out->has_depth = out->ev[0].rec.has_depth;
    /* the pixel as the frame leaves it (the target may be gone by then) */
    int final_depth = 0;
    out->final_known = read_pixel(dev, out->target, x, y, out->final, &out->final_depth, &final_depth);
    return WS_OK;
}

static const char *compare_op(ws_gfx_compare c)
{
    static const char *const names[] = { "never", "<", "==", "<=", ">", "!=", ">=", "always" };
    return (unsigned)c < 8 ? names[c] : "?";
}

static void print_rgba(FILE *f, const uint8_t *c) { fprintf(f, "(%3u %3u %3u %3u)", c[0], c[1], c[2], c[3]); }

static void print_event(FILE *f, const ws_gfx_probe_rec *e, int has_depth)
{
    if (e->event == WS_GFX_PROBE_CLEAR) {
        fprintf(f, "    clear to (%g, %g, %g, %g)", e->color[0], e->color[1], e->color[2], e->color[3]);
        if (has_depth) fprintf(f, " depth %g", e->depth);
        fprintf(f, "\n");
    } else {
        fprintf(f, "    primitive %u", e->prim);
        if (e->instances > 1 || e->instance) fprintf(f, " instance %u", e->instance);
        fprintf(f, " (%s)", e->front ? "front" : "back");
        if (e->event == WS_GFX_PROBE_DISCARDED)
            fprintf(f, "  shader discarded it");
        else if (e->shaded)
            fprintf(f, "  shader out (%.6g, %.6g, %.6g, %.6g)", e->color[0], e->color[1], e->color[2], e->color[3]);
        else
            fprintf(f, "  not shaded");
        fprintf(f, "\n      depth %.9g", e->depth);
        if (e->depth_test) {
            int pass = e->event != WS_GFX_PROBE_EARLY_Z_FAILED && e->event != WS_GFX_PROBE_DEPTH_FAILED;
            fprintf(f, " %s %.9g: %s", compare_op(e->depth_compare), e->depth_before, pass ? "pass" : "fail");
            /* why a passing fragment leaves the depth as it was */
            if (pass && !e->depth_write) fprintf(f, ", depth write off");
        } else
            fprintf(f, " (no depth test)");
        fprintf(f, "  -> %s\n", ws_gfx_probe_event_name(e->event));
    }
    fprintf(f, "      colour ");
    print_rgba(f, e->before);
    fprintf(f, " -> ");
    print_rgba(f, e->after);
    if (has_depth) fprintf(f, "   depth %.9g -> %.9g", e->depth_before, e->depth_after);
    fprintf(f, "\n");
}

void ws_replay_passed_collect(ws_replay *r, char *passed, size_t len, ws_replay_passed_order *order)
{
    ws_replay_failures_text(r, passed, len);
    const ws_replay_failure *m;
    size_t n = 0;
    order->n = 0;
    if (ws_replay_failures(r, &m, &n) != WS_OK) return;
    /* (ws_replay_failures_text writes one line per failure, in this order) */
    for (size_t i = 0; i < n && i < WS_REPLAY_PASSED_MAX; i++)
        order->key[order->n++] = m[i].call > (UINT64_MAX - 1) / 2 ? UINT64_MAX - 1 : 2 * m[i].call + (m[i].own != 0);
}

void ws_replay_print_passed(FILE *out, const char *passed, const ws_replay_passed_order *order, size_t *line,
                            uint64_t call)
{
    const uint64_t limit = call > (UINT64_MAX - 1) / 2 ? UINT64_MAX : 2 * call;
    const char *l = passed;
    for (size_t i = 0; *l && i < *line; i++) { /* skip the lines printed before */
        const char *e = strchr(l, '\n');
        l = e ? e + 1 : l + strlen(l);
    }
    while (*l) {
        if (limit != UINT64_MAX && (*line >= order->n || order->key[*line] > limit)) break;
        const char *e = strchr(l, '\n');
        int n = e ? (int)(e - l) : (int)strlen(l);
        fprintf(out, "the frame's work failed, as when it was captured, and the replay went on: %.*s\n", n, l);
        l += n + (e != NULL);
        (*line)++;
    }
}

/* The pixel changed between calls `from` and `to` (exclusive; from
 * UINT64_MAX: the frame start) by a call that is not a clear or draw:
 * name the calls that write the target's images (ws_gfx_target_write,
 * _depth); else the span, where a launch may have written its memory. */
static void print_changer(FILE *f, ws_replay *r, uint32_t target, uint64_t from, uint64_t to)
{
    char tag[32];
    snprintf(tag, sizeof tag, "(target %u,", target);
    int named = 0;
    for (uint64_t i = from == UINT64_MAX ? 0 : from + 1; i < to; i++) {
        struct ws_replay_call_info ci;
        if (ws_replay_describe_call(r, i, &ci) != WS_OK || strncmp(ci.name, "ws_gfx_target_write", 19) ||
            !strstr(ci.text, tag))
            continue;
        fprintf(f, "%scall %" PRIu64 " %s", named++ ? ", " : "by ", i, ci.text);
    }
    if (named) return;
    uint64_t first = from == UINT64_MAX ? 0 : from + 1;
    if (to > first + 1) fprintf(f, "by one of calls %" PRIu64 "-%" PRIu64 ", none a clear or draw", first, to - 1);
    else if (to == first + 1) fprintf(f, "by call %" PRIu64 ", not a clear or draw", first);
    else fprintf(f, "by a call that is not a clear or draw");
}

/* Between the frames of a capture of several: where one ended. */
static void print_frame_ends(FILE *f, ws_replay *r, const ws_replay_frame *fr, size_t nf, size_t *k, uint64_t before)
{
    for (; *k < nf && fr[*k].last_call < before; (*k)++) {
        struct ws_replay_call_info ci;
        const int named = ws_replay_describe_call(r, fr[*k].last_call, &ci) == WS_OK;
        fprintf(f, "---- frame %" PRIu64 " ended at call %" PRIu64 "%s%s; frame %" PRIu64 " follows ----\n",
                fr[*k].frame, fr[*k].last_call, named ? " " : "", named ? ci.name : "",
                *k + 1 < nf ? fr[*k + 1].frame : fr[*k].frame + 1);
    }
}

ws_status ws_replay_pixel_print(ws_replay *r, const ws_pixel_history *h, FILE *out, char *err, size_t errlen)
{
    if (!r || !h || !out) return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "pixel history: nothing to print");
    /* the target by its capture id, as --list names it (a frame may draw
     * into several) */
    fprintf(out, "pixel (%u,%u) of render target %u (%ux%u): %zu event%s in %" PRIu64 " call%s\n", h->x, h->y,
            h->target_id, h->w, h->h, h->n, h->n == 1 ? "" : "s", h->ncalls, h->ncalls == 1 ? "" : "s");
    const uint8_t *cur = h->initial;
    float curz = h->initial_depth;
    fprintf(out, "frame start: colour ");
    print_rgba(out, h->initial);
    if (h->has_depth) fprintf(out, "   depth %.9g", h->initial_depth);
    fprintf(out, "%s\n", h->initial_known ? "" : " (the target was created during the frame)");
    uint64_t call = UINT64_MAX;
    size_t passed_line = 0;
    /* a capture of several frames: a line where each ends (one frame's
     * capture has its frame end last, printed below) */
    const ws_replay_frame *frames = NULL;
    size_t nframes = 0, frame_k = 0;
    if (ws_replay_frames(r, &frames, &nframes) != WS_OK || nframes < 2) nframes = 0;
    for (size_t i = 0; i < h->n; i++) {
        const ws_pixel_event *e = &h->ev[i];
        if (e->call != call) {
            struct ws_replay_call_info ci;
            print_frame_ends(out, r, frames, nframes, &frame_k, e->call);
            call = e->call;
            ws_replay_print_passed(out, h->passed, &h->order, &passed_line, call);
            if (ws_replay_describe_call(r, call, &ci) != WS_OK)
                return rt_fail(err, errlen, WS_ERR_INTERNAL, "pixel history: %s", ws_replay_error(r));
            fprintf(out, "call %" PRIu64 " %s", call, ci.text);
            if (ci.kind == WS_REPLAY_CALL_DRAW && ci.kernel) fprintf(out, "   [%s]", ci.kernel);
            fprintf(out, "\n");
        }
        if (memcmp(cur, e->rec.before, 4) || (h->has_depth && curz != e->rec.depth_before)) {
            fprintf(out, "    (changed ");
            print_changer(out, r, h->target_id, i ? h->ev[i - 1].call : UINT64_MAX, e->call);
            fprintf(out, ": colour ");
            print_rgba(out, e->rec.before);
            if (h->has_depth) fprintf(out, " depth %.9g", e->rec.depth_before);
            fprintf(out, ")\n");
        }
        print_event(out, &e->rec, h->has_depth);
        cur = e->rec.after;
        curz = e->rec.depth_after;
    }
    print_frame_ends(out, r, frames, nframes ? nframes - 1 : 0, &frame_k, UINT64_MAX);
    if (h->final_known && (memcmp(cur, h->final, 4) || (h->has_depth && curz != h->final_depth))) {
        fprintf(out, "(changed after its last clear or draw ");
        print_changer(out, r, h->target_id, h->n ? h->ev[h->n - 1].call : UINT64_MAX, ws_replay_call_count(r));
        fprintf(out, ": colour ");
        print_rgba(out, h->final);
        fprintf(out, ")\n");
        cur = h->final;
        curz = h->final_depth;
    }
    ws_replay_print_passed(out, h->passed, &h->order, &passed_line, UINT64_MAX);
    if (h->failure[0]) fprintf(out, "the frame's work failed, as when it was captured; the frame ends there: %s\n", h->failure);
    fprintf(out, "frame end: colour ");
    print_rgba(out, cur);
    if (h->has_depth) fprintf(out, "   depth %.9g", curz);
    fprintf(out, "\n");
    if (ferror(out)) return rt_fail(err, errlen, WS_ERR_IO, "pixel history: writing the output failed");
    return WS_OK;
}

ws_status ws_replay_pixel_history(ws_replay *r, uint32_t x, uint32_t y, FILE *out, char *err, size_t errlen)
{
    ws_pixel_history h;
    ws_status st = ws_replay_pixel_collect(r, x, y, WS_REPLAY_LAST_TARGET, &h, err, errlen);
    if (st != WS_OK) return st;
    st = ws_replay_pixel_print(r, &h, out, err, errlen);
    ws_pixel_history_free(&h);
    return st;
}
