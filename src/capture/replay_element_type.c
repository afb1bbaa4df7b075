/* The type of a buffer element, from the calls of the frame that read it
 * (replay_pixel.h): launch arguments typed by the kernel's DWARF, vertex
 * attributes typed by the pipeline in force at a draw, indices by the
 * index buffer's type at an indexed draw. */
#include <stdio.h>
#include <string.h>
#include "capture/replay_int.h"
#include "capture/replay_pixel.h"

/* The allocation holding addr, from those live now or at the frame's
 * start; 0 when none does. */
static int allocation_of(const ws_replay *r, uint32_t addr, uint32_t *base, uint64_t *size)
{
    const rp_alloc *lists[2] = { r->live, r->init };
    size_t counts[2] = { r->nlive, r->ninit };
    for (int l = 0; l < 2; l++)
        for (size_t i = 0; i < counts[l]; i++)
            if (addr >= lists[l][i].addr && addr - lists[l][i].addr < lists[l][i].size) {
                *base = lists[l][i].addr;
                *size = lists[l][i].size;
                return 1;
            }
    return 0;
}

static void scalar_type(ws_element_type *t, ws_element_scalar scalar, uint32_t size, uint32_t count)
{
    t->scalar = scalar;
    t->scalar_size = size;
    t->count = count;
    if (scalar == WS_ELEMENT_UNORM) snprintf(t->name, sizeof t->name, "rgba8 unorm");
    else if (scalar == WS_ELEMENT_FLOAT && count > 1) snprintf(t->name, sizeof t->name, "float%u", count);
    else if (scalar == WS_ELEMENT_FLOAT) snprintf(t->name, sizeof t->name, size == 8 ? "double" : "float");
    else snprintf(t->name, sizeof t->name, "%s%u", scalar == WS_ELEMENT_UINT ? "uint" : "int", size * 8);
}

/* Launch call rc: a pointer argument whose elements addr is one of. */
static int from_launch(const ws_replay *r, uint64_t index, ws_addr addr, ws_element_type *t)
{
    const rp_call *rc = &r->calls[index];
    wscap_cur c = wscap_cursor(rc->args, rc->nargs);
    uint32_t kid = wscap_u32(&c);
    for (int i = 0; i < 7; i++) wscap_u32(&c); /* grid, block, shared */
    uint32_t nargs = wscap_u32(&c);
    const ws_kernel *k = kid < r->nobj && r->obj[kid]->kind == RP_KERNEL ? r->obj[kid]->h : NULL;
    for (uint32_t i = 0; k && i < nargs && !c.bad; i++) {
        uint32_t type = wscap_u32(&c), ptr = (uint32_t)wscap_u64(&c);
        ws_param_type pt;
        uint32_t base;
        uint64_t size;
        if (c.bad || type != WS_TYPE_PTR || ptr > addr || ws_kernel_param_type(k, i, &pt) != WS_OK ||
            !pt.pointee_size || (addr - ptr) % pt.pointee_size || !allocation_of(r, ptr, &base, &size) ||
            addr - base >= size)
            continue;
        const char *name = "?", *ctype = "?";
        ws_kernel_param(k, i, &name, &ctype);
        scalar_type(t, pt.pointee_float ? WS_ELEMENT_FLOAT : pt.pointee_unsigned ? WS_ELEMENT_UINT : WS_ELEMENT_SINT,
                    pt.pointee_size, 1);
        snprintf(t->source, sizeof t->source, "parameter %u '%s' (%s) of %s, launched by call %llu: element %llu",
                 i, name, ctype, ws_kernel_name(k), (unsigned long long)index,
                 (unsigned long long)((addr - ptr) / pt.pointee_size));
        return 1;
    }
    return 0;
}

static uint32_t format_scalars(ws_gfx_format f)
{
    return f == WS_GFX_UNORM8X4 ? 4 : f >= WS_GFX_FLOAT1 && f <= WS_GFX_FLOAT4 ? (uint32_t)f : 0;
}

