/* The device's debug hardware as a tool sees it: debug modules on a debug
 * bus (RISC-V External Debug Support 0.13.2 register model), per-core
 * trigger units (Sdtrig), the mode-switch command path of the patent's
 * topologies, and the command processor's debug queries.
 *
 * This is the ONLY interface through which debug tools (the gdb server in
 * src/gdbstub) reach the device. Everything here is thread-safe: the tool
 * calls it from its own thread while the application thread runs the
 * device inside ws_synchronize and friends.
 *
 * Harts: a hart is a lane slot. Global hart index
 *     hart = (core * warps_per_core + warp_slot) * lanes_per_warp + lane
 * is what dmcontrol.hartsel selects. Halting and resuming act on whole
 * warps: halting any lane of a warp halts all its lanes. A lane slot that
 * holds no live thread is "unavailable" (dmstatus.anyunavail/allunavail).
 * See docs/debug-hardware.md for the full register model. */
#ifndef WS_DEBUG_DEBUG_H
#define WS_DEBUG_DEBUG_H
#include <stddef.h>
#include <stdint.h>
#include "warpscope/events.h"
#include "warpscope/warpscope.h"

/* ---- Debug Module Interface (DMI) register addresses (spec 0.13.2) ---- */
#define WS_DM_DATA0        0x04  /* data0..data11 at 0x04..0x0f            */
#define WS_DM_DATA1        0x05
#define WS_DM_DMCONTROL    0x10
#define WS_DM_DMSTATUS     0x11
#define WS_DM_HARTINFO     0x12
#define WS_DM_HALTSUM1     0x13
#define WS_DM_HAWINDOWSEL  0x14
#define WS_DM_HAWINDOW     0x15
#define WS_DM_ABSTRACTCS   0x16
#define WS_DM_PROGBUF0     0x20
#define WS_DM_COMMAND      0x17
#define WS_DM_ABSTRACTAUTO 0x18
#define WS_DM_HALTSUM2     0x34
#define WS_DM_HALTSUM3     0x35
#define WS_DM_SBCS         0x38
#define WS_DM_SBADDRESS0   0x39
#define WS_DM_SBDATA0      0x3c
#define WS_DM_HALTSUM0     0x40
/* Warpscope's vendor registers (0x70..0x7f): the mode-switch command port
 * of the patent (write frame words here; see docs/debug-hardware.md). */
#define WS_DM_MODESWITCH   0x70
/* ... and the debug machines' staging port (docs/debug-hardware.md,
 * src/device/debug/debug_machines.c): select, data, control. */
#define WS_DM_EVSEL        0x71
#define WS_DM_EVDATA       0x72
#define WS_DM_EVCTL        0x73

/* Abstract command register numbers (Access Register, cmdtype 0). */
#define WS_REGNO_CSR(n)    (0x0000u + (n))
#define WS_REGNO_GPR(n)    (0x1000u + (n))
#define WS_REGNO_FPR(n)    (0x1020u + (n))
/* Warpscope's stage-checked graphics registers, in the abstract register
 * numbers the debug specification leaves to vendors (0xC000..): read-only,
 * through Access Register and in trigger conditions alike. Each reads its
 * system value (WS_CSR_GFX_SYS0..4, whose meaning depends on the stage)
 * only in the stage where it means something, WS_GFX_NO_VALUE elsewhere:
 * pixel x/y, flags, primitive in fragment shaders; vertex in vertex
 * shaders; instance and draw in both; none of them in kernels. gdb's
 * $pixel_x .. $instance_id are these (docs/debugging.md). */
#define WS_REGNO_GFX_PIXEL_X   0xC000u
#define WS_REGNO_GFX_PIXEL_Y   0xC001u
#define WS_REGNO_GFX_FLAGS     0xC002u
#define WS_REGNO_GFX_PRIMITIVE 0xC003u
#define WS_REGNO_GFX_DRAW      0xC004u
#define WS_REGNO_GFX_VERTEX    0xC005u
#define WS_REGNO_GFX_INSTANCE  0xC006u
#define WS_REGNO_GFX_END       0xC007u
#define WS_GFX_NO_VALUE        0xFFFFFFFFu

/* The value of stage-checked register regno for a lane of stage (0
 * kernel, 1 vertex, 2 fragment) with system values sys (NULL: none) in
 * draw `draw`. */
