/* The gdb target over debug.h: threads are live lanes, registers and
 * memory go through the debug module, and halt events become stop
 * replies, one lane at a time (so gdb evaluates a breakpoint condition
 * per thread even though a whole warp stops together). */
#include "gdbstub/target_dbg.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gdbstub/tdesc.h"

#define WARP_LANES_MAX 32 /* lanes_per_warp is at most 32 (a lane mask is 32 bits) */

ws_status ws_gdb_dbg_init(ws_gdb_dbg *t, ws_debug *dbg)
{
    memset(t, 0, sizeof *t);
    t->dbg = dbg;
    t->launch_trig = -1;
    ws_status st = ws_device_config(ws_debug_device(dbg), &t->cfg);
    if (st) return st;
    t->lanes_per_core = t->cfg.warps_per_core * t->cfg.lanes_per_warp;
    t->nharts = t->cfg.cores * t->lanes_per_core;
    t->held = calloc(t->nharts, 1);
    t->auto_addr = calloc(t->cfg.cores * t->cfg.warps_per_core, sizeof *t->auto_addr);
    t->wsel = calloc(t->cfg.cores * t->cfg.warps_per_core, 1);
    t->range_wsel = calloc(t->cfg.cores * t->cfg.warps_per_core, 1);
    t->auto_wait = calloc(t->cfg.cores * t->cfg.warps_per_core, 1);
    t->regs = calloc(t->cfg.cores * t->cfg.warps_per_core, sizeof *t->regs);
    t->regs_ok = calloc(t->cfg.cores * t->cfg.warps_per_core, 1);
    t->want_stop = calloc(t->cfg.cores * t->cfg.warps_per_core, 1);
    t->tell = calloc(t->nharts, 1);
    t->wp_rest = calloc(t->cfg.cores * t->cfg.warps_per_core, sizeof *t->wp_rest);
    t->wp_pc = calloc(t->cfg.cores * t->cfg.warps_per_core, sizeof *t->wp_pc);
    if (!t->wp_rest || !t->wp_pc || !t->held || !t->auto_addr || !t->wsel || !t->auto_wait || !t->regs || !t->regs_ok || !t->want_stop ||
        !t->tell || !t->range_wsel) {
        free(t->wp_rest);
        free(t->wp_pc);
        free(t->range_wsel);
        free(t->tell);
        free(t->want_stop);
        free(t->regs);
        free(t->regs_ok);
        free(t->held);
        free(t->auto_addr);
        free(t->wsel);
        free(t->auto_wait);
        return WS_ERR_OUT_OF_MEMORY;
    }
    uint32_t ndm = 0; /* activate every debug module: an inactive one ignores the bus */
    st = ws_debug_module_count(dbg, &ndm);
    for (uint32_t i = 0; !st && i < ndm; i++) st = ws_dmi_write(dbg, i, WS_DM_DMCONTROL, 1);
    if (st) return st;
    pthread_mutex_init(&t->mu, NULL);
    pthread_cond_init(&t->cv, NULL);
    return WS_OK;
}

void ws_gdb_dbg_fini(ws_gdb_dbg *t)
{
    for (int i = 0; i < WS_GDB_MAX_BP; i++) {
        free(t->bps[i].code);
        t->bps[i].code = NULL;
    }
    ws_gdb_lines_free(t);
    ws_gdb_calls_free(t);
    free(t->lanes);
    free(t->held);
    free(t->auto_addr);
    free(t->wsel);
    free(t->range_wsel);
    free(t->auto_wait);
    free(t->want_stop);
    free(t->tell);
    free(t->wp_rest);
    free(t->wp_pc);
    t->wp_rest = t->wp_pc = NULL;
    t->range_wsel = NULL;
    t->want_stop = NULL;
    t->tell = NULL;
    for (uint32_t i = 0; t->regs && i < t->cfg.cores * t->cfg.warps_per_core; i++) free(t->regs[i]);
    free(t->regs);
    free(t->regs_ok);
    t->regs = NULL;
    t->regs_ok = NULL;
    t->auto_addr = NULL;
    t->wsel = NULL;
    t->auto_wait = NULL;
    t->lanes = NULL;
    t->held = NULL;
    pthread_mutex_destroy(&t->mu);
    pthread_cond_destroy(&t->cv);
}

void ws_gdb_dbg_open_gate(ws_gdb_dbg *t)
{
    pthread_mutex_lock(&t->mu);
    t->gate_open = 1;
    pthread_cond_broadcast(&t->cv);
    pthread_mutex_unlock(&t->mu);
}

void ws_gdb_dbg_wait_gate(ws_gdb_dbg *t)
{
    pthread_mutex_lock(&t->mu);
    while (!t->gate_open) pthread_cond_wait(&t->cv, &t->mu);
    pthread_mutex_unlock(&t->mu);
}

static ws_status dbg_threads(void *tp, ws_gdb_thread *out, size_t max, size_t *n)
{
    ws_gdb_dbg *t = tp;
    ws_status st = ws_gdb_lanes_refresh(t);
    if (st) return st;
    if (!t->nlanes) { /* between launches, or a launch held with no warp resident: the device itself */
        if (max) {
            out[0].tid = WS_GDB_PLACEHOLDER_TID;
            snprintf(out[0].name, sizeof out[0].name, "%s",
                     t->held_pc == WS_GDB_WD_HELD_PC   ? "device (work distributor halted by the debugger: monitor watch)"
                     : t->held_pc == WS_GDB_CP_HELD_PC ? "device (command processor halted by the debugger: monitor watch)"
                     : t->held_pc == WS_GDB_END_HELD_PC ? "device (launch ended: a debug machine's halt came after its last warp)"
                                                       : "device (no kernel running)");
        }
        *n = 1;
        return WS_OK;
    }
    for (size_t i = 0; i < t->nlanes && i < max; i++) {
        const ws_dbg_lane *l = &t->lanes[i];
        out[i].tid = WS_GDB_TID(l->hart);
        if (l->gfx_stage == 2) /* a fragment shader: its pixel says more than its block */
            snprintf(out[i].name, sizeof out[i].name, "draw %u pixel (%u,%u)%s primitive %u instance %u core %u warp %u lane %u",
                     l->draw, l->sys[0], l->sys[1], (l->sys[2] & WS_GFX_FLAG_HELPER) ? " helper" : "", l->sys[3],
                     l->sys[4], l->core, l->warp, l->lane);
        else if (l->gfx_stage == 1)
            snprintf(out[i].name, sizeof out[i].name, "draw %u vertex %u instance %u core %u warp %u lane %u",
                     l->draw, l->sys[0], l->sys[1], l->core, l->warp, l->lane);
        else
            snprintf(out[i].name, sizeof out[i].name, "block (%u,%u,%u) thread (%u,%u,%u) core %u warp %u lane %u",
                     l->block.x, l->block.y, l->block.z, l->thread.x, l->thread.y, l->thread.z, l->core, l->warp,
                     l->lane);
    }
    *n = t->nlanes;
    return WS_OK;
}

/* The lane behind tid, from a fresh snapshot; NULL (with a message) if
 * it is the placeholder or gone. */
static const ws_dbg_lane *lane_for(ws_gdb_dbg *t, uint32_t tid)
{
    if (ws_gdb_lanes_refresh(t)) return NULL;
    const ws_dbg_lane *l = ws_gdb_lane_of(t, tid);
    if (!l) ws_gdb_fail(t, WS_ERR_NOT_FOUND, "Thread %u is not a live lane", tid);
    return l;
}

/* The registers of hart's warp, read in one transfer while the lane
 * snapshot holds (everything halted in all-stop); NULL: read one by one. */
static const ws_dbg_warp_regs *warp_regs(ws_gdb_dbg *t, uint32_t hart)
{
    uint32_t w = hart / t->cfg.lanes_per_warp;
    if (!t->lanes_fresh) return NULL;
    if (t->regs_ok[w]) return t->regs[w];
    if (!t->regs[w] && !(t->regs[w] = malloc(sizeof *t->regs[w]))) return NULL;
    if (ws_debug_warp_regs(t->dbg, w, t->regs[w]) != WS_OK) return NULL;
    t->regs_ok[w] = 1;
    return t->regs[w];
}

static int dbg_thread_alive(void *tp, uint32_t tid)
{
    ws_gdb_dbg *t = tp;
    if (ws_gdb_lanes_refresh(t)) return 0;
    return ws_gdb_lane_of(t, tid) != NULL || (tid == WS_GDB_PLACEHOLDER_TID && !t->nlanes);
}

static ws_status dbg_read_reg(void *tp, uint32_t tid, uint32_t r, uint32_t *v)
{
    ws_gdb_dbg *t = tp;
    if (tid == WS_GDB_PLACEHOLDER_TID || r == 0) { /* nothing runs: zeros keep gdb content */
        *v = tid == WS_GDB_PLACEHOLDER_TID && r == WS_GDB_REG_PC ? t->held_pc : 0;
        return r < WS_GDB_NUM_REGS ? WS_OK : WS_ERR_INVALID_ARG;
    }
    const ws_dbg_lane *l = lane_for(t, tid);
    if (!l) return WS_ERR_NOT_FOUND;
    switch (r) {
    case WS_GDB_REG_BLOCK_X: *v = l->block.x; return WS_OK;
    case WS_GDB_REG_BLOCK_Y: *v = l->block.y; return WS_OK;
    case WS_GDB_REG_BLOCK_Z: *v = l->block.z; return WS_OK;
    case WS_GDB_REG_THREAD_X: *v = l->thread.x; return WS_OK;
    case WS_GDB_REG_THREAD_Y: *v = l->thread.y; return WS_OK;
    case WS_GDB_REG_THREAD_Z: *v = l->thread.z; return WS_OK;
    case WS_GDB_REG_CORE: *v = l->core; return WS_OK;
    case WS_GDB_REG_WARP: *v = l->warp; return WS_OK;
    case WS_GDB_REG_LANE: *v = l->lane; return WS_OK;
    case WS_GDB_REG_LAUNCH: *v = (uint32_t)l->launch_id; return WS_OK;
    default: break;
    }
    if (r >= WS_GDB_NUM_REGS) return WS_ERR_INVALID_ARG;
    if (!l->halted) return ws_gdb_fail(t, WS_ERR_BUSY, "Thread %u is running", tid);
    const ws_dbg_warp_regs *wr = warp_regs(t, l->hart);
    if (wr) { /* the common registers from the warp's bulk read */
        uint32_t lane = l->hart % t->cfg.lanes_per_warp;
        if (r < 32) { *v = wr->x[r][lane]; return WS_OK; }
        if (r == WS_GDB_REG_PC || r == WS_GDB_REG_DPC) { *v = wr->pc[lane]; return WS_OK; }
        if (r >= WS_GDB_REG_F0 && r < WS_GDB_REG_F0 + 32) { *v = wr->f[r - WS_GDB_REG_F0][lane]; return WS_OK; }
    }
    return ws_gdb_reg_access(t, l->hart, ws_gdb_dmi_regno(r), v, 0);
}

