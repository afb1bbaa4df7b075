/* The shim's definitions of graphics.h: forward, then update the state
 * model (objects and the graphics context) and record the call. */
#include <string.h>
#include "capture/shim/shim.h"

/* ---- forwarded only ---- */
WS_API ws_status ws_gfx_target_size(const ws_gfx_target *t, uint32_t *w, uint32_t *h)
{
    return REAL(ws_gfx_target_size)(t, w, h);
}
WS_API ws_status ws_gfx_texture_levels(const ws_gfx_texture *t, uint32_t *w, uint32_t *h, uint32_t *levels)
{
    return REAL(ws_gfx_texture_levels)(t, w, h, levels);
}
/* A read of a texture changes nothing a replay needs; but it waits for
 * the queue, and a failure of the work it reports is recorded. */
WS_API ws_status ws_gfx_texture_read(ws_device *dev, ws_gfx_texture *t, uint32_t level, void *rgba, size_t n)
{
    shim_call c;
    shim_enter(&c, dev, 0);
    c.name = "ws_gfx_texture_read";
    return shim_leave(&c, REAL(ws_gfx_texture_read)(dev, t, level, rgba, n));
}
WS_API ws_status ws_gfx_last_draw_stats(const ws_device *dev, ws_gfx_draw_stats *out)
{
    return REAL(ws_gfx_last_draw_stats)(dev, out);
}
WS_API ws_status ws_gfx_write_png(const char *path, uint32_t w, uint32_t h, const void *rgba, char *err, size_t errlen)
{
    return REAL(ws_gfx_write_png)(path, w, h, rgba, err, errlen);
}

/* ---- render targets ---- */
WS_API ws_status ws_gfx_target_create(ws_device *dev, uint32_t w, uint32_t h, int with_depth, ws_gfx_target **out)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_TARGET_CREATE);
    ws_status st = REAL(ws_gfx_target_create)(dev, w, h, with_depth, out);
    if (shim_counts(&c, st)) {
        shim_target *t = shim_target_add(*out, w, h, with_depth != 0);
        wscap_buf *b = t ? shim_payload(&c) : NULL;
        if (b) { wscap_put_u32(b, t->id); wscap_put_u32(b, w); wscap_put_u32(b, h); wscap_put_u32(b, t->depth); }
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_target_destroy(ws_device *dev, ws_gfx_target *t)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_TARGET_DESTROY);
    uint32_t id = c.rec ? shim_target_id(t) : 0;
    ws_status st = REAL(ws_gfx_target_destroy)(dev, t);
    if (shim_counts(&c, st)) {
        shim_target_remove(t);
        wscap_buf *b = shim_payload(&c);
        if (b) wscap_put_u32(b, id);
    }
    return shim_leave(&c, st);
}

static void target_io(shim_call *c, ws_gfx_target *t, uint32_t depth, const void *data, size_t bytes)
{
    wscap_buf *b = shim_payload(c);
    if (!b) return;
    wscap_put_u32(b, shim_target_id(t));
    wscap_put_u32(b, depth);
    if (data) wscap_put_blob(b, data, bytes);
}

WS_API ws_status ws_gfx_target_read(ws_device *dev, ws_gfx_target *t, void *rgba, size_t n)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_TARGET_READ);
    ws_status st = REAL(ws_gfx_target_read)(dev, t, rgba, n);
    if (shim_counts(&c, st)) target_io(&c, t, 0, NULL, 0);
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_target_read_depth(ws_device *dev, ws_gfx_target *t, float *depth, size_t n)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_TARGET_READ);
    ws_status st = REAL(ws_gfx_target_read_depth)(dev, t, depth, n);
    if (shim_counts(&c, st)) target_io(&c, t, 1, NULL, 0);
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_target_write(ws_device *dev, ws_gfx_target *t, const void *rgba, size_t n)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_TARGET_WRITE);
    ws_status st = REAL(ws_gfx_target_write)(dev, t, rgba, n);
    if (shim_counts(&c, st)) target_io(&c, t, 0, rgba, n);
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_target_write_depth(ws_device *dev, ws_gfx_target *t, const float *depth, size_t n)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_TARGET_WRITE);
    ws_status st = REAL(ws_gfx_target_write_depth)(dev, t, depth, n);
    if (shim_counts(&c, st)) target_io(&c, t, 1, depth, n * sizeof(float)); /* n counts floats */
    return shim_leave(&c, st);
}