static inline uint32_t ws_gfx_reg_value(uint32_t regno, uint32_t stage, const uint32_t *sys, uint32_t draw)
{
    if (!stage) return WS_GFX_NO_VALUE;
    if (regno == WS_REGNO_GFX_DRAW) return draw;
    if (!sys) return WS_GFX_NO_VALUE;
    switch (regno) {
    case WS_REGNO_GFX_PIXEL_X: return stage == 2 ? sys[0] : WS_GFX_NO_VALUE;
    case WS_REGNO_GFX_PIXEL_Y: return stage == 2 ? sys[1] : WS_GFX_NO_VALUE;
    case WS_REGNO_GFX_FLAGS: return stage == 2 ? sys[2] : WS_GFX_NO_VALUE;
    case WS_REGNO_GFX_PRIMITIVE: return stage == 2 ? sys[3] : WS_GFX_NO_VALUE;
    case WS_REGNO_GFX_VERTEX: return stage == 1 ? sys[0] : WS_GFX_NO_VALUE;
    case WS_REGNO_GFX_INSTANCE: return sys[4];
    default: return WS_GFX_NO_VALUE;
    }
}
/* CSRs a debugger uses (all readable through Access Register). */
#define WS_CSR_DCSR        0x7b0  /* cause in bits 8:6, step in bit 2       */
#define WS_CSR_DPC         0x7b1  /* the lane's PC while halted (writable)  */
#define WS_CSR_TSELECT     0x7a0  /* trigger CSRs belong to the hart's core */
#define WS_CSR_TDATA1      0x7a1
#define WS_CSR_TDATA2      0x7a2
#define WS_CSR_TDATA3      0x7a3   /* Warpscope: block select, see below    */
/* tdata3 of a load/store trigger: with WS_TDATA3_BLOCK set, the trigger
 * matches only accesses by threads of the block whose linear index (within
 * the running launch) is in the low 31 bits. Shared-memory addresses are
 * the same in every block; this ties a watchpoint to one block's copy. */
#define WS_TDATA3_BLOCK    (1u << 31)
#define WS_CSR_TINFO       0x7a4

/* dcsr.cause values. */
#define WS_DCSR_CAUSE_EBREAK   1
#define WS_DCSR_CAUSE_TRIGGER  2
#define WS_DCSR_CAUSE_HALTREQ  3
#define WS_DCSR_CAUSE_STEP     4
/* Warpscope extension: the lane stopped on a fault (detail via
 * ws_debug_fault). */
#define WS_DCSR_CAUSE_FAULT    7
/* Warpscope extension: the device halted the warps itself: a debug
 * machine's halt action, or a deadlock (every live lane waits at a barrier
 * no other lane will reach); ws_debug_stop_reason says which. */
#define WS_DCSR_CAUSE_MACHINE  6

typedef struct ws_debug ws_debug;

/* Which debug modules exist and which cores each serves. */
typedef enum ws_dbg_topology {
    WS_DBG_TOPO_BROADCAST = 0, /* one module; a broadcast unit reaches all cores */
    WS_DBG_TOPO_PER_CORE  = 1, /* one module per core                           */
    WS_DBG_TOPO_GROUPS    = 2  /* one module per group of cores_per_group cores */
} ws_dbg_topology;

typedef struct ws_debug_config {
    ws_dbg_topology topology;
    uint32_t cores_per_group;  /* WS_DBG_TOPO_GROUPS only, >= 1            */
} ws_debug_config;

/* Attach the debug hardware to a device (at most one per device). While
 * attached, ebreak, triggers and faults halt warps instead of ending the
 * launch, and a launch whose live warps are all halted waits instead of
 * being reported as deadlocked. */
ws_status ws_debug_attach(ws_device *dev, const ws_debug_config *cfg, ws_debug **out);
/* Detach: every halted warp resumes, breakpoints/triggers are cleared. */
ws_status ws_debug_detach(ws_debug *dbg);
/* Readable message for the last failing call on dbg. */
const char *ws_debug_error(const ws_debug *dbg);

/* Number of debug modules, and the module serving a core. */
ws_status ws_debug_module_count(const ws_debug *dbg, uint32_t *count);
ws_status ws_debug_module_of_core(const ws_debug *dbg, uint32_t core, uint32_t *dm);

/* DMI access to debug module `dm`. Abstract-command errors are reported the
 * spec's way (abstractcs.cmderr), not through the return value; the return
 * value is an error only for a bad module index or register address. */
