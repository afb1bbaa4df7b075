/* Debug modules (RISC-V External Debug Support 0.13.2 register model):
 * hart selection, run control, abstract commands, system bus access, and
 * the mode-switch command port. A module reaches only the cores it serves
 * (its topology); harts on other cores are nonexistent to it. */
#include <errno.h>
#include <string.h>
#include <time.h>
#include "device/debug/debug_internal.h"
#include "device/lane_io.h"
#include "gfx/gfx_device.h"

/* dmcontrol / abstractcs / sbcs fields */
#define DMC_HALTREQ   (1u << 31)
#define DMC_RESUMEREQ (1u << 30)
#define DMC_HASEL     (1u << 26)
#define DMC_ACTIVE    1u
#define ERR_NONE 0
#define ERR_BUSY 1
#define ERR_NOTSUP 2
#define ERR_EXCEPTION 3
#define ERR_HALTRESUME 4
#define SB_READONADDR (1u << 20)
#define SB_ACCESS(v)  (((v) >> 17) & 7u)
#define SB_AUTOINC    (1u << 16)
#define SB_READONDATA (1u << 15)
#define SB_WRITABLE   (SB_READONADDR | (7u << 17) | SB_AUTOINC | SB_READONDATA)
/* Mode-switch frame (docs/debug-hardware.md) */
#define MS_MAGIC 0xD5u
#define MS_RUN  1u
#define MS_HALT 2u
#define MS_STEP 4u

/* A module's reset state: everything cleared but the cores it serves and
 * its hart array mask buffer (emptied); the halt request bits of its
 * harts are cleared too. */
static void dm_reset(ws_debug *d, dbg_dm *m)
{
    for (uint32_t w = m->first_core * d->wpc; w < (m->first_core + m->ncores) * d->wpc && w < d->nwarps; w++)
        d->w[w].haltreq = 0;
    uint32_t fc = m->first_core, nc = m->ncores, *mask = m->hamask;
    memset(mask, 0, (d->nharts + 31) / 32 * sizeof *mask);
    memset(m, 0, sizeof *m);
    m->first_core = fc;
    m->ncores = nc;
    m->hamask = mask;
    if (d->local_harts) m->hartsel = fc * d->wpc * d->lanes; /* local hart 0 */
}

void dbg_dm_init(ws_debug *d)
{
    for (uint32_t i = 0; i < d->ndm; i++) dm_reset(d, &d->dm[i]);
}

static int served(const ws_debug *d, const dbg_dm *m, uint32_t hart)
{
    if (hart >= d->nharts) return 0;
    uint32_t core = hart / d->lanes / d->wpc;
    return core >= m->first_core && core < m->first_core + m->ncores;
}

static int hart_live(ws_debug *d, uint32_t hart)
{
    const ws_warp *w = dbg_warp_of(d, hart / d->lanes);
    return w->active && (w->live >> (hart % d->lanes) & 1);
}

/* Call fn for every selected hart: hartsel, plus the hart array mask when
 * hasel is set. */
#define FOR_SELECTED(d, m, h, body) do {                                           \
        for (uint32_t h = (m)->hartsel, once_ = 1; once_; once_ = 0) { body; }     \
        if ((m)->hasel)                                                            \
            for (uint32_t h = 0; h < (d)->nharts; h++)                             \
                if (((m)->hamask[h / 32] >> (h % 32) & 1) && h != (m)->hartsel) { body; } \
    } while (0)

static void request(ws_debug *d, dbg_dm *m, int req)
{
    FOR_SELECTED(d, m, h, {
        if (!served(d, m, h)) continue;
        dbg_warp *dw = &d->w[h / d->lanes];
        dw->req = (uint8_t)req;
        if (req == REQ_RESUME) dw->resumeack = 0;
    });
    dbg_wake_device_locked(d);
}

/* dmcontrol.haltreq is a bit per hart (spec 0.13.2): a write sets it
 * (haltreq = 1) or clears it (0) for every selected hart. A hart keeps a
 * set bit while it is unavailable, so the lane halts (cause 3) as soon as
 * a launch gives it a thread, before its first instruction: a probe can
 * stop a kernel at its entry. */
static void write_haltreq(ws_debug *d, dbg_dm *m, int set)
{
    if (!set && !d->haltreq_any) return; /* (most writes: nothing to clear) */
    FOR_SELECTED(d, m, h, {
        if (!served(d, m, h)) continue;
        uint32_t *bits = &d->w[h / d->lanes].haltreq;
        if (set) *bits |= 1u << (h % d->lanes);
        else *bits &= ~(1u << (h % d->lanes));
    });
    if (set) d->haltreq_any = 1;
}

