/* Breakpoints and watchpoints: Z0 writes ebreak / c.ebreak into code over
 * the system bus and restores the original bytes on removal; Z1..Z4 set
 * the same Sdtrig mcontrol trigger on every core (a warp may run on any
 * core). */
#include "gdbstub/target_dbg.h"
#include <stdlib.h>
#include <string.h>
#include "device/debug/agent_expr.h"

#define MC_TYPE2   (2u << 28)
#define MC_DMODE   (1u << 27)
#define MC_ACTION_DEBUG (1u << 12)
#define MC_M       (1u << 6)
#define MC_U       (1u << 3)
#define MC_EXECUTE (1u << 2)
#define MC_MATCH_NAPOT (1u << 7) /* match = 1: tdata2 = base | (size/2 - 1) */
#define MC_MATCH_GE (2u << 7)    /* match = 2: addresses >= tdata2          */
#define MC_MATCH_LT (3u << 7)    /* match = 3: addresses < tdata2           */
#define MC_CHAIN   (1u << 11)    /* fires only where the next trigger matches too */
#define MC_STORE   (1u << 1)
#define MC_LOAD    1u

static uint32_t size_bits(uint32_t len)
{
    switch (len) { /* mcontrol sizehi:sizelo */
    case 1: return 1u << 16;
    case 2: return 2u << 16;
    case 4: return 3u << 16;
    case 8: return 1u << 21 | 1u << 16;
    default: return 0; /* any size */
    }
}

static ws_status set_trigger3(ws_gdb_dbg *t, uint32_t core, int idx, uint32_t tdata1, uint32_t addr,
                              uint32_t tdata3)
{
    uint32_t hart = core * t->lanes_per_core; /* trigger CSRs belong to the core */
    uint32_t sel = (uint32_t)idx, back = 0, zero = 0;
    ws_status st = ws_gdb_reg_access(t, hart, WS_REGNO_CSR(WS_CSR_TSELECT), &sel, 1);
    if (!st) st = ws_gdb_reg_access(t, hart, WS_REGNO_CSR(WS_CSR_TSELECT), &back, 0);
    if (!st && back != sel) return ws_gdb_fail(t, WS_ERR_UNSUPPORTED, "core %u has no trigger %d", core, idx);
    /* tdata1 off first, so a half-written trigger never fires */
    if (!st) st = ws_gdb_reg_access(t, hart, WS_REGNO_CSR(WS_CSR_TDATA1), &zero, 1);
    if (!st && tdata1) st = ws_gdb_reg_access(t, hart, WS_REGNO_CSR(WS_CSR_TDATA2), &addr, 1);
    if (!st) st = ws_gdb_reg_access(t, hart, WS_REGNO_CSR(WS_CSR_TDATA3), &tdata3, 1);
    if (!st && tdata1) st = ws_gdb_reg_access(t, hart, WS_REGNO_CSR(WS_CSR_TDATA1), &tdata1, 1);
    return st;
}

static ws_status set_trigger(ws_gdb_dbg *t, uint32_t core, int idx, uint32_t tdata1, uint32_t addr)
{
    return set_trigger3(t, core, idx, tdata1, addr, 0);
}

void ws_gdb_dbg_selected(void *tp, uint32_t tid)
{
    ((ws_gdb_dbg *)tp)->sel_tid = tid;
}

static int shared_wp(int type, uint32_t addr)
{
    return type >= WS_GDB_WP_WRITE && addr >= WS_SHARED_BASE && addr < WS_SHARED_END;
}

void ws_gdb_shared_wp_purge(ws_gdb_dbg *t, int all)
{
    for (int i = 0; i < WS_GDB_MAX_SHARED_WP; i++)
        if (all || !t->swp[i].inserted) t->swp[i].used = 0;
}

/* A watchpoint on shared memory watches the copy of the block gdb was
 * looking at when it set the watchpoint (its selected thread's, else the
 * last stop's): shared addresses repeat in every block. gdb puts its
 * watchpoints back at every resume, from whatever thread it is on then,
 * so the block chosen at the first insertion is kept for the ones after. */
