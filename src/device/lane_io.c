/* Lane memory accesses (checked) and ecall services. */
#include <string.h>
#include "device/lane_io.h"
#include "device/parallel.h"
#include "device/debug/debug_hooks.h"

#define MAX_PRINT 4096u

/* Run `body` for each lane of g in ascending order; a full warp takes a
 * plain counted loop the compiler can vectorise. */
#define EACH_LANE(dev, g, body) do {                                               \
        if ((g) == (dev)->full_mask) {                                             \
            for (uint32_t l = 0; l < (dev)->cfg.lanes_per_warp; l++) { body; }    \
        } else {                                                                   \
            for (uint32_t m_ = (g), l; m_ && ((l = (uint32_t)__builtin_ctz(m_)), 1); m_ &= m_ - 1) { body; } \
        }                                                                          \
    } while (0)

/* A warp-wide access that needs no per-lane check: every lane's address is
 * aligned and inside one region where all bytes are readable and writable —
 * one live data allocation (allocations only change between launches, so
 * the last one hit is cached), or the block's shared memory. The region is
 * chosen from the first lane; one pass checks the rest. Returns the host
 * base to add to device addresses, or NULL for the per-lane path. */
static uint8_t *uniform_region(ws_device *dev, const ws_warp *w, const ws_inst *in, uint32_t g,
                               uint32_t size)
{
    const uint32_t *base = w->x[in->rs1], imm = (uint32_t)in->imm;
    uint32_t a0 = base[__builtin_ctz(g)] + imm, lo, hi;
    uint8_t *host;
    if (a0 - (WS_SHARED_BASE + dev->current->shared_lo) < dev->current->shared_total) {
        const ws_block *b = w->block;
        lo = WS_SHARED_BASE + dev->current->shared_lo;
        hi = lo + dev->current->shared_total;
        host = dev->cores[b->core].shared + b->shared_off - lo;
    } else {
        ws_core *core = &dev->cores[w->core]; /* per core: cores may run on several host threads */
        if (a0 - core->hot_lo >= core->hot_hi - core->hot_lo) {
            const ws_region *r = ws_mem_in_global(&dev->mem, a0) ? ws_mem_region_near(&dev->mem, a0) : NULL;
            if (!r || r->kind != REGION_DATA || r->state != REGION_LIVE || a0 - r->addr >= r->size) return NULL;
            core->hot_lo = r->addr;
            core->hot_hi = r->addr + r->size;
        }
        lo = core->hot_lo;
        hi = core->hot_hi;
        host = dev->mem.global - WS_GLOBAL_BASE;
    }
    if (hi - lo < size) return NULL;
    const uint32_t last = hi - lo - size;
    uint32_t bad = 0;
    EACH_LANE(dev, g, { uint32_t a = base[l] + imm; bad |= ((a - lo) > last) | (a & (size - 1)); });
    return bad ? NULL : host;
}

int ws_lane_loads(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc)
{
    uint32_t size = in->op == OP_LB || in->op == OP_LBU ? 1 : in->op == OP_LH || in->op == OP_LHU ? 2 : 4;
    uint32_t *dst = in->op == OP_FLW ? w->f[in->rd] : w->x[in->rd];
    uint8_t *host;
    if (dev->debug && ws_dbg_data_hit(dev, w, in, g, size, 1)) return 1; /* before the access */
    if (size == 4 && (host = uniform_region(dev, w, in, g, 4))) {
        const uint32_t *base = w->x[in->rs1];
        const uint32_t imm = (uint32_t)in->imm;
        EACH_LANE(dev, g, memcpy(&dst[l], host + (uint32_t)(base[l] + imm), 4));
        return 0;
    }
    const uint8_t *row;
    if (size == 4 && (row = ws_lane_stack_row(dev, w, w->x[in->rs1], (uint32_t)in->imm, g, 4))) {
        EACH_LANE(dev, g, memcpy(&dst[l], row + 4 * l, 4));
        return 0;
    }
    if (size == 4) {
        const uint32_t *base = w->x[in->rs1];
        for (uint32_t m = g; m; m &= m - 1) { /* each lane reads its rs1 before writing its rd */
            uint32_t l = (uint32_t)__builtin_ctz(m), a = base[l] + (uint32_t)in->imm;
            const uint8_t *p = ws_lane_global_fast(dev, a, 4, 0);
            if (!p && !(p = ws_lane_xlate(dev, w, l, pc, a, 4, 0, 1))) return -1;
            memcpy(&dst[l], p, 4);
        }
        return 0;
    }
    for (uint32_t m = g; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        uint32_t a = w->x[in->rs1][l] + (uint32_t)in->imm;
        const uint8_t *p = ws_lane_global_fast(dev, a, size, 0);
        if (!p && !(p = ws_lane_xlate(dev, w, l, pc, a, size, 0, 1))) return -1;
        uint32_t v;
        switch (in->op) {
        case OP_LB: v = (uint32_t)(int32_t)(int8_t)p[0]; break;
        case OP_LBU: v = p[0]; break;
        case OP_LH: { int16_t h; memcpy(&h, p, 2); v = (uint32_t)(int32_t)h; break; }
        case OP_LHU: { uint16_t h; memcpy(&h, p, 2); v = h; break; }
        default: memcpy(&v, p, 4); break;
        }
        dst[l] = v;
    }
    return 0;
}

/* May helper lane l store at [addr, addr + size)? Only in memory of its
 * own: its stack, the record its a0 pointed to at the start (a fragment's
 * colour, which the pixel history shows for a discarded fragment too), or
 * a tool's buffer. */