static uint32_t dmstatus(ws_debug *d, dbg_dm *m)
{
    int all_halted = 1, any_halted = 0, all_run = 1, any_run = 0, all_unav = 1, any_unav = 0;
    int all_nx = 1, any_nx = 0, all_ack = 1, any_ack = 0;
    FOR_SELECTED(d, m, h, {
        if (!served(d, m, h)) { any_nx = 1; all_halted = all_run = all_unav = all_ack = 0; continue; }
        all_nx = 0;
        const dbg_warp *dw = &d->w[h / d->lanes];
        int ack = dw->resumeack && dw->req != REQ_RESUME;
        any_ack |= ack;
        all_ack &= ack;
        if (!hart_live(d, h)) { any_unav = 1; all_halted = all_run = 0; continue; }
        all_unav = 0;
        if (dw->state == DW_HALTED) { any_halted = 1; all_run = 0; }
        else { any_run = 1; all_halted = 0; }
    });
    return (uint32_t)all_ack << 17 | (uint32_t)any_ack << 16 | (uint32_t)all_nx << 15 |
           (uint32_t)any_nx << 14 | (uint32_t)all_unav << 13 | (uint32_t)any_unav << 12 |
           (uint32_t)all_run << 11 | (uint32_t)any_run << 10 | (uint32_t)all_halted << 9 |
           (uint32_t)any_halted << 8 | 1u << 7 /* authenticated */ | 2u /* version 0.13 */;
}

/* With local_harts, DMI hart numbers of a module are offsets from its
 * first hart (hart0) and run to nlocal. */
static uint32_t hart0(const ws_debug *d, const dbg_dm *m)
{
    return d->local_harts ? m->first_core * d->wpc * d->lanes : 0;
}

static uint32_t nlocal(const ws_debug *d, const dbg_dm *m)
{
    if (!d->local_harts) return d->nharts;
    uint32_t h0 = hart0(d, m), n = m->ncores * d->wpc * d->lanes;
    return h0 >= d->nharts ? 0 : n < d->nharts - h0 ? n : d->nharts - h0;
}

/* The lanes of warp w among the global harts [lo, hi). */
static uint32_t lanes_in(const ws_debug *d, uint64_t w, uint64_t lo, uint64_t hi)
{
    uint64_t first = w * d->lanes, a = lo > first ? lo : first, b = hi < first + d->lanes ? hi : first + d->lanes;
    uint32_t n = (uint32_t)(b - a);
    return (n >= 32 ? UINT32_MAX : (1u << n) - 1) << (a - first);
}

/* Is one of the module's harts [lo, hi) (its numbering) halted? Halting
 * is per warp, so the harts are looked at a warp at a time; a range may
 * start or end inside a warp (warps of 20 lanes: harts 32..63 are lanes
 * of three warps), and a lane holding no thread is unavailable, not
 * halted, as dmstatus says. */
static int any_halted(ws_debug *d, const dbg_dm *m, uint64_t lo, uint64_t hi)
{
    uint32_t h0 = hart0(d, m), cnt = nlocal(d, m);
    if (hi > cnt) hi = cnt;
    if (lo >= hi) return 0;
    for (uint64_t w = (h0 + lo) / d->lanes; w <= (h0 + hi - 1) / d->lanes; w++) {
        const ws_warp *ww = dbg_warp_of(d, (uint32_t)w);
        if (served(d, m, (uint32_t)w * d->lanes) && d->w[w].state == DW_HALTED && ww->active &&
            (ww->live & lanes_in(d, w, h0 + lo, h0 + hi)))
            return 1;
    }
    return 0;
}

/* haltsumN: bit i = some hart in the i-th group of 32^N harts (within the
 * window holding hartsel, in the module's numbering) is halted. */
static uint32_t haltsum(ws_debug *d, dbg_dm *m, uint32_t n)
{
    uint32_t sel = d->local_harts ? m->lsel : m->hartsel;
    uint64_t group = 1ull << (5 * n), base = sel & ~(group * 32 - 1);
    uint32_t v = 0;
    for (uint32_t i = 0; i < 32; i++)
        if (any_halted(d, m, base + i * group, base + (i + 1) * group)) v |= 1u << i;
    return v;
}

/* ---- Access Register ---- */

