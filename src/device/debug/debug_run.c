/* The device thread's side: safe points between warp quanta, halting
 * (breakpoint, trigger, step, haltreq, fault), all-stop, stepping (also
 * over a barrier), and parking while every live warp is halted. */
#include <string.h>
#include "device/debug/debug_internal.h"
#include "device/events/event_bus.h"

static uint32_t lowest_live(const ws_warp *w)
{
    return w->live ? (uint32_t)__builtin_ctz(w->live) : 0;
}

/* All-stop: every other warp with live lanes halts at this safe point;
 * a warp stepping over a barrier keeps waiting for it. */
static void stop_others_locked(ws_debug *d, const ws_warp *except)
{
    if (!d->all_stop) return;
    for (uint32_t i = 0; i < d->nwarps; i++) {
        ws_warp *o = dbg_warp_of(d, i);
        if (o == except || !o->active || !o->live || d->w[i].state == DW_HALTED || d->w[i].step_bar)
            continue;
        dbg_halt_locked(d, o, WS_DCSR_CAUSE_HALTREQ, lowest_live(o), 0);
    }
}

void dbg_halt_locked(ws_debug *d, ws_warp *w, uint32_t cause, uint32_t lane, int event)
{
    dbg_warp *dw = &d->w[dbg_widx(d, w)];
    ws_simt_park_group(w); /* pc[] becomes authoritative (dpc); the group resumes */
    if (dw->state != DW_HALTED) ws_ev_emit(d->dev, WS_EV_DBG, WS_EV_DBG_HALT, w->core, w->slot | cause << 8);
    if (dw->state != DW_HALTED) d->halts++;
    dw->state = DW_HALTED;
    dw->cause = (uint8_t)cause;
    dw->halt_lane = (uint8_t)lane;
    if (event) dbg_machines_publish_locked(d); /* what the tool sees at this stop */
    dw->stepping = dw->step_bar = 0;
    dw->ranging = 0; /* a range step ends at any halt */
    dw->group_halt = !event;
    dbg_requests_done_locked(d); /* a halt or a step's end a probe may wait for */
    /* resumeack stays: it says the last resumereq was acted on, and a
     * probe stepping a hart sees the step's halt before it polls for it
     * (spec 0.13.2: only a new resumereq clears it). */
    if (event) {
        dbg_push_event_locked(d, WS_DBG_EV_HALT, dbg_widx(d, w) * d->lanes + lane, 0,
                              d->dev->current ? d->dev->current->id : 0, WS_OK);
        stop_others_locked(d, w);
    }
}

int ws_dbg_attached(const ws_device *dev)
{
    return dev->debug && atomic_load(&dev->debug->attached);
}

/* Halt w on behalf of the device thread, if a tool is there to resume it
 * (locked). */
static void halt_if_attached_locked(ws_debug *d, ws_warp *w, uint32_t cause, uint32_t lane)
{
    if (atomic_load(&d->attached)) {
        dbg_halt_locked(d, w, cause, lane, 1);
    } else { /* a step in flight when the tool detached: nobody would resume it */
        dbg_warp *dw = &d->w[dbg_widx(d, w)];
        dw->stepping = dw->step_bar = 0;
    }
}

/* The same, taking the lock. */
static void halt_now(ws_debug *d, ws_warp *w, uint32_t cause, uint32_t lane)
{
    pthread_mutex_lock(&d->mu);
    halt_if_attached_locked(d, w, cause, lane);
    pthread_mutex_unlock(&d->mu);
}

/* Machines a tool loaded through the EV* registers (device thread,
 * locked); the queued programs only with take_queue (see service_locked). */
static void load_machines_locked(ws_debug *d, int take_queue)
{
    ws_device *dev = d->dev;
    if (!(take_queue && d->nmachine_q) && !d->machine_clear && !d->machine_resume) return;
    if (!dev->events && ws_ev_create(dev)) return; /* out of memory: they stay queued */
    if (d->machine_resume) {
        ws_ev_resume_debugger_halts(dev);
        d->machine_resume = 0;
    }
    if (d->machine_clear) {
        ws_ev_clear_debugger_machines(dev);
        d->machine_clear = 0;
    }
    /* Each into a machine free for the debugger (never loaded, or one of
     * its own that is done: ws_ev_load_debugger_machine). While none is,
     * the rest stay queued (they were dropped: loaded, a tool was told,
     * and never ran). */
    uint32_t q = 0;
    while (take_queue && q < d->nmachine_q && ws_ev_load_debugger_machine(dev, &d->machine_q[q]) >= 0) q++;
    memmove(d->machine_q, d->machine_q + q, (d->nmachine_q - q) * sizeof *d->machine_q);
    d->nmachine_q -= q;
    dbg_machines_publish_locked(d);
}

