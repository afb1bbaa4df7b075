/* DMI building blocks for the gdb target: hart selection, abstract
 * register and memory commands, system bus access, halt/resume. Register
 * layouts follow RISC-V External Debug Support 0.13.2. */
#include "gdbstub/target_dbg.h"
#include <string.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "gdbstub/tdesc.h"

#define DMCONTROL_HALTREQ   (1u << 31)
#define DMCONTROL_RESUMEREQ (1u << 30)
#define DMCONTROL_HASEL     (1u << 26)
#define DMCONTROL_DMACTIVE  1u
#define ABSTRACTCS_BUSY     (1u << 12)
#define ABSTRACTCS_CMDERR   (7u << 8)
#define SBCS_BUSYERROR      (1u << 22)
#define SBCS_READONADDR     (1u << 20)
#define SBCS_ACCESS(n)      ((uint32_t)(n) << 17)
#define SBCS_ERROR          (7u << 12)
#define SPIN_LIMIT          100000   /* busy polls before giving up      */

ws_status ws_gdb_fail(ws_gdb_dbg *t, ws_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->err, sizeof t->err, fmt, ap);
    va_end(ap);
    return st;
}

void ws_gdb_lanes_stale(ws_gdb_dbg *t)
{
    t->lanes_fresh = 0;
    if (t->regs_ok) memset(t->regs_ok, 0, t->cfg.cores * t->cfg.warps_per_core);
}

ws_status ws_gdb_lanes_refresh(ws_gdb_dbg *t)
{
    if (t->lanes_fresh) return WS_OK;
    for (;;) {
        size_t n = 0;
        ws_status st = ws_debug_lanes(t->dbg, t->lanes, t->cap, &n);
        if (st) return ws_gdb_fail(t, st, "listing lanes: %s", ws_debug_error(t->dbg));
        if (n <= t->cap) {
            t->nlanes = n;
            int all_halted = n > 0 && !t->non_stop;
            for (size_t i = 0; i < n && all_halted; i++) all_halted = t->lanes[i].halted;
            t->lanes_fresh = all_halted;
            return WS_OK;
        }
        ws_dbg_lane *l = realloc(t->lanes, n * sizeof *l);
        if (!l) return WS_ERR_OUT_OF_MEMORY;
        t->lanes = l;
        t->cap = n;
    }
}

