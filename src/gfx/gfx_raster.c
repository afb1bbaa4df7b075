/* Triangle setup, binning and rasterisation into 2x2 quads.
 *
 * Setup snaps window coordinates to 24.8 fixed point and evaluates edge
 * functions exactly in 64-bit integers at pixel centres (x + 0.5, y + 0.5).
 * A pixel exactly on an edge belongs to the triangle only if that edge is a
 * bottom or a left edge of the triangle as the picture shows it (Mesa's
 * llvmpipe's rule): two triangles sharing an edge cover each pixel once.
 *
 * Binning sorts the triangles of a batch into 16x16-pixel tiles, keeping
 * primitive order within a tile; each tile then emits, triangle by
 * triangle, every 2x2 quad with at least one covered pixel as four lanes
 * (uncovered pixels become helper lanes, which feed derivatives and write
 * nothing). A pixel's fragments therefore reach the raster-output stage in
 * primitive order however the quads are shaded, also when a full batch of
 * lanes is shaded and written in the middle of a tile. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gfx/gfx_int.h"

#define ONE (1 << GFX_SUBPIXEL_BITS)
#define HALF (ONE / 2)

typedef struct setup {
    const gfx_tri *t;
    int perm[3];                 /* vertex order with positive area         */
    int64_t x[3], y[3];          /* fixed-point window coordinates          */
    int64_t bias[3];             /* 0 for top/left edges, -1 otherwise       */
    int64_t area;                /* twice the area, in fixed point squared   */
    double inv_area;             /* 1 / area: barycentrics by multiplication */
    int32_t bx0, by0, bx1, by1;  /* pixel bounding box in the rect, [x0, x1) */
    int front;
} setup;

static int64_t snap(float v) { return (int64_t)llrintf(v * (float)ONE); }

/* Edge from vertex a to b at fixed-point point (px, py). */
static inline int64_t edge(const setup *s, int a, int b, int64_t px, int64_t py)
{
    return (s->x[b] - s->x[a]) * (py - s->y[a]) - (s->y[b] - s->y[a]) * (px - s->x[a]);
}

/* The fill rule: OpenGL's window coordinates put y = 0 at the bottom, and
 * Mesa's llvmpipe (checked by tests/gfx, tests/gfx/mesa_ref.h) keeps the
 * bottom and left edges of a triangle in those coordinates. Here y = 0 is
 * the top row, so the rule keeps edges whose triangle lies above them (a
 * horizontal edge with the interior at smaller y) and left edges
 * (interior at larger x). With
 * the interior where edge functions are positive, those are the edges
 * running right to left (dy == 0, dx < 0) or upwards (dy < 0). */
static int is_top_left(int64_t dx, int64_t dy) { return (dy == 0 && dx < 0) || dy < 0; }

/* The statistics count input primitives: a triangle the clipper cut into
 * pieces is rasterised if any piece is, else culled if any piece was
 * (facing or zero area); pieces arrive in primitive order. */
static void prim_done(gfx_draw *d)
{
    if (!d->prim.have) return;
    if (d->prim.rasterized) d->stats->primitives_rasterized++;
    else if (d->prim.culled) d->stats->primitives_culled++;
    d->prim.have = 0;
}

void gfx_rasterize_end(gfx_draw *d) { prim_done(d); }

/* Returns 1 if the triangle survives setup (not degenerate, not culled,
 * touches the pixel rectangle). */
