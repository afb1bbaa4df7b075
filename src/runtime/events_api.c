/* The event trace's API (include/warpscope/events.h): configure the
 * filters and the buffer, read the stream back with its header. */
#include <stdlib.h>
#include <string.h>
#include "device/events/event_bus.h"
#include "runtime/api_lock.h"
#include "runtime/runtime.h"

/* Under the event watcher the device's one bus is the watcher's: the
 * program's calls are refused rather than shared, so the program never
 * reads the watcher's events and never replaces its machines, and the
 * watcher's trace is what it would be without the program's calls
 * (docs/events.md, "A program's bus and the watcher's"). */
void ws_events_owner_begin(ws_device *dev, const char *owner)
{
    dev->events_owner = owner;
    dev->events_owner_calling = 1;
}

void ws_events_owner_end(ws_device *dev) { dev->events_owner_calling = 0; }

static int bus_held_by_tool(const ws_device *dev) { return dev->events_owner && !dev->events_owner_calling; }

static ws_status refuse_program(ws_device *dev, const char *fn)
{
    return ws_set_error(dev, WS_ERR_BUSY, "%s: the device's event bus is held by %s; a program run under it cannot "
                        "configure, program or read the bus (run it without the watcher to use its own)", fn,
                        dev->events_owner);
}

ws_status ws_events_configure(ws_device *dev, const ws_event_config *cfg)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_events_configure");
    if (bus_held_by_tool(dev)) return refuse_program(dev, "ws_events_configure");
    if (!cfg) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_configure: cfg is NULL");
    if (dev->tool_launch_depth)
        return ws_set_error(dev, WS_ERR_BUSY, "ws_events_configure: a launch is running");
    ws_status st = ws_cmd_drain(dev, 0);
    if (st != WS_OK) return st;
    /* not in device memory: the program keeps every byte and address it
     * has without the trace (calloc: the pages are touched as the trace
     * grows) */
    uint8_t *buf = NULL;
    if (cfg->capacity && !(buf = calloc(1, cfg->capacity)))
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_events_configure: out of host memory for a %u-byte "
                            "trace buffer", cfg->capacity);
    ws_ev_drop_program(dev); /* (the debugger's machines stay) */
    if (ws_ev_create(dev)) {
        free(buf);
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_events_configure: out of host memory");
    }
    struct ws_events *e = dev->events;
    for (unsigned s = 0; s < WS_EV_SOURCES; s++) e->mask[s] |= e->trace_mask[s] = cfg->mask[s];
    e->configured = 1;
    e->buf = buf;
    e->capacity = cfg->capacity;
    e->w.cap_bits = (uint64_t)e->capacity * 8;
    e->tracing = e->capacity != 0;
    e->w.buf = e->buf;
    return WS_OK;
}

/* The program's bus: configured by it (not only the debugger's machines). */
static int configured(const ws_device *dev) { return dev->events && dev->events->configured; }

static ws_status refuse_debugger_machine(ws_device *dev, const char *fn, unsigned index)
{
    return ws_set_error(dev, WS_ERR_BUSY, "%s: machine %u is held by %s; use another machine, or clear the "
                        "debugger's ('monitor watch clear')", fn, index, WS_EV_DEBUGGER_NAME);
}

ws_status ws_events_read(ws_device *dev, uint8_t **bytes, size_t *size, uint64_t *events, uint64_t *dropped)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_events_read");
    if (!bytes || !size) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_read: bytes or size is NULL");
    *bytes = NULL;
    *size = 0;
    if (bus_held_by_tool(dev)) return refuse_program(dev, "ws_events_read");
    if (!configured(dev)) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_read: the event trace is not configured");
    ws_status st = dev->tool_launch_depth ? WS_OK : ws_cmd_drain(dev, 0);
    const ws_ev_writer *w = &dev->events->w;
    uint8_t *b = ws_ev_blob(dev, size);
    if (!b) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_events_read: out of host memory");
    *bytes = b;
    if (events) *events = w->events;
    if (dropped) *dropped = w->dropped;
    return st; /* a failed launch still leaves its events */
}