/* Identity and counter CSRs as the lane would read them. */
int dbg_csr_value(ws_debug *d, ws_warp *w, uint32_t l, uint32_t csr, uint32_t *v)
{
    ws_device *dev = d->dev;
    const ws_grid_run *L = dev->current;
    const ws_block *b = w->block;
    switch (csr) {
    case 0x001: *v = w->fflags[l]; return 0;
    case 0x002: *v = w->frm[l]; return 0;
    case 0x003: *v = (uint32_t)w->frm[l] << 5 | w->fflags[l]; return 0;
    case 0xC00: case 0xC01: case 0xC02: *v = (uint32_t)w->instret; return 0;
    case 0xC80: case 0xC81: case 0xC82: *v = (uint32_t)(w->instret >> 32); return 0;
    case 0xF14: *v = dbg_widx(d, w) * d->lanes + l; return 0;
    /* misa and mstatus for probes that check the ISA (OpenOCD reads misa
     * when it examines a hart): RV32IMAFC, M mode, FPU state dirty. */
    case 0x301: *v = 1u << 30 | 1u << ('I' - 'A') | 1u << ('M' - 'A') | 1u << ('A' - 'A') |
                     1u << ('F' - 'A') | 1u << ('C' - 'A'); return 0;
    case 0x300: *v = 3u << 13 | 3u << 11; return 0;
    case WS_CSR_LANE_ID: *v = l; return 0;
    case WS_CSR_WARP_ID: *v = w->slot; return 0;
    case WS_CSR_CORE_ID: *v = w->core; return 0;
    case WS_CSR_ACTIVE_MASK: *v = 0; /* lanes that would issue with this one */
        for (uint32_t m = w->live & ~w->waiting; m; m &= m - 1)
            if (w->pc[__builtin_ctz(m)] == w->pc[l]) *v |= m & -m;
        return 0;
    case WS_CSR_TID_X: *v = w->tid[0][l]; return 0;
    case WS_CSR_TID_Y: *v = w->tid[1][l]; return 0;
    case WS_CSR_TID_Z: *v = w->tid[2][l]; return 0;
    case WS_CSR_WARP_IN_BLOCK: *v = w->warp_in_block; return 0;
    case WS_CSR_LANES_PER_WARP: *v = dev->cfg.lanes_per_warp; return 0;
    case WS_CSR_WARPS_PER_CORE: *v = dev->cfg.warps_per_core; return 0;
    case WS_CSR_CORES: *v = dev->cfg.cores; return 0;
    default: break;
    }
    if (!L || !b) return -1;
    switch (csr) {
    case WS_CSR_CTAID_X: *v = b->idx.x; return 0;
    case WS_CSR_CTAID_Y: *v = b->idx.y; return 0;
    case WS_CSR_CTAID_Z: *v = b->idx.z; return 0;
    case WS_CSR_NTID_X: *v = L->block.x; return 0;
    case WS_CSR_NTID_Y: *v = L->block.y; return 0;
    case WS_CSR_NTID_Z: *v = L->block.z; return 0;
    case WS_CSR_NCTAID_X: *v = L->grid.x; return 0;
    case WS_CSR_NCTAID_Y: *v = L->grid.y; return 0;
    case WS_CSR_NCTAID_Z: *v = L->grid.z; return 0;
    case WS_CSR_LAUNCH_ID: *v = (uint32_t)L->id; return 0;
    case WS_CSR_DYN_SHARED: *v = L->dyn_shared_addr; return 0;
    case WS_CSR_SHARED_SIZE: *v = L->shared_total; return 0;
    case WS_CSR_TID_LINEAR: *v = w->tid[0][l] + L->block.x * (w->tid[1][l] + L->block.y * w->tid[2][l]); return 0;
    case WS_CSR_GFX_SYS0: case WS_CSR_GFX_SYS1: case WS_CSR_GFX_SYS2: case WS_CSR_GFX_SYS3:
    case WS_CSR_GFX_SYS4: case WS_CSR_GFX_VERTEX:
        return ws_lane_sysval(L, w, l, csr, v) < 0 ? -1 : 0;
    case WS_CSR_GFX_DRAW: *v = L->gfx ? L->draw_id : 0; return 0;
    default: break;
    }
    if (csr >= WS_REGNO_GFX_PIXEL_X && csr < WS_REGNO_GFX_END) { /* debug.h: not CSRs, a debugger's view */
        uint32_t stage = L->gfx ? (L->gfx->fragment ? 2 : 1) : 0;
        const uint32_t *sys = L->sysval ? &L->sysval[ws_lane_grid_thread(L, w, l) * WS_GFX_SYSVALS] : NULL;
        *v = ws_gfx_reg_value(csr, stage, sys, L->draw_id);
        return 0;
    }
    return -1;
}

/* dcsr.cause as a probe reads it. A fault halt (the device's cause 7)
 * reads as a halt request (3): version 0.13 of the debug spec defines
 * causes 1-5 and reserves the rest, 1.0 adds 6 (halt group) and 7 ("other"),
 * and OpenOCD 0.12 knows 1-6 only: it took 7 for an error and a stop with
 * no reason. A debug machine's halt reads 6, which OpenOCD takes, as it
 * is, for a halt the probe did not ask for. The gdb server and the tool
 * API keep the device's own cause (ws_debug_query). */
