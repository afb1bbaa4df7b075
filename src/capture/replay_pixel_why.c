/* Why no fragment shader runs at a pixel in a draw (replay_pixel.h), from
 * the pixel history: the frame debugger's `monitor debug-pixel` says so
 * instead of letting `continue` run to the frame end without a word. */
#include "capture/replay_pixel.h"
#include "capture/replay_tool.h"
#include <stdlib.h>
#include <string.h>

typedef struct why_draw {
    uint64_t call;
    uint32_t ordinal, target;     /* the target's capture id */
    int done, outside, covered, shaded;
    size_t early;                 /* fragments killed by the early depth test */
    ws_gfx_probe_rec first_early;
} why_draw;

static const char *compare_op(ws_gfx_compare c)
{
    static const char *const names[] = { "never", "<", "==", "<=", ">", "!=", ">=", "always" };
    return (unsigned)c < 8 ? names[c] : "?";
}

/* The draws asked about (one ordinal, or all), in call order. */
static ws_status list_draws(ws_replay *r, uint32_t draw, why_draw **out, size_t *n, char *err, size_t errlen)
{
    const uint64_t calls = ws_replay_call_count(r);
    size_t cap = 0;
    uint32_t ordinal = 0;
    *out = NULL;
    *n = 0;
    for (uint64_t i = 0; i < calls; i++) {
        ws_replay_call_info ci;
        if (ws_replay_describe_call(r, i, &ci) || ci.kind != WS_REPLAY_CALL_DRAW || ci.draw == WS_REPLAY_NO_DRAW)
            continue;
        const uint32_t d = ordinal++;
        if (draw != UINT32_MAX && d != draw) continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 16;
            why_draw *g = realloc(*out, cap * sizeof *g);
            if (!g) {
                free(*out);
                *out = NULL;
                return rt_fail(err, errlen, WS_ERR_OUT_OF_MEMORY, "pixel history: out of host memory");
            }
            *out = g;
        }
        (*out)[(*n)++] = (why_draw){ .call = i, .ordinal = d, .target = ws_replay_target_id_at(r, i) };
    }
    return WS_OK;
}

/* One pixel history per target the draws write: what each draw did there. */
static ws_status collect(ws_replay *r, uint32_t x, uint32_t y, why_draw *d, size_t n, char *err, size_t errlen)
{
    for (size_t i = 0; i < n; i++) {
        if (d[i].done) continue;
        uint32_t w = 0, h = 0;
        if (ws_replay_target_size(r, d[i].target, &w, &h) || x >= w || y >= h) {
            for (size_t j = i; j < n; j++)
                if (d[j].target == d[i].target) d[j].done = d[j].outside = 1;
            continue;
        }
        ws_pixel_history hist;
        ws_status st = ws_replay_pixel_collect(r, x, y, d[i].call, &hist, err, errlen);
        if (st != WS_OK) return st;
        for (size_t j = i; j < n; j++)
            if (d[j].target == d[i].target) d[j].done = 1;
        for (size_t k = 0; k < hist.n; k++) {
            const ws_pixel_event *e = &hist.ev[k];
            for (size_t j = i; j < n; j++) {
                if (d[j].call != e->call) continue;
                d[j].covered = 1;
                d[j].shaded |= e->rec.shaded || e->rec.event == WS_GFX_PROBE_DISCARDED;
                if (e->rec.event == WS_GFX_PROBE_EARLY_Z_FAILED && !d[j].early++) d[j].first_early = e->rec;
            }
        }
        ws_pixel_history_free(&hist);
    }
    return WS_OK;
}

/* Why draw d ran no shader at the pixel, appended to buf at *o. */
static void reason(const why_draw *d, char *buf, size_t cap, size_t *o)
{
    if (*o >= cap) return;
    const ws_gfx_probe_rec *e = &d->first_early;
    if (d->outside)
        snprintf(buf + *o, cap - *o, "the pixel is outside its render target");
    else if (!d->covered)
        snprintf(buf + *o, cap - *o, "no primitive of it covers the pixel (its triangles miss it, or are culled or "
                 "clipped away)");
    else if (d->early) {
        int k = snprintf(buf + *o, cap - *o, "its fragment (primitive %u", e->prim);
        if (k > 0 && (size_t)k < cap - *o && (e->instances > 1 || e->instance))
            k += snprintf(buf + *o + k, cap - *o - (size_t)k, " instance %u", e->instance);
        if (k > 0 && (size_t)k < cap - *o)
            snprintf(buf + *o + k, cap - *o - (size_t)k, ") failed the early depth test, so its shader never ran: "
                     "depth %.9g %s %.9g (the pixel's depth then): fail%s", e->depth, compare_op(e->depth_compare),
                     e->depth_before, d->early > 1 ? "; so did its other fragments there" : "");
    } else
        snprintf(buf + *o, cap - *o, "its fragment there ran no shader");
    *o += strlen(buf + *o);
}

ws_status ws_replay_pixel_unshaded(ws_replay *r, uint32_t x, uint32_t y, uint32_t draw, int *unshaded, char *buf,
                                   size_t cap, char *err, size_t errlen)
{
    if (!r || !unshaded || !buf || !cap)
        return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "pixel history: no replay or no output");
    *unshaded = 0;
    buf[0] = 0;
    why_draw *d;
    size_t n;
    ws_status st = list_draws(r, draw, &d, &n, err, errlen);
    if (st == WS_OK) st = collect(r, x, y, d, n, err, errlen);
    if (st != WS_OK || !n) {
        free(d);
        return st;
    }
    size_t shaded = 0, covered = 0, o = 0;
    for (size_t i = 0; i < n; i++) {
        shaded += d[i].shaded != 0;
        covered += d[i].covered != 0;
    }
    if (!shaded) {
        *unshaded = 1;
        if (draw != UINT32_MAX) {
            snprintf(buf, cap, "no fragment shader runs at pixel (%u,%u) in draw %u: ", x, y, draw);
            o = strlen(buf);
            reason(&d[0], buf, cap, &o);
        } else {
            snprintf(buf, cap, "no fragment shader runs at pixel (%u,%u) in any draw: ", x, y);
            o = strlen(buf);
            for (size_t i = 0; i < n && o < cap; i++) {
                if (!d[i].covered) continue;
                snprintf(buf + o, cap - o, "draw %u: ", d[i].ordinal);
                o += strlen(buf + o);
                reason(&d[i], buf, cap, &o);
                if (o < cap) snprintf(buf + o, cap - o, "; ");
                o += o < cap ? strlen(buf + o) : 0;
            }
            if (o < cap)
                snprintf(buf + o, cap - o, "%s", covered ? "no other draw covers it"
                                                         : "no draw covers it (their triangles miss it, or are culled "
                                                           "or clipped away)");
        }
    }
    free(d);
    return WS_OK;
}
