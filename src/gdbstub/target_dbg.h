/* The gdb target over the device's debug hardware (src/device/debug/debug.h).
 * Thread id = hart + 2; thread 1 is the device placeholder shown while no
 * lane is live. */
#ifndef WS_GDBSTUB_TARGET_DBG_H
#define WS_GDBSTUB_TARGET_DBG_H
#include <pthread.h>
#include <stdatomic.h>
#include "device/debug/debug.h"
#include "gdbstub/gdb_target.h"

#define WS_GDB_PLACEHOLDER_TID 1u
/* The placeholder's pc at a stop for a held work distributor or command
 * processor: symbols of the exit stub (kernel/src/exit_stub.S). */
#define WS_GDB_WD_HELD_PC 0xfffefff4u
#define WS_GDB_CP_HELD_PC 0xfffefff8u
/* ... and at a launch's end that a debug machine's halt holds (it fired
 * after the last warp had left): where that warp's lanes ended,
 * __ws_thread_exit's 0xffff0000 (WS_RETIRE_ADDR). */
#define WS_GDB_END_HELD_PC 0xffff0000u
#define WS_GDB_TID(hart) ((hart) + 2u)
#define WS_GDB_MAX_BP 256
/* How far past a callee's entry gdb's `step` may put its step-resume
 * breakpoint (the end of the prologue: a few stores per saved register
 * and argument at -O0) for the server to take it for one (note_call). */
#define WS_GDB_PROLOGUE_MAX 256u
#define WS_GDB_MAX_TRIG 8      /* per core, as tselect indexes */

typedef struct ws_gdb_bp {
    int used, type;
    uint32_t addr, kind;
    uint8_t orig[4];           /* Z0: the bytes the ebreak replaced     */
    uint32_t stepping;         /* warps the server is stepping over it  */
    int trig;                  /* Z1..Z4: trigger index on every core   */
    int chained;               /* ... and trig + 1, chained to it: a
                                  watchpoint on a range no single trigger
                                  matches (>= its start, < its end)      */
    int cond_trig;             /* a Z0 with a condition, held by an execute
                                  trigger whose condition unit evaluates it
                                  per lane at the trap (no ebreak written) */
    int exit_stub;             /* a Z0 at the kernels' return address,
                                  held by an execute trigger (no memory
                                  there to write an ebreak into)         */
    int as_sw;                 /* a Z0 held by an execute trigger (the exit
                                  stub, a lane-stack address: gdb's
                                  return address for a function it calls,
                                  or an address with no code loaded yet),
                                  reported as a software breakpoint      */
    int no_code;               /* ... the last: no module there yet       */
    uint32_t owner;            /* gdb's step-resume breakpoint of this
                                  thread (a `next` or `step` into a call):
                                  other warps pass it unseen, until this
                                  thread has stopped there (0: anyone's) */
    uint8_t *code;             /* conditions' bytecode, back to back    */
    size_t cond_len[WS_GDB_MAX_CONDS];
    size_t nconds;
} ws_gdb_bp;

/* A watchpoint on shared memory and the block it watches (tdata3). gdb
 * takes its watchpoints out at every stop and puts them back at the next
 * resume, whatever thread it is on by then: the block is the one chosen
 * when gdb first inserted the watchpoint, kept while gdb keeps putting it
 * back (forgotten at a continue without it). */
typedef struct ws_gdb_shared_wp {
    int used, inserted, type;
    uint32_t addr, kind, tdata3;
} ws_gdb_shared_wp;
#define WS_GDB_MAX_SHARED_WP 32

/* The source line of a range step (dbg_lines.c): file and line number of
 * the row gdb's range starts in, and the module's line map. */
struct ws_line_map;
typedef struct ws_gdb_step_line {
    const struct ws_line_map *map; /* NULL: the range is all there is */
    uint32_t base, size, link_base;   /* the module: where it is, linked  */
    const char *file;
    uint32_t line;
} ws_gdb_step_line;
#define WS_GDB_LINE_MAPS 8     /* modules whose line maps are kept      */