static int triangle_setup(gfx_draw *d, const gfx_tri *t, setup *s)
{
    if (!d->prim.have || d->prim.seq != t->seq) {
        prim_done(d);
        d->prim.have = 1;
        d->prim.seq = t->seq;
        d->prim.culled = d->prim.rasterized = 0;
    }
    s->t = t;
    int64_t x[3], y[3];
    for (int i = 0; i < 3; i++) { x[i] = snap(t->v[i].x); y[i] = snap(t->v[i].y); }
    int64_t area = (x[1] - x[0]) * (y[2] - y[0]) - (y[1] - y[0]) * (x[2] - x[0]);
    if (area == 0) { d->prim.culled = 1; return 0; }
    /* y points down in window space: counter-clockwise as seen by the
     * viewer (y up) has negative area here. */
    int ccw = area < 0;
    s->front = d->st->pipe.desc.front_face == WS_GFX_CCW ? ccw : !ccw;
    ws_gfx_cull cull = d->st->pipe.desc.cull;
    if ((cull == WS_GFX_CULL_BACK && !s->front) || (cull == WS_GFX_CULL_FRONT && s->front)) {
        d->prim.culled = 1;
        return 0;
    }
    int p[3] = { 0, 1, 2 };
    if (area < 0) { p[1] = 2; p[2] = 1; area = -area; }
    for (int i = 0; i < 3; i++) { s->perm[i] = p[i]; s->x[i] = x[p[i]]; s->y[i] = y[p[i]]; }
    s->area = area;
    s->inv_area = 1.0 / (double)area;
    for (int i = 0; i < 3; i++) {
        int j = (i + 1) % 3; /* edge i runs from vertex i to vertex j */
        s->bias[i] = is_top_left(s->x[j] - s->x[i], s->y[j] - s->y[i]) ? 0 : -1;
    }
    int64_t minx = s->x[0], maxx = s->x[0], miny = s->y[0], maxy = s->y[0];
    for (int i = 1; i < 3; i++) {
        if (s->x[i] < minx) minx = s->x[i];
        if (s->x[i] > maxx) maxx = s->x[i];
        if (s->y[i] < miny) miny = s->y[i];
        if (s->y[i] > maxy) maxy = s->y[i];
    }
    /* pixels whose centre lies in [min, max] */
    int64_t bx0 = (minx - HALF + ONE - 1) >> GFX_SUBPIXEL_BITS, bx1 = ((maxx - HALF) >> GFX_SUBPIXEL_BITS) + 1;
    int64_t by0 = (miny - HALF + ONE - 1) >> GFX_SUBPIXEL_BITS, by1 = ((maxy - HALF) >> GFX_SUBPIXEL_BITS) + 1;
    if (bx0 < d->rx0) bx0 = d->rx0;
    if (by0 < d->ry0) by0 = d->ry0;
    if (bx1 > d->rx1) bx1 = d->rx1;
    if (by1 > d->ry1) by1 = d->ry1;
    if (bx0 >= bx1 || by0 >= by1) return 0;
    s->bx0 = (int32_t)bx0; s->by0 = (int32_t)by0; s->bx1 = (int32_t)bx1; s->by1 = (int32_t)by1;
    d->prim.rasterized = 1;
    return 1;
}

/* Early depth test is legal when failing against the depth buffer as it is
 * before the batch implies failing later: the compare moves one way. */
static int early_z_legal(const ws_gfx_state *st)
{
    ws_gfx_compare op = st->pipe.desc.depth_compare;
    return st->pipe.desc.depth_test && st->target.depth &&
           (op == WS_GFX_LESS || op == WS_GFX_LEQUAL || op == WS_GFX_GREATER || op == WS_GFX_GEQUAL ||
            op == WS_GFX_NEVER);
}

static ws_status frags_reserve(gfx_draw *d, gfx_frags *f, uint32_t more)
{
    uint32_t per = 4 + d->nvar;
    if (per != f->per) { /* another layout: the kept buffers are sized in lanes of the old one */
        if (f->n) return ws_set_error(d->dev, WS_ERR_INTERNAL, "graphics: fragment layout changed mid-batch");
        f->per = per;
        f->cap = 0;
    }
    if (f->n + more <= f->cap) return WS_OK;
    uint32_t cap = f->cap ? f->cap : 4096;
    while (cap < f->n + more) cap *= 2;
    float *in = realloc(f->in, (size_t)cap * per * sizeof(float));
    if (in) f->in = in;
    uint32_t *sys = realloc(f->sys, (size_t)cap * WS_GFX_SYSVALS * sizeof(uint32_t));
    if (sys) f->sys = sys;
    float *dep = realloc(f->depth, (size_t)cap * sizeof(float));
    if (dep) f->depth = dep;
    if (!in || !sys || !dep) return ws_set_error(d->dev, WS_ERR_OUT_OF_MEMORY, "graphics: out of host memory");
    f->cap = cap;
    return WS_OK;
}

/* The window depth at a pixel with edge values e: linear in window space,
 * z = sum b_k z_k, summed over the exact edge values and divided by the
 * area once. The early depth test and the fragment's depth (its late test
 * and gl_FragCoord.z) both take it from here: computed twice, as a
 * division there and a sum of products by 1/area here, the two rounded
 * some pixels to neighbouring floats, and a redraw at LEQUAL lost them. */
