/* gdb threads that are warps: see warp_view.h. Every call is passed to
 * the lane target with the warp's id turned into its focus lane's; stops
 * come back with the lane's id turned into its warp's, and the warp's
 * focus moved to that lane. */
#include "gdbstub/warp_view.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gdbstub/target_dbg.h"

/* gdb's ids: 1 is the device placeholder in both views; lanes and warps
 * from 2 on. */
static int is_unit(uint32_t tid) { return tid >= 2; }
static uint32_t warp_of_lane(const ws_gdb_warp_view *v, uint32_t lane_tid) { return (lane_tid - 2) / v->lanes_per_warp; }
static uint32_t lane_tid(const ws_gdb_warp_view *v, uint32_t warp, uint32_t lane)
{
    return 2 + warp * v->lanes_per_warp + lane;
}

static ws_status fail(ws_gdb_warp_view *v, ws_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static ws_status fail(ws_gdb_warp_view *v, ws_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->err, sizeof v->err, fmt, ap);
    va_end(ap);
    return st;
}

/* Each call starts with no message of its own: a failure below it is the
 * lane target's to explain (view_error). */
static ws_gdb_warp_view *begin(void *vp)
{
    ws_gdb_warp_view *v = vp;
    v->err[0] = 0;
    return v;
}

static int lane_alive(ws_gdb_warp_view *v, uint32_t tid)
{
    return v->lanes_ops->thread_alive ? v->lanes_ops->thread_alive(v->lanes, tid) : 1;
}

/* The lane behind warp thread tid: its focus, or (the focus lane has
 * exited) the warp's first live lane, which becomes the focus. 0 if
 * the warp has no live lane. Other ids pass unchanged. */
static uint32_t focus_lane(ws_gdb_warp_view *v, uint32_t tid)
{
    if (!is_unit(tid)) return tid;
    uint32_t w = tid - 2;
    if (w >= v->nwarps) return 0;
    uint32_t f = lane_tid(v, w, v->focus[w]);
    if (lane_alive(v, f)) return f;
    for (uint32_t l = 0; l < v->lanes_per_warp; l++)
        if (lane_alive(v, lane_tid(v, w, l))) {
            v->focus[w] = (uint8_t)l;
            return lane_tid(v, w, l);
        }
    return 0;
}

static uint32_t lane_or_fail(ws_gdb_warp_view *v, uint32_t tid)
{
    uint32_t l = focus_lane(v, tid);
    if (!l) fail(v, WS_ERR_NOT_FOUND, "Thread %u is not a warp with a live lane", tid);
    return l;
}

/* The lane target's thread list, whole, into v->list. */
static ws_status list_lanes(ws_gdb_warp_view *v, size_t *n)
{
    for (;;) {
        ws_status st = v->lanes_ops->threads(v->lanes, v->list, v->list_cap, n);
        if (st || *n <= v->list_cap) return st;
        ws_gdb_thread *bigger = realloc(v->list, *n * sizeof *bigger);
        if (!bigger) return fail(v, WS_ERR_OUT_OF_MEMORY, "out of host memory listing %zu threads", *n);
        v->list = bigger;
        v->list_cap = *n;
    }
}

/* One thread per warp with a live lane, named after its focus lane
 * (which is where `thread find block (1,0,0)` finds it), with the count
 * of its live lanes. */