typedef struct ws_gdb_dbg {
    ws_debug *dbg;
    ws_config cfg;
    uint32_t lanes_per_core;
    ws_dbg_lane *lanes;        /* snapshot, refreshed per query          */
    size_t nlanes, cap;
    ws_dbg_warp_regs **regs;   /* per warp: its lanes' registers, read in
                                  one transfer, valid while lanes_fresh */
    uint8_t *regs_ok;
    int lanes_fresh;           /* all-stop with every lane halted: the
                                  snapshot holds until something is resumed,
                                  halted, written or reported (gdb's thread
                                  list then costs O(1) per packet, not O(n)) */
    ws_gdb_stop pending[1024]; /* stops not yet told to gdb (per lane)   */
    uint32_t pending_pc[1024]; /* the lane's pc then (0: any): a lane that
                                  moved since has nothing left to report */
    uint8_t pending_sib[1024]; /* 1: not the first lane of its warp's stop */
    uint8_t pending_bp[1024];  /* 1: a lane at a breakpoint: it sits out
                                  gdb's step of a sibling over it        */
    uint8_t pending_req[1024]; /* 1: non-stop, a lane halted only because
                                  its warp did (told as signal 0)        */
    size_t npending;
    /* A breakpoint whose condition held for no lane: the server steps the
     * warp over it by itself and lets everything run on. */
    uint32_t focus_tid;        /* gdb's thread of interest (last stop, step):
                                  reported first when its warp stops */
    uint32_t sib_reported;     /* the last stop told: a lane beside the focus
                                  thread at a breakpoint (0: not such a stop) */
    int step_keeps_focus;      /* the step running is gdb's step of such a
                                  lane over the breakpoint               */
    uint32_t *auto_addr;       /* per warp: + 1 of the breakpoint it is being
                                  stepped over by the server (0: none) */
    uint8_t *wsel;             /* per warp: scratch warp set to resume   */
    uint8_t *auto_wait;        /* per warp: stepped over a breakpoint by the
                                  server, waits (all-stop) until no other
                                  warp is still stepping over one */
    int resumed;               /* gdb resumed since the last stop        */
    uint32_t held_pc;          /* the placeholder thread's pc at a stop for
                                  a held work distributor or command
                                  processor (its symbol in the exit stub),
                                  until gdb resumes; 0: none              */
    int want_interrupt;        /* gdb asked for a halt (haltreq stops count) */
    uint32_t interrupted_warp; /* all-stop: warp + 1 whose halt answered
                                  gdb's interrupt (monitor warps says so;
                                  the others stopped with it), until gdb
                                  resumes                                */
    uint8_t *want_stop;        /* per warp, non-stop: gdb asked a lane of it
                                  to stop (vCont;t), its halt is told    */
    uint8_t *tell;             /* per hart, non-stop: a halted lane gdb has
                                  yet to hear stopped (signal 0), told
                                  after the queued stops (a flag, not a
                                  queue entry: a pause of every thread
                                  owes gdb one per live lane)            */
    uint32_t *wp_rest;         /* per warp: the lanes after the one a data
                                  trigger named whose accesses touch the
                                  watched range too; they sit out gdb's
                                  step of that lane over the access and
                                  meet the trigger again (one stop per
                                  lane, in lane order)                  */
    uint32_t *wp_pc;           /* per warp: the pc of that access        */
    uint32_t step_hart;        /* hart stepped, + 1 (0: none)           */
    uint32_t step_excl;        /* the lanes of its warp that sit the step
                                  out (re-applied to each step taken on its
                                  behalf: one hardware step excludes them
                                  for one instruction)                   */
    uint32_t step_more;        /* warp-instructions stepped on so far for
                                  a step the lane had no part in          */
    uint32_t range_lo, range_hi; /* vCont;r: the step of step_hart goes on
                                  while its pc is in [lo, hi) (hi 0: none) */
    uint32_t range_lanes;      /* ... and while a lane of its warp that was
                                  in the range with it when the step began
                                  still is (at range_depth), or is deeper
                                  (in a call made from the range): the
                                  line is done when the warp is past it  */
    int range_depth;
    ws_gdb_step_line step_line; /* ... and the line the range is a row of:
                                  its other rows count as the range (at
                                  range_depth) */
    ws_dbg_step_range range_hw; /* the same, taken on by the device between
                                  the server's looks (ws_debug_step_range) */
    uint32_t step_along;       /* all-stop vCont;r: lanes of the stepped
                                  warp that were queued at a breakpoint on
                                  the stepped line, taken along by the step
                                  instead of reported (each passes that
                                  breakpoint once, unseen)               */
    uint32_t step_along_pc;    /* ... the breakpoint's address            */
    uint32_t call_ra, call_pc, call_tid; /* a range step of call_tid
                                  stopped in a call, at call_pc: a Z0 gdb
                                  puts in before it resumes at its return
                                  address call_ra (`next`) or just past
                                  call_pc (`step`: the callee's prologue)
                                  is its step-resume breakpoint (owner) */
    struct { uint32_t id; struct ws_line_map *map; } line_maps[WS_GDB_LINE_MAPS];
    uint32_t line_next;        /* the cache slot to fill next            */
    int range_past;            /* the stepped lane is past the range and
                                  the warp steps on for the others: its
                                  own step is done (no step_on for it)  */
    uint8_t *range_wsel;       /* per warp: the warps that resume uses, woken
                                  again after each step in the range     */
    uint32_t orphan_step;      /* all-stop: warp + 1 whose step gdb gave up
                                  while it waited at a barrier (another
                                  thread's stop came first); its halt when
                                  the barrier opens is not gdb's to hear */
    int non_stop, stop_at_launch;
    int warp_stops;            /* threads=warp (warp_view.h): a warp's halt
                                  is one stop, for its focus lane or the
                                  first lane a breakpoint's condition
                                  passes; non-stop, gdb holds the whole
                                  warp at once (no stop per sibling lane) */
    int server_conditions;     /* WARPSCOPE_DEBUG conditions=server: the
                                  server evaluates every condition itself
                                  (ebreak), for comparison and as a fallback */
    int launch_trig;           /* stop-at-launch: the execute trigger at the
                                  kernel entry (-1: none), and its note */
    uint32_t launch_entry;
    char launch_note[128];
    int hold_launch;           /* re-attached: the application is held at
                                  its next launch until gdb resumes     */
    uint32_t blocking_after;   /* the parking events once gdb resumed   */
    uint8_t *held;             /* per hart: gdb believes this thread is
                                  stopped (non-stop: its warp must stay) */
    uint32_t nharts;
    ws_gdb_bp bps[WS_GDB_MAX_BP];
    uint32_t sel_tid;          /* the thread gdb has selected (Hg), as of
                                  its last Z/z packet */
    uint32_t exit_owner;       /* the thread a Z0 at the exit stub is for
                                  (finish, until, advance, a watchpoint's
                                  scope out of the kernel): gdb's selected
                                  thread when it first put it in, kept
                                  while gdb takes it out at stops and puts
                                  it back; 0: none (the focus thread)    */
    int exit_removed;          /* gdb took that Z0 out; forgotten at a
                                  continue without it                    */
    ws_gdb_shared_wp swp[WS_GDB_MAX_SHARED_WP];
    uint64_t bp_halts;         /* warps halted at a breakpoint (monitor
                                  breakpoints): one a condition unit
                                  passes by is not one of them            */
    atomic_int closing;        /* the application is closing the device  */
    atomic_int exit_code;      /* its exit status then (set before closing) */
    int have_fault;
    ws_dbg_fault fault;
    struct ws_gdb_call *calls; /* lanes gdb runs a function on (dbg_calls.c) */
    size_t ncalls, calls_cap;
    /* gate: the application waits at device open until gdb first resumes */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int gate_open;
    char err[512];
} ws_gdb_dbg;