static int helper_may_store(const ws_device *dev, const ws_warp *w, uint32_t l, uint32_t addr, uint32_t size)
{
    const uint32_t off = addr - (WS_STACK_BASE + ((w->stack_slot0 + l) << dev->mem.stack_shift));
    if (off <= dev->mem.stack_size - size || ws_lane_tool_addr(dev, addr)) return 1;
    const ws_grid_run *L = dev->current;
    const uint32_t rec = L->ireg[0] + L->ireg_stride[0] * (uint32_t)ws_lane_grid_thread(L, w, l);
    return L->ireg_stride[0] >= size && addr - rec <= L->ireg_stride[0] - size;
}

int ws_lane_stores(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc)
{
    uint32_t size = in->op == OP_SB ? 1 : in->op == OP_SH ? 2 : 4;
    const uint32_t *src = in->op == OP_FSW ? w->f[in->rs2] : w->x[in->rs2];
    uint8_t *host;
    if (dev->debug && ws_dbg_data_hit(dev, w, in, g, size, 2)) return 1; /* before the access */
    const uint32_t helpers = ws_lane_helpers(dev, w, g);
    if (!helpers && (host = uniform_region(dev, w, in, g, size))) {
        const uint32_t *base = w->x[in->rs1];
        const uint32_t imm = (uint32_t)in->imm;
        /* lane order; a constant size, or the compiler copies byte by byte */
        if (size == 4) EACH_LANE(dev, g, memcpy(host + (uint32_t)(base[l] + imm), &src[l], 4));
        else EACH_LANE(dev, g, memcpy(host + (uint32_t)(base[l] + imm), &src[l], size));
        return 0;
    }
    uint8_t *row = ws_lane_stack_row(dev, w, w->x[in->rs1], (uint32_t)in->imm, g, size);
    if (row) {
        if (size == 4) EACH_LANE(dev, g, memcpy(row + 4 * l, &src[l], 4));
        else EACH_LANE(dev, g, memcpy(row + 4 * l, &src[l], size));
        return 0;
    }
    for (uint32_t m = g; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m);
        uint32_t a = w->x[in->rs1][l] + (uint32_t)in->imm;
        if ((helpers >> l & 1) && !helper_may_store(dev, w, l, a, size)) continue; /* a helper's store has no effect */
        uint8_t *p = ws_lane_global_fast(dev, a, size, 1);
        if (!p && !(p = ws_lane_xlate(dev, w, l, pc, a, size, 1, 1))) return -1;
        memcpy(p, &src[l], size); /* little-endian host: low bytes first */
    }
    return 0;
}

int ws_lane_read_bytes(ws_device *dev, ws_warp *w, uint32_t l, uint32_t pc, uint32_t addr,
                       uint32_t len, char *out)
{
    for (uint32_t i = 0; i < len; i++) {
        const char *p = ws_lane_xlate(dev, w, l, pc, addr + i, 1, 0, 1);
        if (!p) return -1;
        out[i] = *p;
    }
    return 0;
}

/* Read a NUL-terminated device string into buf (truncated, never faults). */
static void lane_string(ws_device *dev, ws_warp *w, uint32_t l, uint32_t addr, char *buf, size_t len)
{
    size_t i = 0;
    for (; i + 1 < len; i++) {
        const char *p = ws_lane_xlate(dev, w, l, 0, addr + (uint32_t)i, 1, 0, 0);
        if (!p) { if (i == 0) snprintf(buf, len, "<bad string at 0x%08x>", addr); else buf[i] = 0; return; }
        if (!*p) break;
        buf[i] = *p;
    }
    buf[i] = 0;
}

int ws_lane_write(ws_device *dev, ws_warp *w, uint32_t l, uint32_t pc, uint32_t fd,
                  uint32_t buf, uint32_t len)
{
    (void)fd; /* stdout and stderr both go to the printf sink */
    char text[MAX_PRINT];
    if (len > MAX_PRINT) len = MAX_PRINT;
    if (ws_lane_read_bytes(dev, w, l, pc, buf, len, text)) return -1;
    ws_dim3 t = { w->tid[0][l], w->tid[1][l], w->tid[2][l] };
    if (dev->par_active) { /* emitted in core order after the round */
        if (!ws_par_print(dev, w, t, text, len)) return 0;
        ws_fault_raise(dev, w, l, FAULT_ECALL, pc, 0, 0, "printf: out of host memory holding a parallel round's output");
        return -1;
    }
    if (dev->printf_fn) { /* calls back into the library are refused meanwhile */
        dev->printf_depth++;
        dev->printf_fn(dev->printf_user, dev->current->id, w->block->idx, t, text, len);
        dev->printf_depth--;
    } else {
        fwrite(text, 1, len, stdout);
        fflush(stdout);
    }
    return 0;
}

void ws_lane_assert(ws_device *dev, ws_warp *w, uint32_t l, uint32_t pc)
{
    char expr[256], file[256], func[128];
    lane_string(dev, w, l, w->x[10][l], expr, sizeof expr);
    lane_string(dev, w, l, w->x[11][l], file, sizeof file);
    lane_string(dev, w, l, w->x[13][l], func, sizeof func);
    ws_fault_raise(dev, w, l, FAULT_ASSERT, pc, 0, 0, "assertion '%s' failed at %s:%u in %s()",
                   expr, file, w->x[12][l], func);
}

void ws_lane_trap(ws_device *dev, ws_warp *w, uint32_t l, uint32_t pc)
{
    char msg[256];
    lane_string(dev, w, l, w->x[10][l], msg, sizeof msg);
    ws_fault_raise(dev, w, l, FAULT_TRAP, pc, 0, 0, "kernel trapped: %s", msg);
}
