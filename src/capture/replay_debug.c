/* The frame debugger's gdb target: ws_gdb_target_ops over a replay.
 *
 * Position model. gdb is at the frame start, at the frame end, or at a
 * snapshot: the shadow unit's copy of one warp just before an instruction,
 * at a position (debug.h: launch, warp-instruction, lane) that is the same
 * in every replay. gdb follows one thread (the focus: launch ordinal,
 * block, thread) and, when known, its instruction ordinal there. Every
 * resume replays the whole frame from its restored initial state with the
 * shadow unit armed for the wanted event:
 *   stepi     the focus thread's first instruction after this
 *             warp-instruction (thread mode, after = pos | 31, k = 1)
 *   continue  the first breakpoint hit after pos (hits mode, k = 1)
 *   bs        the focus thread's previous instruction: its ordinal k - 1
 *             (counted in one more replay when not known)
 *   bc        the last hit before pos: one replay counts, one copies
 * so the program appears to move while the GPU always completes frames. */
#include "capture/replay_debug_int.h"
#include <stdarg.h>
#include "gdbstub/target_dbg.h"
#include "isa/isa.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

ws_status rd_fail(rd_target *t, ws_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->err, sizeof t->err, fmt, ap);
    va_end(ap);
    return st;
}

uint32_t rd_tid_of_lane(const rd_target *t, uint32_t lane)
{
    const ws_shadow_state *s = &t->snap;
    return ((s->core * t->cfg.warps_per_core + s->warp) * s->lanes + lane) + 2;
}

/* The snapshot lane behind tid, or -1. */
int rd_lane_of(const rd_target *t, uint32_t tid)
{
    if (t->where != RD_STOP || tid < 2) return -1;
    uint32_t base = rd_tid_of_lane(t, 0);
    if (tid < base || tid - base >= t->snap.lanes || !(t->snap.live >> (tid - base) & 1)) return -1;
    return (int)(tid - base);
}

uint32_t rd_pseudo_tid(const rd_target *t)
{
    if (t->where == RD_START && t->start_tid) return t->start_tid;
    if (t->where == RD_END && t->end_tid) return t->end_tid;
    return RD_PSEUDO_TID;
}

/* ---- replaying ---- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Each captured frame end's digest, checked as the replay passes it, as
 * `warpscope replay FILE` checks them (the last frame end need not be at
 * the last call: a read-back after the final present; only such a
 * digest was compared, so no replay of such a capture counted). A
 * capture that does not record its failures (before 2026-11-27) stops at
 * the first one, which a wait here would take in its place: only its
 * result at the end is compared, as before (old). */
typedef struct rd_frame_check {
    const ws_replay_frame *frames;
    size_t nframes, next;
    int differ, old;
} rd_frame_check;

static int check_frame_end(void *user, ws_replay *r, uint64_t index)
{
    rd_frame_check *fc = user;
    while (!fc->old && fc->next < fc->nframes && fc->frames[fc->next].last_call == index) {
        uint64_t h;
        /* waited for as a tool inside a run waits: a failure met here is
         * the one the capture records */
        if (ws_replay_wait(r) != WS_OK || ws_replay_hash(r, &h) != WS_OK || h != fc->frames[fc->next].digest)
            fc->differ = 1;
        fc->next++;
    }
    return 0;
}

/* Restore the frame's initial state and replay it whole with the unit
 * armed as a says. */
static ws_status replay(rd_target *t, const ws_shadow_arm *arm, ws_shadow_result *res)
{
    /* Number the frame's draws from the id its first draw will get, as
     * --list does: a draw whose viewport and scissor leave no pixel gets
     * an id but launches nothing, and counting from the first draw that
     * launches would shift every ordinal after it. The restore gives the
     * frame's draws their captured ids, from ws_replay_first_draw. */
    ws_shadow_arm a = *arm;
    a.has_first_draw = 1;
    a.first_draw = ws_replay_first_draw(t->r);
    ws_status st = ws_debug_shadow_arm(t->dbg, &a);
    if (st) return rd_fail(t, st, "%s", ws_debug_error(t->dbg));
    double t0 = now_s();
    rd_frame_check fc = { .old = !ws_replay_records_failures(t->r) };
    ws_replay_frames(t->r, &fc.frames, &fc.nframes);
    st = ws_replay_restore(t->r);
    if (!st) {
        st = ws_replay_run(t->r, 0, UINT64_MAX, check_frame_end, &fc);
        /* a frame whose work faults ends there, in every replay alike: the
         * unit saw everything before the fault, and gdb can look at it */
        if (ws_replay_frame_failure(st)) {
            snprintf(t->stops_early, sizeof t->stops_early, "%s", ws_replay_error(t->r));
            t->replay_s += now_s() - t0;
            t->replays++;
            if (res && (st = ws_debug_shadow_result(t->dbg, res)) != WS_OK) rd_fail(t, st, "%s", ws_debug_error(t->dbg));
            ws_debug_shadow_disarm(t->dbg);
            return st;
        }
    }
    if (!st) { /* failures met as recorded, gone past: the first line */
        char text[4096];
        ws_replay_failures_text(t->r, text, sizeof text);
        char *nl = strchr(text, '\n');
        if (nl) *nl = 0;
        snprintf(t->passed, sizeof t->passed, "%.1000s", text);
    }
    uint64_t got, want;
    if (!st && !fc.old && fc.nframes && fc.next == fc.nframes && !fc.differ) t->replays_identical++;
    else if (!st && fc.old && ws_replay_hash(t->r, &got) == WS_OK && ws_replay_captured_hash(t->r, &want) == WS_OK &&
             got == want)
        t->replays_identical++;
    t->replay_s += now_s() - t0;
    t->replays++;
    if (st) {
        rd_fail(t, st, "replaying the frame: %s", ws_replay_error(t->r));
        ws_debug_shadow_disarm(t->dbg);
        return st;
    }
    if (res && (st = ws_debug_shadow_result(t->dbg, res)) != WS_OK) rd_fail(t, st, "%s", ws_debug_error(t->dbg));
    ws_debug_shadow_disarm(t->dbg);
    return st;
}

