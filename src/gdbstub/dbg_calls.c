/* Functions gdb calls on a lane (`call f(3)`, `print f(3)`), and gdb
 * leaving while one is under way.
 *
 * gdb sets a call up by writing the lane's registers (arguments, sp, ra =
 * a return address on the lane's stack, pc = the function) and resuming;
 * when the function returns to that address gdb writes back the registers
 * it saved. A call interrupted (a breakpoint in the function, a fault,
 * Ctrl-C) leaves gdb's dummy frame on the lane: if gdb then detaches, the
 * lane would return to its stack and fault (an instruction access fault
 * at the dummy address), and the launch would end with an error the
 * program never made. The server keeps the registers each such lane had
 * before gdb's first write and, at detach, puts them back: the lane runs
 * on from the line it was called from, as if gdb had never called. A
 * fault the lane met in the call (at detach, or when gdb unwinds the
 * call itself: `set unwindonsignal on`) is the call's: the device is told
 * to forget it, else resuming the warp would end the launch with it. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "gdbstub/target_dbg.h"
#include "gdbstub/tdesc.h"
#include "warpscope/abi.h"

enum { CALL_NREGS = 66 }; /* x1..x31, pc, f0..f31, fcsr */

struct ws_gdb_call {
    uint32_t hart;
    uint64_t launch_id;
    int in_call;          /* 0: gdb wrote registers (no call seen yet); 1: a call runs */
    uint32_t v[CALL_NREGS];
};

static uint32_t call_reg(int i) /* the snapshot's i-th register, gdb's number */
{
    if (i < 31) return (uint32_t)i + 1;
    if (i == 31) return WS_GDB_REG_PC;
    if (i < 64) return WS_GDB_REG_F0 + (uint32_t)(i - 32);
    return WS_GDB_REG_FCSR;
}

static struct ws_gdb_call *find(ws_gdb_dbg *t, uint32_t hart)
{
    for (size_t i = 0; i < t->ncalls; i++)
        if (t->calls[i].hart == hart) return &t->calls[i];
    return NULL;
}

static void drop(ws_gdb_dbg *t, struct ws_gdb_call *c)
{
    *c = t->calls[--t->ncalls];
}

/* The lane is back where gdb called from: a fault it met in the call was
 * the call's, not the program's, and must not end the launch when the
 * warp resumes (ws_debug_fault_discard; none: nothing to do). */
static void forget_fault(ws_gdb_dbg *t, uint32_t hart)
{
    if (ws_debug_fault_discard(t->dbg, hart) == WS_OK && t->have_fault && t->fault.hart == hart) t->have_fault = 0;
}

void ws_gdb_call_note_write(ws_gdb_dbg *t, const ws_dbg_lane *l, uint32_t r, uint32_t v)
{
    struct ws_gdb_call *c = find(t, l->hart);
    if (c && c->launch_id != l->launch_id) drop(t, c), c = NULL; /* another launch's lane there */
    if (c) {
        /* gdb ends the outermost call it made: it writes back the pc it
         * saved (a call made inside it writes back a pc in the function) */
        if (c->in_call && r == WS_GDB_REG_PC && v == c->v[31]) {
            forget_fault(t, c->hart); /* gdb unwound a call that faulted (unwindonsignal) */
            drop(t, c);
        }
        return;
    }
    if (t->ncalls == t->calls_cap) {
        size_t cap = t->calls_cap ? 2 * t->calls_cap : 8;
        struct ws_gdb_call *n = realloc(t->calls, cap * sizeof *n);
        if (!n) return; /* no record: a detach mid-call is not repaired */
        t->calls = n, t->calls_cap = cap;
    }
    c = &t->calls[t->ncalls];
    memset(c, 0, sizeof *c);
    c->hart = l->hart;
    c->launch_id = l->launch_id;
    for (int i = 0; i < CALL_NREGS; i++)
        if (ws_gdb_reg_access(t, l->hart, ws_gdb_dmi_regno(call_reg(i)), &c->v[i], 0) != WS_OK) return;
    t->ncalls++;
}

void ws_gdb_calls_at_resume(ws_gdb_dbg *t)
{
    for (size_t i = 0; i < t->ncalls;) {
        struct ws_gdb_call *c = &t->calls[i];
        if (c->in_call) { i++; continue; }
        uint32_t ra = 0;
        int call = ws_gdb_reg_access(t, c->hart, ws_gdb_dmi_regno(1), &ra, 0) == WS_OK &&
                   ra - WS_STACK_BASE < WS_STACK_END - WS_STACK_BASE;
        int bp = 0;
        for (int b = 0; call && b < WS_GDB_MAX_BP && !bp; b++)
            bp = t->bps[b].used && t->bps[b].addr == ra && t->bps[b].as_sw;
        if (call && bp) c->in_call = 1, i++;
        else drop(t, c); /* the user's own register writes: nothing to undo */
    }
}

int ws_gdb_call_running(const ws_gdb_dbg *t, uint32_t hart)
{
    for (size_t i = 0; i < t->ncalls; i++)
        if (t->calls[i].hart == hart) return t->calls[i].in_call;
    return 0;
}

void ws_gdb_calls_undo(ws_gdb_dbg *t)
{
    if (!t->ncalls || ws_gdb_lanes_refresh(t)) return;
    for (size_t i = 0; i < t->ncalls; i++) { /* non-stop: a lane in a call may run; halt its warp */
        const ws_dbg_lane *l = ws_gdb_lane_of(t, WS_GDB_TID(t->calls[i].hart));
        if (t->calls[i].in_call && l && l->launch_id == t->calls[i].launch_id && !l->halted)
            ws_gdb_hart_ctl(t, l->hart, 0);
    }
    for (int tries = 0; tries < 100; tries++) { /* a halt takes effect at the device's next safe point */
        int running = 0;
        if (ws_gdb_lanes_refresh(t)) return;
        for (size_t i = 0; i < t->ncalls; i++) {
            const ws_dbg_lane *l = ws_gdb_lane_of(t, WS_GDB_TID(t->calls[i].hart));
            running |= t->calls[i].in_call && l && l->launch_id == t->calls[i].launch_id && !l->halted;
        }
        if (!running) break;
        struct timespec ts = { 0, 10 * 1000 * 1000 };
        nanosleep(&ts, NULL);
    }
    for (size_t i = 0; i < t->ncalls; i++) {
        struct ws_gdb_call *c = &t->calls[i];
        const ws_dbg_lane *l = ws_gdb_lane_of(t, WS_GDB_TID(c->hart));
        if (!c->in_call || !l || l->launch_id != c->launch_id || !l->halted) continue;
        for (int r = 0; r < CALL_NREGS; r++)
            ws_gdb_reg_access(t, c->hart, ws_gdb_dmi_regno(call_reg(r)), &c->v[r], 1);
        forget_fault(t, c->hart);
    }
    t->ncalls = 0;
    ws_gdb_lanes_stale(t);
}

void ws_gdb_calls_free(ws_gdb_dbg *t)
{
    free(t->calls);
    t->calls = NULL;
    t->ncalls = t->calls_cap = 0;
}
