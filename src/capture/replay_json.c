/* Pixel and element histories as JSON (`warpscope replay --json FILE`),
 * for scripts: the fields of ws_pixel_history and ws_element_history as
 * the text prints them, with calls described as --list describes them.
 * Floats are written with enough digits to read back the same value; one
 * that is not finite is null. */
#include <inttypes.h>
#include <math.h>
#include <string.h>
#include "capture/replay_json.h"
#include "capture/replay_tool.h"
#include "gfx/gfx.h"
#include "runtime/json_text.h"

static void json_str(FILE *f, const char *s)
{
    if (!s) {
        fputs("null", f);
        return;
    }
    fputc('"', f);
    ws_json_chars(f, s);
    fputc('"', f);
}

static void json_float(FILE *f, double v)
{
    if (isfinite(v)) fprintf(f, "%.9g", v);
    else fputs("null", f);
}

static void json_rgba8(FILE *f, const uint8_t *c) { fprintf(f, "[%u, %u, %u, %u]", c[0], c[1], c[2], c[3]); }

static void json_rgbaf(FILE *f, const float *c)
{
    fputc('[', f);
    for (int i = 0; i < 4; i++) {
        if (i) fputs(", ", f);
        json_float(f, c[i]);
    }
    fputc(']', f);
}

/* The call as --list shows it: "call": N, "text": ..., and the kernel or
 * fragment shader of a launch or draw. */
static int json_call(FILE *f, ws_replay *r, uint64_t call, char *err, size_t errlen)
{
    ws_replay_call_info ci;
    if (ws_replay_describe_call(r, call, &ci) != WS_OK) {
        rt_fail(err, errlen, WS_ERR_INTERNAL, "history JSON: %s", ws_replay_error(r));
        return -1;
    }
    fprintf(f, "\"call\": %" PRIu64 ", \"text\": ", call);
    json_str(f, ci.text);
    fputs(", \"kernel\": ", f);
    json_str(f, (ci.kind == WS_REPLAY_CALL_DRAW || ci.kind == WS_REPLAY_CALL_LAUNCH) ? ci.kernel : NULL);
    return 0;
}

/* The failures the replay met as recorded and went past, one line of
 * `passed` each, with the call the order puts it at. */
static void json_passed(FILE *f, const char *passed, const ws_replay_passed_order *order)
{
    fputs("\"passed\": [", f);
    size_t i = 0;
    for (const char *l = passed; *l; i++) {
        const char *e = strchr(l, '\n');
        const size_t n = e ? (size_t)(e - l) : strlen(l);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), l);
        fprintf(f, "%s\n    {\"call\": ", i ? "," : "");
        if (i < order->n && order->key[i] != UINT64_MAX - 1) fprintf(f, "%" PRIu64, order->key[i] / 2);
        else fputs("null", f);
        fputs(", \"report\": ", f);
        json_str(f, line);
        fputc('}', f);
        l += n + (e != NULL);
    }
    fputs(i ? "\n  ]" : "]", f);
}

/* A history's last fields, the failures met on the way and the one that
 * ended the frame, and the document's end. */
static ws_status json_history_end(FILE *f, const char *passed, const ws_replay_passed_order *order,
                                  const char *failure, const char *what, char *err, size_t errlen)
{
    json_passed(f, passed, order);
    fputs(",\n  \"failure\": ", f);
    json_str(f, failure[0] ? failure : NULL);
    fputs("\n}\n", f);
    if (ferror(f)) return rt_fail(err, errlen, WS_ERR_IO, "%s JSON: writing the output failed", what);
    return WS_OK;
}

static const char *event_id(ws_gfx_probe_event e)
{
    switch (e) {
    case WS_GFX_PROBE_CLEAR: return "cleared";
    case WS_GFX_PROBE_WRITTEN: return "written";
    case WS_GFX_PROBE_DISCARDED: return "discarded";
    case WS_GFX_PROBE_EARLY_Z_FAILED: return "early_depth_failed";
    case WS_GFX_PROBE_DEPTH_FAILED: return "depth_failed";
    }
    return "unknown";
}