void ws_dbg_take_machine_requests(ws_device *dev)
{
    ws_debug *d = dev->debug;
    pthread_mutex_lock(&d->mu);
    load_machines_locked(d, 1);
    pthread_mutex_unlock(&d->mu);
}

int ws_dbg_held_wait(ws_device *dev, int kind, const char *why)
{
    ws_debug *d = dev->debug;
    pthread_mutex_lock(&d->mu);
    const int waits = atomic_load(&d->attached) && (d->blocking >> kind & 1);
    if (waits) {
        /* gdb's stop and 'monitor watch' say what the program waits for
         * while it waits; then the last halt's reason is theirs again */
        char halt_reason[sizeof d->machine_reason];
        memcpy(halt_reason, d->machine_reason, sizeof halt_reason);
        snprintf(d->machine_reason, sizeof d->machine_reason, "the program waits: %s", why);
        dbg_machines_publish_locked(d);
        dbg_push_event_locked(d, (ws_dbg_event_kind)kind, 0, 0, d->dev->current ? d->dev->current->id : 0,
                              WS_ERR_STOPPED);
        const double t0 = ws_now_seconds();
        d->park_ev = d->ev_pushed;
        d->parked = 1;
        /* (the halt's release is taken by the caller, at its next look) */
        while (d->parked && atomic_load(&d->attached) && !d->machine_resume && !d->machine_clear)
            pthread_cond_wait(&d->app_cv, &d->mu);
        d->parked = 0;
        d->parked_s += ws_now_seconds() - t0; /* (a launch's watchdog does not count it) */
        memcpy(d->machine_reason, halt_reason, sizeof halt_reason);
    }
    pthread_mutex_unlock(&d->mu);
    return waits;
}

int ws_dbg_end_halt_wait(ws_device *dev, const char *reason)
{
    ws_debug *d = dev->debug;
    pthread_mutex_lock(&d->mu);
    /* 'monitor watch' names the machine after the stop, as after a halt */
    if (atomic_load(&d->attached)) snprintf(d->machine_reason, sizeof d->machine_reason, "%s", reason);
    pthread_mutex_unlock(&d->mu);
    char why[WS_EV_TEXT_SHOWN + 480];
    snprintf(why, sizeof why, "launch %llu has ended: %s; its last warp had finished, so none was left to halt; "
             "the next resume lets the program go on",
             (unsigned long long)(dev->current ? dev->current->id : 0), reason);
    return ws_dbg_held_wait(dev, WS_DBG_EV_END_HELD, why);
}

static int any_runnable_locked(ws_debug *d);

/* Whether a warp runs after this service: one runnable now, or a resume
 * waiting to be taken. */
static int will_run_locked(ws_debug *d)
{
    for (uint32_t i = 0; i < d->nwarps; i++)
        if (d->w[i].req == REQ_RESUME) return 1;
    return any_runnable_locked(d);
}

/* A resume of a warp whose step ended before its fault (step_before_fault)
 * takes that fault: the warp stays at the faulting instruction, halted now
 * on the fault, so a probe that resumed it sees a halt after its resume
 * (locked). */
static void take_fault_after_step_locked(ws_debug *d, ws_warp *w, dbg_warp *dw)
{
    dw->fault_after_step = 0;
    dw->cause = WS_DCSR_CAUSE_FAULT;
    ws_ev_emit(d->dev, WS_EV_DBG, WS_EV_DBG_HALT, w->core, w->slot | WS_DCSR_CAUSE_FAULT << 8);
    dbg_push_event_locked(d, WS_DBG_EV_HALT, dbg_widx(d, w) * d->lanes + d->saved_fault[dbg_widx(d, w)].lane, 0,
                          d->dev->current ? d->dev->current->id : 0, WS_OK);
}

