/* Opening a capture for replay: check the file, read the initial state and
 * the call list into tables, open a device configured as the captured one
 * and build the frame's starting objects. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/replay_int.h"

#define RP_MAX_OBJECTS (1u << 20)

/* Make room for ids up to `id`; the object must be new or of the same kind. */
static rp_obj *define(ws_replay *r, uint32_t id, rp_kind kind, uint64_t at, const char *where)
{
    if (!id || id >= RP_MAX_OBJECTS) {
        rp_fail(r, WS_ERR_BAD_MODULE, "%s: object id %u is out of range (1..%u)", where, id, RP_MAX_OBJECTS - 1);
        return NULL;
    }
    if (id >= r->nobj) {
        uint32_t n = r->nobj ? r->nobj : 16;
        while (n <= id) n *= 2;
        rp_obj **p = realloc(r->obj, (size_t)n * sizeof *p);
        if (!p) { rp_fail(r, WS_ERR_OUT_OF_MEMORY, "out of host memory"); return NULL; }
        for (uint32_t i = r->nobj; i < n; i++) p[i] = &r->none;
        r->obj = p;
        r->nobj = n;
    }
    if (r->obj[id] == &r->none && !(r->obj[id] = calloc(1, sizeof **r->obj))) {
        r->obj[id] = &r->none;
        rp_fail(r, WS_ERR_OUT_OF_MEMORY, "out of host memory");
        return NULL;
    }
    rp_obj *o = r->obj[id];
    if (o->kind && o->kind != kind) {
        rp_fail(r, WS_ERR_BAD_MODULE, "%s: object id %u is defined twice with different kinds", where, id);
        return NULL;
    }
    o->kind = kind;
    o->at = at;
    return o;
}

static ws_status add_init_alloc(ws_replay *r, uint32_t addr, uint64_t size, const uint8_t *bytes, uint64_t at)
{
    rp_alloc *p = realloc(r->init, (r->ninit + 1) * sizeof *p);
    if (!p) return rp_fail(r, WS_ERR_OUT_OF_MEMORY, "out of host memory");
    r->init = p;
    size_t i = r->ninit++;
    while (i && r->init[i - 1].addr > addr) { r->init[i] = r->init[i - 1]; i--; }
    r->init[i] = (rp_alloc){ addr, size, bytes, at };
    return WS_OK;
}

/* A payload that ends inside a field: name the field's body offset. */
static ws_status truncated(ws_replay *r, const char *where, const ws_capture_section *s, const wscap_cur *c)
{
    return rp_fail(r, WS_ERR_BAD_MODULE, "%s (type %u) is truncated: the field at body offset %llu runs past the "
                   "section's end at body offset %llu", where, s->type,
                   (unsigned long long)rp_field_at(s->offset + WSCAP_SECTION_HEADER, c),
                   (unsigned long long)(s->offset + WSCAP_SECTION_HEADER + s->size));
}

/* "section N at body offset M": how every message names a section. */
static const char *section_name(char *buf, size_t len, const ws_capture_section *s)
{
    snprintf(buf, len, "section %llu at body offset %llu", (unsigned long long)s->index, (unsigned long long)s->offset);
    return buf;
}