static const char *compare_id(ws_gfx_compare c)
{
    static const char *const names[] = { "never", "less", "equal", "less_equal",
                                         "greater", "not_equal", "greater_equal", "always" };
    return (unsigned)c < 8 ? names[c] : "unknown";
}

static void json_pixel_state(FILE *f, const char *name, int known, const uint8_t *rgba, int has_depth, float depth)
{
    fprintf(f, "  \"%s\": {\"known\": %s, \"rgba\": ", name, known ? "true" : "false");
    json_rgba8(f, rgba);
    fputs(", \"depth\": ", f);
    if (has_depth) json_float(f, depth);
    else fputs("null", f);
    fputs("},\n", f);
}

static int json_pixel_event(FILE *f, ws_replay *r, const ws_pixel_event *ev, int has_depth, char *err, size_t errlen)
{
    const ws_gfx_probe_rec *e = &ev->rec;
    fputs("    {", f);
    if (json_call(f, r, ev->call, err, errlen)) return -1;
    /* the draw's ordinal in the frame (--list's "draw 2") and the device's
     * id ($draw, ws_draw_id()); null for a clear */
    ws_replay_call_info ci;
    if (e->event != WS_GFX_PROBE_CLEAR && ws_replay_describe_call(r, ev->call, &ci) == WS_OK &&
        ci.kind == WS_REPLAY_CALL_DRAW && ci.draw != WS_REPLAY_NO_DRAW)
        fprintf(f, ", \"draw\": %u, \"draw_id\": %" PRIu64, ci.draw, e->draw_id);
    else
        fputs(", \"draw\": null, \"draw_id\": null", f);
    fprintf(f, ", \"result\": \"%s\"", event_id(e->event));
    if (e->event == WS_GFX_PROBE_CLEAR) {
        fputs(", \"clear_rgba\": ", f);
        json_rgbaf(f, e->color);
        fputs(", \"clear_depth\": ", f);
        if (has_depth) json_float(f, e->depth);
        else fputs("null", f);
    } else {
        fprintf(f, ", \"primitive\": %u, \"instance\": %u, \"front\": %s, \"shader_out\": ", e->prim, e->instance,
                e->front ? "true" : "false");
        if (e->shaded && e->event != WS_GFX_PROBE_DISCARDED) json_rgbaf(f, e->color);
        else fputs("null", f);
        fputs(", \"depth\": ", f);
        json_float(f, e->depth);
        if (e->depth_test) fprintf(f, ", \"depth_test\": \"%s\", \"depth_write\": %s", compare_id(e->depth_compare),
                                   e->depth_write ? "true" : "false");
        else fputs(", \"depth_test\": null, \"depth_write\": false", f);
    }
    fputs(", \"rgba_before\": ", f);
    json_rgba8(f, e->before);
    fputs(", \"rgba_after\": ", f);
    json_rgba8(f, e->after);
    fputs(", \"depth_before\": ", f);
    if (has_depth) json_float(f, e->depth_before);
    else fputs("null", f);
    fputs(", \"depth_after\": ", f);
    if (has_depth) json_float(f, e->depth_after);
    else fputs("null", f);
    fputc('}', f);
    return 0;
}

