/* Putting a captured frame's starting state back on the replay device: the
 * commands that undo what a pass changed, generated from the initial state
 * the capture recorded. Modules and allocations go back to their captured
 * addresses (kernels see the same pointers); everything the frame created
 * goes away; every byte and the graphics context are rewritten. */
#include <string.h>
#include "capture/replay_int.h"
#include "device/device.h"
#include "runtime/gfx_api.h"

static ws_status api(ws_replay *r, ws_status st, const char *what)
{
    return st == WS_OK ? WS_OK : rp_fail(r, st, "restoring the initial state: %s: %s", what, ws_last_error(r->dev));
}

/* The pipeline's shaders must be kernels the capture defines: checked
 * before rp_create wraps what the device says (rp_object names the gap). */
static ws_status pipeline_shaders(ws_replay *r, const rp_obj *o)
{
    char vs[96], fs[96];
    snprintf(vs, sizeof vs, "the vertex shader of the pipeline at body offset %llu", (unsigned long long)o->at);
    snprintf(fs, sizeof fs, "the fragment shader of the pipeline at body offset %llu", (unsigned long long)o->at);
    if (!rp_object(r, o->pipe.vs, RP_KERNEL, vs) || !rp_object(r, o->pipe.fs, RP_KERNEL, fs)) return WS_ERR_BAD_MODULE;
    return WS_OK;
}

static ws_status create_pipeline(ws_replay *r, rp_obj *o)
{
    ws_gfx_pipeline_desc d = o->pipe.desc;
    rp_obj *vs = r->obj[o->pipe.vs], *fs = r->obj[o->pipe.fs]; /* pipeline_shaders checked them */
    d.vertex_shader = vs->h;
    d.fragment_shader = fs->h;
    ws_gfx_pipeline *p;
    ws_status st = ws_gfx_pipeline_create(r->dev, &d, &p);
    if (st == WS_OK) o->h = p;
    return st;
}

ws_status rp_create(ws_replay *r, uint32_t id)
{
    rp_obj *o = r->obj[id];
    ws_status st = WS_OK;
    switch (o->kind) {
    case RP_MODULE: {
        ws_module *m;
        st = ws_module_load_data_at(r->dev, o->image, (size_t)o->image_size, o->name, o->base, &m);
        if (st == WS_OK) o->h = m;
        break;
    }
    case RP_KERNEL: {
        rp_obj *m = rp_object(r, o->module, RP_MODULE, o->name);
        if (!m) return WS_ERR_BAD_MODULE;
        if (!m->h) return rp_fail(r, WS_ERR_BAD_MODULE, "kernel %s: its module %s is not loaded", o->name, m->name);
        ws_kernel *k;
        st = ws_kernel_get(m->h, o->name, &k);
        if (st == WS_OK) o->h = k;
        break;
    }
    case RP_TEXTURE: {
        ws_gfx_texture *t;
        st = ws_gfx_texture_create(r->dev, o->w, o->h_px, o->levels, &t);
        if (st == WS_OK) o->h = t;
        break;
    }
    case RP_TARGET: {
        ws_gfx_target *t;
        st = ws_gfx_target_create(r->dev, o->w, o->h_px, o->has_depth, &t);
        if (st == WS_OK) o->h = t;
        break;
    }
    case RP_PIPELINE:
        if ((st = pipeline_shaders(r, o)) != WS_OK) return st;
        st = create_pipeline(r, o);
        break;
    default:
        return WS_OK;
    }
    /* name the object: capture id, kind, and name where it has one */
    static const char *const kinds[] = { "", "module", "kernel", "texture", "render target", "pipeline" };
    char what[320];
    snprintf(what, sizeof what, "creating %s %u%s%s%s (section at body offset %llu)", kinds[o->kind], id,
             o->name[0] ? " '" : "", o->name, o->name[0] ? "'" : "", (unsigned long long)o->at);
    return api(r, st, what);
}