static uint32_t block_select(ws_gdb_dbg *t, int type, uint32_t addr, uint32_t kind)
{
    if (!shared_wp(type, addr)) return 0;
    ws_gdb_shared_wp *slot = NULL;
    for (int i = 0; i < WS_GDB_MAX_SHARED_WP; i++) {
        ws_gdb_shared_wp *w = &t->swp[i];
        if (!w->used) {
            if (!slot) slot = w;
        } else if (!w->inserted && w->type == type && w->addr == addr && w->kind == kind) {
            w->inserted = 1;
            return w->tdata3;
        }
    }
    ws_dbg_launch L;
    const ws_dbg_lane *l = t->sel_tid ? ws_gdb_lane_of(t, t->sel_tid) : NULL;
    if (!l && t->focus_tid) l = ws_gdb_lane_of(t, t->focus_tid);
    uint32_t td3 = 0;
    if (l && ws_debug_launch(t->dbg, &L) == WS_OK) {
        uint64_t linear = l->block.x + (uint64_t)L.grid.x * (l->block.y + (uint64_t)L.grid.y * l->block.z);
        td3 = linear < WS_TDATA3_BLOCK ? WS_TDATA3_BLOCK | (uint32_t)linear : 0;
    }
    if (slot) *slot = (ws_gdb_shared_wp){ 1, 1, type, addr, kind, td3 };
    return td3;
}

/* gdb took a shared-memory watchpoint out: remember its block until the
 * next continue, in case gdb puts it back. */
static void shared_wp_removed(ws_gdb_dbg *t, int type, uint32_t addr, uint32_t kind)
{
    if (!shared_wp(type, addr)) return;
    for (int i = 0; i < WS_GDB_MAX_SHARED_WP; i++) {
        ws_gdb_shared_wp *w = &t->swp[i];
        if (w->used && w->inserted && w->type == type && w->addr == addr && w->kind == kind) w->inserted = 0;
    }
}

static int dmi_regno(void *user, uint32_t r, uint32_t *out)
{
    (void)user;
    *out = ws_gdb_dmi_regno(r);
    return *out == UINT32_MAX;
}

/* Arm trigger idx on every core as an execute trigger at addr with the
 * conditions in its condition unit (addr 0: disarm and drop them). The
 * condition goes in before the trigger is armed, so it never fires
 * unconditioned. */
static ws_status cond_trigger_set(ws_gdb_dbg *t, int idx, uint32_t addr, const ws_gdb_cond *conds, size_t n)
{
    ws_dbg_cond dc[WS_GDB_MAX_CONDS];
    uint8_t code[512];
    size_t used = 0;
    if (n > WS_GDB_MAX_CONDS) return WS_ERR_UNSUPPORTED;
    for (size_t i = 0; i < n; i++) {
        if (conds[i].len > sizeof code - used) return WS_ERR_UNSUPPORTED;
        memcpy(code + used, conds[i].code, conds[i].len);
        if (ws_ax_map_regs(code + used, conds[i].len, dmi_regno, NULL)) return WS_ERR_UNSUPPORTED;
        dc[i].code = code + used;
        dc[i].len = conds[i].len;
        used += conds[i].len;
    }
    ws_status st = WS_OK;
    if (!addr) st = ws_gdb_exec_trigger(t, idx, 0);
    for (uint32_t c = 0; c < t->cfg.cores && !st; c++) st = ws_debug_trigger_condition(t->dbg, c, (uint32_t)idx, dc, n);
    if (!st && addr) st = ws_gdb_exec_trigger(t, idx, addr);
    if (st && addr) { /* leave no core half-armed */
        ws_gdb_exec_trigger(t, idx, 0);
        for (uint32_t c = 0; c < t->cfg.cores; c++) ws_debug_trigger_condition(t->dbg, c, (uint32_t)idx, NULL, 0);
    }
    return st;
}

static int find(ws_gdb_dbg *t, int type, uint32_t addr, uint32_t kind)
{
    for (int i = 0; i < WS_GDB_MAX_BP; i++)
        if (t->bps[i].used && t->bps[i].type == type && t->bps[i].addr == addr && t->bps[i].kind == kind)
            return i;
    return -1;
}

static int trigger_taken(const ws_gdb_dbg *t, int idx)
{
    int taken = idx == t->launch_trig;
    for (int i = 0; i < WS_GDB_MAX_BP; i++) taken |= ws_gdb_bp_holds_trigger(&t->bps[i], idx);
    return taken;
}

