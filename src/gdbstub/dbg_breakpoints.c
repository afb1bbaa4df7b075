/* Breakpoints and watchpoints: Z0 writes ebreak / c.ebreak into code over
 * the system bus and restores the original bytes on removal; Z1..Z4 set
 * the same Sdtrig mcontrol trigger on every core (a warp may run on any
 * core). */
#include "gdbstub/target_dbg.h"
#include <string.h>

#define MC_TYPE2   (2u << 28)
#define MC_DMODE   (1u << 27)
#define MC_HIT     (1u << 20)
#define MC_ACTION_DEBUG (1u << 12)
#define MC_M       (1u << 6)
#define MC_U       (1u << 3)
#define MC_EXECUTE (1u << 2)
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

static ws_status set_trigger(ws_gdb_dbg *t, uint32_t core, int idx, uint32_t tdata1, uint32_t addr)
{
    uint32_t hart = core * t->lanes_per_core; /* trigger CSRs belong to the core */
    uint32_t sel = (uint32_t)idx, back = 0, zero = 0;
    ws_status st = ws_gdb_reg_access(t, hart, WS_REGNO_CSR(WS_CSR_TSELECT), &sel, 1);
    if (!st) st = ws_gdb_reg_access(t, hart, WS_REGNO_CSR(WS_CSR_TSELECT), &back, 0);
    if (!st && back != sel) return ws_gdb_fail(t, WS_ERR_UNSUPPORTED, "core %u has no trigger %d", core, idx);
    /* tdata1 off first, so a half-written trigger never fires */
    if (!st) st = ws_gdb_reg_access(t, hart, WS_REGNO_CSR(WS_CSR_TDATA1), &zero, 1);
    if (!st && tdata1) st = ws_gdb_reg_access(t, hart, WS_REGNO_CSR(WS_CSR_TDATA2), &addr, 1);
    if (!st && tdata1) st = ws_gdb_reg_access(t, hart, WS_REGNO_CSR(WS_CSR_TDATA1), &tdata1, 1);
    return st;
}

static int find(ws_gdb_dbg *t, int type, uint32_t addr, uint32_t kind)
{
    for (int i = 0; i < WS_GDB_MAX_BP; i++)
        if (t->bps[i].used && t->bps[i].type == type && t->bps[i].addr == addr && t->bps[i].kind == kind)
            return i;
    return -1;
}

static int free_trigger(ws_gdb_dbg *t)
{
    for (int idx = 0; idx < WS_GDB_MAX_TRIG; idx++) {
        int taken = 0;
        for (int i = 0; i < WS_GDB_MAX_BP; i++)
            taken |= t->bps[i].used && t->bps[i].type != WS_GDB_BP_SW && t->bps[i].trig == idx;
        if (!taken) return idx;
    }
    return -1;
}

ws_status ws_gdb_dbg_breakpoint(void *tp, int type, uint32_t addr, uint32_t kind, int insert)
{
    ws_gdb_dbg *t = tp;
    int i = find(t, type, addr, kind);
    ws_status st = WS_OK;
    if (!insert) {
        if (i < 0) return ws_gdb_fail(t, WS_ERR_NOT_FOUND, "no breakpoint at 0x%08x", addr);
        ws_gdb_bp *b = &t->bps[i];
        if (type == WS_GDB_BP_SW) st = ws_gdb_mem_access(t, UINT32_MAX, addr, b->orig, kind, 1);
        else
            for (uint32_t c = 0; c < t->cfg.cores && !st; c++) st = set_trigger(t, c, b->trig, 0, 0);
        b->used = 0;
        return st;
    }
    if (i >= 0) return WS_OK; /* gdb may insert twice */
    for (i = 0; i < WS_GDB_MAX_BP && t->bps[i].used; i++) {}
    if (i == WS_GDB_MAX_BP) return ws_gdb_fail(t, WS_ERR_OUT_OF_MEMORY, "too many breakpoints");
    ws_gdb_bp *b = &t->bps[i];
    memset(b, 0, sizeof *b);
    b->type = type;
    b->addr = addr;
    b->kind = kind;
    if (type == WS_GDB_BP_SW) {
        static const uint8_t ebreak[4] = { 0x73, 0x00, 0x10, 0x00 }, c_ebreak[2] = { 0x02, 0x90 };
        if (kind != 2 && kind != 4) return ws_gdb_fail(t, WS_ERR_INVALID_ARG, "breakpoint kind %u", kind);
        st = ws_gdb_mem_access(t, UINT32_MAX, addr, b->orig, kind, 0);
        if (!st) st = ws_gdb_mem_access(t, UINT32_MAX, addr, (uint8_t *)(kind == 2 ? c_ebreak : ebreak), kind, 1);
        if (!st) b->used = 1;
        return st;
    }
    b->trig = free_trigger(t);
    if (b->trig < 0) return ws_gdb_fail(t, WS_ERR_OUT_OF_MEMORY, "all %d triggers are in use", WS_GDB_MAX_TRIG);
    uint32_t td1 = MC_TYPE2 | MC_DMODE | MC_ACTION_DEBUG | MC_M | MC_U;
    if (type == WS_GDB_BP_HW) td1 |= MC_EXECUTE;
    else td1 |= size_bits(kind) | (type == WS_GDB_WP_READ ? MC_LOAD : type == WS_GDB_WP_WRITE ? MC_STORE
                                                                     : MC_LOAD | MC_STORE);
    for (uint32_t c = 0; c < t->cfg.cores && !st; c++) st = set_trigger(t, c, b->trig, td1, addr);
    if (st) { /* leave no core half-armed */
        for (uint32_t c = 0; c < t->cfg.cores; c++) set_trigger(t, c, b->trig, 0, 0);
        return st;
    }
    b->used = 1;
    return WS_OK;
}

void ws_gdb_trigger_reason(ws_gdb_dbg *t, uint32_t hart, uint32_t pc, ws_gdb_stop *st)
{
    uint32_t core_hart = hart / t->lanes_per_core * t->lanes_per_core;
    for (int i = 0; i < WS_GDB_MAX_BP; i++) {
        ws_gdb_bp *b = &t->bps[i];
        if (!b->used || b->type == WS_GDB_BP_SW) continue;
        uint32_t sel = (uint32_t)b->trig, td1 = 0;
        if (ws_gdb_reg_access(t, core_hart, WS_REGNO_CSR(WS_CSR_TSELECT), &sel, 1) ||
            ws_gdb_reg_access(t, core_hart, WS_REGNO_CSR(WS_CSR_TDATA1), &td1, 0))
            continue;
        int hit = (td1 & MC_HIT) != 0;
        if (!hit && !(b->type == WS_GDB_BP_HW && b->addr == pc)) continue;
        if (hit) { /* hit is sticky: clear it for the next stop */
            td1 &= ~MC_HIT;
            ws_gdb_reg_access(t, core_hart, WS_REGNO_CSR(WS_CSR_TDATA1), &td1, 1);
        }
        st->addr = b->addr;
        st->reason = b->type == WS_GDB_BP_HW ? WS_GDB_R_HWBREAK : b->type == WS_GDB_WP_WRITE ? WS_GDB_R_WATCH
                   : b->type == WS_GDB_WP_READ ? WS_GDB_R_RWATCH : WS_GDB_R_AWATCH;
        return;
    }
    st->reason = WS_GDB_R_HWBREAK;
}
