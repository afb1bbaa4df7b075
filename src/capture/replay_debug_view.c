/* The frame debugger's view of the stopped state for gdb: threads (the
 * copied warp's live lanes), registers and memory from the shadow copy
 * (read-only), breakpoints (kept here, armed into the shadow unit at each
 * replay), libraries, monitor commands. Movement is replay_debug.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/replay_debug_int.h"
#include "capture/replay_pixel.h"
#include "device/debug/agent_expr.h"
#include "gdbstub/target_dbg.h"
#include "gdbstub/rsp_packet.h"
#include "gdbstub/tdesc.h"

/* "draw N" (the ordinal in the frame, as --list and monitor debug-pixel
 * number draws), then "(id I)" when the device's id, which $draw shows,
 * differs, as --list prints it: a name saying only "draw 0" next to
 * $draw == 2 led to conditions that never held. */
static void draw_label(const rd_target *t, char *out, size_t cap)
{
    const ws_shadow_state *s = &t->snap;
    uint64_t id = ws_replay_first_draw(t->r) + s->draw;
    if (id == s->draw) snprintf(out, cap, "draw %u", s->draw);
    else snprintf(out, cap, "draw %u (id %llu)", s->draw, (unsigned long long)id);
}

static void thread_name(const rd_target *t, uint32_t l, char *out, size_t cap)
{
    const ws_shadow_state *s = &t->snap;
    char draw[48];
    draw_label(t, draw, sizeof draw);
    if (s->gfx_stage == 2)
        snprintf(out, cap, "%s pixel (%u,%u)%s primitive %u instance %u core %u warp %u lane %u", draw,
                 s->sys[l][0], s->sys[l][1], (s->sys[l][2] & WS_GFX_FLAG_HELPER) ? " helper" : "", s->sys[l][3],
                 s->sys[l][4], s->core, s->warp, l);
    else if (s->gfx_stage == 1)
        snprintf(out, cap, "%s vertex %u instance %u core %u warp %u lane %u", draw, s->sys[l][0], s->sys[l][1],
                 s->core, s->warp, l);
    else
        snprintf(out, cap, "block (%u,%u,%u) thread (%u,%u,%u) core %u warp %u lane %u", s->block.x, s->block.y,
                 s->block.z, s->thread[l].x, s->thread[l].y, s->thread[l].z, s->core, s->warp, l);
}

ws_status rd_threads(void *tp, ws_gdb_thread *out, size_t max, size_t *n)
{
    rd_target *t = tp;
    size_t k = 0;
    if (t->where != RD_STOP) {
        if (max) {
            out[0].tid = rd_pseudo_tid(t);
            snprintf(out[0].name, sizeof out[0].name, "%s (replay)", t->where == RD_START ? "frame start" : "frame end");
        }
        *n = 1;
        return WS_OK;
    }
    for (uint32_t l = 0; l < t->snap.lanes; l++) {
        if (!(t->snap.live >> l & 1)) continue;
        if (k < max) {
            out[k].tid = rd_tid_of_lane(t, l);
            thread_name(t, l, out[k].name, sizeof out[k].name);
        }
        k++;
    }
    *n = k;
    return WS_OK;
}

int rd_thread_alive(void *tp, uint32_t tid)
{
    rd_target *t = tp;
    return t->where == RD_STOP ? rd_lane_of(t, tid) >= 0 : tid == rd_pseudo_tid(t);
}

