/* The decoded-instruction cache of the global arena (dev->code_pages):
 * entries are decoded on first fetch (warp_exec.c) and dropped here when the
 * code under them changes (module unload, a debugger's breakpoint), with
 * every pre-decoded block of the fast engine (fast_exec.c). */
#include <string.h>
#include "device/device.h"
#include "device/fast_exec.h"

void ws_code_invalidate(ws_device *dev, uint32_t addr, uint32_t n)
{
    /* (from 8 bytes before: a far-branch hint's entry holds the branch
     * and jump after it, warp_exec.c) */
    uint32_t from = addr >= WS_GLOBAL_BASE + 8 ? addr - 8 : WS_GLOBAL_BASE;
    const uint64_t end = (uint64_t)addr + n;
    /* page by page: a debugger's range trigger may cover most of the
     * arena, whose pages mostly hold no decoded code */
    for (uint64_t a = from & ~1u, stop; a < end; a = stop) {
        const uint32_t idx = (uint32_t)((a - WS_GLOBAL_BASE) >> 12);
        if (idx >= dev->ncode_pages) break;
        stop = ((a >> 12) + 1) << 12;
        if (stop > end) stop = end;
        if (dev->code_pages[idx]) /* the entries of a, a + 2, ... below stop */
            memset(&dev->code_pages[idx][(a & 0xFFFu) >> 1], 0, (size_t)((stop - a + 1) / 2) * sizeof(ws_inst));
    }
    ws_fast_flush(dev); /* the fast engine's blocks are copies of these entries */
}