/* One section of the initial state. */
static ws_status read_state(ws_replay *r, const ws_capture_section *s)
{
    char where[96];
    section_name(where, sizeof where, s);
    wscap_cur c = wscap_cursor(s->data, s->size);
    rp_obj *o = NULL;
    uint64_t n;
    switch (s->type) {
    case WS_CAPTURE_DEVICE_CONFIG:
        wscap_get_config(&c, &r->cfg);
        break;
    case WS_CAPTURE_MODULE_IMAGE:
        if (!(o = define(r, (uint32_t)s->id, RP_MODULE, s->offset, where))) return WS_ERR_BAD_MODULE;
        wscap_str(&c, o->name, sizeof o->name);
        o->base = wscap_u32(&c);
        o->image = wscap_blob(&c, &o->image_size);
        o->initial = 1;
        break;
    case WSCAP_KERNEL:
        if (!(o = define(r, (uint32_t)s->id, RP_KERNEL, s->offset, where))) return WS_ERR_BAD_MODULE;
        o->module = wscap_u32(&c);
        wscap_str(&c, o->name, sizeof o->name);
        o->initial = 1;
        break;
    case WS_CAPTURE_ALLOCATION: {
        uint32_t addr = wscap_u32(&c);
        uint64_t size = wscap_u64(&c);
        const uint8_t *bytes = wscap_blob(&c, &n);
        if (!c.bad && (n != size || !size))
            return rp_fail(r, WS_ERR_BAD_MODULE, "%s: the allocation at 0x%08x has %llu bytes of contents for "
                           "a size of %llu", where, addr, (unsigned long long)n, (unsigned long long)size);
        if (!c.bad && add_init_alloc(r, addr, size, bytes, s->offset) != WS_OK) return WS_ERR_OUT_OF_MEMORY;
        break;
    }
    case WS_CAPTURE_TEXTURE:
        if (!(o = define(r, (uint32_t)s->id, RP_TEXTURE, s->offset, where))) return WS_ERR_BAD_MODULE;
        o->w = wscap_u32(&c);
        o->h_px = wscap_u32(&c);
        o->levels = wscap_u32(&c);
        if (o->levels > 16) return rp_fail(r, WS_ERR_BAD_MODULE, "%s: a texture with %u levels", where, o->levels);
        for (uint32_t l = 0; l < o->levels; l++) o->level[l] = wscap_blob(&c, &o->level_size[l]);
        o->initial = 1;
        break;
    case WSCAP_TARGET: {
        if (!(o = define(r, (uint32_t)s->id, RP_TARGET, s->offset, where))) return WS_ERR_BAD_MODULE;
        o->w = wscap_u32(&c);
        o->h_px = wscap_u32(&c);
        o->has_depth = (int)wscap_u32(&c);
        uint64_t nd;
        o->rgba = wscap_blob(&c, &n);
        o->depth = wscap_blob(&c, &nd);
        uint64_t px = (uint64_t)o->w * o->h_px * 4;
        if (!c.bad && (n != px || (o->has_depth && nd != px)))
            return rp_fail(r, WS_ERR_BAD_MODULE, "%s: the %ux%u render target's images have %llu and %llu bytes",
                           where, o->w, o->h_px, (unsigned long long)n, (unsigned long long)nd);
        if (!o->has_depth) o->depth = NULL;
        o->initial = 1;
        r->uses_gfx = 1;
        break;
    }
    case WS_CAPTURE_PIPELINE:
        if (!(o = define(r, (uint32_t)s->id, RP_PIPELINE, s->offset, where))) return WS_ERR_BAD_MODULE;
        wscap_get_pipeline(&c, &o->pipe);
        o->initial = 1;
        break;
    case WS_CAPTURE_GFX_STATE:
        wscap_get_gfx_state(&c, &r->gfx);
        r->gfx_at = s->offset;
        break;
    default:
        return WS_OK;
    }
    if (c.bad) return truncated(r, where, s, &c);
    return WS_OK;
}

