/* The command processor's graphics commands: clears, texture uploads and
 * mipmap generation, frame markers, and draws, which run the stages in
 * order: vertex fetch and shading, assembly and clipping, then batches of
 * rasterisation, fragment shading and raster output. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "device/events/event_bus.h"
#include "gfx/gfx_int.h"

#define TRI_BATCH 4096u /* triangles binned together (bounds a tile's lanes) */

void ws_gfx_device_free(ws_device *dev)
{
    if (dev->gfx) {
        free(dev->gfx->frags.in);
        free(dev->gfx->frags.sys);
        free(dev->gfx->frags.depth);
        ws_gfx_probe_disarm(dev);
        ws_gfx_mesh_disarm(dev);
    }
    free(dev->gfx);
    dev->gfx = NULL;
}

void ws_gfx_cmd_free(ws_gfx_cmd *c)
{
    if (!c) return;
    free(c->data);
    free(c);
}

static ws_status run_clear(ws_device *dev, const ws_gfx_cmd *c)
{
    const ws_gfx_target_hw *t = &c->st.target;
    uint8_t px[4];
    gfx_probe_clear(dev, c);
    for (int i = 0; i < 4; i++) px[i] = gfx_unorm8(c->clear_rgba[i]);
    uint32_t word, *col = (uint32_t *)(void *)ws_mem_global_ptr(&dev->mem, t->color); /* allocations are 256-aligned */
    memcpy(&word, px, 4);
    size_t n = (size_t)t->w * t->h;
    for (size_t i = 0; i < n; i++) col[i] = word;
    if (t->depth) {
        float *dep = (float *)(void *)ws_mem_global_ptr(&dev->mem, t->depth);
        for (size_t i = 0; i < n; i++) dep[i] = c->clear_depth;
    }
    return WS_OK;
}

/* Level l+1 from level l: each texel the rounded mean of its 2x2 parents
 * (a side of 1 repeats its texel; an odd side's last texel has no child:
 * the next level is half as wide, rounded down). */
static void mip_down(const uint8_t *src, uint32_t sw, uint32_t sh, uint8_t *dst, uint32_t dw, uint32_t dh)
{
    for (uint32_t y = 0; y < dh; y++)
        for (uint32_t x = 0; x < dw; x++) {
            uint32_t x0 = 2 * x < sw ? 2 * x : sw - 1, x1 = 2 * x + 1 < sw ? 2 * x + 1 : x0;
            uint32_t y0 = 2 * y < sh ? 2 * y : sh - 1, y1 = 2 * y + 1 < sh ? 2 * y + 1 : y0;
            for (int k = 0; k < 4; k++) {
                uint32_t s = src[(y0 * sw + x0) * 4 + k] + src[(y0 * sw + x1) * 4 + k] +
                             src[(y1 * sw + x0) * 4 + k] + src[(y1 * sw + x1) * 4 + k];
                dst[(y * dw + x) * 4 + k] = (uint8_t)((s + 2) / 4);
            }
        }
}

static ws_status run_texture_cmd(ws_device *dev, const ws_gfx_cmd *c)
{
    const ws_gfx_tex_hw *t = &c->st.tex[0];
    uint8_t *base = ws_mem_global_ptr(&dev->mem, t->addr);
    if (c->kind == GFX_CMD_UPLOAD) {
        memcpy(base + t->level_off[c->level], c->data, c->ndata);
        return WS_OK;
    }
    for (uint32_t l = 0; l + 1 < t->levels; l++) {
        uint32_t sw = t->w >> l ? t->w >> l : 1, sh = t->h >> l ? t->h >> l : 1;
        uint32_t dw = sw > 1 ? sw / 2 : 1, dh = sh > 1 ? sh / 2 : 1;
        mip_down(base + t->level_off[l], sw, sh, base + t->level_off[l + 1], dw, dh);
    }
    return WS_OK;
}

