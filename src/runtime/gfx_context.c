/* The graphics context: state setters, clears, draws and frame markers.
 * Each command is checked here, where the caller can still be told what is
 * wrong, and queued with a snapshot of the state it reads. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/api_lock.h"
#include "runtime/gfx_api.h"
#include "runtime/runtime.h"
#include "runtime/tools.h"
#include "gfx/gfx_device.h"

ws_gfx_api *ws_gfx_api_get(ws_device *dev, const char *fn)
{
    if (!dev->gfx_api && !(dev->gfx_api = calloc(1, sizeof *dev->gfx_api)))
        ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "%s: out of host memory", fn);
    return dev->gfx_api;
}

int ws_gfx_api_track(ws_gfx_api *g, void *h)
{
    if (g->nlive == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 16;
        void **v = realloc(g->live, cap * sizeof *v);
        if (!v) return -1;
        g->live = v;
        g->cap = cap;
    }
    g->live[g->nlive++] = h;
    return 0;
}

void ws_gfx_api_untrack(ws_gfx_api *g, void *h)
{
    for (size_t i = 0; i < g->nlive; i++)
        if (g->live[i] == h) { g->live[i] = g->live[--g->nlive]; return; }
}

int ws_gfx_api_is_live(const ws_gfx_api *g, const void *h)
{
    for (size_t i = 0; i < g->nlive; i++)
        if (g->live[i] == h) return 1;
    return 0;
}

ws_status ws_gfx_api_check(ws_device *dev, const void *h, const char *what, const char *fn)
{
    if (!h) return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: the %s is NULL", fn, what);
    if (!dev->gfx_api || !ws_gfx_api_is_live(dev->gfx_api, h))
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: not a live %s of this device", fn, what);
    return WS_OK;
}

void ws_gfx_api_free(ws_device *dev)
{
    ws_gfx_api *g = dev->gfx_api;
    if (g) { /* device memory goes with the device; only the handles here */
        for (size_t i = 0; i < g->nlive; i++) free(g->live[i]);
        free(g->live);
        free(g);
        dev->gfx_api = NULL;
    }
    ws_gfx_device_free(dev);
}

ws_status ws_gfx_push(ws_device *dev, ws_gfx_cmd *c)
{
    ws_cmd cmd = { .kind = CMD_GFX, .gfx = c };
    ws_status st = ws_cmd_push(dev, &cmd);
    if (st != WS_OK) ws_gfx_cmd_free(c);
    return st;
}

#define CONTEXT(fn)                                   \
    if (!dev) return WS_ERR_INVALID_ARG;              \
    WS_API_LOCKED(dev, fn);                           \
    ws_gfx_api *g = ws_gfx_api_get(dev, fn);          \
    if (!g) return WS_ERR_OUT_OF_MEMORY

ws_status ws_gfx_set_target(ws_device *dev, ws_gfx_target *t)
{
    CONTEXT("ws_gfx_set_target");
    ws_status st = t ? ws_gfx_api_check(dev, t, "render target", "ws_gfx_set_target") : WS_OK;
    if (st != WS_OK) return st;
    g->target = t;
    g->st.has_target = t != NULL;
    if (t) g->st.target = t->hw;
    return WS_OK;
}

ws_status ws_gfx_set_pipeline(ws_device *dev, ws_gfx_pipeline *p)
{
    CONTEXT("ws_gfx_set_pipeline");
    ws_status st = p ? ws_gfx_api_check(dev, p, "pipeline", "ws_gfx_set_pipeline") : WS_OK;
    if (st != WS_OK) return st;
    g->pipeline = p;
    g->st.has_pipeline = p != NULL;
    if (p) g->st.pipe = p->hw;
    return WS_OK;
}

/* A buffer binding must lie inside one live allocation (checked again when
 * the draw runs: it may be freed in between). */
static ws_status check_buffer(ws_device *dev, const char *fn, ws_addr addr, uint32_t size)
{
    char err[256];
    if (!addr && !size) return WS_OK; /* unbind */
    if (!size) return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s(0x%08x): size is 0", fn, addr);
    if (!ws_mem_host_range(&dev->mem, addr, size, 0, err, sizeof err))
        return ws_set_error(dev, WS_ERR_BAD_ADDRESS, "%s: %s", fn, err);
    return WS_OK;
}