static uint32_t probe_cause(uint32_t cause)
{
    return cause == WS_DCSR_CAUSE_FAULT ? WS_DCSR_CAUSE_HALTREQ : cause;
}

/* The halt cause of the hart of lane l, as a probe that steps harts (hart
 * steps: the JTAG server) reads it. A halt stops the whole warp, but on a
 * RISC-V target each hart has a cause of its own: a step's is the stepped
 * hart's, a trigger's or an ebreak's the harts of the lanes that met it
 * (those at the halting lane's pc and depth); the warp's other harts read
 * "halt request", as harts a halt group stopped. OpenOCD reports the first
 * hart it finds halted by a step or a trigger as the thread that stopped:
 * gdb's `stepi` of one lane of a diverged warp stopped on another. */
static uint32_t hart_cause(const ws_debug *d, const ws_warp *w, const dbg_warp *dw, uint32_t l)
{
    if (!d->hart_steps) return dw->cause;
    const uint32_t h = dw->halt_lane;
    switch (dw->cause) {
    case WS_DCSR_CAUSE_STEP:
        return l == dw->step_lane ? WS_DCSR_CAUSE_STEP : WS_DCSR_CAUSE_HALTREQ;
    case WS_DCSR_CAUSE_TRIGGER: case WS_DCSR_CAUSE_EBREAK:
        if (h < d->lanes && (w->pc[l] != w->pc[h] || w->depth[l] != w->depth[h])) return WS_DCSR_CAUSE_HALTREQ;
        return dw->cause;
    default:
        return dw->cause;
    }
}

/* Transfer one register of a halted hart. Returns a cmderr value. */
static uint32_t xfer_reg(ws_debug *d, uint32_t hart, uint32_t regno, int write, uint32_t *val)
{
    ws_warp *w = dbg_warp_of(d, hart / d->lanes);
    dbg_warp *dw = &d->w[hart / d->lanes];
    uint32_t l = hart % d->lanes;
    if (regno >= 0x1000 && regno < 0x1020) {
        uint32_t r = regno - 0x1000;
        if (!write) *val = w->x[r][l];
        else if (r) { w->x[r][l] = *val; ws_regs_written(d->dev, 1u << r, 0); }
        return ERR_NONE;
    }
    if (regno >= 0x1020 && regno < 0x1040) {
        if (write) { w->f[regno - 0x1020][l] = *val; w->fp_used = 1; ws_regs_written(d->dev, 0, 1u << (regno - 0x1020)); }
        else *val = w->f[regno - 0x1020][l];
        return ERR_NONE;
    }
    if (regno > 0xFFF && !(regno >= WS_REGNO_GFX_PIXEL_X && regno < WS_REGNO_GFX_END)) return ERR_EXCEPTION;
    switch (regno) {
    case WS_CSR_DPC:
        if (write) w->pc[l] = *val & ~1u; /* halted warps have no issuing group */
        else *val = w->pc[l];
        return ERR_NONE;
    case WS_CSR_DCSR:
        if (write) {
            dw->step = (*val >> 2) & 1;
            if (dw->step) dw->step_lane = (uint8_t)l;
        }
        else *val = 4u << 28 | 1u << 15 /* ebreakm */ | probe_cause(hart_cause(d, w, dw, l)) << 6 |
                    (uint32_t)dw->step << 2 | 3u /* prv = M */;
        return ERR_NONE;
    case 0x001: case 0x002: case 0x003:
        if (write) {
            if (regno == 0x001) w->fflags[l] = *val & 0x1F;
            else if (regno == 0x002) w->frm[l] = *val & 7;
            else { w->fflags[l] = *val & 0x1F; w->frm[l] = (*val >> 5) & 7; }
            return ERR_NONE;
        }
        break;
    default:
        if (write) return ERR_EXCEPTION; /* identity CSRs are read-only */
        break;
    }
    return dbg_csr_value(d, w, l, regno, val) ? ERR_EXCEPTION : ERR_NONE;
}

/* The program buffer, run on a halted hart after an Access Register
 * command's transfer (postexec). Device memory is coherent and every write
 * through the debug bus re-decodes the code it covers, so fence and
 * fence.i have nothing left to do; nop is nothing; ebreak (or the buffer's
 * end) returns to the debug module. Any other instruction raises an
 * exception (cmderr 3): a debugger needs the buffer for fences only, and
 * reaches registers and memory through abstract commands and the system
 * bus. */
