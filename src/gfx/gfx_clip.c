/* Primitive assembly, clipping, perspective divide and viewport transform.
 * Triangles are clipped in clip space against the near and far planes
 * (-w <= z <= w, OpenGL's convention) and against a guard band of 64 w in
 * x and y, so window coordinates always fit the rasteriser's fixed point;
 * the viewport's own sides are enforced by the pixel rectangle instead
 * (guard-band clipping, as hardware does). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gfx/gfx_int.h"

#define MAX_POLY 9 /* a triangle clipped by 6 planes */

typedef struct cvert {
    float c[4];
    float var[WS_GFX_MAX_VARYINGS];
} cvert;

/* In double: with x, y or w near FLT_MAX, 64 w - x and the intersection's
 * differences would overflow a float. */
static double plane_dist(int p, const cvert *v)
{
    const double x = v->c[0], y = v->c[1], z = v->c[2], w = v->c[3];
    switch (p) {
    case 0: return z + w;                    /* near */
    case 1: return w - z;                    /* far  */
    case 2: return GFX_GUARD_BAND * w - x;
    case 3: return GFX_GUARD_BAND * w + x;
    case 4: return GFX_GUARD_BAND * w - y;
    default: return GFX_GUARD_BAND * w + y;
    }
}

/* The point where edge in->out crosses the plane. Always computed from the
 * inside vertex, so the two triangles sharing an edge get the same point. */
static void intersect(const cvert *in, double din, const cvert *out, double dout, uint32_t nvar, cvert *r)
{
    double t = din / (din - dout);
    for (int i = 0; i < 4; i++) r->c[i] = (float)(in->c[i] + ((double)out->c[i] - in->c[i]) * t);
    for (uint32_t i = 0; i < nvar; i++) r->var[i] = (float)(in->var[i] + ((double)out->var[i] - in->var[i]) * t);
}

/* Sutherland-Hodgman against one plane; returns the new vertex count. */
static int clip_plane(int p, const cvert *src, int n, cvert *dst, uint32_t nvar)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        const cvert *a = &src[i], *b = &src[(i + 1) % n];
        double da = plane_dist(p, a), db = plane_dist(p, b);
        if (da >= 0) dst[m++] = *a;
        if ((da >= 0) != (db >= 0)) {
            if (da >= 0) intersect(a, da, b, db, nvar, &dst[m++]);
            else intersect(b, db, a, da, nvar, &dst[m++]);
        }
    }
    return m;
}

/* Window coordinates of a vertex inside every plane (|x|, |y| <= 64 w).
 * Returns 0 if it cannot be projected: w = 0 (the eye point, which the
 * planes let through: -0 <= 0 <= 0) or so small that 1/w overflows. */
int gfx_window_of(const ws_gfx_state *s, const float c[4], float win[3], float *inv_w)
{
    if (!(c[3] > 0)) return 0;
    float iw = 1.0f / c[3];
    if (!isfinite(iw)) return 0;
    win[0] = s->vp_x + (c[0] * iw + 1.0f) * s->vp_w * 0.5f;
    win[1] = s->vp_y + (1.0f - c[1] * iw) * s->vp_h * 0.5f;
    win[2] = s->vp_zmin + (c[2] * iw + 1.0f) * 0.5f * (s->vp_zmax - s->vp_zmin);
    *inv_w = iw;
    return 1;
}

static int to_window(const gfx_draw *d, const cvert *v, gfx_wvert *o)
{
    float win[3];
    if (!gfx_window_of(d->st, v->c, win, &o->inv_w)) return 0;
    o->x = win[0], o->y = win[1], o->z = win[2];
    memcpy(o->var, v->var, d->nvar * sizeof(float));
    return 1;
}

/* Which input primitive a triangle (or a piece of it) is. */
typedef struct prim_id {
    uint32_t prim, instance;
    uint64_t seq;
} prim_id;