ws_status ws_dmi_read(ws_debug *dbg, uint32_t dm, uint32_t addr, uint32_t *value);
ws_status ws_dmi_write(ws_debug *dbg, uint32_t dm, uint32_t addr, uint32_t value);
/* 1 if addr is a register these debug modules implement (the others are
 * refused by ws_dmi_read/ws_dmi_write; a JTAG DTM reads them as 0). */
int ws_dmi_implemented(uint32_t addr);
/* Wait (at most timeout_ms) until the device thread has acted on the halt
 * and resume requests (dmcontrol, mode-switch frames) to the warps with a
 * live thread on debug module dm's cores, and the steps they started have
 * ended: what a probe polling dmstatus a bounded number of times needs
 * (the JTAG DTM calls it after such writes). WS_ERR_TIMEOUT (ws_debug_error
 * says which module) if the device did not get there in time. */
ws_status ws_dmi_wait_run_control(ws_debug *dbg, uint32_t dm, unsigned timeout_ms);
/* on = 1: each module numbers the harts it serves from 0 in hartsel and
 * the halt summaries (a probe such as OpenOCD counts a module's harts from
 * 0), hartsel is WARL to the bits the module's harts need, and hasel
 * reads 0 (no hart array mask). on = 0 (the default): global hart numbers.
 * Set it before the first DMI access (modules are not renumbered). */
ws_status ws_debug_local_harts(ws_debug *dbg, int on);

/* ---- The command processor's debug queries ---- */

/* One hart with a live thread. */
typedef struct ws_dbg_lane {
    uint32_t hart;              /* global hart index                       */
    uint32_t core, warp, lane;  /* hardware coordinates                    */
    ws_dim3 block, thread;      /* software coordinates                    */
    uint64_t launch_id;
    int halted;                 /* 1 if its warp is halted                 */
    uint32_t cause;             /* dcsr.cause when halted, else 0          */
    uint32_t pc;                /* the lane's PC                           */
    int depth;                  /* calls made and not yet returned (the
                                   warp issues for its deepest lanes first:
                                   docs/device.md)                       */
    /* Graphics: which shader stage the lane runs (0: a kernel, 1: vertex,
     * 2: fragment), its draw, and its system values (vertex: index and
     * instance; fragment: x, y, flags, primitive; both: word 4 the
     * instance, WS_CSR_GFX_SYS4). */
    uint32_t gfx_stage, draw;
    uint32_t sys[WS_GFX_SYSVALS];
} ws_dbg_lane;

/* Snapshot of every live lane (resident threads), in hart order. Returns
 * the total in *n even when it exceeds max (only max are written). */
ws_status ws_debug_lanes(ws_debug *dbg, ws_dbg_lane *out, size_t max, size_t *n);

/* Cores running a launch (launch_id 0: the current one), optionally only
 * those holding one block (block NULL: any), as a bitmask over cores in
 * 64-bit words (mask_words words; bit c of word c/64). */
ws_status ws_debug_locate(ws_debug *dbg, uint64_t launch_id, const ws_dim3 *block,
                          uint64_t *mask, size_t mask_words);

/* Every lane's registers of one halted warp in one transfer (the bulk
 * read a debugger's thread list needs; WS_ERR_BUSY if the warp runs). */
typedef struct ws_dbg_warp_regs {
    uint32_t x[32][32];         /* [register][lane]                        */
    uint32_t f[32][32];
    uint32_t pc[32];
    uint8_t fflags[32], frm[32];
} ws_dbg_warp_regs;
ws_status ws_debug_warp_regs(ws_debug *dbg, uint32_t warp, ws_dbg_warp_regs *out);

/* For the next step of a halted warp only: lanes that do not take part
 * (they stay where they are), e.g. lanes whose breakpoint stop the tool
 * has not reported yet while it steps another lane over that breakpoint. */
ws_status ws_debug_step_exclude(ws_debug *dbg, uint32_t warp, uint32_t lanes);
/* The lanes of a halted warp that issued the instruction its last step
 * ran (a lane mask): a diverged warp's step runs its deepest, lowest-pc group,
 * which may not hold the lane a debugger follows. 0 if the warp halted
 * before the step ran an instruction (a breakpoint or trigger there) or
 * has not stepped since it last resumed. WS_ERR_BUSY if it runs. */
ws_status ws_debug_step_lanes(ws_debug *dbg, uint32_t warp, uint32_t *lanes);

