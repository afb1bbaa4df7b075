/* The mesh view (replay_mesh.h). */
#include "capture/replay_mesh.h"
#include "capture/replay_tool.h"
#include "gfx/gfx.h"
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

ws_status ws_replay_parse_mesh(const char *text, uint64_t *call, uint64_t *rows, char *err, size_t errlen)
{
    unsigned long long c = 0, n = UINT64_MAX;
    int has_rows = 0;
    const int bad = rt_parse_pair(text, &c, &n, &has_rows);
    if (bad == 1)
        return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "--mesh: expected CALL[:ROWS] (a draw call's index, as --list "
                       "numbers them; at most ROWS vertices), got \"%s\"", text ? text : "");
    if (bad == 2 || (has_rows && n == 0))
        return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "--mesh: ROWS must be a whole number from 1, got \"%s\"", text);
    *call = c;
    *rows = has_rows ? n : UINT64_MAX;
    return WS_OK;
}

void ws_mesh_view_free(ws_mesh_view *v)
{
    if (!v) return;
    ws_gfx_mesh_free(&v->mesh);
    memset(v, 0, sizeof *v);
}

ws_status ws_replay_mesh_collect(ws_replay *r, uint64_t call, ws_mesh_view *out, char *err, size_t errlen)
{
    if (!r || !out) return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "mesh view: no replay or no output");
    memset(out, 0, sizeof *out);
    const uint64_t ncalls = ws_replay_call_count(r);
    if (call >= ncalls)
        return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "mesh view: no call %" PRIu64 " (the capture has calls 0..%" PRIu64 ")",
                       call, ncalls ? ncalls - 1 : 0);
    ws_replay_call_info ci;
    if (ws_replay_describe_call(r, call, &ci) != WS_OK)
        return rt_fail(err, errlen, WS_ERR_INTERNAL, "mesh view: call %" PRIu64 ": %s", call, ws_replay_error(r));
    if (ci.kind != WS_REPLAY_CALL_DRAW)
        return rt_fail(err, errlen, WS_ERR_INVALID_ARG, "mesh view: call %" PRIu64 " is %s, not a draw (see --list)", call,
                       ci.name);
    if (ci.draw == WS_REPLAY_NO_DRAW)
        return rt_fail(err, errlen, WS_ERR_NOT_FOUND, "mesh view: call %" PRIu64 " %s has no vertices or no instances: "
                       "it draws nothing", call, ci.text);
    ws_device *dev = ws_replay_device(r);
    ws_status st = ws_replay_restore(r);
    if (st != WS_OK) return rt_fail(err, errlen, rt_replay_failed(st), "mesh view: %s", ws_replay_error(r));
    if ((st = ws_gfx_mesh_arm(dev)) != WS_OK) return rt_fail(err, errlen, st, "mesh view: %s", ws_last_error(dev));
    st = ws_replay_run(r, 0, call + 1, NULL, NULL);
    const ws_status ran = st;
    const ws_gfx_mesh *m = NULL;
    /* a frame that failed at this draw (its fragments, say) still shows
     * the vertices it shaded */
    if ((st == WS_OK || ws_replay_frame_failure(st)) && ws_gfx_mesh_read(dev, &m) == WS_OK &&
        m->draw_id == ws_replay_first_draw(r) + ci.draw) {
        st = WS_OK;
        if (ran != WS_OK) snprintf(out->failure, sizeof out->failure, "%s", ws_replay_error(r));
    } else if (st != WS_OK) {
        st = rt_fail(err, errlen, rt_replay_failed(st),
                     "mesh view: the frame stopped before the draw's vertices were shaded: %s", ws_replay_error(r));
        m = NULL;
    } else {
        st = rt_fail(err, errlen, WS_ERR_NOT_FOUND, "mesh view: call %" PRIu64 " %s shaded no vertices (its viewport "
                     "or scissor leaves no pixel of the target)", call, ci.text);
        m = NULL;
    }
    if (m) {
        out->call = call;
        snprintf(out->call_text, sizeof out->call_text, "%s", ci.text);
        if (ws_gfx_last_draw_stats(dev, &out->stats) != WS_OK) memset(&out->stats, 0, sizeof out->stats);
        if (ws_gfx_mesh_copy(m, &out->mesh) != 0) {
            ws_mesh_view_free(out);
            st = rt_fail(err, errlen, WS_ERR_OUT_OF_MEMORY, "mesh view: out of host memory");
        }
    }
    ws_gfx_mesh_disarm(dev);
    return st;
}

/* One number in a column of 11 characters, to six significant digits (the
 * exact floats are in ws_mesh_view); a shader's NaN prints as nan. */