ws_status ws_replay_pixel_json(ws_replay *r, const ws_pixel_history *h, FILE *f, char *err, size_t errlen)
{
    if (!r || !h || !f) return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "pixel history JSON: nothing to write");
    fprintf(f, "{\n  \"pixel\": {\"x\": %u, \"y\": %u},\n", h->x, h->y);
    fprintf(f, "  \"target\": {\"id\": %u, \"width\": %u, \"height\": %u, \"depth\": %s},\n", h->target_id, h->w,
            h->h, h->has_depth ? "true" : "false");
    json_pixel_state(f, "frame_start", h->initial_known, h->initial, h->has_depth, h->initial_depth);
    fprintf(f, "  \"calls\": %" PRIu64 ",\n  \"events\": [", h->ncalls);
    for (size_t i = 0; i < h->n; i++) {
        fputs(i ? ",\n" : "\n", f);
        if (json_pixel_event(f, r, &h->ev[i], h->has_depth, err, errlen)) return WS_ERR_INTERNAL;
    }
    fputs(h->n ? "\n  ],\n" : "],\n", f);
    /* the frame end as the text says it: read back when the target is still
     * there, else what the last event left */
    const uint8_t *end = h->final_known ? h->final : h->n ? h->ev[h->n - 1].rec.after : h->initial;
    const float endz = h->final_known ? h->final_depth : h->n ? h->ev[h->n - 1].rec.depth_after : h->initial_depth;
    json_pixel_state(f, "frame_end", h->final_known, end, h->has_depth, endz);
    fputs("  ", f);
    return json_history_end(f, h->passed, &h->order, h->failure, "pixel history", err, errlen);
}

/* The element's bytes ([.., null for a byte no allocation holds]) and,
 * when every byte is held and the type is known, its scalars. */
static void json_bytes(FILE *f, const ws_element_type *t, const uint8_t *b, const uint8_t *held, uint32_t size)
{
    int all = 1;
    fputs("{\"bytes\": [", f);
    for (uint32_t i = 0; i < size; i++) {
        if (i) fputs(", ", f);
        if (held && held[i]) fprintf(f, "%u", b[i]);
        else fputs("null", f), all = 0;
    }
    fputs("], \"values\": ", f);
    if (!all || t->scalar == WS_ELEMENT_UNTYPED || !t->scalar_size || size < t->scalar_size) {
        fputs("null}", f);
        return;
    }
    fputc('[', f);
    for (uint32_t i = 0; i < size / t->scalar_size; i++) {
        if (i) fputs(", ", f);
        ws_element_print_scalar(f, t, b + i * t->scalar_size, 1);
    }
    fputs("]}", f);
}

static void json_type(FILE *f, const ws_element_type *t)
{
    if (t->scalar == WS_ELEMENT_UNTYPED) {
        fputs("null", f);
        return;
    }
    fputs("{\"name\": ", f);
    json_str(f, t->name);
    fprintf(f, ", \"first\": %u, \"read_by\": ", t->first);
    json_str(f, t->source);
    fputc('}', f);
}

ws_status ws_replay_element_json(ws_replay *r, const ws_element_history *h, FILE *f, char *err, size_t errlen)
{
    if (!r || !h || !f) return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "element history JSON: nothing to write");
    fprintf(f, "{\n  \"element\": {\"address\": %" PRIu32 ", \"size\": %u},\n  \"type\": ", (uint32_t)h->addr, h->size);
    json_type(f, &h->type);
    fputs(",\n  \"also_read_as\": [", f);
    for (size_t i = 0; i < h->nalso; i++) {
        if (i) fputs(", ", f);
        json_type(f, &h->also[i]);
    }
    fputs("],\n  \"frame_start\": ", f);
    json_bytes(f, &h->type, h->initial, h->held_initial, h->size);
    fputs(",\n  \"changes\": [", f);
    for (size_t i = 0; i < h->n; i++) {
        const ws_element_change *c = &h->ch[i];
        const ws_element_type *t = c->type.scalar != WS_ELEMENT_UNTYPED ? &c->type : &h->type;
        fputs(i ? ",\n    {" : "\n    {", f);
        if (json_call(f, r, c->call, err, errlen)) return WS_ERR_INTERNAL;
        fputs(", \"read_as\": ", f);
        json_str(f, t->scalar != WS_ELEMENT_UNTYPED ? t->name : NULL);
        fputs(", \"old\": ", f);
        json_bytes(f, t, c->before, c->held_before, h->size);
        fputs(", \"new\": ", f);
        json_bytes(f, t, c->after, c->held_after, h->size);
        fputc('}', f);
    }
    fputs(h->n ? "\n  ],\n  " : "],\n  ", f);
    return json_history_end(f, h->passed, &h->order, h->failure, "element history", err, errlen);
}

