/* Warpscope scheduling events (the thread debug controller's event side,
 * docs/events.md): the device's sub-blocks — command processor, work
 * distributor, each core's warp scheduler and memory unit, the debug
 * module — emit events; a static filter per sub-block chooses which ones
 * go to the event trace, which a formatter packs into a compact bit
 * stream in device memory. This header has the event names, the filter
 * and trace API, and the decoder. */
#ifndef WARPSCOPE_EVENTS_H
#define WARPSCOPE_EVENTS_H
#include "warpscope.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sub-blocks (sources). CP, WD: one per device; SCHED, MEM: one per core. */
typedef enum ws_event_source {
    WS_EV_CP = 0,     /* command processor */
    WS_EV_WD = 1,     /* work distributor  */
    WS_EV_SCHED = 2,  /* a core's warp scheduler */
    WS_EV_MEM = 3,    /* a core's memory unit */
    WS_EV_DBG = 4,    /* the debug module */
    WS_EV_SOURCES = 5
} ws_event_source;

/* EventIDs (4 bits, per source) and what EventData holds. */
enum {
    /* CP */
    WS_EV_CP_FETCH = 0,      /* command fetched: data = kind (0 copy, 1 device copy, 2 memset, 3 launch, 4 fence, 5 graphics) */
    WS_EV_CP_START = 1,      /* command started: data = kind                      */
    WS_EV_CP_DONE = 2,       /* command completed: data = kind                    */
    WS_EV_CP_FENCE = 3,      /* fence signalled: data = fence id (low 32 bits)    */
    WS_EV_CP_WAIT = 4,       /* the host waits for a fence: data = fence id       */
    WS_EV_CP_FRAME = 5,      /* frame boundary (graphics): data = frame number; core 0 = begin, 1 = present */
    /* WD */
    WS_EV_WD_DISPATCH = 0,   /* block dispatched: data = block linear id; core = where */
    WS_EV_WD_RETIRE = 1,     /* block retired: data = block linear id             */
    WS_EV_WD_STALL = 2,      /* blocks waiting but no free slot: data = blocks left
                                (low 30 bits) | reason << 30 (1: warp slots,
                                2: shared memory limits the blocks per core) */
    /* SCHED (core = the core) */
    WS_EV_SCHED_WARP_START = 0,   /* warp started: data = warp slot                */
    WS_EV_SCHED_WARP_RETIRE = 1,  /* all lanes of a warp exited: data = warp slot  */
    WS_EV_SCHED_BARRIER_WAIT = 2, /* lanes wait at a barrier: data = slot | barrier id << 8 | block linear id << 16 (low 16 bits) */
    WS_EV_SCHED_BARRIER_RELEASE = 3, /* barrier released: data = barrier id | block linear id << 8 */
    WS_EV_SCHED_DIVERGE = 4,      /* a warp split into groups at a branch: data = slot | pc low 24 bits << 8 */
    WS_EV_SCHED_STARVE = 5,       /* the starvation guard moved a warp off a group: data = slot */
    WS_EV_SCHED_RECONVERGE = 6,   /* a diverged warp's runnable lanes run as one group
                                     again: data = slot | pc low 24 bits << 8 */
    /* MEM (core = the core) */
    WS_EV_MEM_ATOMIC = 0,    /* an atomic instruction: data = address of its first lane */
    WS_EV_MEM_FAULT = 1,     /* a faulting access: data = address                 */
    /* DBG */
    WS_EV_DBG_HALT = 0,      /* the debug hardware halted a warp (core = its core):
                                data = warp slot | dcsr cause << 8 (1 ebreak, 2 trigger,
                                3 halt request, 4 step, 6 debug machine, 7 fault) */
    WS_EV_DBG_RESUME = 1     /* it resumed: data = warp slot                      */
};

/* Which events reach the trace: bit i of mask[s] passes EventID i of
 * source s. Everything else costs one test where it would be emitted. */
typedef struct ws_event_config {
    uint16_t mask[WS_EV_SOURCES];
    uint32_t capacity;          /* trace buffer bytes, host memory outside the device's address space (0: no trace) */
} ws_event_config;