/* A step of the hart of `lane` (hart_steps) runs that lane: the live
 * lanes at another pc or call depth sit it out (as ws_debug_step_exclude
 * has them). Without this the step runs the group the warp would pick
 * next, which in a diverged warp may leave the stepped hart where it was. */
static void step_hart_lane(ws_warp *w, uint32_t lane)
{
    if (!(w->live >> lane & 1)) return;
    if (w->group) ws_simt_leave_group(w); /* every lane's pc in pc[] */
    uint32_t off = 0;
    for (uint32_t m = w->live; m; m &= m - 1) {
        const uint32_t l = (uint32_t)__builtin_ctz(m);
        if (w->pc[l] != w->pc[lane] || w->depth[l] != w->depth[lane]) off |= 1u << l;
    }
    w->step_exclude = off;
}

/* Halt w, running, if the halt request bit of one of its live harts is
 * set (dmcontrol.haltreq, debug_dm.c): 1 if it halted (locked). */
static int halt_requested_locked(ws_debug *d, ws_warp *w, dbg_warp *dw)
{
    const uint32_t lanes = dw->haltreq & (w->active ? w->live : 0);
    if (!lanes || dw->state != DW_RUN || !atomic_load(&d->attached)) return 0;
    dbg_halt_locked(d, w, WS_DCSR_CAUSE_HALTREQ, (uint32_t)__builtin_ctz(lanes), 1);
    return 1;
}

/* Apply the tool's requests (locked). Returns how many warps changed, or
 * -1 if a faulted warp was resumed (its fault is back in dev->fault).
 * Machine programs queued by the tool are loaded at a service after
 * which the device runs (or at a launch's start: take_queue), before any
 * warp resumes: while every warp is held (all-stop) they stay queued, so
 * what `monitor watch` lists during a stop does not depend on whether
 * some other request woke the device thread in between (it did, now and
 * then, on a loaded host: gdb.e2e.monitor_watch_list). */
static int service_locked(ws_debug *d, int take_queue)
{
    ws_device *dev = d->dev;
    atomic_store(&d->attention, 0);
    load_machines_locked(d, take_queue || will_run_locked(d));
    for (uint32_t i = 0; i < d->ninval; i++)
        ws_code_invalidate(dev, d->inval[i][0], d->inval[i][1] - d->inval[i][0]);
    d->ninval = 0;
    int changed = 0, fault = 0;
    for (uint32_t i = 0; i < d->nwarps; i++) {
        dbg_warp *dw = &d->w[i];
        if (!dw->req) continue;
        ws_warp *w = dbg_warp_of(d, i);
        int req = dw->req;
        dw->req = REQ_NONE;
        if (req == REQ_HALT) {
            if (w->active && w->live && dw->state == DW_RUN && atomic_load(&d->attached)) {
                dbg_halt_locked(d, w, WS_DCSR_CAUSE_HALTREQ, lowest_live(w), 1);
                changed++;
            }
            continue;
        }
        /* resume */
        dw->resumeack = 1;
        dw->step_bar = 0;
        if (dw->state != DW_HALTED) continue;
        if (dw->fault_after_step && atomic_load(&d->attached)) {
            take_fault_after_step_locked(d, w, dw);
            continue;
        }
        if (dw->faulted) { /* its own fault ends the launch (the first such warp's, if several resume) */
            dw->faulted = 0;
            if (!fault) dev->fault = d->saved_fault[i];
            fault = 1;
        }
        /* A warp a trigger halted runs the instruction it stopped before;
         * one halted for another reason at a trigger's address (all-stop,
         * a step) still meets that trigger. One that all-stop halted again
         * before it ran that instruction (another warp's trigger came
         * first in that cycle) keeps the skip: until 2026-11-28 warps
         * stopped at one trigger took turns halting each other, and none
         * ran on (timing mode, a tool resuming them all each time). */
        const int skip_unused = dw->skip_instret && dw->skip_instret == w->instret + 1;
        if (!skip_unused) {
            dw->skip_instret = dw->cause == WS_DCSR_CAUSE_TRIGGER ? w->instret + 1 : 0;
            /* an execute trigger's halt skips execute triggers only: a
             * load/store trigger on that instruction's access still fires
             * (a watchpoint on the store a hardware breakpoint stopped at) */
            dw->skip_data = dw->cause == WS_DCSR_CAUSE_TRIGGER && !(dw->has_hit && dw->hit_exec);
        }
        dw->state = DW_RUN;
        ws_ev_emit(dev, WS_EV_DBG, WS_EV_DBG_RESUME, w->core, w->slot);
        dw->group_halt = 0;
        dw->has_hit = 0;
        dw->step_issued = 0;
        dw->stepping = dw->step && atomic_load(&d->attached);
        if (dw->stepping && d->hart_steps) step_hart_lane(w, dw->step_lane);
        changed++;
    }
    /* a running warp with a live hart whose halt request bit is set halts
     * (a resume of other harts of it, or of a hart with hasel, leaves the
     * bit of this one set) */
    for (uint32_t i = 0; d->haltreq_any && i < d->nwarps; i++)
        changed += halt_requested_locked(d, dbg_warp_of(d, i), &d->w[i]);
    dbg_requests_done_locked(d);
    return fault ? -1 : changed;
}

