/* The device's event bus (docs/events.md): sub-blocks call ws_ev_emit at
 * the points an event happens; with no trace configured (dev->events NULL)
 * or the event filtered out, that is one test. */
#ifndef WS_DEVICE_EVENTS_BUS_H
#define WS_DEVICE_EVENTS_BUS_H
#include "device/device.h"
#include "device/events/event_codec.h"

/* A side of the bus: whose machine it is (docs/events.md, "Who holds the
 * bus"). */
enum { WS_EV_PROGRAM = 0, WS_EV_DEBUGGER = 1 };

/* How much of a machine's text a message shows (ws_ev_machine_text), and
 * room for "[the debugger's ]debug machine N ('TEXT')" (ws_ev_halt_by). */
#define WS_EV_TEXT_SHOWN 200
#define WS_EV_HALT_BY_LEN (WS_EV_TEXT_SHOWN + 48)

/* The halts of the work distributor or the command processor. Each side
 * halts, steps and releases its own; the unit goes on only where no side
 * holds it halted (a halted side lets one more through per step). */
typedef struct ws_ev_unit_halt {
    int halted[2], steps[2];        /* per side; steps: what it may still let through */
    unsigned by[2];                 /* the machine that halted it              */
    char by_text[2][WS_EV_TEXT_SHOWN]; /* ... its program as text, from when it
                                       halted (a later load may reuse the
                                       machine's slot)                      */
} ws_ev_unit_halt;

/* Who holds side `side` of the halt, for a message: "[the debugger's ]debug
 * machine N ('TEXT')". */
void ws_ev_halt_by(const ws_ev_unit_halt *h, int side, char *out, size_t len);
/* A machine program in its text form (machine_text.c) for a message; cut
 * short to fit len, it ends "... (cut: N characters in all)". */
void ws_ev_machine_text(const ws_machine_program *p, char *out, size_t len);

static inline int ws_ev_unit_halted(const ws_ev_unit_halt *h) { return h->halted[0] || h->halted[1]; }
/* The side that holds the unit with no step left, or -1 (it may go). */
static inline int ws_ev_unit_holder(const ws_ev_unit_halt *h)
{
    for (int s = 0; s < 2; s++)
        if (h->halted[s] && !h->steps[s]) return s;
    return -1;
}
/* The unit took one command or placed one block: every halted side used a step. */
static inline void ws_ev_unit_went(ws_ev_unit_halt *h)
{
    for (int s = 0; s < 2; s++)
        if (h->halted[s] && h->steps[s]) h->steps[s]--;
}

typedef struct ws_machine {
    ws_machine_program p;
    ws_machine_status st;
    uint32_t hits;                  /* matches of the current instruction       */
    uint64_t t_prev;                /* when the previous instruction completed  */
    /* A `lasting` step: every matching event still going (not ended yet),
     * oldest first. All of them are timed, not only the first: a wait that
     * began while an earlier one was being timed was never looked at, so a
     * deadlock behind a healthy block's wait went unseen. */
    ws_event *timed;
    uint32_t ntimed, timed_cap;
} ws_machine;

struct ws_events {
    uint16_t mask[WS_EV_SOURCES];   /* what is emitted: the trace's filters and
                                       what every machine watches            */
    uint16_t trace_mask[WS_EV_SOURCES]; /* what the program's trace takes: its
                                       filters and its own machines' events,
                                       never the debugger's                  */
    int configured;                 /* the program (or the watcher) configured
                                       the bus; else only the debugger's      */
    uint32_t debugger_machines;     /* bit i: machine i is the debugger's      */
    int tracing;                    /* the trace is being written              */
    int stop;                       /* a machine asked the launch to end       */
    ws_ev_unit_halt wd_halt;        /* the work distributor's halts            */
    ws_ev_unit_halt cp_halt;        /* the command processor's                 */
    int halt_pending;               /* a machine's halt, for the debug hardware
                                       to take at the next safe point          */
    uint64_t halt_cores;            /* ... of the warps on these cores (0: the
                                       next warp to run, and all-stop)         */
    char reason[WS_EV_TEXT_SHOWN + 160]; /* why the last machine that stops or halts fired */
    uint8_t *snapshot;              /* WS_ACT_TRACE_SNAPSHOT: header + stream   */
    size_t snapshot_size;
    ws_machine machine[WS_EV_MACHINES];
    uint32_t nmachines;             /* highest programmed index + 1             */
    ws_machine_fn callback;
    void *callback_user;
    /* The trace buffer: the formatter's own memory, outside the device's
     * address space (only the event hardware writes it, nothing on the
     * device reads it), so a program's memory and addresses are the same
     * with the trace as without it (docs/events.md). */
    uint8_t *buf;
    uint32_t capacity;
    ws_ev_writer w;
    uint64_t clock_base;            /* time at the start of the current launch */
    int stalled;                    /* the work distributor is waiting for room */
};

void ws_ev_emit_slow(ws_device *dev, unsigned src, unsigned id, uint32_t core, uint32_t data);

static inline void ws_ev_emit(ws_device *dev, unsigned src, unsigned id, uint32_t core, uint32_t data)
{
    const struct ws_events *e = dev->events;
    if (__builtin_expect(e == NULL, 1) || !((e->mask[src] >> id) & 1u)) return;
    ws_ev_emit_slow(dev, src, id, core, data);
}

/* Does the event have an end, so that a `lasting` step can time it? */
int ws_ev_has_duration(unsigned source, unsigned id);
/* The id of the event (of the same source) that ends a timed one, or -1
 * for an event with no end. */