static ws_status dbg_write_reg(void *tp, uint32_t tid, uint32_t r, uint32_t v)
{
    ws_gdb_dbg *t = tp;
    if (r == 0 || r >= WS_GDB_REG_BLOCK_X) { /* read-only; gdb restoring the registers it saved
                                                (after `call f()`) writes them back unchanged */
        uint32_t now;
        if (dbg_read_reg(tp, tid, r, &now) == WS_OK && now == v) return WS_OK;
        return ws_gdb_fail(t, WS_ERR_INVALID_ARG,
                           r ? "register %u is a read-only SIMT register (the lane's coordinates)"
                             : "register %u (x0) is read-only",
                           r);
    }
    const ws_dbg_lane *l = lane_for(t, tid);
    if (!l) return WS_ERR_NOT_FOUND;
    if (!l->halted) return ws_gdb_fail(t, WS_ERR_BUSY, "Thread %u is running", tid);
    ws_gdb_call_note_write(t, l, r, v); /* (before the write: it may keep the lane's registers) */
    return ws_gdb_reg_access(t, l->hart, ws_gdb_dmi_regno(r), &v, 1);
}

static ws_status dbg_mem(ws_gdb_dbg *t, uint32_t tid, uint32_t addr, uint8_t *buf, size_t len, int write)
{
    uint32_t hart = UINT32_MAX;
    if (tid != WS_GDB_PLACEHOLDER_TID && addr >= 0xC0000000u && addr < 0xE0000000u) {
        const ws_dbg_lane *l = lane_for(t, tid);
        if (l && l->halted) hart = l->hart;
    }
    return ws_gdb_mem_access(t, hart, addr, buf, len, write);
}

static ws_status dbg_read_mem(void *tp, uint32_t tid, uint32_t addr, uint8_t *buf, size_t len)
{
    ws_status st = dbg_mem(tp, tid, addr, buf, len, 0);
    if (st == WS_OK) ws_gdb_bp_shadow_read(tp, addr, buf, len);
    return st;
}

static ws_status dbg_write_mem(void *tp, uint32_t tid, uint32_t addr, const uint8_t *buf, size_t len)
{
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) return WS_ERR_OUT_OF_MEMORY;
    memcpy(copy, buf, len);
    ws_gdb_bp_shadow_write(tp, addr, copy, len);
    ws_status st = dbg_mem(tp, tid, addr, copy, len, 1);
    free(copy);
    return st;
}

static void drain_events(ws_gdb_dbg *t);

static int warp_has_pending(const ws_gdb_dbg *t, uint32_t warp)
{
    uint32_t lpw = t->cfg.lanes_per_warp;
    for (uint32_t k = warp * lpw; k < (warp + 1) * lpw && k < t->nharts; k++)
        if (t->tell[k]) return 1;
    for (size_t i = 0; i < t->npending; i++)
        if (t->pending[i].kind == WS_GDB_STOP_SIGNAL && t->pending[i].tid >= 2 &&
            (t->pending[i].tid - 2) / t->cfg.lanes_per_warp == warp)
            return 1;
    return 0;
}

/* Add to t->wsel every halted warp a resume of all (only = 0) or of the
 * warp holding `only` (+ 1) wakes. */
static ws_status select_warps(ws_gdb_dbg *t, uint32_t only)
{
    ws_status st = ws_gdb_lanes_refresh(t);
    for (size_t i = 0; !st && i < t->nlanes; i++) {
        const ws_dbg_lane *l = &t->lanes[i];
        uint32_t w = l->hart / t->cfg.lanes_per_warp;
        if (!l->halted || t->wsel[w]) continue;
        if (only && w != (only - 1) / t->cfg.lanes_per_warp) continue;
        /* resuming all: a warp with a stop gdb has not heard yet stays, and
         * so does one the server steps over a breakpoint whose step has
         * ended (its event is on the way; resumed again it would run on) */
        if (!only && (warp_has_pending(t, w) || (t->auto_addr[w] && l->cause != WS_DCSR_CAUSE_HALTREQ)))
            continue;
        int held = 0; /* non-stop: another thread of this warp stays stopped for gdb */
        for (uint32_t k = w * t->cfg.lanes_per_warp; k < (w + 1) * t->cfg.lanes_per_warp && k < t->nharts; k++)
            held |= t->held[k];
        if (held && t->non_stop && !only) continue;
        t->wsel[w] = 1;
    }
    return st;
}

/* Resume the warps in t->wsel all at once: resumed one by one, a warp
 * resumed first could halt (all-stop) before the last resume arrives,
 * which would then wake a warp that stop had just halted. */
static ws_status resume_selected(ws_gdb_dbg *t)
{
    uint32_t nw = t->cfg.cores * t->cfg.warps_per_core;
    for (uint32_t w = 0; w < nw; w++)
        if (t->wsel[w]) return ws_gdb_warps_resume(t, t->wsel);
    return WS_OK;
}

static int auto_stepping(const ws_gdb_dbg *t)
{
    uint32_t nw = t->cfg.cores * t->cfg.warps_per_core;
    for (uint32_t w = 0; w < nw; w++)
        if (t->auto_addr[w]) return 1;
    return 0;
}

static void pending_remove(ws_gdb_dbg *t, size_t i)
{
    t->npending--;
    memmove(t->pending + i, t->pending + i + 1, (t->npending - i) * sizeof *t->pending);
    memmove(t->pending_pc + i, t->pending_pc + i + 1, (t->npending - i) * sizeof *t->pending_pc);
    memmove(t->pending_sib + i, t->pending_sib + i + 1, (t->npending - i) * sizeof *t->pending_sib);
    memmove(t->pending_bp + i, t->pending_bp + i + 1, (t->npending - i) * sizeof *t->pending_bp);
    memmove(t->pending_req + i, t->pending_req + i + 1, (t->npending - i) * sizeof *t->pending_req);
}

/* gdb may hear a stop only from a thread it has resumed. */
static int deliverable(const ws_gdb_dbg *t, size_t i)
{
    uint32_t tid = t->pending[i].tid;
    if (t->pending[i].kind != WS_GDB_STOP_SIGNAL || tid < 2 || tid - 2 >= t->nharts) return 1;
    return !t->held[tid - 2];
}

/* Drop queued lane stops whose lane has moved on or gone. */
static void pending_purge(ws_gdb_dbg *t)
{
    if (!t->npending || ws_gdb_lanes_refresh(t)) return;
    for (size_t i = 0; i < t->npending;) {
        const ws_dbg_lane *l = ws_gdb_lane_of(t, t->pending[i].tid);
        int stale = t->pending_pc[i] && (!l || l->pc != t->pending_pc[i]);
        if (stale) pending_remove(t, i);
        else i++;
    }
}

/* Lanes queued at a breakpoint gdb has since removed (deleted it, or it
 * was a momentary one of a command now done): nothing left to report.
 * Called on resume, after gdb has inserted what it keeps. A step of a
 * thread at the breakpoint may be gdb's step over it (removed for that
 * step only): that thread's siblings there stay queued, and go if the
 * breakpoint is still gone at the resume after. */
static void purge_removed_breakpoints(ws_gdb_dbg *t, uint32_t step_tid)
{
    const ws_dbg_lane *s = step_tid > WS_GDB_PLACEHOLDER_TID ? lane_for(t, step_tid) : NULL;
    uint32_t keep_warp = s ? s->hart / t->cfg.lanes_per_warp : UINT32_MAX, keep_pc = s ? s->pc : 0;
    for (size_t i = 0; i < t->npending;) {
        uint32_t tid = t->pending[i].tid;
        int kept = tid >= 2 && (tid - 2) / t->cfg.lanes_per_warp == keep_warp && t->pending_pc[i] == keep_pc;
        if (t->pending_bp[i] && !kept && !ws_gdb_bp_at(t, t->pending_pc[i])) pending_remove(t, i);
        else i++;
    }
}

/* The lanes of warp gdb believes stopped, as a lane mask. */
static uint32_t held_lanes(const ws_gdb_dbg *t, uint32_t warp)
{
    uint32_t lpw = t->cfg.lanes_per_warp, mask = 0;
    for (uint32_t k = 0; k < lpw && warp * lpw + k < t->nharts; k++)
        if (t->held[warp * lpw + k]) mask |= 1u << k;
    return mask;
}

static void push(ws_gdb_dbg *t, const ws_gdb_stop *s, uint32_t pc);
static void push_stopped(ws_gdb_dbg *t, uint32_t tid, uint32_t pc);

static int lane_has_pending(const ws_gdb_dbg *t, uint32_t tid)
{
    if (tid >= 2 && tid - 2 < t->nharts && t->tell[tid - 2]) return 1;
    for (size_t i = 0; i < t->npending; i++)
        if (t->pending[i].kind == WS_GDB_STOP_SIGNAL && t->pending[i].tid == tid) return 1;
    return 0;
}

/* Non-stop: the hardware halts whole warps, but gdb marks a thread
 * stopped only when it hears a stop for it. Queue one for every other
 * halted lane of tid's warp that gdb does not hold yet and that has no
 * stop of its own coming: signal 0, "stopped, no reason of its own", as
 * gdbserver reports a thread stopped by request. They follow the
 * warp's own stops, so gdb hears why the warp halted first. */