/* A group-halted warp may run while a warp of its block steps over a
 * barrier, so the barrier can open (docs/debug-hardware.md). */
static int block_steps_barrier(const ws_debug *d, const ws_warp *w)
{
    const ws_block *b = w->block;
    uint32_t base = w->core * d->wpc + b->first_slot;
    for (uint32_t i = 0; i < b->nwarps; i++)
        if (d->w[base + i].step_bar) return 1;
    return 0;
}

static int any_halted_locked(const ws_debug *d);

/* A warp dispatched (a new block) while all-stop holds the device stopped
 * (some warp halted) joins the stop: it starts halted, as stop_others
 * would have halted it, instead of running while the tool looks. */
static void join_stop(ws_debug *d, ws_warp *w, dbg_warp *dw)
{
    pthread_mutex_lock(&d->mu);
    dw->resident = 1;
    dw->skip_instret = 0; /* (the slot's last warp's skip is not this one's) */
    /* a halt request written while its harts were unavailable: it halts
     * before its first instruction, as a halt of its own (an event) */
    if (!halt_requested_locked(d, w, dw) && d->all_stop && atomic_load(&d->attached) && dw->state == DW_RUN &&
        !dw->stepping && any_halted_locked(d))
        dbg_halt_locked(d, w, WS_DCSR_CAUSE_HALTREQ, lowest_live(w), 0);
    pthread_mutex_unlock(&d->mu);
}

/* A debug machine asked for a halt: this warp stops with cause MACHINE
 * (all-stop halts the rest). Taken here, between quanta, never inside one. */
static int machine_halt(ws_debug *d, ws_warp *w)
{
    struct ws_events *ev = d->dev->events;
    uint64_t cores = ev->halt_cores;
    ev->halt_pending = 0;
    if (!cores && !w->live) return 0;
    pthread_mutex_lock(&d->mu);
    int attached = atomic_load(&d->attached), halted_w = 0;
    if (attached) {
        snprintf(d->machine_reason, sizeof d->machine_reason, "%s", ev->reason);
        if (!cores) {
            dbg_halt_locked(d, w, WS_DCSR_CAUSE_MACHINE, lowest_live(w), 1);
            halted_w = 1;
        } else { /* every live warp of the chosen cores; one event for gdb */
            int first = 1;
            for (uint32_t i = 0; i < d->nwarps; i++) {
                ws_warp *o = dbg_warp_of(d, i);
                if (o->core >= 64 || !(cores >> o->core & 1) || !o->active || !o->live || d->w[i].state == DW_HALTED)
                    continue;
                dbg_halt_locked(d, o, WS_DCSR_CAUSE_MACHINE, lowest_live(o), first);
                first = 0;
                halted_w |= o == w;
            }
        }
    }
    pthread_mutex_unlock(&d->mu);
    return halted_w;
}

/* Taken at the exit, a halt caused by the launch's last warp leaving (or
 * by anything it did in its last quantum) stops on that warp's thread:
 * once its lanes had retired there was nothing left to halt, and the
 * launch ended with the halt unclaimed (WS_ERR_STOPPED, no stop in gdb). */