/* The first free trigger (n = 1), or the first of two free neighbours (n = 2). */
static int free_trigger_n(ws_gdb_dbg *t, int n)
{
    for (int idx = 0; idx + n <= WS_GDB_MAX_TRIG; idx++)
        if (!trigger_taken(t, idx) && (n == 1 || !trigger_taken(t, idx + 1))) return idx;
    return -1;
}

static int free_trigger(ws_gdb_dbg *t) { return free_trigger_n(t, 1); }

static const uint8_t ebreak32[4] = { 0x73, 0x00, 0x10, 0x00 }, c_ebreak[2] = { 0x02, 0x90 };

ws_status ws_gdb_bp_arm(ws_gdb_dbg *t, const ws_gdb_bp *b, int arm)
{
    if (b->cond_trig) return WS_OK; /* a trigger: its skip-after-resume rule steps over it */
    const uint8_t *bytes = arm ? (b->kind == 2 ? c_ebreak : ebreak32) : b->orig;
    return ws_gdb_mem_access(t, UINT32_MAX, b->addr, (uint8_t *)bytes, b->kind, 1);
}

/* Overlap of breakpoint b with [addr, addr+len): byte range in both. */
static int overlap(const ws_gdb_bp *b, uint32_t addr, size_t len, uint32_t *lo, uint32_t *hi)
{
    uint64_t a = b->addr > addr ? b->addr : addr;
    uint64_t e = (uint64_t)b->addr + b->kind < (uint64_t)addr + len ? (uint64_t)b->addr + b->kind : (uint64_t)addr + len;
    if (a >= e) return 0;
    *lo = (uint32_t)a;
    *hi = (uint32_t)e;
    return 1;
}

void ws_gdb_bp_shadow_read(ws_gdb_dbg *t, uint32_t addr, uint8_t *buf, size_t len)
{
    for (int i = 0; i < WS_GDB_MAX_BP; i++) {
        const ws_gdb_bp *b = &t->bps[i];
        uint32_t lo, hi;
        if (!b->used || b->type != WS_GDB_BP_SW || b->cond_trig || !overlap(b, addr, len, &lo, &hi)) continue;
        memcpy(buf + (lo - addr), b->orig + (lo - b->addr), hi - lo);
    }
}

void ws_gdb_bp_shadow_write(ws_gdb_dbg *t, uint32_t addr, uint8_t *buf, size_t len)
{
    for (int i = 0; i < WS_GDB_MAX_BP; i++) {
        ws_gdb_bp *b = &t->bps[i];
        uint32_t lo, hi;
        if (!b->used || b->type != WS_GDB_BP_SW || b->cond_trig || !overlap(b, addr, len, &lo, &hi)) continue;
        memcpy(b->orig + (lo - b->addr), buf + (lo - addr), hi - lo);
        if (b->stepping) continue; /* disarmed while a warp steps over it */
        const uint8_t *trap = b->kind == 2 ? c_ebreak : ebreak32;
        memcpy(buf + (lo - addr), trap + (lo - b->addr), hi - lo);
    }
}

static ws_status set_conds(ws_gdb_dbg *t, ws_gdb_bp *b, const ws_gdb_cond *conds, size_t n)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++) total += conds[i].len;
    free(b->code);
    b->code = NULL;
    b->nconds = 0;
    if (!n) return WS_OK;
    if (!(b->code = malloc(total))) return ws_gdb_fail(t, WS_ERR_OUT_OF_MEMORY, "breakpoint condition");
    total = 0;
    for (size_t i = 0; i < n; i++) {
        memcpy(b->code + total, conds[i].code, conds[i].len);
        b->cond_len[i] = conds[i].len;
        total += conds[i].len;
    }
    b->nconds = n;
    return WS_OK;
}

/* gdb moves a breakpoint it inserted before its module was loaded (held
 * by an execute trigger) into the code at a later stop. It may do so with
 * another kind (it guessed 2 bytes where it could not read the code, and
 * now reads 4): it then never removes the held one, which would halt
 * every pass a second time, and stop a step that lands on the address.
 * The ebreak now in the code replaces it. */