/* ---- textures ---- */
WS_API ws_status ws_gfx_texture_create(ws_device *dev, uint32_t w, uint32_t h, uint32_t levels, ws_gfx_texture **out)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_TEXTURE_CREATE);
    ws_status st = REAL(ws_gfx_texture_create)(dev, w, h, levels, out);
    if (shim_counts(&c, st)) {
        shim_texture *t = shim_texture_add(*out);
        wscap_buf *b = t ? shim_payload(&c) : NULL;
        if (b) { wscap_put_u32(b, t->id); wscap_put_u32(b, w); wscap_put_u32(b, h); wscap_put_u32(b, levels); }
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_texture_destroy(ws_device *dev, ws_gfx_texture *t)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_TEXTURE_DESTROY);
    uint32_t id = c.rec ? shim_texture_id(t) : 0;
    ws_status st = REAL(ws_gfx_texture_destroy)(dev, t);
    if (shim_counts(&c, st)) {
        shim_texture_remove(t);
        wscap_buf *b = shim_payload(&c);
        if (b) wscap_put_u32(b, id);
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_texture_upload(ws_device *dev, ws_gfx_texture *t, uint32_t level, const void *rgba, size_t n)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_TEXTURE_UPLOAD);
    ws_status st = REAL(ws_gfx_texture_upload)(dev, t, level, rgba, n);
    wscap_buf *b = shim_counts(&c, st) ? shim_payload(&c) : NULL;
    if (b) { wscap_put_u32(b, shim_texture_id(t)); wscap_put_u32(b, level); wscap_put_blob(b, rgba, n); }
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_texture_generate_mips(ws_device *dev, ws_gfx_texture *t)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_TEXTURE_MIPS);
    ws_status st = REAL(ws_gfx_texture_generate_mips)(dev, t);
    wscap_buf *b = shim_counts(&c, st) ? shim_payload(&c) : NULL;
    if (b) wscap_put_u32(b, shim_texture_id(t));
    return shim_leave(&c, st);
}

/* ---- pipelines ---- */
WS_API ws_status ws_gfx_pipeline_create(ws_device *dev, const ws_gfx_pipeline_desc *desc, ws_gfx_pipeline **out)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_PIPELINE_CREATE);
    ws_status st = REAL(ws_gfx_pipeline_create)(dev, desc, out);
    if (shim_counts(&c, st)) {
        shim_pipeline *p = shim_pipeline_add(*out, desc);
        wscap_buf *b = p ? shim_payload(&c) : NULL;
        if (b) { wscap_put_u32(b, p->id); wscap_put_pipeline(b, &p->p); }
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_pipeline_destroy(ws_device *dev, ws_gfx_pipeline *p)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_PIPELINE_DESTROY);
    uint32_t id = c.rec ? shim_pipeline_id(p) : 0;
    ws_status st = REAL(ws_gfx_pipeline_destroy)(dev, p);
    if (shim_counts(&c, st)) {
        shim_pipeline_remove(p);
        wscap_buf *b = shim_payload(&c);
        if (b) wscap_put_u32(b, id);
    }
    return shim_leave(&c, st);
}

/* ---- the graphics context ---- */
WS_API ws_status ws_gfx_set_target(ws_device *dev, ws_gfx_target *t)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_SET_TARGET);
    ws_status st = REAL(ws_gfx_set_target)(dev, t);
    if (shim_counts(&c, st)) {
        shim_g.gfx.target = shim_target_id(t);
        wscap_buf *b = shim_payload(&c);
        if (b) wscap_put_u32(b, shim_g.gfx.target);
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_set_pipeline(ws_device *dev, ws_gfx_pipeline *p)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_SET_PIPELINE);
    ws_status st = REAL(ws_gfx_set_pipeline)(dev, p);
    if (shim_counts(&c, st)) {
        shim_g.gfx.pipeline = shim_pipeline_id(p);
        wscap_buf *b = shim_payload(&c);
        if (b) wscap_put_u32(b, shim_g.gfx.pipeline);
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_set_vertex_buffer(ws_device *dev, uint32_t binding, ws_addr addr, uint32_t size)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_SET_VERTEX_BUFFER);
    ws_status st = REAL(ws_gfx_set_vertex_buffer)(dev, binding, addr, size);
    if (shim_counts(&c, st) && binding < WS_GFX_MAX_BINDINGS) {
        shim_g.gfx.vb_addr[binding] = addr;
        shim_g.gfx.vb_size[binding] = size;
        wscap_buf *b = shim_payload(&c);
        if (b) { wscap_put_u32(b, binding); wscap_put_u32(b, addr); wscap_put_u32(b, size); }
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_set_index_buffer(ws_device *dev, ws_addr addr, uint32_t size, ws_gfx_index_type type)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_SET_INDEX_BUFFER);
    ws_status st = REAL(ws_gfx_set_index_buffer)(dev, addr, size, type);
    if (shim_counts(&c, st)) {
        shim_g.gfx.ib_addr = addr;
        shim_g.gfx.ib_size = size;
        shim_g.gfx.ib_type = (uint32_t)type;
        wscap_buf *b = shim_payload(&c);
        if (b) { wscap_put_u32(b, addr); wscap_put_u32(b, size); wscap_put_u32(b, (uint32_t)type); }
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_set_uniforms(ws_device *dev, ws_addr addr)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_SET_UNIFORMS);
    ws_status st = REAL(ws_gfx_set_uniforms)(dev, addr);
    if (shim_counts(&c, st)) {
        shim_g.gfx.uniforms = addr;
        wscap_buf *b = shim_payload(&c);
        if (b) wscap_put_u32(b, addr);
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_set_texture(ws_device *dev, uint32_t slot, ws_gfx_texture *t, const ws_gfx_sampler *sampler)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_SET_TEXTURE);
    ws_status st = REAL(ws_gfx_set_texture)(dev, slot, t, sampler);
    if (shim_counts(&c, st) && slot < WS_GFX_MAX_TEXTURES) {
        uint32_t id = shim_texture_id(t);
        shim_g.gfx.texture[slot] = id;
        if (t && sampler) shim_g.gfx.sampler[slot] = *sampler; /* the runtime keeps the old one otherwise */
        wscap_buf *b = shim_payload(&c);
        if (b) {
            ws_gfx_sampler none = { 0 }, *s = sampler ? (ws_gfx_sampler *)sampler : &none;
            wscap_put_u32(b, slot);
            wscap_put_u32(b, id);
            wscap_put_u32(b, sampler != NULL);
            uint32_t f[5] = { s->filter, s->mip_filter, (uint32_t)s->mipmaps, s->wrap_u, s->wrap_v };
            for (int i = 0; i < 5; i++) wscap_put_u32(b, f[i]); /* always five, zeros without a sampler */
        }
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_set_viewport(ws_device *dev, float x, float y, float w, float h, float min_depth, float max_depth)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_SET_VIEWPORT);
    ws_status st = REAL(ws_gfx_set_viewport)(dev, x, y, w, h, min_depth, max_depth);
    if (shim_counts(&c, st)) {
        float v[6] = { x, y, w, h, min_depth, max_depth };
        int set = 0;
        for (int i = 0; i < 6; i++) set |= v[i] != 0.0f;
        shim_g.gfx.has_viewport = set; /* all zero: back to the default */
        memcpy(shim_g.gfx.viewport, set ? v : (float[6]){ 0 }, sizeof v);
        wscap_buf *b = shim_payload(&c);
        for (int i = 0; b && i < 6; i++) wscap_put_f32(b, v[i]);
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_set_scissor(ws_device *dev, uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_SET_SCISSOR);
    ws_status st = REAL(ws_gfx_set_scissor)(dev, x, y, w, h);
    if (shim_counts(&c, st)) {
        uint32_t s[4] = { x, y, w, h };
        memcpy(shim_g.gfx.scissor, s, sizeof s);
        wscap_buf *b = shim_payload(&c);
        for (int i = 0; b && i < 4; i++) wscap_put_u32(b, s[i]);
    }
    return shim_leave(&c, st);
}