ws_status ws_events_disable(ws_device *dev)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_events_disable");
    if (bus_held_by_tool(dev)) return refuse_program(dev, "ws_events_disable");
    ws_ev_drop_program(dev); /* (the debugger's machines stay) */
    return WS_OK;
}

/* A machine that could never fire on this device is refused, not loaded
 * to wait forever: a step on a core the device does not have, or whose
 * data condition no value meets, and a halt of cores it does not have. */
static ws_status check_on_device(ws_device *dev, unsigned index, const ws_machine_program *p)
{
    const uint32_t cores = dev->cfg.cores;
    const uint64_t have = cores >= 32 ? UINT32_MAX : (1ull << cores) - 1;
    for (uint32_t i = 0; i < p->nwatch; i++) {
        const ws_watch *w = &p->watch[i];
        const uint32_t top = w->mask ? w->mask : UINT32_MAX; /* the largest data under the mask */
        if (w->core != WS_EV_ANY_CORE && w->core >= cores)
            return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_machine: machine %u step %u: core=%u: the device "
                                "has %u cores (0 to %u)", index, i, w->core, cores, cores - 1);
        if (w->match == WS_MATCH_EQ && (w->value & ~top))
            return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_machine: machine %u step %u: data=0x%x has bits "
                                "outside mask=0x%x: no event can match", index, i, w->value, w->mask);
        if (w->match == WS_MATCH_RANGE && (w->value > w->hi || w->value > top))
            return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_machine: machine %u step %u: data=0x%x..0x%x "
                                "under mask=0x%x: no event can match", index, i, w->value, w->hi, top);
    }
    for (uint32_t a = 0; a < p->nactions; a++)
        if (p->actions[a].kind == WS_ACT_HALT && (p->actions[a].arg & ~have))
            return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_machine: machine %u action %u: halt=0x%x: the "
                                "device has %u cores (mask 0x%llx)", index, a, p->actions[a].arg, cores,
                                (unsigned long long)have);
    return WS_OK;
}

/* A condition that means nothing where it is, refused as the text form
 * refuses it (`for>`, `within=`): a `lasting` time on an event that has no
 * end, a window on the first step (nothing before it to time from). */
static ws_status check_steps(ws_device *dev, unsigned index, const ws_machine_program *p)
{
    for (uint32_t i = 0; i < p->nwatch; i++) {
        const ws_watch *w = &p->watch[i];
        if (w->lasting && !ws_ev_has_duration(w->source, w->id))
            return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_machine: machine %u step %u: lasting=%llu: %s has "
                                "no duration (lasting times " WS_EV_DURATION_EVENTS ")", index, i,
                                (unsigned long long)w->lasting, ws_event_name(w->source, w->id));
        if (!i && w->window)
            return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_machine: machine %u step 0: window=%llu: a window "
                                "times a step from the one before it, and the first step has none (put it on step 1 "
                                "or later)", index, (unsigned long long)w->window);
    }
    return WS_OK;
}

ws_status ws_events_machine(ws_device *dev, unsigned index, const ws_machine_program *p)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_events_machine");
    if (bus_held_by_tool(dev)) return refuse_program(dev, "ws_events_machine");
    if (!configured(dev)) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_machine: call ws_events_configure first");
    if (index >= WS_EV_MACHINES)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_machine: machine %u of %u", index, WS_EV_MACHINES);
    if (ws_ev_debugger_holds(dev->events, index)) return refuse_debugger_machine(dev, "ws_events_machine", index);
    if (p && (!p->nwatch || p->nwatch > WS_EV_MAX_WATCH || p->nactions > WS_EV_MAX_ACTIONS))
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_machine: machine %u: 1..%u watch instructions and at most "
                            "%u actions", index, WS_EV_MAX_WATCH, WS_EV_MAX_ACTIONS);
    for (uint32_t i = 0; p && i < p->nwatch; i++)
        if (p->watch[i].source >= WS_EV_SOURCES || p->watch[i].id >= 16 || p->watch[i].match > WS_MATCH_RANGE)
            return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_machine: machine %u instruction %u: no such event or "
                                "comparison", index, i);
    for (uint32_t i = 0; p && i < p->nactions; i++)
        if (p->actions[i].kind > WS_ACT_TRACE_SNAPSHOT || (p->actions[i].kind == WS_ACT_ENABLE && p->actions[i].arg >= WS_EV_MACHINES))
            return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_machine: machine %u action %u is not valid", index, i);
    ws_status st = p ? check_steps(dev, index, p) : WS_OK;
    if (st == WS_OK && p) st = check_on_device(dev, index, p);
    if (st != WS_OK) return st;
    ws_ev_load_machine(dev, index, p); /* what a machine watches must reach it */
    return WS_OK;
}

