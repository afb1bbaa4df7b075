/* Warpscope graphics API: draw triangles on the simulated GPU. Fixed-function
 * stages (vertex fetch, primitive assembly, clipping, setup, binning,
 * rasterisation, depth and blending) are device hardware; vertex and
 * fragment shaders are C functions marked WS_VERTEX / WS_FRAGMENT
 * (<warpscope/shader.h>), compiled by `warpscope cc` and run as warps on
 * the SIMT cores. docs/graphics.md describes every stage's rules.
 *
 * As in the rest of the API, data moves only through calls: vertex, index
 * and uniform buffers are ordinary device allocations (ws_malloc +
 * ws_memcpy_htod); textures and render targets are uploaded and read back
 * through the calls below. State set with ws_gfx_set_* is the device's
 * graphics context (one per device); a draw takes a snapshot of it, so
 * later changes do not affect queued draws. */
#ifndef WARPSCOPE_GRAPHICS_H
#define WARPSCOPE_GRAPHICS_H
#include "warpscope.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ws_gfx_target ws_gfx_target;     /* RGBA8 colour + optional f32 depth */
typedef struct ws_gfx_texture ws_gfx_texture;   /* 2-D RGBA8 with mipmaps            */
typedef struct ws_gfx_pipeline ws_gfx_pipeline;

#define WS_GFX_MAX_ATTRIBUTES 16
#define WS_GFX_MAX_BINDINGS 8
#define WS_GFX_MAX_TEXTURES 8
#define WS_GFX_MAX_VARYINGS 32     /* floats after the position               */
#define WS_GFX_MAX_SIZE 8192       /* largest target or texture side           */

/* ---- render targets ---- */
/* A w x h RGBA8 colour image, with a 32-bit float depth image when
 * with_depth is non-zero. Row 0 is the top row of the picture. */
WS_API ws_status ws_gfx_target_create(ws_device *dev, uint32_t w, uint32_t h, int with_depth,
                                      ws_gfx_target **out);
WS_API ws_status ws_gfx_target_destroy(ws_device *dev, ws_gfx_target *t);
WS_API ws_status ws_gfx_target_size(const ws_gfx_target *t, uint32_t *w, uint32_t *h);
/* Read the colour image (n = w*h*4 bytes, rows top to bottom) or the
 * depth image (n = w*h: a count of floats, not bytes). Runs queued work
 * first. */
WS_API ws_status ws_gfx_target_read(ws_device *dev, ws_gfx_target *t, void *rgba, size_t n);
WS_API ws_status ws_gfx_target_read_depth(ws_device *dev, ws_gfx_target *t, float *depth, size_t n);

/* Replace the colour or depth image (same n as the reads), after
 * queued work: how a frame replayer restores a captured frame's start. */
WS_API ws_status ws_gfx_target_write(ws_device *dev, ws_gfx_target *t, const void *rgba, size_t n);
WS_API ws_status ws_gfx_target_write_depth(ws_device *dev, ws_gfx_target *t, const float *depth, size_t n);

/* ---- textures and samplers ---- */
/* levels: 1..log2(max(w,h))+1, or 0 for the full chain. */
WS_API ws_status ws_gfx_texture_create(ws_device *dev, uint32_t w, uint32_t h, uint32_t levels,
                                       ws_gfx_texture **out);
WS_API ws_status ws_gfx_texture_destroy(ws_device *dev, ws_gfx_texture *t);
/* Upload one level: (w >> level) x (h >> level) RGBA8 texels (at least 1). */
WS_API ws_status ws_gfx_texture_upload(ws_device *dev, ws_gfx_texture *t, uint32_t level,
                                       const void *rgba, size_t n);
/* Read one level back (sizes as for upload). Runs queued work first. */
WS_API ws_status ws_gfx_texture_read(ws_device *dev, ws_gfx_texture *t, uint32_t level, void *rgba, size_t n);
/* The texture's size and number of levels. */
WS_API ws_status ws_gfx_texture_levels(const ws_gfx_texture *t, uint32_t *w, uint32_t *h, uint32_t *levels);
/* Fill levels 1.. from level 0 with a 2x2 box filter (rounded to nearest). */
WS_API ws_status ws_gfx_texture_generate_mips(ws_device *dev, ws_gfx_texture *t);