/* ---- commands ---- */
WS_API ws_status ws_gfx_begin_frame(ws_device *dev, uint64_t *frame)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_BEGIN_FRAME);
    return shim_leave(&c, REAL(ws_gfx_begin_frame)(dev, frame));
}

WS_API ws_status ws_gfx_clear(ws_device *dev, const float rgba[4], float depth)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_CLEAR);
    ws_status st = REAL(ws_gfx_clear)(dev, rgba, depth);
    wscap_buf *b = shim_counts(&c, st) ? shim_payload(&c) : NULL;
    if (b) {
        for (int i = 0; i < 4; i++) wscap_put_f32(b, rgba[i]);
        wscap_put_f32(b, depth);
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_draw(ws_device *dev, uint32_t vertex_count, uint32_t instance_count, uint32_t first_vertex,
                             uint32_t first_instance)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_DRAW);
    ws_status st = REAL(ws_gfx_draw)(dev, vertex_count, instance_count, first_vertex, first_instance);
    wscap_buf *b = shim_counts(&c, st) ? shim_payload(&c) : NULL;
    if (b) {
        wscap_put_u32(b, vertex_count);
        wscap_put_u32(b, instance_count);
        wscap_put_u32(b, first_vertex);
        wscap_put_u32(b, first_instance);
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_draw_indexed(ws_device *dev, uint32_t index_count, uint32_t instance_count, uint32_t first_index,
                                     int32_t base_vertex, uint32_t first_instance)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_DRAW_INDEXED);
    ws_status st = REAL(ws_gfx_draw_indexed)(dev, index_count, instance_count, first_index, base_vertex, first_instance);
    wscap_buf *b = shim_counts(&c, st) ? shim_payload(&c) : NULL;
    if (b) {
        wscap_put_u32(b, index_count);
        wscap_put_u32(b, instance_count);
        wscap_put_u32(b, first_index);
        wscap_put_u32(b, (uint32_t)base_vertex);
        wscap_put_u32(b, first_instance);
    }
    return shim_leave(&c, st);
}

WS_API ws_status ws_gfx_present(ws_device *dev, ws_gfx_target *t, void *rgba, size_t n)
{
    shim_call c;
    shim_enter(&c, dev, WSCAP_PRESENT);
    ws_status st = REAL(ws_gfx_present)(dev, t, rgba, n);
    wscap_buf *b = shim_counts(&c, st) ? shim_payload(&c) : NULL;
    if (b) { wscap_put_u32(b, shim_target_id(t)); wscap_put_u32(b, rgba != NULL); }
    return shim_leave(&c, st);
}
