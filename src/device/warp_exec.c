/* The functional interpreter: one instruction at a time for the issuing
 * group of a warp, over all lanes of the group in a tight loop. Atomics and
 * memory operations run in lane order so results are deterministic. */
#include <stdlib.h>
#include <string.h>
#include "device/device.h"
#include "device/lane_io.h"
#include "device/fast_exec.h"
#include "isa/amo.h"
#include "device/events/event_bus.h"
#include "device/debug/debug_hooks.h"
#include "isa/fpu.h"
#include "gfx/gfx_device.h"

/* Loop over the lanes of mask g in ascending order; a full warp takes the
 * branch-free path the compiler can vectorise. */
#define FOR_LANES(g, ...) do {                                            \
        uint32_t m_ = (g);                                               \
        if (m_ == full) { for (int l = 0; l < nl; l++) { __VA_ARGS__; } } \
        else { while (m_) { int l = __builtin_ctz(m_); m_ &= m_ - 1; __VA_ARGS__; } } \
    } while (0)

/* The same for bodies that may fault: always lane order, early exit. */
#define FOR_LANES_ORDERED(g) for (uint32_t m_ = (g), l = 0; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1)

/* Decoded pages are shared by every core: in a parallel round several
 * host threads may miss on one page or instruction at once, so a page or
 * an entry is filled under dev->decode_lock and published last (an
 * entry's non-zero len says it is complete). */
static inline __attribute__((always_inline)) ws_inst *code_slot(ws_device *dev, ws_warp *w, uint32_t pc)
{
    uint32_t page = pc & ~0xFFFu;
    if (page != w->code_page_addr || !w->code_page) {
        if (!ws_mem_in_global(&dev->mem, pc)) return NULL;
        uint32_t idx = (pc - WS_GLOBAL_BASE) >> 12;
        ws_inst *p = __atomic_load_n(&dev->code_pages[idx], __ATOMIC_ACQUIRE);
        if (!p) {
            if (dev->par_active) pthread_mutex_lock(&dev->decode_lock);
            p = dev->code_pages[idx];
            if (!p && (p = calloc(2048, sizeof(ws_inst)))) {
                dev->code_pages_live++;
                __atomic_store_n(&dev->code_pages[idx], p, __ATOMIC_RELEASE);
            }
            if (dev->par_active) pthread_mutex_unlock(&dev->decode_lock);
            if (!p) return NULL;
        }
        w->code_page_addr = page;
        w->code_page = p;
    }
    return &w->code_page[(pc & 0xFFFu) >> 1];
}

static int executable(const ws_memory *m, uint32_t addr)
{
    return ws_mem_in_global(m, addr) && m->shadow[(addr - WS_GLOBAL_BASE) >> 3] == SHADOW_RX;
}

static const ws_inst *decode_into(ws_device *dev, ws_inst *in, uint32_t pc)
{
    if (__atomic_load_n(&in->len, __ATOMIC_ACQUIRE)) return in; /* another thread decoded it meanwhile */
    if (!executable(&dev->mem, pc)) return NULL;
    uint16_t lo;
    memcpy(&lo, ws_mem_global_ptr(&dev->mem, pc), 2);
    uint32_t bits = lo;
    if (ws_inst_length(lo) == 4) {
        if (!executable(&dev->mem, pc + 2)) return NULL;
        uint16_t hi;
        memcpy(&hi, ws_mem_global_ptr(&dev->mem, pc + 2), 2);
        bits |= (uint32_t)hi << 16;
    }
    ws_inst d;
    ws_decode(bits, &d);
    if (bits == WS_HINT_FAR_BRANCH && executable(&dev->mem, pc + 4) && executable(&dev->mem, pc + 11)) {
        uint32_t b, j; /* the branch and jump it stands before (isa.h): one branch, 12 bytes */
        memcpy(&b, ws_mem_global_ptr(&dev->mem, pc + 4), 4);
        memcpy(&j, ws_mem_global_ptr(&dev->mem, pc + 8), 4);
        ws_inst far;
        /* An execute trigger on the branch or the jump (a hardware
         * breakpoint there): the two run as themselves, so it fires, as
         * an ebreak written over either does (the hint is then a no-op). */
        if (ws_decode_far_branch(b, j, &far) &&
            !(dev->debug && (ws_dbg_exec_watched(dev, pc + 4) || ws_dbg_exec_watched(dev, pc + 8))))
            d = far;
    }
    if (dev->debug) ws_dbg_decoded(dev, pc, &d); /* marks execute-trigger PCs */
    /* rd in both files (stores and branches add a harmless extra bit) */
    uint32_t rd = d.op == OP_ECALL ? UINT32_MAX : 1u << (d.rd & 31);
    ws_regs_written(dev, rd, rd);
    /* every field but len, then len: other threads read len without the lock */
    in->op = d.op;
    in->rd = d.rd, in->rs1 = d.rs1, in->rs2 = d.rs2, in->rs3 = d.rs3;
    in->rm = d.rm;
    in->imm = d.imm;
    in->raw = d.raw;
    __atomic_store_n(&in->len, d.len ? d.len : (uint8_t)ws_inst_length(lo), __ATOMIC_RELEASE);
    return in;
}

/* Fetch and decode (once per address) the instruction at pc. */
static inline __attribute__((always_inline)) const ws_inst *fetch(ws_device *dev, ws_warp *w, uint32_t pc)
{
    ws_inst *in = code_slot(dev, w, pc);
    if (!in) return NULL;
    if (__atomic_load_n(&in->len, __ATOMIC_ACQUIRE)) return in;
    if (!dev->par_active) return decode_into(dev, in, pc);
    pthread_mutex_lock(&dev->decode_lock);
    const ws_inst *r = decode_into(dev, in, pc);
    pthread_mutex_unlock(&dev->decode_lock);
    return r;
}