ws_status rd_read_reg(void *tp, uint32_t tid, uint32_t r, uint32_t *v)
{
    rd_target *t = tp;
    if (r >= WS_GDB_NUM_REGS) return rd_fail(t, WS_ERR_INVALID_ARG, "no register %u", r);
    int l = rd_lane_of(t, tid);
    *v = 0;
    if (l < 0) { /* the frame start or end: nothing runs, zeros keep gdb content */
        if (t->where == RD_STOP || tid != rd_pseudo_tid(t)) return rd_fail(t, WS_ERR_NOT_FOUND, "thread %u is not stopped", tid);
        return WS_OK;
    }
    const ws_shadow_state *s = &t->snap;
    const uint32_t *sys = s->sys[l];
    if (r < 32) *v = s->regs.x[r][l];
    else if (r == WS_GDB_REG_PC || r == WS_GDB_REG_DPC) *v = l == t->at_call ? WS_EXIT_STUB_BASE : s->regs.pc[l];
    else if (r >= WS_GDB_REG_F0 && r < WS_GDB_REG_F0 + 32) *v = s->regs.f[r - WS_GDB_REG_F0][l];
    else if (r == WS_GDB_REG_FFLAGS) *v = s->regs.fflags[l];
    else if (r == WS_GDB_REG_FRM) *v = s->regs.frm[l];
    else if (r == WS_GDB_REG_FCSR) *v = (uint32_t)s->regs.frm[l] << 5 | s->regs.fflags[l];
    else if (r == WS_GDB_REG_DCSR) *v = 4u << 28 | WS_DCSR_CAUSE_TRIGGER << 6 | 3u; /* xdebugver 4, prv M */
    else if (r == WS_GDB_REG_BLOCK_X) *v = s->block.x;
    else if (r == WS_GDB_REG_BLOCK_Y) *v = s->block.y;
    else if (r == WS_GDB_REG_BLOCK_Z) *v = s->block.z;
    else if (r == WS_GDB_REG_THREAD_X) *v = s->thread[l].x;
    else if (r == WS_GDB_REG_THREAD_Y) *v = s->thread[l].y;
    else if (r == WS_GDB_REG_THREAD_Z) *v = s->thread[l].z;
    else if (r == WS_GDB_REG_CORE) *v = s->core;
    else if (r == WS_GDB_REG_WARP) *v = s->warp;
    else if (r == WS_GDB_REG_LANE) *v = (uint32_t)l;
    else if (r == WS_GDB_REG_LAUNCH) *v = (uint32_t)s->launch_id;
    /* the device's draw id, as in live debugging and as the condition unit
     * reads it (the snapshot holds the draw's ordinal in the frame) */
    else if (r >= WS_GDB_REG_PIXEL_X && r <= WS_GDB_REG_INSTANCE_ID) /* the stage-checked views (debug.h) */
        *v = ws_gfx_reg_value(ws_gdb_dmi_regno(r), s->gfx_stage, sys,
                              (uint32_t)(ws_replay_first_draw(t->r) + s->draw));
    return WS_OK;
}

ws_status rd_write_reg(void *tp, uint32_t tid, uint32_t r, uint32_t v)
{
    (void)tid; (void)v;
    return rd_fail(tp, WS_ERR_UNSUPPORTED, "register %u: the replayed frame's shadow state is read-only", r);
}

ws_status rd_read_mem(void *tp, uint32_t tid, uint32_t addr, uint8_t *buf, size_t len)
{
    rd_target *t = tp;
    int l = rd_lane_of(t, tid);
    uint32_t lane = l >= 0 ? (uint32_t)l : t->snap.lane;
    ws_status st = ws_debug_shadow_read(t->dbg, lane, addr, buf, len);
    return st ? rd_fail(t, st, "%s", ws_debug_error(t->dbg)) : WS_OK;
}

ws_status rd_write_mem(void *tp, uint32_t tid, uint32_t addr, const uint8_t *buf, size_t len)
{
    (void)tid; (void)buf; (void)len;
    return rd_fail(tp, WS_ERR_UNSUPPORTED, "0x%08x: the replayed frame's shadow state is read-only", addr);
}

static int map_reg(void *user, uint32_t r, uint32_t *out)
{
    (void)user;
    *out = ws_gdb_dmi_regno(r);
    return *out == UINT32_MAX;
}

/* Z2/Z3/Z4: a watched range for the shadow unit, any length (the unit
 * compares addresses, no trigger's NAPOT range). Shared memory repeats in
 * every block and a stack slot serves one thread after another: a range
 * there belongs to the block (shared) or the thread (stack) gdb follows
 * when it is set, if it follows one. */