static ws_status drop_held(ws_gdb_dbg *t, uint32_t addr)
{
    ws_status st = WS_OK;
    for (int i = 0; i < WS_GDB_MAX_BP; i++) {
        ws_gdb_bp *b = &t->bps[i];
        if (!b->used || !b->no_code || b->addr != addr) continue;
        for (uint32_t c = 0; c < t->cfg.cores; c++) {
            ws_status s = set_trigger(t, c, b->trig, 0, 0);
            if (!st) st = s;
        }
        free(b->code);
        memset(b, 0, sizeof *b);
    }
    return st;
}

ws_status ws_gdb_dbg_breakpoint(void *tp, int type, uint32_t addr, uint32_t kind, int insert,
                                const ws_gdb_cond *conds, size_t nconds)
{
    ws_gdb_dbg *t = tp;
    /* finish / until / watch scope in a kernel's own frame */
    int exit_stub = type == WS_GDB_BP_SW && addr == WS_RETIRE_ADDR;
    /* gdb's return address for a function it calls (`call f(x)`, `print
     * f(x)`) is on the lane's stack, where no ebreak can be fetched */
    int on_stack = type == WS_GDB_BP_SW && addr - WS_STACK_BASE < WS_STACK_END - WS_STACK_BASE;
    if (exit_stub || on_stack) type = WS_GDB_BP_HW; /* held by an execute trigger, told as a Z0 */
    int i = find(t, type, addr, kind);
    /* A Z0 where no module is loaded yet: gdb given the module's file
     * inserts its breakpoints at link addresses before the program loads
     * the module. An execute trigger holds it (an ebreak has no memory to
     * go into), told as a Z0; gdb moves it into the code at its next stop
     * (it was refused, and gdb said "Cannot access memory"). */
    int no_code = 0;
    if (i < 0 && type == WS_GDB_BP_SW) {
        int held = find(t, WS_GDB_BP_HW, addr, kind);
        uint8_t probe[4];
        if (!insert ? held >= 0 && t->bps[held].no_code
                    : (kind == 2 || kind == 4) && ws_gdb_mem_access(t, UINT32_MAX, addr, probe, kind, 0) != WS_OK) {
            no_code = 1;
            type = WS_GDB_BP_HW;
            i = held;
        }
    }
    ws_status st = WS_OK;
    if (!insert) {
        if (i < 0) return ws_gdb_fail(t, WS_ERR_NOT_FOUND, "no breakpoint at 0x%08x", addr);
        ws_gdb_bp *b = &t->bps[i];
        if (b->cond_trig) {
            st = cond_trigger_set(t, b->trig, 0, NULL, 0);
        } else if (type == WS_GDB_BP_SW) {
            if (!b->stepping) st = ws_gdb_bp_arm(t, b, 0); /* else: not armed now */
        } else {
            for (uint32_t c = 0; c < t->cfg.cores && !st; c++) { /* a chain's tail first */
                if (b->chained) st = set_trigger(t, c, b->trig + 1, 0, 0);
                if (!st) st = set_trigger(t, c, b->trig, 0, 0);
            }
            shared_wp_removed(t, type, addr, kind);
        }
        if (b->exit_stub) t->exit_removed = 1; /* gdb may put it back: its thread stays */
        free(b->code);
        memset(b, 0, sizeof *b);
        return st;
    }
    if (i >= 0) { /* gdb updates a condition */
        ws_gdb_bp *b = &t->bps[i];
        st = set_conds(t, b, conds, nconds);
        /* one the condition unit cannot run fires for every lane, and the
         * server evaluates it on the halted lanes */
        if (!st && b->cond_trig && cond_trigger_set(t, b->trig, b->addr, conds, nconds))
            st = cond_trigger_set(t, b->trig, b->addr, NULL, 0);
        return st;
    }
    for (i = 0; i < WS_GDB_MAX_BP && t->bps[i].used; i++) {}
    if (i == WS_GDB_MAX_BP) return ws_gdb_fail(t, WS_ERR_OUT_OF_MEMORY, "too many breakpoints");
    ws_gdb_bp *b = &t->bps[i];
    memset(b, 0, sizeof *b);
    b->type = type;
    b->addr = addr;
    b->kind = kind;
    /* gdb's step-resume breakpoint, put in from the thread that stepped
     * into the call (target_dbg.c, note_call): at the return address
     * (`next`), or at the end of the callee's prologue (`step`) */
    if (type == WS_GDB_BP_SW && t->call_tid && (!t->sel_tid || t->sel_tid == t->call_tid) &&
        (addr == t->call_ra || (addr > t->call_pc && addr - t->call_pc < WS_GDB_PROLOGUE_MAX)))
        b->owner = t->call_tid;
    if (type == WS_GDB_BP_SW) {
        if (kind != 2 && kind != 4) return ws_gdb_fail(t, WS_ERR_INVALID_ARG, "breakpoint kind %u", kind);
        /* A condition is evaluated in hardware when a trigger is free and
         * the condition unit can run it; else an ebreak stops every warp
         * that passes and the server evaluates it. */
        if (nconds && !t->server_conditions && (b->trig = free_trigger(t)) >= 0 && !cond_trigger_set(t, b->trig, addr, conds, nconds)) {
            st = set_conds(t, b, conds, nconds);
            if (st) {
                cond_trigger_set(t, b->trig, 0, NULL, 0);
                return st;
            }
            b->cond_trig = 1;
            b->used = 1;
            return WS_OK;
        }
        st = ws_gdb_mem_access(t, UINT32_MAX, addr, b->orig, kind, 0);
        if (!st) ws_gdb_bp_shadow_read(t, addr, b->orig, kind); /* under an overlapping one */
        if (!st) st = ws_gdb_bp_arm(t, b, 1);
        if (!st) st = set_conds(t, b, conds, nconds);
        if (!st) b->used = 1;
        if (!st) st = drop_held(t, addr);
        return st;
    }
    /* A watchpoint's range: one byte is an exact match (any access that
     * contains it); an aligned power-of-two range a NAPOT match, so an
     * access to any byte of it fires (the high word of a 64-bit value, a
     * byte inside a watched int). Any other range (a 12-byte struct, a
     * long long at an odd multiple of 4) takes two chained triggers, >=
     * its start and < its end. */
    uint32_t tdata2 = addr, napot = 0;
    int chained = 0;
    if (type >= WS_GDB_WP_WRITE && kind > 1) {
        if (kind & (kind - 1) || addr & (kind - 1)) {
            if ((uint64_t)addr + kind > UINT32_MAX)
                return ws_gdb_fail(t, WS_ERR_UNSUPPORTED, "watchpoint on %u bytes at 0x%08x: past the address space's end",
                                   kind, addr);
            chained = 1;
        } else {
            tdata2 = addr | (kind / 2 - 1);
            napot = MC_MATCH_NAPOT;
        }
    }
    b->trig = free_trigger_n(t, 1 + chained);
    if (b->trig < 0)
        return ws_gdb_fail(t, WS_ERR_OUT_OF_MEMORY, chained ? "no two neighbouring triggers of the %d are free (a watchpoint on %u bytes takes two)"
                                                           : "all %d triggers are in use", WS_GDB_MAX_TRIG, kind);
    uint32_t td1 = MC_TYPE2 | MC_DMODE | MC_ACTION_DEBUG | MC_M | MC_U;
    if (type == WS_GDB_BP_HW) td1 |= MC_EXECUTE;
    else td1 |= (chained ? MC_MATCH_GE | MC_CHAIN : napot | size_bits(napot ? 0 : kind)) |
                (type == WS_GDB_WP_READ ? MC_LOAD : type == WS_GDB_WP_WRITE ? MC_STORE : MC_LOAD | MC_STORE);
    uint32_t td3 = block_select(t, type, addr, kind);
    /* The chain's head first, its tail after (and off in the other
     * order): a head whose tail is off never fires, a tail alone would
     * fire on every address below the end. */
    const uint32_t tail = (td1 & ~(MC_MATCH_GE | MC_CHAIN)) | MC_MATCH_LT;
    for (uint32_t c = 0; c < t->cfg.cores && !st; c++) {
        st = set_trigger3(t, c, b->trig, td1, tdata2, td3);
        if (!st && chained) st = set_trigger3(t, c, b->trig + 1, tail, addr + kind, td3);
    }
    if (!st) st = set_conds(t, b, conds, nconds);
    if (st) { /* leave no core half-armed */
        for (uint32_t c = 0; c < t->cfg.cores; c++) {
            if (chained) set_trigger(t, c, b->trig + 1, 0, 0);
            set_trigger(t, c, b->trig, 0, 0);
        }
        shared_wp_removed(t, type, addr, kind);
        return st;
    }
    b->chained = chained;
    b->exit_stub = exit_stub;
    /* Its thread: the one gdb is on as it first puts it in (gdb reads
     * the stub's memory from the selected thread just before), not the
     * last stop's, which a `thread N` before `finish` or `watch` left
     * behind; kept when gdb puts it back at later resumes from whichever
     * thread it stopped in (a watchpoint's scope outlives them). */
    if (exit_stub && (!t->exit_removed || !t->exit_owner)) t->exit_owner = t->sel_tid ? t->sel_tid : t->focus_tid;
    if (exit_stub) t->exit_removed = 0;
    b->no_code = no_code;
    b->as_sw = exit_stub || on_stack || no_code;
    b->used = 1;
    return WS_OK;
}

