/* Primitive assembly, clipping, perspective divide and viewport transform.
 * Triangles are clipped in clip space against the near and far planes
 * (-w <= z <= w, OpenGL's convention) and against a guard band of 64 w in
 * x and y, so window coordinates always fit the rasteriser's fixed point;
 * the viewport's own sides are enforced by the pixel rectangle instead
 * (guard-band clipping, as hardware does).
 *
 * Every vertex the clipper makes is computed from the triangle's own three
 * vertices, never from the vertices an earlier plane made: it is either
 * where an edge of the triangle meets a plane, or where the triangle meets
 * two planes, and its position is a ratio of polynomials in the input
 * floats that is evaluated exactly (floating-point expansions) and rounded
 * once. So a vertex 1e30 w away moves no visible edge: the result depends
 * on the triangle, not on how far its vertices are. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "gfx/gfx_int.h"

#define MAX_POLY 9 /* a triangle clipped by 6 planes */
#define EXP_MAX 128 /* components of an exact sum (at most 48 terms are summed) */

/* ---- exact arithmetic on doubles (error-free transformations) ---- */

static void two_sum(double a, double b, double *s, double *e)
{
    double x = a + b, bv = x - a, av = x - bv;
    *s = x;
    *e = (a - av) + (b - bv);
}

static void split(double a, double *hi, double *lo)
{
    double c = 134217729.0 * a; /* 2^27 + 1 */
    double big = c - a;
    *hi = c - big;
    *lo = a - *hi;
}

/* a * b = *p + *e exactly (Dekker; no fused multiply-add needed) */
static void two_prod(double a, double b, double *p, double *e)
{
    double x = a * b, ah, al, bh, bl;
    split(a, &ah, &al);
    split(b, &bh, &bl);
    *p = x;
    *e = ((ah * bh - x) + ah * bl + al * bh) + al * bl;
}

/* An exact sum of doubles as a non-overlapping expansion, smallest
 * component first. */
typedef struct expansion {
    int n;
    double h[EXP_MAX];
} expansion;

static void exp_add(expansion *x, double v)
{
    if (v == 0) return;
    double q = v;
    int m = 0;
    for (int i = 0; i < x->n; i++) {
        double e;
        two_sum(q, x->h[i], &q, &e);
        if (e != 0) x->h[m++] = e;
    }
    if (q != 0 && m < EXP_MAX) x->h[m++] = q;
    x->n = m;
}

/* The expansion rounded to a double (within an ulp or so of the exact value). */
static double exp_value(const expansion *x)
{
    double s = 0;
    for (int i = 0; i < x->n; i++) s += x->h[i];
    return s;
}

/* ---- the triangle and its clipped polygon ---- */

/* A plane's distance of an input vertex, exactly, as the sum d[0] + d[1]
 * (64 w is exact in double; so are the products of two such terms). */
static void plane_terms(int p, const float *c, double d[2])
{
    const double x = c[0], y = c[1], z = c[2], w = c[3], g = (double)GFX_GUARD_BAND * w;
    switch (p) {
    case 0: d[0] = w, d[1] = z; break;   /* near: z + w */
    case 1: d[0] = w, d[1] = -z; break;  /* far:  w - z */
    case 2: d[0] = g, d[1] = -x; break;
    case 3: d[0] = g, d[1] = x; break;
    case 4: d[0] = g, d[1] = -y; break;
    default: d[0] = g, d[1] = y; break;
    }
}

/* The same distance of a polygon vertex, from its (rounded) position. */
static double plane_dist(int p, const double *c)
{
    const double x = c[0], y = c[1], z = c[2], w = c[3], g = (double)GFX_GUARD_BAND * w;
    switch (p) {
    case 0: return z + w;
    case 1: return w - z;
    case 2: return g - x;
    case 3: return g + x;
    case 4: return g - y;
    default: return g + y;
    }
}

/* A vertex of the clipped polygon: its position, its barycentric weights
 * in the input triangle (for the varyings), and what it lies on. */
typedef struct pvert {
    double c[4];
    double b[3];
    int orig;        /* the input vertex it is, or -1 */
    unsigned edges;  /* bit e: on the input edge from vertex e to e + 1 */
    unsigned planes; /* bit p: made on clip plane p */
} pvert;