/* Shade and write one batch of fragments, then empty it. */
static ws_status flush_fragments(gfx_draw *d, gfx_frags *f)
{
    if (!f->n) return WS_OK;
    ws_device *dev = d->dev;
    uint32_t in_bytes = (4 + d->nvar) * 4, addr;
    uint64_t need = (uint64_t)f->n * (in_bytes + 16);
    ws_status st = gfx_scratch(d, need, &addr);
    if (st != WS_OK) return st;
    uint32_t in_addr = addr, color_addr = addr + f->n * in_bytes;
    memcpy(ws_mem_global_ptr(&dev->mem, in_addr), f->in, (size_t)f->n * in_bytes);
    memset(ws_mem_global_ptr(&dev->mem, color_addr), 0, (size_t)f->n * 16);
    /* a0: where the returned colour goes (the ABI's hidden result pointer),
     * a1: the fragment's input, a2: the uniforms. */
    const uint32_t base[3] = { color_addr, in_addr, d->st->uniforms };
    const uint32_t stride[3] = { 16, in_bytes, 0 };
    double t0 = ws_now_seconds();
    st = gfx_shade(d, &d->st->pipe.fs, 1, f->n, f->sys, base, stride, &d->stats->fragment_launch_id);
    d->stats->fragment_seconds += ws_now_seconds() - t0;
    if (st != WS_OK) return st;
    d->stats->fragments_shaded += f->n;
    /* the colours are read where the shaders wrote them; timed with the
     * other fixed-function stages (run_draw) */
    gfx_rop(d, f, (const float *)(const void *)ws_mem_global_ptr(&dev->mem, color_addr));
    f->n = 0;
    return WS_OK;
}

/* Assembly and clipping, then batches of rasterisation, fragment shading
 * and raster output. Batches are the draw's post-clip triangles in
 * primitive order, TRI_BATCH at a time, the last one shorter: a batch is
 * rasterised as soon as it is assembled and its triangles dropped, so the
 * draw holds at most a batch and the pieces of one clipped triangle
 * (before 2026-11-28 it held all of them, about 448 bytes each: a few
 * million triangles took gigabytes). The batches are the ones the whole
 * list was cut into, so images, statistics and launches are unchanged. */
static ws_status assemble_and_raster(gfx_draw *d, const float *verts, uint64_t ninv, gfx_frags *f)
{
    gfx_tri_list tris = { 0 };
    gfx_assembly at = { 0 };
    ws_status s = WS_OK;
    f->n = 0;
    while (s == WS_OK && (!at.done || tris.n)) {
        if (!at.done) s = gfx_assemble(d, verts, ninv, &at, TRI_BATCH, &tris);
        if (s != WS_OK || !tris.n) break;
        size_t n = tris.n < TRI_BATCH ? tris.n : TRI_BATCH;
        s = gfx_rasterize(d, tris.t, n, f, flush_fragments);
        if (s == WS_OK) s = flush_fragments(d, f);
        memmove(tris.t, tris.t + n, (tris.n - n) * sizeof *tris.t); /* the pieces past the batch */
        tris.n -= n;
    }
    gfx_rasterize_end(d);
    f->n = 0;
    free(tris.t);
    return s;
}

/* The draw's statistics become the device's "last draw", whether it ran
 * to the end or stopped at a fault (then they count the work done). */
static ws_status draw_done(ws_gfx_device *g, const ws_gfx_draw_stats *stats, ws_status st)
{
    g->last = *stats;
    g->have_last = 1;
    return st;
}

