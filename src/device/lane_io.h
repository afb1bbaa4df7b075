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