typedef struct tri_in {
    const float *v[3]; /* records: clip position, then the varyings */
    double d[6][3][2]; /* plane_terms of each plane and vertex */
} tri_in;

/* Is input vertex i before j in a fixed order of positions (so the two
 * triangles sharing an edge sum its terms in the same order)? */
static int vert_before(const tri_in *t, int i, int j)
{
    for (int k = 0; k < 4; k++)
        if (t->v[i][k] != t->v[j][k]) return t->v[i][k] < t->v[j][k];
    return i < j;
}

/* The point with unnormalised barycentric weights wt[k] (each an exact
 * sum of nw[k] terms), taken in vertex order ord[]: position rounded from
 * the exact ratio sum(wt_k V_k) / sum(wt_k). Returns 0 if degenerate. */
static int point_of(const tri_in *t, const double wt[3][8], const int nw[3], const int ord[3], pvert *r)
{
    expansion den, bk[3];
    den.n = 0;
    for (int o = 0; o < 3; o++) {
        int k = ord[o];
        bk[k].n = 0;
        for (int m = 0; m < nw[k]; m++) { exp_add(&bk[k], wt[k][m]); exp_add(&den, wt[k][m]); }
    }
    double dv = exp_value(&den);
    if (!(dv != 0) || !isfinite(dv)) return 0;
    for (int c = 0; c < 4; c++) {
        expansion num;
        num.n = 0;
        for (int o = 0; o < 3; o++) {
            int k = ord[o];
            for (int m = 0; m < bk[k].n; m++) {
                double p, e;
                two_prod(bk[k].h[m], t->v[k][c], &p, &e);
                exp_add(&num, e);
                exp_add(&num, p);
            }
        }
        r->c[c] = exp_value(&num) / dv;
        if (!isfinite(r->c[c])) return 0;
    }
    for (int k = 0; k < 3; k++) r->b[k] = exp_value(&bk[k]) / dv;
    return 1;
}

/* Make the plane's own coordinate exact on a vertex made on it. */
static void on_plane(int p, double *c)
{
    const double g = (double)GFX_GUARD_BAND * c[3];
    switch (p) {
    case 0: c[2] = -c[3]; break;
    case 1: c[2] = c[3]; break;
    case 2: c[0] = g; break;
    case 3: c[0] = -g; break;
    case 4: c[1] = g; break;
    default: c[1] = -g; break;
    }
}

/* Where input edge e meets plane p: weights d_p(V_j) for V_i, -d_p(V_i)
 * for V_j. Returns 0 if the edge's ends are on one side of the plane
 * (only a rounding of a made vertex can ask that). */
static int edge_point(const tri_in *t, int e, int p, pvert *r)
{
    int i = e, j = (e + 1) % 3;
    const double *di = t->d[p][i], *dj = t->d[p][j];
    if ((di[0] + di[1] >= 0) == (dj[0] + dj[1] >= 0)) return 0;
    double wt[3][8];
    int nw[3] = { 0, 0, 0 };
    wt[i][0] = dj[0], wt[i][1] = dj[1], nw[i] = 2;
    wt[j][0] = -di[0], wt[j][1] = -di[1], nw[j] = 2;
    int k = 3 - i - j;
    int ord[3];
    if (vert_before(t, i, j)) ord[0] = i, ord[1] = j;
    else ord[0] = j, ord[1] = i;
    ord[2] = k;
    return point_of(t, wt, nw, ord, r);
}

/* Where the triangle meets planes p and q: weights d_p x d_q. */
static int corner_point(const tri_in *t, int p, int q, pvert *r)
{
    double wt[3][8];
    int nw[3], ord[3] = { 0, 1, 2 };
    for (int k = 0; k < 3; k++) {
        int a = (k + 1) % 3, b = (k + 2) % 3, n = 0;
        for (int s = 0; s < 2; s++)
            for (int u = 0; u < 2; u++) {
                wt[k][n++] = t->d[p][a][s] * t->d[q][b][u];
                wt[k][n++] = -(t->d[p][b][s] * t->d[q][a][u]);
            }
        nw[k] = n;
    }
    if (!point_of(t, wt, nw, ord, r)) return 0;
    for (int k = 0; k < 3; k++)
        if (!(r->b[k] > -1e-6 && r->b[k] < 1 + 1e-6)) return 0; /* not inside the triangle: degenerate */
    return 1;
}