ws_status rp_destroy(ws_replay *r, uint32_t id)
{
    rp_obj *o = r->obj[id];
    if (!o->h) return WS_OK;
    ws_status st = WS_OK;
    switch (o->kind) {
    case RP_MODULE:
        st = ws_module_unload(r->dev, o->h);
        for (uint32_t k = 1; k < r->nobj; k++) /* its kernel handles die with it */
            if (r->obj[k]->kind == RP_KERNEL && r->obj[k]->module == id) r->obj[k]->h = NULL;
        break;
    case RP_TEXTURE: st = ws_gfx_texture_destroy(r->dev, o->h); break;
    case RP_TARGET: st = ws_gfx_target_destroy(r->dev, o->h); break;
    case RP_PIPELINE: st = ws_gfx_pipeline_destroy(r->dev, o->h); break;
    default: break;
    }
    o->h = NULL;
    return st; /* the caller says in what context (the device's error has the reason) */
}

/* Fill the content of every initial object and allocation. */
static ws_status rewrite_contents(ws_replay *r)
{
    ws_status st = WS_OK;
    char what[128];
    for (size_t i = 0; i < r->ninit && st == WS_OK; i++) {
        snprintf(what, sizeof what, "the contents of the allocation at 0x%08x (section at body offset %llu)",
                 r->init[i].addr, (unsigned long long)r->init[i].at);
        st = api(r, ws_memcpy_htod(r->dev, r->init[i].addr, r->init[i].bytes, (size_t)r->init[i].size), what);
    }
    for (uint32_t id = 1; id < r->nobj && st == WS_OK; id++) {
        rp_obj *o = r->obj[id];
        if (!o->initial) continue;
        if (o->kind == RP_TEXTURE)
            for (uint32_t l = 0; l < o->levels && st == WS_OK; l++) {
                snprintf(what, sizeof what, "texture %u level %u (section at body offset %llu)", id, l,
                         (unsigned long long)o->at);
                st = api(r, ws_gfx_texture_upload(r->dev, o->h, l, o->level[l], (size_t)o->level_size[l]), what);
            }
        if (o->kind == RP_TARGET) {
            size_t n = (size_t)o->w * o->h_px * 4;
            snprintf(what, sizeof what, "render target %u's colour (section at body offset %llu)", id,
                     (unsigned long long)o->at);
            st = api(r, ws_gfx_target_write(r->dev, o->h, o->rgba, n), what);
            snprintf(what, sizeof what, "render target %u's depth (section at body offset %llu)", id,
                     (unsigned long long)o->at);
            if (st == WS_OK && o->depth)
                st = api(r, ws_gfx_target_write_depth(r->dev, o->h, (const float *)(const void *)o->depth,
                                                      (size_t)o->w * o->h_px), what);
        }
    }
    return st;
}

static void *handle(ws_replay *r, uint32_t id, rp_kind kind)
{
    return id && id < r->nobj && r->obj[id]->kind == kind ? r->obj[id]->h : NULL;
}

/* A setting of the captured graphics context: named with its section. */
static ws_status context_api(ws_replay *r, ws_status st, const char *what)
{
    char where[160];
    snprintf(where, sizeof where, "%s (graphics state section at body offset %llu)", what, (unsigned long long)r->gfx_at);
    return api(r, st, where);
}