extern const ws_gdb_target_ops ws_gdb_dbg_ops;

ws_status ws_gdb_dbg_init(ws_gdb_dbg *t, ws_debug *dbg);
void ws_gdb_dbg_fini(ws_gdb_dbg *t);
/* Let the application past device open (gdb resumed or went away). */
void ws_gdb_dbg_open_gate(ws_gdb_dbg *t);
void ws_gdb_dbg_wait_gate(ws_gdb_dbg *t);
/* Halt every running warp (all-stop) and wait until they have stopped;
 * the halts are not reported to gdb (it asks with '?'). */
ws_status ws_gdb_dbg_halt_all(ws_gdb_dbg *t);

/* ---- dbg_access.c: DMI building blocks ---- */
ws_status ws_gdb_lanes_refresh(ws_gdb_dbg *t);
/* Something may have changed lanes or registers: drop the snapshot and the
 * warps' register reads. */
void ws_gdb_lanes_stale(ws_gdb_dbg *t);
const ws_dbg_lane *ws_gdb_lane_of(ws_gdb_dbg *t, uint32_t tid);
ws_status ws_gdb_select(ws_gdb_dbg *t, uint32_t hart, uint32_t extra, uint32_t *dm);
ws_status ws_gdb_reg_access(ws_gdb_dbg *t, uint32_t hart, uint32_t regno, uint32_t *v, int write);
/* gdb's register number (tdesc.h) as an abstract-command register number
 * (debug.h), the numbering of Access Register and of the trigger
 * condition unit; UINT32_MAX for none. */