/* The point where polygon edge a-b (a inside plane p, b outside) crosses
 * it: from the input triangle on the line both lie on, else (degenerate
 * input) interpolated from a towards b. */
static void crossing(const tri_in *t, int p, const pvert *a, double da, const pvert *b, double db, pvert *r)
{
    unsigned e = a->edges & b->edges, q = a->planes & b->planes;
    int ok = 0;
    memset(r, 0, sizeof *r);
    if (e) {
        int k = (e & 1) ? 0 : (e & 2) ? 1 : 2;
        ok = edge_point(t, k, p, r);
        r->edges = 1u << k;
    } else if (q) {
        int k = 0;
        while (!(q >> k & 1)) k++;
        ok = corner_point(t, k, p, r);
        r->planes = 1u << k;
    }
    if (!ok) {
        double s = da / (da - db);
        for (int i = 0; i < 4; i++) r->c[i] = a->c[i] + (b->c[i] - a->c[i]) * s;
        for (int i = 0; i < 3; i++) r->b[i] = a->b[i] + (b->b[i] - a->b[i]) * s;
        r->edges = e;
        r->planes = q;
    }
    on_plane(p, r->c);
    r->planes |= 1u << p;
    r->orig = -1;
}

/* Sutherland-Hodgman against one plane; returns the new vertex count. */
static int clip_plane(const tri_in *t, int p, const pvert *src, int n, pvert *dst)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        const pvert *a = &src[i], *b = &src[(i + 1) % n];
        double da = plane_dist(p, a->c), db = plane_dist(p, b->c);
        if (da >= 0) dst[m++] = *a;
        if ((da >= 0) != (db >= 0)) {
            if (da >= 0) crossing(t, p, a, da, b, db, &dst[m++]);
            else crossing(t, p, b, db, a, da, &dst[m++]);
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

/* An input vertex projects as gfx_window_of does (so an edge two
 * triangles share lands in the same place, clipped or not); a made one in
 * double from its exact position, rounded once. */
static int to_window(const gfx_draw *d, const tri_in *t, const pvert *v, gfx_wvert *o)
{
    if (v->orig >= 0) {
        float win[3];
        if (!gfx_window_of(d->st, t->v[v->orig], win, &o->inv_w)) return 0;
        o->x = win[0], o->y = win[1], o->z = win[2];
        memcpy(o->var, t->v[v->orig] + 4, d->nvar * sizeof(float));
        return 1;
    }
    const ws_gfx_state *s = d->st;
    if (!(v->c[3] > 0)) return 0;
    double iw = 1.0 / v->c[3];
    if (!isfinite((float)iw)) return 0;
    o->x = (float)(s->vp_x + (v->c[0] * iw + 1.0) * s->vp_w * 0.5);
    o->y = (float)(s->vp_y + (1.0 - v->c[1] * iw) * s->vp_h * 0.5);
    o->z = (float)(s->vp_zmin + (v->c[2] * iw + 1.0) * 0.5 * ((double)s->vp_zmax - s->vp_zmin));
    o->inv_w = (float)iw;
    for (uint32_t i = 0; i < d->nvar; i++)
        o->var[i] = (float)(v->b[0] * t->v[0][4 + i] + v->b[1] * t->v[1][4 + i] + v->b[2] * t->v[2][4 + i]);
    return 1;
}

/* Which input primitive a triangle (or a piece of it) is. */
typedef struct prim_id {
    uint32_t prim, instance;
    uint64_t seq;
} prim_id;

/* Appends the triangle, or sets *invalid when a vertex cannot be projected. */
static ws_status push_tri(gfx_draw *d, gfx_tri_list *l, const tri_in *in, const pvert *a, const pvert *b,
                          const pvert *c, const prim_id *id, int *invalid)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        gfx_tri *t = realloc(l->t, cap * sizeof *t);
        if (!t) return ws_set_error(d->dev, WS_ERR_OUT_OF_MEMORY, "graphics: out of host memory");
        l->t = t;
        l->cap = cap;
    }
    gfx_tri *t = &l->t[l->n];
    if (!to_window(d, in, a, &t->v[0]) || !to_window(d, in, b, &t->v[1]) || !to_window(d, in, c, &t->v[2])) {
        *invalid = 1;
        return WS_OK;
    }
    t->prim = id->prim;
    t->instance = id->instance;
    t->seq = id->seq;
    l->n++;
    return WS_OK;
}