/* Objects a call creates get their kind now, so later calls can name them. */
static ws_status define_created(ws_replay *r, rp_call *rc, uint64_t index)
{
    char where[128];
    snprintf(where, sizeof where, "call %llu %s (section at body offset %llu)", (unsigned long long)index,
             wscap_call_name(rc->call), (unsigned long long)rc->at);
    wscap_cur c = wscap_cursor(rc->args, rc->nargs);
    rp_kind kind;
    switch (rc->call) {
    case WSCAP_MODULE_LOAD: kind = RP_MODULE; break;
    case WSCAP_KERNEL_GET: kind = RP_KERNEL; break;
    case WSCAP_TARGET_CREATE: kind = RP_TARGET; r->uses_gfx = 1; break;
    case WSCAP_TEXTURE_CREATE: kind = RP_TEXTURE; break;
    case WSCAP_PIPELINE_CREATE: kind = RP_PIPELINE; break;
    default: return WS_OK;
    }
    uint32_t id = wscap_u32(&c);
    rp_obj *o = define(r, id, kind, rc->at, where);
    if (!o) return WS_ERR_BAD_MODULE;
    if (kind == RP_KERNEL) { /* the name, for --list and reports */
        o->module = wscap_u32(&c);
        wscap_str(&c, o->name, sizeof o->name);
    } else if (kind == RP_MODULE) {
        wscap_str(&c, o->name, sizeof o->name);
        o->base = wscap_u32(&c);
        o->image = wscap_blob(&c, &o->image_size);
    } else if (kind == RP_TARGET) { /* its size, known before it exists (the debugger's pixel checks) */
        o->w = wscap_u32(&c);
        o->h_px = wscap_u32(&c);
        o->has_depth = (int)wscap_u32(&c);
    }
    /* refused here, where the field is known: replayed, a module cut
     * short would be blamed on its ELF image */
    if (c.bad)
        return rp_fail(r, WS_ERR_BAD_MODULE, "%s: its fields are truncated: the field at body offset %llu runs past "
                       "the call's end at body offset %llu", where, (unsigned long long)rp_field_at(rp_args_at(rc), &c),
                       (unsigned long long)(rp_args_at(rc) + rc->nargs));
    return WS_OK;
}

static ws_status read_call(ws_replay *r, const ws_capture_section *s, uint32_t *draws, uint32_t *launches)
{
    char where[96];
    section_name(where, sizeof where, s);
    if (s->size < 4) return rp_fail(r, WS_ERR_BAD_MODULE, "%s: an API call without a call number", where);
    rp_call *p = realloc(r->calls, (size_t)(r->ncalls + 1) * sizeof *p);
    if (!p) return rp_fail(r, WS_ERR_OUT_OF_MEMORY, "out of host memory");
    r->calls = p;
    rp_call *rc = &r->calls[r->ncalls];
    const uint8_t *d = s->data;
    rc->call = (uint32_t)d[0] | (uint32_t)d[1] << 8 | (uint32_t)d[2] << 16 | (uint32_t)d[3] << 24;
    rc->args = d + 4;
    rc->nargs = s->size - 4;
    rc->at = s->offset;
    if (rc->call == 0 || rc->call >= WSCAP_CALL_COUNT)
        return rp_fail(r, WS_ERR_UNSUPPORTED, "%s: call number %u is not one this version knows (a capture from a "
                       "newer Warpscope?)", where, rc->call);
    rc->draw = 0;
    if (rc->call == WSCAP_DRAW || rc->call == WSCAP_DRAW_INDEXED) {
        /* Number draws as the device does: one of 0 vertices or 0
         * instances is accepted but queues nothing and gets no draw id, so
         * it must not shift the ordinals `monitor debug-pixel X Y DRAW`
         * and $draw use. Both calls start with the count and instances. */
        wscap_cur c = wscap_cursor(rc->args, rc->nargs);
        uint32_t count = wscap_u32(&c), instances = wscap_u32(&c);
        rc->draw = !c.bad && count && instances ? (*draws)++ : WS_REPLAY_NO_DRAW;
    }
    rc->launch = rc->call == WSCAP_LAUNCH ? (*launches)++ : 0;
    if (rc->call >= WSCAP_TARGET_CREATE) r->uses_gfx = 1;
    ws_status st = define_created(r, rc, r->ncalls);
    if (st == WS_OK) r->ncalls++;
    return st;
}