static const char *kind_id(ws_replay_call_kind k)
{
    switch (k) {
    case WS_REPLAY_CALL_OTHER: return "state";
    case WS_REPLAY_CALL_COPY: return "copy";
    case WS_REPLAY_CALL_LAUNCH: return "launch";
    case WS_REPLAY_CALL_DRAW: return "draw";
    case WS_REPLAY_CALL_CLEAR: return "clear";
    case WS_REPLAY_CALL_SYNC: return "sync";
    case WS_REPLAY_CALL_FRAME: return "frame";
    }
    return "unknown";
}

/* The recorded failures of kind `own` at call `call` ("failures": [...]),
 * from *k on (they are in call order). */
static void json_recorded(FILE *f, const ws_replay_recorded_failure *rf, size_t nf, size_t *k, uint64_t call, int own,
                          int *first)
{
    for (; *k < nf && rf[*k].call == call && rf[*k].own == own; ++*k) {
        fputs(*first ? "" : ", ", f);
        *first = 0;
        fprintf(f, "{\"when\": \"%s\", \"status\": \"%s\", \"by\": ",
                own == 2 ? "before_capture" : own ? "returned" : "before_call", ws_status_name(rf[*k].status));
        json_str(f, own == 0 ? rf[*k].name : NULL);
        fputs(", \"report\": ", f);
        json_str(f, rf[*k].report[0] ? rf[*k].report : NULL);
        fputc('}', f);
    }
}

ws_status ws_replay_list_json(ws_replay *r, FILE *f, char *err, size_t errlen)
{
    if (!r || !f) return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "call list JSON: nothing to write");
    const uint64_t n = ws_replay_call_count(r);
    const ws_replay_recorded_failure *rf = NULL;
    size_t nf = 0, k = 0;
    ws_replay_recorded_failures(r, &rf, &nf);
    fprintf(f, "{\n  \"count\": %" PRIu64 ",\n  \"failed_before_capture\": [", n);
    int first = 1;
    json_recorded(f, rf, nf, &k, 0, 2, &first);
    fputs("],\n  \"calls\": [", f);
    for (uint64_t i = 0; i < n; i++) {
        ws_replay_call_info ci;
        if (ws_replay_describe_call(r, i, &ci) != WS_OK)
            return rt_fail(err, errlen, WS_ERR_INTERNAL, "call list JSON: %s", ws_replay_error(r));
        fprintf(f, "%s\n    {\"call\": %" PRIu64 ", \"name\": ", i ? "," : "", i);
        json_str(f, ci.name);
        fprintf(f, ", \"kind\": \"%s\", \"text\": ", kind_id(ci.kind));
        json_str(f, ci.text);
        fputs(", \"kernel\": ", f);
        json_str(f, ci.kind == WS_REPLAY_CALL_DRAW || ci.kind == WS_REPLAY_CALL_LAUNCH ? ci.kernel : NULL);
        if (ci.kind == WS_REPLAY_CALL_DRAW && ci.draw != WS_REPLAY_NO_DRAW) fprintf(f, ", \"draw\": %u", ci.draw);
        else fputs(", \"draw\": null", f);
        if (ci.kind == WS_REPLAY_CALL_LAUNCH) fprintf(f, ", \"launch\": %u", ci.launch);
        else fputs(", \"launch\": null", f);
        fputs(", \"failures\": [", f);
        first = 1;
        json_recorded(f, rf, nf, &k, i, 0, &first); /* met just before it, by a call the capture does not hold */
        json_recorded(f, rf, nf, &k, i, 1, &first); /* returned by it */
        fputs("]}", f);
    }
    fputs(n ? "\n  ],\n  \"failed_at_close\": [" : "],\n  \"failed_at_close\": [", f);
    first = 1;
    json_recorded(f, rf, nf, &k, n, 0, &first);
    fputs("]\n}\n", f);
    if (ferror(f)) return rt_fail(err, errlen, WS_ERR_IO, "call list JSON: writing the output failed");
    return WS_OK;
}

