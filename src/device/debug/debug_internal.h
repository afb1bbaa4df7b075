/* State of the debug hardware (shared by the debug sources). One
 * mutex guards everything the tool and the device thread share; the
 * device thread looks at `attention` at safe points and only then locks. */
#ifndef WS_DEBUG_INTERNAL_H
#define WS_DEBUG_INTERNAL_H
#include <pthread.h>
#include <stdatomic.h>
#include "device/debug/debug.h"
#include "warpscope/events.h"
#include "device/debug/debug_hooks.h"

#define DBG_TRIGGERS 8     /* trigger unit size per core (docs/debug-hardware.md) */
#define DBG_DATACOUNT 2
#define DBG_PROGBUFSIZE 2 /* words; the hart runs fences and ebreak from it */
#define DBG_MS_MAXWORDS 64 /* longest mode-switch frame                           */
#define DBG_INVAL_MAX 64   /* pending code invalidations                          */
#define DBG_COND_BYTES 256 /* condition RAM per trigger (debug-hardware.md)       */

enum { DW_RUN = 0, DW_HALTED = 1 };
enum { REQ_NONE = 0, REQ_HALT = 1, REQ_RESUME = 2 };

/* Per warp slot. `state` and the step fields are written only by the
 * device thread (under the lock); `req` only by the tool. */
typedef struct dbg_warp {
    uint8_t state, cause, req;
    uint8_t step;        /* dcsr.step (shared by the warp's harts)          */
    uint8_t step_lane;   /* the lane whose hart set it (hart_steps)         */
    uint8_t halt_lane;   /* the lane the last halt was for (dbg_halt_locked) */
    uint8_t stepping;    /* resumed with step: run one instruction          */
    uint8_t step_bar;    /* stepped into a barrier: halts when it opens     */
    uint8_t group_halt;  /* halted because another warp halted (all-stop)   */
    uint8_t faulted;     /* halted on a fault: resuming ends the launch     */
    uint8_t fault_after_step; /* a step ended at this fault before taking it
                            (step_before_fault): the next resume halts the
                            warp on the fault instead of running it    */
    uint8_t resumeack;
    uint32_t haltreq;    /* dmcontrol.haltreq of the warp's harts, a bit a
                            lane: set until a dmcontrol write selecting the
                            hart clears it; a live lane whose bit is set
                            halts its running warp (spec 0.13.2), also one
                            that a launch fills later (tool-written, read
                            by the device thread, under the lock)          */
    uint8_t has_hit;     /* trigger hit recorded (hit_lane/hit_addr)        */
    uint8_t resident;    /* the slot's current warp has been through a safe
                            point (0: a warp dispatched since, or none)     */
    uint8_t pend_cause;  /* halt found mid-quantum, published when the warp
                            is back at the safe point (ws_dbg_warp_done)   */
    uint32_t pend_lane;
    uint32_t hit_lane, hit_addr;
    uint32_t hit_rest;   /* load/store trigger: the later lanes of the
                            instruction that touch the range too       */
    uint64_t skip_instret; /* first instruction after resuming from a
                              trigger halt: no execute triggers, and no
                              load/store triggers if skip_data    */
    uint8_t hit_exec;    /* the recorded hit is an execute trigger's       */
    uint8_t skip_data;   /* resumed from a load/store trigger's halt       */
    uint32_t step_group; /* device thread: the group the step issues       */
    uint32_t step_issued; /* the lanes that issued the last step's
                             instruction (0: none; ws_debug_step_lanes)    */
    uint8_t ranging;     /* a range step is set (ws_debug_step_range)      */
    uint32_t range_past; /* ... its steps for the others so far            */
    ws_dbg_step_range range;
} dbg_warp;

typedef struct dbg_core {
    uint32_t tdata1[DBG_TRIGGERS], tdata2[DBG_TRIGGERS];
    uint32_t tdata3[DBG_TRIGGERS];   /* block select (debug-hardware.md)   */
    uint32_t tselect;
    atomic_uint ndata;   /* armed load/store triggers (read without the lock) */
    /* trigger condition unit: per trigger, up to WS_DBG_COND_MAX programs
     * back to back (none: the trigger fires for every lane) */
    uint8_t cond[DBG_TRIGGERS][DBG_COND_BYTES];
    uint16_t cond_len[DBG_TRIGGERS][WS_DBG_COND_MAX];
    uint8_t ncond[DBG_TRIGGERS];
} dbg_core;

