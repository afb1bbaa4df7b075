/* Words for a capture: each call with its arguments (what --list prints
 * and reports show), and the graphics context in force at a call. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "capture/replay_int.h"

typedef struct text { char *p; size_t len, at; } text;

static void say(text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(text *t, const char *fmt, ...)
{
    if (t->at >= t->len) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(t->p + t->at, t->len - t->at, fmt, ap);
    va_end(ap);
    if (n > 0) t->at += (size_t)n;
}

static const char *obj_name(const ws_replay *r, uint32_t id)
{
    return id && id < r->nobj && r->obj[id]->name[0] ? r->obj[id]->name : "";
}

/* A sampler as the call list and the state text show it: "linear
 * mip-nearest repeat", or "... repeat u, clamp v" when the axes differ
 * (before 2026-11-27 any clamped axis made the whole sampler "clamp"). */
static void say_sampler(text *t, const ws_gfx_sampler *sm)
{
    const char *wu = sm->wrap_u == WS_GFX_CLAMP ? "clamp" : "repeat", *wv = sm->wrap_v == WS_GFX_CLAMP ? "clamp" : "repeat";
    say(t, "%s%s %s", sm->filter ? "linear" : "nearest", sm->mipmaps ? (sm->mip_filter ? " mip-linear" : " mip-nearest") : "",
        wu);
    if (sm->wrap_u != sm->wrap_v) say(t, " u, %s v", wv);
}

static const char *const compare_names[] = { "never", "less", "equal", "lequal", "greater", "notequal", "gequal",
                                              "always" };
static const char *const blend_names[] = { "opaque", "alpha", "additive" };
static const char *const cull_names[] = { "none", "back", "front" };

/* A pipeline's fixed-function state where it is not the default (a
 * zeroed description: list, no culling, ccw, no depth test, opaque), for
 * the call list: ", depth less write, blend alpha" (before 2026-11-29
 * only the shaders were shown, and pipelines that differed in blending or
 * depth looked the same). */
static void say_pipeline_state(text *t, const ws_gfx_pipeline_desc *d)
{
    if (d->topology == WS_GFX_TRIANGLE_STRIP) say(t, ", strip");
    if (d->cull != WS_GFX_CULL_NONE) say(t, ", cull %s", (unsigned)d->cull < 3 ? cull_names[d->cull] : "?");
    if (d->front_face == WS_GFX_CW) say(t, ", front cw");
    if (d->depth_test)
        say(t, ", depth %s%s", (unsigned)d->depth_compare < 8 ? compare_names[d->depth_compare] : "?",
            d->depth_write ? " write" : "");
    if (d->blend != WS_GFX_BLEND_OPAQUE) say(t, ", blend %s", (unsigned)d->blend < 3 ? blend_names[d->blend] : "?");
}

static ws_replay_call_kind kind_of(uint32_t call)
{
    switch (call) {
    case WSCAP_HTOD: case WSCAP_DTOD: case WSCAP_MEMSET: case WSCAP_TEXTURE_UPLOAD: case WSCAP_TEXTURE_MIPS:
    case WSCAP_TARGET_WRITE:
        return WS_REPLAY_CALL_COPY;
    case WSCAP_LAUNCH: return WS_REPLAY_CALL_LAUNCH;
    case WSCAP_DRAW: case WSCAP_DRAW_INDEXED: return WS_REPLAY_CALL_DRAW;
    case WSCAP_CLEAR: return WS_REPLAY_CALL_CLEAR;
    case WSCAP_SYNCHRONIZE: case WSCAP_FENCE_WAIT: case WSCAP_DTOH: case WSCAP_TARGET_READ:
        return WS_REPLAY_CALL_SYNC;
    case WSCAP_BEGIN_FRAME: case WSCAP_PRESENT: return WS_REPLAY_CALL_FRAME;
    default: return WS_REPLAY_CALL_OTHER;
    }
}

