/* What the sections of a frame capture hold (docs/capture-format.md,
 * "Frame content"): the capture shim encodes, the replayer decodes, both
 * through these helpers, so the two cannot disagree about a layout.
 *
 * Payloads are little-endian fields in a fixed order per kind: u32, u64,
 * f32 (IEEE bits as u32), str (u32 length + bytes, no NUL), blob (u64
 * length + bytes). Objects are named by ids the shim gives them when they
 * are created (one id space: modules, kernels, textures, targets,
 * pipelines; 0 = none). Allocations are named by their device address. */
#ifndef WS_CAPTURE_CAPTURE_CALLS_H
#define WS_CAPTURE_CAPTURE_CALLS_H
#include <stddef.h>
#include <stdint.h>
#include "warpscope/capture.h"
#include "warpscope/graphics.h"

/* Section types beyond those of capture.h (appended, never renumbered). */
enum {
    WSCAP_KERNEL = 10,       /* id: kernel id. u32 module id, str name           */
    WSCAP_TARGET = 11,       /* id: target id. u32 w, h, has_depth, blob rgba, blob depth */
    WSCAP_FAILURE = 12,      /* id: a call index. The frame's work failed (a
                                fault, an assert, a deadlock, the watchdog) and
                                a call reported it: u32 own (1: call `id`
                                itself returned it, the section follows its
                                API_CALL; 0: a call the capture does not hold
                                returned it just before call `id`, which may
                                be the call count: after the last call), u32
                                status (ws_status), str the call's name, str
                                the report (ws_last_error)                   */
};
/* Layouts of the capture.h section types:
 * DEVICE_CONFIG   u32 cores, warps_per_core, lanes_per_warp, shared_per_core,
 *                 max_shared_per_block, stack_per_lane, u64 global_mem_limit,
 *                 u32 max_threads_per_block, mode, warp_quantum, watchdog_ms,
 *                 str timing_file
 * MODULE_IMAGE    id: module id. str name, u32 base, blob image
 * ALLOCATION      id: address. u32 addr, u64 size, blob bytes (the contents)
 * TEXTURE         id: texture id. u32 w, h, levels, then a blob per level
 * PIPELINE        id: pipeline id. the pipeline description (wscap_put_pipeline)
 * GFX_STATE       the graphics context (wscap_put_gfx_state), then u32
 *                 in_frame, then u64 first_draw, u64 first_launch, then
 *                 u32 records_failures (older captures end before them:
 *                 in_frame 0, ids not known, failures not recorded)
 * FRAME_BEGIN     u64 frame number (as the shim counted it), u32 reason
 * FRAME_END       u64 frame number, u64 digest of the results (wscap_digest)
 * API_CALL        id: call index. u32 call (wscap_call), then its fields  */

typedef enum wscap_frame_reason {
    WSCAP_FRAME_GRAPHICS = 1,   /* ws_gfx_begin_frame .. ws_gfx_present          */
    WSCAP_FRAME_SYNC = 2,       /* from one synchronisation to the next          */
    WSCAP_FRAME_LAUNCHES = 3    /* a chosen range of launches                    */
} wscap_frame_reason;

/* Recorded calls; fields after the call number. */
typedef enum wscap_call {
    WSCAP_MALLOC = 1,           /* u64 size, u32 addr (the address it returned)  */
    WSCAP_FREE,                 /* u32 addr                                      */
    WSCAP_HTOD,                 /* u32 dst, blob bytes                           */
    WSCAP_DTOH,                 /* u32 src, u64 n   (a read back: waits)         */
    WSCAP_DTOD,                 /* u32 dst, u32 src, u64 n                       */
    WSCAP_MEMSET,               /* u32 dst, u32 value, u64 n                     */
    WSCAP_MODULE_LOAD,          /* u32 module id, str name, u32 base, blob image */
    WSCAP_MODULE_UNLOAD,        /* u32 module id                                 */
    WSCAP_KERNEL_GET,           /* u32 kernel id, u32 module id, str name        */
    WSCAP_LAUNCH,               /* u32 kernel id, u32 grid x y z, block x y z,
                                   u32 dynamic_shared, u32 nargs, nargs * (u32 type, u64 bits) */
    WSCAP_SYNCHRONIZE,          /* (no fields)                                   */
    WSCAP_FENCE_WAIT,           /* (no fields: replayed as a synchronisation)    */
    WSCAP_TARGET_CREATE,        /* u32 id, w, h, has_depth                       */
    WSCAP_TARGET_DESTROY,       /* u32 id                                        */
    WSCAP_TARGET_READ,          /* u32 id, u32 depth (0 colour, 1 depth)         */
    WSCAP_TARGET_WRITE,         /* u32 id, u32 depth, blob bytes                 */
    WSCAP_TEXTURE_CREATE,       /* u32 id, w, h, levels (as asked: 0 = full chain) */
    WSCAP_TEXTURE_DESTROY,      /* u32 id                                        */
    WSCAP_TEXTURE_UPLOAD,       /* u32 id, u32 level, blob texels                */
    WSCAP_TEXTURE_MIPS,         /* u32 id                                        */
    WSCAP_PIPELINE_CREATE,      /* u32 id, pipeline description                  */
    WSCAP_PIPELINE_DESTROY,     /* u32 id                                        */
    WSCAP_SET_TARGET,           /* u32 id                                        */
    WSCAP_SET_PIPELINE,         /* u32 id                                        */
    WSCAP_SET_VERTEX_BUFFER,    /* u32 binding, addr, size                       */
    WSCAP_SET_INDEX_BUFFER,     /* u32 addr, size, type                          */
    WSCAP_SET_UNIFORMS,         /* u32 addr                                      */
    WSCAP_SET_TEXTURE,          /* u32 slot, u32 texture id, u32 has_sampler, sampler (5 u32) */
    WSCAP_SET_VIEWPORT,         /* f32 x, y, w, h, min_depth, max_depth          */
    WSCAP_SET_SCISSOR,          /* u32 x, y, w, h                                */
    WSCAP_BEGIN_FRAME,          /* (no fields)                                   */
    WSCAP_CLEAR,                /* f32 r, g, b, a, depth                         */
    WSCAP_DRAW,                 /* u32 vertex_count, instance_count, first_vertex, first_instance */
    WSCAP_DRAW_INDEXED,         /* u32 index_count, instance_count, first_index, u32 base_vertex (i32 bits), first_instance */
    WSCAP_PRESENT,              /* u32 target id, u32 read_back (rgba != NULL)   */
    WSCAP_CALL_COUNT
} wscap_call;

