/* Issuing recorded calls through the public API, and the digest of a
 * frame's results. Allocations and modules go to the addresses the capture
 * recorded, so pointers inside buffers and kernel arguments stay valid. */
#include <stdlib.h>
#include <string.h>
#include "capture/replay_int.h"
#include "device/device.h"
#include "runtime/gfx_api.h"

/* The handle of object `id` of `kind`, which must exist now. */
static void *live(ws_replay *r, wscap_cur *c, rp_kind kind, const char *what, int may_be_none)
{
    uint32_t id = wscap_u32(c);
    if (!id && may_be_none) return NULL;
    rp_obj *o = rp_object(r, id, kind, what);
    if (!o) return NULL;
    if (!o->h) rp_fail(r, WS_ERR_BAD_MODULE, "%s names object %u, which does not exist at this point", what, id);
    return o->h;
}

static ws_status launch(ws_replay *r, wscap_cur *c)
{
    ws_kernel *k = live(r, c, RP_KERNEL, "ws_launch", 0);
    if (!k) return WS_ERR_BAD_MODULE;
    ws_dim3 g, b;
    g.x = wscap_u32(c); g.y = wscap_u32(c); g.z = wscap_u32(c);
    b.x = wscap_u32(c); b.y = wscap_u32(c); b.z = wscap_u32(c);
    uint32_t dyn = wscap_u32(c), nargs = wscap_u32(c);
    if (nargs > 256) return rp_fail(r, WS_ERR_BAD_MODULE, "ws_launch with %u arguments", nargs);
    ws_arg args[256];
    memset(args, 0, sizeof args);
    for (uint32_t i = 0; i < nargs; i++) {
        args[i].type = (ws_arg_type)wscap_u32(c);
        uint64_t bits = wscap_u64(c);
        memcpy(&args[i].v, &bits, 8);
    }
    for (uint32_t i = 0; i < nargs && !c->bad; i++) { /* structs by value: their bytes follow */
        if (args[i].type != WS_TYPE_STRUCT) continue;
        uint64_t n;
        const uint8_t *p = wscap_blob(c, &n);
        if (c->bad || n != args[i].v.u64)
            return rp_fail(r, WS_ERR_BAD_MODULE, "ws_launch argument %u: a struct of %llu bytes holds %llu", i,
                           (unsigned long long)args[i].v.u64, (unsigned long long)n);
        args[i].v.bytes.data = p;
        args[i].v.bytes.size = (uint32_t)n;
    }
    if (c->bad) return WS_ERR_BAD_MODULE;
    return ws_launch(r->dev, k, g, b, dyn, args, nargs);
}

static ws_status create_from_call(ws_replay *r, const rp_call *rc, wscap_cur *c)
{
    uint32_t id = wscap_u32(c);
    rp_obj *o = r->obj[id]; /* defined when the capture was read */
    ws_status st;
    switch (rc->call) {
    case WSCAP_MODULE_LOAD: {
        ws_module *m;
        st = ws_module_load_data_at(r->dev, o->image, (size_t)o->image_size, o->name, o->base, &m);
        if (st == WS_OK) o->h = m;
        return st;
    }
    case WSCAP_KERNEL_GET: {
        ws_module *m = live(r, c, RP_MODULE, "ws_kernel_get", 0);
        if (!m) return WS_ERR_BAD_MODULE;
        ws_kernel *k;
        st = ws_kernel_get(m, o->name, &k);
        if (st == WS_OK) o->h = k;
        return st;
    }
    case WSCAP_TARGET_CREATE: {
        o->w = wscap_u32(c);
        o->h_px = wscap_u32(c);
        o->has_depth = (int)wscap_u32(c);
        ws_gfx_target *t;
        st = ws_gfx_target_create(r->dev, o->w, o->h_px, o->has_depth, &t);
        if (st == WS_OK) o->h = t;
        return st;
    }
    case WSCAP_TEXTURE_CREATE: {
        o->w = wscap_u32(c);
        o->h_px = wscap_u32(c);
        o->levels = wscap_u32(c);
        ws_gfx_texture *t;
        st = ws_gfx_texture_create(r->dev, o->w, o->h_px, o->levels, &t);
        if (st == WS_OK) o->h = t;
        return st;
    }
    default: { /* WSCAP_PIPELINE_CREATE */
        wscap_pipeline p;
        wscap_get_pipeline(c, &p);
        ws_kernel *vs = p.vs < r->nobj && r->obj[p.vs]->kind == RP_KERNEL ? r->obj[p.vs]->h : NULL;
        ws_kernel *fs = p.fs < r->nobj && r->obj[p.fs]->kind == RP_KERNEL ? r->obj[p.fs]->h : NULL;
        if (!vs || !fs)
            return rp_fail(r, WS_ERR_BAD_MODULE, "ws_gfx_pipeline_create names shaders %u and %u, which do not "
                           "exist at this point", p.vs, p.fs);
        p.desc.vertex_shader = vs;
        p.desc.fragment_shader = fs;
        o->pipe = p;
        ws_gfx_pipeline *h;
        st = ws_gfx_pipeline_create(r->dev, &p.desc, &h);
        if (st == WS_OK) o->h = h;
        return st;
    }
    }
}