typedef enum ws_gfx_filter { WS_GFX_NEAREST = 0, WS_GFX_LINEAR = 1 } ws_gfx_filter;
typedef enum ws_gfx_wrap { WS_GFX_REPEAT = 0, WS_GFX_CLAMP = 1 } ws_gfx_wrap;
typedef struct ws_gfx_sampler {
    ws_gfx_filter filter;        /* within a level                              */
    ws_gfx_filter mip_filter;    /* between levels                               */
    int mipmaps;                 /* 0: always level 0                            */
    ws_gfx_wrap wrap_u, wrap_v;
} ws_gfx_sampler;

/* ---- pipelines ---- */
typedef enum ws_gfx_format {
    WS_GFX_FLOAT1 = 1, WS_GFX_FLOAT2, WS_GFX_FLOAT3, WS_GFX_FLOAT4,
    WS_GFX_UNORM8X4              /* 4 bytes, each / 255.0                      */
} ws_gfx_format;
typedef struct ws_gfx_attribute {
    uint32_t binding;            /* vertex buffer slot                          */
    uint32_t offset;             /* bytes from the start of the element          */
    ws_gfx_format format;        /* fetched and converted to floats in order    */
} ws_gfx_attribute;
typedef struct ws_gfx_binding {
    uint32_t stride;             /* bytes between elements                       */
    int per_instance;            /* index by instance instead of vertex          */
} ws_gfx_binding;

typedef enum ws_gfx_topology { WS_GFX_TRIANGLE_LIST = 0, WS_GFX_TRIANGLE_STRIP = 1 } ws_gfx_topology;
typedef enum ws_gfx_cull { WS_GFX_CULL_NONE = 0, WS_GFX_CULL_BACK, WS_GFX_CULL_FRONT } ws_gfx_cull;
typedef enum ws_gfx_winding { WS_GFX_CCW = 0, WS_GFX_CW = 1 } ws_gfx_winding; /* front face */
typedef enum ws_gfx_compare {
    WS_GFX_NEVER = 0, WS_GFX_LESS, WS_GFX_EQUAL, WS_GFX_LEQUAL,
    WS_GFX_GREATER, WS_GFX_NOTEQUAL, WS_GFX_GEQUAL, WS_GFX_ALWAYS
} ws_gfx_compare;
typedef enum ws_gfx_blend {
    WS_GFX_BLEND_OPAQUE = 0,     /* dst = src; src clamped to 0..1 in every mode */
    WS_GFX_BLEND_ALPHA,          /* dst = src*a + dst*(1-a), alpha likewise      */
    WS_GFX_BLEND_ADDITIVE        /* dst = min(src + dst, 1)                      */
} ws_gfx_blend;

typedef struct ws_gfx_pipeline_desc {
    ws_kernel *vertex_shader;    /* a WS_VERTEX function                         */
    ws_kernel *fragment_shader;  /* a WS_FRAGMENT function                       */
    uint32_t nattributes;
    ws_gfx_attribute attributes[WS_GFX_MAX_ATTRIBUTES];
    uint32_t nbindings;
    ws_gfx_binding bindings[WS_GFX_MAX_BINDINGS];
    ws_gfx_topology topology;
    ws_gfx_cull cull;
    ws_gfx_winding front_face;
    int depth_test, depth_write;  /* depth_write acts only with depth_test on       */
    ws_gfx_compare depth_compare;
    ws_gfx_blend blend;
} ws_gfx_pipeline_desc;

/* Checks the shaders' parameter types (DWARF) against the layout: the
 * vertex input struct must hold exactly the fetched floats, and the vertex
 * output struct (position + varyings) must be the fragment shader's input. */
WS_API ws_status ws_gfx_pipeline_create(ws_device *dev, const ws_gfx_pipeline_desc *desc,
                                        ws_gfx_pipeline **out);
WS_API ws_status ws_gfx_pipeline_destroy(ws_device *dev, ws_gfx_pipeline *p);

