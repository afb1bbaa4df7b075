/* Vertex fetch and vertex shading. The fetch unit reads each invocation's
 * index (indexed draws), then each attribute from its vertex buffer,
 * converts it to floats and packs the floats in attribute order into the
 * shader's input record; every read is bounds-checked against the buffer
 * bound to the slot, and a read past it is a fault naming the draw, the
 * index and the attribute. One invocation per (instance, vertex) of the
 * draw, in that order: no post-transform cache, so results never depend
 * on a cache's size. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gfx/gfx_int.h"

static const uint32_t format_bytes[] = { 0, 4, 8, 12, 16, 4 };

static ws_status bind_buffer(gfx_draw *d, const ws_gfx_buffer *b, const char *what, const uint8_t **out)
{
    char err[256];
    if (!b->addr || !b->size) return gfx_fault(d, "%s is not set", what);
    const uint8_t *p = ws_mem_host_range(&d->dev->mem, b->addr, b->size, 0, err, sizeof err);
    if (!p) return gfx_fault(d, "%s [0x%08x, +%u bytes): %s", what, b->addr, b->size, err);
    *out = p;
    return WS_OK;
}

static void convert(ws_gfx_format f, const uint8_t *src, float *dst)
{
    if (f == WS_GFX_UNORM8X4) {
        for (int i = 0; i < 4; i++) dst[i] = (float)src[i] / 255.0f;
        return;
    }
    memcpy(dst, src, 4u * (uint32_t)f);
}

/* The vertex index of invocation position k (indexed draws read it). */
static ws_status vertex_index(gfx_draw *d, const uint8_t *ib, uint32_t k, int64_t *vid)
{
    const ws_gfx_cmd *c = d->cmd;
    if (!c->indexed) { *vid = (int64_t)c->first + k; return WS_OK; }
    uint32_t isz = (uint32_t)d->st->itype;
    uint64_t pos = (uint64_t)c->first + k;
    if ((pos + 1) * isz > d->st->ibuf.size)
        return gfx_fault(d, "index %llu is past the end of the index buffer (%u indices)",
                         (unsigned long long)pos, d->st->ibuf.size / isz);
    uint32_t v = 0;
    if (isz == 2) { uint16_t h; memcpy(&h, ib + pos * 2, 2); v = h; }
    else memcpy(&v, ib + pos * 4, 4);
    *vid = (int64_t)v + c->base_vertex;
    if (*vid < 0 || *vid > UINT32_MAX)
        return gfx_fault(d, "index %llu: value %u + base_vertex %d is outside 0..2^32-1", (unsigned long long)pos,
                         v, c->base_vertex);
    return WS_OK;
}

ws_status gfx_vertex_stage(gfx_draw *d, uint64_t *ninv_out, const float **vout)
{
    ws_device *dev = d->dev;
    const ws_gfx_cmd *c = d->cmd;
    const ws_gfx_pipeline_hw *p = &d->st->pipe;
    const ws_gfx_pipeline_desc *ld = &p->desc;
    uint64_t ninv = (uint64_t)c->count * c->instances;
    *ninv_out = 0;
    if (!ninv) return WS_OK;
    if (ninv > (1u << 24))
        return gfx_fault(d, "%llu vertex invocations (count %u x %u instances): at most 2^24 per draw",
                         (unsigned long long)ninv, c->count, c->instances);
    const uint8_t *vb[WS_GFX_MAX_BINDINGS] = { 0 }, *ib = NULL;
    ws_status st;
    for (uint32_t a = 0; a < ld->nattributes; a++) {
        uint32_t b = ld->attributes[a].binding;
        if (vb[b]) continue;
        char what[48];
        snprintf(what, sizeof what, "vertex buffer slot %u", b);
        if ((st = bind_buffer(d, &d->st->vbuf[b], what, &vb[b])) != WS_OK) return st;
    }
    if (c->indexed && (st = bind_buffer(d, &d->st->ibuf, "the index buffer", &ib)) != WS_OK) return st;

    uint32_t in_bytes = p->vin_floats * 4, out_bytes = p->vout_floats * 4, addr;
    if ((st = gfx_scratch(d, ninv * (in_bytes + out_bytes), &addr)) != WS_OK) return st;
    uint32_t in_addr = addr, out_addr = addr + (uint32_t)(ninv * in_bytes); /* < 2 GiB: gfx_scratch checked */
    float *in = (float *)(void *)ws_mem_global_ptr(&dev->mem, in_addr);
    uint32_t *sys = malloc(ninv * WS_GFX_SYSVALS * sizeof(uint32_t));
    if (!sys) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "graphics: out of host memory");
    for (uint64_t i = 0; i < ninv; i++) {
        uint32_t inst = c->first_instance + (uint32_t)(i / c->count), k = (uint32_t)(i % c->count);
        int64_t vid = 0;
        if ((st = vertex_index(d, ib, k, &vid)) != WS_OK) { free(sys); return st; }
        float *rec = in + i * p->vin_floats;
        for (uint32_t a = 0; a < ld->nattributes; a++) {
            const ws_gfx_attribute *at = &ld->attributes[a];
            const ws_gfx_binding *bd = &ld->bindings[at->binding];
            uint64_t elem = bd->per_instance ? inst : (uint64_t)vid;
            uint64_t off = elem * bd->stride + at->offset, n = format_bytes[at->format];
            if (off + n > d->st->vbuf[at->binding].size) {
                free(sys);
                return gfx_fault(d, "vertex fetch: vertex %lld instance %u (position %u of the draw): attribute %u "
                                 "reads bytes [%llu, %llu) of vertex buffer slot %u, which holds %u bytes",
                                 (long long)vid, inst, k, a, (unsigned long long)off, (unsigned long long)(off + n),
                                 at->binding, d->st->vbuf[at->binding].size);
            }
            convert(at->format, vb[at->binding] + off, rec);
            rec += ws_gfx_format_floats(at->format);
        }
        uint32_t *sy = sys + i * WS_GFX_SYSVALS;
        sy[0] = (uint32_t)vid;
        sy[1] = inst;
        sy[2] = 0;
        sy[3] = (uint32_t)c->draw_id;
        sy[4] = inst;
    }
    memset(ws_mem_global_ptr(&dev->mem, out_addr), 0, ninv * out_bytes);
    /* a0: the input record, a1: the output record, a2: the uniforms. */
    const uint32_t base[3] = { in_addr, out_addr, d->st->uniforms };
    const uint32_t stride[3] = { in_bytes, out_bytes, 0 };
    double t0 = ws_now_seconds();
    st = gfx_shade(d, &p->vs, 0, ninv, sys, base, stride, &d->stats->vertex_launch_id);
    d->stats->vertex_seconds += ws_now_seconds() - t0;
    if (st == WS_OK && dev->gfx->mesh)
        gfx_mesh_record(d, ninv, in, (const float *)(const void *)ws_mem_global_ptr(&dev->mem, out_addr), sys);
    free(sys);
    if (st != WS_OK) return st;
    d->stats->vertices_shaded = ninv;
    *ninv_out = ninv;
    *vout = (const float *)(const void *)ws_mem_global_ptr(&dev->mem, out_addr);
    return WS_OK;
}