static ws_status read_frame_end(ws_replay *r, const ws_capture_section *s)
{
    wscap_cur c = wscap_cursor(s->data, s->size);
    ws_replay_frame f;
    f.frame = wscap_u64(&c);
    f.digest = wscap_u64(&c);
    char where[96];
    if (c.bad) return truncated(r, section_name(where, sizeof where, s), s, &c);
    if (!r->ncalls) return WS_OK; /* an empty frame: nothing to check against */
    f.last_call = r->ncalls - 1;
    ws_replay_frame *p = realloc(r->frames, (r->nframes + 1) * sizeof *p);
    if (!p) return rp_fail(r, WS_ERR_OUT_OF_MEMORY, "out of host memory");
    r->frames = p;
    r->frames[r->nframes++] = f;
    return WS_OK;
}

static ws_status read_failure(ws_replay *r, const ws_capture_section *s)
{
    wscap_cur c = wscap_cursor(s->data, s->size);
    rp_failrec f = { .call = s->id, .at = s->offset };
    uint32_t own = wscap_u32(&c);
    f.own = own > 2 ? 3 : (int)own;
    f.status = (ws_status)wscap_u32(&c);
    wscap_str(&c, f.name, sizeof f.name);
    wscap_str(&c, f.report, sizeof f.report);
    char where[96];
    section_name(where, sizeof where, s);
    if (c.bad) return truncated(r, where, s, &c);
    /* own: it follows its call's section; else it comes before the next
     * call's (or at the end), so the records are in call order */
    uint64_t want = f.own == 1 ? r->ncalls - 1 : r->ncalls;
    if ((f.own == 1 && !r->ncalls) || (f.own == 2 && (r->ncalls || r->nfails)) || f.own == 3 || f.call != want ||
        !ws_replay_frame_failure(f.status) ||
        (r->nfails && (r->fails[r->nfails - 1].call > f.call ||
                       (r->fails[r->nfails - 1].call == f.call && r->fails[r->nfails - 1].own >= f.own))))
        return rp_fail(r, WS_ERR_BAD_MODULE, "%s: a failure record for call %llu (status %d) out of place", where,
                       (unsigned long long)f.call, (int)f.status);
    rp_failrec *p = realloc(r->fails, (r->nfails + 1) * sizeof *p);
    if (!p) return rp_fail(r, WS_ERR_OUT_OF_MEMORY, "out of host memory");
    r->fails = p;
    r->fails[r->nfails++] = f;
    return WS_OK;
}

static ws_status read_capture(ws_replay *r)
{
    uint64_t count;
    ws_capture_reader_count(r->rd, &count);
    uint32_t draws = 0, launches = 0;
    int have_config = 0;
    for (uint64_t i = 0; i < count; i++) {
        ws_capture_section s;
        ws_capture_reader_section(r->rd, i, &s);
        ws_status st = WS_OK;
        if (s.type == WS_CAPTURE_API_CALL) {
            st = read_call(r, &s, &draws, &launches);
        } else if (s.type == WS_CAPTURE_FRAME_END) {
            st = read_frame_end(r, &s);
        } else if (s.type == WSCAP_FAILURE) {
            st = read_failure(r, &s);
        } else {
            if (s.type == WS_CAPTURE_DEVICE_CONFIG) have_config = 1;
            st = read_state(r, &s);
        }
        if (st != WS_OK) return st;
    }
    if (!have_config) return rp_fail(r, WS_ERR_BAD_MODULE, "no device configuration section: not a frame capture");
    if (r->nframes && r->frames[r->nframes - 1].last_call + 1 == r->ncalls) {
        r->digest = r->frames[r->nframes - 1].digest;
        r->have_digest = 1;
    }
    for (uint32_t id = 1; id < r->nobj; id++) { /* kernels must name modules */
        rp_obj *o = r->obj[id];
        if (o->kind != RP_KERNEL) continue;
        char what[400];
        snprintf(what, sizeof what, "kernel %s (section at body offset %llu)", o->name, (unsigned long long)o->at);
        if (!rp_object(r, o->module, RP_MODULE, what)) return WS_ERR_BAD_MODULE;
    }
    return WS_OK;
}