ws_status ws_gdb_exec_trigger(ws_gdb_dbg *t, int idx, uint32_t addr)
{
    uint32_t td1 = addr ? MC_TYPE2 | MC_DMODE | MC_ACTION_DEBUG | MC_M | MC_U | MC_EXECUTE : 0;
    ws_status st = WS_OK;
    for (uint32_t c = 0; c < t->cfg.cores && !st; c++) st = set_trigger(t, c, idx, td1, addr);
    return st;
}

ws_gdb_bp *ws_gdb_bp_at(ws_gdb_dbg *t, uint32_t pc)
{
    for (int i = 0; i < WS_GDB_MAX_BP; i++)
        if (t->bps[i].used && t->bps[i].addr == pc && t->bps[i].type <= WS_GDB_BP_HW) return &t->bps[i];
    return NULL;
}

typedef struct lane_ctx {
    ws_gdb_dbg *t;
    uint32_t hart;
} lane_ctx;

static int ax_reg(void *u, uint32_t regno, uint64_t *v)
{
    lane_ctx *c = u;
    uint32_t x;
    if (ws_gdb_dbg_ops.read_reg(c->t, WS_GDB_TID(c->hart), regno, &x)) return -1;
    *v = x;
    return 0;
}

static int ax_mem(void *u, uint32_t addr, uint8_t *buf, size_t n)
{
    lane_ctx *c = u;
    return ws_gdb_mem_access(c->t, c->hart, addr, buf, n, 0) ? -1 : 0;
}