/* A step over a source line, taken on in the device: the tool sets it on
 * a halted warp with dcsr.step set, before resuming it. After each step
 * the warp steps again, without halting, while the followed lane is on
 * the line (in [lo, hi) at any depth, or in ranges[] at `depth`), and
 * once it is past the line (not deeper than `depth`), while another lane
 * of `lanes` still is on it or deeper, for at most max_past steps; the
 * lanes of `exclude` sit out every step. Then it halts as after any
 * step (cause 4); any other halt (breakpoint, trigger, fault, a halt
 * request) ends it too. The tool's own range step, without a round trip
 * per instruction: the gdb server's vCont;r (docs/debugging.md). */
#define WS_DBG_STEP_RANGES 64
typedef struct ws_dbg_step_range {
    uint32_t lane;              /* the lane followed (0..lanes_per_warp-1)  */
    int depth;                  /* its call depth when the step began       */
    uint32_t lo, hi;            /* the tool's range                         */
    uint32_t nranges;           /* more of the line (at depth)              */
    struct { uint32_t lo, hi; } ranges[WS_DBG_STEP_RANGES];
    uint32_t lanes;             /* the lanes that began the line with it    */
    uint32_t exclude;           /* lanes that sit out every step            */
    uint32_t max_past;          /* steps for the others once it is past     */
} ws_dbg_step_range;
ws_status ws_debug_step_range(ws_debug *dbg, uint32_t warp, const ws_dbg_step_range *r);
/* How many steps the warp took for the others once its lane was past the
 * line, in the range step it halted from (WS_ERR_BUSY if it runs). */
ws_status ws_debug_step_range_past(ws_debug *dbg, uint32_t warp, uint32_t *past);

/* Trigger condition unit: a condition for execute trigger `trigger` of
 * `core`, evaluated per lane when a warp reaches the trigger's address.
 * Only the lanes for which one of the programs yields nonzero (or cannot
 * be evaluated) fire the trigger; a warp for which none does runs on
 * without halting. A program is GDB agent-expression bytecode (the
 * integer subset of agent_expr.h) whose `reg` operands are abstract-command
 * register numbers: 0x1000+n GPR xn, 0x1020+n FPR fn, a CSR number (dpc
 * is the trapped pc, the identity CSRs of abi.h the lane's coordinates).
 * n = 0 removes the condition. Up to WS_DBG_COND_MAX programs of 256
 * bytes in all; anything else is refused (WS_ERR_UNSUPPORTED) with the
 * condition unchanged. docs/debug-hardware.md. */
typedef struct ws_dbg_cond {
    const uint8_t *code;
    size_t len;
} ws_dbg_cond;
#define WS_DBG_COND_MAX 8
ws_status ws_debug_trigger_condition(ws_debug *dbg, uint32_t core, uint32_t trigger, const ws_dbg_cond *conds,
                                     size_t n);

/* The launch the command processor is running: kernel, shape, progress. */
typedef struct ws_dbg_launch {
    uint64_t id;
    char kernel[64];
    uint32_t entry;             /* device address of the kernel            */
    uint32_t body;              /* ... past its prologue (from DWARF)      */
    ws_dim3 grid, block;
    uint64_t blocks_total, blocks_dispatched, blocks_done;
} ws_dbg_launch;
ws_status ws_debug_launch(ws_debug *dbg, ws_dbg_launch *out); /* NOT_FOUND between launches */

/* The lane that faulted and why, if the last stop was a fault. */
typedef struct ws_dbg_fault {
    uint32_t hart, pc, addr;
    char kind[32];              /* "load access fault", ...                */
    char message[1024];         /* the device's full fault report          */
} ws_dbg_fault;
ws_status ws_debug_fault(ws_debug *dbg, ws_dbg_fault *out); /* NOT_FOUND if none */
/* The tool takes the fault of a halted warp upon itself: hart's warp,
 * halted on hart's fault, no longer ends the launch when resumed; it runs
 * on from its dpc (which the tool has moved off the faulting instruction,
 * else it faults again), and reads as halted by request (cause 3). For a
 * fault the tool's own doing made, such as code a debugger called on the
 * lane (gdb's `call f()`, undone). NOT_FOUND if hart is not halted on a
 * fault of its own. */
ws_status ws_debug_fault_discard(ws_debug *dbg, uint32_t hart);

/* Resident modules (the command processor's loaded-code table). `image`
 * is the module's original ELF file as loaded (also for modules built in
 * memory), valid until the next WS_DBG_EV_MODULE_UNLOAD for it. */