int ws_dbg_exit_gate(ws_device *dev, ws_warp *w, uint32_t g)
{
    struct ws_events *ev = dev->events;
    if (!ev || !atomic_load(&dev->debug->attached)) return 0;
    if (g == w->live) ws_simt_tell_retire(dev, w);
    return ev->halt_pending && machine_halt(dev->debug, w);
}

int ws_dbg_machine_halt_idle(ws_device *dev)
{
    ws_debug *d = dev->debug;
    struct ws_events *ev = dev->events;
    uint64_t cores = ev->halt_cores;
    ev->halt_pending = 0;
    pthread_mutex_lock(&d->mu);
    int halted = 0;
    if (atomic_load(&d->attached)) {
        snprintf(d->machine_reason, sizeof d->machine_reason, "%s", ev->reason);
        for (uint32_t i = 0; i < d->nwarps; i++) {
            ws_warp *o = dbg_warp_of(d, i);
            if ((cores && (o->core >= 64 || !(cores >> o->core & 1))) || !o->active || !o->live ||
                d->w[i].state == DW_HALTED)
                continue;
            dbg_halt_locked(d, o, WS_DCSR_CAUSE_MACHINE, lowest_live(o), !halted);
            halted = 1;
        }
    }
    pthread_mutex_unlock(&d->mu);
    return halted;
}

ws_status ws_debug_stop_reason(ws_debug *d, char *buf, size_t len)
{
    if (!d || !buf || !len) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    int have = d->machine_reason[0] != 0;
    snprintf(buf, len, "%s", d->machine_reason);
    pthread_mutex_unlock(&d->mu);
    return have ? WS_OK : WS_ERR_NOT_FOUND;
}

ws_status ws_debug_deadlock_stop(ws_debug *d, int *stopped)
{
    if (!d || !stopped) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    *stopped = d->deadlock_stopped;
    pthread_mutex_unlock(&d->mu);
    return WS_OK;
}

/* All-stop holds the device stopped for the tool: a warp halted and none
 * can run (locked). The tool's requests then wait for the device's idle
 * point (ws_dbg_idle_wait), which a launch reaches at the same cycle (or
 * round) in every run. Taken at whichever safe point the device thread
 * had reached when they arrived, a resume would start the warps at a time
 * that depends on host scheduling: on a loaded host a core's warps
 * retired 4 cycles early after gdb's `continue`
 * (gdb.e2e.monitor_watch_halt_reason_timing, now and then). */
static int held_for_tool_locked(ws_debug *d)
{
    return d->all_stop && atomic_load(&d->attached) && any_halted_locked(d) && !any_runnable_locked(d);
}

int ws_dbg_warp_gate(ws_device *dev, ws_warp *w, uint32_t *budget)
{
    ws_debug *d = dev->debug;
    if (dev->events && dev->events->halt_pending && machine_halt(d, w)) return 1;
    if (atomic_load_explicit(&d->attention, memory_order_acquire)) {
        pthread_mutex_lock(&d->mu);
        int r = held_for_tool_locked(d) ? 0 : service_locked(d, 0);
        pthread_mutex_unlock(&d->mu);
        if (r < 0) return -1;
    }
    dbg_warp *dw = &d->w[dbg_widx(d, w)];
    if (!dw->resident) join_stop(d, w, dw);
    if (dw->state == DW_HALTED) return !(dw->group_halt && block_steps_barrier(d, w));
    if (dw->step_bar) { /* the barrier opened: the step is complete */
        halt_now(d, w, WS_DCSR_CAUSE_STEP, lowest_live(w));
        return 1;
    }
    if (dw->stepping) {
        *budget = 1;
        /* the group the step runs, chosen now as the warp would choose it
         * first thing (nothing else moves this warp's lanes in between):
         * a tool asks which lanes the step ran (ws_debug_step_lanes) */
        if (!w->group) ws_simt_select(dev, w);
        dw->step_group = w->group;
    }
    return 0;
}

/* Is the lane at pc and depth on the range step's line? */
static int on_step_line(const ws_dbg_step_range *r, uint32_t pc, int depth)
{
    if (pc >= r->lo && pc < r->hi) return 1;
    if (depth != r->depth) return 0;
    for (uint32_t i = 0; i < r->nranges; i++)
        if (pc >= r->ranges[i].lo && pc < r->ranges[i].hi) return 1;
    return 0;
}

