/* The pixel-history probe (gfx_probe.h): records what each clear and each
 * fragment did to one pixel. Fragments are recorded where the rasteriser
 * emits or early-kills them, which is primitive order for one pixel; the
 * raster-output stage fills in the verdict of the emitted ones in the same
 * order (it applies lanes in primitive order per pixel). At the end of a
 * draw the colour and depth before and after each record are chained from
 * the pixel as the draw found it, so a fragment killed before shading
 * still shows the value that was there in API order. */
#include <stdlib.h>
#include <string.h>
#include "gfx/gfx_int.h"

/* Internal state of a record between the rasteriser and the raster output. */
#define PROBE_PENDING ((ws_gfx_probe_event)100)

static gfx_probe *armed(ws_device *dev)
{
    return dev->gfx ? dev->gfx->probe : NULL;
}

ws_status ws_gfx_probe_arm(ws_device *dev, uint32_t x, uint32_t y)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    if (x >= WS_GFX_MAX_SIZE || y >= WS_GFX_MAX_SIZE)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "pixel probe: pixel (%u,%u) is outside any target (sides up to %u)",
                            x, y, WS_GFX_MAX_SIZE);
    ws_gfx_device *g = gfx_hw(dev);
    if (!g) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "pixel probe: out of host memory");
    if (!g->probe && !(g->probe = calloc(1, sizeof *g->probe)))
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "pixel probe: out of host memory");
    gfx_probe *p = g->probe;
    ws_gfx_probe_rec *keep = p->rec;
    size_t cap = p->cap;
    memset(p, 0, sizeof *p);
    p->rec = keep;
    p->cap = cap;
    p->x = x;
    p->y = y;
    return WS_OK;
}

ws_status ws_gfx_probe_disarm(ws_device *dev)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    gfx_probe *p = armed(dev);
    if (p) {
        free(p->rec);
        free(p);
        dev->gfx->probe = NULL;
    }
    return WS_OK;
}

ws_status ws_gfx_probe_records(ws_device *dev, const ws_gfx_probe_rec **recs, size_t *n)
{
    if (!dev || !recs || !n) return WS_ERR_INVALID_ARG;
    gfx_probe *p = armed(dev);
    if (!p) return ws_set_error(dev, WS_ERR_INVALID_ARG, "pixel probe: not armed");
    if (p->lost)
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "pixel probe: %d records of pixel (%u,%u) were lost (out of host memory)",
                            p->lost, p->x, p->y);
    *recs = p->rec;
    *n = p->n;
    return WS_OK;
}

ws_status ws_gfx_probe_empty(ws_device *dev)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    gfx_probe *p = armed(dev);
    if (!p) return ws_set_error(dev, WS_ERR_INVALID_ARG, "pixel probe: not armed");
    p->n = p->draw_first = p->cursor = 0;
    return WS_OK;
}

const char *ws_gfx_probe_event_name(ws_gfx_probe_event e)
{
    switch (e) {
    case WS_GFX_PROBE_CLEAR: return "cleared";
    case WS_GFX_PROBE_WRITTEN: return "written";
    case WS_GFX_PROBE_DISCARDED: return "discarded";
    case WS_GFX_PROBE_EARLY_Z_FAILED: return "failed the early depth test";
    case WS_GFX_PROBE_DEPTH_FAILED: return "failed the depth test";
    }
    return "?";
}

static ws_gfx_probe_rec *push(gfx_probe *p)
{
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 64;
        ws_gfx_probe_rec *r = realloc(p->rec, cap * sizeof *r);
        if (!r) { p->lost++; return NULL; }
        p->rec = r;
        p->cap = cap;
    }
    ws_gfx_probe_rec *r = &p->rec[p->n++];
    memset(r, 0, sizeof *r);
    return r;
}

/* The pixel's colour and depth as they are now. */
static void read_pixel(ws_device *dev, const ws_gfx_target_hw *t, uint32_t x, uint32_t y, uint8_t rgba[4], float *depth)
{
    size_t px = (size_t)y * t->w + x;
    memcpy(rgba, (const uint8_t *)ws_mem_global_ptr(&dev->mem, t->color) + px * 4, 4);
    *depth = 0;
    if (t->depth) memcpy(depth, (const uint8_t *)ws_mem_global_ptr(&dev->mem, t->depth) + px * 4, 4);
}