/* Open with the reader already made (file or memory). */
static ws_status open_with(ws_replay *r, ws_status st, const ws_replay_options *opt, ws_replay **out, char *err,
                           size_t errlen)
{
    if (st == WS_OK) st = read_capture(r);
    /* One host thread, as the capture ran (docs/parallel.md): racing
     * blocks replay as captured. A configuration given may ask for more. */
    r->cfg.threads = 1;
    /* A setting given may mend the capture's configuration; what is wrong
     * with the result is blamed on the capture only if the capture's own
     * is wrong (--config cores=0 said "the captured device configuration
     * is invalid"). */
    ws_config captured = r->cfg;
    if (st == WS_OK && opt && opt->config) {
        char why[256];
        if (ws_config_parse(&r->cfg, opt->config, why, sizeof why) != WS_OK)
            st = rp_fail(r, WS_ERR_INVALID_ARG, "configuration \"%s\": %s", opt->config, why);
    }
    if (st == WS_OK) {
        char why[256], own[256];
        if (ws_config_validate(&r->cfg, why, sizeof why) != WS_OK) {
            if (opt && opt->config && ws_config_validate(&captured, own, sizeof own) == WS_OK)
                st = rp_fail(r, WS_ERR_INVALID_ARG, "configuration \"%s\": %s", opt->config, why);
            else
                st = rp_fail(r, WS_ERR_BAD_MODULE, "the captured device configuration is invalid: %s", why);
        }
    }
    if (st == WS_OK && (st = ws_device_open(&r->cfg, &r->dev)) != WS_OK)
        rp_fail(r, st, "cannot open a device: %s", ws_status_name(st));
    if (st == WS_OK) st = ws_replay_restore(r);
    if (st != WS_OK) {
        if (err && errlen) snprintf(err, errlen, "%s", r->err);
        ws_replay_close(r);
        return st;
    }
    *out = r;
    return WS_OK;
}

static ws_replay *new_replay(const char *name, ws_replay **out, char *err, size_t errlen)
{
    if (!out || !name) {
        if (err && errlen) snprintf(err, errlen, "ws_replay_open: %s is NULL", out ? "the name" : "out");
        return NULL;
    }
    *out = NULL;
    ws_replay *r = calloc(1, sizeof *r);
    if (!r) {
        if (err && errlen) snprintf(err, errlen, "%s: out of host memory", name);
        return NULL;
    }
    snprintf(r->name, sizeof r->name, "%s", name);
    return r;
}

ws_status ws_replay_open(const char *path, const ws_replay_options *opt, ws_replay **out, char *err, size_t errlen)
{
    ws_replay *r = new_replay(path, out, err, errlen);
    if (!r) return out && path ? WS_ERR_OUT_OF_MEMORY : WS_ERR_INVALID_ARG;
    return open_with(r, ws_capture_reader_open(path, &r->rd, r->err, sizeof r->err), opt, out, err, errlen);
}

ws_status ws_replay_open_memory(const void *data, size_t size, const char *name, const ws_replay_options *opt,
                                ws_replay **out, char *err, size_t errlen)
{
    ws_replay *r = new_replay(name, out, err, errlen);
    if (!r) return out && name ? WS_ERR_OUT_OF_MEMORY : WS_ERR_INVALID_ARG;
    ws_status st = ws_capture_reader_open_memory(data, size, name, &r->rd, r->err, sizeof r->err);
    return open_with(r, st, opt, out, err, errlen);
}