static uint32_t csr_read(ws_device *dev, ws_warp *w, uint32_t l, uint32_t csr, uint32_t g, int *ok)
{
    const ws_grid_run *L = dev->current;
    const ws_block *b = w->block;
    *ok = 1;
    switch (csr) {
    case 0x001: return w->fflags[l];
    case 0x002: return w->frm[l];
    case 0x003: return (uint32_t)w->frm[l] << 5 | w->fflags[l];
    case 0xC00: case 0xC01: case 0xC02: return (uint32_t)w->instret;
    case 0xC80: case 0xC81: case 0xC82: return (uint32_t)(w->instret >> 32);
    case 0xF14: return (w->core * dev->cfg.warps_per_core + w->slot) * dev->cfg.lanes_per_warp + l;
    case WS_CSR_LANE_ID: return l;
    case WS_CSR_WARP_ID: return w->slot;
    case WS_CSR_CORE_ID: return w->core;
    case WS_CSR_ACTIVE_MASK: return g;
    case WS_CSR_TID_X: return w->tid[0][l];
    case WS_CSR_TID_Y: return w->tid[1][l];
    case WS_CSR_TID_Z: return w->tid[2][l];
    case WS_CSR_CTAID_X: return b->idx.x;
    case WS_CSR_CTAID_Y: return b->idx.y;
    case WS_CSR_CTAID_Z: return b->idx.z;
    case WS_CSR_NTID_X: return L->block.x;
    case WS_CSR_NTID_Y: return L->block.y;
    case WS_CSR_NTID_Z: return L->block.z;
    case WS_CSR_NCTAID_X: return L->grid.x;
    case WS_CSR_NCTAID_Y: return L->grid.y;
    case WS_CSR_NCTAID_Z: return L->grid.z;
    case WS_CSR_LAUNCH_ID: return (uint32_t)L->id;
    case WS_CSR_DYN_SHARED: return L->dyn_shared_addr;
    case WS_CSR_SHARED_SIZE: return L->shared_total;
    case WS_CSR_TID_LINEAR: return w->tid[0][l] + L->block.x * (w->tid[1][l] + L->block.y * w->tid[2][l]);
    case WS_CSR_WARP_IN_BLOCK: return w->warp_in_block;
    case WS_CSR_GFX_SYS0: case WS_CSR_GFX_SYS1: case WS_CSR_GFX_SYS2: case WS_CSR_GFX_SYS3:
    case WS_CSR_GFX_SYS4: case WS_CSR_GFX_VERTEX: {
        uint32_t v;
        if (ws_lane_sysval(L, w, l, csr, &v)) *ok = -1;
        return v;
    }
    case WS_CSR_GFX_DRAW:
        if (!L->gfx) *ok = -1;
        return L->gfx ? L->draw_id : 0;
    case WS_CSR_LANES_PER_WARP: return dev->cfg.lanes_per_warp;
    case WS_CSR_WARPS_PER_CORE: return dev->cfg.warps_per_core;
    case WS_CSR_CORES: return dev->cfg.cores;
    default: *ok = 0; return 0;
    }
}

/* csrr of an identity CSR (the first instructions of nearly every kernel):
 * one value for the warp, or one array lookup per lane. Returns 0 if the
 * CSR is not one of these. */
static int fast_csr_read(ws_device *dev, ws_warp *w, uint32_t csr, uint32_t *dst, uint32_t g)
{
    const ws_grid_run *L = dev->current;
    const uint16_t *per_lane = NULL;
    uint32_t uniform = 0;
    switch (csr) {
    case WS_CSR_TID_X: per_lane = w->tid[0]; break;
    case WS_CSR_TID_Y: per_lane = w->tid[1]; break;
    case WS_CSR_TID_Z: per_lane = w->tid[2]; break;
    case WS_CSR_CTAID_X: uniform = w->block->idx.x; break;
    case WS_CSR_CTAID_Y: uniform = w->block->idx.y; break;
    case WS_CSR_CTAID_Z: uniform = w->block->idx.z; break;
    case WS_CSR_NTID_X: uniform = L->block.x; break;
    case WS_CSR_NTID_Y: uniform = L->block.y; break;
    case WS_CSR_NTID_Z: uniform = L->block.z; break;
    case WS_CSR_NCTAID_X: uniform = L->grid.x; break;
    case WS_CSR_NCTAID_Y: uniform = L->grid.y; break;
    case WS_CSR_NCTAID_Z: uniform = L->grid.z; break;
    case WS_CSR_LANES_PER_WARP: uniform = dev->cfg.lanes_per_warp; break;
    default: return 0;
    }
    for (uint32_t m = g; m; m &= m - 1) {
        int l = __builtin_ctz(m);
        dst[l] = per_lane ? per_lane[l] : uniform;
    }
    return 1;
}

/* A graphics system value read where it has none (a kernel, or a shader
 * of the other stage): a fault, since any value read there (it was 0 in a
 * kernel, WS_GFX_WRONG_STAGE in a shader) looks like a real one. The fault
 * report adds the kernel or shader, the draw and the vertex or pixel. */
static void sysval_fault(ws_device *dev, ws_warp *w, uint32_t l, uint32_t csr, uint32_t pc)
{
    uint32_t stage = dev->current->gfx_stage;
    const char *what = csr == WS_CSR_GFX_VERTEX ? "vertex shaders" : "fragment shaders";
    if (csr == WS_CSR_GFX_SYS4 || csr == WS_CSR_GFX_DRAW) what = "shaders";
    ws_fault_raise(dev, w, l, FAULT_ILLEGAL_INSTRUCTION, pc, 0, 0,
                   "%s (CSR 0x%03x) read in a %s: a system value of %s only (docs/graphics.md)",
                   ws_gfx_sysval_helper(csr), csr,
                   stage == WS_GFX_STAGE_NONE ? "kernel" : stage == WS_GFX_STAGE_FRAGMENT ? "fragment shader"
                                                                                          : "vertex shader",
                   what);
}