int ws_gdb_bp_cond_true(ws_gdb_dbg *t, const ws_gdb_bp *b, uint32_t hart)
{
    if (!b || !b->nconds) return 1;
    lane_ctx c = { t, hart };
    ws_ax_env env = { &c, ax_reg, ax_mem };
    size_t off = 0;
    for (size_t i = 0; i < b->nconds; i++) {
        int64_t r = 0;
        /* a condition that cannot run here stops, and gdb decides */
        int e = ws_ax_eval(b->code + off, b->cond_len[i], &env, &r);
        if (e || r) return 1;
        off += b->cond_len[i];
    }
    return 0;
}

void ws_gdb_trigger_reason(ws_gdb_dbg *t, uint32_t hart, uint32_t pc, ws_gdb_stop *st)
{
    uint32_t lane = hart, addr = pc, rest = 0, warp = hart / t->cfg.lanes_per_warp;
    if (ws_debug_trigger_hit_lanes(t->dbg, hart, &lane, &addr, &rest) == WS_OK) st->tid = WS_GDB_TID(lane);
    t->wp_rest[warp] = rest;
    t->wp_pc[warp] = pc;
    for (int i = 0; i < WS_GDB_MAX_BP; i++) {
        ws_gdb_bp *b = &t->bps[i];
        if (!ws_gdb_bp_uses_trigger(b)) continue;
        uint32_t len = b->kind ? b->kind : 1;
        if (b->type <= WS_GDB_BP_HW ? b->addr != addr : addr - b->addr >= len) continue;
        st->addr = b->type == WS_GDB_BP_HW ? 0 : addr;
        st->reason = b->as_sw || b->cond_trig ? WS_GDB_R_SWBREAK : b->type == WS_GDB_BP_HW ? WS_GDB_R_HWBREAK : b->type == WS_GDB_WP_WRITE ? WS_GDB_R_WATCH
                   : b->type == WS_GDB_WP_READ ? WS_GDB_R_RWATCH : WS_GDB_R_AWATCH;
        return;
    }
    st->reason = WS_GDB_R_HWBREAK;
}
