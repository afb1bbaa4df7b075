/* Debug machines (events.h): each watches the event stream for its
 * sequence and acts when it completes. Evaluated only for events that pass
 * the filters, so an idle device pays nothing. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "device/debug/debug_hooks.h"
#include "device/events/event_bus.h"

static int matches(const ws_watch *w, const ws_event *e)
{
    if (w->source != e->source || w->id != e->id) return 0;
    if (w->core != WS_EV_ANY_CORE && w->core != e->core) return 0;
    uint32_t d = e->data & (w->mask ? w->mask : 0xFFFFFFFFu);
    switch (w->match) {
    case WS_MATCH_EQ: return d == w->value;
    case WS_MATCH_NE: return d != w->value;
    case WS_MATCH_RANGE: return d >= w->value && d <= w->hi;
    default: return 1;
    }
}

enum { UNIT_HALT, UNIT_STEP, UNIT_RESUME };

/* Machine `index` halts, steps or resumes a unit on its side's behalf: the
 * other side's halt stays (docs/events.md, "Who holds the bus"). */
static void unit_halt(struct ws_events *ev, unsigned index, ws_ev_unit_halt *h, int what)
{
    const int side = ws_ev_debugger_holds(ev, index) ? WS_EV_DEBUGGER : WS_EV_PROGRAM;
    if (what == UNIT_RESUME) {
        h->halted[side] = 0;
        return;
    }
    if (what == UNIT_HALT || !h->halted[side]) { /* this machine begins the halt */
        h->by[side] = index;
        ws_ev_machine_text(&ev->machine[index].p, h->by_text[side], sizeof h->by_text[side]);
    }
    h->halted[side] = 1;
    h->steps[side] = what == UNIT_STEP ? h->steps[side] + 1 : 0;
}

void ws_ev_halt_by(const ws_ev_unit_halt *h, int side, char *out, size_t len)
{
    snprintf(out, len, "%sdebug machine %u ('%s')", side == WS_EV_DEBUGGER ? "the debugger's " : "", h->by[side],
             h->by_text[side]);
}

static void act(ws_device *dev, unsigned index, ws_machine *m, const ws_event *e)
{
    struct ws_events *ev = dev->events;
    int rearm = 0;
    char text[WS_EV_TEXT_SHOWN]; /* (the reason outlives the machine: a later load may reuse its number) */
    ws_ev_machine_text(&m->p, text, sizeof text);
    /* Only a halt or a stop makes it the bus's reason: a machine that
     * only counts or prints, firing before the halt is taken (the last
     * warp's retire, then its block's), named itself in the halt's stop. */
    char why[sizeof ev->reason];
    snprintf(why, sizeof why, "debug machine %u fired on %s (core %u, data 0x%08x) at time %llu (its program: '%s')",
             index, ws_event_name(e->source, e->id), e->core, e->data, (unsigned long long)e->time, text);
    for (uint32_t i = 0; i < m->p.nactions; i++) {
        uint32_t arg = m->p.actions[i].arg;
        switch (m->p.actions[i].kind) {
        case WS_ACT_HALT:
            if (dev->debug && ws_dbg_attached(dev)) { /* the debug hardware halts the warps at its next safe point */
                ev->halt_pending = 1;
                ev->halt_cores = arg;
                memcpy(ev->reason, why, sizeof why);
                break;
            }
            /* no debugger: nothing could resume it, so it stops */
            __attribute__((fallthrough));
        case WS_ACT_STOP:
            if (!ev->stop && dev->fault.kind == FAULT_NONE) {
                ev->stop = 1;
                dev->fault.kind = FAULT_MACHINE;
                memcpy(ev->reason, why, sizeof why);
                snprintf(dev->fault.detail, sizeof dev->fault.detail, "%s", ev->reason);
            }
            break;
        case WS_ACT_TRACE_START: ev->tracing = 1; break;
        case WS_ACT_TRACE_STOP: ev->tracing = 0; break;
        case WS_ACT_TRACE_SNAPSHOT:
            if (ev->capacity) {
                size_t n;
                uint8_t *b = ws_ev_blob(dev, &n);
                if (b) {
                    free(ev->snapshot);
                    ev->snapshot = b;
                    ev->snapshot_size = n;
                }
            }
            break;
        case WS_ACT_COUNT: m->st.counter++; break;
        case WS_ACT_REARM: rearm = 1; break;
        case WS_ACT_ENABLE: /* a machine of the same side only: the program's never arm the debugger's */
            if (arg < WS_EV_MACHINES && ws_ev_debugger_holds(ev, arg) == ws_ev_debugger_holds(ev, index)) {
                ev->machine[arg].st.enabled = 1;
                ev->machine[arg].st.done = 0;
            }
            break;
        case WS_ACT_CALLBACK:
            /* The callback runs inside the device (a launch, a command):
             * the API refuses it meanwhile (runtime/api_lock.c). A call
             * that ran the queue again started a launch inside this one
             * and crashed; one that freed the bus (ws_events_disable,
             * ws_events_configure) left this loop on freed memory. */
            if (ev->callback) {
                dev->machine_cb_depth++;
                ev->callback(ev->callback_user, index, e);
                dev->machine_cb_depth--;
            }
            break;
        case WS_ACT_WD_HALT: unit_halt(ev, index, &ev->wd_halt, UNIT_HALT); break;
        case WS_ACT_WD_STEP: unit_halt(ev, index, &ev->wd_halt, UNIT_STEP); break;
        case WS_ACT_WD_RESUME: unit_halt(ev, index, &ev->wd_halt, UNIT_RESUME); break;
        case WS_ACT_CP_HALT: unit_halt(ev, index, &ev->cp_halt, UNIT_HALT); break;
        case WS_ACT_CP_STEP: unit_halt(ev, index, &ev->cp_halt, UNIT_STEP); break;
        case WS_ACT_CP_RESUME: unit_halt(ev, index, &ev->cp_halt, UNIT_RESUME); break;
        }
    }
    if (!rearm) {
        m->st.enabled = 0;
        m->st.done = 1;
    }
}