static ws_status rd_watchpoint(rd_target *t, int type, uint32_t addr, uint32_t len, int insert)
{
    size_t i = 0;
    while (i < t->nwatches && !(t->watches[i].type == type && t->watches[i].range.addr == addr &&
                                t->watches[i].range.len == len))
        i++;
    if (!insert) {
        if (i < t->nwatches) memmove(&t->watches[i], &t->watches[i + 1], (--t->nwatches - i) * sizeof t->watches[0]);
        return WS_OK;
    }
    if (i < t->nwatches) return WS_OK;
    if (!len || (uint64_t)addr + len > (uint64_t)UINT32_MAX + 1)
        return rd_fail(t, WS_ERR_INVALID_ARG, "a watchpoint on %u bytes at 0x%08x: empty, or past the address space's end", len, addr);
    if (t->nwatches == WS_SHADOW_MAX_WATCHES)
        return rd_fail(t, WS_ERR_UNSUPPORTED, "at most %d watchpoints", WS_SHADOW_MAX_WATCHES);
    rd_watch *v = &t->watches[t->nwatches++];
    memset(v, 0, sizeof *v);
    v->type = type;
    v->range.addr = addr;
    v->range.len = len;
    v->range.rw = type == WS_GDB_WP_WRITE ? 2 : type == WS_GDB_WP_READ ? 1 : 3;
    if (t->have_focus && addr >= WS_SHARED_BASE && addr < WS_SHARED_END) v->range.bind = 1;
    if (t->have_focus && addr >= WS_STACK_BASE && addr < WS_STACK_END) v->range.bind = 2;
    v->range.thread = t->focus;
    return WS_OK;
}

ws_status rd_breakpoint(void *tp, int type, uint32_t addr, uint32_t kind, int insert, const ws_gdb_cond *conds,
                               size_t nconds)
{
    rd_target *t = tp;
    if (type != WS_GDB_BP_SW && type != WS_GDB_BP_HW) return rd_watchpoint(t, type, addr, kind, insert);
    size_t i = 0;
    while (i < t->nbps && t->bps[i].addr != addr) i++;
    if (!insert) {
        if (i < t->nbps) t->bps[i] = t->bps[--t->nbps];
        return WS_OK;
    }
    if (i == t->nbps && t->nbps == WS_SHADOW_MAX_BPS)
        return rd_fail(t, WS_ERR_UNSUPPORTED, "at most %d breakpoints", WS_SHADOW_MAX_BPS);
    if (nconds > WS_GDB_MAX_CONDS) return rd_fail(t, WS_ERR_UNSUPPORTED, "at most %d conditions", WS_GDB_MAX_CONDS);
    rd_bp b = { .addr = addr, .type = type, .nconds = nconds };
    for (size_t c = 0; c < nconds; c++) {
        if (conds[c].len > sizeof b.code[c]) return rd_fail(t, WS_ERR_UNSUPPORTED, "a condition longer than 256 bytes");
        memcpy(b.code[c], conds[c].code, conds[c].len);
        b.len[c] = conds[c].len;
        /* gdb's register numbers to the shadow unit's (abstract-command) ones */
        if (ws_ax_map_regs(b.code[c], b.len[c], map_reg, NULL))
            return rd_fail(t, WS_ERR_UNSUPPORTED, "the condition at 0x%08x uses an opcode or register the shadow unit lacks",
                           addr);
    }
    t->bps[i] = b;
    if (i == t->nbps) t->nbps++;
    return WS_OK;
}

/* Can some draw of the frame (draw d: that one; UINT32_MAX: any) shade
 * pixel (x, y)? Else say why in buf: a pixel no fragment can reach would
 * leave `continue` running to the frame end with no hint. */