static uint32_t run_progbuf(ws_debug *d, dbg_dm *m)
{
    uint32_t hart = m->hartsel;
    if (!served(d, m, hart) || !hart_live(d, hart) || d->w[hart / d->lanes].state != DW_HALTED)
        return ERR_HALTRESUME;
    for (unsigned i = 0; i < DBG_PROGBUFSIZE; i++) {
        uint32_t w = m->progbuf[i];
        if ((w & 3) != 3) { /* compressed: c.ebreak ends, c.nop goes on */
            if ((w & 0xFFFF) == 0x9002) return ERR_NONE;
            if ((w & 0xFFFF) == 0x0001) continue;
            return ERR_EXCEPTION;
        }
        if (w == 0x00100073) return ERR_NONE;                      /* ebreak  */
        if (w == 0x00000013) continue;                               /* nop     */
        if ((w & 0x707F) == 0x000F || (w & 0x707F) == 0x100F) continue; /* fence, fence.i */
        return ERR_EXCEPTION;
    }
    return ERR_NONE;
}

static uint32_t access_register(ws_debug *d, dbg_dm *m, uint32_t cmd)
{
    uint32_t size = (cmd >> 20) & 7, regno = cmd & 0xFFFF;
    int post = cmd >> 19 & 1, postexec = cmd >> 18 & 1, transfer = cmd >> 17 & 1, write = cmd >> 16 & 1;
    if (!transfer) return postexec ? run_progbuf(d, m) : ERR_NONE;
    if (size != 2) return ERR_NOTSUP;
    uint32_t hart = m->hartsel;
    if (!served(d, m, hart)) return ERR_HALTRESUME;
    uint32_t err;
    if (regno == WS_CSR_TSELECT || regno == WS_CSR_TDATA1 || regno == WS_CSR_TDATA2 ||
        regno == 0x7a3 || regno == WS_CSR_TINFO) {
        /* trigger CSRs belong to the core: any state, halted or not */
        uint32_t v = m->data[0];
        int r = dbg_trig_csr(d, hart / d->lanes / d->wpc, regno, write, &v);
        if (!r && !write) m->data[0] = v;
        err = r ? ERR_EXCEPTION : ERR_NONE;
    } else if (!hart_live(d, hart) || d->w[hart / d->lanes].state != DW_HALTED) {
        return ERR_HALTRESUME;
    } else {
        uint32_t v = m->data[0];
        err = xfer_reg(d, hart, regno, write, &v);
        if (!err && !write) m->data[0] = v;
    }
    if (!err && post) m->command = (m->command & ~0xFFFFu) | ((regno + 1) & 0xFFFF);
    if (!err && postexec) err = run_progbuf(d, m);
    return err;
}

/* Reads of the exit stub (abi.h): a ROM of two words around the kernels'
 * return address, so a debugger can read, disassemble and unwind there. */
static int exit_stub_read(uint32_t a, uint32_t size, uint32_t *v)
{
    uint32_t off = a - WS_EXIT_STUB_BASE;
    if (off >= WS_EXIT_STUB_SIZE || size > WS_EXIT_STUB_SIZE - off) return 0;
    const uint32_t rom[2] = { WS_EXIT_STUB_CALL, WS_EXIT_STUB_END };
    *v = 0;
    memcpy(v, (const uint8_t *)rom + off, size);
    return 1;
}

static uint32_t access_memory(ws_debug *d, dbg_dm *m, uint32_t cmd)
{
    uint32_t sz = (cmd >> 20) & 7;
    int post = cmd >> 19 & 1, write = cmd >> 16 & 1;
    if (sz > 2 || (cmd >> 14 & 3)) return ERR_NOTSUP;
    uint32_t hart = m->hartsel, size = 1u << sz, addr = m->data[1];
    if (!served(d, m, hart) || !hart_live(d, hart) || d->w[hart / d->lanes].state != DW_HALTED)
        return ERR_HALTRESUME;
    ws_warp *w = dbg_warp_of(d, hart / d->lanes);
    uint32_t l = hart % d->lanes;
    if (!write && exit_stub_read(addr, size, &m->data[0])) {
        if (post) m->data[1] = addr + size;
        return ERR_NONE;
    }
    uint8_t *p = ws_lane_xlate(d->dev, w, l, w->pc[l], addr, size, write, 0);
    if (!p) return ERR_EXCEPTION;
    if (write) memcpy(p, &m->data[0], size);
    else { m->data[0] = 0; memcpy(&m->data[0], p, size); }
    if (post) m->data[1] = addr + size;
    return ERR_NONE;
}

static void exec_command(ws_debug *d, dbg_dm *m)
{
    if (m->cmderr) return; /* spec: commands are ignored until cmderr is cleared */
    uint32_t cmd = m->command, type = cmd >> 24;
    m->cmderr = type == 0 ? access_register(d, m, cmd) : type == 2 ? access_memory(d, m, cmd) : ERR_NOTSUP;
}

/* ---- System bus access: global memory as the bus sees it ---- */