static void queue_warp_siblings(ws_gdb_dbg *t, uint32_t tid)
{
    uint32_t lpw = t->cfg.lanes_per_warp, warp = (tid - 2) / lpw;
    if (ws_gdb_lanes_refresh(t)) return;
    for (size_t i = 0; i < t->nlanes; i++) {
        const ws_dbg_lane *l = &t->lanes[i];
        uint32_t lt = WS_GDB_TID(l->hart);
        if (l->hart / lpw != warp || !l->halted || lt == tid || t->held[l->hart] || lane_has_pending(t, lt))
            continue;
        t->tell[l->hart] = 1;
    }
    t->want_stop[warp] = 0; /* a stop asked for is among these */
}

/* What gdb now believes of the thread of a stop it is told. */
static void mark_told(ws_gdb_dbg *t, const ws_gdb_stop *out)
{
    int lane = out->kind == WS_GDB_STOP_SIGNAL && out->tid >= 2 && out->tid - 2 < t->nharts;
    if (!t->non_stop) {
        memset(t->held, 1, t->nharts); /* all-stop: every thread is stopped for gdb */
        return;
    }
    if (!lane) return;
    t->held[out->tid - 2] = 1;
    uint32_t lpw = t->cfg.lanes_per_warp, all = lpw >= 32 ? UINT32_MAX : (1u << lpw) - 1;
    if (t->warp_stops) { /* the warp is the thread: every lane of it is held */
        uint32_t w = (out->tid - 2) / lpw;
        for (uint32_t k = w * lpw; k < (w + 1) * lpw && k < t->nharts; k++) t->held[k] = 1;
        t->want_stop[w] = 0;
        return;
    }
    if (held_lanes(t, (out->tid - 2) / lpw) != all) /* else (a step's stop) no lane list needed */
        queue_warp_siblings(t, out->tid);
}

/* The next lane owed a signal-0 stop that is still halted (one that ran
 * on or is gone has nothing to tell). */
static int take_tell(ws_gdb_dbg *t, ws_gdb_stop *out)
{
    for (uint32_t k = 0; k < t->nharts; k++) {
        if (!t->tell[k]) continue;
        t->tell[k] = 0;
        const ws_dbg_lane *l = ws_gdb_lanes_refresh(t) ? NULL : ws_gdb_lane_of(t, WS_GDB_TID(k));
        if (!l || !l->halted || t->held[k]) continue;
        memset(out, 0, sizeof *out);
        out->kind = WS_GDB_STOP_SIGNAL;
        out->tid = WS_GDB_TID(k);
        mark_told(t, out);
        return 1;
    }
    return 0;
}

static int take_pending(ws_gdb_dbg *t, ws_gdb_stop *out)
{
    pending_purge(t);
    for (size_t i = 0; i < t->npending; i++) {
        if (!deliverable(t, i)) continue;
        *out = t->pending[i];
        /* gdb's focus moves to a thread it stops for: a step, watch,
         * fault, or the lane a breakpoint condition chose; lanes of an
         * unconditional breakpoint (maybe one of gdb's own) move it only
         * if the old focus thread is gone. A lane stopped only because
         * its warp did moves nothing. */
        int by_warp = t->pending_req[i];
        if (!by_warp) t->sib_reported = 0;
        if (!by_warp && out->kind == WS_GDB_STOP_SIGNAL && out->tid > WS_GDB_PLACEHOLDER_TID) {
            if (!t->pending_sib[i] || !t->focus_tid || !ws_gdb_lane_of(t, t->focus_tid)) t->focus_tid = out->tid;
            else t->sib_reported = out->tid;
        }
        pending_remove(t, i);
        mark_told(t, out);
        return 1;
    }
    return take_tell(t, out);
}

/* Resume every halted warp (only = 0) or the one holding `only` (+ 1). */
static ws_status resume_warps(ws_gdb_dbg *t, uint32_t only)
{
    memset(t->wsel, 0, t->cfg.cores * t->cfg.warps_per_core);
    ws_status st = select_warps(t, only);
    return st ? st : resume_selected(t);
}

static ws_status set_step(ws_gdb_dbg *t, uint32_t hart, int on);

/* The warps of the lanes continued one by one (vCont;c:tid). Non-stop:
 * the hardware runs a warp whole, so a warp runs only once gdb has
 * resumed every lane of it; until then a continued lane waits for its
 * siblings (gdb shows it running, the others stay stopped as gdb
 * believes). */
static ws_status select_continued(ws_gdb_dbg *t, const ws_gdb_action *a, size_t n)
{
    ws_status st = WS_OK;
    for (size_t i = 0; !st && i < n; i++) {
        if (a[i].op != 'c' || a[i].tid <= WS_GDB_PLACEHOLDER_TID) continue;
        const ws_dbg_lane *l = lane_for(t, a[i].tid);
        if (!l) return WS_ERR_NOT_FOUND;
        uint32_t hart = l->hart;
        if (t->non_stop && held_lanes(t, hart / t->cfg.lanes_per_warp)) continue;
        st = select_warps(t, hart + 1);
    }
    return st;
}

static int in_range(const ws_gdb_dbg *t, uint32_t pc)
{
    return pc >= t->range_lo && pc < t->range_hi;
}

/* On the stepped line at call depth depth: in gdb's range, or, at the
 * step's own depth, in another row of the same source line (gdb would
 * only send that row's range next: dbg_lines.c). */
static int on_line(const ws_gdb_dbg *t, uint32_t pc, int depth)
{
    return in_range(t, pc) || (depth == t->range_depth && ws_gdb_on_step_line(t, pc));
}

/* vCont;r of lane l: find the source line of the range, then the lanes
 * of its warp on that line with it (at its call depth), but for those
 * that sit the step out. */
static void note_range_lanes(ws_gdb_dbg *t, const ws_dbg_lane *l, uint32_t exclude)
{
    uint32_t lpw = t->cfg.lanes_per_warp, warp = l->hart / lpw;
    t->range_lanes = 0;
    t->range_depth = l->depth;
    ws_gdb_step_line_begin(t, t->range_lo);
    for (size_t i = 0; i < t->nlanes; i++) {
        const ws_dbg_lane *o = &t->lanes[i];
        if (o->hart / lpw == warp && o->halted && o->depth == l->depth && on_line(t, o->pc, o->depth))
            t->range_lanes |= 1u << (o->hart % lpw);
    }
    t->range_lanes &= ~exclude;
}

#define WS_GDB_STEP_ON_MAX 100000u

/* Let the device take the range step on by itself (debug.h:
 * ws_debug_step_range), as range_step_on would, so the server looks again
 * only when the step is over, or something else halted the warp. With
 * fill set, from a new vCont;r (the line's rows are found again). */
static void arm_range_step(ws_gdb_dbg *t, int fill)
{
    uint32_t sh = t->step_hart - 1, lpw = t->cfg.lanes_per_warp;
    ws_dbg_step_range *r = &t->range_hw;
    if (fill) {
        memset(r, 0, sizeof *r);
        r->lane = sh % lpw;
        r->depth = t->range_depth;
        r->lo = t->range_lo;
        r->hi = t->range_hi;
        r->nranges = ws_gdb_step_line_ranges(t, r);
        r->lanes = t->range_lanes;
    }
    r->exclude = t->step_excl;
    r->max_past = t->step_more < WS_GDB_STEP_ON_MAX ? WS_GDB_STEP_ON_MAX - t->step_more : 0;
    ws_debug_step_range(t->dbg, sh / lpw, r); /* best effort: else the server steps on itself */
}

/* All-stop `next` or `step` (vCont;r) of a lane whose warp siblings wait
 * at a breakpoint on the stepped line, their stops not yet told: the step
 * moves the warp, as cuda-gdb's does, so they go along instead of
 * interrupting it one at a time (gdb stepped the reported lane over the
 * breakpoint alone, with them held there). Each passes that breakpoint
 * once, unseen (on_halt). gdb's own momentary breakpoints (a `next`
 * over a call returns through one) are passed so too: they cost no
 * round trip per lane now. `continue` still hears every lane. */
static void take_siblings_along(ws_gdb_dbg *t, uint32_t step_tid)
{
    const ws_dbg_lane *l = lane_for(t, step_tid);
    if (!l) return;
    const uint32_t lpw = t->cfg.lanes_per_warp, warp = l->hart / lpw;
    const int depth = l->depth;
    ws_gdb_step_line_begin(t, t->range_lo);
    for (size_t i = 0; i < t->npending;) {
        uint32_t pt = t->pending[i].tid, pc = t->pending_pc[i];
        const ws_dbg_lane *o = pt > WS_GDB_PLACEHOLDER_TID ? ws_gdb_lane_of(t, pt) : NULL;
        int along = o && t->pending[i].kind == WS_GDB_STOP_SIGNAL && t->pending_bp[i] && pt != step_tid &&
                    o->hart / lpw == warp && o->depth == depth && o->pc == pc && o->halted &&
                    (!t->step_along || pc == t->step_along_pc) && (in_range(t, pc) || ws_gdb_on_step_line(t, pc));
        if (!along) {
            i++;
            continue;
        }
        t->step_along |= 1u << (o->hart % lpw);
        t->step_along_pc = pc;
        pending_remove(t, i);
    }
}