/* The arguments of call rc as C-like text. */
static void describe(const ws_replay *r, const rp_call *rc, text *t, const char **kernel)
{
    wscap_cur c = wscap_cursor(rc->args, rc->nargs);
    uint64_t n;
    uint32_t v[8];
    float f[6];
    say(t, "%s(", wscap_call_name(rc->call));
    switch (rc->call) {
    case WSCAP_MALLOC: n = wscap_u64(&c); say(t, "%llu) = 0x%08x", (unsigned long long)n, wscap_u32(&c)); return;
    case WSCAP_FREE: say(t, "0x%08x)", wscap_u32(&c)); return;
    case WSCAP_HTOD:
        v[0] = wscap_u32(&c);
        wscap_blob(&c, &n);
        say(t, "0x%08x, <%llu bytes>)", v[0], (unsigned long long)n);
        return;
    case WSCAP_DTOH: v[0] = wscap_u32(&c); say(t, "<host>, 0x%08x, %llu)", v[0], (unsigned long long)wscap_u64(&c)); return;
    case WSCAP_DTOD: case WSCAP_MEMSET:
        v[0] = wscap_u32(&c);
        v[1] = wscap_u32(&c);
        say(t, rc->call == WSCAP_DTOD ? "0x%08x, 0x%08x, %llu)" : "0x%08x, %u, %llu)", v[0], v[1],
            (unsigned long long)wscap_u64(&c));
        return;
    case WSCAP_MODULE_LOAD: v[0] = wscap_u32(&c); say(t, "\"%s\") = module %u", obj_name(r, v[0]), v[0]); return;
    case WSCAP_KERNEL_GET: v[0] = wscap_u32(&c); say(t, "\"%s\") = kernel %u", obj_name(r, v[0]), v[0]); return;
    case WSCAP_LAUNCH: {
        v[0] = wscap_u32(&c);
        for (int i = 1; i <= 7; i++) v[i] = wscap_u32(&c);
        *kernel = obj_name(r, v[0]);
        say(t, "%s, grid (%u,%u,%u), block (%u,%u,%u), shared %u", *kernel, v[1], v[2], v[3], v[4], v[5], v[6], v[7]);
        uint32_t nargs = wscap_u32(&c);
        wscap_cur bytes = c; /* structs' bytes come after the arguments */
        for (uint32_t i = 0; i < nargs && !bytes.bad; i++) wscap_u32(&bytes), wscap_u64(&bytes);
        for (uint32_t i = 0; i < nargs && !c.bad; i++) {
            uint32_t type = wscap_u32(&c);
            uint64_t bits = wscap_u64(&c);
            if (type == WS_TYPE_STRUCT) { /* its first bytes, in hex */
                uint64_t n;
                const uint8_t *p = wscap_blob(&bytes, &n);
                say(t, ", {%llu bytes%s", (unsigned long long)n, n ? ":" : "");
                for (uint64_t j = 0; p && j < n && j < 16; j++) say(t, " %02x", p[j]);
                say(t, "%s}", n > 16 ? " ..." : "");
                continue;
            }
            float fv;
            double dv;
            memcpy(&fv, &bits, 4);
            memcpy(&dv, &bits, 8);
            switch (type) {
            case WS_TYPE_PTR: say(t, ", 0x%08x", (uint32_t)bits); break;
            case WS_TYPE_I32: say(t, ", %d", (int32_t)(uint32_t)bits); break;
            case WS_TYPE_F32: say(t, ", %g", (double)fv); break;
            case WS_TYPE_F64: say(t, ", %g", dv); break;
            case WS_TYPE_I64: say(t, ", %lld", (long long)bits); break;
            default: say(t, ", %llu", (unsigned long long)bits); break;
            }
        }
        say(t, ")");
        return;
    }
    case WSCAP_TARGET_CREATE:
        for (int i = 0; i < 4; i++) v[i] = wscap_u32(&c);
        say(t, "%ux%u%s) = target %u", v[1], v[2], v[3] ? ", depth" : "", v[0]);
        return;
    case WSCAP_TEXTURE_CREATE:
        for (int i = 0; i < 4; i++) v[i] = wscap_u32(&c);
        say(t, "%ux%u, %u levels) = texture %u", v[1], v[2], v[3], v[0]);
        return;
    case WSCAP_TEXTURE_UPLOAD:
        v[0] = wscap_u32(&c);
        v[1] = wscap_u32(&c);
        wscap_blob(&c, &n);
        say(t, "texture %u, level %u, <%llu bytes>)", v[0], v[1], (unsigned long long)n);
        return;
    case WSCAP_PIPELINE_CREATE: {
        v[0] = wscap_u32(&c);
        wscap_pipeline p;
        wscap_get_pipeline(&c, &p);
        say(t, "vs %s, fs %s", obj_name(r, p.vs), obj_name(r, p.fs));
        say_pipeline_state(t, &p.desc);
        say(t, ") = pipeline %u", v[0]);
        return;
    }
    case WSCAP_SET_VIEWPORT:
        for (int i = 0; i < 6; i++) f[i] = wscap_f32(&c);
        say(t, "%g, %g, %g, %g, %g, %g)", (double)f[0], (double)f[1], (double)f[2], (double)f[3], (double)f[4],
            (double)f[5]);
        return;
    case WSCAP_CLEAR:
        for (int i = 0; i < 5; i++) f[i] = wscap_f32(&c);
        say(t, "{%g, %g, %g, %g}, depth %g)", (double)f[0], (double)f[1], (double)f[2], (double)f[3], (double)f[4]);
        return;
    case WSCAP_DRAW: case WSCAP_DRAW_INDEXED: {
        int k = rc->call == WSCAP_DRAW ? 4 : 5;
        for (int i = 0; i < k; i++) v[i] = wscap_u32(&c);
        if (k == 4) say(t, "%u vertices, %u instances, first %u, first instance %u)", v[0], v[1], v[2], v[3]);
        else say(t, "%u indices, %u instances, first %u, base vertex %d, first instance %u)", v[0], v[1], v[2],
                 (int32_t)v[3], v[4]);
        if (rc->draw == WS_REPLAY_NO_DRAW) say(t, " (draws nothing)");
        else if (!r->gfx.first_draw) say(t, " draw %u", rc->draw);
        else say(t, " draw %u (id %llu)", rc->draw, (unsigned long long)(r->gfx.first_draw + rc->draw));
        return;
    }
    case WSCAP_SET_TEXTURE: { /* the sampler too: it is an argument the call list should not hide */
        for (int i = 0; i < 8; i++) v[i] = wscap_u32(&c);
        say(t, "slot %u, texture %u", v[0], v[1]);
        if (v[1] && v[2]) {
            const ws_gfx_sampler sm = { (ws_gfx_filter)v[3], (ws_gfx_filter)v[4], (int)v[5], (ws_gfx_wrap)v[6],
                                        (ws_gfx_wrap)v[7] };
            say(t, ", ");
            say_sampler(t, &sm);
        }
        say(t, ")");
        return;
    }
    /* addresses in hex, as everywhere else (and as --element takes them) */
    case WSCAP_SET_VERTEX_BUFFER:
        for (int i = 0; i < 3; i++) v[i] = wscap_u32(&c);
        say(t, "slot %u, 0x%08x, %u bytes)", v[0], v[1], v[2]);
        return;
    case WSCAP_SET_INDEX_BUFFER:
        for (int i = 0; i < 3; i++) v[i] = wscap_u32(&c);
        say(t, "0x%08x, %u bytes, %s)", v[0], v[1], v[2] == WS_GFX_INDEX_U32 ? "u32" : v[2] == WS_GFX_INDEX_U16 ? "u16" : "?");
        return;
    case WSCAP_SET_UNIFORMS: say(t, "0x%08x)", wscap_u32(&c)); return;
    case WSCAP_TARGET_READ: case WSCAP_TARGET_WRITE:
        v[0] = wscap_u32(&c);
        v[1] = wscap_u32(&c);
        say(t, "target %u, %s", v[0], v[1] ? "depth" : "colour");
        if (rc->call == WSCAP_TARGET_WRITE) {
            wscap_blob(&c, &n);
            say(t, ", <%llu bytes>", (unsigned long long)n);
        }
        say(t, ")");
        return;
    case WSCAP_SET_TARGET: say(t, "target %u)", wscap_u32(&c)); return;
    case WSCAP_SET_PIPELINE: say(t, "pipeline %u)", wscap_u32(&c)); return;
    case WSCAP_PRESENT: v[0] = wscap_u32(&c); say(t, "target %u%s)", v[0], wscap_u32(&c) ? ", read back" : ""); return;
    /* the object by its kind and id, as its creation's "= texture 6" */
    case WSCAP_TARGET_DESTROY: say(t, "target %u)", wscap_u32(&c)); return;
    case WSCAP_TEXTURE_DESTROY: case WSCAP_TEXTURE_MIPS: say(t, "texture %u)", wscap_u32(&c)); return;
    case WSCAP_PIPELINE_DESTROY: say(t, "pipeline %u)", wscap_u32(&c)); return;
    case WSCAP_MODULE_UNLOAD: say(t, "module %u)", wscap_u32(&c)); return;
    case WSCAP_SYNCHRONIZE: case WSCAP_FENCE_WAIT: case WSCAP_BEGIN_FRAME: say(t, ")"); return;
    default: { /* the rest: object ids and numbers */
        const char *sep = "";
        while (c.at + 4 <= c.len && !c.bad) { say(t, "%s%u", sep, wscap_u32(&c)); sep = ", "; }
        say(t, ")");
        return;
    }
    }
}