/* One decoded event. time: cycles in timing mode; in functional mode a
 * deterministic issue counter (warp instructions issued on the device). */
typedef struct ws_event {
    uint64_t time;
    uint32_t data;
    uint8_t source, id;
    uint16_t core;              /* 0 for device-wide sources */
} ws_event;

/* Start (or restart) the event trace with cfg; the buffer is host memory
 * outside the device's address space. Call with no launch running.
 * Under the event watcher (warpscope watch) the bus is the watcher's: this
 * and the other calls on the bus return WS_ERR_BUSY (docs/events.md). A restart begins afresh:
 * the debug machines, their callback, a kept snapshot and any halt of the
 * command processor or work distributor are cleared (program the machines
 * again after it); a debugger's machines stay, with their halts and the
 * bus clock. */
WS_API ws_status ws_events_configure(ws_device *dev, const ws_event_config *cfg);
/* The trace bytes so far (a copy, malloc'd; free it) and how many events
 * did not fit (the formatter stops at the end of the buffer). */
WS_API ws_status ws_events_read(ws_device *dev, uint8_t **bytes, size_t *size, uint64_t *events, uint64_t *dropped);
/* The copy the last WS_ACT_TRACE_SNAPSHOT kept, as a self-describing blob
 * like ws_events_read's (malloc'd); NOT_FOUND if no snapshot was taken. */
WS_API ws_status ws_events_read_snapshot(ws_device *dev, uint8_t **bytes, size_t *size);
/* Stop the trace and free its buffer. */
WS_API ws_status ws_events_disable(ws_device *dev);

/* ---- Debug machines ----
 * WS_EV_MACHINES machines watch the events that pass the filters. Each
 * runs a sequence of watch instructions; an instruction completes after
 * `repeat` matching events (within `window` time units of the previous
 * instruction's completion, if window is not 0, else the machine starts
 * over); when the last completes, the machine runs its actions. A machine
 * with `enabled` 0 waits for another machine's WS_ACT_ENABLE (chains). */
#define WS_EV_MACHINES 8
#define WS_EV_MAX_WATCH 8
#define WS_EV_MAX_ACTIONS 8
#define WS_EV_ANY_CORE 0xFFFFu

typedef enum ws_match { WS_MATCH_ANY, WS_MATCH_EQ, WS_MATCH_NE, WS_MATCH_RANGE } ws_match;

typedef struct ws_watch {
    uint8_t source, id;
    uint16_t core;           /* WS_EV_ANY_CORE or one core                     */
    ws_match match;          /* on (data & mask): == value, != value, in [value, hi] */
    uint32_t mask, value, hi;
    uint32_t repeat;         /* matching events needed (0 counts as 1)         */
    uint64_t window;         /* 0, or the time within which this one must complete */
    uint64_t lasting;        /* 0, or: the matching event must last this long —
                                the step completes once `lasting` time units
                                pass without the event that ends it
                                (barrier_wait: its barrier's release; warp_start:
                                the warp's retire; wd.stall: a dispatch;
                                cp.start: cp.done); a wait the launch ends
                                with (a deadlock) counts */
} ws_watch;