static ws_status dbg_resume(void *tp, const ws_gdb_action *a, size_t n)
{
    ws_gdb_dbg *t = tp;
    uint32_t step_tid = 0, cont_tid = 0;
    int cont_all = 0, step_sig = 0;
    ws_gdb_calls_at_resume(t); /* (the lanes are still as gdb left them) */
    /* Non-stop, gdb runs a function on one lane (`print f(3)`) and resumes
     * that lane alone, with its warp's other lanes held stopped: a continue
     * of one lane would wait for them for ever (select_continued). The
     * lane runs the call alone instead, as a step of it would: a range
     * step over every address, which the call's return breakpoint (or any
     * other halt) ends. */
    ws_gdb_action call_run;
    if (t->non_stop && n == 1 && a[0].op == 'c' && a[0].tid > WS_GDB_PLACEHOLDER_TID && a[0].tid - 2 < t->nharts &&
        ws_gdb_call_running(t, a[0].tid - 2)) {
        uint32_t hart = a[0].tid - 2, lpw = t->cfg.lanes_per_warp;
        if (held_lanes(t, hart / lpw) & ~(1u << (hart % lpw))) {
            call_run = a[0];
            call_run.op = 'r';
            call_run.lo = 0;
            call_run.hi = UINT32_MAX;
            a = &call_run;
        }
    }
    ws_gdb_lanes_stale(t);
    t->call_ra = t->call_pc = t->call_tid = 0; /* gdb has put in its step-resume breakpoint, if any */
    t->held_pc = 0;
    t->range_lo = t->range_hi = 0;
    memset(&t->step_line, 0, sizeof t->step_line);
    for (size_t i = 0; i < n; i++) {
        if ((a[i].op == 's' || a[i].op == 'r') && !step_tid) {
            step_tid = a[i].tid;
            step_sig = a[i].sig;
            if (a[i].op == 'r' && a[i].lo < a[i].hi) t->range_lo = a[i].lo, t->range_hi = a[i].hi;
        } else if (a[i].op == 'c' && !a[i].tid) cont_all = 1;
        else if (a[i].op == 'c' && !cont_tid) cont_tid = a[i].tid;
    }
    for (size_t i = 0; i < n; i++) { /* what gdb now considers running */
        if (a[i].op == 't') continue;
        if (!a[i].tid) memset(t->held, 0, t->nharts);
        else if (a[i].tid >= 2 && a[i].tid - 2 < t->nharts) t->held[a[i].tid - 2] = 0;
    }
    /* A step moves gdb's focus, except its first step of a thread it heard
     * of at a breakpoint beside the focus thread's: gdb steps such a
     * thread over the breakpoint on its way (until, advance, finish for
     * the focus thread go on afterwards). */
    t->step_keeps_focus = step_tid && step_tid == t->sib_reported;
    if (step_tid && !t->step_keeps_focus) t->focus_tid = step_tid;
    t->sib_reported = 0;
    t->resumed = 1;
    t->interrupted_warp = 0;
    memset(t->auto_wait, 0, t->cfg.cores * t->cfg.warps_per_core); /* all resume below */
    ws_gdb_dbg_open_gate(t);
    drain_events(t);
    pending_purge(t);
    purge_removed_breakpoints(t, step_tid);
    t->step_along = 0;
    if (!t->non_stop && !t->warp_stops && t->range_hi && step_tid > WS_GDB_PLACEHOLDER_TID)
        take_siblings_along(t, step_tid);
    if (!step_tid) ws_gdb_shared_wp_purge(t, 0); /* gdb keeps none of the others */
    if (!step_tid && t->exit_removed) t->exit_owner = t->exit_removed = 0; /* nor the exit's */
    for (size_t i = 0; i < t->npending; i++)
        if (deliverable(t, i)) return WS_OK; /* report that first; the device stays put */
    if (t->hold_launch) { /* re-attached: the program was held for gdb until now (after
                             gdb has seen the modules and set its breakpoints) */
        t->hold_launch = 0;
        ws_debug_set_blocking_events(t->dbg, t->blocking_after);
    }
    ws_status st = WS_OK;
    uint32_t nw = t->cfg.cores * t->cfg.warps_per_core;
    /* a step gdb asked for before, never run (a stop came first): its
     * dcsr.step would make the warp's next resume a step nobody waits for;
     * one that ran into a barrier is still waiting there (the hardware
     * lets it: docs/debug-hardware.md) and halts when the barrier opens,
     * a halt gdb, now doing something else, must not hear */
    if (t->step_hart) {
        uint32_t sh = t->step_hart - 1;
        const ws_dbg_lane *l = ws_gdb_lane_of(t, WS_GDB_TID(sh));
        if (l && !l->halted && !t->non_stop) t->orphan_step = sh / t->cfg.lanes_per_warp + 1;
        else set_step(t, sh, 0);
    }
    t->step_hart = 0;
    memset(t->wsel, 0, nw);
    if (step_tid > WS_GDB_PLACEHOLDER_TID) {
        const ws_dbg_lane *l = lane_for(t, step_tid);
        if (!l) return WS_ERR_NOT_FOUND;
        uint32_t hart = l->hart;
        /* A step of the lane that faulted runs its faulting instruction
         * again, which faults again, as on a CPU: the fault is the stop
         * (resuming a faulted warp ends the launch with the fault, which
         * is what continue does). gdb takes a fault at an address where it
         * has a breakpoint inserted for a hit of that breakpoint (gdb's
         * rule for targets that report breakpoints as SIGSEGV/SIGILL), and
         * steps the thread over it when its condition fails; that step
         * now reports the fault, with the breakpoint out, as a fault
         * (before 2026-11-27 the launch ended with it and gdb never
         * stopped: "exited normally"). A step that passes the fault's
         * signal (gdb's step off the fault at `continue` or `stepi`, with
         * SIGSEGV's default "pass") delivers it: the launch ends, as on a
         * CPU the process does. */
        if (l->halted && l->cause == WS_DCSR_CAUSE_FAULT && t->have_fault && t->fault.hart == hart && !step_sig) {
            ws_gdb_stop f;
            memset(&f, 0, sizeof f);
            f.kind = WS_GDB_STOP_SIGNAL;
            f.tid = step_tid;
            f.signal = ws_gdb_fault_signal(t->fault.kind);
            push(t, &f, 0);
            return WS_OK;
        }
        if (t->orphan_step == hart / t->cfg.lanes_per_warp + 1) t->orphan_step = 0; /* gdb's step again */
        st = set_step(t, hart, 1); /* dcsr.step: one warp-instruction, then halt */
        /* Lanes of this warp whose breakpoint stop gdb has not heard yet sit
         * the step out: gdb steps the reported thread over the breakpoint,
         * and the others must still be there to be reported (every lane
         * whose condition holds is a thread gdb hears about). */
        uint32_t warp = hart / t->cfg.lanes_per_warp, exclude = 0;
        /* gdb's own momentary breakpoints (until, advance, step-resume)
         * included: it steps each other thread it hears of there over
         * them, silently, and goes on with its command. */
        for (size_t i = 0; i < t->npending; i++) {
            uint32_t pt = t->pending[i].tid;
            if (t->pending[i].kind == WS_GDB_STOP_SIGNAL && t->pending_bp[i] && t->pending_pc[i] == l->pc &&
                pt != step_tid &&
                pt >= 2 && (pt - 2) / t->cfg.lanes_per_warp == warp)
                exclude |= 1u << ((pt - 2) % t->cfg.lanes_per_warp);
        }
        /* gdb's step of a lane a data trigger named over its access: the
         * later lanes touching the watched range sit it out, so the lane's
         * access is made alone (gdb shows its own value) and the others
         * meet the trigger next, each a stop of its own */
        if (t->wp_rest[warp] && t->wp_pc[warp] == l->pc) exclude |= t->wp_rest[warp] & ~(1u << (hart % t->cfg.lanes_per_warp));
        if (t->non_stop) exclude |= held_lanes(t, warp); /* the lanes gdb keeps stopped stay */
        if (!st && exclude) ws_debug_step_exclude(t->dbg, warp, exclude); /* best effort: else the warp steps whole */
        if (st) return st;
        t->step_hart = hart + 1;
        t->step_excl = exclude;
        t->step_more = 0;
        t->range_past = 0;
        if (t->range_hi) {
            note_range_lanes(t, l, exclude);
            arm_range_step(t, 1);
        }
        st = select_warps(t, hart + 1);
    }
    memset(t->wp_rest, 0, nw * sizeof *t->wp_rest); /* one step's worth: a warp resumes past it */
    if (!st && cont_all) st = select_warps(t, 0);
    else if (!st && cont_tid > WS_GDB_PLACEHOLDER_TID) st = select_continued(t, a, n);
    /* All-stop: while the server steps a warp over a breakpoint (taken out
     * meanwhile), the others wait for it; its step's end wakes them. */
    if (!st && !t->non_stop && auto_stepping(t))
        for (uint32_t w = 0; w < nw; w++)
            if (t->wsel[w] && !t->auto_addr[w]) {
                t->wsel[w] = 0;
                t->auto_wait[w] = 1;
            }
    if (t->step_hart) memcpy(t->range_wsel, t->wsel, nw); /* woken again after each step taken on (a range,
                                                               or a step the lane had no part in) */
    if (!st) st = resume_selected(t); /* one resume for all: none halts before the last is resumed */
    if (!st) st = ws_debug_release(t->dbg); /* a parked application goes on */
    return st;
}

/* Queue a signal-0 stop for the halted lane tid (at pc): stopped by
 * request or because its warp halted, no reason of its own. */
static void push_stopped(ws_gdb_dbg *t, uint32_t tid, uint32_t pc)
{
    ws_gdb_stop s;
    memset(&s, 0, sizeof s);
    s.kind = WS_GDB_STOP_SIGNAL;
    s.tid = tid;
    size_t before = t->npending;
    push(t, &s, pc);
    if (t->npending > before) t->pending_req[t->npending - 1] = 1;
}

/* Non-stop `vCont;t:tid`: gdb waits for a stop of that thread. A lane it
 * already holds or with a stop queued has one coming; a halted lane gets
 * a signal-0 stop now; a running lane's warp is asked to halt, and the
 * halt is told for its lanes (see queue_warp_siblings). A lane gone has
 * nothing to tell: gdb drops it at its next thread list. */
static ws_status stop_lane(ws_gdb_dbg *t, uint32_t tid)
{
    const ws_dbg_lane *l = ws_gdb_lane_of(t, tid);
    t->resumed = 1;
    if (!l) {
        if (tid == WS_GDB_PLACEHOLDER_TID && !t->nlanes) push_stopped(t, tid, 0);
        return WS_OK;
    }
    if (t->held[l->hart] || lane_has_pending(t, tid)) return WS_OK;
    if (l->halted) {
        t->tell[l->hart] = 1;
        return WS_OK;
    }
    t->want_stop[l->hart / t->cfg.lanes_per_warp] = 1;
    return ws_gdb_hart_ctl(t, l->hart, 0);
}

/* Non-stop, every thread (`interrupt -a`: vCont;t for the process, or
 * vCtrlC): each running warp halts and its lanes are told stopped
 * (signal 0), as for vCont;t of one of them; threads already stopped have
 * nothing new to say (a made-up SIGINT for one of them would end gdb's
 * next `continue -a` at once). With no kernel running, the placeholder. */