static int pixel_drawable(rd_target *t, uint32_t x, uint32_t y, uint32_t d, char *buf, size_t cap)
{
    uint32_t draws = 0, inside = 0, w = 0, h = 0, maxw = 0, maxh = 0, in_target = 0, rect[4] = { 0 };
    const uint64_t n = ws_replay_call_count(t->r);
    for (uint64_t i = 0; i < n; i++) {
        ws_replay_call_info ci;
        if (ws_replay_describe_call(t->r, i, &ci) || ci.kind != WS_REPLAY_CALL_DRAW || ci.draw == WS_REPLAY_NO_DRAW)
            continue;
        const uint32_t ordinal = draws++;
        if (d != UINT32_MAX && ordinal != d) continue;
        /* the capture's size: a target the frame creates has no handle
         * before the frame runs (or after it destroys it) */
        if (ws_replay_target_size(t->r, ws_replay_target_id_at(t->r, i), &w, &h)) continue;
        if (w > maxw) maxw = w;
        if (h > maxh) maxh = h;
        if (!(x < w && y < h)) continue;
        in_target++;
        /* and inside the pixels its viewport and scissor leave */
        if (ws_replay_draw_rect(t->r, i, rect) == WS_OK && x >= rect[0] && x < rect[2] && y >= rect[1] && y < rect[3])
            inside++;
    }
    if (inside) return 1;
    if (!draws)
        snprintf(buf, cap, "the frame has no draws: no pixel to debug (breakpoints count every thread)\n");
    else if (d != UINT32_MAX && d >= draws)
        snprintf(buf, cap, "there is no draw %u: the frame has %u draw%s (0-%u)\n", d, draws, draws == 1 ? "" : "s",
                 draws - 1);
    else if (d != UINT32_MAX && in_target)
        snprintf(buf, cap, "pixel (%u,%u) is outside the pixels draw %u's viewport and scissor leave: [%u,%u) x [%u,%u)\n",
                 x, y, d, rect[0], rect[2], rect[1], rect[3]);
    else if (d != UINT32_MAX)
        snprintf(buf, cap, "pixel (%u,%u) is outside draw %u's %ux%u render target\n", x, y, d, w, h);
    else if (in_target)
        snprintf(buf, cap, "pixel (%u,%u) is outside the pixels every draw's viewport and scissor leave\n", x, y);
    else
        snprintf(buf, cap, "pixel (%u,%u) is outside every draw's render target (the largest is %ux%u)\n", x, y,
                 maxw, maxh);
    return 0;
}

static ws_status monitor_pixel(rd_target *t, const char *args, char *buf, size_t cap)
{
    uint32_t x = 0, y = 0, d = 0;
    const char *q = args;
    int n = ws_parse_u32(&q, &x) ? 0 : ws_parse_u32(&q, &y) ? 1 : ws_parse_u32(&q, &d) ? 2 : 3;
    while (*q == ' ') q++;
    if (*q) n = 0; /* signs, overflow, trailing words: the usage */
    while (*args == ' ') args++;
    if (!strcmp(args, "off")) {
        t->pixel = t->pixel_entry = 0;
        t->pixel_why[0] = 0;
        snprintf(buf, cap, "breakpoints count every thread again\n");
        return WS_OK;
    }
    if (n < 2) {
        snprintf(buf, cap, "usage: monitor debug-pixel X Y [DRAW] | monitor debug-pixel off\n");
        return WS_OK;
    }
    if (!pixel_drawable(t, x, y, n == 3 ? d : UINT32_MAX, buf, cap)) return WS_OK;
    t->pixel = t->pixel_entry = 1;
    t->px = x;
    t->py = y;
    t->pdraw = n == 3 ? d : UINT32_MAX;
    /* A fragment that the early depth test kills, or no triangle that
     * covers the pixel, runs no shader: the pixel history knows, and
     * continue would reach the frame end without a word. (Its run is a
     * replay of its own; the stop gdb is at lives in the shadow copy.) */
    int unshaded = 0;
    char err[256];
    if (ws_replay_pixel_unshaded(t->r, x, y, t->pdraw, &unshaded, t->pixel_why, sizeof t->pixel_why, err,
                                 sizeof err) != WS_OK)
        unshaded = 0, t->pixel_why[0] = 0; /* not known: the usual promise */
    if (unshaded) {
        snprintf(buf, cap, "%.800s; so continue reaches the frame end (monitor debug-pixel off: breakpoints count "
                           "every thread)\n", t->pixel_why);
        return WS_OK;
    }
    if (n == 3) snprintf(buf, cap, "pixel (%u,%u) of draw %u: ", x, y, d);
    else snprintf(buf, cap, "pixel (%u,%u) of any draw: ", x, y);
    size_t o = strlen(buf);
    snprintf(buf + o, cap - o, "continue stops at its fragment shader's first instruction; "
                               "breakpoints count only its fragment (monitor debug-pixel off: every thread)\n");
    return WS_OK;
}

