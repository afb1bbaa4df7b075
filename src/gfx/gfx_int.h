/* What the fixed-function stages hand each other inside one draw. */
#ifndef WS_GFX_GFX_INT_H
#define WS_GFX_GFX_INT_H
#include "gfx/gfx_device.h"
#include "gfx/gfx_mesh.h"
#include "gfx/gfx_probe.h"

#define GFX_SUBPIXEL_BITS 8          /* fixed point 24.8, as D3D and llvmpipe */
#define GFX_TILE 16                  /* binning tile side in pixels           */
#define GFX_GUARD_BAND 64.0f         /* |x|, |y| <= 64 w before clipping      */
#define GFX_BATCH_LANES (1u << 20)   /* fragment lanes shaded per batch       */

/* sysval flag (beside WS_GFX_FLAG_*): the shader called ws_discard. */
#define GFX_FLAG_DISCARDED 4u

/* A colour channel to 8 bits: clamped to [0, 1], rounded to nearest; NaN is 0. */
static inline uint8_t gfx_unorm8(float v)
{
    if (!(v > 0.0f)) return 0;
    if (v >= 1.0f) return 255;
    return (uint8_t)(v * 255.0f + 0.5f);
}

/* A colour channel clamped to [0, 1]; NaN is 0. */
static inline float gfx_clamp01(float v)
{
    return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
}

static inline int gfx_depth_pass(ws_gfx_compare op, float z, float ref)
{
    switch (op) {
    case WS_GFX_NEVER: return 0;
    case WS_GFX_LESS: return z < ref;
    case WS_GFX_EQUAL: return z == ref;
    case WS_GFX_LEQUAL: return z <= ref;
    case WS_GFX_GREATER: return z > ref;
    case WS_GFX_NOTEQUAL: return z != ref;
    case WS_GFX_GEQUAL: return z >= ref;
    default: return 1;
    }
}

/* A vertex after clipping, divide and viewport: window x, y (pixels, y
 * down), z (depth range) and 1/w, then the varyings. */
typedef struct gfx_wvert {
    float x, y, z, inv_w;
    float var[WS_GFX_MAX_VARYINGS];
} gfx_wvert;

/* A triangle ready for setup, in primitive (API) order. */
typedef struct gfx_tri {
    gfx_wvert v[3];
    uint32_t prim;                   /* primitive index in the draw (per
                                        instance, as gl_PrimitiveID)          */
    uint32_t instance;               /* the instance it belongs to            */
    uint64_t seq;                    /* the input primitive's ordinal in the
                                        draw: the pieces the clipper cuts one
                                        triangle into share it                */
} gfx_tri;

typedef struct gfx_tri_list {
    gfx_tri *t;
    size_t n, cap;
} gfx_tri_list;

/* One draw in flight. */
typedef struct gfx_draw {
    ws_device *dev;
    ws_gfx_cmd *cmd;
    const ws_gfx_state *st;
    ws_launch_fn launch;
    ws_gfx_draw_stats *stats;
    uint32_t nvar;                   /* varyings after the position           */
    /* the pixel rectangle fragments may touch: target ∩ viewport ∩ scissor */
    uint32_t rx0, ry0, rx1, ry1;     /* [x0, x1) x [y0, y1)                   */
    struct gfx_probe *probe;         /* armed pixel-history probe at a pixel
                                        of this draw's rectangle, else NULL  */
    /* setup's verdict on the input primitive whose pieces it is seeing, so
     * the statistics count primitives, not the pieces clipping made */
    struct { uint64_t seq; int have, culled, rasterized; } prim;
} gfx_draw;


/* gfx_launch.c: the device's graphics state (made on first use; NULL when
 * out of host memory), device memory for shader inputs and outputs (grown
 * as needed), faults of a draw, shader launches. */