ws_status ws_events_machine_status(ws_device *dev, unsigned index, ws_machine_status *out)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_events_machine_status");
    if (bus_held_by_tool(dev)) return refuse_program(dev, "ws_events_machine_status");
    if (!out || !configured(dev) || index >= WS_EV_MACHINES)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_machine_status: no machine %u", index);
    if (ws_ev_debugger_holds(dev->events, index)) return refuse_debugger_machine(dev, "ws_events_machine_status", index);
    *out = dev->events->machine[index].st;
    return WS_OK;
}

ws_status ws_events_set_callback(ws_device *dev, ws_machine_fn fn, void *user)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_events_set_callback");
    if (bus_held_by_tool(dev)) return refuse_program(dev, "ws_events_set_callback");
    if (!configured(dev)) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_set_callback: call ws_events_configure first");
    dev->events->callback = fn;
    dev->events->callback_user = user;
    return WS_OK;
}

ws_status ws_events_trace_enable(ws_device *dev, int on)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_events_trace_enable");
    if (bus_held_by_tool(dev)) return refuse_program(dev, "ws_events_trace_enable");
    if (!configured(dev)) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_trace_enable: call ws_events_configure first");
    dev->events->tracing = on && dev->events->capacity;
    return WS_OK;
}

ws_status ws_events_resume(ws_device *dev)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_events_resume");
    if (bus_held_by_tool(dev)) return refuse_program(dev, "ws_events_resume");
    struct ws_events *e = dev->events;
    if (!e) return WS_OK;
    /* the program's halts only: a debugger's machine's is the debugger's to release */
    e->wd_halt.halted[WS_EV_PROGRAM] = e->cp_halt.halted[WS_EV_PROGRAM] = 0;
    char by[WS_EV_HALT_BY_LEN];
    ws_ev_halt_by(&e->cp_halt, WS_EV_DEBUGGER, by, sizeof by);
    if (e->cp_halt.halted[WS_EV_DEBUGGER])
        return ws_set_error(dev, WS_ERR_BUSY, "ws_events_resume: the command processor is halted by %s, "
                            "held by %s: the debugger releases it ('monitor watch resume', EVCTL 8; "
                            "'monitor watch clear', EVCTL 2; or its machine's cp.resume)", by, WS_EV_DEBUGGER_NAME);
    return WS_OK;
}

ws_status ws_events_read_snapshot(ws_device *dev, uint8_t **bytes, size_t *size)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_events_read_snapshot");
    if (!bytes || !size) return ws_set_error(dev, WS_ERR_INVALID_ARG, "ws_events_read_snapshot: bytes or size is NULL");
    *bytes = NULL;
    *size = 0;
    if (bus_held_by_tool(dev)) return refuse_program(dev, "ws_events_read_snapshot");
    if (!dev->events || !dev->events->snapshot)
        return ws_set_error(dev, WS_ERR_NOT_FOUND, "ws_events_read_snapshot: no debug machine took a snapshot");
    if (!(*bytes = malloc(dev->events->snapshot_size)))
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "ws_events_read_snapshot: out of host memory");
    memcpy(*bytes, dev->events->snapshot, dev->events->snapshot_size);
    *size = dev->events->snapshot_size;
    return WS_OK;
}