static int sb_range_ok(const ws_memory *mem, uint32_t a, uint32_t n, int *code)
{
    *code = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t off = a + i - WS_GLOBAL_BASE;
        if (a + i < WS_GLOBAL_BASE || off >= mem->limit) return 0;
        uint8_t s = mem->shadow[off >> 3];
        if (s == SHADOW_RX) *code = 1;
        else if (!(s >= 1 && s <= SHADOW_RW && (off & 7) < s)) return 0;
    }
    return 1;
}

static void sb_access(ws_debug *d, dbg_dm *m, int write)
{
    if (m->sberror) return;
    uint32_t acc = SB_ACCESS(m->sbcs), size = 1u << acc, a = m->sbaddress;
    int code;
    if (acc > 2) { m->sberror = 4; return; }
    if (a & (size - 1)) { m->sberror = 3; return; }
    if (!write && exit_stub_read(a, size, &m->sbdata)) {
        if (m->sbcs & SB_AUTOINC) m->sbaddress += size;
        return;
    }
    if (!sb_range_ok(&d->dev->mem, a, size, &code)) { m->sberror = 2; return; }
    uint8_t *p = ws_mem_global_ptr(&d->dev->mem, a);
    if (write) {
        memcpy(p, &m->sbdata, size);
        if (code) dbg_invalidate_locked(d, a, a + size); /* new code: decode again */
    } else {
        m->sbdata = 0;
        memcpy(&m->sbdata, p, size);
    }
    if (m->sbcs & SB_AUTOINC) m->sbaddress += size;
}

/* ---- Mode-switch command port ---- */

static void ms_act_core(ws_debug *d, uint32_t core, uint32_t ctl)
{
    for (uint32_t s = 0; s < d->wpc; s++) {
        dbg_warp *dw = &d->w[core * d->wpc + s];
        if (ctl == MS_HALT) dw->req = REQ_HALT;
        else {
            dw->haltreq = 0; /* "run the core": a halt request left set would stop it again at once */
            dw->step = ctl == MS_STEP;
            dw->req = REQ_RESUME;
            dw->resumeack = 0;
        }
    }
}

/* Status (read of WS_DM_MODESWITCH): bits 7:0 cores the last frame reached,
 * 15:8 core ids it named that this module does not serve, bit 16 malformed
 * frame, bit 17 a frame is half written. */
static void ms_write(ws_debug *d, dbg_dm *m, uint32_t v)
{
    if (m->ms_n == 0 && (v >> 24) != MS_MAGIC) { m->ms_status = 1u << 16; return; }
    m->ms[m->ms_n++] = v;
    uint32_t hdr = m->ms[0], count = (hdr >> 16) & 0xFF, bcast = hdr & 1;
    if (count < 1 || count >= DBG_MS_MAXWORDS || (bcast && count != 1)) {
        m->ms_n = 0;
        m->ms_status = 1u << 16;
        return;
    }
    if (m->ms_n < count + 1) { m->ms_status = 1u << 17; return; }
    m->ms_n = 0;
    uint32_t ctl = m->ms[count];
    if (ctl != MS_RUN && ctl != MS_HALT && ctl != MS_STEP) { m->ms_status = 1u << 16; return; }
    uint32_t reached = 0, ignored = 0;
    if (bcast) {
        for (uint32_t c = 0; c < m->ncores; c++) ms_act_core(d, m->first_core + c, ctl);
        reached = m->ncores;
    } else {
        for (uint32_t i = 1; i < count; i++) {
            uint32_t c = m->ms[i];
            if (c >= m->first_core && c - m->first_core < m->ncores) { ms_act_core(d, c, ctl); reached++; }
            else ignored++;
        }
    }
    m->ms_status = (reached > 255 ? 255 : reached) | (ignored > 255 ? 255 : ignored) << 8;
    dbg_wake_device_locked(d);
}

/* ---- DMI ---- */

int ws_dmi_implemented(uint32_t a)
{
    return (a >= 0x04 && a <= 0x18) || (a >= 0x20 && a <= 0x30) || a == 0x34 || a == 0x35 ||
           (a >= 0x38 && a <= 0x3d) || a == 0x40 || a == WS_DM_MODESWITCH || (a >= WS_DM_EVSEL && a <= WS_DM_EVCTL);
}

static ws_status dmi_check(ws_debug *d, uint32_t dm, uint32_t addr)
{
    if (!d->dev) return dbg_fail(d, WS_ERR_INVALID_ARG, "the device was closed");
    if (dm >= d->ndm) return dbg_fail(d, WS_ERR_INVALID_ARG, "debug module %u does not exist (%u modules)", dm, d->ndm);
    if (!ws_dmi_implemented(addr)) return dbg_fail(d, WS_ERR_INVALID_ARG, "DMI address 0x%02x is not a debug module register", addr);
    return WS_OK;
}