static ws_status stop_all_lanes(ws_gdb_dbg *t)
{
    uint32_t lpw = t->cfg.lanes_per_warp, nw = t->cfg.cores * t->cfg.warps_per_core, n = 0;
    if (!t->nlanes) return stop_lane(t, WS_GDB_PLACEHOLDER_TID);
    uint32_t *harts = malloc(nw * sizeof *harts); /* a running lane of each warp to halt */
    if (!harts) return ws_gdb_fail(t, WS_ERR_OUT_OF_MEMORY, "out of host memory stopping %u warps", nw);
    memset(t->wsel, 0, nw);
    for (size_t i = 0; i < t->nlanes; i++) {
        uint32_t h = t->lanes[i].hart;
        if (!t->lanes[i].halted && !t->wsel[h / lpw]) t->wsel[h / lpw] = 1, harts[n++] = h;
    }
    ws_status st = WS_OK;
    for (uint32_t i = 0; i < n && !st; i++) { /* the lane snapshot may change meanwhile: harts are copies */
        t->want_stop[harts[i] / lpw] = 1;
        st = ws_gdb_hart_ctl(t, harts[i], 0);
    }
    free(harts);
    t->resumed = 1;
    return st;
}

static ws_status dbg_interrupt(void *tp, uint32_t tid)
{
    ws_gdb_dbg *t = tp;
    ws_status st = ws_gdb_lanes_refresh(t);
    if (st) return st;
    if (t->non_stop) return tid ? stop_lane(t, tid) : stop_all_lanes(t);
    t->want_interrupt = 1;
    for (size_t i = 0; i < t->nlanes; i++) {
        const ws_dbg_lane *l = &t->lanes[i];
        if (l->halted || (tid && WS_GDB_TID(l->hart) != tid)) continue;
        return ws_gdb_hart_ctl(t, l->hart, 0); /* all-stop: the device halts the rest */
    }
    /* nothing runs (between launches, or already halted): stop at once */
    if (t->npending < sizeof t->pending / sizeof *t->pending) {
        t->pending_pc[t->npending] = 0;
        t->pending_sib[t->npending] = 0;
        t->pending_bp[t->npending] = 0;
        t->pending_req[t->npending] = 0;
        ws_gdb_stop *s = &t->pending[t->npending++];
        memset(s, 0, sizeof *s);
        s->kind = WS_GDB_STOP_SIGNAL;
        s->signal = tid ? 0 : WS_GDB_SIG_INT;
        s->tid = tid ? tid : (t->nlanes ? WS_GDB_TID(t->lanes[0].hart) : WS_GDB_PLACEHOLDER_TID);
    }
    t->resumed = 1;
    return WS_OK;
}

int ws_gdb_fault_signal(const char *kind)
{
    if (strstr(kind, "misaligned")) return WS_GDB_SIG_BUS;
    if (strstr(kind, "illegal")) return WS_GDB_SIG_ILL;
    /* a failed assert or ws_trap ends the launch on purpose: SIGABRT, as
     * abort() does on a CPU (a SIGTRAP would read as a breakpoint or a
     * finished step, and gdb would not show the report) */
    if (strstr(kind, "assert") || !strcmp(kind, "trap")) return WS_GDB_SIG_ABRT;
    if (strstr(kind, "breakpoint")) return WS_GDB_SIG_TRAP;
    return WS_GDB_SIG_SEGV;
}

static void push(ws_gdb_dbg *t, const ws_gdb_stop *s, uint32_t pc)
{
    if (t->npending >= sizeof t->pending / sizeof *t->pending) return;
    t->pending_pc[t->npending] = pc;
    t->pending_sib[t->npending] = 0;
    t->pending_bp[t->npending] = 0;
    t->pending_req[t->npending] = 0;
    t->pending[t->npending++] = *s;
}

/* Set or clear dcsr.step of hart's warp. */
static ws_status set_step(ws_gdb_dbg *t, uint32_t hart, int on)
{
    uint32_t dcsr;
    ws_status st = ws_gdb_reg_access(t, hart, WS_REGNO_CSR(WS_CSR_DCSR), &dcsr, 0);
    dcsr = on ? dcsr | 1u << 2 : dcsr & ~(1u << 2);
    if (!st) st = ws_gdb_reg_access(t, hart, WS_REGNO_CSR(WS_CSR_DCSR), &dcsr, 1);
    return st;
}

/* No lane's condition held: step the warp over the breakpoint (original
 * instruction back while any warp steps over it) and let it run on. */
static void auto_step_start(ws_gdb_dbg *t, ws_gdb_bp *bp, uint32_t hart)
{
    uint32_t w = hart / t->cfg.lanes_per_warp;
    if (bp->type == WS_GDB_BP_SW && !bp->stepping && ws_gdb_bp_arm(t, bp, 0)) return;
    bp->stepping++;
    t->auto_addr[w] = bp->addr + 1;
    /* within gdb's step of a lane of this warp: the lanes that sit that
     * step out sit this one out too (a hardware step's exclusion lasts
     * one instruction, and the breakpoint's halt came before it) */
    if (t->step_hart && (t->step_hart - 1) / t->cfg.lanes_per_warp == w && t->step_excl)
        ws_debug_step_exclude(t->dbg, w, t->step_excl);
    if (set_step(t, hart, 1) || resume_warps(t, hart + 1)) t->auto_addr[w] = 0;
}

static void run_on(ws_gdb_dbg *t, uint32_t hart);

static void auto_step_done(ws_gdb_dbg *t, uint32_t hart, int run, int unstep)
{
    uint32_t w = hart / t->cfg.lanes_per_warp;
    ws_gdb_bp *bp = ws_gdb_bp_at(t, t->auto_addr[w] - 1);
    t->auto_addr[w] = 0;
    if (unstep) set_step(t, hart, 0);
    if (bp && bp->stepping && !--bp->stepping && bp->type == WS_GDB_BP_SW) ws_gdb_bp_arm(t, bp, 1);
    if (run) run_on(t, hart);
}

/* The warp of hart passed a breakpoint gdb does not hear about: let it run
 * on, and in all-stop wake the warps its halt stopped. */
static void run_on(ws_gdb_dbg *t, uint32_t hart)
{
    uint32_t w = hart / t->cfg.lanes_per_warp;
    if (t->non_stop) {
        resume_warps(t, hart + 1);
        return;
    }
    /* All-stop: once gdb has a stop to hear about, everything stays put. */
    if (!t->resumed || t->npending || ws_gdb_lanes_refresh(t)) return;
    /* Another warp still steps over a breakpoint (disarmed while it does):
     * nothing else may run yet, or it would pass the breakpoint unseen.
     * Such a warp halted by this one's stop finishes its step first. */
    uint32_t nw = t->cfg.cores * t->cfg.warps_per_core;
    int stepping = auto_stepping(t);
    /* Wake the warps halted only because this one stopped (a warp halted
     * for its own reason has an event still to come), all at once. */
    t->auto_wait[w] = 1; /* stepped over: runs on with the others */
    memset(t->wsel, 0, nw);
    int any = 0;
    for (size_t i = 0; i < t->nlanes; i++) {
        const ws_dbg_lane *l = &t->lanes[i];
        uint32_t lw = l->hart / t->cfg.lanes_per_warp;
        if (!l->halted || t->wsel[lw]) continue;
        int wake = stepping ? t->auto_addr[lw] && l->cause == WS_DCSR_CAUSE_HALTREQ
                            : l->cause == WS_DCSR_CAUSE_HALTREQ || t->auto_wait[lw];
        if (wake) t->wsel[lw] = any = 1;
    }
    if (!stepping) memset(t->auto_wait, 0, nw);
    if (any) resume_selected(t);
}

/* stop-at-launch: an execute trigger at the kernel's entry stops the first
 * lane that reaches it, so gdb starts in the kernel's frame (break, step,
 * info locals work), with the launch named on gdb's console the way
 * cuda-gdb names it. The application, parked at the launch, goes on. */
static ws_status arm_launch_stop(ws_gdb_dbg *t)
{
    ws_dbg_launch L;
    if (ws_debug_launch(t->dbg, &L) != WS_OK) return WS_ERR_NOT_FOUND;
    int idx = WS_GDB_MAX_TRIG - 1; /* from the top: gdb's hbreaks take them from 0 */
    for (; idx >= 0; idx--) {
        int taken = 0;
        for (int i = 0; i < WS_GDB_MAX_BP; i++)
            taken |= ws_gdb_bp_holds_trigger(&t->bps[i], idx);
        if (!taken) break;
    }
    if (idx < 0 || ws_gdb_exec_trigger(t, idx, L.body) != WS_OK) return WS_ERR_BUSY;
    t->launch_trig = idx;
    t->launch_entry = L.body;
    snprintf(t->launch_note, sizeof t->launch_note, "[Launch %llu of kernel %s<<<(%u,%u,%u),(%u,%u,%u)>>>]\n",
             (unsigned long long)L.id, L.kernel, L.grid.x, L.grid.y, L.grid.z, L.block.x, L.block.y, L.block.z);
    return ws_debug_release(t->dbg);
}

/* The launch stop's trigger fired at pc: one stop, the trigger cleared. */
static int launch_stop_hit(ws_gdb_dbg *t, uint32_t hart, uint32_t pc, ws_gdb_stop *s)
{
    if (t->launch_trig < 0 || pc != t->launch_entry) return 0;
    ws_gdb_exec_trigger(t, t->launch_trig, 0);
    t->launch_trig = -1;
    uint32_t lane = hart, addr = pc;
    if (ws_debug_trigger_hit(t->dbg, hart, &lane, &addr) == WS_OK) s->tid = WS_GDB_TID(lane);
    snprintf(s->note, sizeof s->note, "%s", t->launch_note);
    t->focus_tid = s->tid;
    push(t, s, 0);
    return 1;
}

/* vCont;r: the stepped lane's warp halted after a step. While the lane's
 * pc is still in the range and gdb has nothing else to hear, step again:
 * the warps gdb's resume woke (in all-stop this step's halt stopped them
 * too) run on together, and the stepped warp does one more step (its
 * dcsr.step is still set). Returns 1 if stepping went on. */
static int step_again(ws_gdb_dbg *t);
static uint32_t lanes_on_line(ws_gdb_dbg *t, uint32_t warp);

/* A note's name for the thread of hart: gdb's Target Id for it, written
 * as gdb writes it in `info threads` and "[Switching to Thread N]"; with
 * threads=warp the warp's, and the lane. Never a bare "thread N", which
 * reads as gdb's own number (the Id column, what `thread N` takes). */