/* Name of a call ("ws_gfx_draw"), "?" if unknown. */
const char *wscap_call_name(uint32_t call);

/* ---- encoding: a growing byte buffer; a failed allocation sets `failed`
 * and every later put is a no-op (checked once at the end). ---- */
typedef struct wscap_buf {
    uint8_t *data;
    size_t len, cap;
    int failed;
} wscap_buf;
void wscap_buf_free(wscap_buf *b);
void wscap_put_u32(wscap_buf *b, uint32_t v);
void wscap_put_u64(wscap_buf *b, uint64_t v);
void wscap_put_f32(wscap_buf *b, float v);
void wscap_put_str(wscap_buf *b, const char *s);
void wscap_put_blob(wscap_buf *b, const void *p, uint64_t n);

/* ---- decoding: a cursor over one payload; reading past the end (or a
 * length that does not fit) sets `bad`, returns zeros, and leaves the
 * cursor at the end, so a decoder checks `bad` once. ---- */
typedef struct wscap_cur {
    const uint8_t *p;
    uint64_t len, at;
    int bad;
    uint64_t bad_at;  /* where the first read that did not fit began: the
                         field at fault, for the message */
} wscap_cur;
wscap_cur wscap_cursor(const void *p, uint64_t len);
uint32_t wscap_u32(wscap_cur *c);
uint64_t wscap_u64(wscap_cur *c);
float wscap_f32(wscap_cur *c);
/* A string into buf (truncated to len-1, NUL-terminated). */
void wscap_str(wscap_cur *c, char *buf, size_t len);
/* A blob: pointer into the payload and its length (NULL, 0 when bad). */
const uint8_t *wscap_blob(wscap_cur *c, uint64_t *n);

/* Pipeline descriptions with kernels as ids. */
typedef struct wscap_pipeline {
    uint32_t vs, fs;            /* kernel ids                                    */
    ws_gfx_pipeline_desc desc;  /* vertex_shader / fragment_shader left NULL     */
} wscap_pipeline;
void wscap_put_pipeline(wscap_buf *b, const wscap_pipeline *p);
void wscap_get_pipeline(wscap_cur *c, wscap_pipeline *p);

/* The graphics context with objects as ids. */
typedef struct wscap_gfx_state {
    uint32_t target, pipeline;
    uint32_t vb_addr[WS_GFX_MAX_BINDINGS], vb_size[WS_GFX_MAX_BINDINGS];
    uint32_t ib_addr, ib_size, ib_type;          /* ib_type 0: never set        */
    uint32_t uniforms;
    uint32_t texture[WS_GFX_MAX_TEXTURES];
    ws_gfx_sampler sampler[WS_GFX_MAX_TEXTURES];
    int has_viewport;
    float viewport[6];
    uint32_t scissor[4];
    int in_frame;                /* a graphics frame is open (begun, not yet
                                    presented): a range of launches that
                                    starts inside one. Written last; absent
                                    in older captures (0) */
    /* The ids the first captured draw and launch get (ws_gfx_next_draw_id,
     * ws_next_launch_id when the capture began): shaders and kernels read
     * them, so every replay pass gives them again. Written after in_frame;
     * absent in older captures (has_ids 0). */
    int has_ids;
    uint64_t first_draw, first_launch;
    /* 1: every failure of the frame's work is in a WSCAP_FAILURE section
     * (captures from 2026-11-27 on). Written after first_launch; absent in
     * older captures (0: a failure in the replay cannot be told from one
     * the original had, so the replay stops there). */
    int records_failures;
} wscap_gfx_state;
void wscap_put_gfx_state(wscap_buf *b, const wscap_gfx_state *s);
void wscap_get_gfx_state(wscap_cur *c, wscap_gfx_state *s);

void wscap_put_config(wscap_buf *b, const ws_config *cfg);
void wscap_get_config(wscap_cur *c, ws_config *cfg);

/* The digest of a frame's results: FNV-1a (64-bit) over, in this order,
 * each live allocation by ascending address (u32 addr, u64 size, bytes),
 * then each render target by ascending id (u32 id, colour bytes, depth
 * bytes). Shim and replayer feed it the same way. */
#define WSCAP_DIGEST_INIT 0xcbf29ce484222325ull
uint64_t wscap_digest(uint64_t h, const void *p, size_t n);
uint64_t wscap_digest_u64(uint64_t h, uint64_t v);
/* One allocation / one render target, exactly as both sides must feed them
 * (addr and size as u64 little-endian, then the bytes; id as u64, colour
 * bytes, depth bytes or nothing). */
uint64_t wscap_digest_alloc(uint64_t h, uint32_t addr, uint64_t size, const void *bytes);
uint64_t wscap_digest_target(uint64_t h, uint32_t id, const void *rgba, size_t nrgba, const void *depth,
                             size_t ndepth);

#endif
