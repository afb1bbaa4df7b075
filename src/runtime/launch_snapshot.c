/* Saving and restoring a launch's inputs (launch_snapshot.h). */
#include <stdlib.h>
#include <string.h>
#include "runtime/launch_snapshot.h"

int ws_launch_snapshot_take(ws_device *dev, ws_launch_snapshot *s, uint32_t hole, size_t hole_size)
{
    memset(s, 0, sizeof *s);
    s->nglobal = dev->mem.brk;
    s->nstacks = (size_t)dev->mem.nslots * dev->mem.stack_size;
    s->nshared = (size_t)dev->cfg.cores * dev->cfg.shared_per_core;
    s->hole_lo = s->hole_hi = s->nglobal;
    if (hole_size && hole >= WS_GLOBAL_BASE) {
        s->hole_lo = hole - WS_GLOBAL_BASE;
        s->hole_hi = s->hole_lo + hole_size;
        if (s->hole_hi > s->nglobal) s->hole_lo = s->hole_hi = s->nglobal;
    }
    s->global = malloc(s->nglobal + 1);
    s->stacks = malloc(s->nstacks + 1);
    s->shared = malloc(s->nshared + 1);
    if (!s->global || !s->stacks || !s->shared) return -1;
    memcpy(s->global, dev->mem.global, s->hole_lo);
    memcpy(s->global + s->hole_hi, dev->mem.global + s->hole_hi, s->nglobal - s->hole_hi);
    memcpy(s->stacks, dev->mem.stacks, s->nstacks);
    for (uint32_t c = 0; c < dev->cfg.cores; c++)
        memcpy(s->shared + (size_t)c * dev->cfg.shared_per_core, dev->cores[c].shared, dev->cfg.shared_per_core);
    return 0;
}

static void restore_range(uint8_t *dst, const uint8_t *src, size_t n)
{
    for (size_t off = 0; off < n; off += 4096) {
        size_t len = n - off < 4096 ? n - off : 4096;
        if (memcmp(dst + off, src + off, len)) memcpy(dst + off, src + off, len);
    }
}

void ws_launch_snapshot_restore(ws_device *dev, const ws_launch_snapshot *s)
{
    restore_range(dev->mem.global, s->global, s->hole_lo);
    restore_range(dev->mem.global + s->hole_hi, s->global + s->hole_hi, s->nglobal - s->hole_hi);
    restore_range(dev->mem.stacks, s->stacks, s->nstacks);
    for (uint32_t c = 0; c < dev->cfg.cores; c++)
        restore_range(dev->cores[c].shared, s->shared + (size_t)c * dev->cfg.shared_per_core,
                      dev->cfg.shared_per_core);
}

void ws_launch_snapshot_free(ws_launch_snapshot *s)
{
    free(s->global);
    free(s->stacks);
    free(s->shared);
    memset(s, 0, sizeof *s);
}