/* ---- the graphics context ---- */
WS_API ws_status ws_gfx_set_target(ws_device *dev, ws_gfx_target *t);
WS_API ws_status ws_gfx_set_pipeline(ws_device *dev, ws_gfx_pipeline *p);
/* Vertex buffer slot `binding`: [addr, addr + size) of a device allocation. */
WS_API ws_status ws_gfx_set_vertex_buffer(ws_device *dev, uint32_t binding, ws_addr addr, uint32_t size);
typedef enum ws_gfx_index_type { WS_GFX_INDEX_U16 = 2, WS_GFX_INDEX_U32 = 4 } ws_gfx_index_type;
WS_API ws_status ws_gfx_set_index_buffer(ws_device *dev, ws_addr addr, uint32_t size, ws_gfx_index_type type);
/* The address the shaders get as their uniforms pointer (0: none). */
WS_API ws_status ws_gfx_set_uniforms(ws_device *dev, ws_addr addr);
WS_API ws_status ws_gfx_set_texture(ws_device *dev, uint32_t slot, ws_gfx_texture *t,
                                    const ws_gfx_sampler *sampler);
/* Viewport in pixels (default: the whole target, depth 0..1). All six
 * zero: back to the default (follow the bound target). */
WS_API ws_status ws_gfx_set_viewport(ws_device *dev, float x, float y, float w, float h,
                                     float min_depth, float max_depth);
/* Scissor rectangle in pixels (default: the whole target); w = 0 disables. */
WS_API ws_status ws_gfx_set_scissor(ws_device *dev, uint32_t x, uint32_t y, uint32_t w, uint32_t h);

/* ---- commands (queued in order with copies and launches) ---- */
WS_API ws_status ws_gfx_begin_frame(ws_device *dev, uint64_t *frame);
/* Clear the whole current target (colour, and depth if it has one): the
 * viewport and scissor limit draws only (docs/graphics.md). */
WS_API ws_status ws_gfx_clear(ws_device *dev, const float rgba[4], float depth);
WS_API ws_status ws_gfx_draw(ws_device *dev, uint32_t vertex_count, uint32_t instance_count,
                             uint32_t first_vertex, uint32_t first_instance);
WS_API ws_status ws_gfx_draw_indexed(ws_device *dev, uint32_t index_count, uint32_t instance_count,
                                     uint32_t first_index, int32_t base_vertex, uint32_t first_instance);
/* End the frame begun by ws_gfx_begin_frame: runs its work, marks it for
 * the tools and, when rgba is not NULL, reads the target's colour image
 * into it (w*h*4 bytes). */
WS_API ws_status ws_gfx_present(ws_device *dev, ws_gfx_target *t, void *rgba, size_t n);

/* Statistics of the most recent draw (functional counts are exact); of a
 * draw that stopped at a fault, what it did before the fault. */
typedef struct ws_gfx_draw_stats {
    uint64_t draw_id;            /* draws since the device opened, from 0        */
    /* primitives: the draw's triangles (per instance), each counted once
     * however many pieces the clipper cuts it into (docs/graphics.md) */
    uint64_t vertices_shaded, primitives_in, primitives_clipped, primitives_culled;
    uint64_t primitives_invalid;  /* dropped: a position was NaN or infinite    */
    uint64_t primitives_rasterized;
    uint64_t quads, fragments_shaded, helper_lanes;
    uint64_t fragments_early_z_killed, fragments_late_z_killed, fragments_discarded;
    uint64_t pixels_written;
    uint64_t vertex_launch_id, fragment_launch_id; /* last ones; ~0 = none      */
    double fixed_function_seconds, vertex_seconds, fragment_seconds;
} ws_gfx_draw_stats;
WS_API ws_status ws_gfx_last_draw_stats(const ws_device *dev, ws_gfx_draw_stats *out);
/* The id the next draw will get (its ws_gfx_draw_stats.draw_id, and what
 * ws_draw_id() reads in its shaders): draws that have vertices and
 * instances are numbered from 0 since the device opened. A capture records
 * it, so a replayed frame's draws keep their ids. */
WS_API ws_status ws_gfx_next_draw_id(ws_device *dev, uint64_t *out);

/* Write an RGBA8 image (rows top to bottom) as a PNG file (libpng). */
WS_API ws_status ws_gfx_write_png(const char *path, uint32_t w, uint32_t h, const void *rgba,
                                  char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
