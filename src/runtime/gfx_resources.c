/* Render targets and textures: device memory the graphics hardware owns
 * (kernels and host copies cannot touch it), filled and read only through
 * these calls so a capture sees every change. */
#include <stdlib.h>
#include <string.h>
#include "runtime/api_lock.h"
#include "runtime/gfx_api.h"
#include "gfx/gfx_device.h"

static ws_status alloc_hw(ws_device *dev, uint64_t bytes, const char *what, uint32_t *addr)
{
    if (bytes > 0x40000000u || ws_mem_alloc(&dev->mem, (uint32_t)bytes, REGION_HARDWARE, addr))
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "%s: no room in device memory for %llu bytes", what,
                            (unsigned long long)bytes);
    memset(ws_mem_global_ptr(&dev->mem, *addr), 0, bytes);
    return WS_OK;
}

static ws_status check_size(ws_device *dev, const char *fn, uint32_t w, uint32_t h)
{
    if (!w || !h || w > WS_GFX_MAX_SIZE || h > WS_GFX_MAX_SIZE)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: size %ux%u; each side must be 1..%u", fn, w, h,
                            WS_GFX_MAX_SIZE);
    return WS_OK;
}

ws_status ws_gfx_target_create(ws_device *dev, uint32_t w, uint32_t h, int with_depth, ws_gfx_target **out)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_gfx_target_create");
    if (!out) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_target_create: out is NULL");
    *out = NULL;
    ws_status st = check_size(dev, "ws_gfx_target_create", w, h);
    if (st != WS_OK) return st;
    ws_gfx_api *g = ws_gfx_api_get(dev, "ws_gfx_target_create");
    if (!g) return WS_ERR_OUT_OF_MEMORY;
    ws_gfx_target *t = calloc(1, sizeof *t);
    if (!t) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_gfx_target_create: out of host memory");
    t->dev = dev;
    t->hw.w = w;
    t->hw.h = h;
    st = alloc_hw(dev, (uint64_t)w * h * 4, "ws_gfx_target_create (colour)", &t->hw.color);
    if (st == WS_OK && with_depth) {
        st = alloc_hw(dev, (uint64_t)w * h * 4, "ws_gfx_target_create (depth)", &t->hw.depth);
        if (st == WS_OK) { /* depth starts at the far plane */
            float *d = (float *)(void *)ws_mem_global_ptr(&dev->mem, t->hw.depth);
            for (size_t i = 0; i < (size_t)w * h; i++) d[i] = 1.0f;
        }
    }
    if (st == WS_OK && ws_gfx_api_track(g, t)) st = ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_gfx_target_create: out of host memory");
    if (st != WS_OK) {
        if (t->hw.color) ws_mem_free(&dev->mem, t->hw.color, REGION_HARDWARE);
        if (t->hw.depth) ws_mem_free(&dev->mem, t->hw.depth, REGION_HARDWARE);
        free(t);
        return st;
    }
    *out = t;
    return WS_OK;
}

ws_status ws_gfx_target_destroy(ws_device *dev, ws_gfx_target *t)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_gfx_target_destroy");
    ws_status st = ws_gfx_api_check(dev, t, "render target", "ws_gfx_target_destroy");
    if (st != WS_OK) return st;
    st = ws_cmd_drain(dev, 0); /* queued draws may still write it */
    ws_gfx_api *g = dev->gfx_api;
    if (g->target == t) { g->target = NULL; g->st.has_target = 0; }
    ws_gfx_api_untrack(g, t);
    ws_mem_free(&dev->mem, t->hw.color, REGION_HARDWARE);
    if (t->hw.depth) ws_mem_free(&dev->mem, t->hw.depth, REGION_HARDWARE);
    free(t);
    return st;
}

ws_status ws_gfx_target_size(const ws_gfx_target *t, uint32_t *w, uint32_t *h)
{
    if (!t) return WS_ERR_INVALID_ARG;
    if (w) *w = t->hw.w;
    if (h) *h = t->hw.h;
    return WS_OK;
}

/* n is what the caller gave: bytes of a colour image, floats of a depth
 * image (w*h); a wrong n is named in the caller's unit (before 2026-11-27
 * a depth call's n was reported multiplied by 4, as bytes, so a caller
 * who had passed the byte size read "needs a 24-byte buffer (got 96)"). */