static ws_status set_texture(ws_replay *r, wscap_cur *c)
{
    uint32_t slot = wscap_u32(c);
    ws_gfx_texture *t = live(r, c, RP_TEXTURE, "ws_gfx_set_texture", 1);
    uint32_t has = wscap_u32(c);
    ws_gfx_sampler s;
    s.filter = (ws_gfx_filter)wscap_u32(c);
    s.mip_filter = (ws_gfx_filter)wscap_u32(c);
    s.mipmaps = (int)wscap_u32(c);
    s.wrap_u = (ws_gfx_wrap)wscap_u32(c);
    s.wrap_v = (ws_gfx_wrap)wscap_u32(c);
    return ws_gfx_set_texture(r->dev, slot, t, has ? &s : NULL);
}

static ws_status read_target(ws_replay *r, wscap_cur *c, ws_gfx_target *t, int depth)
{
    uint32_t w, h;
    ws_gfx_target_size(t, &w, &h);
    uint8_t *buf = rp_scratch(r, (size_t)w * h * 4);
    if (!buf) return rp_fail(r, WS_ERR_OUT_OF_MEMORY, "out of host memory");
    (void)c;
    return depth ? ws_gfx_target_read_depth(r->dev, t, (float *)(void *)buf, (size_t)w * h)
                 : ws_gfx_target_read(r->dev, t, buf, (size_t)w * h * 4);
}