static ws_status view_threads(void *vp, ws_gdb_thread *out, size_t max, size_t *n)
{
    ws_gdb_warp_view *v = begin(vp);
    size_t nl;
    ws_status st = list_lanes(v, &nl);
    if (st) return st;
    size_t k = 0;
    for (size_t i = 0; i < nl;) {
        if (!is_unit(v->list[i].tid)) { /* the placeholder */
            if (k < max) out[k] = v->list[i];
            k++, i++;
            continue;
        }
        uint32_t w = warp_of_lane(v, v->list[i].tid), live = 0;
        size_t j = i, shown = i;
        int focus_live = 0;
        /* the lane target lists lanes in hart order: a warp's are adjacent */
        for (; j < nl && is_unit(v->list[j].tid) && warp_of_lane(v, v->list[j].tid) == w; j++, live++)
            if (w < v->nwarps && v->list[j].tid == lane_tid(v, w, v->focus[w])) shown = j, focus_live = 1;
        if (!focus_live && w < v->nwarps) /* the focus lane exited: the first live one */
            v->focus[w] = (uint8_t)((v->list[i].tid - 2) % v->lanes_per_warp);
        if (k < max) {
            out[k].tid = 2 + w;
            snprintf(out[k].name, sizeof out[k].name, "%.90s (focus; %u live lanes)", v->list[shown].name, live);
        }
        k++;
        i = j;
    }
    *n = k;
    return WS_OK;
}

static int view_thread_alive(void *vp, uint32_t tid)
{
    ws_gdb_warp_view *v = begin(vp);
    if (!is_unit(tid)) return lane_alive(v, tid);
    return focus_lane(v, tid) != 0;
}

static ws_status view_read_reg(void *vp, uint32_t tid, uint32_t regno, uint32_t *val)
{
    ws_gdb_warp_view *v = begin(vp);
    uint32_t l = lane_or_fail(v, tid);
    if (!l) return WS_ERR_NOT_FOUND;
    return v->lanes_ops->read_reg(v->lanes, l, regno, val);
}

static ws_status view_write_reg(void *vp, uint32_t tid, uint32_t regno, uint32_t val)
{
    ws_gdb_warp_view *v = begin(vp);
    uint32_t l = lane_or_fail(v, tid);
    if (!l) return WS_ERR_NOT_FOUND;
    return v->lanes_ops->write_reg(v->lanes, l, regno, val);
}

/* Memory of a thread gone (gdb reads globals in any thread) is read as
 * the lane target reads it without one. */
static ws_status view_read_mem(void *vp, uint32_t tid, uint32_t addr, uint8_t *buf, size_t len)
{
    ws_gdb_warp_view *v = begin(vp);
    uint32_t l = focus_lane(v, tid);
    return v->lanes_ops->read_mem(v->lanes, l ? l : WS_GDB_PLACEHOLDER_TID, addr, buf, len);
}

static ws_status view_write_mem(void *vp, uint32_t tid, uint32_t addr, const uint8_t *buf, size_t len)
{
    ws_gdb_warp_view *v = begin(vp);
    uint32_t l = focus_lane(v, tid);
    return v->lanes_ops->write_mem(v->lanes, l ? l : WS_GDB_PLACEHOLDER_TID, addr, buf, len);
}

/* gdb's selected warp: its focus lane is the lane target's selected thread */
static void view_selected(void *vp, uint32_t tid)
{
    ws_gdb_warp_view *v = begin(vp);
    if (v->lanes_ops->selected) v->lanes_ops->selected(v->lanes, focus_lane(v, tid));
}

static ws_status view_breakpoint(void *vp, int type, uint32_t addr, uint32_t kind, int insert,
                                 const ws_gdb_cond *conds, size_t nconds)
{
    ws_gdb_warp_view *v = begin(vp);
    return v->lanes_ops->breakpoint(v->lanes, type, addr, kind, insert, conds, nconds);
}

/* A warp's actions as lane actions: a step steps its focus lane (the
 * hardware steps the warp); a continue continues every live lane of it.
 * Non-stop, the lane target runs a warp only once gdb has resumed all of
 * its lanes, so a step also continues the focus lane's siblings: they
 * step with it. A range step ('r') is a step with its range kept. */