static ws_status check_image_size(ws_device *dev, const ws_gfx_target *t, const void *buf, size_t n, int depth,
                                  const char *fn)
{
    size_t px = (size_t)t->hw.w * t->hw.h, want = depth ? px : px * 4;
    if (buf && n == want) return WS_OK;
    if (depth)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: the %ux%u target's depth image is %zu floats: n must "
                            "be %zu (got %s%zu)", fn, t->hw.w, t->hw.h, want, want, buf ? "" : "NULL, ", n);
    return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: the %ux%u target needs a %zu-byte buffer (got %s%zu)", fn,
                        t->hw.w, t->hw.h, want, buf ? "" : "NULL, ", n);
}

static ws_status read_image(ws_device *dev, ws_gfx_target *t, void *dst, size_t n, int depth, const char *fn)
{
    WS_API_LOCKED(dev, fn);
    ws_status st = ws_gfx_api_check(dev, t, "render target", fn);
    if (st != WS_OK) return st;
    size_t want = (size_t)t->hw.w * t->hw.h * 4;
    if ((st = check_image_size(dev, t, dst, n, depth, fn))) return st;
    if (depth && !t->hw.depth) return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: the target has no depth image", fn);
    st = ws_cmd_direct(dev, fn); /* a halted command processor holds the read, as it holds ws_memcpy_dtoh */
    if (st != WS_OK) return st;
    memcpy(dst, ws_mem_global_ptr(&dev->mem, depth ? t->hw.depth : t->hw.color), want);
    return WS_OK;
}

ws_status ws_gfx_target_read(ws_device *dev, ws_gfx_target *t, void *rgba, size_t n)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    return read_image(dev, t, rgba, n, 0, "ws_gfx_target_read");
}

ws_status ws_gfx_target_read_depth(ws_device *dev, ws_gfx_target *t, float *depth, size_t n)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    return read_image(dev, t, depth, n, 1, "ws_gfx_target_read_depth");
}

/* Replace the colour or depth image (a replayer restoring a captured
 * frame's start). Ordered with queued work: it waits for it first. */
static ws_status write_image(ws_device *dev, ws_gfx_target *t, const void *src, size_t n, int depth, const char *fn)
{
    WS_API_LOCKED(dev, fn);
    ws_status st = ws_gfx_api_check(dev, t, "render target", fn);
    if (st != WS_OK) return st;
    size_t want = (size_t)t->hw.w * t->hw.h * 4;
    if ((st = check_image_size(dev, t, src, n, depth, fn))) return st;
    if (depth && !t->hw.depth) return ws_set_error(dev, WS_ERR_INVALID_ARG, "%s: the target has no depth image", fn);
    st = ws_cmd_drain(dev, 0);
    if (st != WS_OK) return st;
    memcpy(ws_mem_global_ptr(&dev->mem, depth ? t->hw.depth : t->hw.color), src, want);
    return WS_OK;
}

ws_status ws_gfx_target_write(ws_device *dev, ws_gfx_target *t, const void *rgba, size_t n)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    return write_image(dev, t, rgba, n, 0, "ws_gfx_target_write");
}

ws_status ws_gfx_target_write_depth(ws_device *dev, ws_gfx_target *t, const float *depth, size_t n)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    return write_image(dev, t, depth, n, 1, "ws_gfx_target_write_depth");
}

/* ---- textures ---- */

static uint32_t full_chain(uint32_t w, uint32_t h)
{
    uint32_t m = w > h ? w : h, n = 1;
    while (m > 1) { m >>= 1; n++; }
    return n;
}

ws_status ws_gfx_texture_create(ws_device *dev, uint32_t w, uint32_t h, uint32_t levels, ws_gfx_texture **out)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_gfx_texture_create");
    if (!out) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_texture_create: out is NULL");
    *out = NULL;
    ws_status st = check_size(dev, "ws_gfx_texture_create", w, h);
    if (st != WS_OK) return st;
    uint32_t full = full_chain(w, h);
    if (levels > full)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_texture_create: %u levels asked for a %ux%u texture, "
                            "which has at most %u", levels, w, h, full);
    ws_gfx_api *g = ws_gfx_api_get(dev, "ws_gfx_texture_create");
    if (!g) return WS_ERR_OUT_OF_MEMORY;
    ws_gfx_texture *t = calloc(1, sizeof *t);
    if (!t) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_gfx_texture_create: out of host memory");
    t->dev = dev;
    t->hw.w = w;
    t->hw.h = h;
    t->hw.levels = levels ? levels : full;
    uint64_t off = 0;
    for (uint32_t l = 0; l < t->hw.levels; l++) {
        uint32_t lw = w >> l ? w >> l : 1, lh = h >> l ? h >> l : 1;
        t->hw.level_off[l] = (uint32_t)off;
        off += (uint64_t)lw * lh * 4;
    }
    t->bytes = (uint32_t)off;
    st = alloc_hw(dev, off, "ws_gfx_texture_create", &t->hw.addr);
    if (st == WS_OK && ws_gfx_api_track(g, t)) {
        ws_mem_free(&dev->mem, t->hw.addr, REGION_HARDWARE);
        st = ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_gfx_texture_create: out of host memory");
    }
    if (st != WS_OK) { free(t); return st; }
    *out = t;
    return WS_OK;
}

