/* Encoding and decoding of frame-capture payloads (capture_calls.h). */
#include <stdlib.h>
#include <string.h>
#include "capture/capture_calls.h"
#include "capture/capture_file.h"

static const char *const call_names[WSCAP_CALL_COUNT] = {
    [WSCAP_MALLOC] = "ws_malloc", [WSCAP_FREE] = "ws_free", [WSCAP_HTOD] = "ws_memcpy_htod",
    [WSCAP_DTOH] = "ws_memcpy_dtoh", [WSCAP_DTOD] = "ws_memcpy_dtod", [WSCAP_MEMSET] = "ws_memset",
    [WSCAP_MODULE_LOAD] = "ws_module_load", [WSCAP_MODULE_UNLOAD] = "ws_module_unload",
    [WSCAP_KERNEL_GET] = "ws_kernel_get", [WSCAP_LAUNCH] = "ws_launch", [WSCAP_SYNCHRONIZE] = "ws_synchronize",
    [WSCAP_FENCE_WAIT] = "ws_fence_wait", [WSCAP_TARGET_CREATE] = "ws_gfx_target_create",
    [WSCAP_TARGET_DESTROY] = "ws_gfx_target_destroy", [WSCAP_TARGET_READ] = "ws_gfx_target_read",
    [WSCAP_TARGET_WRITE] = "ws_gfx_target_write", [WSCAP_TEXTURE_CREATE] = "ws_gfx_texture_create",
    [WSCAP_TEXTURE_DESTROY] = "ws_gfx_texture_destroy", [WSCAP_TEXTURE_UPLOAD] = "ws_gfx_texture_upload",
    [WSCAP_TEXTURE_MIPS] = "ws_gfx_texture_generate_mips", [WSCAP_PIPELINE_CREATE] = "ws_gfx_pipeline_create",
    [WSCAP_PIPELINE_DESTROY] = "ws_gfx_pipeline_destroy", [WSCAP_SET_TARGET] = "ws_gfx_set_target",
    [WSCAP_SET_PIPELINE] = "ws_gfx_set_pipeline", [WSCAP_SET_VERTEX_BUFFER] = "ws_gfx_set_vertex_buffer",
    [WSCAP_SET_INDEX_BUFFER] = "ws_gfx_set_index_buffer", [WSCAP_SET_UNIFORMS] = "ws_gfx_set_uniforms",
    [WSCAP_SET_TEXTURE] = "ws_gfx_set_texture", [WSCAP_SET_VIEWPORT] = "ws_gfx_set_viewport",
    [WSCAP_SET_SCISSOR] = "ws_gfx_set_scissor", [WSCAP_BEGIN_FRAME] = "ws_gfx_begin_frame",
    [WSCAP_CLEAR] = "ws_gfx_clear", [WSCAP_DRAW] = "ws_gfx_draw", [WSCAP_DRAW_INDEXED] = "ws_gfx_draw_indexed",
    [WSCAP_PRESENT] = "ws_gfx_present",
};

const char *wscap_call_name(uint32_t call)
{
    return call < WSCAP_CALL_COUNT && call_names[call] ? call_names[call] : "?";
}

/* ---- encoding ---- */

void wscap_buf_free(wscap_buf *b)
{
    free(b->data);
    memset(b, 0, sizeof *b);
}

static uint8_t *grow(wscap_buf *b, size_t n)
{
    if (b->failed) return NULL;
    if (n > SIZE_MAX / 2 - b->len) { b->failed = 1; return NULL; }
    if (b->len + n > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n) cap *= 2;
        uint8_t *d = realloc(b->data, cap);
        if (!d) { b->failed = 1; return NULL; }
        b->data = d;
        b->cap = cap;
    }
    uint8_t *p = b->data + b->len;
    b->len += n;
    return p;
}

void wscap_put_u32(wscap_buf *b, uint32_t v)
{
    uint8_t *p = grow(b, 4);
    if (p) wscap_put32(p, v);
}

void wscap_put_u64(wscap_buf *b, uint64_t v)
{
    uint8_t *p = grow(b, 8);
    if (p) wscap_put64(p, v);
}

void wscap_put_f32(wscap_buf *b, float v)
{
    uint32_t u;
    memcpy(&u, &v, 4);
    wscap_put_u32(b, u);
}

void wscap_put_str(wscap_buf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    wscap_put_u32(b, (uint32_t)n);
    uint8_t *p = n ? grow(b, n) : NULL;
    if (p) memcpy(p, s, n);
}

void wscap_put_blob(wscap_buf *b, const void *data, uint64_t n)
{
    wscap_put_u64(b, n);
    if (n > SIZE_MAX) { b->failed = 1; return; }
    uint8_t *p = n ? grow(b, (size_t)n) : NULL;
    if (p) memcpy(p, data, (size_t)n);
}

/* ---- decoding ---- */

wscap_cur wscap_cursor(const void *p, uint64_t len)
{
    return (wscap_cur){ .p = p, .len = len };
}