/* Zicsr: read-modify-write per lane; only fflags/frm/fcsr are writable. */
static int exec_csr(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc)
{
    uint32_t csr = (uint32_t)in->imm & 0xFFFu;
    int imm_form = in->op >= OP_CSRRWI;
    int writes = in->op == OP_CSRRW || in->op == OP_CSRRWI || in->rs1 != 0;
    if (!writes && in->rd && fast_csr_read(dev, w, csr, w->x[in->rd], g)) return 0;
    FOR_LANES_ORDERED(g) {
        int ok;
        uint32_t old = csr_read(dev, w, l, csr, g, &ok);
        if (ok < 0) {
            sysval_fault(dev, w, l, csr, pc);
            return -1;
        }
        if (!ok || (writes && csr > 0x003)) {
            ws_fault_raise(dev, w, l, FAULT_ILLEGAL_INSTRUCTION, pc, 0, 0,
                           ok ? "write to read-only CSR 0x%03x" : "unknown CSR 0x%03x", csr);
            return -1;
        }
        uint32_t src = imm_form ? in->rs1 : w->x[in->rs1][l];
        uint32_t val = old;
        switch (in->op) {
        case OP_CSRRW: case OP_CSRRWI: val = src; break;
        case OP_CSRRS: case OP_CSRRSI: val = old | src; break;
        default: val = old & ~src; break;
        }
        if (writes) {
            if (csr == 0x001) w->fflags[l] = val & 0x1F;
            else if (csr == 0x002) w->frm[l] = val & 0x7;
            else { w->fflags[l] = val & 0x1F; w->frm[l] = (val >> 5) & 0x7; }
        }
        if (in->rd) w->x[in->rd][l] = old;
    }
    return 0;
}

static int exec_float(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc)
{
    uint32_t scratch[WS_MAX_LANES];
    ws_fpu_lanes fl = { w->f[in->rs1], w->f[in->rs2], w->f[in->rs3], w->f[in->rd], w->frm, w->fflags };
    switch (in->op) {
    case OP_FCVT_S_W: case OP_FCVT_S_WU: case OP_FMV_W_X:
        fl.a = w->x[in->rs1];
        break;
    case OP_FCVT_W_S: case OP_FCVT_WU_S: case OP_FMV_X_W: case OP_FEQ_S: case OP_FLT_S:
    case OP_FLE_S: case OP_FCLASS_S:
        fl.d = in->rd ? w->x[in->rd] : scratch;
        break;
    default: break;
    }
    int bad = 0;
    if (ws_fpu_exec(in, g, &fl, &bad) != 0) {
        ws_fault_raise(dev, w, (uint32_t)bad, FAULT_ILLEGAL_INSTRUCTION, pc, 0, 0,
                       "invalid rounding mode (rm=%u, frm=%u)", in->rm, w->frm[bad]);
        return -1;
    }
    return 0;
}

static int exec_ecall(ws_device *dev, ws_warp *w, uint32_t g, uint32_t pc)
{
    /* Texture and discard act on the whole group at once: the texture unit
     * reads the coordinates of each lane's quad neighbours. */
    uint32_t svc0 = w->x[17][__builtin_ctz(g)];
    if (svc0 >= WS_ECALL_TEX && svc0 <= WS_ECALL_DISCARD) return ws_gfx_ecall(dev, w, g, pc);
    FOR_LANES_ORDERED(g) {
        uint32_t svc = w->x[17][l], a0 = w->x[10][l];
        switch (svc) {
        case WS_ECALL_WRITE:
            if (ws_lane_write(dev, w, l, pc, a0, w->x[11][l], w->x[12][l])) return -1;
            w->x[10][l] = w->x[12][l];
            break;
        case WS_ECALL_EXIT:
            ws_simt_retire(dev, w, 1u << l);
            break;
        case WS_ECALL_ASSERT:
            ws_lane_assert(dev, w, l, pc);
            return -1;
        case WS_ECALL_TRAP:
            ws_lane_trap(dev, w, l, pc);
            return -1;
        default:
            ws_fault_raise(dev, w, l, FAULT_ECALL, pc, 0, 0,
                           "unknown environment call a7=%u (see WS_ECALL_* in abi.h)", svc);
            return -1;
        }
    }
    return 0;
}

/* One lane's read-modify-write of *p; returns the old value. In a
 * parallel round other cores may update the word at once, so it is a
 * host atomic operation (the same result as one thread in some order). */