typedef struct ws_dbg_module {
    uint32_t id;                /* unique per device, never reused         */
    char name[256];             /* file path or the name given at load     */
    uint32_t base, size;        /* where the image lives on the device     */
    uint32_t link_base;         /* address it was linked at                */
    const void *image;
    size_t image_size;
} ws_dbg_module;
/* A module is listed from its WS_DBG_EV_MODULE_LOAD event until its
 * WS_DBG_EV_MODULE_UNLOAD event is queued (also while the application is
 * parked at that event: the list is the one the event leaves). *n is the
 * number listed; at most max are copied. */
ws_status ws_debug_modules(ws_debug *dbg, ws_dbg_module *out, size_t max, size_t *n);

/* ---- Events: what a tool waits for ---- */
typedef enum ws_dbg_event_kind {
    WS_DBG_EV_NONE = 0,
    WS_DBG_EV_HALT,          /* a warp halted (breakpoint, trigger, step,
                                haltreq, fault): hart = one lane of it      */
    WS_DBG_EV_MODULE_LOAD,   /* a module became resident (module = its id)  */
    WS_DBG_EV_MODULE_UNLOAD,
    WS_DBG_EV_LAUNCH_START,  /* a launch is about to start (launch_id)      */
    WS_DBG_EV_LAUNCH_END,    /* a launch finished (status in `status`)     */
    WS_DBG_EV_DEVICE_CLOSE,  /* the application closed the device          */
    WS_DBG_EV_STEP_EXIT,     /* a step ended its warp's threads (they ran
                                off the end and retired, no halt follows):
                                hart = the first lane that stepped          */
    WS_DBG_EV_CP_HELD,       /* the application waits (ws_synchronize, a
                                synchronous copy) on a command processor
                                the debugger's machines halted; with this
                                kind blocking it waits until the tool
                                releases the halt (EVCTL 8 or 2), resumes
                                it (ws_debug_release: it then tells again
                                if still held) or detaches (which releases
                                the halt); ws_debug_stop_reason says who
                                holds it. Not blocking: the wait returns
                                WS_ERR_STOPPED, as it always did       */
    WS_DBG_EV_WD_HELD,       /* the same for a launch whose placed blocks
                                have finished while the work distributor
                                the debugger's machines halted holds the
                                rest: blocking, the launch waits for the
                                tool; not blocking, it ends with
                                WS_ERR_STOPPED                          */
    WS_DBG_EV_END_HELD       /* a debug machine's halt fired after the
                                launch's last warp had left (the last
                                block's wd.retire): nothing is left to
                                halt, so the launch, finished, waits at
                                its end for the tool's resume (or detach)
                                and then ends well; not blocking, it ends
                                with WS_ERR_STOPPED ("none was left to
                                halt")                                  */
} ws_dbg_event_kind;

typedef struct ws_dbg_event {
    ws_dbg_event_kind kind;
    uint32_t hart;
    uint32_t module;
    uint64_t launch_id;
    ws_status status;
} ws_dbg_event;

/* Which application events park the application thread until the tool
 * calls ws_debug_release (so the tool can, e.g., insert breakpoints into a
 * module before any of its code runs). Bit (1u << kind). Default: none. */
ws_status ws_debug_set_blocking_events(ws_debug *dbg, uint32_t kinds_mask);
/* All-stop: when any warp halts, the device halts every other warp at the
 * same safe point. Non-stop (0): the others keep running. Default 1. */
ws_status ws_debug_set_all_stop(ws_debug *dbg, int all_stop);
/* on = 1: a step whose instruction faults ends as a step (dcsr.cause 4,
 * dpc at the faulting instruction) before the fault is taken, as the debug
 * spec has a step end before the trap handler runs; the next resume takes
 * the fault: the warp halts on it (cause 7) at once, and a resume after
 * that ends the launch with it. A probe such as OpenOCD steps over a
 * watchpoint before every resume and never looks at how that step ended:
 * this way the fault's halt comes after the resume, where it sees it.
 * on = 0 (the default): the step ends with the fault's halt (cause 7). */
ws_status ws_debug_set_step_before_fault(ws_debug *dbg, int on);
/* on = 1 (the JTAG server sets it): a step (dcsr.step) runs an
 * instruction of the lane of the hart whose dcsr set it, as a step of a
 * hart does on any RISC-V target: in a diverged warp the lanes at another
 * pc (or call depth) sit the step out; and each hart's dcsr.cause is its
 * own (a step's only on the stepped hart, a trigger's or ebreak's only on
 * the lanes that met it, "halt request" on the warp's others). on = 0 (the
 * default, the gdb server's): a step runs the group the warp would run
 * next, and every hart of a warp reads the warp's cause. */