static ws_status view_resume(void *vp, const ws_gdb_action *a, size_t n)
{
    ws_gdb_warp_view *v = begin(vp);
    size_t cap = n * (v->lanes_per_warp + 1), k = 0;
    ws_gdb_action *out = malloc(cap * sizeof *out);
    if (!out) return fail(v, WS_ERR_OUT_OF_MEMORY, "out of host memory resuming %zu actions", n);
    for (size_t i = 0; i < n; i++) {
        if (!is_unit(a[i].tid)) {
            if (!a[i].tid && a[i].op != 't') memset(v->told, 0, v->nwarps);
            out[k++] = a[i];
            continue;
        }
        uint32_t w = a[i].tid - 2, f = lane_or_fail(v, a[i].tid);
        if (!f) {
            free(out);
            return WS_ERR_NOT_FOUND;
        }
        out[k++] = (ws_gdb_action){ f, a[i].op, a[i].lo, a[i].hi, a[i].sig };
        if (a[i].op == 't') continue;
        v->told[w] = 0;
        if ((a[i].op == 's' || a[i].op == 'r') && !v->non_stop) continue;
        for (uint32_t l = 0; l < v->lanes_per_warp; l++) {
            uint32_t lt = lane_tid(v, w, l);
            if (lt != f && lane_alive(v, lt)) out[k++] = (ws_gdb_action){ lt, 'c', 0, 0, 0 };
        }
    }
    ws_status st = v->lanes_ops->resume(v->lanes, out, k);
    free(out);
    return st;
}

static ws_status view_interrupt(void *vp, uint32_t tid)
{
    ws_gdb_warp_view *v = begin(vp);
    uint32_t l = focus_lane(v, tid);
    if (is_unit(tid) && !l) return WS_OK; /* gone: nothing to stop */
    return v->lanes_ops->interrupt(v->lanes, l);
}

/* A lane's stop is its warp's, with the focus on that lane. Non-stop, a
 * warp gdb holds stopped already says nothing new when its other lanes'
 * stops (signal 0: halted because the warp did) arrive: they are taken
 * from the lane target and dropped. */
static ws_status view_wait(void *vp, int timeout_ms, ws_gdb_stop *stop)
{
    ws_gdb_warp_view *v = begin(vp);
    for (;;) {
        ws_status st = v->lanes_ops->wait(v->lanes, timeout_ms, stop);
        if (st) return st;
        if (stop->kind != WS_GDB_STOP_SIGNAL || !is_unit(stop->tid)) return WS_OK;
        uint32_t w = warp_of_lane(v, stop->tid);
        if (w >= v->nwarps) return WS_OK;
        int news = stop->signal || stop->reason || !v->told[w];
        if (news) {
            v->focus[w] = (uint8_t)((stop->tid - 2) % v->lanes_per_warp);
            stop->tid = 2 + w;
            if (v->non_stop) v->told[w] = 1;
            return WS_OK;
        }
        timeout_ms = 0; /* the rest of what is queued, then back to the server */
    }
}

static ws_status view_libraries(void *vp, char **xml, size_t *len)
{
    ws_gdb_warp_view *v = begin(vp);
    return v->lanes_ops->libraries(v->lanes, xml, len);
}

static ws_status view_file(void *vp, const char *name, const uint8_t **data, size_t *size)
{
    ws_gdb_warp_view *v = begin(vp);
    return v->lanes_ops->file(v->lanes, name, data, size);
}

static ws_status view_monitor(void *vp, const char *cmd, char **out)
{
    ws_gdb_warp_view *v = begin(vp);
    return v->lanes_ops->monitor(v->lanes, cmd, out);
}

static void view_detach(void *vp)
{
    ws_gdb_warp_view *v = begin(vp);
    v->lanes_ops->detach(v->lanes);
}

static const char *view_error(void *vp)
{
    const ws_gdb_warp_view *v = vp;
    return v->err[0] ? v->err : v->lanes_ops->error(v->lanes);
}

static ws_status view_set_non_stop(void *vp, int on)
{
    ws_gdb_warp_view *v = begin(vp);
    ws_status st = v->lanes_ops->set_non_stop ? v->lanes_ops->set_non_stop(v->lanes, on) : WS_OK;
    if (!st) v->non_stop = on;
    memset(v->told, 0, v->nwarps);
    return st;
}

