/* Checked memory access for one lane, and the services lanes call through
 * ecall (printf output, assert, trap). */
#ifndef WS_DEVICE_LANE_IO_H
#define WS_DEVICE_LANE_IO_H
#include "device/device.h"

/* Host pointer for a lane access of `size` bytes at addr, or NULL after
 * raising the precise fault (misaligned, out of bounds, use after free,
 * read-only, stack overflow, null) when raise is set. */
void *ws_lane_xlate(ws_device *dev, ws_warp *w, uint32_t lane, uint32_t pc, uint32_t addr,
                    uint32_t size, int write, int raise);
/* The common case inline: an aligned access to addressable global memory.
 * NULL sends the caller to ws_lane_xlate for the other regions and for the
 * precise fault report. */
static inline uint8_t *ws_lane_global_fast(const ws_device *dev, uint32_t addr, uint32_t size, int write)
{
    uint32_t off = addr - WS_GLOBAL_BASE;
    if ((addr & (size - 1)) || off >= dev->mem.limit) return NULL;
    uint8_t s = dev->mem.shadow[off >> 3];
    if (s <= SHADOW_RW ? (off & 7) + size <= s : (s == SHADOW_RX && !write))
        return dev->mem.global + off;
    return NULL;
}

/* Do the lanes of g all address their own stack at one offset, aligned
 * to size (spills, locals)? Returns the host address of lane 0's bytes
 * there, or NULL. Lane l's are 4 l bytes further: a warp's lanes hold one
 * row of stack slots (stack_slot0 is a multiple of the lanes per warp),
 * interleaved word by word (memory.h). */
static inline uint8_t *ws_lane_stack_row(const ws_device *dev, const ws_warp *w, const uint32_t *base, uint32_t imm,
                                         uint32_t g, uint32_t size)
{
    const uint32_t shift = dev->mem.stack_shift, first = (uint32_t)__builtin_ctz(g);
    const uint32_t off = base[first] + imm - (WS_STACK_BASE + ((w->stack_slot0 + first) << shift));
    if (off > dev->mem.stack_size - size || (off & (size - 1))) return NULL;
    uint32_t bad = 0;
    if (g == UINT32_MAX) { /* a full 32-lane warp: a loop that vectorises */
        for (uint32_t l = 0; l < 32; l++) bad |= (base[l] + imm - (WS_STACK_BASE + ((w->stack_slot0 + l) << shift))) ^ off;
    } else {
        for (uint32_t m = g; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m);
            bad |= (base[l] + imm - (WS_STACK_BASE + ((w->stack_slot0 + l) << shift))) ^ off;
        }
    }
    return bad ? NULL : ws_mem_stack_ptr(&dev->mem, w->stack_slot0, off);
}

/* The lanes of g whose sp, given as the row `sp` (an instruction's new x2),
 * lies below the base of their own stack: a frame or a recursion too deep
 * for the stack. Checked at every write of sp, so a frame larger than the
 * stack guard below the stacks cannot reach past it into the global arena
 * (docs/device.md). 0 when none. */
static inline uint32_t ws_sp_below_stack(const ws_device *dev, const ws_warp *w, uint32_t g, const uint32_t *sp)
{
    /* lane l's stack base: computed, not stored, so a warp start costs nothing more */
    const uint32_t shift = dev->mem.stack_shift, slot0 = w->stack_slot0;
    uint32_t bad = 0;
    if (g == UINT32_MAX) { /* a full 32-lane warp: first a yes/no that vectorises */
        uint32_t any = 0;
        for (uint32_t l = 0; l < 32; l++) any |= sp[l] < WS_STACK_BASE + ((slot0 + l) << shift);
        if (!any) return 0;
    }
    for (uint32_t m = g; m; m &= m - 1) {
        const uint32_t l = (uint32_t)__builtin_ctz(m);
        bad |= (uint32_t)(sp[l] < WS_STACK_BASE + ((slot0 + l) << shift)) << l;
    }
    return bad;
}
/* Does instruction `in` need the check above? Any that writes sp (rd = x2:
 * stores and branches, whose rd field means nothing, are checked
 * harmlessly) but `addi sp, sp, N` with N >= 0, which only raises an sp
 * already checked (it cannot pass 2^32 from a lane's stack). */
static inline int ws_sp_check_needed(const ws_inst *in)
{
    return in->rd == 2 && !(in->op == OP_ADDI && in->rs1 == 2 && in->imm >= 0);
}
/* Raise the stack overflow of the lowest lane of `bad` (ws_sp_below_stack),
 * whose instruction at pc would set sp to sp[lane]. */
void ws_sp_overflow_raise(ws_device *dev, ws_warp *w, uint32_t bad, const uint32_t *sp, uint32_t pc);

/* Is addr in a tool's buffer (the tracer's records, say)? A fragment's
 * helper lanes store and count there too: tools see every lane. */
static inline int ws_lane_tool_addr(const ws_device *dev, uint32_t addr)
{
    const uint32_t off = addr - WS_GLOBAL_BASE;
    return off >= ws_mem_tool_lo(&dev->mem) && off < dev->mem.limit;
}
/* Loads/stores of the group: 0 done, -1 fault raised, 1 a data trigger
 * halted the warp before the access. */
int ws_lane_loads(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc);
int ws_lane_stores(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc);
/* Copy a lane's bytes [addr, addr+len) out of device memory (checked). */
int ws_lane_read_bytes(ws_device *dev, ws_warp *w, uint32_t lane, uint32_t pc, uint32_t addr,
                       uint32_t len, char *out);
int ws_lane_write(ws_device *dev, ws_warp *w, uint32_t lane, uint32_t pc, uint32_t fd,
                  uint32_t buf, uint32_t len);
void ws_lane_assert(ws_device *dev, ws_warp *w, uint32_t lane, uint32_t pc);
void ws_lane_trap(ws_device *dev, ws_warp *w, uint32_t lane, uint32_t pc);
#endif