uint32_t ws_gdb_dmi_regno(uint32_t r);
/* gdb sees the program's own bytes under inserted breakpoints (as
 * gdbserver does): reads get the saved bytes laid over the ebreaks; a
 * write under a breakpoint changes the saved bytes and keeps the ebreak. */
void ws_gdb_bp_shadow_read(ws_gdb_dbg *t, uint32_t addr, uint8_t *buf, size_t len);
void ws_gdb_bp_shadow_write(ws_gdb_dbg *t, uint32_t addr, uint8_t *buf, size_t len);
ws_status ws_gdb_mem_access(ws_gdb_dbg *t, uint32_t hart, uint32_t addr, uint8_t *buf, size_t len,
                            int write);
/* Resume every warp w with sel[w] set (per warp slot, global index) with
 * one dmcontrol write per debug module (hart array mask): the device
 * applies them at one safe point, so no warp halts in between and has its
 * all-stop undone by a resume meant for the stop before. */
ws_status ws_gdb_warps_resume(ws_gdb_dbg *t, const uint8_t *sel);
/* Halt or resume the warp holding hart. */
ws_status ws_gdb_hart_ctl(ws_gdb_dbg *t, uint32_t hart, int resume);
/* The signal a lane's fault is reported with (kind: ws_dbg_fault.kind):
 * SIGSEGV, SIGBUS, SIGILL, SIGABRT; also the frame debugger's. */