static void json_floats(FILE *f, const float *v, uint32_t n)
{
    fputc('[', f);
    for (uint32_t k = 0; k < n; k++) {
        if (k) fputs(", ", f);
        json_float(f, v[k]);
    }
    fputc(']', f);
}

ws_status ws_replay_mesh_json(const ws_mesh_view *v, uint64_t rows, FILE *f, char *err, size_t errlen)
{
    if (!v || !f) return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "mesh view JSON: nothing to write");
    const ws_gfx_mesh *m = &v->mesh;
    const ws_gfx_draw_stats *s = &v->stats;
    static const char *const cull[] = { "none", "back", "front" };
    fprintf(f, "{\n  \"call\": %" PRIu64 ", \"text\": ", v->call);
    json_str(f, v->call_text);
    fputs(",\n  \"vertex_shader\": ", f);
    json_str(f, m->shader);
    fprintf(f, ", \"topology\": \"%s\", \"cull\": \"%s\", \"front_face\": \"%s\",\n",
            m->topology == WS_GFX_TRIANGLE_STRIP ? "strip" : "list", (unsigned)m->cull < 3 ? cull[m->cull] : "unknown",
            m->front_face == WS_GFX_CW ? "clockwise" : "counter-clockwise");
    fprintf(f, "  \"indexed\": %s, \"count\": %u, \"instances\": %u, \"inputs\": [", m->indexed ? "true" : "false",
            m->count, m->instances);
    for (uint32_t a = 0; a < m->nattributes; a++)
        fprintf(f, "%s{\"attribute\": %u, \"format\": \"%s\"}", a ? ", " : "", a, ws_gfx_format_name(m->format[a]));
    fprintf(f, "], \"varyings\": %u,\n", m->vout_floats - 4);
    fprintf(f, "  \"primitives\": {\"in\": %" PRIu64 ", \"clipped\": %" PRIu64 ", \"culled\": %" PRIu64
               ", \"invalid\": %" PRIu64 ", \"rasterized\": %" PRIu64 "},\n",
            s->primitives_in, s->primitives_clipped, s->primitives_culled, s->primitives_invalid,
            s->primitives_rasterized);
    const uint64_t n = rows < m->n ? rows : m->n;
    fprintf(f, "  \"invocations\": %" PRIu64 ", \"rows\": [", m->n);
    for (uint64_t i = 0; i < n; i++) {
        fprintf(f, "%s\n    {\"row\": %" PRIu64 ", \"vertex\": %u, \"instance\": %u, \"in\": ", i ? "," : "", i,
                m->vertex[i], m->instance[i]);
        json_floats(f, m->in + i * m->vin_floats, m->vin_floats);
        fputs(", \"position\": ", f);
        json_floats(f, m->out + i * m->vout_floats, 4);
        fputs(", \"varyings\": ", f);
        json_floats(f, m->out + i * m->vout_floats + 4, m->vout_floats - 4);
        /* as the table's "-": no window position for w <= 0 or 1/w overflowing */
        const float w = m->out[i * m->vout_floats + 3];
        fputs(", \"window\": ", f);
        if (w > 0 && isfinite(1.0f / w)) json_floats(f, m->window + i * 3, 3);
        else fputs("null", f);
        fputc('}', f);
    }
    fputs(n ? "\n  ],\n  \"failure\": " : "],\n  \"failure\": ", f);
    json_str(f, v->failure[0] ? v->failure : NULL);
    fputs("\n}\n", f);
    if (ferror(f)) return rt_fail(err, errlen, WS_ERR_IO, "mesh view JSON: writing the output failed");
    return WS_OK;
}