/* One assembled triangle: reject, accept or clip. Each input primitive
 * counts once in the statistics however many pieces clipping cuts it into:
 * invalid here only if none of its pieces could be projected (setup counts
 * the others: gfx_raster.c). */
static ws_status clip_tri(gfx_draw *d, const float *r0, const float *r1, const float *r2, const prim_id *id,
                          gfx_tri_list *out)
{
    tri_in in = { .v = { r0, r1, r2 } };
    pvert poly[2][MAX_POLY];
    for (int i = 0; i < 3; i++) {
        for (int k = 0; k < 4; k++)
            if (!isfinite(in.v[i][k])) { d->stats->primitives_invalid++; return WS_OK; }
        pvert *v = &poly[0][i];
        for (int k = 0; k < 4; k++) v->c[k] = in.v[i][k];
        for (int k = 0; k < 3; k++) v->b[k] = k == i;
        v->orig = i;
        v->edges = 1u << i | 1u << (i + 2) % 3;
        v->planes = 0;
    }
    unsigned out_all = 0x3F, out_any = 0;
    for (int i = 0; i < 3; i++) {
        unsigned o = 0;
        for (int p = 0; p < 6; p++) {
            plane_terms(p, in.v[i], in.d[p][i]);
            if (in.d[p][i][0] + in.d[p][i][1] < 0) o |= 1u << p;
        }
        out_all &= o;
        out_any |= o;
    }
    if (out_all) { d->stats->primitives_clipped++; return WS_OK; } /* wholly outside one plane */
    int invalid = 0;
    const size_t before = out->n;
    ws_status st = WS_OK;
    if (!out_any) {
        st = push_tri(d, out, &in, &poly[0][0], &poly[0][1], &poly[0][2], id, &invalid);
    } else {
        d->stats->primitives_clipped++;
        int n = 3, cur = 0;
        for (int p = 0; p < 6 && n >= 3; p++) {
            if (!(out_any & (1u << p))) continue;
            n = clip_plane(&in, p, poly[cur], n, poly[cur ^ 1]);
            cur ^= 1;
        }
        for (int i = 1; st == WS_OK && i + 1 < n; i++) {
            if (!(poly[cur][0].c[3] > 0 && poly[cur][i].c[3] > 0 && poly[cur][i + 1].c[3] > 0)) continue;
            st = push_tri(d, out, &in, &poly[cur][0], &poly[cur][i], &poly[cur][i + 1], id, &invalid);
        }
    }
    if (st == WS_OK && invalid && out->n == before) d->stats->primitives_invalid++;
    return st;
}
ws_status gfx_assemble(gfx_draw *d, const float *vout, uint64_t ninv, gfx_assembly *at, size_t want,
                       gfx_tri_list *out)
{
    const ws_gfx_cmd *c = d->cmd;
    uint32_t vf = d->st->pipe.vout_floats, count = c->count;
    if (!ninv || count < 3) { at->done = 1; return WS_OK; }
    int strip = d->st->pipe.desc.topology == WS_GFX_TRIANGLE_STRIP;
    uint32_t ntri = strip ? count - 2 : count / 3;
    for (; at->instance < c->instances; at->instance++, at->tri = 0) {
        const float *base = vout + (uint64_t)at->instance * count * vf;
        for (; at->tri < ntri; at->tri++) {
            if (out->n >= want) return WS_OK;
            uint32_t t = at->tri, i0 = strip ? t : 3 * t, i1 = i0 + 1, i2 = i0 + 2;
            if (strip && (t & 1)) { i0 = t + 1; i1 = t; } /* keep the strip's winding */
            d->stats->primitives_in++;
            const prim_id id = { .prim = t, .instance = c->first_instance + at->instance,
                                 .seq = (uint64_t)at->instance * ntri + t };
            ws_status st = clip_tri(d, base + (uint64_t)i0 * vf, base + (uint64_t)i1 * vf, base + (uint64_t)i2 * vf,
                                    &id, out);
            if (st != WS_OK) return st;
        }
    }
    at->done = 1;
    return WS_OK;
}