ws_gfx_device *gfx_hw(ws_device *dev);
ws_status gfx_scratch(gfx_draw *d, uint64_t bytes, uint32_t *addr);
ws_status gfx_fault(gfx_draw *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Run one shader launch over `threads` grid threads. */
ws_status gfx_shade(gfx_draw *d, const ws_gfx_stage *s, int fragment, uint64_t threads, uint32_t *sysval,
                    const uint32_t base[3], const uint32_t stride[3], uint64_t *launch_id);

/* gfx_vertex.c: fetch, shade; *vout = host view of the shaded vertices
 * (count * instances records of 4 + nvar floats). */
ws_status gfx_vertex_stage(gfx_draw *d, uint64_t *ninv, const float **vout);

/* gfx_clip.c: triangles of the draw's vertices, clipped and in window
 * space, culled by facing; appended to out in primitive order. */
/* The window x, y, depth and 1/w of clip-space position c (the viewport
 * transform); 0 if it cannot be projected (w <= 0, or 1/w overflows). */
int gfx_window_of(const ws_gfx_state *s, const float c[4], float win[3], float *inv_w);
/* Where assembly stands in a draw: the next input triangle. */
typedef struct gfx_assembly {
    uint32_t instance, tri;
    int done;                        /* every triangle of the draw is out    */
} gfx_assembly;
/* Assembles input triangles from *at on, appending to out, until out holds
 * `want` triangles or the draw has no more (at->done): the caller
 * rasterises a batch at a time, so a draw never holds all its triangles. */
ws_status gfx_assemble(gfx_draw *d, const float *vout, uint64_t ninv, gfx_assembly *at, size_t want,
                       gfx_tri_list *out);

/* gfx_raster.c: fragments of triangles tris[0..n) into f, tile by tile;
 * when the next quad would take f past GFX_BATCH_LANES, flush(d, f) shades
 * and writes them first (a pixel's fragments still arrive in primitive
 * order). Early depth test against the target as it is now. */
typedef ws_status (*gfx_flush_fn)(gfx_draw *d, gfx_frags *f);
ws_status gfx_rasterize(gfx_draw *d, const gfx_tri *tris, size_t n, gfx_frags *f, gfx_flush_fn flush);
/* After the last batch: count the last primitive setup saw. */
void gfx_rasterize_end(gfx_draw *d);

/* gfx_rop.c: depth test and blend lanes in order into the target; colour
 * holds 4 floats per lane. */
void gfx_rop(gfx_draw *d, const gfx_frags *f, const float *color);

/* gfx_probe.c: the pixel-history probe (gfx_probe.h). The hooks below are
 * called only when the probe is armed (d->probe, dev->gfx->probe). The
 * rasteriser reports each covered fragment of the pixel in primitive order
 * (killed by the early depth test or sent to shading); the raster-output
 * stage then completes the sent ones, in the same order. */
typedef struct gfx_probe {
    uint32_t x, y;
    ws_gfx_probe_rec *rec;
    size_t n, cap;
    uint64_t commands;               /* clears and draws executed since arming */
    int lost;                        /* out of host memory: records dropped   */
    size_t draw_first, cursor;       /* this draw's records; next to complete */
    uint8_t rgba[4];                 /* the pixel when the draw began          */
    float depth;
} gfx_probe;

static inline int gfx_probe_hit(const gfx_probe *p, const uint32_t *sys) { return sys[0] == p->x && sys[1] == p->y; }
/* Draw start: sets d->probe when the pixel is in the draw's rectangle. */
void gfx_probe_draw_begin(gfx_draw *d);
void gfx_probe_draw_end(gfx_draw *d);
void gfx_probe_clear(ws_device *dev, const ws_gfx_cmd *c);
void gfx_probe_fragment(gfx_draw *d, const gfx_tri *t, int front, int32_t x, int32_t y, float z, int early_killed);
/* The raster-output stage's verdict on the next fragment of the pixel;
 * color: the shader's output; after the write for WRITTEN. */
void gfx_probe_rop(gfx_draw *d, ws_gfx_probe_event e, const float *color);

/* gfx_mesh.c: the vertex probe's copy of a draw's vertex stage (armed:
 * dev->gfx->mesh); sys holds WS_GFX_SYSVALS words per invocation (vertex,
 * instance, ...). */
void gfx_mesh_record(gfx_draw *d, uint64_t n, const float *in, const float *out, const uint32_t *sys);

#endif