/* After a step of a warp with a range step set: 1 if it steps again
 * (ws_debug_step_range says when), else 0 (it halts). Its lanes have left
 * their group, so pc[] is each lane's own. */
static int range_steps_on(dbg_warp *dw, ws_warp *w)
{
    ws_dbg_step_range *r = &dw->range;
    ws_simt_park_group(w); /* the next step goes on with it, as an undebugged run would */
    if (!(w->live >> r->lane & 1)) return 0;
    if (on_step_line(r, w->pc[r->lane], w->depth[r->lane])) return 1;
    if (w->depth[r->lane] > r->depth) return 0; /* it called a function: the tool's to decide */
    uint32_t left = 0;
    for (uint32_t m = r->lanes & w->live; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        if (w->depth[lane] > r->depth || on_step_line(r, w->pc[lane], w->depth[lane])) left |= 1u << lane;
    }
    if (!left || dw->range_past >= r->max_past) return 0;
    dw->range_past++;
    /* The followed lane waits where it left the line: without a debugger
     * it could run on out of the tool's sight (a lock's holder, let on by
     * the starvation guard, runs to its exit). */
    r->exclude |= 1u << r->lane;
    return 1;
}

/* A fault of w halts it for the tool (cause 7, or a step's end first with
 * step_before_fault); the report is kept for ws_debug_fault and the
 * device's fault slot is cleared for other warps (locked). */
static void halt_on_fault_locked(ws_debug *d, ws_warp *w, dbg_warp *dw)
{
    ws_device *dev = d->dev;
    ws_fault *saved = &d->saved_fault[dbg_widx(d, w)];
    *saved = dev->fault;
    ws_dbg_fault *f = &d->fault;
    memset(f, 0, sizeof *f);
    f->hart = dbg_widx(d, w) * d->lanes + dev->fault.lane;
    f->pc = dev->fault.pc;
    f->addr = dev->fault.addr;
    snprintf(f->kind, sizeof f->kind, "%s", ws_fault_kind_name(dev->fault.kind));
    ws_fault_format(dev, f->message, sizeof f->message);
    d->have_fault = 1;
    memset(&dev->fault, 0, sizeof dev->fault); /* let other warps report theirs */
    /* (a step's end before the fault: the lanes that issued it) */
    const int step_ends_first = dw->stepping && d->step_before_fault;
    if (step_ends_first) dw->step_issued = dw->step_group;
    dbg_halt_locked(d, w, step_ends_first ? WS_DCSR_CAUSE_STEP : WS_DCSR_CAUSE_FAULT, saved->lane, 1);
    dw->faulted = 1;
    dw->fault_after_step = (uint8_t)step_ends_first;
}

