/* The wide counting twin of a module (WSI_COUNT with WSI_WARPS |
 * WSI_WIDE_COUNTS) and its 64-bit block counters, low word first: the
 * lane count at words 0-1 of each block, the warp count at 2-3
 * (test_count_wrap.c, test_wrap_grouping.c). */
#ifndef WS_TEST_WIDE_COUNTERS_H
#define WS_TEST_WIDE_COUNTERS_H
#include <stdint.h>
#include <string.h>
#include "device/device.h"
#include "instrument/rewrite.h"
#include "runtime/runtime.h"

/* Rewrite elf (n bytes, read from path) into its wide counting twin;
 * NULL if the rewriter refused (err says why). */
static inline uint8_t *wide_twin(const uint8_t *elf, size_t n, const char *path, size_t *tn, wsi_module_info *info,
                                 char *err, size_t errlen)
{
    uint8_t *twin = NULL;
    memset(info, 0, sizeof *info);
    if (wsi_rewrite(elf, n, path, WSI_COUNT, WSI_WARPS | WSI_WIDE_COUNTS, &twin, tn, info, err, errlen)) return NULL;
    return twin;
}

/* The loaded twin m's block counters, in device memory. */
static inline uint32_t *wide_counters(ws_device *dev, const ws_module *m, const wsi_module_info *info)
{
    return (uint32_t *)(void *)ws_mem_global_ptr(&dev->mem, m->base + (info->ctl_addr - m->link_base) + WSI_CTL_HEADER);
}

static inline uint64_t get64(const uint32_t *w) { return (uint64_t)w[1] << 32 | w[0]; }

/* Start block b's lane and warp counters at the given values. */
static inline void set_block_counters(uint32_t *ctl, uint32_t b, uint64_t lane, uint64_t warp)
{
    ctl[4 * b] = (uint32_t)lane, ctl[4 * b + 1] = (uint32_t)(lane >> 32);
    ctl[4 * b + 2] = (uint32_t)warp, ctl[4 * b + 3] = (uint32_t)(warp >> 32);
}
#endif