/* Issue call rc; WS_OK or the API's status (r->err set by the caller). */
static ws_status issue(ws_replay *r, const rp_call *rc)
{
    wscap_cur c = wscap_cursor(rc->args, rc->nargs);
    ws_device *d = r->dev;
    ws_status st = WS_OK;
    uint32_t a, b;
    uint64_t n;
    const uint8_t *p;
    switch (rc->call) {
    case WSCAP_MALLOC: {
        n = wscap_u64(&c);
        a = wscap_u32(&c);
        if (c.bad) break;
        st = ws_malloc_at(d, a, (size_t)n);
        if (st == WS_OK && rp_live_add(r, a, n)) return rp_fail(r, WS_ERR_OUT_OF_MEMORY, "out of host memory");
        break;
    }
    case WSCAP_FREE:
        a = wscap_u32(&c);
        /* a ws_free whose wait met a failure of the work before it
         * reports it and frees all the same (docs/api.md, "Threads") */
        if (!c.bad && ((st = ws_free(d, a)) == WS_OK || st == WS_ERR_KERNEL_FAULT || st == WS_ERR_KERNEL_ASSERT ||
                       st == WS_ERR_DEADLOCK || st == WS_ERR_TIMEOUT || st == WS_ERR_INTERRUPTED))
            rp_live_remove(r, a);
        break;
    case WSCAP_HTOD:
        a = wscap_u32(&c);
        p = wscap_blob(&c, &n);
        if (!c.bad) st = ws_memcpy_htod(d, a, p, (size_t)n);
        break;
    case WSCAP_DTOH: {
        a = wscap_u32(&c);
        n = wscap_u64(&c);
        /* the host buffer is the replayer's: no read can be larger than
         * the device's memory, so a damaged size asks for none */
        if (!c.bad && n > r->cfg.global_mem_limit)
            return rp_fail(r, WS_ERR_BAD_MODULE, "it reads %llu bytes, more than the device's %llu bytes of memory",
                           (unsigned long long)n, (unsigned long long)r->cfg.global_mem_limit);
        uint8_t *buf = c.bad ? NULL : rp_scratch(r, n ? (size_t)n : 1);
        if (!c.bad && !buf)
            return rp_fail(r, WS_ERR_OUT_OF_MEMORY, "out of host memory for a %llu-byte read back", (unsigned long long)n);
        if (!c.bad) st = ws_memcpy_dtoh(d, buf, a, (size_t)n);
        break;
    }
    case WSCAP_DTOD:
        a = wscap_u32(&c);
        b = wscap_u32(&c);
        n = wscap_u64(&c);
        if (!c.bad) st = ws_memcpy_dtod(d, a, b, (size_t)n);
        break;
    case WSCAP_MEMSET:
        a = wscap_u32(&c);
        b = wscap_u32(&c);
        n = wscap_u64(&c);
        if (!c.bad) st = ws_memset(d, a, (int)b, (size_t)n);
        break;
    case WSCAP_MODULE_LOAD: case WSCAP_KERNEL_GET: case WSCAP_TARGET_CREATE: case WSCAP_TEXTURE_CREATE:
    case WSCAP_PIPELINE_CREATE:
        st = create_from_call(r, rc, &c);
        break;
    case WSCAP_MODULE_UNLOAD: case WSCAP_TARGET_DESTROY: case WSCAP_TEXTURE_DESTROY: case WSCAP_PIPELINE_DESTROY: {
        uint32_t id = wscap_u32(&c);
        static const rp_kind kinds[] = { [WSCAP_MODULE_UNLOAD] = RP_MODULE, [WSCAP_TARGET_DESTROY] = RP_TARGET,
                                         [WSCAP_TEXTURE_DESTROY] = RP_TEXTURE, [WSCAP_PIPELINE_DESTROY] = RP_PIPELINE };
        rp_obj *o = rp_object(r, id, kinds[rc->call], wscap_call_name(rc->call));
        if (!o) return WS_ERR_BAD_MODULE;
        return rp_destroy(r, id);
    }
    case WSCAP_LAUNCH: st = launch(r, &c); break;
    case WSCAP_SYNCHRONIZE: case WSCAP_FENCE_WAIT: st = ws_synchronize(d); break;
    case WSCAP_TARGET_READ: {
        ws_gfx_target *t = live(r, &c, RP_TARGET, "ws_gfx_target_read", 0);
        if (!t) return WS_ERR_BAD_MODULE;
        st = read_target(r, &c, t, (int)wscap_u32(&c));
        break;
    }
    case WSCAP_TARGET_WRITE: {
        ws_gfx_target *t = live(r, &c, RP_TARGET, "ws_gfx_target_write", 0);
        if (!t) return WS_ERR_BAD_MODULE;
        uint32_t depth = wscap_u32(&c);
        p = wscap_blob(&c, &n);
        if (!c.bad)
            st = depth ? ws_gfx_target_write_depth(d, t, (const float *)(const void *)p, (size_t)n / 4)
                       : ws_gfx_target_write(d, t, p, (size_t)n);
        break;
    }
    case WSCAP_TEXTURE_UPLOAD: {
        ws_gfx_texture *t = live(r, &c, RP_TEXTURE, "ws_gfx_texture_upload", 0);
        if (!t) return WS_ERR_BAD_MODULE;
        a = wscap_u32(&c);
        p = wscap_blob(&c, &n);
        if (!c.bad) st = ws_gfx_texture_upload(d, t, a, p, (size_t)n);
        break;
    }
    case WSCAP_TEXTURE_MIPS: {
        ws_gfx_texture *t = live(r, &c, RP_TEXTURE, "ws_gfx_texture_generate_mips", 0);
        if (!t) return WS_ERR_BAD_MODULE;
        st = ws_gfx_texture_generate_mips(d, t);
        break;
    }
    case WSCAP_SET_TARGET: {
        ws_gfx_target *t = live(r, &c, RP_TARGET, "ws_gfx_set_target", 1);
        if (!t && r->err[0]) return WS_ERR_BAD_MODULE;
        st = ws_gfx_set_target(d, t);
        break;
    }
    case WSCAP_SET_PIPELINE: {
        ws_gfx_pipeline *pl = live(r, &c, RP_PIPELINE, "ws_gfx_set_pipeline", 1);
        if (!pl && r->err[0]) return WS_ERR_BAD_MODULE;
        st = ws_gfx_set_pipeline(d, pl);
        break;
    }
    case WSCAP_SET_VERTEX_BUFFER: {
        uint32_t slot = wscap_u32(&c);
        a = wscap_u32(&c);
        b = wscap_u32(&c);
        if (!c.bad) st = ws_gfx_set_vertex_buffer(d, slot, a, b);
        break;
    }
    case WSCAP_SET_INDEX_BUFFER: {
        a = wscap_u32(&c);
        b = wscap_u32(&c);
        uint32_t type = wscap_u32(&c);
        if (!c.bad) st = ws_gfx_set_index_buffer(d, a, b, (ws_gfx_index_type)type);
        break;
    }
    case WSCAP_SET_UNIFORMS:
        a = wscap_u32(&c);
        if (!c.bad) st = ws_gfx_set_uniforms(d, a);
        break;
    case WSCAP_SET_TEXTURE:
        st = set_texture(r, &c);
        if (r->err[0]) return WS_ERR_BAD_MODULE;
        break;
    case WSCAP_SET_VIEWPORT: {
        float v[6];
        for (int i = 0; i < 6; i++) v[i] = wscap_f32(&c);
        if (!c.bad) st = ws_gfx_set_viewport(d, v[0], v[1], v[2], v[3], v[4], v[5]);
        break;
    }
    case WSCAP_SET_SCISSOR: {
        uint32_t v[4];
        for (int i = 0; i < 4; i++) v[i] = wscap_u32(&c);
        if (!c.bad) st = ws_gfx_set_scissor(d, v[0], v[1], v[2], v[3]);
        break;
    }
    case WSCAP_BEGIN_FRAME: {
        uint64_t frame;
        st = ws_gfx_begin_frame(d, &frame);
        break;
    }
    case WSCAP_CLEAR: {
        float v[5];
        for (int i = 0; i < 5; i++) v[i] = wscap_f32(&c);
        if (!c.bad) st = ws_gfx_clear(d, v, v[4]);
        break;
    }
    case WSCAP_DRAW: {
        uint32_t v[4];
        for (int i = 0; i < 4; i++) v[i] = wscap_u32(&c);
        if (!c.bad) st = ws_gfx_draw(d, v[0], v[1], v[2], v[3]);
        break;
    }
    case WSCAP_DRAW_INDEXED: {
        uint32_t v[5];
        for (int i = 0; i < 5; i++) v[i] = wscap_u32(&c);
        if (!c.bad) st = ws_gfx_draw_indexed(d, v[0], v[1], v[2], (int32_t)v[3], v[4]);
        break;
    }
    case WSCAP_PRESENT: {
        ws_gfx_target *t = live(r, &c, RP_TARGET, "ws_gfx_present", 1);
        if (!t && r->err[0]) return WS_ERR_BAD_MODULE;
        uint32_t readback = wscap_u32(&c);
        uint32_t w = 0, h = 0;
        if (t) ws_gfx_target_size(t, &w, &h);
        uint8_t *buf = readback && t ? rp_scratch(r, (size_t)w * h * 4) : NULL;
        if (!c.bad) st = ws_gfx_present(d, t, buf, buf ? (size_t)w * h * 4 : 0);
        break;
    }
    default:
        return rp_fail(r, WS_ERR_UNSUPPORTED, "unknown call %u", rc->call);
    }
    if (c.bad)
        return rp_fail(r, WS_ERR_BAD_MODULE, "its fields are truncated: the field at body offset %llu runs past the "
                       "call's end at body offset %llu", (unsigned long long)rp_field_at(rp_args_at(rc), &c),
                       (unsigned long long)(rp_args_at(rc) + rc->nargs));
    return st;
}