ws_status ws_debug_set_hart_steps(ws_debug *dbg, int on);
/* Wait up to timeout_ms (-1: forever) for the next event. WS_ERR_TIMEOUT if
 * none arrived. Events are queued in order; none are lost. */
ws_status ws_debug_wait_event(ws_debug *dbg, int timeout_ms, ws_dbg_event *ev);
/* A file descriptor that polls readable while events are queued (a tool
 * waits for its socket and the debug hardware in one poll), or -1. Owned
 * by the debug handle. */
int ws_debug_event_fd(const ws_debug *dbg);
/* Let a parked application thread continue (no-op if none is parked).
 * Only once the tool has taken (ws_debug_wait_event) the event it parked
 * at: a release that crosses a new park (the application reached its
 * next blocking event while the tool was resuming warps) leaves it
 * parked until the tool has seen that event and releases again. */
ws_status ws_debug_release(ws_debug *dbg);

/* The trigger hit that halted hart's warp (dcsr.cause == 2): *addr is the
 * matched address (the PC for an execute trigger, the lane's access address
 * for a load/store trigger, which has NOT been performed yet) and
 * *lane_hart (may be NULL) the hart of the lane that hit. NOT_FOUND if the
 * warp is not halted on a trigger. */
ws_status ws_debug_trigger_hit(ws_debug *dbg, uint32_t hart, uint32_t *lane_hart, uint32_t *addr);
/* The same, and for a load/store trigger *rest (may be NULL): the lanes
 * of the instruction after the one named whose accesses touch the range
 * too (a lane mask; 0 for an execute trigger). The named lane is the
 * first that touches the range (of a store trigger, the first that
 * stores); stepping it with *rest excluded (ws_debug_step_exclude) makes
 * its access alone, and the rest meet the trigger again when they run. */
ws_status ws_debug_trigger_hit_lanes(ws_debug *dbg, uint32_t hart, uint32_t *lane_hart, uint32_t *addr,
                                     uint32_t *rest);

/* A machine program as the words EVDATA takes; returns how many (at most
 * max are written). */
uint32_t ws_debug_machine_words(const ws_machine_program *p, uint32_t *out, uint32_t max);

/* The first action of p a debugger's machine may not take, or NULL: the
 * trace and callback actions act on the program's trace and callback
 * (docs/events.md, "Who holds the bus"); the EVCTL load refuses them. */
const char *ws_debug_machine_program_only_action(const ws_machine_program *p);

/* The event bus's debug machines, the program's and the debugger's, as
 * the device showed them when it last stopped for the tool (a warp's
 * halt, a park, a wait on a held command processor, a launch's end) or
 * took the tool's EVCTL requests; then the debugger's programs still
 * queued (EVCTL bits 15:8, not in a machine yet). */
typedef struct ws_dbg_machine {
    uint32_t index;             /* the machine, 0..7 (queued: place in the queue) */
    int debugger;               /* the debugger's (gdb's 'monitor watch', EVCTL);
                                   else the program's (or the event watcher's) */
    int queued;                 /* a debugger's program not in a machine yet */
    ws_machine_program program;
    ws_machine_status status;   /* (queued: zeros) */
} ws_dbg_machine;
/* *n: how many there are; at most max are copied to out. */
ws_status ws_debug_machines(ws_debug *dbg, ws_dbg_machine *out, size_t max, size_t *n);

/* Why the device last halted the warps with cause MACHINE ("debug machine 0
 * fired on wd.dispatch ...", or "device deadlock: ..."), or NOT_FOUND. */
ws_status ws_debug_stop_reason(ws_debug *dbg, char *buf, size_t len);
/* *stopped = 1 if the warps halted with cause MACHINE stand on this
 * launch's deadlock (continuing ends the launch with WS_ERR_DEADLOCK). */
ws_status ws_debug_deadlock_stop(ws_debug *dbg, int *stopped);

