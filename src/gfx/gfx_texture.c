/* The texture unit and fragment discard, reached by ecall from shaders.
 *
 * ws_tex2d takes its level of detail from the quad: lanes 4k..4k+3 of a
 * fragment warp are the pixels (x, y), (x+1, y), (x, y+1), (x+1, y+1) of one
 * 2x2 quad, so d/dx is the difference to the lane one to the right and d/dy
 * to the lane one below, taken once per quad (coarse derivatives, as most
 * GPUs do). lod = log2(max(|d(uv)/dx|, |d(uv)/dy|) * texture size). A quad
 * whose lanes are not all executing the sample (divergence) uses the pairs
 * that are; with none, lod is 0. */
#include <math.h>
#include <string.h>
#include "gfx/gfx_int.h"

/* Texel index c of a level `size` texels wide: wrapped or clamped. |c| is
 * at most 1e9 + 1 (coordinates are limited before), so int64 holds it. */
static uint32_t wrap_coord(int64_t c, uint32_t size, ws_gfx_wrap mode)
{
    if (mode == WS_GFX_CLAMP) return c < 0 ? 0 : c >= size ? size - 1 : (uint32_t)c;
    if (!(size & (size - 1))) return (uint32_t)(c & (size - 1)); /* two's complement: also for c < 0 */
    int64_t m = c % size;
    return (uint32_t)(m < 0 ? m + size : m);
}

/* Texel (x, y) as floats: value / 255 from the device's table. */
typedef float unorm_table;

static void texel(const unorm_table *u, const uint8_t *lvl, uint32_t w, uint32_t x, uint32_t y, float out[4])
{
    const uint8_t *p = lvl + ((size_t)y * w + x) * 4;
    for (int k = 0; k < 4; k++) out[k] = u[p[k]];
}

static void sample_level(const unorm_table *ut, const ws_memory *m, const ws_gfx_tex_hw *t, const ws_gfx_sampler *s,
                         uint32_t level, double u, double v, float out[4])
{
    uint32_t w = t->w >> level ? t->w >> level : 1, h = t->h >> level ? t->h >> level : 1;
    const uint8_t *lvl = ws_mem_global_ptr(m, t->addr + t->level_off[level]);
    double fu = u * w, fv = v * h;
    if (!isfinite(fu) || fabs(fu) > 1e9) fu = 0;
    if (!isfinite(fv) || fabs(fv) > 1e9) fv = 0;
    if (s->filter == WS_GFX_NEAREST) {
        uint32_t x = wrap_coord((int64_t)floor(fu), w, s->wrap_u), y = wrap_coord((int64_t)floor(fv), h, s->wrap_v);
        texel(ut, lvl, w, x, y, out);
        return;
    }
    double x0 = floor(fu - 0.5), y0 = floor(fv - 0.5);
    float a = (float)(fu - 0.5 - x0), b = (float)(fv - 0.5 - y0);
    int64_t ix = (int64_t)x0, iy = (int64_t)y0;
    uint32_t xa = wrap_coord(ix, w, s->wrap_u), xb = wrap_coord(ix + 1, w, s->wrap_u);
    uint32_t ya = wrap_coord(iy, h, s->wrap_v), yb = wrap_coord(iy + 1, h, s->wrap_v);
    float t00[4], t10[4], t01[4], t11[4];
    texel(ut, lvl, w, xa, ya, t00);
    texel(ut, lvl, w, xb, ya, t10);
    texel(ut, lvl, w, xa, yb, t01);
    texel(ut, lvl, w, xb, yb, t11);
    for (int k = 0; k < 4; k++) {
        float top = t00[k] + (t10[k] - t00[k]) * a, bot = t01[k] + (t11[k] - t01[k]) * a;
        out[k] = top + (bot - top) * b;
    }
}

static void sample(const unorm_table *ut, const ws_memory *m, const ws_gfx_tex_hw *t, const ws_gfx_sampler *s,
                   double u, double v, float lod, float out[4])
{
    if (!s->mipmaps || t->levels < 2 || !(lod > 0)) { sample_level(ut, m, t, s, 0, u, v, out); return; }
    float top = (float)(t->levels - 1);
    if (lod > top) lod = top;
    if (s->mip_filter == WS_GFX_NEAREST) { /* the nearest level; a tie takes the finer one (OpenGL, Vulkan) */
        sample_level(ut, m, t, s, (uint32_t)ceilf(lod + 0.5f) - 1, u, v, out);
        return;
    }
    uint32_t l0 = (uint32_t)floorf(lod), l1 = l0 + 1 < t->levels ? l0 + 1 : l0;
    float f = lod - (float)l0, a[4], b[4];
    sample_level(ut, m, t, s, l0, u, v, a);
    sample_level(ut, m, t, s, l1, u, v, b);
    for (int k = 0; k < 4; k++) out[k] = a[k] + (b[k] - a[k]) * f;
}