/* Appends the triangle, or sets *invalid when a vertex cannot be projected. */
static ws_status push_tri(gfx_draw *d, gfx_tri_list *l, const cvert *a, const cvert *b, const cvert *c,
                          const prim_id *id, int *invalid)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        gfx_tri *t = realloc(l->t, cap * sizeof *t);
        if (!t) return ws_set_error(d->dev, WS_ERR_OUT_OF_MEMORY, "graphics: out of host memory");
        l->t = t;
        l->cap = cap;
    }
    gfx_tri *t = &l->t[l->n];
    if (!to_window(d, a, &t->v[0]) || !to_window(d, b, &t->v[1]) || !to_window(d, c, &t->v[2])) {
        *invalid = 1;
        return WS_OK;
    }
    t->prim = id->prim;
    t->instance = id->instance;
    t->seq = id->seq;
    l->n++;
    return WS_OK;
}

static void load(const float *rec, uint32_t nvar, cvert *v)
{
    memcpy(v->c, rec, 16);
    memcpy(v->var, rec + 4, nvar * sizeof(float));
}

/* One assembled triangle: reject, accept or clip. Each input primitive
 * counts once in the statistics however many pieces clipping cuts it into:
 * invalid here only if none of its pieces could be projected (setup counts
 * the others: gfx_raster.c). */
static ws_status clip_tri(gfx_draw *d, const float *r0, const float *r1, const float *r2, const prim_id *id,
                          gfx_tri_list *out)
{
    cvert poly[2][MAX_POLY];
    load(r0, d->nvar, &poly[0][0]);
    load(r1, d->nvar, &poly[0][1]);
    load(r2, d->nvar, &poly[0][2]);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 4; k++)
            if (!isfinite(poly[0][i].c[k])) { d->stats->primitives_invalid++; return WS_OK; }
    unsigned out_all = 0x3F, out_any = 0;
    for (int i = 0; i < 3; i++) {
        unsigned o = 0;
        for (int p = 0; p < 6; p++) if (plane_dist(p, &poly[0][i]) < 0) o |= 1u << p;
        out_all &= o;
        out_any |= o;
    }
    if (out_all) { d->stats->primitives_clipped++; return WS_OK; } /* wholly outside one plane */
    int invalid = 0;
    const size_t before = out->n;
    ws_status st = WS_OK;
    if (!out_any) {
        st = push_tri(d, out, &poly[0][0], &poly[0][1], &poly[0][2], id, &invalid);
    } else {
        d->stats->primitives_clipped++;
        int n = 3, cur = 0;
        for (int p = 0; p < 6 && n >= 3; p++) {
            if (!(out_any & (1u << p))) continue;
            n = clip_plane(p, poly[cur], n, poly[cur ^ 1], d->nvar);
            cur ^= 1;
        }
        for (int i = 1; st == WS_OK && i + 1 < n; i++) {
            if (!(poly[cur][0].c[3] > 0 && poly[cur][i].c[3] > 0 && poly[cur][i + 1].c[3] > 0)) continue;
            st = push_tri(d, out, &poly[cur][0], &poly[cur][i], &poly[cur][i + 1], id, &invalid);
        }
    }
    if (st == WS_OK && invalid && out->n == before) d->stats->primitives_invalid++;
    return st;
}

ws_status gfx_assemble(gfx_draw *d, const float *vout, uint64_t ninv, gfx_tri_list *out)
{
    const ws_gfx_cmd *c = d->cmd;
    uint32_t vf = d->st->pipe.vout_floats, count = c->count;
    if (!ninv || count < 3) return WS_OK;
    int strip = d->st->pipe.desc.topology == WS_GFX_TRIANGLE_STRIP;
    uint32_t ntri = strip ? count - 2 : count / 3;
    for (uint32_t inst = 0; inst < c->instances; inst++) {
        const float *base = vout + (uint64_t)inst * count * vf;
        for (uint32_t t = 0; t < ntri; t++) {
            uint32_t i0 = strip ? t : 3 * t, i1 = i0 + 1, i2 = i0 + 2;
            if (strip && (t & 1)) { i0 = t + 1; i1 = t; } /* keep the strip's winding */
            d->stats->primitives_in++;
            const prim_id id = { .prim = t, .instance = c->first_instance + inst, .seq = (uint64_t)inst * ntri + t };
            ws_status st = clip_tri(d, base + (uint64_t)i0 * vf, base + (uint64_t)i1 * vf, base + (uint64_t)i2 * vf,
                                    &id, out);
            if (st != WS_OK) return st;
        }
    }
    return WS_OK;
}