/* ---- failures of the frame's work (replayer.h) ---- */

static ws_status met(ws_replay *r, const rp_failrec *f, uint64_t after)
{
    if (r->nmet == r->metcap) {
        size_t cap = r->metcap ? r->metcap * 2 : 4;
        ws_replay_failure *m = realloc(r->met, cap * sizeof *m);
        if (!m) return rp_fail(r, WS_ERR_OUT_OF_MEMORY, "out of host memory");
        r->met = m;
        r->metcap = cap;
    }
    ws_replay_failure *m = &r->met[r->nmet++];
    memset(m, 0, sizeof *m);
    m->call = f->call;
    m->own = f->own;
    m->met_after = after;
    m->status = f->status;
    snprintf(m->name, sizeof m->name, "%s", f->name);
    snprintf(m->report, sizeof m->report, "%s", ws_last_error(r->dev));
    return WS_OK;
}

/* "WS_ERR_KERNEL_FAULT (the failure record at body offset 1234)": what a
 * replay that does not meet a recorded failure expected, and from where. */
static const char *expected(const rp_failrec *f, char *buf, size_t len)
{
    snprintf(buf, len, "%s (the failure record at body offset %llu)", ws_status_name(f->status),
             (unsigned long long)f->at);
    return buf;
}

/* Calls whose work goes into the queue: after a failure the program's
 * queue discarded them, up to the call that reported it. */
