/* Pipelines: the shaders' parameter types (from DWARF) are checked against
 * the vertex layout and against each other, so a mismatch is a clear error
 * at creation instead of garbage on screen.
 *
 *   vertex:   void vs(const VIn *in, VOut *out [, const U *uniforms])
 *   fragment: ws_vec4 fs(const VOut *in [, const U *uniforms])
 *
 * VIn holds exactly the floats the layout fetches; VOut is the clip-space
 * position (4 floats) and up to WS_GFX_MAX_VARYINGS varyings; both are
 * made of floats only. */
#include <stdlib.h>
#include <string.h>
#include "runtime/api_lock.h"
#include "runtime/gfx_api.h"
#include "runtime/runtime.h"
#include "runtime/source_lines.h"

static ws_status check_layout(ws_device *dev, const ws_gfx_pipeline_desc *d, uint32_t *floats)
{
    if (d->nattributes > WS_GFX_MAX_ATTRIBUTES || d->nbindings > WS_GFX_MAX_BINDINGS)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: %u attributes and %u bindings; "
                            "at most %u and %u", d->nattributes, d->nbindings, WS_GFX_MAX_ATTRIBUTES, WS_GFX_MAX_BINDINGS);
    *floats = 0;
    for (uint32_t i = 0; i < d->nattributes; i++) {
        const ws_gfx_attribute *a = &d->attributes[i];
        if (a->binding >= d->nbindings)
            return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: attribute %u uses binding %u; "
                                "the layout has %u bindings", i, a->binding, d->nbindings);
        if (a->format < WS_GFX_FLOAT1 || a->format > WS_GFX_UNORM8X4)
            return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: attribute %u has an invalid "
                                "format %d", i, (int)a->format);
        *floats += ws_gfx_format_floats(a->format);
    }
    if ((unsigned)d->topology > WS_GFX_TRIANGLE_STRIP || (unsigned)d->cull > WS_GFX_CULL_FRONT ||
        (unsigned)d->front_face > WS_GFX_CW || (unsigned)d->depth_compare > WS_GFX_ALWAYS ||
        (unsigned)d->blend > WS_GFX_BLEND_ADDITIVE)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: topology %d, cull %d, front face %d, "
                            "depth compare %d or blend %d is not a valid value", (int)d->topology, (int)d->cull,
                            (int)d->front_face, (int)d->depth_compare, (int)d->blend);
    return WS_OK;
}

static void describe_layout(const ws_gfx_pipeline_desc *d, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    for (uint32_t i = 0; i < d->nattributes && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, "%s%u (%s)", i ? ", " : "", i, ws_gfx_format_name(d->attributes[i].format));
}

static ws_status check_pointer(ws_device *dev, const ws_kernel *k, uint32_t i, const char *role)
{
    const ws_elf_param *p = &k->meta->params[i];
    if (p->kind != WS_PARAM_PTR)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: shader '%s' parameter %u '%s' has type "
                            "'%s'; it must be a pointer (%s)", k->meta->name, i, p->name, p->type_name, role);
    return WS_OK;
}

static int kind_is_vertex(ws_func_kind k) { return k == WS_FUNC_VERTEX; }

/* A vertex shader that calls ws_discard() on every run (found when the
 * module was loaded, elf_shared_use.c) would fault in every draw: refused,
 * naming where. A call on some paths only faults if it runs. */
static ws_status check_discard(ws_device *dev, const ws_kernel *k)
{
    const ws_elf_kernel *m = k->meta;
    if (!m->discard_pc) return WS_OK;
    char where[512] = "";
    uint32_t pc = m->discard_pc - m->entry + k->entry;
    ws_source_describe_pc(dev, pc, NULL, 0, where, sizeof where);
    return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: vertex shader '%s' calls ws_discard() "
                        "(pc 0x%08x%s) on every run; a vertex shader has no fragment to discard (ws_discard() is "
                        "for fragment shaders only)", m->name, pc, where);
}