int ws_gdb_fault_signal(const char *kind);
ws_status ws_gdb_fail(ws_gdb_dbg *t, ws_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- dbg_calls.c: functions gdb calls on a lane (`print f(3)`) ---- */
/* Before gdb's write of register r (gdb's number) of the halted lane l:
 * the lane's registers as they were before gdb's first write since it
 * stopped are kept, and a call gdb ends (writing that pc back) forgotten. */
void ws_gdb_call_note_write(ws_gdb_dbg *t, const ws_dbg_lane *l, uint32_t r, uint32_t v);
/* At a resume: a lane gdb wrote whose return address is a breakpoint on
 * its stack runs a call of gdb's; the other writes were the user's. */
void ws_gdb_calls_at_resume(ws_gdb_dbg *t);
/* At detach: each lane still in a call of gdb's (interrupted by a
 * breakpoint, a fault or Ctrl-C: gdb keeps its dummy frame) gets its
 * registers from before the call back, so it runs on from where it was
 * called instead of returning to the stack. */
void ws_gdb_calls_undo(ws_gdb_dbg *t);
/* 1 if hart runs a call of gdb's (as of the last resume). */
int ws_gdb_call_running(const ws_gdb_dbg *t, uint32_t hart);
void ws_gdb_calls_free(ws_gdb_dbg *t);

/* ---- dbg_breakpoints.c ---- */
/* gdb's selected thread, before a Z/z packet (gdb_target.h: selected). */
void ws_gdb_dbg_selected(void *tp, uint32_t tid);
/* Forget the shared-memory watchpoints gdb no longer inserts (at a
 * continue) or, with all set, every one of them (detach). */
void ws_gdb_shared_wp_purge(ws_gdb_dbg *t, int all);
ws_status ws_gdb_dbg_breakpoint(void *tp, int type, uint32_t addr, uint32_t kind, int insert,
                                const ws_gdb_cond *conds, size_t nconds);
/* 1 if b holds a trigger (Z1..Z4, and a Z0 held by one). */
static inline int ws_gdb_bp_uses_trigger(const ws_gdb_bp *b)
{
    return b->used && (b->type != WS_GDB_BP_SW || b->cond_trig);
}

/* Does b hold trigger idx (on every core)? */
static inline int ws_gdb_bp_holds_trigger(const ws_gdb_bp *b, int idx)
{
    return ws_gdb_bp_uses_trigger(b) && (b->trig == idx || (b->chained && b->trig + 1 == idx));
}
/* The breakpoint (Z0/Z1) at pc, or NULL. */
/* Set (addr != 0) or clear trigger idx as an execute trigger on every core. */
ws_status ws_gdb_exec_trigger(ws_gdb_dbg *t, int idx, uint32_t addr);
ws_gdb_bp *ws_gdb_bp_at(ws_gdb_dbg *t, uint32_t pc);
/* 1 if bp has no condition or one holds for the lane at hart. */
int ws_gdb_bp_cond_true(ws_gdb_dbg *t, const ws_gdb_bp *bp, uint32_t hart);
/* Write ebreak back (arm=1) or the original bytes (arm=0) of a Z0. */
ws_status ws_gdb_bp_arm(ws_gdb_dbg *t, const ws_gdb_bp *bp, int arm);
/* Why a warp stopped on a trigger: fills reason/addr for hart. */
void ws_gdb_trigger_reason(ws_gdb_dbg *t, uint32_t hart, uint32_t pc, ws_gdb_stop *st);

/* ---- dbg_lines.c ---- */
/* A range step starts at lo: find the source line of its row. */
void ws_gdb_step_line_begin(ws_gdb_dbg *t, uint32_t lo);
/* 1 if pc is in a row of that line (same file and line number). */
int ws_gdb_on_step_line(const ws_gdb_dbg *t, uint32_t pc);
/* The line's rows as device addresses, into r->ranges (at most
 * WS_DBG_STEP_RANGES of them; a line with more is stepped on by the
 * server past the others); returns how many. */
uint32_t ws_gdb_step_line_ranges(const ws_gdb_dbg *t, ws_dbg_step_range *r);
void ws_gdb_lines_free(ws_gdb_dbg *t);

/* ---- dbg_modules.c ---- */
ws_status ws_gdb_dbg_libraries(void *tp, char **xml, size_t *len);
/* The same over any debug handle (the replay debugger shares them): the
 * resident modules and the exit stub as <library-list> (malloc'd), and a
 * library's file by the name the list gives it. */
ws_status ws_gdb_library_list(ws_debug *dbg, char **xml, size_t *len, char *err, size_t errlen);
ws_status ws_gdb_module_file(ws_debug *dbg, const char *name, const uint8_t **data, size_t *size, char *err,
                             size_t errlen);
/* The same over a list of modules (the replay debugger lists a frame's
 * modules once, loaded or not). */
ws_status ws_gdb_library_xml(const ws_dbg_module *mods, size_t n, char **xml, size_t *len, char *err, size_t errlen);
ws_status ws_gdb_module_file_in(const ws_dbg_module *mods, size_t n, const char *name, const uint8_t **data,
                                size_t *size, char *err, size_t errlen);
ws_status ws_gdb_dbg_file(void *tp, const char *name, const uint8_t **data, size_t *size);
ws_status ws_gdb_dbg_monitor(void *tp, const char *cmd, char **out);
#endif