ws_status ws_replay_describe_call(const ws_replay *r, uint64_t index, ws_replay_call_info *out)
{
    if (!r || !out) return WS_ERR_INVALID_ARG;
    if (index >= r->ncalls) return WS_ERR_NOT_FOUND;
    const rp_call *rc = &r->calls[index];
    memset(out, 0, sizeof *out);
    out->index = index;
    out->kind = kind_of(rc->call);
    out->name = wscap_call_name(rc->call);
    out->draw = rc->draw;
    out->launch = rc->launch;
    text t = { out->text, sizeof out->text, 0 };
    describe(r, rc, &t, &out->kernel);
    if (out->kind == WS_REPLAY_CALL_DRAW) { /* the fragment shader of the pipeline in force */
        wscap_gfx_state s = r->gfx;
        for (uint64_t i = 0; i < index; i++) rp_track_gfx(&r->calls[i], &s);
        if (s.pipeline < r->nobj && r->obj[s.pipeline]->kind == RP_PIPELINE)
            out->kernel = obj_name(r, r->obj[s.pipeline]->pipe.fs);
    }
    if (out->kernel && !out->kernel[0]) out->kernel = NULL;
    return WS_OK;
}

void rp_track_gfx(const rp_call *rc, wscap_gfx_state *s)
{
    wscap_cur c = wscap_cursor(rc->args, rc->nargs);
    switch (rc->call) {
    case WSCAP_SET_TARGET: s->target = wscap_u32(&c); break;
    case WSCAP_SET_PIPELINE: s->pipeline = wscap_u32(&c); break;
    case WSCAP_SET_VERTEX_BUFFER: {
        uint32_t slot = wscap_u32(&c);
        if (slot < WS_GFX_MAX_BINDINGS) { s->vb_addr[slot] = wscap_u32(&c); s->vb_size[slot] = wscap_u32(&c); }
        break;
    }
    case WSCAP_SET_INDEX_BUFFER: s->ib_addr = wscap_u32(&c); s->ib_size = wscap_u32(&c); s->ib_type = wscap_u32(&c); break;
    case WSCAP_SET_UNIFORMS: s->uniforms = wscap_u32(&c); break;
    case WSCAP_SET_TEXTURE: {
        uint32_t slot = wscap_u32(&c);
        if (slot >= WS_GFX_MAX_TEXTURES) break;
        s->texture[slot] = wscap_u32(&c);
        wscap_u32(&c); /* has_sampler */
        ws_gfx_sampler *sm = &s->sampler[slot];
        sm->filter = (ws_gfx_filter)wscap_u32(&c);
        sm->mip_filter = (ws_gfx_filter)wscap_u32(&c);
        sm->mipmaps = (int)wscap_u32(&c);
        sm->wrap_u = (ws_gfx_wrap)wscap_u32(&c);
        sm->wrap_v = (ws_gfx_wrap)wscap_u32(&c);
        break;
    }
    case WSCAP_SET_VIEWPORT:
        for (int i = 0; i < 6; i++) s->viewport[i] = wscap_f32(&c);
        s->has_viewport = !(s->viewport[2] == 0 && s->viewport[3] == 0);
        break;
    case WSCAP_SET_SCISSOR: for (int i = 0; i < 4; i++) s->scissor[i] = wscap_u32(&c); break;
    default: break;
    }
}