static float pixel_depth(const setup *s, const int64_t e[3])
{
    const gfx_tri *t = s->t;
    double num = (double)e[1] * t->v[s->perm[0]].z + (double)e[2] * t->v[s->perm[1]].z +
                 (double)e[0] * t->v[s->perm[2]].z;
    return (float)(num / (double)s->area);
}

/* One lane: perspective-correct varyings at the pixel centre. */
static void emit_lane(gfx_draw *d, const setup *s, gfx_frags *f, int32_t x, int32_t y, int covered,
                      const int64_t e[3])
{
    const gfx_tri *t = s->t;
    uint32_t i = f->n++, per = 4 + d->nvar;
    /* barycentric weight of (sorted) vertex k is the edge opposite it */
    double b[3] = { (double)e[1] * s->inv_area, (double)e[2] * s->inv_area, (double)e[0] * s->inv_area };
    const gfx_wvert *v[3] = { &t->v[s->perm[0]], &t->v[s->perm[1]], &t->v[s->perm[2]] };
    double q[3], sum = 0;
    for (int k = 0; k < 3; k++) {
        q[k] = b[k] * v[k]->inv_w;
        sum += q[k];
    }
    float z = pixel_depth(s, e);
    float *in = f->in + (size_t)i * per;
    in[0] = (float)x + 0.5f;
    in[1] = (float)y + 0.5f;
    in[2] = z;
    in[3] = (float)sum;
    double inv = sum != 0 ? 1.0 / sum : 0;
    for (uint32_t k = 0; k < d->nvar; k++)
        in[4 + k] = (float)((q[0] * v[0]->var[k] + q[1] * v[1]->var[k] + q[2] * v[2]->var[k]) * inv);
    f->depth[i] = z;
    uint32_t *sy = f->sys + (size_t)i * WS_GFX_SYSVALS;
    sy[0] = (uint32_t)x;
    sy[1] = (uint32_t)y;
    sy[2] = (s->front ? WS_GFX_FLAG_FRONT : 0) | (covered ? 0 : WS_GFX_FLAG_HELPER);
    sy[3] = t->prim;
    sy[4] = t->instance;
    if (d->probe && covered) gfx_probe_fragment(d, t, s->front, x, y, f->depth[i], 0);
}

/* The quads of triangle s inside tile [tx0, tx1) x [ty0, ty1). */
static ws_status raster_tile(gfx_draw *d, const setup *s, int32_t tx0, int32_t ty0, int32_t tx1, int32_t ty1,
                             gfx_frags *f, gfx_flush_fn flush, const float *zbuf, int early)
{
    int32_t x0 = s->bx0 > tx0 ? s->bx0 : tx0, y0 = s->by0 > ty0 ? s->by0 : ty0;
    int32_t x1 = s->bx1 < tx1 ? s->bx1 : tx1, y1 = s->by1 < ty1 ? s->by1 : ty1;
    if (x0 >= x1 || y0 >= y1) return WS_OK;
    x0 &= ~1;
    y0 &= ~1;
    const ws_gfx_state *st = d->st;
    for (int32_t qy = y0; qy < y1; qy += 2)
        for (int32_t qx = x0; qx < x1; qx += 2) {
            int64_t e[4][3];
            unsigned mask = 0;
            for (int k = 0; k < 4; k++) {
                int32_t px = qx + (k & 1), py = qy + (k >> 1);
                int64_t fx = (int64_t)px * ONE + HALF, fy = (int64_t)py * ONE + HALF;
                int in = px >= (int32_t)d->rx0 && px < (int32_t)d->rx1 && py >= (int32_t)d->ry0 && py < (int32_t)d->ry1;
                for (int j = 0; j < 3; j++) {
                    e[k][j] = edge(s, j, (j + 1) % 3, fx, fy);
                    if (e[k][j] + s->bias[j] < 0) in = 0;
                }
                if (in) mask |= 1u << k;
            }
            if (!mask) continue;
            if (early) {
                for (int k = 0; k < 4; k++) {
                    if (!(mask & (1u << k))) continue;
                    int32_t px = qx + (k & 1), py = qy + (k >> 1);
                    float z = pixel_depth(s, e[k]);
                    if (!gfx_depth_pass(st->pipe.desc.depth_compare, z, zbuf[(size_t)py * st->target.w + px])) {
                        mask &= ~(1u << k);
                        d->stats->fragments_early_z_killed++;
                        if (d->probe) gfx_probe_fragment(d, s->t, s->front, px, py, z, 1);
                    }
                }
                if (!mask) continue;
            }
            /* A full batch is shaded and written before the quad: batches
             * hold at most GFX_BATCH_LANES lanes (checked at tile ends
             * only, until 2026-11-28 one tile of 4096 overlapping
             * triangles could double a batch, and its 32 varyings no
             * longer fit the default device memory). Each pixel's
             * fragments still reach raster output in primitive order. */
            ws_status r = f->n + 4 > GFX_BATCH_LANES ? flush(d, f) : WS_OK;
            if (r == WS_OK) r = frags_reserve(d, f, 4);
            if (r != WS_OK) return r;
            for (int k = 0; k < 4; k++) {
                int covered = (mask >> k) & 1;
                if (!covered) d->stats->helper_lanes++;
                emit_lane(d, s, f, qx + (k & 1), qy + (k >> 1), covered, e[k]);
            }
            d->stats->quads++;
        }
    return WS_OK;
}