ws_status rd_monitor(void *tp, const char *cmd, char **out)
{
    rd_target *t = tp;
    char buf[1024];
    if (!strncmp(cmd, "debug-pixel", 11) && (cmd[11] == ' ' || !cmd[11])) {
        monitor_pixel(t, cmd + 11, buf, sizeof buf);
    } else if (!strcmp(cmd, "position")) {
        const ws_shadow_state *s = &t->snap;
        if (t->where == RD_END && t->stops_early[0]) /* where, and why */
            snprintf(buf, sizeof buf, "at the frame end, where its work failed: %.900s\n", t->stops_early);
        else if (t->where == RD_END && t->passed[0])
            snprintf(buf, sizeof buf, "at the frame end; on the way its work failed, as when it was captured, and the "
                     "replay went on: %.850s\n", t->passed);
        else if (t->where == RD_END && t->pixel && t->pixel_why[0]) /* why no stop came before it */
            snprintf(buf, sizeof buf, "at the frame end: %.900s\n", t->pixel_why);
        else if (t->where != RD_STOP)
            snprintf(buf, sizeof buf, "at the frame %s\n", t->where == RD_START ? "start" : "end");
        else {
            /* the ordinal is known after a step; a breakpoint stop counts
             * hits, not the thread's instructions (0: not counted) */
            char ord[128] = "its instruction ordinal not counted yet (stepi counts it)";
            if (t->focus_count) snprintf(ord, sizeof ord, "instruction %llu of the thread", (unsigned long long)t->focus_count);
            if (t->at_fault) snprintf(ord + strlen(ord), sizeof ord - strlen(ord), ", which faults here");
            if (t->at_call >= 0 && t->at_call == (int)s->lane)
                snprintf(ord, sizeof ord, "at the launch's call of its kernel (0x%08x), before its first instruction",
                         WS_EXIT_STUB_BASE);
            snprintf(buf, sizeof buf,
                     "launch %u (%s) block (%u,%u,%u) thread (%u,%u,%u) pc 0x%08x, position 0x%016llx, %s\n",
                     s->launch, s->kernel, s->block.x, s->block.y, s->block.z, s->thread[s->lane].x,
                     s->thread[s->lane].y, s->thread[s->lane].z, s->pc, (unsigned long long)s->pos, ord);
        }
        size_t o = strlen(buf);
        snprintf(buf + o, sizeof buf - o, "%llu frame replays, %.3f s replaying; %llu ran the frame to its end with "
                 "results identical to the captured frame\n", (unsigned long long)t->replays, t->replay_s,
                 (unsigned long long)t->replays_identical);
    } else if (!strcmp(cmd, "fault")) { /* the report gdb prints at a fault's stop, as live */
        if (t->where == RD_STOP && t->at_fault) snprintf(buf, sizeof buf, "%s\n", t->faults[t->at_fault - 1].f.message);
        else snprintf(buf, sizeof buf, "no fault\n");
    } else if (!strcmp(cmd, "help")) {
        snprintf(buf, sizeof buf,
                 "monitor debug-pixel X Y [DRAW]  break at that pixel's fragment shader; breakpoints count only it\n"
                 "monitor debug-pixel off         breakpoints count every thread again\n"
                 "monitor position                where in the frame gdb is\n"
                 "monitor fault                   the report of the fault gdb is stopped at\n"
                 "monitor focus block X [Y Z] thread X [Y Z]   find a lane of the stopped warp\n");
    } else {
        return rd_fail(t, WS_ERR_NOT_FOUND, "unknown monitor command '%s'; try 'monitor help'", cmd);
    }
    *out = strdup(buf);
    return *out ? WS_OK : WS_ERR_OUT_OF_MEMORY;
}

void rd_detach(void *tp)
{
    (void)tp; /* nothing runs between resumes: nothing to let go */
}

const char *rd_error(void *tp)
{
    return ((rd_target *)tp)->err;
}