int ws_ev_duration_end(unsigned source, unsigned id);
#define WS_EV_DURATION_EVENTS "sched.barrier_wait, sched.warp_start, wd.stall, cp.start"

/* Feed an event to the debug machines (machines.c). */
void ws_ev_machines(ws_device *dev, const ws_event *ev);
/* The bus's time now (cycles in timing mode, else warp instructions). */
uint64_t ws_ev_now(const ws_device *dev);
/* Time passed (the launch loops, each round or cycle): a `lasting` step
 * whose oldest timed event has lasted long enough completes now, not at
 * the next event that reaches the machines — a wait outlasted while the
 * other warps spin emitting nothing the filters pass went unnoticed until
 * the launch ended (machines.c). */
void ws_ev_machines_tick(ws_device *dev);
static inline void ws_ev_tick(ws_device *dev)
{
    if (__builtin_expect(dev->events != NULL, 0) && dev->events->nmachines) ws_ev_machines_tick(dev);
}

/* May the work distributor place a block now? (halted: only with a step
 * left, which ws_ev_wd_placed takes once a block is placed) */
static inline int ws_ev_wd_may_place(const ws_device *dev)
{
    const struct ws_events *e = dev->events;
    return __builtin_expect(e == NULL, 1) || ws_ev_unit_holder(&e->wd_halt) < 0;
}
/* A block was placed: a halted distributor used up one of its steps. */
static inline void ws_ev_wd_placed(ws_device *dev)
{
    struct ws_events *e = dev->events;
    if (__builtin_expect(e != NULL, 0)) ws_ev_unit_went(&e->wd_halt);
}
/* Nothing ran and nothing was placed: if the work distributor is halted,
 * end the launch (dev->fault says why) and return 1; -1 when the
 * debugger held it and the launch waited for the debugger (look again);
 * else 0. */
int ws_ev_wd_stopped(ws_device *dev);

/* Nothing can run any more (a deadlock, or the launch is over): a
 * `lasting` step still timing an event completes — the wait outlives it. */
void ws_ev_machines_launch_end(ws_device *dev);

/* The launch loops found nothing to issue with blocks left. Lasting steps
 * complete (their waits will never end), unless a tool holds warps
 * halted: resumed, they may end the waits. Returns WS_EV_IDLE_STOP when a
 * machine stopped the launch, WS_EV_IDLE_RETRY when a machine's pending
 * halt was just taken (run the loop again), else WS_EV_IDLE_NONE. */
enum { WS_EV_IDLE_NONE, WS_EV_IDLE_STOP, WS_EV_IDLE_RETRY };
int ws_ev_launch_idle(ws_device *dev);

/* A machine's halt that no warp took before the launch's blocks were all
 * done (it fired on the last of them, a last retire): nothing is left to
 * halt, so it stops the launch as with no debugger (dev->fault says why,
 * unless a fault came first); returns 1 then. It was left pending, and
 * halted the first warp of the next launch, or nothing. */
int ws_ev_halt_unclaimed(ws_device *dev);

/* A launch ended: its clock (issue counter or cycles) moves the base on. */
void ws_ev_launch_end(ws_device *dev, uint64_t launch_time);
/* Who holds the bus's machines (docs/events.md, "Who holds the bus"): the
 * side that configured it (the program, or the watcher) owns its trace,
 * callback and the machines it loads; the debugger (gdb's `monitor
 * watch`, the debug module's EV* registers) owns the machines it loads,
 * and neither side changes, clears or reads the other's. */
#define WS_EV_DEBUGGER_NAME "the debugger (machines loaded by gdb's 'monitor watch' or the debug module's EV registers)"

static inline int ws_ev_debugger_holds(const struct ws_events *e, unsigned index)
{
    return e && (e->debugger_machines >> index & 1);
}

/* A bus with no trace (for machines loaded through the debug bus).
 * Returns -1 when out of host memory. */
int ws_ev_create(ws_device *dev);
/* Load the program's machine `index` (checked by the caller; not the
 * debugger's) and widen the filters and the trace's to what it watches. */
void ws_ev_load_machine(ws_device *dev, unsigned index, const ws_machine_program *p);
/* Load a debugger's machine into the first machine free for it (never
 * loaded, or a debugger's that is done); the trace's filters stay the
 * program's. Returns the machine, or -1 when none is free. */
int ws_ev_load_debugger_machine(ws_device *dev, const ws_machine_program *p);
/* Unload the debugger's machines (the debug bus's EVCTL clear) and
 * release a halt of the work distributor or command processor that one of
 * them caused; the program's machines and halts stay. */
void ws_ev_clear_debugger_machines(ws_device *dev);
/* Release the work distributor's and command processor's halts the
 * debugger's machines caused (EVCTL 8, 'monitor watch resume'); its
 * machines stay loaded, armed as they were. */
void ws_ev_resume_debugger_halts(ws_device *dev);
/* The program's side of the bus goes (ws_events_configure starts afresh,
 * ws_events_disable): its filters, trace, machines, callback, snapshot
 * and halts. The debugger's machines stay, on a bus with no trace, with
 * their halts and the bus clock they time against; with none, the bus is
 * freed. */
void ws_ev_drop_program(ws_device *dev);
/* The trace so far as a self-describing blob (header + stream), malloc'd;
 * NULL when out of host memory. */
uint8_t *ws_ev_blob(const ws_device *dev, size_t *size);
/* Free the bus (device close or ws_events_disable). */
void ws_ev_free(ws_device *dev);

#endif