static const uint8_t *take(wscap_cur *c, uint64_t n)
{
    if (c->bad || n > c->len - c->at) {
        if (!c->bad) c->bad_at = c->at;
        c->bad = 1;
        c->at = c->len;
        return NULL;
    }
    const uint8_t *p = c->p + c->at;
    c->at += n;
    return p;
}

uint32_t wscap_u32(wscap_cur *c)
{
    const uint8_t *p = take(c, 4);
    return p ? wscap_get32(p) : 0;
}

uint64_t wscap_u64(wscap_cur *c)
{
    const uint8_t *p = take(c, 8);
    return p ? wscap_get64(p) : 0;
}

float wscap_f32(wscap_cur *c)
{
    uint32_t u = wscap_u32(c);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

void wscap_str(wscap_cur *c, char *buf, size_t len)
{
    uint32_t n = wscap_u32(c);
    const uint8_t *p = take(c, n);
    size_t k = p ? (n < len ? n : len - 1) : 0;
    if (k) memcpy(buf, p, k);
    if (len) buf[k] = 0;
}

const uint8_t *wscap_blob(wscap_cur *c, uint64_t *n)
{
    uint64_t len = wscap_u64(c);
    const uint8_t *p = take(c, len);
    *n = p ? len : 0;
    return p;
}

/* ---- compound values ---- */

void wscap_put_pipeline(wscap_buf *b, const wscap_pipeline *p)
{
    const ws_gfx_pipeline_desc *d = &p->desc;
    wscap_put_u32(b, p->vs);
    wscap_put_u32(b, p->fs);
    wscap_put_u32(b, d->nattributes);
    for (uint32_t i = 0; i < d->nattributes && i < WS_GFX_MAX_ATTRIBUTES; i++) {
        wscap_put_u32(b, d->attributes[i].binding);
        wscap_put_u32(b, d->attributes[i].offset);
        wscap_put_u32(b, (uint32_t)d->attributes[i].format);
    }
    wscap_put_u32(b, d->nbindings);
    for (uint32_t i = 0; i < d->nbindings && i < WS_GFX_MAX_BINDINGS; i++) {
        wscap_put_u32(b, d->bindings[i].stride);
        wscap_put_u32(b, (uint32_t)d->bindings[i].per_instance);
    }
    uint32_t rest[] = { d->topology, d->cull, d->front_face, (uint32_t)d->depth_test, (uint32_t)d->depth_write,
                        d->depth_compare, d->blend };
    for (size_t i = 0; i < sizeof rest / sizeof *rest; i++) wscap_put_u32(b, rest[i]);
}

void wscap_get_pipeline(wscap_cur *c, wscap_pipeline *p)
{
    memset(p, 0, sizeof *p);
    ws_gfx_pipeline_desc *d = &p->desc;
    p->vs = wscap_u32(c);
    p->fs = wscap_u32(c);
    d->nattributes = wscap_u32(c);
    if (d->nattributes > WS_GFX_MAX_ATTRIBUTES) { c->bad = 1; return; }
    for (uint32_t i = 0; i < d->nattributes; i++) {
        d->attributes[i].binding = wscap_u32(c);
        d->attributes[i].offset = wscap_u32(c);
        d->attributes[i].format = (ws_gfx_format)wscap_u32(c);
    }
    d->nbindings = wscap_u32(c);
    if (d->nbindings > WS_GFX_MAX_BINDINGS) { c->bad = 1; return; }
    for (uint32_t i = 0; i < d->nbindings; i++) {
        d->bindings[i].stride = wscap_u32(c);
        d->bindings[i].per_instance = (int)wscap_u32(c);
    }
    d->topology = (ws_gfx_topology)wscap_u32(c);
    d->cull = (ws_gfx_cull)wscap_u32(c);
    d->front_face = (ws_gfx_winding)wscap_u32(c);
    d->depth_test = (int)wscap_u32(c);
    d->depth_write = (int)wscap_u32(c);
    d->depth_compare = (ws_gfx_compare)wscap_u32(c);
    d->blend = (ws_gfx_blend)wscap_u32(c);
}

static void put_sampler(wscap_buf *b, const ws_gfx_sampler *s)
{
    wscap_put_u32(b, s->filter);
    wscap_put_u32(b, s->mip_filter);
    wscap_put_u32(b, (uint32_t)s->mipmaps);
    wscap_put_u32(b, s->wrap_u);
    wscap_put_u32(b, s->wrap_v);
}

static void get_sampler(wscap_cur *c, ws_gfx_sampler *s)
{
    s->filter = (ws_gfx_filter)wscap_u32(c);
    s->mip_filter = (ws_gfx_filter)wscap_u32(c);
    s->mipmaps = (int)wscap_u32(c);
    s->wrap_u = (ws_gfx_wrap)wscap_u32(c);
    s->wrap_v = (ws_gfx_wrap)wscap_u32(c);
}

void wscap_put_gfx_state(wscap_buf *b, const wscap_gfx_state *s)
{
    wscap_put_u32(b, s->target);
    wscap_put_u32(b, s->pipeline);
    for (int i = 0; i < WS_GFX_MAX_BINDINGS; i++) {
        wscap_put_u32(b, s->vb_addr[i]);
        wscap_put_u32(b, s->vb_size[i]);
    }
    wscap_put_u32(b, s->ib_addr);
    wscap_put_u32(b, s->ib_size);
    wscap_put_u32(b, s->ib_type);
    wscap_put_u32(b, s->uniforms);
    for (int i = 0; i < WS_GFX_MAX_TEXTURES; i++) {
        wscap_put_u32(b, s->texture[i]);
        put_sampler(b, &s->sampler[i]);
    }
    wscap_put_u32(b, (uint32_t)s->has_viewport);
    for (int i = 0; i < 6; i++) wscap_put_f32(b, s->viewport[i]);
    for (int i = 0; i < 4; i++) wscap_put_u32(b, s->scissor[i]);
    wscap_put_u32(b, (uint32_t)s->in_frame);
    wscap_put_u64(b, s->first_draw);
    wscap_put_u64(b, s->first_launch);
    wscap_put_u32(b, (uint32_t)s->records_failures);
}

void wscap_get_gfx_state(wscap_cur *c, wscap_gfx_state *s)
{
    memset(s, 0, sizeof *s);
    s->target = wscap_u32(c);
    s->pipeline = wscap_u32(c);
    for (int i = 0; i < WS_GFX_MAX_BINDINGS; i++) {
        s->vb_addr[i] = wscap_u32(c);
        s->vb_size[i] = wscap_u32(c);
    }
    s->ib_addr = wscap_u32(c);
    s->ib_size = wscap_u32(c);
    s->ib_type = wscap_u32(c);
    s->uniforms = wscap_u32(c);
    for (int i = 0; i < WS_GFX_MAX_TEXTURES; i++) {
        s->texture[i] = wscap_u32(c);
        get_sampler(c, &s->sampler[i]);
    }
    s->has_viewport = (int)wscap_u32(c);
    for (int i = 0; i < 6; i++) s->viewport[i] = wscap_f32(c);
    for (int i = 0; i < 4; i++) s->scissor[i] = wscap_u32(c);
    /* appended later: a capture written before it ends here */
    s->in_frame = !c->bad && c->len - c->at >= 4 ? wscap_u32(c) != 0 : 0;
    s->has_ids = !c->bad && c->len - c->at >= 16;
    s->first_draw = s->has_ids ? wscap_u64(c) : 0;
    s->first_launch = s->has_ids ? wscap_u64(c) : 0;
    s->records_failures = !c->bad && c->len - c->at >= 4 ? wscap_u32(c) != 0 : 0;
}

void wscap_put_config(wscap_buf *b, const ws_config *cfg)
{
    wscap_put_u32(b, cfg->cores);
    wscap_put_u32(b, cfg->warps_per_core);
    wscap_put_u32(b, cfg->lanes_per_warp);
    wscap_put_u32(b, cfg->shared_per_core);
    wscap_put_u32(b, cfg->max_shared_per_block);
    wscap_put_u32(b, cfg->stack_per_lane);
    wscap_put_u64(b, cfg->global_mem_limit);
    wscap_put_u32(b, cfg->max_threads_per_block);
    wscap_put_u32(b, (uint32_t)cfg->mode);
    wscap_put_u32(b, cfg->warp_quantum);
    wscap_put_u32(b, cfg->watchdog_ms);
    wscap_put_str(b, cfg->timing_file);
}

void wscap_get_config(wscap_cur *c, ws_config *cfg)
{
    ws_config_default(cfg);
    cfg->cores = wscap_u32(c);
    cfg->warps_per_core = wscap_u32(c);
    cfg->lanes_per_warp = wscap_u32(c);
    cfg->shared_per_core = wscap_u32(c);
    cfg->max_shared_per_block = wscap_u32(c);
    cfg->stack_per_lane = wscap_u32(c);
    cfg->global_mem_limit = wscap_u64(c);
    cfg->max_threads_per_block = wscap_u32(c);
    cfg->mode = (ws_exec_mode)wscap_u32(c);
    cfg->warp_quantum = wscap_u32(c);
    cfg->watchdog_ms = wscap_u32(c);
    wscap_str(c, cfg->timing_file, sizeof cfg->timing_file);
}

/* ---- digest ---- */

uint64_t wscap_digest(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

uint64_t wscap_digest_u64(uint64_t h, uint64_t v)
{
    uint8_t b[8];
    wscap_put64(b, v);
    return wscap_digest(h, b, 8);
}

uint64_t wscap_digest_alloc(uint64_t h, uint32_t addr, uint64_t size, const void *bytes)
{
    h = wscap_digest_u64(h, addr);
    h = wscap_digest_u64(h, size);
    return wscap_digest(h, bytes, (size_t)size);
}

uint64_t wscap_digest_target(uint64_t h, uint32_t id, const void *rgba, size_t nrgba, const void *depth,
                             size_t ndepth)
{
    h = wscap_digest_u64(h, id);
    h = wscap_digest(h, rgba, nrgba);
    return depth ? wscap_digest(h, depth, ndepth) : h;
}
