/* Trace cells: configuration, FIFOs and the event buffer in device memory.
 * The timing model decides when a sample is due and what each warp is
 * doing (src/device/timing.c); this file owns where the records go. */
#include <stdlib.h>
#include <string.h>
#include "device/trace/trace_cell_hw.h"

static uint64_t hdr_get(const uint8_t *buf, size_t off)
{
    uint64_t v;
    memcpy(&v, buf + off, sizeof v);
    return v;
}
static void hdr_add(uint8_t *buf, size_t off)
{
    uint64_t v = hdr_get(buf, off) + 1;
    memcpy(buf + off, &v, sizeof v);
}

static uint64_t buffer_bytes(const ws_trace_config *c)
{
    return sizeof(ws_trace_header) + (uint64_t)c->capacity * sizeof(ws_trace_record);
}

ws_status ws_trace_configure(ws_device *dev, const ws_trace_config *cfg)
{
    if (!dev || !cfg) return WS_ERR_INVALID_ARG;
    if (dev->current) return ws_set_error(dev, WS_ERR_BUSY, "trace cells: cannot reprogram during a launch");
    if (cfg->trigger > WS_TRACE_ON_BARRIER || cfg->mode > WS_TRACE_ROUND_ROBIN)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "trace cells: unknown trigger %d or mode %d",
                            (int)cfg->trigger, (int)cfg->mode);
    if (cfg->trigger == WS_TRACE_ON_CYCLES && cfg->period_log2 > 40)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "trace cells: period_log2=%u: must be 0..40", cfg->period_log2);
    if (cfg->trigger != WS_TRACE_ON_CYCLES && cfg->event_count < 1)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "trace cells: event_count must be at least 1");
    if (cfg->trigger == WS_TRACE_ON_CYCLES && cfg->dither > 1ull << cfg->period_log2)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "trace cells: dither=%llu: must be at most the period (2^%u)",
                            (unsigned long long)cfg->dither, cfg->period_log2);
    if (cfg->capacity < 1)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "trace cells: capacity must be at least 1 record");
    /* No queue drain here: the profiler programs the cells from inside the
     * command processor, between replay passes. The header is written at
     * once, so a caller that queued work on the buffer synchronises first. */
    char err[256];
    uint8_t *buf = ws_mem_host_range(&dev->mem, cfg->buffer, buffer_bytes(cfg), 1, err, sizeof err);
    if (!buf)
        return ws_set_error(dev, WS_ERR_BAD_ADDRESS,
                            "trace cells: event buffer at 0x%08x (%llu bytes for %u records): %s",
                            cfg->buffer, (unsigned long long)buffer_bytes(cfg), cfg->capacity, err);
    struct ws_trace_cells *t = dev->trace;
    if (!t) {
        t = calloc(1, sizeof *t);
        if (t) t->cell = calloc(dev->cfg.cores, sizeof *t->cell);
        if (!t || !t->cell) {
            free(t);
            return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "trace cells: out of host memory");
        }
        t->ncores = dev->cfg.cores;
        dev->trace = t;
    }
    t->cfg = *cfg;
    t->cfg.enabled = 1;
    t->mask = (1ull << cfg->period_log2) - 1;
    t->armed = 0;
    memset(t->cell, 0, t->ncores * sizeof *t->cell);
    ws_trace_header h = { WS_TRACE_MAGIC, 2, sizeof(ws_trace_record), cfg->capacity, 0, 0, 0 };
    memcpy(buf, &h, sizeof h);
    return WS_OK;
}

ws_status ws_trace_disable(ws_device *dev)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    if (dev->current) return ws_set_error(dev, WS_ERR_BUSY, "trace cells: cannot reprogram during a launch");
    if (dev->trace) dev->trace->cfg.enabled = 0, dev->trace->armed = 0;
    return WS_OK;
}

ws_status ws_trace_observe(ws_device *dev, ws_trace_observer fn, void *user)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    if (!dev->trace) return ws_set_error(dev, WS_ERR_INVALID_ARG, "trace cells: not configured, nothing to observe");
    dev->trace->observer = fn;
    dev->trace->observer_user = user;
    return WS_OK;
}

void ws_trace_cells_free(ws_device *dev)
{
    if (!dev->trace) return;
    free(dev->trace->cell);
    free(dev->trace);
    dev->trace = NULL;
}

/* xorshift64*: a small deterministic generator, as a cell's LFSR would be. */
static uint64_t next_random(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545f4914f6cdd1dull;
}

static uint64_t seed(uint64_t a, uint64_t b)
{
    uint64_t z = a * 0x9e3779b97f4a7c15ull + b + 0x632be59bd9b4e019ull;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    return z ? z : 1; /* (xorshift never leaves 0) */
}