static ws_shadow_arm hits_arm(rd_target *t, ws_shadow_bp *bps, ws_shadow_watch *ws)
{
    ws_shadow_arm a;
    memset(&a, 0, sizeof a);
    a.mode = WS_SHADOW_HITS;
    for (size_t i = 0; i < t->nbps; i++) {
        memset(&bps[i], 0, sizeof bps[i]);
        bps[i].pc = t->bps[i].addr;
        bps[i].nconds = t->bps[i].nconds;
        /* The exit stub is every thread's return address: gdb puts a
         * breakpoint there for the frame of the thread it follows (finish,
         * until or advance out of a kernel's frame, a watchpoint's scope):
         * only that thread's retirement counts, as in live debugging.
         * Every other thread's would be stepped over by gdb, and a thread
         * that has retired has no instruction to step to. */
        if (t->bps[i].addr == WS_RETIRE_ADDR && t->have_focus) {
            bps[i].one_thread = 1;
            bps[i].thread = t->focus;
        }
        for (size_t c = 0; c < t->bps[i].nconds; c++) bps[i].conds[c] = (ws_dbg_cond){ t->bps[i].code[c], t->bps[i].len[c] };
    }
    a.bps = bps;
    a.nbps = t->nbps;
    for (size_t i = 0; i < t->nwatches; i++) ws[i] = t->watches[i].range;
    a.watches = ws;
    a.nwatches = t->nwatches;
    a.pixel = t->pixel;
    a.pixel_entry = t->pixel_entry;
    a.pixel_x = t->px;
    a.pixel_y = t->py;
    a.pixel_draw = t->pdraw;
    a.before = UINT64_MAX;
    return a;
}

static ws_shadow_arm thread_arm(const ws_shadow_thread *th)
{
    ws_shadow_arm a;
    memset(&a, 0, sizeof a);
    a.mode = WS_SHADOW_THREAD;
    a.thread = *th;
    a.before = UINT64_MAX;
    return a;
}

static void set_stop(rd_target *t, uint32_t tid, ws_gdb_reason reason)
{
    memset(&t->stop, 0, sizeof t->stop);
    t->stop.kind = WS_GDB_STOP_SIGNAL;
    t->stop.signal = WS_GDB_SIG_TRAP;
    t->stop.tid = tid;
    t->stop.reason = reason;
    t->have_stop = 1;
}

/* The frame start: initial state restored, its memory copied for gdb. */
static ws_status go_start(rd_target *t)
{
    ws_status st = ws_replay_restore(t->r);
    if (st) return rd_fail(t, st, "restoring the frame: %s", ws_replay_error(t->r));
    if ((st = ws_debug_shadow_capture_memory(t->dbg)) != WS_OK) return rd_fail(t, st, "%s", ws_debug_error(t->dbg));
    t->where = RD_START;
    t->at_call = -1;
    t->at_fault = 0;
    set_stop(t, rd_pseudo_tid(t), WS_GDB_R_REPLAY_BEGIN);
    return WS_OK;
}

/* The id the followed thread has in the snapshot (0: not in it). */
static uint32_t focus_tid_in_snapshot(const rd_target *t)
{
    const ws_shadow_state *s = &t->snap;
    if (t->where != RD_STOP || !t->have_focus || s->launch != t->focus.launch ||
        memcmp(&s->block, &t->focus.block, sizeof s->block))
        return 0;
    for (uint32_t l = 0; l < s->lanes; l++)
        if (s->live >> l & 1 && !memcmp(&s->thread[l], &t->focus.thread, sizeof s->thread[l]))
            return rd_tid_of_lane(t, l);
    return 0;
}

/* The frame end: the replay just ran to it. It carries the id of the
 * thread gdb followed there (end_tid), so that a step back from it ends
 * on the thread gdb stepped. */
static ws_status go_end(rd_target *t)
{
    ws_status st = ws_debug_shadow_capture_memory(t->dbg);
    if (st) return rd_fail(t, st, "%s", ws_debug_error(t->dbg));
    if (t->where != RD_END) t->end_tid = focus_tid_in_snapshot(t);
    t->where = RD_END;
    t->at_call = -1;
    t->at_fault = 0;
    set_stop(t, rd_pseudo_tid(t), WS_GDB_R_REPLAY_END);
    return WS_OK;
}

/* The unit took a snapshot: gdb is there now, following its thread. */
static ws_status go_snapshot(rd_target *t, ws_gdb_reason reason)
{
    const ws_shadow_state *s = NULL;
    ws_status st = ws_debug_shadow_state(t->dbg, &s);
    if (st) return rd_fail(t, st, "%s", ws_debug_error(t->dbg));
    t->snap = *s;
    t->where = RD_STOP;
    t->focus = (ws_shadow_thread){ s->launch, s->block, s->thread[s->lane] };
    t->have_focus = 1;
    t->focus_count = s->thread_count;
    t->at_hit = 0;
    t->whole_insn = 0;
    t->at_call = -1;
    t->at_fault = 0;
    set_stop(t, rd_tid_of_lane(t, s->lane), reason);
    return WS_OK;
}

/* ---- faults: where a forward run stops, as the live server halts the
 * faulting warp (the replays go past the fault, or end there) ---- */