/* ---- Shadow unit: frame debugging by replay (docs/debug-hardware.md) ----
 * Counts events without ever halting: breakpoint hits (a lane reaching a
 * breakpoint pc, or touching a watched range, lanes in ascending order
 * within a warp-instruction, warp-instructions in the device's issue
 * order) or the instructions of one thread. At the k-th counted event it copies the warp's context and the
 * memory its lanes can address into a shadow buffer, and the warp runs on:
 * the frame completes with the same schedule and results as unarmed.
 *
 * Positions: every event has a position, increasing in execution order
 * and the same in every replay of the same work:
 *     pos = launch << 48 | warp_instruction << 5 | lane
 * (launch: ordinal of the launch since arming, from 1; warp_instruction:
 * 1-based index of the warp-instruction within its launch). All lanes of
 * one warp-instruction see the same state; positions of one instruction
 * differ only in the low 5 bits. A breakpoint at the exit stub's
 * WS_RETIRE_ADDR is hit when lanes retire, at the position of their
 * `ret` (HITS only: retiring is no instruction of a thread).
 *
 * Arm and read results only while the device is idle (between runs, as a
 * replay loop does); the unit is then read without races. */
#define WS_SHADOW_MAX_BPS 64
#define WS_SHADOW_POS(launch, winst, lane) \
    ((uint64_t)(launch) << 48 | ((uint64_t)(winst) & 0x7FFFFFFFFFFull) << 5 | (uint64_t)(lane))
#define WS_SHADOW_POS_LAUNCH(pos) ((uint32_t)((pos) >> 48))
#define WS_SHADOW_POS_LANE(pos) ((uint32_t)((pos) & 31u))

typedef enum ws_shadow_mode {
    WS_SHADOW_HITS = 1,   /* lanes reaching one of bps[] (or a pixel's entry) */
    WS_SHADOW_THREAD = 2  /* instructions of one thread                         */
} ws_shadow_mode;

/* A breakpoint: pc and optional conditions (agent expressions over
 * abstract-command register numbers, as ws_debug_trigger_condition takes;
 * a lane counts if any holds or cannot be evaluated). */
/* A thread of the replayed work: launch ordinal since arming (from 1),
 * block and thread coordinates. */
typedef struct ws_shadow_thread {
    uint32_t launch;
    ws_dim3 block, thread;
} ws_shadow_thread;

typedef struct ws_shadow_bp {
    uint32_t pc;
    ws_dbg_cond conds[WS_DBG_COND_MAX];
    size_t nconds;
    /* 1: only lanes running `thread` count (a debugger's breakpoint for
     * one thread's frame, such as its return to the exit stub) */
    int one_thread;
    ws_shadow_thread thread;
} ws_shadow_bp;

/* A watched range (HITS): a lane whose load, store or atomic touches a
 * byte of [addr, addr + len) is an event at its instruction's position,
 * before the access (as a load/store trigger fires). rw: 1 loads, 2
 * stores, 3 both (an atomic is both, store-conditional a store). Shared
 * and stack addresses repeat (every block has its shared memory, a stack
 * slot serves one thread after another), so a range can be tied to one
 * launch ordinal and block (bind 1) or one thread (bind 2: `thread`). */
#define WS_SHADOW_MAX_WATCHES 16
typedef struct ws_shadow_watch {
    uint32_t addr, len;
    uint8_t rw, bind;
    ws_shadow_thread thread;     /* bind 1: its launch and block; bind 2: all of it */
} ws_shadow_watch;

typedef struct ws_shadow_arm {
    ws_shadow_mode mode;
    const ws_shadow_bp *bps;     /* HITS */
    size_t nbps;
    const ws_shadow_watch *watches; /* HITS: data events too */
    size_t nwatches;
    /* HITS: only fragment lanes shading pixel (pixel_x, pixel_y) count
     * (pixel_draw: that draw's ordinal since arming, from 0; UINT32_MAX
     * any); with pixel_entry, the
     * first instruction of that fragment's shader is a hit as well. */
    int pixel, pixel_entry;
    uint32_t pixel_x, pixel_y, pixel_draw;
    /* Draw ordinals (pixel_draw, the snapshot's draw) count from device
     * draw id first_draw when has_first_draw (the id the next queued draw
     * gets: every draw of the replayed frame is numbered, also one that
     * launches nothing because its viewport and scissor leave no pixel);
     * otherwise from the first draw that launches a shader. */
    int has_first_draw;
    uint64_t first_draw;
    ws_shadow_thread thread;     /* THREAD */
    uint64_t after;              /* count only events at positions > after   */
    int data_at_after;           /* ... and a watched access at `after` itself (a
                                    copy there is taken before its instruction) */
    uint64_t k;                  /* snapshot the k-th counted event (0: none) */
    uint64_t before;             /* result.nbefore/last_before: events < before */
    uint64_t *record;            /* positions of counted events, up to ncap   */
    size_t ncap;
    /* THREAD, split != 0: the instruction at position split (a lane's
     * watched store) is shown as made by its lanes up to split's lane
     * only: in the snapshot, the bytes the later lanes of that
     * instruction store hold what the instruction's lanes up to that one
     * left there (unless something stored to them since), as if the lane
     * had stored alone; each lane of a warp storing to one word then
     * shows its own value to a debugger stepping it over the store. */
    uint64_t split;
    /* ... with split_before: the lanes before split's lane only (a copy
     * taken at that lane's position, before its own access, going back
     * over the lanes' stores one at a time) */
    int split_before;
} ws_shadow_arm;