/* A new offset every `hold` periods: at short periods an offset drawn for
 * each one would make the gaps between samples, and so the FIFO's room
 * (how many warps an overflowing sample keeps), depend on where in its
 * period a sample falls; with one offset kept for 2 x FIFO_DEPTH cycles or
 * more only the samples that change it see another gap. */
static void draw_offset(struct ws_trace_cells *t)
{
    t->offset = next_random(&t->rng) % t->cfg.dither;
    t->held = 0;
}

void ws_trace_dither_next(struct ws_trace_cells *t)
{
    t->base += t->mask + 1;
    if (++t->held >= t->hold) draw_offset(t);
    t->due = t->base + t->offset;
}

uint32_t ws_trace_dither_pick(struct ws_trace_cells *t, uint32_t core, uint32_t n)
{
    return (uint32_t)(next_random(&t->cell[core].rng) % n);
}

void ws_trace_launch_begin(ws_device *dev, uint64_t launch_id)
{
    struct ws_trace_cells *t = dev->trace;
    if (!t) return;
    t->armed = 0;
    if (!t->cfg.enabled || (t->cfg.launch_id && t->cfg.launch_id != launch_id)) return;
    char err[256];
    t->buf = ws_mem_host_range(&dev->mem, t->cfg.buffer, buffer_bytes(&t->cfg), 1, err, sizeof err);
    if (!t->buf) { t->cfg.enabled = 0; return; } /* freed since: sampling stops */
    for (uint32_t c = 0; c < t->ncores; c++) {
        t->cell[c].head = t->cell[c].count = 0;
        t->cell[c].events = 0;
        t->cell[c].rr = 0;
        t->cell[c].rng = seed(t->cfg.phase, 1 + (uint64_t)c);
    }
    /* cycles start at 0 with each launch; the offsets' generator restarts
     * with one seed for every phase (passes: disjoint windows) */
    t->base = (0 - t->cfg.phase) & t->mask;
    t->rng = seed(0, 0);
    t->hold = (uint32_t)((2 * WS_TRACE_FIFO_DEPTH + t->mask) / (t->mask + 1));
    t->offset = 0;
    if (t->cfg.dither > 1) draw_offset(t);
    t->due = t->base + t->offset;
    t->armed = 1;
}

void ws_trace_launch_end(ws_device *dev)
{
    struct ws_trace_cells *t = dev->trace;
    if (!t || !t->armed) return;
    for (uint32_t c = 0; c < t->ncores; c++) ws_trace_drain(t, c, WS_TRACE_FIFO_DEPTH);
    t->armed = 0;
}

int ws_trace_event_count(struct ws_trace_cells *t, uint32_t core, uint64_t cycle, ws_trace_trigger ev)
{
    const ws_trace_config *c = &t->cfg;
    if (c->trigger != ev || (core < 64 && !(c->core_mask >> core & 1))) return 0;
    if (c->cycle_hi && (cycle < c->cycle_lo || cycle > c->cycle_hi)) return 0;
    return ++t->cell[core].events % c->event_count == 0;
}

void ws_trace_push(struct ws_trace_cells *t, uint32_t core, const ws_trace_record *r)
{
    ws_trace_cell *cell = &t->cell[core];
    if (cell->count == WS_TRACE_FIFO_DEPTH) {
        hdr_add(t->buf, offsetof(ws_trace_header, dropped));
        return;
    }
    cell->fifo[(cell->head + cell->count) % WS_TRACE_FIFO_DEPTH] = *r;
    cell->count++;
}

void ws_trace_overflow(struct ws_trace_cells *t, uint64_t n)
{
    for (; n; n--) {
        hdr_add(t->buf, offsetof(ws_trace_header, dropped));
        hdr_add(t->buf, offsetof(ws_trace_header, overflowed));
    }
}

void ws_trace_drain(struct ws_trace_cells *t, uint32_t core, uint64_t n)
{
    ws_trace_cell *cell = &t->cell[core];
    for (; n && cell->count; n--) {
        uint64_t written = hdr_get(t->buf, offsetof(ws_trace_header, written));
        if (written >= t->cfg.capacity) {
            hdr_add(t->buf, offsetof(ws_trace_header, dropped));
        } else {
            memcpy(t->buf + sizeof(ws_trace_header) + written * sizeof(ws_trace_record),
                   &cell->fifo[cell->head], sizeof(ws_trace_record));
            hdr_add(t->buf, offsetof(ws_trace_header, written));
        }
        cell->head = (cell->head + 1) % WS_TRACE_FIFO_DEPTH;
        cell->count--;
    }
}

void ws_trace_drain_cycles(struct ws_trace_cells *t, uint64_t n)
{
    for (int more = 1; n && more; n--) { /* until every FIFO is empty */
        more = 0;
        for (uint32_t c = 0; c < t->ncores; c++) {
            if (!t->cell[c].count) continue;
            ws_trace_drain(t, c, 1);
            more |= t->cell[c].count != 0;
        }
    }
}