/* Fault i's position and its thread's instruction ordinal there: one
 * replay of that thread the first time (its last instruction is the
 * faulting one: the unit counts it before it runs). */
static ws_status fault_place(rd_target *t, size_t i)
{
    struct rd_fault *f = &t->faults[i];
    if (f->count || f->none) return WS_OK;
    ws_shadow_arm a = thread_arm(&f->f.thread);
    ws_shadow_result res;
    ws_status st = replay(t, &a, &res);
    if (st) return st;
    f->count = res.nbefore;
    f->pos = res.last_before;
    f->none = !f->count;
    return WS_OK;
}

/* The first fault at or after position lo, not the one gdb is stopped
 * at (-1: none). The unit lists them in the order met: position order. */
static ws_status next_fault(rd_target *t, uint64_t lo, int *out)
{
    *out = -1;
    for (size_t i = 0; i < t->nfaults; i++) {
        ws_status st = fault_place(t, i);
        if (st) return st;
        if (t->faults[i].none || t->faults[i].pos < lo || t->at_fault == (int)i + 1) continue;
        *out = (int)i;
        return WS_OK;
    }
    return WS_OK;
}

/* Stop at fault i: its thread before the faulting instruction, reported
 * with the fault's signal on the faulting lane (gdb asks `monitor fault`
 * for the report, as of the live server). The lanes before it at that
 * instruction have passed, as at a hit. */
static ws_status go_fault(rd_target *t, size_t i)
{
    const struct rd_fault *f = &t->faults[i];
    ws_shadow_arm a = thread_arm(&f->f.thread);
    a.k = f->count;
    ws_shadow_result res;
    ws_status st = replay(t, &a, &res);
    if (st) return st;
    if (!res.taken) return rd_fail(t, WS_ERR_INTERNAL, "replay diverged: the fault at position 0x%llx did not come again",
                                   (unsigned long long)f->pos);
    if ((st = go_snapshot(t, WS_GDB_R_NONE)) != WS_OK) return st;
    t->at_fault = (int)i + 1;
    t->pending = 0; /* the lanes after the faulting one never run that instruction */
    t->stop.signal = ws_gdb_fault_signal(f->f.kind);
    return WS_OK;
}

/* The position of the snapshot the last replay took. */
static uint64_t taken_pos(rd_target *t)
{
    const ws_shadow_state *s = NULL;
    return ws_debug_shadow_state(t->dbg, &s) == WS_OK ? s->pos : UINT64_MAX;
}

/* Why the snapshot is a hit: a watched access (gdb hears the watched
 * address), else a breakpoint at its pc (or the pixel's first
 * instruction). The unit numbers watches in t->watches' order. */
static void hit_reason(rd_target *t)
{
    const ws_shadow_state *s = &t->snap;
    if (s->watch && s->watch <= t->nwatches) {
        const int type = t->watches[s->watch - 1].type;
        t->stop.reason = type == WS_GDB_WP_WRITE ? WS_GDB_R_WATCH : type == WS_GDB_WP_READ ? WS_GDB_R_RWATCH
                                                                                             : WS_GDB_R_AWATCH;
        t->stop.addr = s->data_addr;
        return;
    }
    t->stop.reason = WS_GDB_R_NONE; /* the pixel's first instruction */
    for (size_t i = 0; i < t->nbps; i++)
        if (t->bps[i].addr == s->pc) t->stop.reason = t->bps[i].type == WS_GDB_BP_HW ? WS_GDB_R_HWBREAK : WS_GDB_R_SWBREAK;
}

static uint64_t here(const rd_target *t)
{
    return t->where == RD_STOP ? t->snap.pos : t->where == RD_END ? UINT64_MAX : 0;
}

/* A breakpoint several lanes of one warp-instruction reach is reported
 * for the thread gdb followed first, as the live server does: gdb's own
 * step-resume and finish breakpoints are meant for that thread, and its
 * siblings would each cost gdb a step-over and two replays. Forwards, the
 * lanes before it at that instruction are passed and those after it come
 * next; backwards (reverse-continue, reverse-finish), the reverse. */
static void focus_lane(rd_target *t, const ws_shadow_thread *f, int backwards)
{
    ws_shadow_state *s = &t->snap;
    if (s->watch) return; /* a watched access: the lane that made it */
    if (f->launch != s->launch || memcmp(&f->block, &s->block, sizeof f->block)) return;
    for (uint32_t l = backwards ? 0 : s->lane + 1; l < (backwards ? s->lane : s->lanes); l++) {
        if (!(s->group >> l & 1) || memcmp(&s->thread[l], &f->thread, sizeof f->thread)) continue;
        for (size_t i = 0; i < t->nbps; i++)
            if (t->bps[i].addr == s->pc && !t->bps[i].nconds) { /* every lane of the group hits it */
                s->lane = l;
                s->pos = (s->pos & ~(uint64_t)31) | l;
                t->focus = *f;
                t->focus_count = 0;
                t->stop.tid = rd_tid_of_lane(t, l);
            }
        return;
    }
}

static int watched_access(rd_target *t, uint32_t *widx, uint32_t *at, int only_own, uint32_t from);

/* The stop is lane wl's watched access (watch widx, first byte at) at the
 * snapshot's warp-instruction, before it is made: gdb follows that lane. */
static ws_status stop_at_access(rd_target *t, uint32_t wl, uint32_t widx, uint32_t at)
{
    if (wl != t->snap.lane) t->focus_count = 0;
    t->snap.lane = wl;
    t->snap.pos = (t->snap.pos & ~(uint64_t)31) | wl;
    t->snap.watch = widx;
    t->snap.data_addr = at;
    t->focus = (ws_shadow_thread){ t->snap.launch, t->snap.block, t->snap.thread[wl] };
    t->have_focus = 1;
    t->at_hit = 1;
    t->pending = 0;
    t->at_fault = 0;
    set_stop(t, rd_tid_of_lane(t, wl), WS_GDB_R_NONE);
    hit_reason(t);
    return WS_OK;
}

