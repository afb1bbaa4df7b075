/* The graphics hardware's commands and state, shared by the runtime's
 * graphics API (src/runtime/gfx_*.c), which builds them, and the device's
 * fixed-function stages (src/gfx/), which execute them. A command carries a
 * full snapshot of the state it needs: later API calls never change it. */
#ifndef WS_GFX_GFX_H
#define WS_GFX_GFX_H
#include <stdint.h>
#include "warpscope/graphics.h"

struct ws_kernel;

/* A vertex attribute format: the floats the vertex fetch packs for it (a
 * unorm8x4 becomes four 0..1 floats), and its name in messages. */
static inline uint32_t ws_gfx_format_floats(ws_gfx_format f) { return f == WS_GFX_UNORM8X4 ? 4 : (uint32_t)f; }
static inline const char *ws_gfx_format_name(ws_gfx_format f)
{
    static const char *const names[] = { "?", "float", "float2", "float3", "float4", "unorm8x4" };
    return (unsigned)f < sizeof names / sizeof names[0] ? names[f] : "?";
}

/* A texture as the texture unit sees it: RGBA8 levels packed one after
 * another in one device allocation. */
#define WS_GFX_MAX_LEVELS 14
typedef struct ws_gfx_tex_hw {
    uint32_t addr;                         /* device address of level 0      */
    uint32_t w, h, levels;
    uint32_t level_off[WS_GFX_MAX_LEVELS]; /* byte offset of each level      */
} ws_gfx_tex_hw;

typedef struct ws_gfx_target_hw {
    uint32_t color, depth;                 /* device addresses (depth 0: none) */
    uint32_t w, h;
} ws_gfx_target_hw;

/* One shader stage of a pipeline, resolved to device addresses. */
typedef struct ws_gfx_stage {
    struct ws_kernel *kernel;              /* the runtime's handle (tools)   */
    const char *name;
    uint32_t entry, body;                  /* device addresses               */
    uint32_t shared_lo, shared_total, dyn_shared_addr;
    uint32_t nparams;                      /* as declared (the uniforms
                                              pointer is optional)          */
    int old_sysvals;                       /* its module was built before
                                              WS_SYSVALS_SECTION (abi.h)     */
} ws_gfx_stage;

typedef struct ws_gfx_pipeline_hw {
    ws_gfx_stage vs, fs;
    ws_gfx_pipeline_desc desc;             /* shader handles not used here   */
    uint32_t vin_floats;                   /* floats the vertex fetch packs  */
    uint32_t vout_floats;                  /* position (4) + varyings        */
} ws_gfx_pipeline_hw;

typedef struct ws_gfx_buffer { uint32_t addr, size; } ws_gfx_buffer;

/* Everything a draw reads: a snapshot of the graphics context. */
typedef struct ws_gfx_state {
    int has_target, has_pipeline;
    ws_gfx_target_hw target;
    ws_gfx_pipeline_hw pipe;
    ws_gfx_buffer vbuf[WS_GFX_MAX_BINDINGS];
    ws_gfx_buffer ibuf;
    ws_gfx_index_type itype;
    uint32_t uniforms;
    int tex_bound[WS_GFX_MAX_TEXTURES];
    ws_gfx_tex_hw tex[WS_GFX_MAX_TEXTURES];
    ws_gfx_sampler sampler[WS_GFX_MAX_TEXTURES];
    float vp_x, vp_y, vp_w, vp_h, vp_zmin, vp_zmax;
    int has_viewport;
    uint32_t sc_x, sc_y, sc_w, sc_h;       /* sc_w == 0: no scissor          */
} ws_gfx_state;

typedef enum ws_gfx_cmd_kind {
    GFX_CMD_CLEAR, GFX_CMD_DRAW, GFX_CMD_UPLOAD, GFX_CMD_MIPGEN, GFX_CMD_FRAME
} ws_gfx_cmd_kind;

typedef struct ws_gfx_cmd {
    ws_gfx_cmd_kind kind;
    ws_gfx_state st;
    uint64_t draw_id;
    /* GFX_CMD_DRAW */
    int indexed;
    uint32_t count, instances, first, first_instance;
    int32_t base_vertex;
    /* GFX_CMD_CLEAR */
    float clear_rgba[4], clear_depth;
    /* GFX_CMD_UPLOAD / GFX_CMD_MIPGEN: one texture (st.tex[0]) */
    uint32_t level;
    uint8_t *data;                         /* owned snapshot of the texels   */
    uint64_t ndata;
    /* GFX_CMD_FRAME: frame number; begin (1) or present (0) */
    uint64_t frame;
    int begin;
} ws_gfx_cmd;

#endif
