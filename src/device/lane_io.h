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