static uint32_t amo_rmw(uint32_t *p, ws_op op, uint32_t v, int atomic)
{
    if (!atomic) {
        uint32_t old = *p;
        *p = ws_amo_word(op, old, v);
        return old;
    }
    switch (op) {
    case OP_AMOSWAP_W: return __atomic_exchange_n(p, v, __ATOMIC_SEQ_CST);
    case OP_AMOADD_W: return __atomic_fetch_add(p, v, __ATOMIC_SEQ_CST);
    case OP_AMOXOR_W: return __atomic_fetch_xor(p, v, __ATOMIC_SEQ_CST);
    case OP_AMOAND_W: return __atomic_fetch_and(p, v, __ATOMIC_SEQ_CST);
    case OP_AMOOR_W: return __atomic_fetch_or(p, v, __ATOMIC_SEQ_CST);
    default: { /* min/max, float add: compare and swap until no other core got in between */
        uint32_t old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
        while (!__atomic_compare_exchange_n(p, &old, ws_amo_word(op, old, v), 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {}
        return old;
    }
    }
}

/* Shuffle source lane for lane l, or -1 to keep the lane's own value. */
static int shfl_src(ws_op op, int l, uint32_t b, int nl, uint32_t g)
{
    int64_t s;
    switch (op) {
    case OP_SHFL_UP: s = (int64_t)l - b; break;
    case OP_SHFL_DOWN: s = (int64_t)l + b; break;
    case OP_SHFL_BFLY: s = l ^ (int64_t)(b & 31u); break;
    default: s = b; break;
    }
    if (s < 0 || s >= nl || !(g >> s & 1)) return -1;
    return (int)s;
}

/* An execute trigger where no instruction is stops the lanes first: on
 * the exit stub's WS_RETIRE_ADDR before they retire (a debugger's
 * `finish` or watchpoint scope in the kernel frame), on an address that
 * cannot be fetched before the fault (an instruction address breakpoint
 * outranks an instruction access fault in the privileged spec's
 * exception priorities; gdb's return address for a function it calls
 * sits on the lane's stack). The address counts as an instruction for
 * the trigger's skip-once-after-resume rule, so a resumed warp then
 * retires, or faults. */
static int no_insn_trap(ws_device *dev, ws_warp *w, uint32_t g, uint32_t pc)
{
    w->instret++;
    int hit = ws_dbg_exec_hit(dev, w, NULL, g, pc);
    w->instret--;
    return hit;
}

/* Do all lanes of g name the same word with a read-modify-write atomic? */
static int amo_same_word(const ws_device *dev, const ws_warp *w, uint32_t g, uint32_t rs1, uint32_t pc)
{
    (void)dev; (void)pc;
    uint32_t a = w->x[rs1][__builtin_ctz(g)], diff = 0;
    for (uint32_t m = g; m; m &= m - 1) diff |= w->x[rs1][__builtin_ctz(m)] ^ a;
    return !diff && a < WS_STACK_BASE; /* lane stacks are private: never one word */
}

/* amocas.w / amocas.d for lane l at address a: compare the word (or the
 * doubleword, low word first) with rd's value (the register pair rd,
 * rd + 1), store rs2's (pair) if equal, and give rd the old value. x0 as
 * a pair reads as zeros and is never written. amofadd.d and amoswap.d ..
 * amomaxu.d likewise on pairs, always storing what ws_amo_dword makes of
 * the old doubleword and rs2's pair.
 * Lane stacks interleave their words, so a doubleword there is two words;
 * in global memory other cores may race in a parallel round: one host
 * compare-and-swap (a loop of them for the add). -1: the lane faulted. */
static int exec_cas(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t l, uint32_t pc)
{
    uint32_t (*x)[WS_MAX_LANES] = w->x;
    const uint32_t a = x[in->rs1][l], rd = in->rd, rs2 = in->rs2;
    if (in->op == OP_AMOCAS_W) {
        uint32_t *p = ws_lane_xlate(dev, w, l, pc, a, 4, 1, 1);
        if (!p) return -1;
        uint32_t old = x[rd][l];
        if (dev->par_active)
            __atomic_compare_exchange_n(p, &old, x[rs2][l], 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        else if (*p == old)
            *p = x[rs2][l];
        else
            old = *p;
        if (rd) x[rd][l] = old;
        return 0;
    }
    uint32_t *lo = ws_lane_xlate(dev, w, l, pc, a, 8, 1, 1);
    if (!lo) return -1;
    const int on_stack = ws_addr_in_stacks(a);
    uint32_t *hi = on_stack ? ws_lane_xlate(dev, w, l, pc, a + 4, 4, 1, 1) : lo + 1;
    if (!hi) return -1;
    const uint64_t want = rd ? x[rd][l] | (uint64_t)x[rd + 1][l] << 32 : 0;
    const uint64_t put = rs2 ? x[rs2][l] | (uint64_t)x[rs2 + 1][l] << 32 : 0;
    const ws_op op = (ws_op)in->op;
    const int rmw = ws_op_pair_rmw(op);
    uint64_t old;
    if (dev->par_active && hi == lo + 1 && !((uintptr_t)lo & 7)) {
        uint64_t *p = (uint64_t *)(void *)lo;
        old = rmw ? __atomic_load_n(p, __ATOMIC_SEQ_CST) : want;
        while (!__atomic_compare_exchange_n(p, &old, rmw ? ws_amo_dword(op, old, put) : put, 0, __ATOMIC_SEQ_CST,
                                            __ATOMIC_SEQ_CST) && rmw) {}
    } else {
        old = *lo | (uint64_t)*hi << 32;
        const uint64_t v = rmw ? ws_amo_dword(op, old, put) : put;
        if (rmw || old == want) *lo = (uint32_t)v, *hi = (uint32_t)(v >> 32);
    }
    if (rd) x[rd][l] = (uint32_t)old, x[rd + 1][l] = (uint32_t)(old >> 32);
    return 0;
}

/* An A-extension instruction for the lanes of g, in lane order (the
 * debugger's data trigger is checked by the caller); -1: a lane faulted. */
static int exec_atomic(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc)
{
    uint32_t (*x)[WS_MAX_LANES] = w->x;
    /* a helper lane's atomic has no effect (its rd is undefined), but in a tool's buffer */
    for (uint32_t m = ws_lane_helpers(dev, w, g); m; m &= m - 1) {
        const uint32_t l = (uint32_t)__builtin_ctz(m);
        if (!ws_lane_tool_addr(dev, x[in->rs1][l])) g &= ~(1u << l);
    }
    if (!g) return 0;
    const uint32_t rd = in->rd, rs1 = in->rs1, rs2 = in->rs2, full = dev->full_mask;
    const int nl = (int)dev->cfg.lanes_per_warp;
    ws_ev_emit(dev, WS_EV_MEM, WS_EV_MEM_ATOMIC, w->core, x[rs1][__builtin_ctz(g)]);
    if (in->op == OP_AMOCAS_W || in->op == OP_AMOCAS_D || ws_op_pair_rmw((ws_op)in->op)) {
        FOR_LANES_ORDERED(g) {
            if (exec_cas(dev, w, in, l, pc)) return -1;
        }
        return 0;
    }
    if (in->op != OP_LR_W && in->op != OP_SC_W && amo_same_word(dev, w, g, rs1, pc)) {
        /* every lane on one word (a counter): translate it once, apply in lane order */
        uint32_t *p = ws_lane_xlate(dev, w, (uint32_t)__builtin_ctz(g), pc, x[rs1][__builtin_ctz(g)], 4, 1, 1);
        if (!p) return -1;
        if (in->op == OP_AMOADD_W && !rd) { /* no lane sees the old value: one add of the sum */
            uint32_t sum = 0;
            FOR_LANES(g, sum += x[rs2][l]);
            amo_rmw(p, OP_AMOADD_W, sum, dev->par_active);
            return 0;
        }
        FOR_LANES_ORDERED(g) {
            uint32_t old = amo_rmw(p, (ws_op)in->op, x[rs2][l], dev->par_active);
            if (rd) x[rd][l] = old;
        }
        return 0;
    }
    FOR_LANES_ORDERED(g) {
        uint32_t a = x[rs1][l];
        uint32_t *p = ws_lane_xlate(dev, w, l, pc, a, 4, in->op != OP_LR_W, 1);
        if (!p) return -1;
        uint32_t old, bit = 1u << l;
        if (in->op == OP_LR_W) {
            old = __atomic_load_n(p, __ATOMIC_SEQ_CST);
            w->resv_addr[l] = a; w->resv_val[l] = old; w->resv_valid |= bit;
        } else if (in->op == OP_SC_W) {
            /* Succeeds if the reserved word still holds what LR read. */
            int ok = 0;
            old = w->resv_val[l];
            if ((w->resv_valid & bit) && w->resv_addr[l] == a) {
                if (dev->par_active)
                    ok = __atomic_compare_exchange_n(p, &old, x[rs2][l], 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
                else if ((ok = *p == old))
                    *p = x[rs2][l];
            }
            w->resv_valid &= ~bit;
            old = !ok;
        } else {
            old = amo_rmw(p, (ws_op)in->op, x[rs2][l], dev->par_active);
        }
        if (rd) x[rd][l] = old;
    }
    return 0;
}

/* ws_warp_run, compiled twice: with `marked` (an instrumented module is
 * loaded, functional mode) and without, so the loop over the instructions
 * of other launches is what it was before inserted code was counted out. */
static inline __attribute__((always_inline)) ws_warp_result warp_run(ws_device *dev, ws_warp *w, uint32_t budget,
                                                                     uint32_t *issued, const int marked)
{
    const uint32_t full = dev->full_mask;
    const int nl = (int)dev->cfg.lanes_per_warp;
    /* a parallel round counts per core (src/device/parallel.c) */
    ws_launch_stats *st = dev->par_active ? &dev->cores[w->core].part : &dev->current->stats;
    uint32_t n = 0, count_g = 0, count = 0; /* popcount cache */
    const uint64_t instret0 = w->instret;
    ws_warp_result result = WARP_RAN;
    /* The fast engine (fast_exec.c) while nothing needs single instructions. */
    const int fast = !dev->cfg.engine && dev->cfg.mode == WS_MODE_FUNCTIONAL && !ws_dbg_attached(dev) && !dev->events;
    /* Inserted code of an instrumented module (the tracer's passes) is
     * left out of the quantum: n does not count them (*issued does), so
     * the warp yields at the same original instructions as the
     * uninstrumented launch (device.md, Scheduling). */
    uint32_t extra = 0; /* inserted instructions run: in *issued, not in n */

    for (; n < budget; n++) {
        if (!w->group && !ws_simt_select(dev, w)) { result = WARP_IDLE; break; }
        if (fast && !w->sticky && !w->held_to && w->group_pc != WS_RETIRE_ADDR) { /* (the engine has no code there) */
            uint32_t k = 0, ins = 0;
            int r = ws_fast_run(dev, w, st, budget - n, &k, &ins);
            n += k;
            extra += ins;
            if (r) { result = WARP_FAULT; goto out; }
            if (k + ins) { n--; continue; } /* the loop counts one */
        }
        const uint32_t g = w->group, pc = w->group_pc;
        if (pc == WS_RETIRE_ADDR) { /* the kernel returned */
            if (dev->debug && (no_insn_trap(dev, w, g, WS_RETIRE_ADDR) || ws_dbg_exit_gate(dev, w, g))) {
                result = WARP_HALT;
                break;
            }
            ws_simt_retire(dev, w, g);
            w->group = 0;
            continue;
        }
        const ws_inst *in = fetch(dev, w, pc);
        if (!in && dev->debug && no_insn_trap(dev, w, g, pc)) { result = WARP_HALT; break; }
        if (!in) {
            char why[160];
            ws_mem_describe(&dev->mem, pc, why, sizeof why);
            ws_fault_raise(dev, w, (uint32_t)__builtin_ctz(g), FAULT_FETCH, pc, pc, 2,
                           "cannot execute at 0x%08x: %s", pc, why);
            result = WARP_FAULT;
            break;
        }
        if (marked && ws_code_inserted(dev, pc)) n--, extra++; /* (n wraps and comes back) */
        w->instret++;
        st->warp_instructions++;
        if (g != count_g) { count_g = g; count = ws_lane_count(g); }
        st->thread_instructions += count;

        uint32_t (*x)[WS_MAX_LANES] = w->x;
        const uint32_t rd = in->rd, rs1 = in->rs1, rs2 = in->rs2;
        const uint32_t imm = (uint32_t)in->imm;
        uint32_t npc = pc + in->len;
        uint32_t taken = 0;      /* lanes of g that branch */
        int per_lane_pc = 0;     /* jalr targets already in w->pc[] */
        int call = 0;            /* a call (+1) or return (-1): simt.c */
        ws_inst untrapped;       /* a trapped entry without its trap bit */
        int io;                  /* lane_io result: -1 fault, 1 halt */
        uint32_t sp_was[WS_MAX_LANES]; /* sp before an instruction that may lower it */
        const int sp_check = ws_sp_check_needed(in);
        if (sp_check) memcpy(sp_was, x[2], sizeof sp_was);

    dispatch:
        switch ((ws_op)in->op) {
        case OP_LUI: FOR_LANES(g, x[rd][l] = imm); break;
        case OP_AUIPC: FOR_LANES(g, x[rd][l] = pc + imm); break;
        case OP_ADDI: FOR_LANES(g, x[rd][l] = x[rs1][l] + imm); break;
        case OP_SLTI: FOR_LANES(g, x[rd][l] = (int32_t)x[rs1][l] < (int32_t)imm); break;
        case OP_SLTIU: FOR_LANES(g, x[rd][l] = x[rs1][l] < imm); break;
        case OP_XORI: FOR_LANES(g, x[rd][l] = x[rs1][l] ^ imm); break;
        case OP_ORI: FOR_LANES(g, x[rd][l] = x[rs1][l] | imm); break;
        case OP_ANDI: FOR_LANES(g, x[rd][l] = x[rs1][l] & imm); break;
        case OP_SLLI: FOR_LANES(g, x[rd][l] = x[rs1][l] << (imm & 31)); break;
        case OP_SRLI: FOR_LANES(g, x[rd][l] = x[rs1][l] >> (imm & 31)); break;
        case OP_SRAI: FOR_LANES(g, x[rd][l] = (uint32_t)((int32_t)x[rs1][l] >> (imm & 31))); break;
        case OP_ADD: FOR_LANES(g, x[rd][l] = x[rs1][l] + x[rs2][l]); break;
        case OP_SUB: FOR_LANES(g, x[rd][l] = x[rs1][l] - x[rs2][l]); break;
        case OP_SLL: FOR_LANES(g, x[rd][l] = x[rs1][l] << (x[rs2][l] & 31)); break;
        case OP_SLT: FOR_LANES(g, x[rd][l] = (int32_t)x[rs1][l] < (int32_t)x[rs2][l]); break;
        case OP_SLTU: FOR_LANES(g, x[rd][l] = x[rs1][l] < x[rs2][l]); break;
        case OP_XOR: FOR_LANES(g, x[rd][l] = x[rs1][l] ^ x[rs2][l]); break;
        case OP_SRL: FOR_LANES(g, x[rd][l] = x[rs1][l] >> (x[rs2][l] & 31)); break;
        case OP_SRA: FOR_LANES(g, x[rd][l] = (uint32_t)((int32_t)x[rs1][l] >> (x[rs2][l] & 31))); break;
        case OP_OR: FOR_LANES(g, x[rd][l] = x[rs1][l] | x[rs2][l]); break;
        case OP_AND: FOR_LANES(g, x[rd][l] = x[rs1][l] & x[rs2][l]); break;
        case OP_MUL: FOR_LANES(g, x[rd][l] = x[rs1][l] * x[rs2][l]); break;
        case OP_MULH: FOR_LANES(g, x[rd][l] = (uint32_t)(((int64_t)(int32_t)x[rs1][l] * (int32_t)x[rs2][l]) >> 32)); break;
        case OP_MULHSU: FOR_LANES(g, x[rd][l] = (uint32_t)(((int64_t)(int32_t)x[rs1][l] * (int64_t)x[rs2][l]) >> 32)); break;
        case OP_MULHU: FOR_LANES(g, x[rd][l] = (uint32_t)(((uint64_t)x[rs1][l] * x[rs2][l]) >> 32)); break;
        case OP_DIV:
            FOR_LANES(g, {
                int32_t a = (int32_t)x[rs1][l], b = (int32_t)x[rs2][l];
                x[rd][l] = b == 0 ? UINT32_MAX : (a == INT32_MIN && b == -1) ? (uint32_t)a : (uint32_t)(a / b);
            });
            break;
        case OP_DIVU: FOR_LANES(g, x[rd][l] = x[rs2][l] ? x[rs1][l] / x[rs2][l] : UINT32_MAX); break;
        case OP_REM:
            FOR_LANES(g, {
                int32_t a = (int32_t)x[rs1][l], b = (int32_t)x[rs2][l];
                x[rd][l] = b == 0 ? (uint32_t)a : (a == INT32_MIN && b == -1) ? 0 : (uint32_t)(a % b);
            });
            break;
        case OP_REMU: FOR_LANES(g, x[rd][l] = x[rs2][l] ? x[rs1][l] % x[rs2][l] : x[rs1][l]); break;

        case OP_JAL:
            FOR_LANES(g, x[rd][l] = pc + in->len);
            npc = pc + imm;
            call = ws_call_delta(rd, 0, 0, npc);
            break;
        case OP_JALR: {
            uint32_t t0 = (x[rs1][__builtin_ctz(g)] + imm) & ~1u, same = 1;
            FOR_LANES(g, { uint32_t t = (x[rs1][l] + imm) & ~1u; w->pc[l] = t; same &= t == t0; });
            FOR_LANES(g, x[rd][l] = pc + in->len);
            if (same) npc = t0;
            else per_lane_pc = 1;
            call = ws_call_delta(rd, rs1, 1, t0);
            break;
        }
        case OP_BEQ: FOR_LANES(g, taken |= (uint32_t)(x[rs1][l] == x[rs2][l]) << l); break;
        case OP_BNE: FOR_LANES(g, taken |= (uint32_t)(x[rs1][l] != x[rs2][l]) << l); break;
        case OP_BLT: FOR_LANES(g, taken |= (uint32_t)((int32_t)x[rs1][l] < (int32_t)x[rs2][l]) << l); break;
        case OP_BGE: FOR_LANES(g, taken |= (uint32_t)((int32_t)x[rs1][l] >= (int32_t)x[rs2][l]) << l); break;
        case OP_BLTU: FOR_LANES(g, taken |= (uint32_t)(x[rs1][l] < x[rs2][l]) << l); break;
        case OP_BGEU: FOR_LANES(g, taken |= (uint32_t)(x[rs1][l] >= x[rs2][l]) << l); break;

        case OP_LB: case OP_LH: case OP_LW: case OP_LBU: case OP_LHU: case OP_FLW:
            w->fp_used |= in->op == OP_FLW;
            if ((io = ws_lane_loads(dev, w, in, g, pc)) != 0) {
                if (io > 0) goto halt; /* data trigger */
                result = WARP_FAULT; goto out;
            }
            st->thread_loads += count;
            break;
        case OP_SB: case OP_SH: case OP_SW: case OP_FSW:
            if ((io = ws_lane_stores(dev, w, in, g, pc)) != 0) {
                if (io > 0) goto halt; /* data trigger */
                result = WARP_FAULT; goto out;
            }
            st->thread_stores += count;
            break;
        case OP_LR_W: case OP_SC_W: case OP_AMOSWAP_W: case OP_AMOADD_W: case OP_AMOXOR_W:
        case OP_AMOAND_W: case OP_AMOOR_W: case OP_AMOMIN_W: case OP_AMOMAX_W:
        case OP_AMOMINU_W: case OP_AMOMAXU_W: case OP_AMOCAS_W: case OP_AMOCAS_D: case OP_AMOFADD_S: case OP_AMOFADD_D:
        case OP_AMOSWAP_D: case OP_AMOADD_D: case OP_AMOXOR_D: case OP_AMOAND_D: case OP_AMOOR_D:
        case OP_AMOMIN_D: case OP_AMOMAX_D: case OP_AMOMINU_D: case OP_AMOMAXU_D:
            if (dev->debug && ws_dbg_data_hit(dev, w, in, g, ws_op_mem_bytes((ws_op)in->op), in->op == OP_LR_W ? 1 : 3))
                goto halt;
            if (exec_atomic(dev, w, in, g, pc)) { result = WARP_FAULT; goto out; }
            st->thread_atomics += count;
            break;

        case OP_FENCE: case OP_FENCE_I: case OP_SPLIT: case OP_JOIN:
            break; /* sequentially consistent device; SPLIT/JOIN are hints */
        case OP_ECALL:
            if (exec_ecall(dev, w, g, pc)) { result = WARP_FAULT; goto out; }
            break;
        case OP_EBREAK:
            if (dev->debug && ws_dbg_ebreak(dev, w, g, pc)) goto halt;
            ws_fault_raise(dev, w, (uint32_t)__builtin_ctz(g), FAULT_BREAKPOINT, pc, 0, 0,
                           "ebreak executed with no debugger attached");
            result = WARP_FAULT;
            goto out;
        case OP_CSRRW: case OP_CSRRS: case OP_CSRRC: case OP_CSRRWI: case OP_CSRRSI: case OP_CSRRCI:
            if (exec_csr(dev, w, in, g, pc)) { result = WARP_FAULT; goto out; }
            break;

        case OP_TMC: case OP_PRED: {
            /* TMC keeps the lanes named by the first active lane's rs1 mask;
             * PRED keeps lanes whose rs1 is non-zero. The others retire. */
            uint32_t keep = 0;
            if (in->op == OP_TMC) keep = x[rs1][__builtin_ctz(g)] & g;
            else FOR_LANES(g, keep |= (uint32_t)(x[rs1][l] != 0) << l);
            ws_simt_retire(dev, w, g & ~keep);
            break;
        }
        case OP_WSPAWN:
            ws_fault_raise(dev, w, (uint32_t)__builtin_ctz(g), FAULT_ILLEGAL_INSTRUCTION, pc, 0, 0,
                           "wspawn: warps are created by the work distributor, not by kernels");
            result = WARP_FAULT;
            goto out;
        case OP_BAR: {
            w->group_pc = npc;
            ws_simt_leave_group(w);
            /* each lane arrives at the barrier it names (one instruction
             * may name several: those lanes then wait at different ones) */
            for (uint32_t left = g; left;) {
                const uint32_t id = x[rs1][__builtin_ctz(left)] % WS_MAX_BARRIERS;
                uint32_t same = 0;
                FOR_LANES(left, same |= (uint32_t)(x[rs1][l] % WS_MAX_BARRIERS == id) << l);
                left &= ~same;
                ws_simt_barrier_arrive(dev, w, same, id);
            }
            goto next;
        }
        case OP_VOTE_ALL: case OP_VOTE_ANY: case OP_VOTE_UNI: case OP_VOTE_BALLOT: {
            uint32_t p = 0, r;
            FOR_LANES(g, p |= (uint32_t)(x[rs1][l] != 0) << l);
            switch (in->op) {
            case OP_VOTE_ALL: r = p == g; break;
            case OP_VOTE_ANY: r = p != 0; break;
            case OP_VOTE_UNI: r = p == 0 || p == g; break;
            default: r = p; break;
            }
            FOR_LANES(g, x[rd][l] = r);
            break;
        }
        case OP_SHFL_UP: case OP_SHFL_DOWN: case OP_SHFL_BFLY: case OP_SHFL_IDX: {
            uint32_t v[WS_MAX_LANES];
            FOR_LANES(g, { int s = shfl_src((ws_op)in->op, l, x[rs2][l], nl, g);
                           v[l] = x[rs1][s < 0 ? l : s]; });
            FOR_LANES(g, x[rd][l] = v[l]);
            break;
        }

        case OP_ILLEGAL:
            ws_fault_raise(dev, w, (uint32_t)__builtin_ctz(g), FAULT_ILLEGAL_INSTRUCTION, pc, 0, 0,
                           "bits 0x%0*x decode to no instruction of this device", in->len == 2 ? 4 : 8, in->raw);
            result = WARP_FAULT;
            goto out;
        default: /* every remaining op is a float computation */
            if (in->op & WS_INST_TRAP) { /* an execute trigger watches pc */
                if (dev->debug && ws_dbg_exec_hit(dev, w, in, g, pc)) goto halt;
                untrapped = *in;
                untrapped.op &= (uint16_t)~WS_INST_TRAP;
                in = &untrapped;
                goto dispatch;
            }
            w->fp_used = 1;
            if (exec_float(dev, w, in, g, pc)) { result = WARP_FAULT; goto out; }
            break;
        }
        if (rd == 0) memset(x[0], 0, sizeof x[0]);
        if (sp_check) { /* sp below the lane's stack: a stack overflow, sp left as it was */
            const uint32_t bad = ws_sp_below_stack(dev, w, g, x[2]);
            if (bad) {
                uint32_t sp_now[WS_MAX_LANES];
                memcpy(sp_now, x[2], sizeof sp_now);
                memcpy(x[2], sp_was, sizeof sp_was);
                ws_sp_overflow_raise(dev, w, bad, sp_now, pc);
                result = WARP_FAULT;
                goto out;
            }
        }

        /* Next PC: continue the group while it stays uniform and below the
         * other groups; otherwise pick again (deepest, then lowest PC). */
        if (call) ws_simt_call_depth(dev, w, call);
        uint32_t live_g = w->group; /* lanes may have retired */
        if (per_lane_pc || (taken && taken != g)) {
            if (taken && taken != g) {
                w->diverged = 1;
                ws_ev_emit(dev, WS_EV_SCHED, WS_EV_SCHED_DIVERGE, w->core,
                           (uint32_t)(w - dev->cores[w->core].warps) | pc << 8);
            }
            for (uint32_t m = live_g; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                if (!per_lane_pc) w->pc[l] = (taken >> l & 1) ? pc + imm : npc;
            }
            w->group = 0;
            continue;
        }
        if (taken) npc = pc + imm;
        w->group_pc = npc;
        if (live_g != g || !live_g) { /* some lanes retired */
            if (live_g) ws_simt_leave_group(w);
            w->group = 0;
            continue;
        }
        /* After a hold hint that a group ran above other lanes (the guard
         * sent it ahead), no decision until its instruction has run. */
        if (w->held_to) {
            if (pc != w->held_to) continue;
            w->held_to = 0;
        } else if (in->op == OP_SLTI && rd == 0 && ws_issue_key(dev, pc) > w->other_min_pc &&
                   ws_hint_hold(in->raw) >= 0) {
            w->held_to = npc + (uint32_t)ws_hint_hold(in->raw);
            continue;
        }
        /* A loop turn: a taken branch, or a jump that does not link, to a
         * lower address (what the starvation guard counts: simt.c). */
        const uint32_t turn = npc < pc && (taken || ((in->op == OP_JAL || in->op == OP_JALR) && rd == 0));
        if (w->sticky) {
            w->sticky -= turn;
            /* the guard's group stops before a vote or shuffle, before it
             * enters a loop (at its header, from outside the loop): inside
             * it would hold back the lanes that enter the loop after it
             * (simt.c); and back at its loop's header while other lanes
             * are inside that loop, where they hold it (it ran on to the
             * loop's next vote without them, and left the loop) */
            const uint32_t end = w->sticky && w->has_others ? ws_issue_loop_end(dev, npc) : 0;
            const uint32_t key = end ? ws_issue_key(dev, npc) : 0;
            if (w->sticky && w->has_others &&
                (ws_simt_collective_at(dev, w, npc) ||
                 (end && (key > ws_issue_key(dev, pc) || (w->other_min_pc > key && w->other_min_pc < end)))))
                w->sticky = 0, ws_simt_leave_group(w);
            continue;
        }
        if (!w->has_others) continue;
        if (ws_group_yields_at(dev, w, npc)) {
            ws_simt_leave_group(w);
        } else if (turn && ++w->starve >= WS_STARVE_LIMIT) {
            ws_ev_emit(dev, WS_EV_SCHED, WS_EV_SCHED_STARVE, w->core, (uint32_t)(w - dev->cores[w->core].warps));
            ws_simt_leave_group(w);
        }
        continue;
    next:;
    }
    goto out;
halt: /* the debugger stopped the warp before this instruction retired */
    w->instret--;
    st->warp_instructions--;
    st->thread_instructions -= count;
    result = WARP_HALT;
out:
    if (result == WARP_HALT) ws_simt_park_group(w); /* it resumes with the group */
    else if (result == WARP_FAULT && w->group) ws_simt_leave_group(w);
    if (w->core < WS_STATS_MAX_CORES) st->core_warp_instructions[w->core] += w->instret - instret0;
    *issued = n + extra;
    return result;
}

ws_warp_result ws_warp_run(ws_device *dev, ws_warp *w, uint32_t budget, uint32_t *issued)
{
    if (dev->nmarked && dev->cfg.mode == WS_MODE_FUNCTIONAL) return warp_run(dev, w, budget, issued, 1);
    return warp_run(dev, w, budget, issued, 0);
}

/* For the fast engine: the interpreter's fetch, Zicsr and float paths. */
const ws_inst *ws_warp_fetch(ws_device *dev, ws_warp *w, uint32_t pc) { return fetch(dev, w, pc); }
int ws_warp_exec_csr(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc)
{
    return exec_csr(dev, w, in, g, pc);
}
int ws_warp_exec_float(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc)
{
    return exec_float(dev, w, in, g, pc);
}
int ws_warp_exec_atomic(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc)
{
    return exec_atomic(dev, w, in, g, pc);
}
