/* Event bus: timestamps and the formatter into the trace buffer. */
#include <stdlib.h>
#include <string.h>
#include "device/events/event_bus.h"

/* Cycles in timing mode, else warp instructions issued: both deterministic. */
static uint64_t now(const ws_device *dev)
{
    const struct ws_events *e = dev->events;
    if (!dev->current) return e->clock_base;
    return e->clock_base + (dev->cfg.mode == WS_MODE_TIMING ? dev->now_cycle : dev->current->stats.warp_instructions);
}

void ws_ev_emit_slow(ws_device *dev, unsigned src, unsigned id, uint32_t core, uint32_t data)
{
    struct ws_events *e = dev->events;
    ws_event ev = { .time = now(dev), .data = data, .source = (uint8_t)src, .id = (uint8_t)id, .core = (uint16_t)core };
    /* the event is in the trace before the machines see it (a snapshot it
     * triggers includes it), and an event that starts the trace opens it */
    int was_tracing = e->tracing && e->capacity;
    if (was_tracing) ws_ev_write(&e->w, &ev);
    if (e->nmachines) ws_ev_machines(dev, &ev);
    if (!was_tracing && e->tracing && e->capacity) ws_ev_write(&e->w, &ev);
}

void ws_ev_launch_end(ws_device *dev, uint64_t launch_time)
{
    if (dev->events) dev->events->clock_base += launch_time;
}

uint8_t *ws_ev_blob(const ws_device *dev, size_t *size)
{
    const ws_ev_writer *w = &dev->events->w;
    size_t n = (size_t)((w->bits + 7) / 8);
    uint8_t *b = malloc(WS_EV_HEADER + n + 1);
    if (!b) return NULL;
    uint16_t version = ws_ev_version(w), flags = w->dropped ? WS_EV_FLAG_DROPPED : 0;
    memcpy(b, "WSEV", 4);
    memcpy(b + 4, &version, 2);
    memcpy(b + 6, &flags, 2);
    memcpy(b + 8, &w->events, 8);
    memcpy(b + 16, &w->bits, 8);
    if (n) memcpy(b + WS_EV_HEADER, dev->events->buf, n);
    if (w->bits & 7) b[WS_EV_HEADER + n - 1] &= (uint8_t)(0xFF00u >> (w->bits & 7)); /* bits past the end: zero */
    *size = WS_EV_HEADER + n;
    return b;
}

void ws_ev_free(ws_device *dev)
{
    if (!dev->events) return;
    for (unsigned i = 0; i < WS_EV_MACHINES; i++) free(dev->events->machine[i].timed);
    free(dev->events->snapshot);
    free(dev->events->buf);
    free(dev->events);
    dev->events = NULL;
}

int ws_ev_create(ws_device *dev)
{
    if (dev->events) return 0;
    dev->events = calloc(1, sizeof *dev->events);
    return dev->events ? 0 : -1;
}

void ws_ev_load_machine(ws_device *dev, unsigned index, const ws_machine_program *p)
{
    struct ws_events *e = dev->events;
    ws_machine *m = &e->machine[index];
    free(m->timed);
    memset(m, 0, sizeof *m);
    if (!p) return;
    m->p = *p;
    m->st.enabled = p->enabled != 0;
    for (uint32_t i = 0; i < p->nwatch; i++) {
        const ws_watch *w = &p->watch[i];
        e->mask[w->source] |= (uint16_t)(1u << w->id);
        if (w->lasting) { /* the event that ends a timed one must reach the machine too */
            if (w->source == WS_EV_SCHED && w->id == WS_EV_SCHED_BARRIER_WAIT) e->mask[WS_EV_SCHED] |= 1u << WS_EV_SCHED_BARRIER_RELEASE;
            if (w->source == WS_EV_SCHED && w->id == WS_EV_SCHED_WARP_START) e->mask[WS_EV_SCHED] |= 1u << WS_EV_SCHED_WARP_RETIRE;
            if (w->source == WS_EV_WD && w->id == WS_EV_WD_STALL) e->mask[WS_EV_WD] |= 1u << WS_EV_WD_DISPATCH;
            if (w->source == WS_EV_CP && w->id == WS_EV_CP_START) e->mask[WS_EV_CP] |= 1u << WS_EV_CP_DONE;
        }
    }
    if (index + 1 > e->nmachines) e->nmachines = index + 1;
}

void ws_ev_clear_machines(ws_device *dev)
{
    struct ws_events *e = dev->events;
    for (unsigned i = 0; i < WS_EV_MACHINES; i++) ws_ev_load_machine(dev, i, NULL);
    e->nmachines = 0;
}