ws_status ws_gfx_set_vertex_buffer(ws_device *dev, uint32_t binding, ws_addr addr, uint32_t size)
{
    CONTEXT("ws_gfx_set_vertex_buffer");
    if (binding >= WS_GFX_MAX_BINDINGS)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_set_vertex_buffer: slot %u; slots are 0..%u", binding,
                            WS_GFX_MAX_BINDINGS - 1);
    ws_status st = check_buffer(dev, "ws_gfx_set_vertex_buffer", addr, size);
    if (st != WS_OK) return st;
    g->st.vbuf[binding] = (ws_gfx_buffer){ addr, size };
    return WS_OK;
}

ws_status ws_gfx_set_index_buffer(ws_device *dev, ws_addr addr, uint32_t size, ws_gfx_index_type type)
{
    CONTEXT("ws_gfx_set_index_buffer");
    if (type != WS_GFX_INDEX_U16 && type != WS_GFX_INDEX_U32)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_set_index_buffer: index type %d; use WS_GFX_INDEX_U16 "
                            "or WS_GFX_INDEX_U32", (int)type);
    ws_status st = check_buffer(dev, "ws_gfx_set_index_buffer", addr, size);
    if (st != WS_OK) return st;
    g->st.ibuf = (ws_gfx_buffer){ addr, size };
    g->st.itype = type;
    return WS_OK;
}

ws_status ws_gfx_api_restore_buffer(ws_device *dev, uint32_t slot, ws_addr addr, uint32_t size,
                                    ws_gfx_index_type type)
{
    CONTEXT("ws_gfx_api_restore_buffer");
    if (slot > WS_GFX_MAX_BINDINGS || (slot == WS_GFX_MAX_BINDINGS && type != WS_GFX_INDEX_U16 &&
                                       type != WS_GFX_INDEX_U32))
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_api_restore_buffer: slot %u, index type %d", slot,
                            (int)type);
    if (slot < WS_GFX_MAX_BINDINGS) {
        g->st.vbuf[slot] = (ws_gfx_buffer){ addr, size };
    } else {
        g->st.ibuf = (ws_gfx_buffer){ addr, size };
        g->st.itype = type;
    }
    return WS_OK;
}

ws_status ws_gfx_set_uniforms(ws_device *dev, ws_addr addr)
{
    CONTEXT("ws_gfx_set_uniforms");
    g->st.uniforms = addr;
    return WS_OK;
}

ws_status ws_gfx_set_texture(ws_device *dev, uint32_t slot, ws_gfx_texture *t, const ws_gfx_sampler *s)
{
    CONTEXT("ws_gfx_set_texture");
    if (slot >= WS_GFX_MAX_TEXTURES)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_set_texture: slot %u; slots are 0..%u", slot,
                            WS_GFX_MAX_TEXTURES - 1);
    ws_status st = t ? ws_gfx_api_check(dev, t, "texture", "ws_gfx_set_texture") : WS_OK;
    if (st != WS_OK) return st;
    if (t && !s) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_set_texture: sampler is NULL");
    if (s && ((unsigned)s->filter > WS_GFX_LINEAR || (unsigned)s->mip_filter > WS_GFX_LINEAR ||
              (unsigned)s->wrap_u > WS_GFX_CLAMP || (unsigned)s->wrap_v > WS_GFX_CLAMP))
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_set_texture: the sampler has an invalid filter or wrap mode");
    g->tex[slot] = t;
    g->st.tex_bound[slot] = t != NULL;
    if (t) { g->st.tex[slot] = t->hw; g->st.sampler[slot] = *s; }
    return WS_OK;
}

ws_status ws_gfx_set_viewport(ws_device *dev, float x, float y, float w, float h, float zmin, float zmax)
{
    CONTEXT("ws_gfx_set_viewport");
    if (x == 0 && y == 0 && w == 0 && h == 0 && zmin == 0 && zmax == 0) { /* the default again */
        g->st.has_viewport = 0;
        g->st.vp_x = g->st.vp_y = g->st.vp_w = g->st.vp_h = g->st.vp_zmin = g->st.vp_zmax = 0;
        return WS_OK;
    }
    if (!isfinite(x) || !isfinite(y) || !(w > 0) || !(h > 0) || w > 2 * WS_GFX_MAX_SIZE || h > 2 * WS_GFX_MAX_SIZE ||
        fabsf(x) > 2 * WS_GFX_MAX_SIZE || fabsf(y) > 2 * WS_GFX_MAX_SIZE || !(zmin >= 0 && zmin <= 1) ||
        !(zmax >= 0 && zmax <= 1))
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_set_viewport(%g, %g, %g, %g, %g, %g): width and height "
                            "must be in (0, %u], x and y within +-%u, depths in [0, 1]", x, y, w, h, zmin, zmax,
                            2 * WS_GFX_MAX_SIZE, 2 * WS_GFX_MAX_SIZE);
    g->st.vp_x = x; g->st.vp_y = y; g->st.vp_w = w; g->st.vp_h = h;
    g->st.vp_zmin = zmin; g->st.vp_zmax = zmax;
    g->st.has_viewport = 1;
    return WS_OK;
}