int ws_ev_duration_end(unsigned source, unsigned id)
{
    if (source == WS_EV_SCHED && id == WS_EV_SCHED_BARRIER_WAIT) return WS_EV_SCHED_BARRIER_RELEASE;
    if (source == WS_EV_SCHED && id == WS_EV_SCHED_WARP_START) return WS_EV_SCHED_WARP_RETIRE;
    if (source == WS_EV_WD && id == WS_EV_WD_STALL) return WS_EV_WD_DISPATCH;
    if (source == WS_EV_CP && id == WS_EV_CP_START) return WS_EV_CP_DONE;
    return -1;
}

int ws_ev_has_duration(unsigned source, unsigned id) { return ws_ev_duration_end(source, id) >= 0; }

/* Does e end the timed event s (a `lasting` step)? (ws_ev_has_duration's) */
static int ends(const ws_event *s, const ws_event *e)
{
    if (e->source != s->source || (int)e->id != ws_ev_duration_end(s->source, s->id)) return 0;
    if (s->source == WS_EV_SCHED && s->id == WS_EV_SCHED_BARRIER_WAIT) /* the same barrier of the same block */
        return e->core == s->core && (e->data & 0xFFu) == (s->data >> 8 & 0xFFu) && (e->data >> 8 & 0xFFFFu) == s->data >> 16;
    if (s->source == WS_EV_SCHED && s->id == WS_EV_SCHED_WARP_START) return e->core == s->core && e->data == s->data;
    return 1; /* (the distributor's and the command processor's: one at a time) */
}

/* The current step completed on event e: the next step, or the actions.
 * The events a `lasting` step was timing are dropped unless the machine
 * waits on that same step again (a one-step machine re-armed: the waits
 * still going may last too). */
static void step_done(ws_device *dev, uint32_t i, ws_machine *m, const ws_event *e)
{
    const uint32_t step = m->st.step;
    const ws_event done = *e; /* (e may point into m->timed) */
    m->hits = 0;
    m->t_prev = done.time;
    if (++m->st.step < m->p.nwatch) {
        m->ntimed = 0;
        return;
    }
    m->st.step = 0;
    m->st.fired++;
    m->st.last = done;
    act(dev, i, m, &done);
    if (!m->st.enabled || m->st.step != step) m->ntimed = 0;
}

/* Time event e (a `lasting` step matched it); out of host memory, it is
 * not timed. */
static void time_event(ws_machine *m, const ws_event *e)
{
    if (m->ntimed == m->timed_cap) {
        uint32_t cap = m->timed_cap ? 2 * m->timed_cap : 16;
        ws_event *t = realloc(m->timed, cap * sizeof *t);
        if (!t) return;
        m->timed = t;
        m->timed_cap = cap;
    }
    m->timed[m->ntimed++] = *e;
}

/* The oldest timed event completed its step (it lasted long enough). */
static void timed_done(ws_device *dev, uint32_t i, ws_machine *m)
{
    const ws_event oldest = m->timed[0];
    memmove(m->timed, m->timed + 1, --m->ntimed * sizeof *m->timed);
    step_done(dev, i, m, &oldest);
}