static ws_warp_result warp_done(ws_device *dev, ws_warp *w, ws_warp_result r)
{
    ws_debug *d = dev->debug;
    dbg_warp *dw = &d->w[dbg_widx(d, w)];
    if (!w->live) dw->resident = 0; /* retired: the slot's next warp is new */
    if (r == WARP_FAULT) {
        if (d->shadow_armed) dbg_shadow_fault(d, w);
        if (atomic_load(&d->observe_only)) return r;
        pthread_mutex_lock(&d->mu);
        /* attached, looked at under the lock: a warp halted after a detach
         * had nobody to resume it, and its launch waited for ever
         * (fuzz/gdb_device, once; debug.fault_during_detach) */
        const int halts = atomic_load(&d->attached);
        if (halts) halt_on_fault_locked(d, w, dw);
        pthread_mutex_unlock(&d->mu);
        return halts ? WARP_HALT : r;
    }
    if (r == WARP_HALT && dw->pend_cause) {
        /* ebreak or trigger: the warp has left its group and undone the
         * instruction's count, so the tool may look at it now */
        uint32_t cause = dw->pend_cause;
        dw->pend_cause = 0;
        halt_now(d, w, cause, dw->pend_lane);
        return r;
    }
    if (dw->stepping && dw->state == DW_RUN) {
        /* under the lock: a probe waiting for the step's end reads it */
        pthread_mutex_lock(&d->mu);
        dw->stepping = 0;
        dw->step_issued = dw->step_group;
        if (!w->live) {
            /* stepped off the end: the warp retired, and the step with it.
             * dcsr.step is cleared: the slot's next warp (a new block, the
             * next launch) is another thread, which must not inherit a
             * step nobody asked it for (before 2026-11-27 its next resume
             * was a step, and gdb heard an unexplained SIGTRAP). The tool
             * hears that the step is over (a debugger waiting for the
             * step's halt would wait for ever) */
            dw->step = 0;
            if (atomic_load(&d->attached))
                dbg_push_event_locked(d, WS_DBG_EV_STEP_EXIT,
                                      dbg_widx(d, w) * d->lanes +
                                          (dw->step_group ? (uint32_t)__builtin_ctz(dw->step_group) : 0),
                                      0, d->dev->current ? d->dev->current->id : 0, WS_OK);
        } else if (!(w->live & ~w->waiting)) {
            dw->step_bar = 1; /* completes when the barrier opens */
        } else if (dw->ranging && atomic_load(&d->attached) && range_steps_on(dw, w)) {
            dw->stepping = 1; /* one more step, no halt between */
            w->step_exclude = dw->range.exclude;
        } else {
            halt_if_attached_locked(d, w, WS_DCSR_CAUSE_STEP, lowest_live(w));
        }
        dbg_requests_done_locked(d);
        pthread_mutex_unlock(&d->mu);
    }
    return r;
}

ws_warp_result ws_dbg_warp_done(ws_device *dev, ws_warp *w, ws_warp_result r)
{
    const uint32_t sat_out = w->step_exclude;
    w->step_exclude = 0; /* it held for one step */
    r = warp_done(dev, w, r);
    /* Lanes sat the step out, so the lanes that ran are ahead of them, a
     * split no undebugged run makes: the warp picks its group afresh when
     * it resumes (lowest pc first), and those lanes catch up. */
    if (sat_out && dev->debug->w[dbg_widx(dev->debug, w)].state == DW_HALTED) w->parked = 0;
    return r;
}

static int any_halted_locked(const ws_debug *d)
{
    for (uint32_t i = 0; i < d->nwarps; i++)
        if (d->w[i].state == DW_HALTED) return 1;
    return 0;
}

/* A warp the next round would run. A resume serviced at a safe point
 * part-way through a round may have freed a warp whose slot the round had
 * already passed: that round issues nothing, yet the warp can run. */
static int any_runnable_locked(ws_debug *d)
{
    for (uint32_t i = 0; i < d->nwarps; i++) {
        const ws_warp *w = dbg_warp_of(d, i);
        if (!w->active || !(w->live & ~w->waiting)) continue;
        const dbg_warp *dw = &d->w[i];
        if (dw->state != DW_HALTED || (dw->group_halt && block_steps_barrier(d, w))) return 1;
    }
    return 0;
}

/* A deadlock the tool should see before the launch ends with it: the first
 * of this launch, with a tool attached that may halt warps. */
static int deadlock_stop_due_locked(ws_debug *d)
{
    return !d->deadlock_stopped && atomic_load(&d->attached) && !atomic_load(&d->observe_only);
}

/* Halt every live warp (the waiting ones too) with cause MACHINE and the
 * device's deadlock report as the stop reason, so the tool stops where the
 * lanes wait, as on a fault; the launch ends with the deadlock only when
 * they are resumed and still nothing can run (locked). */
static void deadlock_stop_locked(ws_debug *d, const char *why)
{
    d->deadlock_stopped = 1;
    snprintf(d->machine_reason, sizeof d->machine_reason, "device deadlock: %s", why);
    ws_warp *first = NULL;
    for (uint32_t i = 0; i < d->nwarps; i++) { /* each with this cause, not "stopped with the others" */
        ws_warp *o = dbg_warp_of(d, i);
        if (!o->active || !o->live || d->w[i].state == DW_HALTED) continue;
        dbg_halt_locked(d, o, WS_DCSR_CAUSE_MACHINE, lowest_live(o), 0);
        if (!first) first = o;
    }
    if (first) dbg_halt_locked(d, first, WS_DCSR_CAUSE_MACHINE, lowest_live(first), 1); /* the tool's event */
}