/* A forward step's snapshot is before its whole warp-instruction: no lane
 * of it has run, the lanes before the thread's neither, whereas at a hit
 * the lanes before it have been passed, and a step back over a lane's
 * access shows the lanes before it as having made theirs. */
static int before_instruction(const rd_target *t)
{
    return t->where == RD_STOP && t->whole_insn && !t->at_hit && t->at_call < 0;
}

/* Forwards to the first hit after here. */
static ws_status run_continue(rd_target *t)
{
    /* From a step's snapshot, the watched accesses of the lanes before the
     * thread's at its instruction are still to come, and come first, as
     * live, where the trigger names the instruction's first lane (before
     * 2026-11-27 the continue counted from the thread's own lane on, and
     * those accesses were never reported) */
    uint32_t widx = 0, at = 0;
    const int wl = before_instruction(t) && !t->pending ? watched_access(t, &widx, &at, 0, 0) : -1;
    if (wl >= 0 && (uint32_t)wl < t->snap.lane) return stop_at_access(t, (uint32_t)wl, widx, at);
    if (t->where == RD_END) return go_end(t);
    ws_shadow_bp bps[WS_SHADOW_MAX_BPS];
    ws_shadow_watch ws[WS_SHADOW_MAX_WATCHES];
    ws_shadow_arm a = hits_arm(t, bps, ws);
    a.after = here(t);
    /* The snapshot is before its instruction, which has not run: a watched
     * access it makes counts (gdb steps a thread off a breakpoint or a
     * watchpoint it stopped for before it continues; nothing steps off a
     * pixel's first instruction) */
    a.data_at_after = 1;
    if (t->where == RD_STOP && t->at_call >= 0)
        a.after = (t->snap.pos & ~(uint64_t)31) + (uint64_t)t->at_call - 1, a.data_at_after = 0;
    if (t->pending && t->pending_after < a.after) a.after = t->pending_after, a.data_at_after = 0;
    t->pending = 0;
    a.k = 1;
    /* a lane's fault before the first hit is the stop (live, it halts
     * the warp); before 2026-11-29 continue ran past it to the frame end */
    int fi;
    ws_status st = next_fault(t, a.after, &fi);
    if (st) return st;
    ws_shadow_result res;
    if ((st = replay(t, &a, &res)) != WS_OK) return st;
    if (fi >= 0 && (!res.taken || t->faults[fi].pos < taken_pos(t))) return go_fault(t, (size_t)fi);
    if (!res.taken) return go_end(t);
    ws_shadow_thread was = t->focus;
    int had_focus = t->have_focus;
    st = go_snapshot(t, WS_GDB_R_NONE);
    if (!st && had_focus) focus_lane(t, &was, 0);
    hit_reason(t);
    t->at_hit = !st;
    return st;
}

/* stepi at the frame start: the frame's first thread (block 0, thread 0
 * of its first launch) at its first instruction; a frame whose first
 * launch has no such thread continues to the first hit instead. */
static ws_status run_first(rd_target *t)
{
    ws_shadow_arm a = thread_arm(&(ws_shadow_thread){ .launch = 1 });
    a.k = 1;
    ws_shadow_result res;
    ws_status st = replay(t, &a, &res);
    if (st) return st;
    if (!res.taken) return run_continue(t);
    st = go_snapshot(t, WS_GDB_R_NONE);
    t->whole_insn = !st;
    return st;
}

/* The thread of lane tid (the focus if tid is not a lane). */
static ws_shadow_thread thread_of(const rd_target *t, uint32_t tid)
{
    int l = rd_lane_of(t, tid);
    if (l < 0) return t->focus;
    return (ws_shadow_thread){ t->snap.launch, t->snap.block, t->snap.thread[l] };
}

static int same_thread(const ws_shadow_thread *a, const ws_shadow_thread *b)
{
    return a->launch == b->launch && !memcmp(&a->block, &b->block, sizeof a->block) &&
           !memcmp(&a->thread, &b->thread, sizeof a->thread);
}

/* The first lane, from lane `from` on (position order), of the
 * snapshot's warp-instruction whose access touches a watched range: its
 * lane (-1: none), the watch's number (1 + index) in *widx and the first
 * watched byte in *at; only_own: the snapshot's lane only. The registers are the lanes' before the
 * instruction, as a load/store trigger sees them. */
