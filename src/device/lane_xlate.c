/* Address translation for one lane: global memory, the lane's stack, the
 * block's shared memory, with the precise fault when the access is bad.
 * The debug module uses it too (Access Memory sees what the lane sees). */
#include <string.h>
#include "device/lane_io.h"

static void raise_mem(ws_device *dev, ws_warp *w, uint32_t l, uint32_t pc, uint32_t addr,
                      uint32_t size, int write, const char *why)
{
    ws_fault_raise(dev, w, l, write ? FAULT_STORE : FAULT_LOAD, pc, addr, size,
                   "%s of %u byte%s at 0x%08x: %s", write ? "write" : "read", size, size == 1 ? "" : "s", addr, why);
}

/* The reason for an access to the stack slot just below a lane's own. */
static void stack_overflow(const ws_device *dev, uint32_t own, char *why, size_t len)
{
    snprintf(why, len, "stack overflow (the lane's %u-byte stack is [0x%08x, 0x%08x))", dev->mem.stack_size,
             WS_STACK_BASE + own * dev->mem.stack_size, WS_STACK_BASE + (own + 1) * dev->mem.stack_size);
}

void ws_sp_overflow_raise(ws_device *dev, ws_warp *w, uint32_t bad, const uint32_t *sp, uint32_t pc)
{
    const uint32_t l = (uint32_t)__builtin_ctz(bad), own = w->stack_slot0 + l;
    char why[200];
    stack_overflow(dev, own, why, sizeof why);
    ws_fault_raise(dev, w, l, FAULT_STORE, pc, sp[l], 0, "%s: the instruction sets sp to 0x%08x, below it", why, sp[l]);
}

/* A lane whose sp has left its own stack downwards (a frame or a recursion
 * too deep for it) is overflowing its stack, whichever slot or guard its
 * access lands in below that stack. */
static int sp_below_own_stack(const ws_device *dev, const ws_warp *w, uint32_t l, uint32_t own, uint32_t addr)
{
    uint32_t base = WS_STACK_BASE + own * dev->mem.stack_size;
    return addr < base && addr >= WS_GLOBAL_MAX_END && w->x[2][l] < base;
}

static void *stack_or_shared(ws_device *dev, ws_warp *w, uint32_t l, uint32_t pc, uint32_t addr,
                             uint32_t size, int write, int raise)
{
    char why[200];
    uint32_t so = addr - WS_STACK_BASE;
    if (so < WS_STACK_END - WS_STACK_BASE) {
        uint32_t slot = so >> dev->mem.stack_shift;
        if (slot == w->stack_slot0 + l) return ws_mem_stack_ptr(&dev->mem, slot, so & (dev->mem.stack_size - 1));
        if (!raise) return NULL;
        uint32_t own = w->stack_slot0 + l;
        if (slot + 1 == own || sp_below_own_stack(dev, w, l, own, addr))
            stack_overflow(dev, own, why, sizeof why);
        else
            snprintf(why, sizeof why, "not this lane's stack (stacks are private to each lane)");
        raise_mem(dev, w, l, pc, addr, size, write, why);
        return NULL;
    }
    uint32_t sh = addr - WS_SHARED_BASE;
    uint32_t total = dev->current->shared_total, lo = dev->current->shared_lo;
    if (sh < WS_SHARED_END - WS_SHARED_BASE) {
        if (sh - lo < total && sh - lo + size <= total) {
            const ws_block *b = w->block;
            return dev->cores[b->core].shared + b->shared_off + (sh - lo);
        }
        if (raise) {
            snprintf(why, sizeof why, "out of bounds of the block's %u bytes of shared memory "
                     "[0x%08x, 0x%08x)", total, WS_SHARED_BASE + lo, WS_SHARED_BASE + lo + total);
            raise_mem(dev, w, l, pc, addr, size, write, why);
        }
        return NULL;
    }
    if (raise) {
        uint32_t own = w->stack_slot0 + l;
        /* slot 0: below it lies the guard between the global arena and the
         * stacks (never mapped, however large global_mem_limit is) */
        if (addr >= WS_GLOBAL_MAX_END && addr < WS_STACK_BASE &&
            (own == 0 || sp_below_own_stack(dev, w, l, own, addr)))
            stack_overflow(dev, own, why, sizeof why);
        else
            ws_mem_describe(&dev->mem, addr, why, sizeof why);
        raise_mem(dev, w, l, pc, addr, size, write, why);
    }
    return NULL;
}

void *ws_lane_xlate(ws_device *dev, ws_warp *w, uint32_t l, uint32_t pc, uint32_t addr,
                    uint32_t size, int write, int raise)
{
    if (addr & (size - 1)) {
        if (raise)
            ws_fault_raise(dev, w, l, write ? FAULT_STORE_MISALIGNED : FAULT_LOAD_MISALIGNED, pc,
                           addr, size, "misaligned %u-byte %s at 0x%08x", size,
                           write ? "write" : "read", addr);
        return NULL;
    }
    uint32_t off = addr - WS_GLOBAL_BASE;
    if (off < dev->mem.limit) {
        uint8_t s = dev->mem.shadow[off >> 3];
        if (s <= SHADOW_RW ? (off & 7) + size <= s : (s == SHADOW_RX && !write))
            return dev->mem.global + off;
        if (raise) {
            char why[200];
            ws_mem_describe(&dev->mem, addr, why, sizeof why);
            raise_mem(dev, w, l, pc, addr, size, write, why);
        }
        return NULL;
    }
    return stack_or_shared(dev, w, l, pc, addr, size, write, raise);
}