static int queued_work(uint32_t call)
{
    switch (call) {
    case WSCAP_HTOD: case WSCAP_DTOD: case WSCAP_MEMSET: case WSCAP_LAUNCH: case WSCAP_CLEAR: case WSCAP_DRAW:
    case WSCAP_DRAW_INDEXED: case WSCAP_TEXTURE_UPLOAD: case WSCAP_TEXTURE_MIPS:
        return 1;
    default:
        return 0;
    }
}

/* Calls that, reporting a failure, have still done their job (a present
 * has ended its frame, a destroy freed its object); the others (waits,
 * reads back) reported it instead. */
static int acts_when_failing(uint32_t call)
{
    return call == WSCAP_PRESENT || call == WSCAP_TARGET_DESTROY || call == WSCAP_TEXTURE_DESTROY;
}

/* A call of discarded work is not issued, but the program's call was
 * queued and took its launch or draw id: the ids after it stay as they
 * were (kernels and shaders read them). */
static ws_status skip_ids(ws_replay *r, const rp_call *rc)
{
    if (rc->call == WSCAP_LAUNCH) r->dev->next_launch_id++;
    if ((rc->call == WSCAP_DRAW || rc->call == WSCAP_DRAW_INDEXED) && rc->draw != WS_REPLAY_NO_DRAW) {
        ws_gfx_api *g = ws_gfx_api_get(r->dev, "replay");
        if (!g) return rp_fail(r, WS_ERR_OUT_OF_MEMORY, "out of host memory");
        g->next_draw++;
    }
    return WS_OK;
}

/* Calls that wait for the queue (and so report a failure of the work
 * before them). */
static int waits(uint32_t call)
{
    switch (call) {
    case WSCAP_SYNCHRONIZE: case WSCAP_FENCE_WAIT: case WSCAP_DTOH: case WSCAP_TARGET_READ: case WSCAP_PRESENT:
    case WSCAP_TARGET_DESTROY: case WSCAP_TEXTURE_DESTROY: case WSCAP_FREE: case WSCAP_MODULE_LOAD:
    case WSCAP_MODULE_UNLOAD: case WSCAP_TARGET_WRITE:
        return 1;
    default:
        return 0;
    }
}

static const rp_failrec *next_fail(const ws_replay *r)
{
    return r->next_fail < r->nfails ? &r->fails[r->next_fail] : NULL;
}

/* The failures a call the capture does not hold met just before call k:
 * wait as it did (unless the failure was met early already). */
static ws_status failures_before(ws_replay *r, uint64_t k)
{
    const rp_failrec *f;
    while ((f = next_fail(r)) && !f->own && f->call == k) {
        r->next_fail++;
        if (r->early) { /* met already: this is where the program heard of it */
            r->early = 0;
            r->met[r->nmet - 1].call = k;
            r->met[r->nmet - 1].own = 0;
            snprintf(r->met[r->nmet - 1].name, sizeof r->met[r->nmet - 1].name, "%s", f->name);
            continue;
        }
        ws_status st = ws_synchronize(r->dev);
        if (st == f->status) {
            if ((st = met(r, f, r->cur)) != WS_OK) return st;
            continue;
        }
        char want[128];
        if (st == WS_OK)
            return rp_fail(r, WS_ERR_INTERNAL, "before call %llu: the captured program's %s met a failure of the "
                           "frame's work here; the replay's work did not fail (expected: %s; found: WS_OK)",
                           (unsigned long long)k, f->name, expected(f, want, sizeof want));
        return rp_fail(r, st, "before call %llu, where the captured program's %s met a failure of the frame's work, "
                       "the replay's failed otherwise (expected: %s; found: %s): %s", (unsigned long long)k, f->name,
                       expected(f, want, sizeof want), ws_status_name(st), ws_last_error(r->dev));
    }
    return WS_OK;
}