ws_status ws_gfx_set_scissor(ws_device *dev, uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
    CONTEXT("ws_gfx_set_scissor");
    if (w && (!h || x > WS_GFX_MAX_SIZE || y > WS_GFX_MAX_SIZE))
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_set_scissor(%u, %u, %u, %u): height must be > 0 and the "
                            "corner within %u", x, y, w, h, WS_GFX_MAX_SIZE);
    g->st.sc_x = x; g->st.sc_y = y; g->st.sc_w = w; g->st.sc_h = h;
    return WS_OK;
}

static ws_gfx_cmd *new_cmd(ws_device *dev, ws_gfx_api *g, ws_gfx_cmd_kind kind, const char *fn)
{
    ws_gfx_cmd *c = calloc(1, sizeof *c);
    if (!c) { ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "%s: out of host memory", fn); return NULL; }
    c->kind = kind;
    c->st = g->st;
    if (!c->st.has_viewport && c->st.has_target) { /* default: the whole target */
        c->st.vp_w = (float)c->st.target.w;
        c->st.vp_h = (float)c->st.target.h;
        c->st.vp_zmax = 1.0f;
    }
    return c;
}

ws_status ws_gfx_begin_frame(ws_device *dev, uint64_t *frame)
{
    CONTEXT("ws_gfx_begin_frame");
    if (g->in_frame)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_begin_frame: frame %llu is still open; "
                            "ws_gfx_present ends it", (unsigned long long)g->frame);
    ws_gfx_cmd *c = new_cmd(dev, g, GFX_CMD_FRAME, "ws_gfx_begin_frame");
    if (!c) return WS_ERR_OUT_OF_MEMORY;
    c->frame = g->frame;
    c->begin = 1;
    ws_status st = ws_gfx_push(dev, c);
    if (st != WS_OK) return st;
    g->in_frame = 1;
    if (frame) *frame = g->frame;
    ws_tools_frame(dev, g->frame, 1);
    return WS_OK;
}

ws_status ws_gfx_clear(ws_device *dev, const float rgba[4], float depth)
{
    CONTEXT("ws_gfx_clear");
    if (!g->target) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_clear: no render target (ws_gfx_set_target)");
    if (!rgba) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_clear: rgba is NULL");
    if (isnan(depth)) /* clamping below would keep a NaN, and no depth test passes against it */
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_clear: depth is NaN");
    ws_gfx_cmd *c = new_cmd(dev, g, GFX_CMD_CLEAR, "ws_gfx_clear");
    if (!c) return WS_ERR_OUT_OF_MEMORY;
    memcpy(c->clear_rgba, rgba, sizeof c->clear_rgba);
    c->clear_depth = depth < 0 ? 0 : depth > 1 ? 1 : depth;
    return ws_gfx_push(dev, c);
}

/* What every draw needs before it can be queued. */
static ws_status check_draw(ws_device *dev, ws_gfx_api *g, int indexed, const char *fn)
{
    if (!g->pipeline) return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "%s: no pipeline (ws_gfx_set_pipeline)", fn);
    if (!g->target) return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "%s: no render target (ws_gfx_set_target)", fn);
    const ws_gfx_pipeline_hw *p = &g->pipeline->hw;
    ws_status st = ws_kernel_check(dev, p->vs.kernel, fn);
    if (st == WS_OK) st = ws_kernel_check(dev, p->fs.kernel, fn);
    if (st != WS_OK) return st;
    for (uint32_t a = 0; a < p->desc.nattributes; a++) {
        uint32_t b = p->desc.attributes[a].binding;
        if (!g->st.vbuf[b].size)
            return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "%s: vertex buffer slot %u is not set (attribute %u of the "
                                "pipeline reads it)", fn, b, a);
    }
    if (indexed && !g->st.ibuf.size)
        return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "%s: no index buffer (ws_gfx_set_index_buffer)", fn);
    return WS_OK;
}