ws_status gfx_rasterize(gfx_draw *d, const gfx_tri *tris, size_t n, gfx_frags *f, gfx_flush_fn flush)
{
    setup *s = malloc((n ? n : 1) * sizeof *s);
    if (!s) return ws_set_error(d->dev, WS_ERR_OUT_OF_MEMORY, "graphics: out of host memory");
    size_t live = 0;
    for (size_t i = 0; i < n; i++)
        if (triangle_setup(d, &tris[i], &s[live])) live++;
    /* Binning: tiles cover the rectangle from a quad-aligned corner. */
    int32_t ox = (int32_t)(d->rx0 & ~(GFX_TILE - 1u)), oy = (int32_t)(d->ry0 & ~(GFX_TILE - 1u));
    uint32_t ntx = (d->rx1 - (uint32_t)ox + GFX_TILE - 1) / GFX_TILE, nty = (d->ry1 - (uint32_t)oy + GFX_TILE - 1) / GFX_TILE;
    size_t ntiles = (size_t)ntx * nty;
    uint32_t *count = calloc(ntiles + 1, sizeof *count);
    uint32_t *list = NULL;
    ws_status st = WS_OK;
    if (!count) { free(s); return ws_set_error(d->dev, WS_ERR_OUT_OF_MEMORY, "graphics: out of host memory"); }
    size_t total = 0;
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < live; i++) {
            uint32_t tx0 = (uint32_t)(s[i].bx0 - ox) / GFX_TILE, tx1 = (uint32_t)(s[i].bx1 - 1 - ox) / GFX_TILE;
            uint32_t ty0 = (uint32_t)(s[i].by0 - oy) / GFX_TILE, ty1 = (uint32_t)(s[i].by1 - 1 - oy) / GFX_TILE;
            for (uint32_t ty = ty0; ty <= ty1; ty++)
                for (uint32_t tx = tx0; tx <= tx1; tx++) {
                    size_t tile = (size_t)ty * ntx + tx;
                    if (pass == 0) { count[tile + 1]++; total++; }
                    else list[count[tile]++] = (uint32_t)i;
                }
        }
        if (pass == 0) {
            for (size_t t = 0; t < ntiles; t++) count[t + 1] += count[t];
            list = malloc((total ? total : 1) * sizeof *list);
            if (!list) { st = ws_set_error(d->dev, WS_ERR_OUT_OF_MEMORY, "graphics: out of host memory"); break; }
        }
    }
    /* after the second pass count[t] is the end of tile t's list */
    const float *zbuf = d->st->target.depth ? (const float *)(const void *)ws_mem_global_ptr(&d->dev->mem, d->st->target.depth) : NULL;
    int early = early_z_legal(d->st);
    for (size_t t = 0; st == WS_OK && t < ntiles; t++) {
        int32_t tx0 = ox + (int32_t)(t % ntx) * GFX_TILE, ty0 = oy + (int32_t)(t / ntx) * GFX_TILE;
        for (uint32_t k = t ? count[t - 1] : 0; st == WS_OK && k < count[t]; k++)
            st = raster_tile(d, &s[list[k]], tx0, ty0, tx0 + GFX_TILE, ty0 + GFX_TILE, f, flush, zbuf, early);
    }
    free(list);
    free(count);
    free(s);
    return st;
}