static int watched_access(rd_target *t, uint32_t *widx, uint32_t *at, int only_own, uint32_t from)
{
    const ws_shadow_state *s = &t->snap;
    uint8_t b[4] = { 0 };
    if (!t->nwatches || t->where != RD_STOP || ws_debug_shadow_read(t->dbg, s->lane, s->pc, b, 2) != WS_OK) return -1;
    if ((b[0] & 3) == 3 && ws_debug_shadow_read(t->dbg, s->lane, s->pc + 2, b + 2, 2) != WS_OK) return -1;
    ws_inst in;
    ws_decode((uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24, &in);
    const uint32_t size = ws_op_mem_bytes(in.op);
    if (!size) return -1;
    const ws_op_class c = ws_op_class_of(in.op);
    const uint8_t rw = c == CLASS_LOAD || in.op == OP_LR_W ? 1 : c == CLASS_STORE || in.op == OP_SC_W ? 2 : 3;
    for (uint32_t l = only_own ? s->lane : from; l < s->lanes && l < 32 && (!only_own || l == s->lane); l++) {
        if (!(s->group >> l & 1)) continue;
        const uint64_t a = (uint32_t)(s->regs.x[in.rs1][l] + (uint32_t)in.imm);
        for (size_t i = 0; i < t->nwatches; i++) {
            const ws_shadow_watch *v = &t->watches[i].range;
            const uint64_t lo = v->addr, hi = lo + v->len;
            if (!(v->rw & rw) || a + size <= lo || a >= hi) continue;
            if (v->bind && (v->thread.launch != s->launch || memcmp(&v->thread.block, &s->block, sizeof s->block)))
                continue;
            if (v->bind == 2 && memcmp(&v->thread.thread, &s->thread[l], sizeof s->thread[l])) continue;
            *widx = (uint32_t)i + 1;
            *at = (uint32_t)(a > lo ? a : lo);
            return (int)l;
        }
    }
    return -1;
}

/* Forwards: the thread's first instruction after this warp-instruction
 * (sig: the signal gdb passes with the step; others: gdb lets the other
 * threads run meanwhile, so it takes a stop on one of them). */
static ws_status run_step(rd_target *t, uint32_t tid, int sig, int others)
{
    if (t->where == RD_START && !t->pixel) return run_first(t);
    if (t->where == RD_START || (t->where == RD_END && !t->have_focus)) return run_continue(t);
    if (t->where == RD_END) return go_end(t);
    ws_shadow_thread th = thread_of(t, tid);
    if (t->at_call >= 0 && rd_lane_of(t, tid) == t->at_call) { /* the call: its first instruction is next */
        t->focus = th;
        t->focus_count = 1;
        t->at_call = -1;
        t->pending = 0;
        set_stop(t, tid, WS_GDB_R_NONE);
        return WS_OK;
    }
    /* At a fault, a step of the faulting lane runs the faulting
     * instruction again, which faults again, as live; a step that passes
     * the fault's signal lets it end the launch, and the frame goes on
     * as with continue. */
    if (t->at_fault && rd_lane_of(t, tid) == (int)t->snap.lane) {
        if (sig) return run_continue(t);
        set_stop(t, tid, WS_GDB_R_NONE);
        t->stop.signal = ws_gdb_fault_signal(t->faults[t->at_fault - 1].f.kind);
        return WS_OK;
    }
    /* The instruction the thread is at makes a watched access (a lane's
     * of its warp-instruction): that is the stop, before the access, as a
     * load/store trigger fires, unless gdb is stepping off that very
     * event; gdb steps the lane over it and shows the values (it did not:
     * stepi, next or step over a watched store passed it silently). The
     * lane is the first of the instruction whose access touches the
     * range, in lane order, as the live trigger names it (before
     * 2026-11-27 the stepped lane came first, and the lanes before it
     * were never reported); at a breakpoint's hit the step is gdb's step
     * of the hit lane over the breakpoint, which live is that lane's own
     * stop, with the stores of the lanes before it made (the split copy
     * shows them), and a step back over a lane's access shows the lanes
     * before it as having made theirs: from that lane on. */
    uint32_t widx = 0, at = 0;
    const int stepped = rd_lane_of(t, tid);
    const int wl = t->at_call < 0 && !(t->at_hit && t->snap.watch) && stepped >= 0 &&
                           (t->snap.group >> stepped & 1) && (uint32_t)stepped == t->snap.lane
                       ? watched_access(t, &widx, &at, 0, before_instruction(t) ? 0 : t->snap.lane)
                       : -1;
    if (wl >= 0) return stop_at_access(t, (uint32_t)wl, widx, at);
    /* gdb stepped the lane a watched access stopped for over it, and the
     * thread steps on: the later lanes of that warp-instruction whose
     * accesses touch a watched range have not been reported yet. Live,
     * they stand before the stepped lane (lower pc first), so its step
     * runs them first and the next one's access is the stop, one per
     * step in lane order: the same here (one more replay, counting the
     * watched accesses after the one reported). */
    if (t->pending && !t->at_hit && t->nwatches && same_thread(&th, &t->focus)) {
        ws_shadow_bp bps[WS_SHADOW_MAX_BPS];
        ws_shadow_watch ws[WS_SHADOW_MAX_WATCHES];
        ws_shadow_arm h = hits_arm(t, bps, ws);
        h.nbps = 0; /* the accesses only */
        h.pixel_entry = 0;
        h.after = t->pending_after;
        h.k = 1;
        ws_shadow_result hr;
        ws_status hst = replay(t, &h, &hr);
        if (hst) return hst;
        const ws_shadow_state *hs = NULL;
        if (hr.taken && ws_debug_shadow_state(t->dbg, &hs) == WS_OK && hs->pos >> 5 == t->pending_after >> 5) {
            t->pending = 0;
            if ((hst = go_snapshot(t, WS_GDB_R_NONE)) != WS_OK) return hst;
            hit_reason(t);
            t->at_hit = 1;
            return WS_OK;
        }
    }
    /* gdb steps a hit lane off its breakpoint before it continues */
    t->pending = t->at_hit && same_thread(&th, &t->focus);
    t->pending_after = t->snap.pos;
    ws_shadow_arm a = thread_arm(&th);
    a.after = t->snap.pos | 31u;
    a.k = 1;
    /* gdb steps a lane it stopped for at a watched store over it: the
     * copy shows that lane's store made, not yet those of the lanes after
     * it (each is a stop of its own, with its own value, as live) */
    if (t->pending && t->snap.watch) a.split = t->snap.pos;
    /* a lane's fault on the way, at this instruction (the thread's own,
     * or a lane's before it) or before the thread's next one, is the stop */
    int fi;
    ws_status st = next_fault(t, before_instruction(t) ? t->snap.pos & ~(uint64_t)31 : t->snap.pos, &fi);
    if (st) return st;
    ws_shadow_result res;
    if ((st = replay(t, &a, &res)) != WS_OK) return st;
    if (fi >= 0 && (!res.taken || t->faults[fi].pos < taken_pos(t))) {
        if ((st = go_fault(t, (size_t)fi)) != WS_OK || others || same_thread(&th, &t->focus)) return st;
        /* gdb resumed the stepped thread alone (its step over a
         * breakpoint) and takes no stop on another (gdb 13 failed an
         * assertion): the stepped lane, if of the faulting warp, stops
         * with its warp's fault; else the thread has ended, below */
        for (uint32_t l = 0; l < t->snap.lanes; l++)
            if (t->snap.live >> l & 1 && th.launch == t->snap.launch &&
                !memcmp(&th.block, &t->snap.block, sizeof th.block) &&
                !memcmp(&th.thread, &t->snap.thread[l], sizeof th.thread)) {
                t->stop.tid = rd_tid_of_lane(t, l);
                return WS_OK;
            }
        res.taken = 0;
    }
    if (!res.taken) { /* the thread has ended: nothing later to show for it */
        t->focus = th;
        return go_end(t);
    }
    st = go_snapshot(t, WS_GDB_R_NONE);
    t->whole_insn = !st;
    return st;
}

/* A reverse step of a thread from its first instruction: before it, the
 * thread is at the launch's call of its kernel (the exit stub's
 * WS_EXIT_STUB_BASE, the kernel's caller in `bt`), where the snapshot
 * shows it (at_call), with the registers it starts with. A step back from
 * there is the end of its history ("no more history", on the thread).
 * Going to the frame start instead lost the thread gdb was stepping: gdb
 * steps every other thread that reaches its momentary breakpoint at a
 * kernel's entry (reverse-finish in a kernel's frame) over it, and was
 * left at the frame start, where gdb 13 then crashed at the next resume.
 * The frame's very first instruction (launch 1, warp-instruction 1) goes
 * back to the frame start, just before it, as does a thread not in the
 * warp gdb looks at. */
static ws_status thread_begins(rd_target *t, const ws_shadow_thread *th)
{
    const ws_shadow_state *s = &t->snap;
    if (t->where != RD_STOP || (s->pos >> 5) <= ((1ull << 43) | 1) || th->launch != s->launch ||
        memcmp(&th->block, &s->block, sizeof th->block))
        return go_start(t);
    for (uint32_t l = 0; l < s->lanes; l++) {
        if (!(s->live >> l & 1) || memcmp(&s->thread[l], &th->thread, sizeof th->thread)) continue;
        int again = t->at_call == (int)l;
        t->snap.lane = l;
        t->snap.pos = (t->snap.pos & ~(uint64_t)31) | l;
        t->focus = *th;
        t->have_focus = 1;
        t->focus_count = 0;
        t->at_hit = 0;
        t->at_fault = 0;
        t->at_call = (int)l;
        set_stop(t, rd_tid_of_lane(t, l), again ? WS_GDB_R_REPLAY_BEGIN : WS_GDB_R_NONE);
        return WS_OK;
    }
    return go_start(t);
}

/* Backwards: the thread's previous instruction (before this
 * warp-instruction); its ordinal is counted by one more replay when not
 * known. */
static ws_status run_reverse_step(rd_target *t, uint32_t tid)
{
    if (t->where == RD_START) return go_start(t);
    if (!t->have_focus) return go_start(t);
    ws_shadow_thread th = thread_of(t, tid);
    uint64_t before = t->where == RD_END ? UINT64_MAX : t->snap.pos & ~(uint64_t)31;
    uint64_t k;
    ws_status st;
    /* gdb steps a hit lane back off its breakpoint before it
     * reverse-continues: remember the hit (see run_reverse_continue) */
    const int off_hit = t->where == RD_STOP && t->at_hit && !t->snap.watch && same_thread(&th, &t->focus);
    const uint64_t hit_pos = t->snap.pos;
    t->back_pending = 0;
    if (t->where == RD_STOP && same_thread(&th, &t->focus) && t->focus_count) {
        k = t->focus_count - 1;
    } else {
        ws_shadow_arm a = thread_arm(&th);
        a.before = before;
        ws_shadow_result res;
        if ((st = replay(t, &a, &res)) != WS_OK) return st;
        k = res.nbefore;
    }
    if (!k) {
        st = thread_begins(t, &th);
        t->back_pending = !st && off_hit;
        t->back_before = hit_pos;
        return st;
    }
    /* gdb's step back over a watched access this step reported (below):
     * no second report */
    const uint64_t told = t->back_watch_pos, back = t->back_access;
    t->back_watch_pos = t->back_access = 0;
    const int from_stop = t->where == RD_STOP && t->at_call < 0;
    ws_shadow_arm a = thread_arm(&th);
    a.k = k;
    /* stepping back over a watched access reported after it: the copy at
     * the access shows the stores of the instruction's lanes before this
     * one made (they accessed first), so each lane's step back shows its
     * own store undone */
    if (back && same_thread(&th, &t->focus)) a.split = back, a.split_before = 1;
    ws_shadow_result res;
    if ((st = replay(t, &a, &res)) != WS_OK) return st;
    if (!res.taken) return rd_fail(t, WS_ERR_INTERNAL, "replay diverged: instruction %llu of the thread did not come again",
                                   (unsigned long long)k);
    const uint64_t from_pos = t->snap.pos;
    if ((st = go_snapshot(t, WS_GDB_R_NONE)) != WS_OK) return st;
    t->back_pending = off_hit;
    t->back_before = hit_pos;
    /* The instruction stepped back over made a watched access (the
     * thread's own): as reverse-continue does, the access is reported
     * after it, where the step began, so that gdb's step back over it
     * shows the value change and ends the command there (reverse-stepi
     * and reverse-next passed it silently). One more replay. */
    uint32_t widx = 0, at = 0;
    if (!from_stop || told == from_pos || watched_access(t, &widx, &at, 1, 0) < 0) return WS_OK;
    const uint64_t access = t->snap.pos;
    a = thread_arm(&th);
    a.k = k + 1;
    a.split = access;
    if ((st = replay(t, &a, &res)) != WS_OK) return st;
    if (!res.taken) return rd_fail(t, WS_ERR_INTERNAL, "replay diverged: instruction %llu of the thread did not come again",
                                   (unsigned long long)k + 1);
    if ((st = go_snapshot(t, WS_GDB_R_NONE)) != WS_OK) return st;
    const int type = t->watches[widx - 1].type;
    t->stop.reason = type == WS_GDB_WP_WRITE ? WS_GDB_R_WATCH : type == WS_GDB_WP_READ ? WS_GDB_R_RWATCH : WS_GDB_R_AWATCH;
    t->stop.addr = at;
    t->back_watch_pos = t->snap.pos;
    t->back_access = access;
    return WS_OK;
}

/* A watched access found going backwards is reported after it, at its
 * thread's next instruction (unless that lies past `from`, where the
 * reverse-continue began; it may be `from` itself): a trigger fires
 * before the access, so gdb steps back over it and sees the value change
 * there, stopping at the instruction that made it, as it does going
 * forwards. */
static ws_status past_access(rd_target *t, uint64_t from, const ws_shadow_arm *again)
{
    const ws_gdb_stop hit = t->stop;
    const uint64_t access = t->snap.pos;
    ws_shadow_arm a = thread_arm(&t->focus);
    a.after = t->snap.pos | 31u;
    a.k = 1;
    a.split = access; /* the stores of the instruction's later lanes not made yet */
    ws_shadow_result res;
    ws_status st = replay(t, &a, &res);
    if (st || !res.taken) return st;
    const ws_shadow_state *s = NULL;
    if ((st = ws_debug_shadow_state(t->dbg, &s)) != WS_OK) return rd_fail(t, st, "%s", ws_debug_error(t->dbg));
    /* another thread's position lies between: the access stays the stop;
     * but a later lane of the same instruction (where the reverse-continue
     * began: gdb's step back over that lane's access ended there) does
     * not count, since the lanes access one after another: the stop is
     * after this lane's access, with the later lanes' not made yet */
    if (s->pos > from && (from >> 5) != (access >> 5)) {
        if ((st = replay(t, again, &res)) != WS_OK) return st;
        if (!res.taken) return rd_fail(t, WS_ERR_INTERNAL, "replay diverged: the watched access did not come again");
        if ((st = go_snapshot(t, WS_GDB_R_NONE)) != WS_OK) return st;
        hit_reason(t);
        return WS_OK;
    }
    if ((st = go_snapshot(t, WS_GDB_R_NONE)) != WS_OK) return st;
    t->stop.reason = hit.reason;
    t->stop.addr = hit.addr;
    t->back_access = access;
    return WS_OK;
}

/* Backwards to the last hit before here: one replay counts, one copies. */
static ws_status run_reverse_continue(rd_target *t)
{
    if (t->where == RD_START) return go_start(t);
    ws_shadow_bp bps[WS_SHADOW_MAX_BPS];
    ws_shadow_watch ws[WS_SHADOW_MAX_WATCHES];
    ws_shadow_arm a = hits_arm(t, bps, ws);
    uint64_t from = here(t);
    if (t->where == RD_STOP && t->at_call >= 0) from = (t->snap.pos & ~(uint64_t)31) + (uint64_t)t->at_call;
    /* from a step's snapshot nothing of its warp-instruction has happened:
     * not the accesses of the lanes before the thread's either (before
     * 2026-11-27 reverse-continue reported such a lane's store, which
     * memory there did not hold yet) */
    a.before = before_instruction(t) ? t->snap.pos & ~(uint64_t)31 : from;
    /* ... and after gdb's step of a lane over its watched access, the
     * later lanes of that instruction have not made theirs */
    if (t->pending && t->pending_after + 1 < a.before) a.before = t->pending_after + 1;
    /* gdb stepped a hit lane back off its breakpoint: the step went
     * before the whole warp-instruction, but the lanes before that one
     * there have still to be reported (the thread gdb reverse-finishes
     * may be one; it ran off the frame start when another warp's lane
     * was stepped back first) */
    if (t->back_pending && t->back_before > a.before) a.before = t->back_before;
    t->back_pending = 0;
    ws_shadow_result res;
    ws_status st = replay(t, &a, &res);
    if (st) return st;
    if (!res.nbefore) return go_start(t);
    a = hits_arm(t, bps, ws);
    a.after = res.last_before - 1;
    a.k = 1;
    if ((st = replay(t, &a, &res)) != WS_OK) return st;
    if (!res.taken) return rd_fail(t, WS_ERR_INTERNAL, "replay diverged: the hit at position 0x%llx did not come again",
                                   (unsigned long long)a.after + 1);
    ws_shadow_thread was = t->focus;
    int had_focus = t->have_focus;
    st = go_snapshot(t, WS_GDB_R_NONE);
    if (!st && had_focus) focus_lane(t, &was, 1);
    hit_reason(t);
    /* a breakpoint's hit, as after continue: gdb steps the lane off it
     * before it goes forwards, and the lanes after it at this
     * warp-instruction still come (the step passes them all) */
    t->at_hit = !st && !t->snap.watch;
    if (!st && t->snap.watch) st = past_access(t, from, &a);
    return st;
}

/* gdb reads the library list only when a stop says it changed: the first
 * resume reports the capture's modules (gdb loads their symbols, resolves
 * pending breakpoints and resumes again) before anything is replayed. */
static int tell_libraries(rd_target *t)
{
    if (t->libs_told) return 0;
    t->libs_told = 1;
    set_stop(t, t->where == RD_STOP ? rd_tid_of_lane(t, t->snap.lane) : rd_pseudo_tid(t), WS_GDB_R_NONE);
    t->stop.kind = WS_GDB_STOP_LIBRARY;
    return 1;
}

ws_status rd_resume(void *tp, const ws_gdb_action *acts, size_t n)
{
    rd_target *t = tp;
    t->have_stop = 0;
    t->back_access = t->back_watch_pos = 0;
    t->back_pending = 0;
    if (tell_libraries(t)) return WS_OK;
    int others = 0;
    for (size_t i = 0; i < n; i++) others |= acts[i].op == 'c';
    for (size_t i = 0; i < n; i++)
        if (acts[i].op == 's') return run_step(t, acts[i].tid, acts[i].sig, others);
    return run_continue(t);
}

ws_status rd_reverse(void *tp, char op, uint32_t tid)
{
    rd_target *t = tp;
    t->have_stop = 0;
    t->pending = 0;
    if (tell_libraries(t)) return WS_OK;
    if (op != 's') t->back_access = t->back_watch_pos = 0;
    return op == 's' ? run_reverse_step(t, tid) : run_reverse_continue(t);
}

ws_status rd_interrupt(void *tp, uint32_t tid)
{
    (void)tid;
    rd_target *t = tp;
    if (!t->have_stop) set_stop(t, t->where == RD_STOP ? rd_tid_of_lane(t, t->snap.lane) : rd_pseudo_tid(t), WS_GDB_R_NONE);
    return WS_OK;
}

ws_status rd_wait(void *tp, int timeout_ms, ws_gdb_stop *stop)
{
    (void)timeout_ms;
    rd_target *t = tp;
    if (!t->have_stop) return WS_ERR_TIMEOUT; /* every resume completes before it returns */
    *stop = t->stop;
    t->have_stop = 0;
    return WS_OK;
}

const ws_gdb_target_ops rd_ops = {
    rd_threads, rd_read_reg, rd_write_reg, rd_read_mem, rd_write_mem, rd_breakpoint, rd_resume, rd_interrupt, rd_wait,
    rd_libraries, rd_file, rd_monitor, rd_detach, rd_error, 0, NULL, rd_thread_alive, NULL, rd_reverse,
    NULL /* threads are lanes: no focus */, 0 /* no range stepping: gdb's 'r' arrives as 's' */,
    NULL /* no watchpoints */,
};

static void discard_printf(void *user, uint64_t launch_id, ws_dim3 block, ws_dim3 thread, const char *text, size_t len)
{
    (void)user, (void)launch_id, (void)block, (void)thread, (void)text, (void)len;
}

ws_status rd_init(rd_target *t, ws_replay *r)
{
    memset(t, 0, sizeof *t);
    t->r = r;
    t->at_call = -1;
    ws_device *dev = ws_replay_device(r);
    if (!dev) return rd_fail(t, WS_ERR_INVALID_ARG, "the replay has no device");
    ws_status st = ws_device_config(dev, &t->cfg);
    ws_debug_config dc = { WS_DBG_TOPO_BROADCAST, 1 };
    if (!st && (st = ws_debug_attach(dev, &dc, &t->dbg)) != WS_OK)
        return rd_fail(t, st, "cannot attach the debug hardware: %s", ws_last_error(dev));
    if (st) return rd_fail(t, st, "reading the replay's device configuration");
    ws_debug_set_observe_only(t->dbg, 1); /* this thread runs the device: nothing may wait for a tool */
    /* Every stop replays the frame: its kernels' printf would come again
     * at each (`warpscope replay FILE` prints it once). */
    if ((st = ws_set_printf_handler(dev, discard_printf, NULL)) != WS_OK)
        return rd_fail(t, st, "cannot silence the replays' printf: %s", ws_last_error(dev));
    ws_replay_same_launch_ids(r); /* $launch is the same in every replay */
    if ((st = rd_list_modules(t)) != WS_OK) return st;
    /* the id of the frame start: that of the thread stepi goes to from it
     * (one replay, the same in every replay) */
    ws_shadow_arm a = thread_arm(&(ws_shadow_thread){ .launch = 1 });
    a.k = 1;
    ws_shadow_result res;
    const ws_shadow_state *first = NULL;
    if (replay(t, &a, &res) == WS_OK && res.taken && ws_debug_shadow_state(t->dbg, &first) == WS_OK)
        t->start_tid = ((first->core * t->cfg.warps_per_core + first->warp) * first->lanes + first->lane) + 2;
    /* ... which meets the frame's faults, as every replay does */
    const ws_shadow_fault *faults = NULL;
    size_t nfaults = 0;
    if (ws_debug_shadow_faults(t->dbg, &faults, &nfaults) == WS_OK)
        for (size_t i = 0; i < nfaults; i++) t->faults[t->nfaults++].f = faults[i];
    t->replays = t->replays_identical = 0; /* monitor position counts gdb's replays */
    t->replay_s = 0;
    t->stops_early[0] = 0;
    t->err[0] = 0;
    st = go_start(t);
    t->have_stop = 0;
    return st;
}

void rd_fini(rd_target *t)
{
    if (t->dbg) {
        ws_debug_shadow_disarm(t->dbg);
        ws_debug_detach(t->dbg);
    }
    t->dbg = NULL;
    rd_free_modules(t);
}