/* Draw call `index` with context s: a vertex attribute reading at addr. */
static int from_draw(const ws_replay *r, uint64_t index, const wscap_gfx_state *s, ws_addr addr, ws_element_type *t)
{
    if (s->pipeline >= r->nobj || r->obj[s->pipeline]->kind != RP_PIPELINE) return 0;
    const ws_gfx_pipeline_desc *d = &r->obj[s->pipeline]->pipe.desc;
    for (uint32_t a = 0; a < d->nattributes && a < WS_GFX_MAX_ATTRIBUTES; a++) {
        const ws_gfx_attribute *at = &d->attributes[a];
        uint32_t b = at->binding, n = format_scalars(at->format);
        if (b >= WS_GFX_MAX_BINDINGS || !n || addr < s->vb_addr[b] || addr - s->vb_addr[b] >= s->vb_size[b]) continue;
        uint32_t stride = b < d->nbindings ? d->bindings[b].stride : 0;
        uint32_t rel = addr - s->vb_addr[b], in_vertex = stride ? rel % stride : rel;
        uint32_t scalar = at->format == WS_GFX_UNORM8X4 ? 1 : 4;
        if (in_vertex < at->offset || in_vertex - at->offset >= n * scalar || (in_vertex - at->offset) % scalar) continue;
        scalar_type(t, at->format == WS_GFX_UNORM8X4 ? WS_ELEMENT_UNORM : WS_ELEMENT_FLOAT, scalar, n);
        t->first = (in_vertex - at->offset) / scalar;
        snprintf(t->source, sizeof t->source, "vertex attribute %u of pipeline %u, drawn by call %llu: %s %u, "
                 "binding %u at 0x%08x, stride %u, offset %u", a, s->pipeline, (unsigned long long)index,
                 d->bindings[b].per_instance ? "instance" : "vertex", stride ? rel / stride : 0, b, s->vb_addr[b],
                 stride, at->offset);
        return 1;
    }
    return 0;
}

/* Indexed draw `index` with context s: its index buffer holds addr. */
static int from_indices(uint64_t index, const wscap_gfx_state *s, ws_addr addr, ws_element_type *t)
{
    uint32_t size = s->ib_type;
    if ((size != WS_GFX_INDEX_U16 && size != WS_GFX_INDEX_U32) || addr < s->ib_addr ||
        addr - s->ib_addr >= s->ib_size || (addr - s->ib_addr) % size)
        return 0;
    scalar_type(t, WS_ELEMENT_UINT, size, 1);
    snprintf(t->source, sizeof t->source, "the index buffer of call %llu at 0x%08x: index %u",
             (unsigned long long)index, s->ib_addr, (addr - s->ib_addr) / size);
    return 1;
}

/* The type call i reads addr with, s being the graphics state before it. */
static int call_reads(const ws_replay *r, uint64_t i, const wscap_gfx_state *s, ws_addr addr, ws_element_type *t)
{
    const rp_call *rc = &r->calls[i];
    if (rc->call == WSCAP_LAUNCH && from_launch(r, i, addr, t)) return 1;
    if ((rc->call == WSCAP_DRAW || rc->call == WSCAP_DRAW_INDEXED) && from_draw(r, i, s, addr, t)) return 1;
    return rc->call == WSCAP_DRAW_INDEXED && from_indices(i, s, addr, t);
}

static int same_type(const ws_element_type *a, const ws_element_type *b)
{
    return !strcmp(a->name, b->name) && a->first == b->first;
}

size_t ws_replay_element_types(const ws_replay *r, ws_addr addr, ws_element_type *out, size_t max)
{
    size_t n = 0;
    if (!r) return 0;
    wscap_gfx_state s = r->gfx;
    ws_element_type t;
    for (uint64_t i = 0; i < r->ncalls; i++) {
        memset(&t, 0, sizeof t);
        if (n < max && call_reads(r, i, &s, addr, &t)) {
            int seen = 0;
            for (size_t k = 0; k < n; k++) seen |= same_type(&out[k], &t);
            if (!seen) out[n++] = t;
        }
        rp_track_gfx(&r->calls[i], &s);
    }
    return n;
}

void ws_replay_element_type(const ws_replay *r, ws_addr addr, ws_element_type *out)
{
    memset(out, 0, sizeof *out);
    if (!ws_replay_element_types(r, addr, out, 1)) memset(out, 0, sizeof *out);
}

void ws_replay_element_type_at(const ws_replay *r, ws_addr addr, uint64_t call, ws_element_type *out)
{
    memset(out, 0, sizeof *out);
    if (!r) return;
    wscap_gfx_state s = r->gfx;
    for (uint64_t i = 0; i < r->ncalls && i < call; i++) rp_track_gfx(&r->calls[i], &s);
    if (call >= r->ncalls || !call_reads(r, call, &s, addr, out)) memset(out, 0, sizeof *out);
}