static float as_float(uint32_t bits) { float f; memcpy(&f, &bits, 4); return f; }
static uint32_t as_bits(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

/* d(u,v) between lanes a and b scaled to texels, if both execute (in g). */
static int diff(const ws_warp *w, uint32_t g, uint32_t a, uint32_t b, const ws_gfx_tex_hw *t, double *len)
{
    if (!((g >> a) & 1) || !((g >> b) & 1)) return 0;
    double du = ((double)as_float(w->f[10][b]) - as_float(w->f[10][a])) * t->w;
    double dv = ((double)as_float(w->f[11][b]) - as_float(w->f[11][a])) * t->h;
    *len = sqrt(du * du + dv * dv);
    return isfinite(*len);
}

static float quad_lod(const ws_warp *w, uint32_t g, uint32_t l, const ws_gfx_tex_hw *t)
{
    uint32_t q = l & ~3u;
    double dx = 0, dy = 0;
    if (!diff(w, g, q, q + 1, t, &dx)) diff(w, g, q + 2, q + 3, t, &dx);
    if (!diff(w, g, q, q + 2, t, &dy)) diff(w, g, q + 1, q + 3, t, &dy);
    double rho = dx > dy ? dx : dy;
    return rho > 0 ? (float)log2(rho) : 0.0f;
}

int ws_gfx_ecall(ws_device *dev, ws_warp *w, uint32_t g, uint32_t pc)
{
    const ws_grid_run *L = dev->current;
    const ws_gfx_run *r = L ? L->gfx : NULL;
    uint32_t res[WS_MAX_LANES][4], sampled = 0;
    const unorm_table *ut = dev->gfx ? dev->gfx->unorm : NULL;
    float lod_q[WS_MAX_LANES / 4];
    uint32_t lod_quad[WS_MAX_LANES / 4];
    memset(lod_quad, 0xFF, sizeof lod_quad); /* no quad's lod known yet */
    for (uint32_t m = g; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m), svc = w->x[17][l];
        if (!r) {
            ws_fault_raise(dev, w, l, FAULT_ECALL, pc, 0, 0, "environment call a7=0x%x (%s) outside a shader", svc,
                           svc == WS_ECALL_DISCARD ? "ws_discard" : "ws_tex2d");
            return -1;
        }
        uint64_t t = ws_lane_grid_thread(L, w, l);
        if (svc == WS_ECALL_DISCARD) {
            if (!r->fragment) {
                ws_fault_raise(dev, w, l, FAULT_ECALL, pc, 0, 0, "ws_discard called in a vertex shader");
                return -1;
            }
            uint32_t *flags = &r->sysval[t * WS_GFX_SYSVALS + 2];
            if (!(*flags & WS_GFX_FLAG_HELPER)) *flags |= WS_GFX_FLAG_HELPER | GFX_FLAG_DISCARDED;
            continue;
        }
        if (svc != WS_ECALL_TEX && svc != WS_ECALL_TEX_LOD) {
            ws_fault_raise(dev, w, l, FAULT_ECALL, pc, 0, 0, "unknown environment call a7=%u (see WS_ECALL_* in abi.h)", svc);
            return -1;
        }
        uint32_t slot = w->x[10][l];
        if (slot >= WS_GFX_MAX_TEXTURES || !r->st->tex_bound[slot] || !ut) {
            ws_fault_raise(dev, w, l, FAULT_ECALL, pc, 0, 0, "ws_tex2d: texture slot %u is not bound "
                           "(ws_gfx_set_texture; slots 0..%u)", slot, WS_GFX_MAX_TEXTURES - 1);
            return -1;
        }
        const ws_gfx_tex_hw *tex = &r->st->tex[slot];
        float lod = 0.0f;
        if (svc == WS_ECALL_TEX_LOD) lod = as_float(w->f[12][l]);
        else if (r->fragment) { /* once per quad and texture slot */
            uint32_t q = l >> 2;
            if (lod_quad[q] != slot) { lod_q[q] = quad_lod(w, g, l, tex); lod_quad[q] = slot; }
            lod = lod_q[q];
        }
        float out[4];
        sample(ut, &dev->mem, tex, &r->st->sampler[slot], as_float(w->f[10][l]), as_float(w->f[11][l]), lod, out);
        for (int k = 0; k < 4; k++) res[l][k] = as_bits(out[k]);
        sampled |= 1u << l;
    }
    /* Results land only after every lane's lod has read its quad's fa0/fa1. */
    for (uint32_t m = sampled; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        for (int k = 0; k < 4; k++) w->f[10 + k][l] = res[l][k];
    }
    if (sampled) w->fp_used = 1;
    return 0;
}
