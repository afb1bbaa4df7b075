/* Checking that instrumentation changes nothing the kernel computes: a
 * digest of every page of live global memory (allocations and modules) after an instrumented pass is
 * compared with the same digest after the launch itself. The tracer's own
 * bytes (the twins' control areas, the trace buffers) are left out. */
#include <stdlib.h>
#include <string.h>
#include "instrument/trace_verify.h"

static int excluded(const tv_digest *d, uint64_t off)
{
    for (int i = 0; i < d->nholes; i++)
        if (off >= d->hole[i][0] && off < d->hole[i][1]) return 1;
    return 0;
}

static uint64_t page_hash(const tv_digest *d, const uint8_t *mem, uint64_t off, uint64_t len)
{
    uint64_t h = 1469598103934665603ull;
    int touches = 0;
    for (int i = 0; i < d->nholes; i++) touches |= off < d->hole[i][1] && off + len > d->hole[i][0];
    if (!touches) { /* the common case: whole words */
        uint64_t i = 0, w;
        for (; i + 8 <= len; i += 8) {
            memcpy(&w, mem + off + i, 8);
            h = (h ^ w) * 1099511628211ull;
        }
        for (; i < len; i++) h = (h ^ mem[off + i]) * 1099511628211ull;
        return h;
    }
    for (uint64_t i = 0; i < len; i++)
        if (!excluded(d, off + i)) h = (h ^ mem[off + i]) * 1099511628211ull;
    return h;
}

int tv_exclude(tv_digest *d, ws_device *dev, uint32_t addr, uint64_t size)
{
    if (d->nholes >= TV_MAX_HOLES || addr < WS_GLOBAL_BASE || !size) return 0;
    d->hole[d->nholes][0] = addr - WS_GLOBAL_BASE;
    d->hole[d->nholes][1] = addr - WS_GLOBAL_BASE + size;
    d->nholes++;
    (void)dev;
    return 1;
}

/* Only live allocations and modules count: freed memory holds whatever an
 * earlier launch's trace buffer left there. */
int tv_take(tv_digest *d, ws_device *dev, uint64_t nbytes)
{
    const ws_memory *m = &dev->mem;
    uint64_t pages = 0;
    for (size_t r = 0; r < m->nregions; r++)
        if (m->regions[r].state == REGION_LIVE) pages += (m->regions[r].size + 4095) / 4096;
    free(d->page);
    free(d->at);
    d->page = malloc((pages + 1) * sizeof *d->page);
    d->at = malloc((pages + 1) * sizeof *d->at);
    if (!d->page || !d->at) return -1;
    d->npages = 0;
    d->nbytes = 0;
    for (size_t r = 0; r < m->nregions; r++) {
        const ws_region *g = &m->regions[r];
        uint64_t lo = g->addr - WS_GLOBAL_BASE;
        if (g->state != REGION_LIVE || lo + g->size > nbytes || excluded(d, lo)) continue; /* the tracer's own */
        for (uint64_t off = 0; off < g->size; off += 4096) {
            uint64_t len = g->size - off < 4096 ? g->size - off : 4096;
            d->at[d->npages] = ((lo + off) << 12) | (len - 1);
            d->page[d->npages++] = page_hash(d, m->global, lo + off, len);
            d->nbytes += len;
        }
    }
    return 0;
}

int64_t tv_compare(const tv_digest *d, ws_device *dev)
{
    for (uint64_t p = 0; p < d->npages; p++) {
        uint64_t off = d->at[p] >> 12, len = (d->at[p] & 4095) + 1;
        if (page_hash(d, dev->mem.global, off, len) != d->page[p]) return (int64_t)(WS_GLOBAL_BASE + off);
    }
    return -1;
}

void tv_free(tv_digest *d)
{
    free(d->page);
    free(d->at);
    memset(d, 0, sizeof *d);
}