ws_status ws_replay_close(ws_replay *r)
{
    if (!r) return WS_ERR_INVALID_ARG;
    ws_status st = WS_OK;
    if (r->dev) st = ws_device_close(r->dev);
    if (r->rd) ws_capture_reader_close(r->rd);
    for (uint32_t id = 0; id < r->nobj; id++)
        if (r->obj[id] != &r->none) free(r->obj[id]);
    free(r->obj);
    free(r->init);
    free(r->live);
    free(r->calls);
    free(r->frames);
    free(r->fails);
    free(r->met);
    free(r->scratch);
    free(r);
    return st;
}

const char *ws_replay_error(const ws_replay *r)
{
    return r ? r->err : "no replay";
}

ws_device *ws_replay_device(ws_replay *r)
{
    return r ? r->dev : NULL;
}

uint64_t ws_replay_call_count(const ws_replay *r)
{
    return r ? r->ncalls : 0;
}

ws_status ws_replay_captured_hash(const ws_replay *r, uint64_t *out)
{
    if (!r || !out) return WS_ERR_INVALID_ARG;
    if (!r->have_digest) return WS_ERR_NOT_FOUND;
    *out = r->digest;
    return WS_OK;
}

ws_status ws_replay_frames(const ws_replay *r, const ws_replay_frame **out, size_t *n)
{
    if (!r || !out || !n) return WS_ERR_INVALID_ARG;
    *out = r->frames;
    *n = r->nframes;
    return WS_OK;
}

ws_status ws_replay_modules(ws_replay *r, ws_replay_module *out, size_t max, size_t *n)
{
    if (!r || !n) return WS_ERR_INVALID_ARG;
    size_t k = 0;
    for (uint32_t id = 1; id < r->nobj; id++) {
        const rp_obj *o = r->obj[id];
        if (o->kind != RP_MODULE || !o->h) continue;
        if (out && k < max)
            out[k] = (ws_replay_module){ o->name, o->image, (size_t)o->image_size, (ws_module *)o->h };
        k++;
    }
    *n = k;
    return WS_OK;
}

/* The first live object of `kind` with a capture id above `id` (0: none). */
static uint32_t next_live(const ws_replay *r, rp_kind kind, uint32_t id)
{
    for (id++; id < r->nobj; id++)
        if (r->obj[id]->kind == kind && r->obj[id]->h) return id;
    return 0;
}

ws_status ws_replay_targets(ws_replay *r, ws_gfx_target **out, uint32_t *ids, size_t max, size_t *n)
{
    if (!r || !n) return WS_ERR_INVALID_ARG;
    size_t k = 0;
    for (uint32_t id = next_live(r, RP_TARGET, 0); id; id = next_live(r, RP_TARGET, id), k++) {
        if (out && k < max) out[k] = r->obj[id]->h;
        if (ids && k < max) ids[k] = id;
    }
    *n = k;
    return WS_OK;
}

ws_status ws_replay_textures(ws_replay *r, ws_gfx_texture **out, uint32_t *ids, size_t max, size_t *n)
{
    if (!r || !n) return WS_ERR_INVALID_ARG;
    size_t k = 0;
    for (uint32_t id = next_live(r, RP_TEXTURE, 0); id; id = next_live(r, RP_TEXTURE, id), k++) {
        if (out && k < max) out[k] = r->obj[id]->h;
        if (ids && k < max) ids[k] = id;
    }
    *n = k;
    return WS_OK;
}

int ws_replay_target_has_depth(const ws_replay *r, uint32_t id)
{
    return r && id < r->nobj && r->obj[id]->kind == RP_TARGET && r->obj[id]->has_depth;
}

ws_status ws_replay_buffers(ws_replay *r, uint32_t *addr, uint64_t *size, size_t max, size_t *n)
{
    if (!r || !n) return WS_ERR_INVALID_ARG;
    for (size_t i = 0; i < r->nlive && i < max; i++) {
        if (addr) addr[i] = r->live[i].addr;
        if (size) size[i] = r->live[i].size;
    }
    *n = r->nlive;
    return WS_OK;
}