static void thread_name(const ws_gdb_dbg *t, uint32_t hart, char *out, size_t cap)
{
    uint32_t lpw = t->cfg.lanes_per_warp;
    if (t->warp_stops) snprintf(out, cap, "Thread %u (lane %u)", 2 + hart / lpw, hart % lpw);
    else snprintf(out, cap, "Thread %u", WS_GDB_TID(hart));
}

static int range_step_on(ws_gdb_dbg *t, ws_gdb_stop *s)
{
    if (!t->range_hi || t->npending || ws_gdb_lanes_refresh(t)) return 0;
    const ws_dbg_lane *l = ws_gdb_lane_of(t, WS_GDB_TID(t->step_hart - 1));
    if (!l || !l->halted) return 0;
    uint32_t past = 0; /* the steps the device took on for the others */
    if (ws_debug_step_range_past(t->dbg, l->hart / t->cfg.lanes_per_warp, &past) == WS_OK && past) {
        t->step_more += past;
        t->range_past = 1;
    }
    if (on_line(t, l->pc, l->depth)) return step_again(t);
    if (l->depth > t->range_depth) return 0; /* it called a function: gdb's to step into or over */
    /* The lane is past the line; its warp is not while lanes that began
     * the line with it are still on it (diverged in a loop the line holds:
     * a float atomicAdd's compare-and-swap, a per-lane trip count). They
     * run on first, as the warp would run them (the deepest, lowest-pc
     * group issues first); the step ends when the last is past the line,
     * or after WS_GDB_STEP_ON_MAX warp-instructions with a note. */
    uint32_t left = lanes_on_line(t, l->hart / t->cfg.lanes_per_warp);
    if (!left) return 0;
    if (t->step_more >= WS_GDB_STEP_ON_MAX) {
        char who[48];
        thread_name(t, l->hart, who, sizeof who);
        snprintf(s->note, sizeof s->note,
                 "[lanes 0x%08x of the warp of %s are still on the line after %u instructions of the "
                 "warp: the step ends without them]\n",
                 left, who, WS_GDB_STEP_ON_MAX);
        return 0;
    }
    t->step_more++;
    t->range_past = 1;
    return step_again(t);
}

/* The lanes of range_lanes (of warp) still on the stepped line: in the
 * range at the step's call depth, or deeper (in a call made from it). */
static uint32_t lanes_on_line(ws_gdb_dbg *t, uint32_t warp)
{
    uint32_t lpw = t->cfg.lanes_per_warp, on = 0;
    for (size_t i = 0; i < t->nlanes; i++) {
        const ws_dbg_lane *o = &t->lanes[i];
        uint32_t bit = 1u << (o->hart % lpw);
        if (o->hart / lpw != warp || !(t->range_lanes & bit)) continue;
        if (o->depth > t->range_depth || on_line(t, o->pc, o->depth)) on |= bit;
    }
    return on;
}

/* A step of one lane runs one instruction of its warp: the lowest-pc group
 * (docs/device.md), which in a diverged warp may not hold the lane. gdb
 * asked for an instruction of that lane's own, so while the lane has had
 * no part in the step, the warp steps again (the lanes before it run
 * until it gets its turn, as they would without a debugger), up to
 * WS_GDB_STEP_ON_MAX warp-instructions (a group that spins for ever
 * would otherwise hold the step for ever: the stop then comes with the
 * lane where it was and a note). Returns 1 if stepping went on. */
static int step_on(ws_gdb_dbg *t, ws_gdb_stop *s)
{
    uint32_t sh = t->step_hart - 1, lpw = t->cfg.lanes_per_warp, ran = 0;
    if (t->npending || t->want_interrupt || ws_debug_step_lanes(t->dbg, sh / lpw, &ran) != WS_OK ||
        (ran >> (sh % lpw) & 1) || ws_gdb_lanes_refresh(t))
        return 0;
    const ws_dbg_lane *l = ws_gdb_lane_of(t, WS_GDB_TID(sh));
    if (!l || !l->halted) return 0; /* gone: nothing left to step */
    if (t->step_more >= WS_GDB_STEP_ON_MAX) {
        char who[48];
        thread_name(t, sh, who, sizeof who);
        snprintf(s->note, sizeof s->note,
                 "[%s did not run in %u instructions of its warp (the other lanes' groups ran): "
                 "it is where it was]\n",
                 who, WS_GDB_STEP_ON_MAX);
        return 0;
    }
    t->step_more++;
    return step_again(t);
}

/* One more step of the stepped lane's warp, with the lanes that sit gdb's
 * step out excluded again, and in all-stop the warps gdb's resume woke
 * (halted since by the step's halt) running on with it. */
static int step_again(ws_gdb_dbg *t)
{
    uint32_t nw = t->cfg.cores * t->cfg.warps_per_core, warp = (t->step_hart - 1) / t->cfg.lanes_per_warp;
    if (t->step_excl) ws_debug_step_exclude(t->dbg, warp, t->step_excl); /* best effort, as at the resume */
    if (t->range_hi) arm_range_step(t, 0);
    memset(t->wsel, 0, nw);
    t->wsel[warp] = 1;
    for (size_t i = 0; i < t->nlanes && !t->non_stop; i++) { /* the woken warps halted since: the step's all-stop
                                                                 (non-stop: only the stepped warp halted) */
        uint32_t w = t->lanes[i].hart / t->cfg.lanes_per_warp;
        if (t->range_wsel[w] && t->lanes[i].halted &&
            (t->lanes[i].cause == WS_DCSR_CAUSE_HALTREQ || t->lanes[i].cause == WS_DCSR_CAUSE_STEP))
            t->wsel[w] = 1;
    }
    return resume_selected(t) == WS_OK;
}

/* warp_stops: the stop of a warp's first lane at a conditional
 * breakpoint names the other lanes whose condition holds too, as ranges. */
static void note_lanes(ws_gdb_stop *s, uint32_t also)
{
    size_t o = (size_t)snprintf(s->note, sizeof s->note, "[the condition holds for lane(s)");
    const char *sep = " ";
    for (uint32_t m = also; m && o < sizeof s->note; sep = ",") {
        int lo = __builtin_ctz(m), hi = lo;
        while (hi < 31 && (m >> (hi + 1) & 1)) hi++;
        m &= hi == 31 ? 0 : ~0u << (hi + 1);
        o += (size_t)(lo == hi ? snprintf(s->note + o, sizeof s->note - o, "%s%d", sep, lo)
                               : snprintf(s->note + o, sizeof s->note - o, "%s%d-%d", sep, lo, hi));
    }
    if (o < sizeof s->note) snprintf(s->note + o, sizeof s->note - o, " of this warp too: monitor focus]\n");
}

/* gdb's step of one lane ended with that lane gone (non-stop: it ran off
 * the end of its kernel alone while gdb held its siblings). gdb still
 * hears the step's stop for it, as it waits for that thread; reading it
 * then fails with the reason (E.Thread N is not a live lane). */
static void step_gone_note(const ws_gdb_dbg *t, uint32_t hart, ws_gdb_stop *s)
{
    char who[48];
    thread_name(t, hart, who, sizeof who);
    snprintf(s->note, sizeof s->note,
             "[%s ran off the end of its kernel and exited; the other lanes of its warp stay stopped]\n", who);
}

/* Does gdb believe some resident lane runs (it resumed it, or has yet to
 * hear of its stop)? */
static int any_lane_running(const ws_gdb_dbg *t)
{
    for (size_t i = 0; i < t->nlanes; i++)
        if (!t->lanes[i].halted || !t->held[t->lanes[i].hart]) return 1;
    return 0;
}

/* Non-stop: the lane gdb stepped ran off the end of its kernel alone (its
 * siblings held) and nothing else runs. gdb hears that the thread exited,
 * then that nothing it resumed is left ('N'): its step ends ("No
 * unwaited-for children left") and it marks the thread exited. A SIGTRAP
 * of the gone thread (until 2026-11-28) left gdb reading registers it
 * could not have. (While other lanes run, gdb 13 would ignore the 'N' and
 * its step would wait on: the SIGTRAP stays.) */
static void push_step_exited(ws_gdb_dbg *t, uint32_t tid)
{
    ws_gdb_stop s;
    memset(&s, 0, sizeof s);
    s.kind = WS_GDB_STOP_THREAD_EXITED;
    s.tid = tid;
    push(t, &s, 0);
    s.kind = WS_GDB_STOP_NO_RESUMED;
    s.tid = 0;
    push(t, &s, 0);
}

/* The lanes a `next` took along pass their breakpoint once: those of
 * warp that have left its address are done with it. (One pass can halt
 * twice there: at an `hbreak`'s trigger, then at the ebreak.) */
static void along_moved(ws_gdb_dbg *t, uint32_t warp)
{
    const uint32_t lpw = t->cfg.lanes_per_warp;
    if (!t->step_along || !t->step_hart || (t->step_hart - 1) / lpw != warp) return;
    for (size_t i = 0; i < t->nlanes; i++) {
        const ws_dbg_lane *l = &t->lanes[i];
        if (l->hart / lpw == warp && l->pc != t->step_along_pc) t->step_along &= ~(1u << (l->hart % lpw));
    }
}

/* A range step (`next`, `step`) of hart ended in a function the line
 * calls: gdb goes on with a breakpoint meant for this thread alone (its
 * step-resume breakpoint): at the return address for `next` (or a
 * function without lines), at the end of the callee's prologue for
 * `step`. Lanes of other warps that reach it were told to gdb one by
 * one, and gdb stepped each over it alone, a lane at a time: the warps
 * split into groups no undebugged run makes (more warp-instructions,
 * lower SIMT efficiency; timing mode, where the block's other warps run
 * alongside, met it). Remember where, so the Z0 gdb puts there before it
 * resumes is known as that thread's (ws_gdb_bp.owner). */