typedef enum ws_action_kind {
    WS_ACT_STOP,             /* end the launch: WS_ERR_STOPPED, the reason names the machine and event */
    WS_ACT_TRACE_START,      /* start writing the event trace                 */
    WS_ACT_TRACE_STOP,       /* stop writing it                               */
    WS_ACT_COUNT,            /* add 1 to the machine's counter                */
    WS_ACT_REARM,            /* start the sequence again (else the machine is done) */
    WS_ACT_ENABLE,           /* enable machine `arg`                           */
    WS_ACT_CALLBACK,         /* call the host's machine callback              */
    WS_ACT_WD_HALT,          /* the work distributor places no more blocks;
                                running ones finish; if nothing is left to
                                run, the launch ends with WS_ERR_STOPPED */
    WS_ACT_WD_RESUME,        /* it places blocks again                       */
    WS_ACT_WD_STEP,          /* it places exactly one more block, then halts */
    WS_ACT_HALT,             /* halt the warps: an attached debugger sees a stop
                                whose reason names the machine and the event
                                (gdb prints it); with no debugger, like stop.
                                arg: a mask of the cores whose warps halt (the
                                others run on in non-stop mode); 0: the next
                                warp, and all-stop stops the rest */
    WS_ACT_CP_HALT,          /* the command processor takes no more commands:
                                the call that waits for the queue returns
                                WS_ERR_STOPPED; ws_events_resume goes on  */
    WS_ACT_CP_STEP,          /* it takes exactly one more command, then halts */
    WS_ACT_CP_RESUME,
    WS_ACT_TRACE_SNAPSHOT    /* keep a copy of the trace as it is now
                                (ws_events_read_snapshot); the trace goes on */
} ws_action_kind;

typedef struct ws_machine_program {
    int enabled;
    uint32_t nwatch, nactions;
    ws_watch watch[WS_EV_MAX_WATCH];
    struct { ws_action_kind kind; uint32_t arg; } actions[WS_EV_MAX_ACTIONS];
} ws_machine_program;

typedef struct ws_machine_status {
    int enabled, done;
    uint32_t step;           /* the watch instruction it waits on             */
    uint64_t fired, counter;
    ws_event last;           /* the event that completed it last              */
} ws_machine_status;

typedef void (*ws_machine_fn)(void *user, unsigned machine, const ws_event *event);

/* Program machine `index` (after ws_events_configure; the filters are
 * widened to pass what it watches). NULL program: disable it. A machine
 * that could never fire on this device (a step on a core it does not
 * have, data bits outside the mask, an empty range, a halt of cores it
 * does not have) is refused with WS_ERR_INVALID_ARG. */
WS_API ws_status ws_events_machine(ws_device *dev, unsigned index, const ws_machine_program *program);
WS_API ws_status ws_events_machine_status(ws_device *dev, unsigned index, ws_machine_status *out);
/* The host function WS_ACT_CALLBACK calls (on the device's thread). */
WS_API ws_status ws_events_set_callback(ws_device *dev, ws_machine_fn fn, void *user);
/* Let a command processor or work distributor that a program's machine
 * halted run again (the next call that waits for the queue goes on). A
 * halt a debugger's machine caused is the debugger's to release: with the
 * command processor still halted by it, WS_ERR_BUSY names the holder
 * (docs/events.md, "Who holds the bus"). */
WS_API ws_status ws_events_resume(ws_device *dev);
/* Start with the trace off (a machine's WS_ACT_TRACE_START turns it on). */
WS_API ws_status ws_events_trace_enable(ws_device *dev, int on);

/* A machine from its text form (docs/events.md, "Debug machines"):
 *   EVENT [core=N] [data=V | data!=V | data=LO..HI] [mask=M] [count=K]
 *     [then EVENT ... [within=T]]... do ACTION[; ACTION...]
 * *print is set when the actions include `print` (WS_ACT_CALLBACK). */
WS_API ws_status ws_events_parse_machine(const char *text, ws_machine_program *program, int *print, char *err,
                                         size_t errlen);
/* The text form of a machine (as above). Writes at most len bytes, the
 * NUL included, and returns the whole text's length, as snprintf does. */
WS_API size_t ws_events_machine_text(const ws_machine_program *program, char *out, size_t len);

/* Decode a trace (docs/events.md, "Trace format"). *out is malloc'd. A
 * truncated or corrupt stream gets a message naming the byte offset (in
 * err, which may be NULL here and in ws_events_parse_machine). */
WS_API ws_status ws_events_decode(const uint8_t *bytes, size_t size, ws_event **out, size_t *count, char *err,
                                  size_t errlen);
/* Names for printing: "wd.dispatch", "sched.barrier_wait", ... */
WS_API const char *ws_event_name(unsigned source, unsigned id);

#ifdef __cplusplus
}
#endif
#endif