ws_status ws_replay_wait(ws_replay *r)
{
    if (!r) return WS_ERR_INVALID_ARG;
    ws_status st = ws_synchronize(r->dev);
    const rp_failrec *f = next_fail(r);
    if (st == WS_OK || !ws_replay_frame_failure(st) || !r->gfx.records_failures || r->early || !f || f->status != st)
        return st;
    /* the program heard of it at the first call after this one that
     * waited: the record must be there, or this is another failure */
    uint64_t first = r->cur == UINT64_MAX ? 0 : r->cur + 1;
    for (uint64_t k = first; k < f->call && k < r->ncalls; k++)
        if (waits(r->calls[k].call)) return st;
    /* the program met this failure later, at the call the record names;
     * the work it queued in between was discarded (not run) */
    ws_status m = met(r, f, r->cur);
    if (m != WS_OK) return m;
    r->early = 1;
    return WS_OK;
}

ws_status ws_replay_failures(const ws_replay *r, const ws_replay_failure **out, size_t *n)
{
    if (!r || !out || !n) return WS_ERR_INVALID_ARG;
    *out = r->met;
    *n = r->nmet;
    return WS_OK;
}

void ws_replay_failures_text(const ws_replay *r, char *buf, size_t len)
{
    if (!buf || !len) return;
    buf[0] = 0;
    size_t at = 0;
    for (size_t i = 0; r && i < r->nmet && at < len; i++) {
        const ws_replay_failure *m = &r->met[i];
        int n = m->own ? snprintf(buf + at, len - at, "call %llu %s: %s\n", (unsigned long long)m->call, m->name,
                                  m->report)
                : m->call < r->ncalls
                    ? snprintf(buf + at, len - at, "before call %llu, %s (not in the capture): %s\n",
                               (unsigned long long)m->call, m->name, m->report)
                    : snprintf(buf + at, len - at, "after the last call, %s: %s\n", m->name, m->report);
        if (n < 0) break;
        at += (size_t)n;
    }
}

ws_status ws_replay_recorded_failures(const ws_replay *r, const ws_replay_recorded_failure **out, size_t *n)
{
    if (!r || !out || !n) return WS_ERR_INVALID_ARG;
    *out = r->fails;
    *n = r->nfails;
    return WS_OK;
}

int ws_replay_records_failures(const ws_replay *r)
{
    return r && r->gfx.records_failures;
}

/* Call i failed with st, not as the capture recorded (own: the record
 * of its own failure, if any). */
static ws_status call_failed(ws_replay *r, uint64_t i, ws_status st, const rp_failrec *own)
{
    const rp_call *rc = &r->calls[i];
    char why[600], want[128], differs[200] = "";
    snprintf(why, sizeof why, "%s", r->err[0] ? r->err + strlen(r->name) + 2 : ws_last_error(r->dev));
    if (own)
        snprintf(differs, sizeof differs, " (the captured call failed otherwise: expected: %s; found: %s)",
                 expected(own, want, sizeof want), ws_status_name(st));
    return rp_fail(r, st, "call %llu %s (body offset %llu): %s%s", (unsigned long long)i, wscap_call_name(rc->call),
                   (unsigned long long)rc->at, why,
                   own ? differs
                   : !ws_replay_frame_failure(st) ? ""
                   : !r->gfx.records_failures ? " (the capture predates recorded failures: the replay "
                                                "cannot go past it; capture again to replay the frames after)"
                   : " (the captured call did not fail)");
}