void ws_ev_machines(ws_device *dev, const ws_event *e)
{
    struct ws_events *ev = dev->events;
    /* A machine another enables on this event starts with the next one,
     * whichever their numbers (a machine numbered after the one that
     * enabled it saw the enabling event itself, one before it did not). */
    uint32_t live = 0;
    for (uint32_t i = 0; i < ev->nmachines; i++) live |= (uint32_t)(ev->machine[i].st.enabled != 0) << i;
    for (uint32_t i = 0; i < ev->nmachines; i++) {
        ws_machine *m = &ev->machine[i];
        if (!(live >> i & 1) || !m->st.enabled || !m->p.nwatch) continue;
        if (m->ntimed) { /* timing events: which end now, and has the oldest lasted long enough? */
            const ws_watch *w = &m->p.watch[m->st.step];
            uint32_t k = 0;
            for (uint32_t j = 0; j < m->ntimed; j++)
                if (!ends(&m->timed[j], e)) m->timed[k++] = m->timed[j];
            m->ntimed = k;
            while (m->ntimed && m->st.enabled && e->time - m->timed[0].time >= w->lasting) timed_done(dev, i, m);
            if (!m->st.enabled) continue;
        }
        const ws_watch *w = &m->p.watch[m->st.step];
        if (m->st.step && w->window && e->time - m->t_prev > w->window) {
            if (m->ntimed) continue; /* too late for new ones; those started in time go on */
            m->st.step = 0; /* too late: start over */
            m->hits = 0;
            w = &m->p.watch[0];
        }
        if (!matches(w, e)) continue;
        if (++m->hits < (w->repeat ? w->repeat : 1)) continue;
        if (w->lasting) { /* time it (with any others still going) */
            m->hits = 0;
            time_event(m, e);
            continue;
        }
        step_done(dev, i, m, e);
    }
}

void ws_ev_machines_tick(ws_device *dev)
{
    struct ws_events *ev = dev->events;
    const uint64_t t = ws_ev_now(dev);
    for (uint32_t i = 0; i < ev->nmachines; i++) {
        ws_machine *m = &ev->machine[i];
        if (!m->ntimed || !m->st.enabled) continue;
        const uint64_t lasting = m->p.watch[m->st.step].lasting;
        while (m->ntimed && m->st.enabled && t - m->timed[0].time >= lasting) timed_done(dev, i, m);
    }
}

void ws_ev_machines_launch_end(ws_device *dev)
{
    struct ws_events *ev = dev->events;
    for (uint32_t i = 0; ev && i < ev->nmachines; i++) {
        ws_machine *m = &ev->machine[i];
        while (m->st.enabled && m->ntimed) timed_done(dev, i, m);
        m->ntimed = 0;
    }
}

int ws_ev_launch_idle(ws_device *dev)
{
    struct ws_events *ev = dev->events;
    if (!ev || !ev->nmachines) return WS_EV_IDLE_NONE;
    if (!(dev->debug && ws_dbg_any_halted(dev))) ws_ev_machines_launch_end(dev);
    if (ev->stop) return WS_EV_IDLE_STOP;
    if (ev->halt_pending && dev->debug && ws_dbg_machine_halt_idle(dev)) return WS_EV_IDLE_RETRY;
    return WS_EV_IDLE_NONE;
}

int ws_ev_halt_unclaimed(ws_device *dev)
{
    struct ws_events *ev = dev->events;
    if (!ev || !ev->halt_pending) return 0;
    ev->halt_pending = 0;
    if (dev->fault.kind != FAULT_NONE) return 0;
    if (dev->debug && ws_dbg_end_halt_wait(dev, ev->reason)) return 0; /* the debugger heard it, and let it go */
    ev->stop = 1;
    dev->fault.kind = FAULT_MACHINE;
    snprintf(dev->fault.detail, sizeof dev->fault.detail, "%s; the launch's last warp had finished: none was "
             "left to halt", ev->reason);
    return 1;
}

int ws_ev_wd_stopped(ws_device *dev)
{
    struct ws_events *ev = dev->events;
    if (!ev || !ws_ev_unit_halted(&ev->wd_halt) || dev->fault.kind != FAULT_NONE) return 0;
    const ws_grid_run *L = dev->current;
    const int holder = ws_ev_unit_holder(&ev->wd_halt), side = holder >= 0 ? holder : !ev->wd_halt.halted[0];
    char by[WS_EV_HALT_BY_LEN];
    ws_ev_halt_by(&ev->wd_halt, side, by, sizeof by);
    const unsigned long long left = L ? L->total_blocks - L->next_block : 0, all = L ? L->total_blocks : 0;
    if (holder == WS_EV_DEBUGGER && dev->debug) { /* the launch waits for the debugger, which gdb hears */
        char why[WS_EV_HALT_BY_LEN + 256];
        snprintf(why, sizeof why, "launch %llu: the work distributor was halted by %s with %llu of %llu blocks not "
                 "placed; the debugger's 'monitor watch resume' (EVCTL 8; its machines stay) or 'monitor watch clear' "
                 "(EVCTL 2) lets it go on", (unsigned long long)(L ? L->id : 0), by, left, all);
        if (ws_dbg_held_wait(dev, WS_DBG_EV_WD_HELD, why)) {
            ws_dbg_take_machine_requests(dev);
            return -1;
        }
    }
    dev->fault.kind = FAULT_MACHINE;
    snprintf(dev->fault.detail, sizeof dev->fault.detail,
             "the work distributor was halted by %s with %llu of %llu blocks not placed, and the "
             "blocks it had placed have finished", by, left, all);
    return 1;
}