static ws_status run_draw(ws_device *dev, ws_gfx_cmd *c, ws_launch_fn launch)
{
    ws_gfx_device *g = gfx_hw(dev);
    if (!g) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "graphics: out of host memory");
    ws_gfx_draw_stats stats = { .draw_id = c->draw_id, .vertex_launch_id = ~0ull, .fragment_launch_id = ~0ull };
    gfx_draw d = { .dev = dev, .cmd = c, .st = &c->st, .launch = launch, .stats = &stats,
                   .nvar = c->st.pipe.vout_floats - 4 };
    const ws_gfx_state *st = &c->st;
    if (dev->cfg.lanes_per_warp % 4)
        return draw_done(g, &stats, gfx_fault(&d, "the device has %u lanes per warp; graphics needs a multiple "
                                              "of 4 (2x2 quads)", dev->cfg.lanes_per_warp));
    /* The pixels fragments may touch: target, viewport (we clip only against
     * the guard band, not the viewport's sides) and scissor. */
    double x0 = st->vp_x, y0 = st->vp_y, x1 = st->vp_x + st->vp_w, y1 = st->vp_y + st->vp_h;
    if (st->sc_w) {
        x0 = fmax(x0, st->sc_x); y0 = fmax(y0, st->sc_y);
        x1 = fmin(x1, (double)st->sc_x + st->sc_w); y1 = fmin(y1, (double)st->sc_y + st->sc_h);
    }
    x0 = fmax(x0, 0); y0 = fmax(y0, 0); x1 = fmin(x1, st->target.w); y1 = fmin(y1, st->target.h);
    /* Pixel centres on a side follow the fill rule, so viewports that tile
     * the target draw each pixel once: a left side keeps its centres, a
     * right one does not, x0 <= c < x1; a horizontal side belongs to the
     * rectangle above it (y down), y0 < c <= y1. */
    if (x1 > x0 && y1 > y0) {
        d.rx0 = (uint32_t)ceil(x0 - 0.5); d.ry0 = (uint32_t)(floor(y0 - 0.5) + 1);
        d.rx1 = (uint32_t)ceil(x1 - 0.5); d.ry1 = (uint32_t)(floor(y1 - 0.5) + 1);
    }
    if (g->probe) gfx_probe_draw_begin(&d);
    if (!(x1 > x0 && y1 > y0)) return draw_done(g, &stats, WS_OK);

    uint64_t ninv = 0;
    const float *vout = NULL;
    ws_status s = gfx_vertex_stage(&d, &ninv, &vout);
    if (s != WS_OK) { gfx_probe_draw_end(&d); return draw_done(g, &stats, s); }
    /* The shaded vertices leave device scratch memory before the fragment
     * batches reuse it. */
    size_t vbytes = (size_t)ninv * c->st.pipe.vout_floats * 4;
    float *verts = malloc(vbytes ? vbytes : 1);
    if (!verts) {
        gfx_probe_draw_end(&d);
        return draw_done(g, &stats, ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "graphics: out of host memory"));
    }
    if (vbytes) memcpy(verts, vout, vbytes);
    double ta = ws_now_seconds();
    s = assemble_and_raster(&d, verts, ninv, &g->frags);
    free(verts);
    /* everything after vertex shading that is not fragment shading */
    stats.fixed_function_seconds += ws_now_seconds() - ta - stats.fragment_seconds;
    gfx_probe_draw_end(&d);
    return draw_done(g, &stats, s);
}

ws_status ws_gfx_execute(ws_device *dev, ws_gfx_cmd *c, ws_launch_fn launch)
{
    switch (c->kind) {
    case GFX_CMD_CLEAR: return run_clear(dev, c);
    case GFX_CMD_UPLOAD: case GFX_CMD_MIPGEN: return run_texture_cmd(dev, c);
    case GFX_CMD_FRAME: {
        ws_gfx_device *g = gfx_hw(dev);
        if (!g) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "graphics: out of host memory");
        ws_ev_emit(dev, WS_EV_CP, WS_EV_CP_FRAME, c->begin ? 0 : 1, (uint32_t)c->frame);
        if (!c->begin) g->frame = c->frame + 1;
        return WS_OK;
    }
    case GFX_CMD_DRAW: return run_draw(dev, c, launch);
    }
    return WS_ERR_INTERNAL;
}

void ws_gfx_describe_thread(const ws_grid_run *L, uint64_t t, char *buf, size_t len)
{
    const ws_gfx_run *r = L->gfx;
    if (!r || !r->sysval || t >= L->thread_limit) { if (len) buf[0] = 0; return; }
    const uint32_t *s = &r->sysval[t * WS_GFX_SYSVALS];
    char inst[24] = ""; /* as the pixel history names it: only in a draw of instances other than 0 */
    if (r->fragment && r->instanced) snprintf(inst, sizeof inst, " instance %u", s[4]);
    if (r->fragment)
        snprintf(buf, len, "; draw %u primitive %u%s pixel (%u,%u)%s", L->draw_id, s[3], inst, s[0], s[1],
                 (s[2] & WS_GFX_FLAG_HELPER) ? " (helper lane)" : "");
    else
        snprintf(buf, len, "; draw %u vertex %u instance %u", L->draw_id, s[0], s[1]);
}