ws_status ws_replay_run(ws_replay *r, uint64_t from, uint64_t to, ws_replay_after_fn after, void *user)
{
    if (!r) return WS_ERR_INVALID_ARG;
    if (to > r->ncalls) to = r->ncalls;
    r->nmet = 0;
    r->early = 0;
    r->cur = from ? from - 1 : UINT64_MAX;
    for (r->next_fail = 0; r->next_fail < r->nfails && r->fails[r->next_fail].call < from;) r->next_fail++;
    r->err[0] = 0;
    const rp_failrec *pending = next_fail(r);
    if (!from && pending && pending->own == 2) {
        /* work queued before the capture had failed: the program heard of
         * it at the frame's first wait, and the work it queued until then
         * was discarded, as in the early case */
        r->next_fail++;
        ws_status m = met(r, pending, UINT64_MAX);
        if (m != WS_OK) return m;
        snprintf(r->met[r->nmet - 1].report, sizeof r->met[r->nmet - 1].report, "%s", pending->report);
        r->early = 1;
    }
    ws_status st = from < to ? failures_before(r, from) : WS_OK;
    if (st != WS_OK) return st;
    int stopped = 0;
    for (uint64_t i = from; i < to; i++) {
        r->err[0] = 0;
        const rp_call *rc = &r->calls[i];
        const rp_failrec *f = next_fail(r);
        const rp_failrec *own = f && f->own && f->call == i ? f : NULL;
        if (own) r->next_fail++;
        int skip = 0;
        if (r->early) {
            /* a failure was met early: the program's queue discarded the
             * work queued after it, and `own` is where it heard of it */
            if (own) {
                r->early = 0;
                r->met[r->nmet - 1].call = i;
                r->met[r->nmet - 1].own = 1;
                snprintf(r->met[r->nmet - 1].name, sizeof r->met[r->nmet - 1].name, "%s", own->name);
                skip = !acts_when_failing(rc->call);
                own = NULL; /* met: the call itself now succeeds */
            } else {
                skip = queued_work(rc->call);
            }
        }
        st = skip ? skip_ids(r, rc) : issue(r, rc);
        if (skip && st != WS_OK) return st;
        r->cur = i;
        if (st != WS_OK && own && st == own->status && r->gfx.records_failures) {
            if ((st = met(r, own, i)) != WS_OK) return st;
        } else if (st != WS_OK) {
            return call_failed(r, i, st, own);
        } else if (own) {
            char want[128];
            return rp_fail(r, WS_ERR_INTERNAL, "call %llu %s (body offset %llu): the captured call failed, the "
                           "replay's did not (expected: %s; found: WS_OK)", (unsigned long long)i,
                           wscap_call_name(rc->call), (unsigned long long)rc->at, expected(own, want, sizeof want));
        }
        if ((st = failures_before(r, i + 1)) != WS_OK) return st;
        if (after && after(user, r, i)) {
            stopped = 1;
            break;
        }
    }
    st = ws_synchronize(r->dev);
    if (st != WS_OK) {
        /* stopped inside a frame whose work fails later, as recorded: that
         * failure is met here */
        const rp_failrec *f = next_fail(r);
        if (stopped && r->gfx.records_failures && f && f->status == st && !r->early) {
            r->next_fail++;
            return met(r, f, r->cur);
        }
        return rp_fail(r, st, "finishing the frame: %s", ws_last_error(r->dev));
    }
    return WS_OK;
}

ws_status ws_replay_hash(ws_replay *r, uint64_t *out)
{
    if (!r || !out) return WS_ERR_INVALID_ARG;
    uint64_t h = WSCAP_DIGEST_INIT;
    for (size_t i = 0; i < r->nlive; i++) {
        uint8_t *buf = rp_scratch(r, (size_t)r->live[i].size);
        if (!buf) return rp_fail(r, WS_ERR_OUT_OF_MEMORY, "out of host memory");
        ws_status st = ws_memcpy_dtoh(r->dev, buf, r->live[i].addr, (size_t)r->live[i].size);
        if (st != WS_OK) return rp_fail(r, st, "reading back 0x%08x: %s", r->live[i].addr, ws_last_error(r->dev));
        h = wscap_digest_alloc(h, r->live[i].addr, r->live[i].size, buf);
    }
    for (uint32_t id = 1; id < r->nobj; id++) {
        rp_obj *o = r->obj[id];
        if (o->kind != RP_TARGET || !o->h) continue;
        size_t n = (size_t)o->w * o->h_px * 4;
        uint8_t *buf = rp_scratch(r, 2 * n);
        if (!buf) return rp_fail(r, WS_ERR_OUT_OF_MEMORY, "out of host memory");
        ws_status st = ws_gfx_target_read(r->dev, o->h, buf, n);
        if (st == WS_OK && o->has_depth)
            st = ws_gfx_target_read_depth(r->dev, o->h, (float *)(void *)(buf + n), (size_t)o->w * o->h_px);
        if (st != WS_OK) return rp_fail(r, st, "reading back render target %u: %s", id, ws_last_error(r->dev));
        h = wscap_digest_target(h, id, buf, n, o->has_depth ? buf + n : NULL, o->has_depth ? n : 0);
    }
    *out = h;
    return WS_OK;
}