/* A shader whose code reads a system value of the other stage on every
 * run (found when the module was loaded, elf_shared_use.c; not looked for
 * in a module built before WS_SYSVALS_SECTION) would fault in every draw:
 * refused, naming the value and where it is read. A read on some paths
 * only (a helper shared by both stages) faults if it runs. */
static ws_status check_sysvals(ws_device *dev, const ws_kernel *k, const char *what)
{
    const ws_elf_kernel *m = k->meta;
    if (!m->foreign_csr || !m->foreign_always) return check_discard(dev, k);
    char where[512] = "";
    uint32_t pc = m->foreign_pc - m->entry + k->entry;
    ws_source_describe_pc(dev, pc, NULL, 0, where, sizeof where);
    return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: %s shader '%s' reads %s (CSR 0x%03x, "
                        "pc 0x%08x%s), a system value of %s shaders only; %s shaders have %s",
                        what, m->name, ws_gfx_sysval_helper(m->foreign_csr), m->foreign_csr, pc, where,
                        kind_is_vertex(m->kind) ? "fragment" : "vertex", what,
                        kind_is_vertex(m->kind) ? "ws_vertex_id(), ws_instance_id() and ws_draw_id()"
                                                : "ws_pixel_x(), ws_pixel_y(), ws_front_facing(), ws_is_helper(), "
                                                  "ws_primitive_id(), ws_instance_id() and ws_draw_id()");
}

static ws_status check_stage(ws_device *dev, const ws_kernel *k, ws_func_kind kind, const char *what)
{
    if (!k) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: no %s shader", what);
    ws_status st = ws_kernel_check(dev, k, "ws_gfx_pipeline_create");
    if (st != WS_OK) return st;
    if (k->meta->kind != kind)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: '%s' is not a %s shader; mark it %s",
                            k->meta->name, what, kind == WS_FUNC_VERTEX ? "WS_VERTEX" : "WS_FRAGMENT");
    if (!k->meta->has_params)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: the module has no DWARF for shader "
                            "'%s'; build it with 'warpscope cc'", k->meta->name);
    return check_sysvals(dev, k, what);
}

static void fill_stage(ws_gfx_stage *s, ws_kernel *k)
{
    const ws_elf_kernel *m = k->meta;
    s->kernel = k;
    s->name = m->name;
    s->entry = k->entry;
    s->body = m->body - m->entry + k->entry;
    s->shared_lo = m->shared_lo;
    s->shared_total = ((m->shared_hi - m->shared_lo) + 15u) & ~15u;
    s->dyn_shared_addr = WS_SHARED_BASE + m->shared_lo + s->shared_total;
    s->nparams = m->nparams;
    s->old_sysvals = k->mod->img.legacy_sysvals;
}