static void autoexec(ws_debug *d, dbg_dm *m, uint32_t i)
{
    if (i < DBG_DATACOUNT && (m->abstractauto >> i & 1)) exec_command(d, m);
}

ws_status ws_dmi_read(ws_debug *d, uint32_t dm, uint32_t addr, uint32_t *value)
{
    if (!d || !value) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    ws_status st = dmi_check(d, dm, addr);
    uint32_t v = 0;
    if (st == WS_OK) {
        dbg_dm *m = &d->dm[dm];
        switch (addr) {
        case WS_DM_DMCONTROL:
        {
            uint32_t sel = d->local_harts ? m->lsel : m->hartsel;
            /* haltreq is WARZ (spec 0.13.2): it reads 0, so a read-modify-write
             * selecting another hart does not halt that one too */
            v = (uint32_t)m->hasel << 26 | (sel & 0x3FF) << 16 |
                (sel >> 10 & 0x3FF) << 6 | (uint32_t)m->dmactive;
            break;
        }
        case WS_DM_DMSTATUS: v = dmstatus(d, m); break;
        case WS_DM_HARTINFO: v = 0; break;
        case WS_DM_HAWINDOWSEL: v = m->hawindowsel; break;
        case WS_DM_HAWINDOW:
            v = m->hawindowsel < (d->nharts + 31) / 32 ? m->hamask[m->hawindowsel] : 0;
            break;
        case WS_DM_ABSTRACTCS: v = (uint32_t)DBG_PROGBUFSIZE << 24 | m->cmderr << 8 | DBG_DATACOUNT; break;
        case WS_DM_COMMAND: v = 0; break; /* write-only */
        case WS_DM_ABSTRACTAUTO: v = m->abstractauto; break;
        case WS_DM_HALTSUM0: v = haltsum(d, m, 0); break;
        case WS_DM_HALTSUM1: v = haltsum(d, m, 1); break;
        case WS_DM_HALTSUM2: v = haltsum(d, m, 2); break;
        case WS_DM_HALTSUM3: v = haltsum(d, m, 3); break;
        case WS_DM_SBCS:
            v = 1u << 29 | (m->sbcs & SB_WRITABLE) | m->sberror << 12 | 32u << 5 | 7u;
            break;
        case WS_DM_SBADDRESS0: v = m->sbaddress; break;
        case WS_DM_SBDATA0:
            v = m->sbdata;
            if (m->sbcs & SB_READONDATA) sb_access(d, m, 0);
            break;
        case WS_DM_MODESWITCH: v = m->ms_status; break;
        case WS_DM_EVSEL: case WS_DM_EVDATA: case WS_DM_EVCTL: dbg_machines_read_locked(d, addr, &v); break;
        default:
            if (addr >= WS_DM_DATA0 && addr < WS_DM_DATA0 + DBG_DATACOUNT) {
                v = m->data[addr - WS_DM_DATA0];
                autoexec(d, m, addr - WS_DM_DATA0);
            } else if (addr >= WS_DM_PROGBUF0 && addr < WS_DM_PROGBUF0 + DBG_PROGBUFSIZE) {
                v = m->progbuf[addr - WS_DM_PROGBUF0];
            }
            break;
        }
    }
    *value = v;
    pthread_mutex_unlock(&d->mu);
    return st;
}

static void dmcontrol_write(ws_debug *d, dbg_dm *m, uint32_t v)
{
    if (!(v & DMC_ACTIVE)) { /* dmactive=0 resets the module */
        dm_reset(d, m);
        return;
    }
    m->dmactive = 1;
    m->hasel = (v & DMC_HASEL) != 0;
    uint32_t sel = (v >> 16 & 0x3FF) | (v >> 6 & 0x3FF) << 10;
    if (d->local_harts) {
        /* WARL to the bits this module's harts need; a number past them
         * selects a hart no module serves (nonexistent). */
        uint32_t n = nlocal(d, m), bits = 0;
        while (bits < 20 && (1u << bits) < n) bits++;
        m->lsel = sel & ((1u << bits) - 1);
        m->hartsel = m->lsel < n ? hart0(d, m) + m->lsel : d->nharts;
        m->hasel = 0; /* no hart array mask in module numbering */
    } else {
        m->hartsel = sel & ((1u << d->hartsellen) - 1); /* WARL: HARTSELLEN bits */
    }
    write_haltreq(d, m, (v & DMC_HALTREQ) != 0);
    /* A live running hart is asked to halt now, so a write of 1 then 0
     * (the gdb server's) still halts it; the bit is for harts that run
     * later (a launch fills them, or a resume). */
    if (v & DMC_HALTREQ) request(d, m, REQ_HALT);
    else if (v & DMC_RESUMEREQ) request(d, m, REQ_RESUME);
}