static int view_event_fd(void *vp)
{
    ws_gdb_warp_view *v = begin(vp);
    return v->lanes_ops->event_fd ? v->lanes_ops->event_fd(v->lanes) : -1;
}

/* `monitor focus block X.. thread X..`: that lane becomes its warp's
 * focus. gdb keeps the registers it has read until it resumes, hence
 * the flushregs in the answer. */
static ws_status view_focus(void *vp, const char *prefix, char *out, size_t cap)
{
    ws_gdb_warp_view *v = begin(vp);
    size_t n, pl = strlen(prefix);
    ws_status st = list_lanes(v, &n);
    if (st) return st;
    for (size_t i = 0; i < n; i++) {
        if (!is_unit(v->list[i].tid) || strncmp(v->list[i].name, prefix, pl)) continue;
        uint32_t w = warp_of_lane(v, v->list[i].tid), lane = (v->list[i].tid - 2) % v->lanes_per_warp;
        if (w >= v->nwarps) break;
        v->focus[w] = (uint8_t)lane;
        unsigned core = 0, warp = 0;
        const char *at = strstr(v->list[i].name, " core ");
        if (at) sscanf(at, " core %u warp %u", &core, &warp);
        snprintf(out, cap,
                 "%s is lane %u of target thread %u (Thread %u), now its focus; "
                 "switch with: thread find core %u warp %u lane, then maintenance flush register-cache\n",
                 v->list[i].name, lane, 2 + w, 2 + w, core, warp);
        return WS_OK;
    }
    snprintf(out, cap, "no live thread has %.*s\n", (int)(pl && prefix[pl - 1] == ' ' ? pl - 1 : pl), prefix);
    return WS_OK;
}

const ws_gdb_target_ops ws_gdb_warp_view_ops = {
    .threads = view_threads,
    .read_reg = view_read_reg,
    .write_reg = view_write_reg,
    .read_mem = view_read_mem,
    .write_mem = view_write_mem,
    .breakpoint = view_breakpoint,
    .resume = view_resume,
    .interrupt = view_interrupt,
    .wait = view_wait,
    .libraries = view_libraries,
    .file = view_file,
    .monitor = view_monitor,
    .detach = view_detach,
    .error = view_error,
    .non_stop_capable = 1,
    .set_non_stop = view_set_non_stop,
    .thread_alive = view_thread_alive,
    .event_fd = view_event_fd,
    .reverse = NULL, /* the device's lane target has none */
    .focus = view_focus,
    .range_stepping = 1, /* passed to the lane target's */
    .selected = view_selected,
};

ws_status ws_gdb_warp_view_init(ws_gdb_warp_view *v, const ws_gdb_target_ops *lanes_ops, void *lanes,
                                uint32_t lanes_per_warp, uint32_t nwarps)
{
    memset(v, 0, sizeof *v);
    if (!lanes_per_warp || lanes_per_warp > 256 || !nwarps) return WS_ERR_INVALID_ARG;
    v->lanes_ops = lanes_ops;
    v->lanes = lanes;
    v->lanes_per_warp = lanes_per_warp;
    v->nwarps = nwarps;
    v->focus = calloc(nwarps, 1);
    v->told = calloc(nwarps, 1);
    if (!v->focus || !v->told) {
        ws_gdb_warp_view_fini(v);
        return WS_ERR_OUT_OF_MEMORY;
    }
    return WS_OK;
}

void ws_gdb_warp_view_reset(ws_gdb_warp_view *v)
{
    memset(v->focus, 0, v->nwarps);
    memset(v->told, 0, v->nwarps);
    v->non_stop = 0;
    v->err[0] = 0;
}

void ws_gdb_warp_view_fini(ws_gdb_warp_view *v)
{
    free(v->focus);
    free(v->told);
    free(v->list);
    memset(v, 0, sizeof *v);
}