typedef struct ws_shadow_result {
    uint64_t count;              /* events counted (positions > after)        */
    uint64_t nbefore;            /* ... of which at positions < before        */
    uint64_t last_before;        /* the last of those (0: none)               */
    uint64_t thread_total;       /* THREAD: instructions of the thread seen   */
    int taken;                   /* the k-th event happened: a snapshot exists */
} ws_shadow_result;

/* The context copied at the k-th event. */
typedef struct ws_shadow_state {
    uint64_t pos;                /* the event's position                       */
    uint32_t lane;               /* the lane that made it                      */
    uint64_t thread_count;       /* THREAD: the thread's instruction ordinal   */
    uint32_t launch;             /* launch ordinal since arming                */
    uint64_t launch_id;
    char kernel[64];
    ws_dim3 grid, block_dim, block;
    uint32_t core, warp, lanes;  /* hardware place, lanes per warp            */
    uint32_t live, group;        /* live lanes; lanes issuing the instruction */
    uint32_t pc;                 /* the instruction about to run               */
    uint32_t watch;              /* HITS: 1 + the watch the lane's access hit (0: none) */
    uint32_t data_addr;          /* ... the first watched byte it touches      */
    ws_dim3 thread[32];
    uint32_t gfx_stage, draw;    /* 0 kernel, 1 vertex, 2 fragment; draw ordinal since arming */
    uint32_t sys[32][WS_GFX_SYSVALS]; /* the lanes' WS_CSR_GFX_SYS0..4 */
    ws_dbg_warp_regs regs;       /* regs.pc: every lane's pc                   */
} ws_shadow_state;

/* A lane's fault while the unit was armed (observe-only, the fault ends
 * its launch): the faulting thread (launch ordinal since arming) and the
 * device's report, in the order met, up to WS_SHADOW_MAX_FAULTS. A
 * deadlock or the watchdog is no lane's fault and is not listed. */
#define WS_SHADOW_MAX_FAULTS 16
typedef struct ws_shadow_fault {
    ws_shadow_thread thread;
    char kind[32];               /* ws_dbg_fault.kind: "load access fault", ... */
    char message[1024];          /* the device's full fault report            */
} ws_shadow_fault;

ws_status ws_debug_shadow_arm(ws_debug *dbg, const ws_shadow_arm *arm);
/* The faults the last armed run met (valid until the next arming). */
ws_status ws_debug_shadow_faults(ws_debug *dbg, const ws_shadow_fault **out, size_t *n);
/* on = 1: the debug hardware only observes (the shadow unit counts and
 * copies) — ebreak, triggers and faults act as with no debugger attached,
 * so a lane that faults ends the launch with its fault instead of halting
 * a warp that a replaying tool, running the device itself, could never
 * resume. Default 0; reset by ws_debug_attach. */
ws_status ws_debug_set_observe_only(ws_debug *dbg, int on);
ws_status ws_debug_shadow_disarm(ws_debug *dbg);
ws_status ws_debug_shadow_result(ws_debug *dbg, ws_shadow_result *out);
/* The snapshot (NOT_FOUND if none was taken since arming). */
ws_status ws_debug_shadow_state(ws_debug *dbg, const ws_shadow_state **out);
/* Copy device memory as lane `lane` of the snapshot saw it: global memory
 * (modules, allocations), the lane's stack, its block's shared memory,
 * the exit stub. */
ws_status ws_debug_shadow_read(ws_debug *dbg, uint32_t lane, uint32_t addr, uint8_t *buf, size_t len);
/* Copy global memory as it is now into the shadow buffer (the device must
 * be idle), dropping any warp snapshot: the frame's start or end. */
ws_status ws_debug_shadow_capture_memory(ws_debug *dbg);

/* The device a debug handle belongs to (for the library's own use). */
ws_device *ws_debug_device(ws_debug *dbg);

#endif