static ws_status restore_context(ws_replay *r)
{
    const wscap_gfx_state *g = &r->gfx;
    ws_device *d = r->dev;
    ws_status st = context_api(r, ws_gfx_set_target(d, handle(r, g->target, RP_TARGET)), "the render target");
    if (st == WS_OK) st = context_api(r, ws_gfx_set_pipeline(d, handle(r, g->pipeline, RP_PIPELINE)), "the pipeline");
    /* A binding may name a buffer the program freed before the frame (the
     * runtime keeps it; a draw checks it again): the setters refuse such a
     * range, so it is put back as it was, unchecked. */
    for (int i = 0; i < WS_GFX_MAX_BINDINGS && st == WS_OK; i++) {
        st = ws_gfx_set_vertex_buffer(d, (uint32_t)i, g->vb_addr[i], g->vb_size[i]);
        if (st == WS_ERR_BAD_ADDRESS) st = ws_gfx_api_restore_buffer(d, (uint32_t)i, g->vb_addr[i], g->vb_size[i], 0);
        st = context_api(r, st, "a vertex buffer");
    }
    if (st == WS_OK) {
        ws_gfx_index_type it = g->ib_type ? (ws_gfx_index_type)g->ib_type : WS_GFX_INDEX_U16;
        st = ws_gfx_set_index_buffer(d, g->ib_addr, g->ib_size, it);
        if (st == WS_ERR_BAD_ADDRESS) st = ws_gfx_api_restore_buffer(d, WS_GFX_MAX_BINDINGS, g->ib_addr, g->ib_size, it);
        st = context_api(r, st, "the index buffer");
    }
    if (st == WS_OK) st = context_api(r, ws_gfx_set_uniforms(d, g->uniforms), "the uniforms");
    for (int i = 0; i < WS_GFX_MAX_TEXTURES && st == WS_OK; i++) {
        ws_gfx_texture *t = handle(r, g->texture[i], RP_TEXTURE);
        st = context_api(r, ws_gfx_set_texture(d, (uint32_t)i, t, t ? &g->sampler[i] : NULL), "a texture binding");
    }
    if (st == WS_OK) {
        const float *v = g->viewport;
        st = g->has_viewport ? ws_gfx_set_viewport(d, v[0], v[1], v[2], v[3], v[4], v[5])
                             : ws_gfx_set_viewport(d, 0, 0, 0, 0, 0, 0);
        st = context_api(r, st, "the viewport");
    }
    if (st == WS_OK)
        st = context_api(r, ws_gfx_set_scissor(d, g->scissor[0], g->scissor[1], g->scissor[2], g->scissor[3]), "the scissor");
    return st;
}

/* Open or close a graphics frame so the device is as the capture started:
 * inside a frame when a range of launches began in one, else outside (a
 * pass that ended inside a frame leaves it open). */
static ws_status restore_frame(ws_replay *r)
{
    ws_device *d = r->dev;
    int open = d->gfx_api && d->gfx_api->in_frame;
    ws_status st = WS_OK;
    if (open && !r->gfx.in_frame) { /* present ends it; any live target will do */
        ws_gfx_target *t = NULL, *tmp = NULL;
        for (uint32_t id = 1; id < r->nobj && !t; id++)
            if (r->obj[id]->kind == RP_TARGET) t = r->obj[id]->h;
        if (!t) st = api(r, ws_gfx_target_create(d, 1, 1, 0, &tmp), "a target to end the open frame on");
        if (st == WS_OK) st = api(r, ws_gfx_present(d, t ? t : tmp, NULL, 0), "ending the frame a pass left open");
        if (tmp) {
            ws_status s2 = api(r, ws_gfx_target_destroy(d, tmp), "a target to end the open frame on");
            if (st == WS_OK) st = s2;
        }
        open = 0;
    }
    if (st == WS_OK && !open && r->gfx.in_frame)
        st = api(r, ws_gfx_begin_frame(d, NULL), "opening the graphics frame the capture started in");
    return st;
}

static int is_initial_alloc(const ws_replay *r, uint32_t addr, uint64_t size)
{
    for (size_t i = 0; i < r->ninit; i++)
        if (r->init[i].addr == addr) return r->init[i].size == size;
    return 0;
}

static int is_live(const ws_replay *r, uint32_t addr, uint64_t size)
{
    for (size_t i = 0; i < r->nlive; i++)
        if (r->live[i].addr == addr) return r->live[i].size == size;
    return 0;
}