ws_status ws_replay_state_text(ws_replay *r, uint64_t index, char *buf, size_t len)
{
    if (!r || !buf || !len) return WS_ERR_INVALID_ARG;
    if (index > r->ncalls) return WS_ERR_NOT_FOUND;
    wscap_gfx_state s = r->gfx;
    for (uint64_t i = 0; i < index; i++) rp_track_gfx(&r->calls[i], &s);
    text t = { buf, len, 0 };
    buf[0] = 0;
    if (s.pipeline && s.pipeline < r->nobj && r->obj[s.pipeline]->kind == RP_PIPELINE) {
        const wscap_pipeline *p = &r->obj[s.pipeline]->pipe;
        const ws_gfx_pipeline_desc *d = &p->desc;
        /* the front face decides what cull=back removes, and what
         * ws_front_facing() says (it was not shown before 2026-11-27) */
        say(&t, "pipeline %u: vs=%s fs=%s %s cull=%s front=%s depth=%s%s blend=%s\n", s.pipeline, obj_name(r, p->vs),
            obj_name(r, p->fs), d->topology == WS_GFX_TRIANGLE_STRIP ? "strip" : "list",
            (unsigned)d->cull < 3 ? cull_names[d->cull] : "?", d->front_face == WS_GFX_CW ? "cw" : "ccw",
            d->depth_test ? ((unsigned)d->depth_compare < 8 ? compare_names[d->depth_compare] : "?") : "off",
            d->depth_test && d->depth_write ? " write" : "", (unsigned)d->blend < 3 ? blend_names[d->blend] : "?");
    } else {
        say(&t, "pipeline: none\n");
    }
    if (s.target && s.target < r->nobj && r->obj[s.target]->kind == RP_TARGET) {
        const rp_obj *o = r->obj[s.target];
        say(&t, "target %u: %ux%u%s\n", s.target, o->w, o->h_px, o->has_depth ? " with depth" : "");
    } else {
        say(&t, "target: none\n");
    }
    if (s.has_viewport)
        say(&t, "viewport: %g,%g %gx%g depth %g..%g\n", (double)s.viewport[0], (double)s.viewport[1],
            (double)s.viewport[2], (double)s.viewport[3], (double)s.viewport[4], (double)s.viewport[5]);
    else
        say(&t, "viewport: the whole target\n");
    if (s.scissor[2]) say(&t, "scissor: %u,%u %ux%u\n", s.scissor[0], s.scissor[1], s.scissor[2], s.scissor[3]);
    for (int i = 0; i < WS_GFX_MAX_BINDINGS; i++)
        if (s.vb_size[i]) say(&t, "vertex buffer %d: 0x%08x, %u bytes\n", i, s.vb_addr[i], s.vb_size[i]);
    if (s.ib_size)
        say(&t, "index buffer: 0x%08x, %u bytes, %s\n", s.ib_addr, s.ib_size, s.ib_type == 4 ? "u32" : "u16");
    if (s.uniforms) say(&t, "uniforms: 0x%08x\n", s.uniforms);
    for (int i = 0; i < WS_GFX_MAX_TEXTURES; i++)
        if (s.texture[i]) {
            const ws_gfx_sampler *sm = &s.sampler[i];
            say(&t, "texture %d: texture %u ", i, s.texture[i]);
            say_sampler(&t, sm);
            say(&t, "\n");
        }
    return WS_OK;
}