const ws_dbg_lane *ws_gdb_lane_of(ws_gdb_dbg *t, uint32_t tid)
{
    size_t lo = 0, hi = t->nlanes; /* the snapshot is in hart order */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t m = WS_GDB_TID(t->lanes[mid].hart);
        if (m == tid) return &t->lanes[mid];
        if (m < tid) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

ws_status ws_gdb_select(ws_gdb_dbg *t, uint32_t hart, uint32_t extra, uint32_t *dm)
{
    uint32_t core = hart / t->lanes_per_core;
    ws_status st = ws_debug_module_of_core(t->dbg, core, dm);
    if (st) return ws_gdb_fail(t, st, "no debug module for core %u", core);
    if (extra) ws_gdb_lanes_stale(t); /* a halt or resume request: lanes will change */
    uint32_t v = DMCONTROL_DMACTIVE | (hart & 0x3ffu) << 16 | ((hart >> 10) & 0x3ffu) << 6 | extra;
    st = ws_dmi_write(t->dbg, *dm, WS_DM_DMCONTROL, v);
    return st ? ws_gdb_fail(t, st, "dmcontrol: %s", ws_debug_error(t->dbg)) : WS_OK;
}

/* Run an abstract command on the selected hart and check cmderr. */
static ws_status abstract_cmd(ws_gdb_dbg *t, uint32_t dm, uint32_t cmd)
{
    uint32_t cs = 0;
    ws_status st = ws_dmi_write(t->dbg, dm, WS_DM_COMMAND, cmd);
    for (int i = 0; !st && i < SPIN_LIMIT; i++) {
        st = ws_dmi_read(t->dbg, dm, WS_DM_ABSTRACTCS, &cs);
        if (!(cs & ABSTRACTCS_BUSY)) break;
    }
    if (st) return ws_gdb_fail(t, st, "abstract command: %s", ws_debug_error(t->dbg));
    if (cs & ABSTRACTCS_BUSY) return ws_gdb_fail(t, WS_ERR_TIMEOUT, "abstract command 0x%08x stays busy", cmd);
    uint32_t err = (cs & ABSTRACTCS_CMDERR) >> 8;
    if (err) {
        ws_dmi_write(t->dbg, dm, WS_DM_ABSTRACTCS, ABSTRACTCS_CMDERR); /* W1C */
        return ws_gdb_fail(t, WS_ERR_BAD_ADDRESS, "abstract command 0x%08x failed (cmderr %u)", cmd, err);
    }
    return WS_OK;
}

ws_status ws_gdb_reg_access(ws_gdb_dbg *t, uint32_t hart, uint32_t regno, uint32_t *v, int write)
{
    if (write) ws_gdb_lanes_stale(t); /* a register write changes what the snapshot says */
    uint32_t dm;
    ws_status st = ws_gdb_select(t, hart, 0, &dm);
    if (!st && write) st = ws_dmi_write(t->dbg, dm, WS_DM_DATA0, *v);
    /* Access Register: cmdtype 0, aarsize 2 (32 bits), transfer */
    if (!st) st = abstract_cmd(t, dm, 2u << 20 | 1u << 17 | (write ? 1u << 16 : 0) | regno);
    if (!st && !write) st = ws_dmi_read(t->dbg, dm, WS_DM_DATA0, v);
    return st;
}

/* Access Memory on a hart: the lane's own view (its stack, its block's
 * shared memory). One byte per command keeps alignment out of the way. */
static ws_status hart_mem(ws_gdb_dbg *t, uint32_t hart, uint32_t addr, uint8_t *buf, size_t len, int write)
{
    uint32_t dm;
    ws_status st = ws_gdb_select(t, hart, 0, &dm);
    for (size_t i = 0; !st && i < len; i++) {
        uint32_t v = buf[i];
        st = ws_dmi_write(t->dbg, dm, WS_DM_DATA1, addr + (uint32_t)i);
        if (!st && write) st = ws_dmi_write(t->dbg, dm, WS_DM_DATA0, v);
        if (!st) st = abstract_cmd(t, dm, 2u << 24 | 0u << 20 | (write ? 1u << 16 : 0));
        if (!st && !write) st = ws_dmi_read(t->dbg, dm, WS_DM_DATA0, &v);
        if (!st) buf[i] = (uint8_t)v;
    }
    return st;
}

/* System bus access: global memory, as any bus master sees it. Words
 * where aligned, halfwords where 2-aligned, bytes at the edges: each bus
 * access is one write the warps see whole, so a 2-byte breakpoint (c.ebreak,
 * or the original half it restores) is never half-written while warps run
 * (a torn first byte over a 4-byte instruction decodes as another
 * instruction, e.g. c.lwsp). */
static ws_status sba_mem(ws_gdb_dbg *t, uint32_t addr, uint8_t *buf, size_t len, int write)
{
    uint32_t dm = 0, cs = 0;
    ws_status st = WS_OK;
    for (size_t i = 0; !st && i < len;) {
        uint32_t a = addr + (uint32_t)i;
        uint32_t size = !(a & 3) && len - i >= 4 ? 4 : !(a & 1) && len - i >= 2 ? 2 : 1;
        uint32_t v = 0;
        for (uint32_t k = 0; k < size; k++) v |= (uint32_t)buf[i + k] << 8 * k;
        st = ws_dmi_write(t->dbg, dm, WS_DM_SBCS,
                          SBCS_BUSYERROR | SBCS_ERROR | SBCS_ACCESS(size / 2) | (write ? 0 : SBCS_READONADDR));
        if (!st) st = ws_dmi_write(t->dbg, dm, WS_DM_SBADDRESS0, a);
        if (!st && write) st = ws_dmi_write(t->dbg, dm, WS_DM_SBDATA0, v);
        if (!st && !write) st = ws_dmi_read(t->dbg, dm, WS_DM_SBDATA0, &v);
        if (!st) st = ws_dmi_read(t->dbg, dm, WS_DM_SBCS, &cs);
        if (st) return ws_gdb_fail(t, st, "system bus: %s", ws_debug_error(t->dbg));
        if (cs & (SBCS_ERROR | SBCS_BUSYERROR)) {
            ws_dmi_write(t->dbg, dm, WS_DM_SBCS, SBCS_BUSYERROR | SBCS_ERROR);
            return ws_gdb_fail(t, WS_ERR_BAD_ADDRESS, "system bus error %u at 0x%08x", (cs >> 12) & 7, a);
        }
        if (!write)
            for (uint32_t k = 0; k < size; k++) buf[i + k] = (uint8_t)(v >> 8 * k);
        i += size;
    }
    return WS_OK;
}

ws_status ws_gdb_mem_access(ws_gdb_dbg *t, uint32_t hart, uint32_t addr, uint8_t *buf, size_t len,
                            int write)
{
    /* Lane stacks (0xC...) and the shared window (0xD...) are per lane /
     * per block: they mean something only through a halted lane. */
    if (addr >= 0xC0000000u && addr < 0xE0000000u) {
        if (hart == UINT32_MAX)
            return ws_gdb_fail(t, WS_ERR_BAD_ADDRESS, "0x%08x is lane-private memory: select a lane thread", addr);
        return hart_mem(t, hart, addr, buf, len, write);
    }
    return sba_mem(t, addr, buf, len, write);
}

ws_status ws_gdb_warps_resume(ws_gdb_dbg *t, const uint8_t *sel)
{
    uint32_t ndm = 0, nwin = (t->nharts + 31) / 32, nwarps = t->nharts / t->cfg.lanes_per_warp;
    ws_status st = ws_debug_module_count(t->dbg, &ndm);
    for (uint32_t m = 0; !st && m < ndm; m++) {
        uint32_t first = UINT32_MAX, dm = 0;
        for (uint32_t w = 0; w < nwarps; w++) {
            uint32_t hart = w * t->cfg.lanes_per_warp;
            if (!sel[w] || ws_debug_module_of_core(t->dbg, hart / t->lanes_per_core, &dm) || dm != m) continue;
            if (first == UINT32_MAX) first = hart;
        }
        if (first == UINT32_MAX) continue;
        for (uint32_t win = 0; !st && win < nwin; win++) { /* the whole mask: no bit left from before */
            uint32_t bits = 0;
            for (uint32_t b = 0; b < 32 && win * 32 + b < t->nharts; b++) {
                uint32_t hart = win * 32 + b, w = hart / t->cfg.lanes_per_warp;
                if (hart % t->cfg.lanes_per_warp || !sel[w] ||
                    ws_debug_module_of_core(t->dbg, hart / t->lanes_per_core, &dm) || dm != m)
                    continue;
                bits |= 1u << b;
            }
            st = ws_dmi_write(t->dbg, m, WS_DM_HAWINDOWSEL, win);
            if (!st) st = ws_dmi_write(t->dbg, m, WS_DM_HAWINDOW, bits);
        }
        if (!st) st = ws_gdb_select(t, first, DMCONTROL_HASEL | DMCONTROL_RESUMEREQ, &dm);
        if (!st) st = ws_gdb_select(t, first, 0, &dm); /* hasel and the request bit off again */
        if (st) return ws_gdb_fail(t, st, "resuming warps: %s", ws_debug_error(t->dbg));
    }
    return st;
}

ws_status ws_gdb_hart_ctl(ws_gdb_dbg *t, uint32_t hart, int resume)
{
    uint32_t dm;
    ws_status st = ws_gdb_select(t, hart, resume ? DMCONTROL_RESUMEREQ : DMCONTROL_HALTREQ, &dm);
    if (!st) st = ws_gdb_select(t, hart, 0, &dm); /* drop the request bit again */
    return st;
}

uint32_t ws_gdb_dmi_regno(uint32_t r)
{
    static const uint32_t simt[] = { WS_CSR_CTAID_X, WS_CSR_CTAID_Y, WS_CSR_CTAID_Z, WS_CSR_TID_X,
                                     WS_CSR_TID_Y, WS_CSR_TID_Z, WS_CSR_CORE_ID, WS_CSR_WARP_ID,
                                     WS_CSR_LANE_ID, WS_CSR_LAUNCH_ID,
                                     /* the graphics registers: the device's stage-checked views
                                        (debug.h), not the system-value CSRs, whose meaning
                                        changes with the stage */
                                     WS_REGNO_GFX_PIXEL_X, WS_REGNO_GFX_PIXEL_Y, WS_REGNO_GFX_FLAGS,
                                     WS_REGNO_GFX_PRIMITIVE, WS_REGNO_GFX_DRAW, WS_REGNO_GFX_VERTEX,
                                     WS_REGNO_GFX_INSTANCE };
    if (r < 32) return WS_REGNO_GPR(r);
    if (r == WS_GDB_REG_PC || r == WS_GDB_REG_DPC) return WS_REGNO_CSR(WS_CSR_DPC);
    if (r >= WS_GDB_REG_F0 && r < WS_GDB_REG_F0 + 32) return WS_REGNO_FPR(r - WS_GDB_REG_F0);
    if (r >= WS_GDB_REG_FFLAGS && r <= WS_GDB_REG_FCSR) return WS_REGNO_CSR(r - WS_GDB_REG_FFLAGS + 1);
    if (r == WS_GDB_REG_DCSR) return WS_REGNO_CSR(WS_CSR_DCSR);
    if (r >= WS_GDB_REG_BLOCK_X && r < WS_GDB_NUM_REGS) return WS_REGNO_CSR(simt[r - WS_GDB_REG_BLOCK_X]);
    return UINT32_MAX;
}