ws_status ws_dmi_write(ws_debug *d, uint32_t dm, uint32_t addr, uint32_t v)
{
    if (!d) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    ws_status st = dmi_check(d, dm, addr);
    if (st == WS_OK) {
        dbg_dm *m = &d->dm[dm];
        if (addr == WS_DM_DMCONTROL) dmcontrol_write(d, m, v);
        else if (!m->dmactive) { /* the module is held in reset */ }
        else switch (addr) {
        case WS_DM_HAWINDOWSEL: m->hawindowsel = v < (d->nharts + 31) / 32 ? v : m->hawindowsel; break;
        case WS_DM_HAWINDOW:
            if (m->hawindowsel < (d->nharts + 31) / 32) {
                uint32_t first = m->hawindowsel * 32, keep = d->nharts - first >= 32 ? UINT32_MAX
                               : (1u << (d->nharts - first)) - 1;
                m->hamask[m->hawindowsel] = v & keep;
            }
            break;
        case WS_DM_ABSTRACTCS: m->cmderr &= ~(v >> 8 & 7); break; /* W1C */
        case WS_DM_COMMAND: /* spec: ignored while cmderr is set (autoexec reruns the last one taken) */
            if (!m->cmderr) { m->command = v; exec_command(d, m); }
            break;
        case WS_DM_ABSTRACTAUTO: m->abstractauto = v & ((1u << DBG_DATACOUNT) - 1); break;
        case WS_DM_SBCS:
            m->sbcs = v & SB_WRITABLE;
            m->sberror &= ~(v >> 12 & 7); /* W1C */
            break;
        case WS_DM_SBADDRESS0:
            m->sbaddress = v;
            if (m->sbcs & SB_READONADDR) sb_access(d, m, 0);
            break;
        case WS_DM_SBDATA0:
            m->sbdata = v;
            sb_access(d, m, 1);
            break;
        case WS_DM_MODESWITCH: ms_write(d, m, v); break;
        case WS_DM_EVSEL: case WS_DM_EVDATA: case WS_DM_EVCTL: dbg_machines_write_locked(d, addr, v); break;
        default:
            if (addr >= WS_DM_DATA0 && addr < WS_DM_DATA0 + DBG_DATACOUNT) {
                m->data[addr - WS_DM_DATA0] = v;
                autoexec(d, m, addr - WS_DM_DATA0);
            } else if (addr >= WS_DM_PROGBUF0 && addr < WS_DM_PROGBUF0 + DBG_PROGBUFSIZE) {
                m->progbuf[addr - WS_DM_PROGBUF0] = v;
            }
            break; /* read-only or unimplemented: ignored */
        }
    }
    pthread_mutex_unlock(&d->mu);
    return st;
}

/* A warp with a live lane on a core m serves whose halt or resume request
 * (dmcontrol or a mode-switch frame) the device thread has not acted on
 * yet, or whose step has not ended (locked). A stepping warp whose every
 * live lane waits at a barrier runs nothing until the barrier opens (the
 * step ends then), so it is not waited for. */
static int run_control_pending(ws_debug *d, const dbg_dm *m)
{
    for (uint32_t c = m->first_core; c < m->first_core + m->ncores; c++)
        for (uint32_t s = 0; s < d->wpc; s++) {
            const ws_warp *w = dbg_warp_of(d, c * d->wpc + s);
            const dbg_warp *dw = &d->w[c * d->wpc + s];
            if (!w->active || !w->live) continue;
            if (dw->req != REQ_NONE) return 1;
            if (dw->state == DW_RUN && (dw->haltreq & w->live)) return 1; /* halts at its next safe point */
            if (dw->stepping && dw->state == DW_RUN && (w->live & ~w->waiting)) return 1;
        }
    return 0;
}

ws_status ws_dmi_wait_run_control(ws_debug *d, uint32_t dm, unsigned timeout_ms)
{
    if (!d) return WS_ERR_INVALID_ARG;
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_sec += timeout_ms / 1000;
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
    ws_status st = WS_OK;
    pthread_mutex_lock(&d->mu);
    for (;;) {
        /* nothing to wait for once the device closed or the tool left
         * (the device thread then drops halt requests) */
        if (!d->dev || dm >= d->ndm || !atomic_load(&d->attached) || !run_control_pending(d, &d->dm[dm])) break;
        if (pthread_cond_timedwait(&d->req_cv, &d->mu, &until) == ETIMEDOUT) {
            st = dbg_fail(d, WS_ERR_TIMEOUT, "debug module %u: the device did not act on a halt or resume "
                          "request within %u ms", dm, timeout_ms);
            break;
        }
    }
    pthread_mutex_unlock(&d->mu);
    return st;
}