typedef struct dbg_dm {
    uint32_t first_core, ncores;   /* the cores this module serves          */
    int dmactive, hasel;
    uint32_t hartsel, hawindowsel;  /* hartsel: global hart index            */
    uint32_t lsel;                 /* hartsel as written, with local_harts  */
    uint32_t *hamask;              /* hart array mask, one bit per hart     */
    uint32_t data[DBG_DATACOUNT], command, cmderr, abstractauto;
    uint32_t progbuf[DBG_PROGBUFSIZE];
    uint32_t sbcs, sberror, sbaddress, sbdata; /* sbcs: writable fields only */
    uint32_t ms[DBG_MS_MAXWORDS], ms_n, ms_status;
} dbg_dm;

typedef struct dbg_mod {
    const void *key;               /* the ws_module                          */
    ws_dbg_module info;
    int gone;                      /* its unload event is out: not listed    */
} dbg_mod;

enum { DBG_EV_WORDS = 1 + 10 * WS_EV_MAX_WATCH + 2 * WS_EV_MAX_ACTIONS };

struct ws_debug {
    atomic_int attention;          /* requests wait for the device thread   */
    atomic_int attached;
    ws_device *dev;                /* NULL once the device closed           */
    pthread_mutex_t mu;
    pthread_cond_t dev_cv;         /* device thread waits for the tool       */
    pthread_cond_t ev_cv;          /* tool waits for events                  */
    pthread_cond_t app_cv;         /* application parked at an event         */
    pthread_cond_t req_cv;         /* the device thread acted on run-control
                                      requests (halt, resume, a step's end);
                                      CLOCK_MONOTONIC                        */
    ws_debug_config cfg;
    uint32_t nwarps, nharts, lanes, wpc, hartsellen;
    dbg_warp *w;
    dbg_core *core;
    dbg_dm *dm;
    uint32_t ndm;
    int all_stop, parked;
    int haltreq_any;               /* some dbg_warp.haltreq bit may be set  */
    int step_before_fault;         /* a step that faults ends as a step (ws_debug_set_step_before_fault) */
    int hart_steps;                /* a step runs its hart's lane (ws_debug_set_hart_steps) */
    int local_harts;               /* DMI hart numbers count from each module's first hart */
    double parked_s;               /* device thread parked this launch      */
    uint64_t halts;                /* warps halted so far (ws_dbg_hold_wait) */
    uint32_t blocking;
    ws_dbg_event *evq;
    size_t evhead, evlen, evcap;
    uint64_t ev_pushed, ev_taken;  /* events ever queued / taken by the tool */
    uint64_t park_ev;              /* ev_pushed of the event parked at      */
    int evfd;                      /* eventfd: readable while evlen > 0     */
    ws_dbg_fault fault;
    int have_fault;
    char machine_reason[512];      /* the last halt by a debug machine or a deadlock */
    int deadlock_stopped;          /* this launch's deadlock has halted the warps once */
    ws_machine_program machine_q[WS_EV_MACHINES]; /* programs from the tool, for
                                      the device thread to load (debug bus)   */
    uint32_t nmachine_q;
    int machine_clear;             /* the tool asked to clear every machine  */
    int machine_resume;            /* ... to release its machines' wd/cp halts */
    ws_dbg_machine machines_seen[WS_EV_MACHINES]; /* the bus's loaded machines as
                                      the device last showed them (ws_debug_machines) */
    uint32_t nmachines_seen;
    uint8_t wd_held_seen, cp_held_seen; /* the debugger's machines held the work
                                      distributor / command processor halted then */
    uint32_t ev_words[DBG_EV_WORDS]; /* EVDATA staging area                  */
    uint32_t ev_n, ev_index;
    int ev_refused;
    ws_fault *saved_fault;         /* per warp slot: its fault, restored when
                                      it resumes (several warps may be halted
                                      on faults at once, non-stop)          */
    dbg_mod *mods;
    size_t nmods, modcap;
    uint32_t next_mod_id;
    uint32_t inval[DBG_INVAL_MAX][2]; /* [lo, hi) code ranges to re-decode   */
    uint32_t ninval;
    struct dbg_shadow *shadow;     /* the shadow unit (debug_shadow.c), NULL until armed */
    int shadow_armed;              /* device thread: call the unit at trapped entries */
    atomic_int observe_only;       /* no halts: ebreak/triggers/faults as if detached */
    char err[512];
};