static void note_call(ws_gdb_dbg *t, uint32_t hart)
{
    const ws_dbg_lane *l = ws_gdb_lane_of(t, WS_GDB_TID(hart));
    uint32_t ra = 0;
    if (!t->range_hi || !l || !l->halted || l->depth <= t->range_depth) return;
    const uint32_t pc = l->pc; /* (reading a register may refresh the lanes) */
    if (ws_gdb_reg_access(t, hart, WS_REGNO_GPR(1), &ra, 0) != WS_OK) return;
    t->call_ra = ra;
    t->call_pc = pc;
    t->call_tid = WS_GDB_TID(hart);
}

/* A warp halted: queue one stop per lane that gdb should hear about. */
static void on_halt(ws_gdb_dbg *t, uint32_t hart)
{
    if (ws_gdb_lanes_refresh(t)) return;
    const ws_dbg_lane *h = ws_gdb_lane_of(t, WS_GDB_TID(hart));
    uint32_t warp = hart / t->cfg.lanes_per_warp;
    along_moved(t, warp);
    if (t->auto_addr[warp]) {
        /* whatever stopped it, the step is over; but a stop of its own
         * (a data trigger on the stepped instruction's access, a fault)
         * is gdb's to hear, with the warp where it halted: it runs on
         * only after a plain step (with conditions=server, the later
         * lanes' stores under an ebreak whose condition they fail were
         * reported while the warp ran on to its end) */
        int stepped = !h || h->cause == WS_DCSR_CAUSE_STEP;
        /* gdb's own step of a lane of this warp ran into the breakpoint:
         * the server's step over it was gdb's step, which ends here as
         * any step does (the warp ran on, and gdb's step was lost) */
        int gdb_step = t->step_hart && (t->step_hart - 1) / t->cfg.lanes_per_warp == warp;
        auto_step_done(t, hart, stepped && !gdb_step, !gdb_step);
        if (stepped && !gdb_step) return;
    }
    if (!h) return;
    ws_gdb_stop s;
    memset(&s, 0, sizeof s);
    s.kind = WS_GDB_STOP_SIGNAL;
    s.signal = WS_GDB_SIG_TRAP;
    s.tid = WS_GDB_TID(hart);
    switch (h->cause) {
    case WS_DCSR_CAUSE_STEP:
        if (t->orphan_step == warp + 1) { /* see orphan_step: the warp runs on */
            t->orphan_step = 0;
            set_step(t, hart, 0);
            run_on(t, hart);
            return;
        }
        if (t->step_hart && (t->step_hart - 1) / t->cfg.lanes_per_warp == warp) {
            if (range_step_on(t, &s) || (!t->range_past && step_on(t, &s))) return;
            s.tid = WS_GDB_TID(t->step_hart - 1);
            note_call(t, t->step_hart - 1);
            /* dcsr.step is the warp's: cleared through the lane that
             * halted, which is live (the stepped one may have run off the
             * end alone, its siblings held in non-stop; cleared through
             * it, the step stayed set and the warp's next resume ended
             * in a SIGTRAP gdb never asked for) */
            set_step(t, hart, 0);
            const int gone = !ws_gdb_lane_of(t, s.tid);
            if (gone) step_gone_note(t, t->step_hart - 1, &s);
            t->step_hart = 0;
            if (gone && t->non_stop && !t->warp_stops && !any_lane_running(t)) {
                push_step_exited(t, s.tid);
                return;
            }
        }
        push(t, &s, 0);
        if (t->step_keeps_focus && t->npending) t->pending_sib[t->npending - 1] = 1;
        return;
    case WS_DCSR_CAUSE_HALTREQ:
        if (t->non_stop && t->want_stop[warp]) { /* gdb asked a lane of it to stop */
            t->want_stop[warp] = 0;
            if (!t->held[hart] && !lane_has_pending(t, s.tid)) push_stopped(t, s.tid, h->pc);
            return;
        }
        if (!t->want_interrupt) return; /* halted only because another warp stopped */
        t->want_interrupt = 0;
        t->interrupted_warp = warp + 1;
        s.signal = t->non_stop ? 0 : WS_GDB_SIG_INT;
        push(t, &s, 0);
        return;
    case WS_DCSR_CAUSE_MACHINE: /* the reason goes to gdb's console */
        s.signal = WS_GDB_SIG_TRAP;
        if (ws_debug_stop_reason(t->dbg, s.note, sizeof s.note - 1) == WS_OK) strcat(s.note, "\n");
        push(t, &s, 0);
        return;
    case WS_DCSR_CAUSE_FAULT:
        if (ws_debug_fault(t->dbg, &t->fault) == WS_OK) {
            t->have_fault = 1;
            s.signal = ws_gdb_fault_signal(t->fault.kind);
            s.tid = WS_GDB_TID(t->fault.hart);
        } else {
            s.signal = WS_GDB_SIG_SEGV;
        }
        push(t, &s, 0);
        return;
    default: { /* ebreak or trigger */
        if (h->cause == WS_DCSR_CAUSE_TRIGGER && launch_stop_hit(t, hart, h->pc, &s)) return;
        if (h->cause == WS_DCSR_CAUSE_TRIGGER) ws_gdb_trigger_reason(t, hart, h->pc, &s);
        else s.reason = WS_GDB_R_SWBREAK;
        if (s.reason != WS_GDB_R_HWBREAK && s.reason != WS_GDB_R_SWBREAK) {
            /* a data trigger names the lane that accessed; but all-stop gdb
             * hears a stop only from the thread it resumed: when it steps
             * one thread alone (over a breakpoint at the access) and an
             * earlier lane of its warp is named, the stop is the stepped
             * thread's, its access the one made, and the lanes after it
             * still come one by one (the stop went to a thread gdb had
             * not resumed, and gdb waited for ever) */
            uint32_t sh = t->step_hart ? t->step_hart - 1 : 0, lpw = t->cfg.lanes_per_warp;
            if (!t->non_stop && t->step_hart && sh / lpw == warp && s.tid >= 2 && s.tid - 2 < t->nharts &&
                t->held[s.tid - 2] && !t->held[sh]) {
                uint32_t named = (s.tid - 2) % lpw, lane = sh % lpw;
                uint32_t touch = (1u << named) | t->wp_rest[warp];
                if (lane > named) t->wp_rest[warp] = touch & ~(lane == 31 ? UINT32_MAX : (2u << lane) - 1);
                s.tid = WS_GDB_TID(sh);
            }
            push(t, &s, 0);
            return;
        }
        /* Every lane of the issuing group whose condition holds, one stop
         * each; gdb hears the next one when it resumes that thread. */
        ws_gdb_bp *bp = ws_gdb_bp_at(t, h->pc);
        if (bp) t->bp_halts++;
        size_t before = t->npending;
        uint32_t pc = h->pc;
        /* The warp's lanes at pc, copied: evaluating a condition reads
         * registers, which refreshes (and may move) the lane snapshot. */
        uint32_t harts[WARP_LANES_MAX], nh = 0, focus = UINT32_MAX;
        /* (at the exit: the thread gdb put its breakpoint there for) */
        const uint32_t want = bp && bp->exit_stub && t->exit_owner ? t->exit_owner
                              : bp && bp->owner                   ? bp->owner
                                                                  : t->focus_tid;
        for (size_t i = 0; i < t->nlanes && nh < WARP_LANES_MAX; i++) {
            const ws_dbg_lane *l = &t->lanes[i];
            if (l->hart / t->cfg.lanes_per_warp != warp || l->pc != pc) continue;
            if (want && WS_GDB_TID(l->hart) == want) focus = l->hart;
            else harts[nh++] = l->hart;
        }
        /* The kernels' exit (finish, until, a watchpoint's scope in the
         * kernel frame) is gdb's momentary breakpoint for the thread it
         * was put in for (exit_owner) alone; other warps retire through it unseen (no step: there is no
         * instruction after it to stop on). */
        if (bp && bp->exit_stub && focus == UINT32_MAX) {
            run_on(t, hart);
            return;
        }
        if (bp && bp->exit_stub) nh = 0;
        /* gdb's step-resume breakpoint of another thread: gdb would step
         * each of these lanes over it alone and go on; the warp passes it
         * whole instead, as it would without a debugger */
        if (bp && bp->owner && focus == UINT32_MAX) {
            auto_step_start(t, bp, hart);
            return;
        }
        /* gdb's focus thread first: its own temporary breakpoints (finish,
         * step-resume) are meant for it, and stepping another lane over
         * them would carry it past. */
        if (focus != UINT32_MAX && ws_gdb_bp_cond_true(t, bp, focus)) {
            s.tid = want;
            push(t, &s, pc);
        }
        /* its thread is there: gdb is done with it (a breakpoint of the
         * user's that looked like one, gdb keeps: anyone's from now on) */
        if (bp && bp->owner && focus != UINT32_MAX) bp->owner = 0;
        int conditional = bp && bp->nconds;
        uint32_t also = 0; /* warp_stops: the other lanes whose condition holds */
        /* lanes a `next` of their warp took along past this breakpoint */
        uint32_t along = bp && pc == t->step_along_pc && t->step_hart &&
                                 (t->step_hart - 1) / t->cfg.lanes_per_warp == warp ? t->step_along : 0;
        for (uint32_t i = 0; i < nh; i++) {
            if (along & 1u << (harts[i] % t->cfg.lanes_per_warp)) continue;
            if (!ws_gdb_bp_cond_true(t, bp, harts[i])) continue;
            if (t->warp_stops && t->npending > before) { /* the warp's one stop is queued */
                also |= 1u << (harts[i] % t->cfg.lanes_per_warp);
                continue;
            }
            s.tid = WS_GDB_TID(harts[i]);
            push(t, &s, pc);
            if (t->npending > before + 1 || !conditional) t->pending_sib[t->npending - 1] = 1;
            t->pending_bp[t->npending - 1] = 1;
        }
        if (also && conditional && t->npending > before) note_lanes(&t->pending[before], also);
        if (t->npending == before) {
            if (bp) auto_step_start(t, bp, hart);
            else push(t, &s, 0); /* an ebreak in the program itself */
        }
        return;
    }
    }
}

/* The thread gdb stops on when the one it stepped is gone and every other
 * is stopped: the lowest of the exited thread's block (its other warps),
 * else the lowest of all (the snapshot is in hart order). */
static size_t stop_pick(const ws_gdb_dbg *t, const ws_dbg_lane *was)
{
    for (size_t i = 0; was && i < t->nlanes; i++) {
        const ws_dbg_lane *l = &t->lanes[i];
        if (l->launch_id == was->launch_id && l->block.x == was->block.x && l->block.y == was->block.y &&
            l->block.z == was->block.z)
            return i;
    }
    return 0;
}