static ws_status queue_draw(ws_device *dev, ws_gfx_api *g, int indexed, uint32_t count, uint32_t instances,
                            uint32_t first, int32_t base_vertex, uint32_t first_instance, const char *fn)
{
    ws_status st = check_draw(dev, g, indexed, fn);
    if (st != WS_OK) return st;
    if (!count || !instances) return WS_OK;
    /* refused here, not when the frame runs: the caller learns which call it was */
    if ((uint64_t)count * instances > (1u << 24))
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: %llu vertex invocations (%u %s x %u instances): at most "
                            "2^24 per draw", fn, (unsigned long long)count * instances, count,
                            indexed ? "indices" : "vertices", instances);
    /* instance ids (and a non-indexed draw's vertex ids) are 32-bit: past
     * 2^32 - 1 they would wrap to 0, 1, ... and name other instances */
    if ((uint64_t)first_instance + instances - 1 > UINT32_MAX)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: instances %u..%llu (first instance %u, %u instances) run "
                            "past 2^32 - 1", fn, first_instance, (unsigned long long)first_instance + instances - 1,
                            first_instance, instances);
    if (!indexed && (uint64_t)first + count - 1 > UINT32_MAX)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: vertices %u..%llu (first vertex %u, %u vertices) run past "
                            "2^32 - 1", fn, first, (unsigned long long)first + count - 1, first, count);
    ws_gfx_cmd *c = new_cmd(dev, g, GFX_CMD_DRAW, fn);
    if (!c) return WS_ERR_OUT_OF_MEMORY;
    c->draw_id = g->next_draw++;
    c->indexed = indexed;
    c->count = count;
    c->instances = instances;
    c->first = first;
    c->base_vertex = base_vertex;
    c->first_instance = first_instance;
    return ws_gfx_push(dev, c);
}

ws_status ws_gfx_draw(ws_device *dev, uint32_t vertex_count, uint32_t instance_count, uint32_t first_vertex,
                      uint32_t first_instance)
{
    CONTEXT("ws_gfx_draw");
    return queue_draw(dev, g, 0, vertex_count, instance_count, first_vertex, 0, first_instance, "ws_gfx_draw");
}

ws_status ws_gfx_draw_indexed(ws_device *dev, uint32_t index_count, uint32_t instance_count, uint32_t first_index,
                              int32_t base_vertex, uint32_t first_instance)
{
    CONTEXT("ws_gfx_draw_indexed");
    return queue_draw(dev, g, 1, index_count, instance_count, first_index, base_vertex, first_instance,
                      "ws_gfx_draw_indexed");
}

ws_status ws_gfx_present(ws_device *dev, ws_gfx_target *t, void *rgba, size_t n)
{
    CONTEXT("ws_gfx_present");
    if (!g->in_frame)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_present: no frame is open (ws_gfx_begin_frame)");
    ws_status st = ws_gfx_api_check(dev, t, "render target", "ws_gfx_present");
    if (st != WS_OK) return st;
    size_t want = (size_t)t->hw.w * t->hw.h * 4;
    if (rgba && n != want)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_present: the %ux%u target needs a %zu-byte buffer "
                            "(got %zu)", t->hw.w, t->hw.h, want, n);
    ws_gfx_cmd *c = new_cmd(dev, g, GFX_CMD_FRAME, "ws_gfx_present");
    if (!c) return WS_ERR_OUT_OF_MEMORY;
    c->frame = g->frame;
    c->begin = 0;
    st = ws_gfx_push(dev, c);
    if (st != WS_OK) return st;
    g->in_frame = 0;
    uint64_t presented = g->frame++;
    st = ws_cmd_drain(dev, 0); /* the frame's work runs now */
    /* the frame has ended even when its work failed (the next one is
     * presented + 1): the tools that heard it begin hear it end */
    ws_tools_frame(dev, presented, 0);
    if (st != WS_OK) return st;
    if (rgba) memcpy(rgba, ws_mem_global_ptr(&dev->mem, t->hw.color), want);
    return WS_OK;
}

ws_status ws_gfx_next_draw_id(ws_device *dev, uint64_t *out)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_gfx_next_draw_id");
    if (!out) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_next_draw_id: out is NULL");
    *out = dev->gfx_api ? dev->gfx_api->next_draw : 0; /* (no context yet: no draw yet) */
    return WS_OK;
}

ws_status ws_gfx_last_draw_stats(const ws_device *dev, ws_gfx_draw_stats *out)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    /* as ws_last_launch_stats: the present that runs the draws on another
     * thread writes them under the lock, and so does a refusal */
    WS_API_READ_LOCKED((ws_device *)dev, "ws_gfx_last_draw_stats");
    if (!out) return ws_set_error((ws_device *)dev, WS_ERR_INVALID_ARG, "ws_gfx_last_draw_stats: out is NULL");
    if (!dev->gfx || !dev->gfx->have_last)
        return ws_set_error((ws_device *)dev, WS_ERR_NOT_FOUND, "ws_gfx_last_draw_stats: no draw has run yet");
    *out = dev->gfx->last;
    return WS_OK;
}