ws_status ws_gfx_texture_destroy(ws_device *dev, ws_gfx_texture *t)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_gfx_texture_destroy");
    ws_status st = ws_gfx_api_check(dev, t, "texture", "ws_gfx_texture_destroy");
    if (st != WS_OK) return st;
    st = ws_cmd_drain(dev, 0);
    ws_gfx_api *g = dev->gfx_api;
    for (int i = 0; i < WS_GFX_MAX_TEXTURES; i++)
        if (g->tex[i] == t) { g->tex[i] = NULL; g->st.tex_bound[i] = 0; }
    ws_gfx_api_untrack(g, t);
    ws_mem_free(&dev->mem, t->hw.addr, REGION_HARDWARE);
    free(t);
    return st;
}

ws_status ws_gfx_texture_upload(ws_device *dev, ws_gfx_texture *t, uint32_t level, const void *rgba, size_t n)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_gfx_texture_upload");
    ws_status st = ws_gfx_api_check(dev, t, "texture", "ws_gfx_texture_upload");
    if (st != WS_OK) return st;
    if (level >= t->hw.levels)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_texture_upload: level %u of a texture with %u levels",
                            level, t->hw.levels);
    uint32_t lw = t->hw.w >> level ? t->hw.w >> level : 1, lh = t->hw.h >> level ? t->hw.h >> level : 1;
    size_t want = (size_t)lw * lh * 4;
    if (!rgba || n != want)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_texture_upload: level %u is %ux%u and needs %zu bytes "
                            "(got %s%zu)", level, lw, lh, want, rgba ? "" : "NULL, ", n);
    ws_gfx_cmd *c = calloc(1, sizeof *c);
    uint8_t *copy = malloc(want);
    if (!c || !copy) {
        free(c);
        free(copy);
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_gfx_texture_upload: out of host memory");
    }
    memcpy(copy, rgba, want);
    c->kind = GFX_CMD_UPLOAD;
    c->st.tex[0] = t->hw;
    c->level = level;
    c->data = copy;
    c->ndata = want;
    return ws_gfx_push(dev, c);
}

ws_status ws_gfx_texture_read(ws_device *dev, ws_gfx_texture *t, uint32_t level, void *rgba, size_t n)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_gfx_texture_read");
    ws_status st = ws_gfx_api_check(dev, t, "texture", "ws_gfx_texture_read");
    if (st != WS_OK) return st;
    if (level >= t->hw.levels)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_texture_read: level %u of a texture with %u levels",
                            level, t->hw.levels);
    uint32_t lw = t->hw.w >> level ? t->hw.w >> level : 1, lh = t->hw.h >> level ? t->hw.h >> level : 1;
    size_t want = (size_t)lw * lh * 4;
    if (!rgba || n != want)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_texture_read: level %u is %ux%u and needs %zu bytes "
                            "(got %s%zu)", level, lw, lh, want, rgba ? "" : "NULL, ", n);
    st = ws_cmd_drain(dev, 0);
    if (st != WS_OK) return st;
    memcpy(rgba, ws_mem_global_ptr(&dev->mem, t->hw.addr + t->hw.level_off[level]), want);
    return WS_OK;
}

ws_status ws_gfx_texture_levels(const ws_gfx_texture *t, uint32_t *w, uint32_t *h, uint32_t *levels)
{
    if (!t) return WS_ERR_INVALID_ARG;
    if (w) *w = t->hw.w;
    if (h) *h = t->hw.h;
    if (levels) *levels = t->hw.levels;
    return WS_OK;
}

ws_status ws_gfx_texture_generate_mips(ws_device *dev, ws_gfx_texture *t)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_gfx_texture_generate_mips");
    ws_status st = ws_gfx_api_check(dev, t, "texture", "ws_gfx_texture_generate_mips");
    if (st != WS_OK) return st;
    ws_gfx_cmd *c = calloc(1, sizeof *c);
    if (!c) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_gfx_texture_generate_mips: out of host memory");
    c->kind = GFX_CMD_MIPGEN;
    c->st.tex[0] = t->hw;
    return ws_gfx_push(dev, c);
}