/* A step ran its warp off the end of the kernel: the threads retired and
 * no halt will end the step. gdb's step of one of them is over. If
 * nothing gdb resumed still runs (scheduler-locking, or the others are
 * stopped) and nothing else is to be heard, gdb stops on another thread
 * (signal 0, "stopped", as a thread stopped by request; stop_pick) with a
 * note saying why: it has a live thread selected and gives the prompt
 * back. ('N', no resumed thread left, left gdb 13 with the exited thread
 * selected: "No unwaited-for children left.", and every command until a
 * `thread N` said "Cannot execute this command without a live selected
 * thread".) Otherwise (others run, or no thread is left at all) the step
 * has become a continue, as on a CPU whose thread exits while stepped:
 * the next event is reported. */
static void on_step_exit(ws_gdb_dbg *t, uint32_t hart)
{
    uint32_t lpw = t->cfg.lanes_per_warp, warp = hart / lpw;
    if (t->orphan_step == warp + 1) t->orphan_step = 0; /* its step is gone with it */
    if (!t->step_hart || (t->step_hart - 1) / lpw != warp) return;
    const uint32_t stepped = t->step_hart - 1;
    t->step_hart = 0;
    if (t->non_stop || t->npending) return;
    /* (the last snapshot still has the exited lane: which block it ran) */
    const ws_dbg_lane *old = ws_gdb_lane_of(t, WS_GDB_TID(stepped));
    ws_dbg_lane was;
    if (old) was = *old;
    if (ws_gdb_lanes_refresh(t)) return;
    /* No thread left at all (its warp was the last resident one): nothing
     * is held, so the device runs on (a warp placed now does not join a
     * halt) and its next event, the program's exit at the latest, tells
     * gdb. 'N' would leave gdb with no thread to resume: a breakpoint at
     * the exit that gdb steps the thread over (an ignore count) ended its
     * `continue` there, for good. */
    if (!t->nlanes) return;
    for (size_t i = 0; i < t->nlanes; i++)
        if (!t->lanes[i].halted) return; /* others run: their events tell */
    const ws_dbg_lane *to = &t->lanes[stop_pick(t, old ? &was : NULL)];
    ws_gdb_stop s;
    memset(&s, 0, sizeof s);
    s.kind = WS_GDB_STOP_SIGNAL; /* signal 0 */
    s.tid = WS_GDB_TID(to->hart);
    char who[48], next[48];
    thread_name(t, stepped, who, sizeof who);
    thread_name(t, to->hart, next, sizeof next);
    snprintf(s.note, sizeof s.note,
             "[%s ran off the end of its kernel and exited; the other threads are stopped: gdb stops on %s, "
             "block (%u,%u,%u) thread (%u,%u,%u)]\n",
             who, next, to->block.x, to->block.y, to->block.z, to->thread.x, to->thread.y, to->thread.z);
    t->held[to->hart] = 0; /* gdb hears it from a thread it did not resume: all-stop gdb takes that */
    push(t, &s, to->pc);
}

/* Turn one debug event into queued stops. */
static void handle_event(ws_gdb_dbg *t, const ws_dbg_event *ev)
{
    ws_gdb_lanes_stale(t);
    ws_gdb_stop s;
    memset(&s, 0, sizeof s);
    s.kind = WS_GDB_STOP_SIGNAL;
    s.signal = WS_GDB_SIG_TRAP;
    switch (ev->kind) {
    case WS_DBG_EV_HALT:
        on_halt(t, ev->hart);
        return;
    case WS_DBG_EV_MODULE_LOAD:
    case WS_DBG_EV_MODULE_UNLOAD:
        s.kind = WS_GDB_STOP_LIBRARY;
        break;
    case WS_DBG_EV_LAUNCH_START:
        if (!t->stop_at_launch) return;
        if (arm_launch_stop(t) == WS_OK) return; /* the stop comes at the kernel's entry */
        break;                                   /* no free trigger: stop here, before it */
    case WS_DBG_EV_DEVICE_CLOSE:
        s.kind = WS_GDB_STOP_EXITED;
        s.exit_code = atomic_load(&t->exit_code);
        push(t, &s, 0);
        return;
    case WS_DBG_EV_STEP_EXIT:
        on_step_exit(t, ev->hart);
        return;
    case WS_DBG_EV_CP_HELD: /* the program waits on the debugger's halt: gdb stops, and hears why */
    case WS_DBG_EV_WD_HELD:
    case WS_DBG_EV_END_HELD:
        if (ws_debug_stop_reason(t->dbg, s.note, sizeof s.note - 1) == WS_OK) strcat(s.note, "\n");
        break;
    default:
        return;
    }
    ws_gdb_lanes_refresh(t);
    s.tid = t->nlanes ? WS_GDB_TID(t->lanes[0].hart) : WS_GDB_PLACEHOLDER_TID;
    if (!t->nlanes && ev->kind == WS_DBG_EV_WD_HELD) t->held_pc = WS_GDB_WD_HELD_PC;
    if (!t->nlanes && ev->kind == WS_DBG_EV_CP_HELD) t->held_pc = WS_GDB_CP_HELD_PC;
    if (!t->nlanes && ev->kind == WS_DBG_EV_END_HELD) t->held_pc = WS_GDB_END_HELD_PC;
    push(t, &s, 0);
}

/* Take every event already queued, so nothing is resumed whose halt the
 * server has not seen yet. */
static void drain_events(ws_gdb_dbg *t)
{
    ws_dbg_event ev;
    while (ws_debug_wait_event(t->dbg, 0, &ev) == WS_OK) handle_event(t, &ev);
}

ws_status ws_gdb_dbg_halt_all(ws_gdb_dbg *t)
{
    for (int tries = 0; tries < 300; tries++) {
        ws_status st = ws_gdb_lanes_refresh(t);
        if (st) return st;
        size_t running = 0, first = 0;
        for (size_t i = 0; i < t->nlanes; i++)
            if (!t->lanes[i].halted && !running++) first = i;
        if (!running) break;
        if (tries == 0 && (st = ws_gdb_hart_ctl(t, t->lanes[first].hart, 0))) return st; /* all-stop: all */
        struct timespec ts = { 0, 10 * 1000 * 1000 };
        nanosleep(&ts, NULL);
        drain_events(t); /* halted because gdb arrived: nothing to report */
    }
    drain_events(t);
    t->npending = 0;
    memset(t->tell, 0, t->nharts);
    t->resumed = 0;
    /* gdb loads a module's symbols at a library event, not at connect:
     * the first resume reports one, so the modules already resident get
     * their symbols and pending breakpoints resolve before anything runs. */
    ws_gdb_stop s;
    memset(&s, 0, sizeof s);
    s.kind = WS_GDB_STOP_LIBRARY;
    s.signal = WS_GDB_SIG_TRAP;
    s.tid = t->nlanes ? WS_GDB_TID(t->lanes[0].hart) : WS_GDB_PLACEHOLDER_TID;
    push(t, &s, 0);
    return WS_OK;
}

static ws_status dbg_wait(void *tp, int timeout_ms, ws_gdb_stop *out)
{
    ws_gdb_dbg *t = tp;
    if (!take_pending(t, out)) {
        ws_dbg_event ev;
        ws_status st = ws_debug_wait_event(t->dbg, timeout_ms, &ev);
        if (st == WS_ERR_TIMEOUT) {
            if (!atomic_load(&t->closing)) return st;
            memset(out, 0, sizeof *out);
            out->kind = WS_GDB_STOP_EXITED;
            out->exit_code = atomic_load(&t->exit_code);
            return WS_OK;
        }
        if (st) return st;
        handle_event(t, &ev);
        drain_events(t); /* whatever arrived together */
        if (!take_pending(t, out)) return WS_ERR_TIMEOUT;
    }
    t->resumed = 0;
    return WS_OK;
}

static int dbg_event_fd(void *tp)
{
    return ws_debug_event_fd(((ws_gdb_dbg *)tp)->dbg);
}

static void dbg_detach(void *tp)
{
    ws_gdb_dbg *t = tp;
    for (int i = 0; i < WS_GDB_MAX_BP; i++)
        if (t->bps[i].used) ws_gdb_dbg_breakpoint(t, t->bps[i].type, t->bps[i].addr, t->bps[i].kind, 0, NULL, 0);
    ws_gdb_shared_wp_purge(t, 1);
    t->exit_owner = t->exit_removed = 0; /* the next gdb's are its own */
    t->call_ra = t->call_pc = t->call_tid = 0;
    ws_gdb_calls_undo(t); /* lanes in a call of gdb's go back to where it was made */
    t->npending = 0;
    memset(t->held, 0, t->nharts);
    memset(t->tell, 0, t->nharts);
    resume_warps(t, 0);
    /* the halts gdb's machines caused go first: a program waiting on one
     * (WS_DBG_EV_CP_HELD) released before that would fail its call */
    ws_dmi_write(t->dbg, 0, WS_DM_EVCTL, 8);
    ws_debug_set_blocking_events(t->dbg, 0);
    ws_debug_release(t->dbg);
    ws_gdb_dbg_open_gate(t);
}

static const char *dbg_error(void *tp)
{
    return ((ws_gdb_dbg *)tp)->err;
}

static ws_status dbg_set_non_stop(void *tp, int on)
{
    ws_gdb_dbg *t = tp;
    ws_status st = ws_debug_set_all_stop(t->dbg, !on);
    if (!st) t->non_stop = on;
    return st;
}

const ws_gdb_target_ops ws_gdb_dbg_ops = {
    dbg_threads, dbg_read_reg, dbg_write_reg, dbg_read_mem, dbg_write_mem, ws_gdb_dbg_breakpoint,
    dbg_resume, dbg_interrupt, dbg_wait, ws_gdb_dbg_libraries, ws_gdb_dbg_file, ws_gdb_dbg_monitor,
    dbg_detach, dbg_error, 1, dbg_set_non_stop, dbg_thread_alive, dbg_event_fd, NULL /* no reverse execution */,
    NULL /* threads are lanes: monitor focus names the thread */, 1 /* range stepping */,
    ws_gdb_dbg_selected,
};