/* The shaders against the layout and each other; sets vin/vout floats. */
static ws_status check_shaders(ws_device *dev, const ws_gfx_pipeline_desc *d, ws_gfx_pipeline_hw *hw)
{
    ws_kernel *vs = d->vertex_shader, *fs = d->fragment_shader;
    ws_status st = check_stage(dev, vs, WS_FUNC_VERTEX, "vertex");
    if (st == WS_OK) st = check_stage(dev, fs, WS_FUNC_FRAGMENT, "fragment");
    if (st != WS_OK) return st;
    const ws_elf_kernel *v = vs->meta, *f = fs->meta;
    if (v->nparams < 2 || v->nparams > 3)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: vertex shader '%s' takes %u "
                            "parameters; it must be (const VIn *in, VOut *out[, const Uniforms *u])", v->name, v->nparams);
    if (f->nparams < 1 || f->nparams > 2)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: fragment shader '%s' takes %u "
                            "parameters; it must be (const VOut *in[, const Uniforms *u])", f->name, f->nparams);
    for (uint32_t i = 0; i < v->nparams; i++)
        if ((st = check_pointer(dev, vs, i, i == 0 ? "the vertex input" : i == 1 ? "the vertex output" : "the uniforms")) != WS_OK)
            return st;
    for (uint32_t i = 0; i < f->nparams; i++)
        if ((st = check_pointer(dev, fs, i, i == 0 ? "the fragment input" : "the uniforms")) != WS_OK) return st;
    const ws_elf_param *in = &v->params[0], *out = &v->params[1], *fin = &f->params[0];
    if (hw->vin_floats && (in->pointee_bytes != hw->vin_floats * 4 || !in->pointee_all_float)) {
        char layout[256];
        describe_layout(d, layout, sizeof layout);
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: vertex shader '%s' parameter 0 '%s' "
                            "has type '%s' (%u bytes%s), but the vertex layout fetches %u floats (%u bytes): "
                            "attributes %s", v->name, in->name, in->type_name, in->pointee_bytes,
                            in->pointee_all_float ? "" : ", not all float", hw->vin_floats, hw->vin_floats * 4, layout);
    }
    /* A layout that fetches nothing (positions from ws_vertex_id) has no
     * input record: a VIn with data would read other invocations' memory. */
    if (!hw->vin_floats && in->pointee_bytes)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: vertex shader '%s' parameter 0 '%s' "
                            "has type '%s' (%u bytes), but the vertex layout fetches no attributes: declare it "
                            "'const void *' or describe the attributes", v->name, in->name, in->type_name,
                            in->pointee_bytes);
    uint32_t ob = out->pointee_bytes;
    if (ob < 16 || ob % 4 || ob > (4 + WS_GFX_MAX_VARYINGS) * 4 || !out->pointee_all_float)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: vertex shader '%s' parameter 1 '%s' has "
                            "type '%s' (%u bytes); it must be a struct of floats: the clip-space position (4 floats) "
                            "then at most %u varyings", v->name, out->name, out->type_name, ob, WS_GFX_MAX_VARYINGS);
    if (fin->pointee_bytes != ob || !fin->pointee_all_float)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: fragment shader '%s' parameter 0 '%s' has "
                            "type '%s' (%u bytes), but vertex shader '%s' writes '%s' (%u bytes): the fragment input "
                            "must be the vertex output struct", f->name, fin->name, fin->type_name, fin->pointee_bytes,
                            v->name, out->type_name, ob);
    if (f->ret_bytes != 16 || !f->ret_all_float)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: fragment shader '%s' returns %u bytes; "
                            "it must return ws_vec4 (the colour)", f->name, f->ret_bytes);
    hw->vout_floats = ob / 4;
    fill_stage(&hw->vs, vs);
    fill_stage(&hw->fs, fs);
    return WS_OK;
}

ws_status ws_gfx_pipeline_create(ws_device *dev, const ws_gfx_pipeline_desc *desc, ws_gfx_pipeline **out)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_gfx_pipeline_create");
    if (!desc || !out)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_gfx_pipeline_create: %s is NULL", desc ? "out" : "desc");
    *out = NULL;
    ws_gfx_pipeline_hw hw = { .desc = *desc };
    ws_status st = check_layout(dev, desc, &hw.vin_floats);
    if (st == WS_OK) st = check_shaders(dev, desc, &hw);
    if (st != WS_OK) return st;
    ws_gfx_api *g = ws_gfx_api_get(dev, "ws_gfx_pipeline_create");
    if (!g) return WS_ERR_OUT_OF_MEMORY;
    ws_gfx_pipeline *p = calloc(1, sizeof *p);
    if (!p || ws_gfx_api_track(g, p)) {
        free(p);
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_gfx_pipeline_create: out of host memory");
    }
    p->dev = dev;
    p->hw = hw;
    *out = p;
    return WS_OK;
}

ws_status ws_gfx_pipeline_destroy(ws_device *dev, ws_gfx_pipeline *p)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_gfx_pipeline_destroy");
    ws_status st = ws_gfx_api_check(dev, p, "pipeline", "ws_gfx_pipeline_destroy");
    if (st != WS_OK) return st;
    ws_gfx_api *g = dev->gfx_api;
    if (g->pipeline == p) { g->pipeline = NULL; g->st.has_pipeline = 0; }
    ws_gfx_api_untrack(g, p);
    free(p); /* queued draws hold copies of its state */
    return WS_OK;
}