static void cell(FILE *out, float v)
{
    fprintf(out, " %10.6g", v);
}

void ws_replay_mesh_print(const ws_mesh_view *v, uint64_t rows, FILE *out)
{
    const ws_gfx_mesh *m = &v->mesh;
    const ws_gfx_draw_stats *s = &v->stats;
    static const char *const cull[] = { "none", "back", "front" };
    fprintf(out, "mesh: call %" PRIu64 " %s: vertex shader %s, triangle %s, cull %s (front face %s)\n",
            v->call, v->call_text, m->shader, m->topology == WS_GFX_TRIANGLE_STRIP ? "strip" : "list",
            (unsigned)m->cull < 3 ? cull[m->cull] : "?", m->front_face == WS_GFX_CW ? "clockwise" : "counter-clockwise");
    /* an indexed draw counts indices (one vertex invocation each) */
    const char *unit = m->indexed ? (m->count == 1 ? "index" : "indices") : (m->count == 1 ? "vertex" : "vertices");
    fprintf(out, "  %" PRIu64 " vertex invocation%s (%u %s x %u instance%s); inputs:", m->n, m->n == 1 ? "" : "s",
            m->count, unit, m->instances, m->instances == 1 ? "" : "s");
    if (!m->nattributes) fprintf(out, " none");
    for (uint32_t a = 0; a < m->nattributes; a++) fprintf(out, "%s in%u %s", a ? "," : "", a, ws_gfx_format_name(m->format[a]));
    fprintf(out, "; outputs: position and %u varying%s\n", m->vout_floats - 4, m->vout_floats - 4 == 1 ? "" : "s");
    fprintf(out, "  primitives: %" PRIu64 " in, %" PRIu64 " clipped, %" PRIu64 " culled, %" PRIu64 " invalid, %" PRIu64
                 " rasterized\n", s->primitives_in, s->primitives_clipped, s->primitives_culled, s->primitives_invalid,
            s->primitives_rasterized);
    /* the header: one column per float */
    fprintf(out, "  %6s %10s %5s", "#", "vertex", "inst");
    static const char comp[] = "xyzw";
    for (uint32_t a = 0; a < m->nattributes; a++)
        for (uint32_t k = 0; k < ws_gfx_format_floats(m->format[a]); k++) {
            char h[16];
            snprintf(h, sizeof h, "in%u.%c", a, comp[k]);
            fprintf(out, " %10s", h);
        }
    for (uint32_t k = 0; k < 4; k++) {
        char h[16];
        snprintf(h, sizeof h, "pos.%c", comp[k]);
        fprintf(out, " %10s", h);
    }
    for (uint32_t k = 4; k < m->vout_floats; k++) {
        char h[16];
        snprintf(h, sizeof h, "var%u", k - 4);
        fprintf(out, " %10s", h);
    }
    fprintf(out, " %10s %10s %10s\n", "win.x", "win.y", "depth");
    const uint64_t n = rows < m->n ? rows : m->n;
    for (uint64_t i = 0; i < n; i++) {
        fprintf(out, "  %6" PRIu64 " %10u %5u", i, m->vertex[i], m->instance[i]);
        for (uint32_t k = 0; k < m->vin_floats; k++) cell(out, m->in[i * m->vin_floats + k]);
        for (uint32_t k = 0; k < m->vout_floats; k++) cell(out, m->out[i * m->vout_floats + k]);
        /* no window position (w <= 0, or 1/w overflows: gfx_window_of's
         * rule) shows -; a position the shader made NaN projects to nan */
        const float w = m->out[i * m->vout_floats + 3];
        const int projected = w > 0 && isfinite(1.0f / w);
        for (uint32_t k = 0; k < 3; k++) {
            if (!projected) fprintf(out, " %10s", "-");
            else cell(out, m->window[i * 3 + k]);
        }
        fputc('\n', out);
    }
    if (n < m->n) fprintf(out, "  (%" PRIu64 " of %" PRIu64 " invocations shown)\n", n, m->n);
    if (v->failure[0]) fprintf(out, "  the frame failed at this draw, after its vertices: %s\n", v->failure);
}

ws_status ws_replay_mesh(ws_replay *r, uint64_t call, uint64_t rows, FILE *out, char *err, size_t errlen)
{
    ws_mesh_view v;
    ws_status st = ws_replay_mesh_collect(r, call, &v, err, errlen);
    if (st != WS_OK) return st;
    ws_replay_mesh_print(&v, rows, out);
    ws_mesh_view_free(&v);
    return WS_OK;
}