uint32_t ws_replay_target_id_at(const ws_replay *r, uint64_t index)
{
    if (!r) return 0;
    wscap_gfx_state s = r->gfx;
    for (uint64_t i = 0; i < index && i < r->ncalls; i++) rp_track_gfx(&r->calls[i], &s);
    return s.target && s.target < r->nobj && r->obj[s.target]->kind == RP_TARGET ? s.target : 0;
}

ws_gfx_target *ws_replay_target_by_id(ws_replay *r, uint32_t id)
{
    return r && id && id < r->nobj && r->obj[id]->kind == RP_TARGET ? r->obj[id]->h : NULL;
}

ws_status ws_replay_target_size(const ws_replay *r, uint32_t id, uint32_t *w, uint32_t *h)
{
    if (!r || !id || id >= r->nobj || r->obj[id]->kind != RP_TARGET) return WS_ERR_NOT_FOUND;
    if (w) *w = r->obj[id]->w;
    if (h) *h = r->obj[id]->h_px;
    return WS_OK;
}

ws_status ws_replay_draw_rect(const ws_replay *r, uint64_t index, uint32_t rect[4])
{
    if (!r || !rect) return WS_ERR_INVALID_ARG;
    wscap_gfx_state s = r->gfx;
    for (uint64_t i = 0; i < index && i < r->ncalls; i++) rp_track_gfx(&r->calls[i], &s);
    uint32_t tw, th;
    if (!s.target || ws_replay_target_size(r, s.target, &tw, &th) != WS_OK) return WS_ERR_NOT_FOUND;
    /* as run_draw (src/gfx/gfx_cmd.c): target, viewport (default: the
     * target), scissor (w 0: off); pixel centres inside */
    double x0 = 0, y0 = 0, x1 = tw, y1 = th;
    if (s.has_viewport) {
        x0 = s.viewport[0]; y0 = s.viewport[1];
        x1 = (double)s.viewport[0] + s.viewport[2]; y1 = (double)s.viewport[1] + s.viewport[3];
    }
    if (s.scissor[2]) {
        x0 = fmax(x0, s.scissor[0]); y0 = fmax(y0, s.scissor[1]);
        x1 = fmin(x1, (double)s.scissor[0] + s.scissor[2]); y1 = fmin(y1, (double)s.scissor[1] + s.scissor[3]);
    }
    x0 = fmax(x0, 0); y0 = fmax(y0, 0); x1 = fmin(x1, tw); y1 = fmin(y1, th);
    memset(rect, 0, 4 * sizeof *rect);
    if (x1 > x0 && y1 > y0) {
        rect[0] = (uint32_t)ceil(x0 - 0.5); rect[1] = (uint32_t)ceil(y0 - 0.5);
        rect[2] = (uint32_t)ceil(x1 - 0.5); rect[3] = (uint32_t)ceil(y1 - 0.5);
    }
    return WS_OK;
}

ws_gfx_target *ws_replay_target_at(ws_replay *r, uint64_t index)
{
    uint32_t id = ws_replay_target_id_at(r, index);
    return id ? r->obj[id]->h : NULL;
}
