/* Event bus: timestamps and the formatter into the trace buffer. */
#include <stdlib.h>
#include <string.h>
#include "device/events/event_bus.h"

/* Cycles in timing mode, else warp instructions issued: both deterministic. */
uint64_t ws_ev_now(const ws_device *dev)
{
    const struct ws_events *e = dev->events;
    if (!dev->current) return e->clock_base;
    return e->clock_base + (dev->cfg.mode == WS_MODE_TIMING ? dev->now_cycle : dev->current->stats.warp_instructions);
}

void ws_ev_emit_slow(ws_device *dev, unsigned src, unsigned id, uint32_t core, uint32_t data)
{
    struct ws_events *e = dev->events;
    ws_event ev = { .time = ws_ev_now(dev), .data = data, .source = (uint8_t)src, .id = (uint8_t)id, .core = (uint16_t)core };
    /* the event is in the trace before the machines see it (a snapshot it
     * triggers includes it), and an event that starts the trace opens it */
    const int traced = (e->trace_mask[src] >> id) & 1; /* (not one only the debugger's machines watch) */
    int was_tracing = traced && e->tracing && e->capacity;
    if (was_tracing) ws_ev_write(&e->w, &ev);
    if (e->nmachines) ws_ev_machines(dev, &ev);
    if (traced && !was_tracing && e->tracing && e->capacity) ws_ev_write(&e->w, &ev);
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

/* Let every event machine p watches through `mask`. */
static void widen(uint16_t mask[WS_EV_SOURCES], const ws_machine_program *p)
{
    for (uint32_t i = 0; i < p->nwatch; i++) {
        const ws_watch *w = &p->watch[i];
        mask[w->source] |= (uint16_t)(1u << w->id);
        const int end = w->lasting ? ws_ev_duration_end(w->source, w->id) : -1;
        if (end >= 0) mask[w->source] |= (uint16_t)(1u << end); /* the event that ends a timed one must reach the machine too */
    }
}

static void count_machines(struct ws_events *e)
{
    e->nmachines = 0;
    for (unsigned i = 0; i < WS_EV_MACHINES; i++)
        if (e->machine[i].p.nwatch) e->nmachines = i + 1;
}

/* Put p (or nothing) into machine `index`, widening `mask`es to it. */
static void put_machine(struct ws_events *e, unsigned index, const ws_machine_program *p)
{
    ws_machine *m = &e->machine[index];
    free(m->timed);
    memset(m, 0, sizeof *m);
    if (p) {
        m->p = *p;
        m->st.enabled = p->enabled != 0;
        widen(e->mask, p);
    }
    count_machines(e);
}

void ws_ev_load_machine(ws_device *dev, unsigned index, const ws_machine_program *p)
{
    struct ws_events *e = dev->events;
    put_machine(e, index, p);
    if (p) widen(e->trace_mask, p); /* a program's machine's events are in its trace, as they always were */
}

int ws_ev_load_debugger_machine(ws_device *dev, const ws_machine_program *p)
{
    struct ws_events *e = dev->events;
    for (unsigned i = 0; i < WS_EV_MACHINES; i++) {
        const ws_machine *m = &e->machine[i];
        int debugger_done = ws_ev_debugger_holds(e, i) && m->st.done && !m->st.enabled;
        if (m->p.nwatch && !debugger_done) continue; /* armed, or the program's */
        put_machine(e, i, p);
        e->debugger_machines |= 1u << i;
        return (int)i;
    }
    return -1;
}

void ws_ev_clear_debugger_machines(ws_device *dev)
{
    struct ws_events *e = dev->events;
    for (unsigned i = 0; i < WS_EV_MACHINES; i++)
        if (ws_ev_debugger_holds(e, i)) put_machine(e, i, NULL);
    e->debugger_machines = 0;
    memcpy(e->mask, e->trace_mask, sizeof e->mask); /* what is left to watch: the program's */
    ws_ev_resume_debugger_halts(dev); /* their halts go with them */
}

void ws_ev_resume_debugger_halts(ws_device *dev)
{
    struct ws_events *e = dev->events;
    e->wd_halt.halted[WS_EV_DEBUGGER] = e->cp_halt.halted[WS_EV_DEBUGGER] = 0;
}

void ws_ev_drop_program(ws_device *dev)
{
    struct ws_events *e = dev->events;
    if (!e) return;
    const uint32_t keep = e->debugger_machines;
    if (!keep) {
        ws_ev_free(dev);
        return;
    }
    ws_machine kept[WS_EV_MACHINES];
    for (unsigned i = 0; i < WS_EV_MACHINES; i++) {
        kept[i] = e->machine[i];
        if (keep >> i & 1) continue;
        free(e->machine[i].timed);
    }
    free(e->snapshot);
    free(e->buf);
    /* the debugger's machines go on with the bus clock (their `within`
     * windows time from their previous step, on it) and their halts */
    const uint64_t clock = e->clock_base;
    const ws_ev_unit_halt wd = e->wd_halt, cp = e->cp_halt;
    memset(e, 0, sizeof *e);
    e->clock_base = clock;
    e->wd_halt = wd;
    e->cp_halt = cp;
    e->wd_halt.halted[WS_EV_PROGRAM] = e->cp_halt.halted[WS_EV_PROGRAM] = 0;
    for (unsigned i = 0; i < WS_EV_MACHINES; i++) {
        if (!(keep >> i & 1)) continue;
        e->machine[i] = kept[i];
        e->machine[i].ntimed = 0;  /* (between launches: nothing is being timed) */
        widen(e->mask, &kept[i].p);
    }
    e->debugger_machines = keep;
    count_machines(e);
}