ws_status ws_replay_restore(ws_replay *r)
{
    if (!r) return WS_ERR_INVALID_ARG;
    ws_status st = api(r, ws_synchronize(r->dev), "waiting for the device");
    /* 1. What the frame created goes; what it changed in place is rewritten below. */
    for (uint32_t id = r->nobj; id-- > 1 && st == WS_OK;)
        if (r->obj[id]->h && !r->obj[id]->initial && r->obj[id]->kind != RP_KERNEL)
            st = api(r, rp_destroy(r, id), "destroying an object the frame created");
    for (uint32_t id = 1; id < r->nobj; id++)
        if (!r->obj[id]->initial && r->obj[id]->kind == RP_KERNEL) r->obj[id]->h = NULL;
    for (size_t i = r->nlive; i-- > 0 && st == WS_OK;) {
        if (is_initial_alloc(r, r->live[i].addr, r->live[i].size)) continue;
        uint32_t addr = r->live[i].addr;
        st = api(r, ws_free(r->dev, addr), "freeing an allocation the frame made");
        rp_live_remove(r, addr);
    }
    /* 2. What existed at the start comes back at its captured address:
     * modules and allocations first, then the objects placed by the device. */
    for (uint32_t id = 1; id < r->nobj && st == WS_OK; id++)
        if (r->obj[id]->initial && r->obj[id]->kind == RP_MODULE && !r->obj[id]->h) st = rp_create(r, id);
    for (size_t i = 0; i < r->ninit && st == WS_OK; i++) {
        if (is_live(r, r->init[i].addr, r->init[i].size)) continue;
        char what[96];
        snprintf(what, sizeof what, "the allocation of section at body offset %llu", (unsigned long long)r->init[i].at);
        st = api(r, ws_malloc_at(r->dev, r->init[i].addr, (size_t)r->init[i].size), what);
        if (st == WS_OK && rp_live_add(r, r->init[i].addr, r->init[i].size))
            st = rp_fail(r, WS_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    static const rp_kind order[] = { RP_KERNEL, RP_TEXTURE, RP_TARGET, RP_PIPELINE };
    for (size_t k = 0; k < sizeof order / sizeof *order; k++)
        for (uint32_t id = 1; id < r->nobj && st == WS_OK; id++)
            if (r->obj[id]->initial && r->obj[id]->kind == order[k] && !r->obj[id]->h) st = rp_create(r, id);
    /* 3. Every byte and the context. */
    if (st == WS_OK) st = rewrite_contents(r);
    if (st == WS_OK && r->uses_gfx) st = restore_context(r);
    if (st == WS_OK && (r->uses_gfx || r->gfx.in_frame)) st = restore_frame(r);
    if (st == WS_OK) st = api(r, ws_synchronize(r->dev), "waiting for the device");
    if (st != WS_OK) return st;
    /* Every pass gives the frame's launches and draws the ids they had when
     * captured: kernels and shaders read them (ws_launch_id(), ws_draw_id()),
     * and so do conditions on $launch and $draw. A capture that did not
     * record them: draws from 0; launches as the first replay numbered
     * them with same_launch_ids, else on from the last pass. */
    if (r->gfx.has_ids) {
        r->dev->next_launch_id = r->gfx.first_launch;
    } else if (r->same_launch_ids) {
        if (!r->first_launch_id) r->first_launch_id = r->dev->next_launch_id;
        r->dev->next_launch_id = r->first_launch_id;
    }
    if (r->uses_gfx) { /* (draws need a render target: no graphics, no draw ids) */
        ws_gfx_api *g = ws_gfx_api_get(r->dev, "replay");
        if (!g) return api(r, WS_ERR_OUT_OF_MEMORY, "restoring the draw ids");
        g->next_draw = r->gfx.first_draw;
    }
    return WS_OK;
}

uint64_t ws_replay_first_draw(const ws_replay *r)
{
    return r ? r->gfx.first_draw : 0;
}

void ws_replay_same_launch_ids(ws_replay *r)
{
    if (r) r->same_launch_ids = 1;
}