int ws_dbg_any_halted(ws_device *dev)
{
    ws_debug *d = dev->debug;
    pthread_mutex_lock(&d->mu);
    int halted = atomic_load(&d->attached) && any_halted_locked(d);
    pthread_mutex_unlock(&d->mu);
    return halted;
}

int ws_dbg_idle_wait(ws_device *dev)
{
    ws_debug *d = dev->debug;
    pthread_mutex_lock(&d->mu);
    int r;
    for (;;) {
        r = service_locked(d, 0);
        if (r != 0) break;
        if (any_runnable_locked(d)) { r = 1; break; }
        if (!any_halted_locked(d)) { /* nothing the tool could change: deadlock */
            if (!deadlock_stop_due_locked(d)) break;
            char why[sizeof d->machine_reason - sizeof "device deadlock: " + 1];
            pthread_mutex_unlock(&d->mu);
            ws_deadlock_text(dev, why, sizeof why); /* (unlocked: naming the source line reads the code table) */
            pthread_mutex_lock(&d->mu);
            if (deadlock_stop_due_locked(d)) deadlock_stop_locked(d, why);
            continue;
        }
        double t0 = ws_now_seconds();
        pthread_cond_wait(&d->dev_cv, &d->mu);
        d->parked_s += ws_now_seconds() - t0;
    }
    pthread_mutex_unlock(&d->mu);
    return r < 0 ? -1 : r > 0;
}

int ws_dbg_hold_wait(ws_device *dev, uint64_t *seen)
{
    ws_debug *d = dev->debug;
    if (d->halts == *seen) return 0; /* (written by this thread, the device's, only) */
    *seen = d->halts;
    pthread_mutex_lock(&d->mu);
    const int held = held_for_tool_locked(d);
    pthread_mutex_unlock(&d->mu);
    return held ? ws_dbg_idle_wait(dev) : 0;
}

void ws_dbg_launch_start(ws_device *dev, uint64_t launch_id)
{
    ws_debug *d = dev->debug;
    pthread_mutex_lock(&d->mu);
    double t0 = ws_now_seconds();
    dbg_app_event_locked(d, WS_DBG_EV_LAUNCH_START, 0, launch_id, WS_OK);
    d->parked_s = ws_now_seconds() - t0; /* the watchdog starts after the park */
    d->have_fault = 0;
    d->deadlock_stopped = 0;
    service_locked(d, 1); /* code written while parked is re-decoded; machines queued then are loaded */
    dbg_shadow_launch(d, 1);
    pthread_mutex_unlock(&d->mu);
}

void ws_dbg_launch_end(ws_device *dev, uint64_t launch_id, ws_status st)
{
    ws_debug *d = dev->debug;
    pthread_mutex_lock(&d->mu);
    dbg_shadow_launch(d, 0);
    for (uint32_t i = 0; i < d->nwarps; i++) {
        uint8_t step = d->w[i].step, ack = d->w[i].resumeack || d->w[i].req == REQ_RESUME;
        uint32_t haltreq = d->w[i].haltreq;
        memset(&d->w[i], 0, sizeof d->w[i]);
        d->w[i].step = step; /* dcsr.step, resumeack and halt requests outlive the launch */
        d->w[i].resumeack = ack;
        d->w[i].haltreq = haltreq;
    }
    dbg_requests_done_locked(d); /* no lane is live any more */
    dbg_machines_publish_locked(d);
    dbg_app_event_locked(d, WS_DBG_EV_LAUNCH_END, 0, launch_id, st);
    pthread_mutex_unlock(&d->mu);
}

int ws_dbg_ebreak(ws_device *dev, ws_warp *w, uint32_t g, uint32_t pc)
{
    (void)pc;
    ws_debug *d = dev->debug;
    if (!atomic_load(&d->attached) || atomic_load(&d->observe_only)) return 0;
    dbg_warp *dw = &d->w[dbg_widx(d, w)];
    dw->pend_cause = WS_DCSR_CAUSE_EBREAK;
    dw->pend_lane = (uint32_t)__builtin_ctz(g);
    return 1;
}

double ws_dbg_parked_seconds(ws_device *dev)
{
    return dev->debug->parked_s; /* written by this (the device) thread only */
}