void gfx_probe_clear(ws_device *dev, const ws_gfx_cmd *c)
{
    gfx_probe *p = armed(dev);
    if (!p) return;
    uint64_t command = p->commands++;
    const ws_gfx_target_hw *t = &c->st.target;
    if (p->x >= t->w || p->y >= t->h) return;
    ws_gfx_probe_rec *r = push(p);
    if (!r) return;
    r->event = WS_GFX_PROBE_CLEAR;
    r->draw_id = ~0ull;
    r->command = command;
    r->target = t->color;
    memcpy(r->color, c->clear_rgba, sizeof r->color);
    r->depth = c->clear_depth;
    r->has_depth = t->depth != 0;
    read_pixel(dev, t, p->x, p->y, r->before, &r->depth_before);
    for (int k = 0; k < 4; k++) r->after[k] = gfx_unorm8(c->clear_rgba[k]);
    r->depth_after = r->has_depth ? c->clear_depth : 0;
    p->draw_first = p->cursor = p->n;
}

void gfx_probe_draw_begin(gfx_draw *d)
{
    gfx_probe *p = armed(d->dev);
    d->probe = NULL;
    if (!p) return;
    p->commands++;
    p->draw_first = p->cursor = p->n;
    if (p->x < d->rx0 || p->x >= d->rx1 || p->y < d->ry0 || p->y >= d->ry1) return;
    read_pixel(d->dev, &d->st->target, p->x, p->y, p->rgba, &p->depth);
    d->probe = p;
}

void gfx_probe_fragment(gfx_draw *d, const gfx_tri *t, int front, int32_t x, int32_t y, float z, int early_killed)
{
    gfx_probe *p = d->probe;
    if ((uint32_t)x != p->x || (uint32_t)y != p->y) return;
    ws_gfx_probe_rec *r = push(p);
    if (!r) return;
    const ws_gfx_pipeline_desc *pd = &d->st->pipe.desc;
    r->event = early_killed ? WS_GFX_PROBE_EARLY_Z_FAILED : PROBE_PENDING;
    r->draw_id = d->cmd->draw_id;
    r->command = p->commands - 1;
    r->target = d->st->target.color;
    r->prim = t->prim;
    r->instance = t->instance;
    r->instances = d->cmd->instances;
    r->front = front;
    r->depth = z;
    r->has_depth = d->st->target.depth != 0;
    r->depth_test = pd->depth_test && r->has_depth;
    r->depth_write = r->depth_test && pd->depth_write; /* as gfx_rop writes */
    r->depth_compare = pd->depth_compare;
}

void gfx_probe_rop(gfx_draw *d, ws_gfx_probe_event e, const float *color)
{
    gfx_probe *p = d->probe;
    while (p->cursor < p->n && p->rec[p->cursor].event != PROBE_PENDING) p->cursor++;
    if (p->cursor == p->n) return; /* its record was lost */
    ws_gfx_probe_rec *r = &p->rec[p->cursor++];
    r->event = e;
    r->shaded = 1;
    memcpy(r->color, color, sizeof r->color);
    if (e == WS_GFX_PROBE_WRITTEN) read_pixel(d->dev, &d->st->target, p->x, p->y, r->after, &r->depth_after);
}

void gfx_probe_draw_end(gfx_draw *d)
{
    gfx_probe *p = d->probe;
    if (!p) return;
    uint8_t rgba[4];
    float depth = p->depth;
    memcpy(rgba, p->rgba, 4);
    size_t out = p->draw_first;
    for (size_t i = p->draw_first; i < p->n; i++) {
        ws_gfx_probe_rec r = p->rec[i];
        if (r.event == PROBE_PENDING) continue; /* the draw stopped (a fault) before its raster output */
        memcpy(r.before, rgba, 4);
        r.depth_before = depth;
        if (r.event == WS_GFX_PROBE_WRITTEN) {
            memcpy(rgba, r.after, 4);
            depth = r.depth_after;
        } else {
            memcpy(r.after, rgba, 4);
            r.depth_after = depth;
        }
        if (!r.has_depth) r.depth_before = r.depth_after = 0;
        p->rec[out++] = r;
    }
    p->n = p->draw_first = p->cursor = out;
}