static inline uint32_t dbg_widx(const ws_debug *d, const ws_warp *w) { return w->core * d->wpc + w->slot; }
static inline ws_warp *dbg_warp_of(ws_debug *d, uint32_t widx)
{
    return &d->dev->cores[widx / d->wpc].warps[widx % d->wpc];
}

/* debug_machines.c: the bus's loaded machines into machines_seen, for
 * the tool to read (device thread, locked) */
void dbg_machines_publish_locked(ws_debug *d);
/* debug_machines.c: the EV* registers (locked) */
void dbg_machines_read_locked(ws_debug *d, uint32_t addr, uint32_t *v);
void dbg_machines_write_locked(ws_debug *d, uint32_t addr, uint32_t v);

/* debug_core.c */
ws_status dbg_fail(ws_debug *d, ws_status s, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void dbg_push_event_locked(ws_debug *d, ws_dbg_event_kind kind, uint32_t hart, uint32_t module,
                           uint64_t launch_id, ws_status st);
/* Queue an application event and, if the tool asked for it with
 * ws_debug_set_blocking_events, park the application thread until
 * ws_debug_release (locked). */
void dbg_app_event_locked(ws_debug *d, ws_dbg_event_kind kind, uint32_t module, uint64_t launch_id,
                          ws_status st);
void dbg_wake_device_locked(ws_debug *d);
/* The device thread acted on run-control requests: wake a tool waiting in
 * ws_dmi_wait_run_control (locked). */
void dbg_requests_done_locked(ws_debug *d);
void dbg_invalidate_locked(ws_debug *d, uint32_t lo, uint32_t hi);
/* debug_run.c: halt warp (device thread, locked); event 0 = group halt. */
void dbg_halt_locked(ws_debug *d, ws_warp *w, uint32_t cause, uint32_t lane, int event);
/* debug_trig.c */
int dbg_trig_csr(ws_debug *d, uint32_t core, uint32_t csr, int write, uint32_t *val); /* -1: no such CSR */
int dbg_trig_exec_at(const ws_debug *d, uint32_t pc);
void dbg_trig_clear_all_locked(ws_debug *d);
/* debug_cond.c: 1 if agent-expression program code yields nonzero for
 * `lane` of w at pc, or cannot be evaluated (the debugger decides) */
int dbg_cond_lane_true(ws_debug *d, ws_warp *w, uint32_t lane, uint32_t pc, const uint8_t *code, size_t len);
/* ws_ax_map_regs check for condition programs (the trigger condition unit
 * and the shadow unit): GPRs, FPRs, CSRs and the stage-checked graphics
 * registers (debug.h) pass, mapped to themselves. */
int dbg_cond_check_reg(void *user, uint32_t regno, uint32_t *out);
/* debug_cond.c: lanes of group g at pc for which trigger idx of w's core
 * fires (all of g without a condition; locked) */
uint32_t dbg_cond_lanes_locked(ws_debug *d, ws_warp *w, uint32_t idx, uint32_t g, uint32_t pc);
/* debug_dm.c */
void dbg_dm_init(ws_debug *d);
/* An identity, counter or FP CSR as lane l of w would read it: 0, or -1. */
int dbg_csr_value(ws_debug *d, ws_warp *w, uint32_t l, uint32_t csr, uint32_t *v);
/* debug_shadow.c: device-thread side of the shadow unit (d->shadow armed) */
int dbg_shadow_wants(const ws_debug *d, uint32_t pc, unsigned op);    /* trap this pc (op: its instruction)? */
void dbg_shadow_exec(ws_debug *d, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc);
void dbg_shadow_launch(ws_debug *d, int start);
void dbg_shadow_fault(ws_debug *d, ws_warp *w); /* w faulted (dev->fault): listed */
void dbg_shadow_free(ws_debug *d);
void ws_debug_shadow_disarm_locked(ws_debug *d);
#endif
