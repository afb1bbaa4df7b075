/* What the protocol layer needs from a debug target. The server's real
 * target (target_dbg.c) speaks to the device through src/device/debug/debug.h;
 * tests and the fuzzer plug in an in-memory fake. Thread ids are gdb's
 * (>= 1); register numbers are those of the target description
 * (tdesc.h). */
#ifndef WS_GDBSTUB_GDB_TARGET_H
#define WS_GDBSTUB_GDB_TARGET_H
#include <stddef.h>
#include <stdint.h>
#include "warpscope/warpscope.h"

typedef struct ws_gdb_thread {
    uint32_t tid;
    char name[128];   /* "block (1,0,0) thread (5,0,0) core 0 warp 1 lane 5" */
} ws_gdb_thread;

typedef enum ws_gdb_stop_kind {
    WS_GDB_STOP_SIGNAL = 1,  /* T packet                                 */
    WS_GDB_STOP_EXITED,      /* W: the application closed the device     */
    WS_GDB_STOP_LIBRARY,     /* T05 library: (modules changed)           */
    WS_GDB_STOP_NO_RESUMED,  /* N: the threads gdb resumed have all exited
                                (a step ran its thread off the end while
                                the others stayed stopped)               */
    WS_GDB_STOP_THREAD_EXITED /* w00;tid: non-stop, the lane gdb stepped
                                ran off the end of its kernel alone (an
                                N follows: gdb 13 ends the step only then) */
} ws_gdb_stop_kind;

typedef enum ws_gdb_reason {
    WS_GDB_R_NONE = 0, WS_GDB_R_SWBREAK, WS_GDB_R_HWBREAK,
    WS_GDB_R_WATCH, WS_GDB_R_RWATCH, WS_GDB_R_AWATCH,
    /* a replaying target ran out of history: replaylog:begin / :end */
    WS_GDB_R_REPLAY_BEGIN, WS_GDB_R_REPLAY_END
} ws_gdb_reason;

/* Signal numbers of the remote protocol (GDB's own table, not the host's:
 * Linux's SIGBUS is 7, which GDB reads as SIGEMT). */
enum {
    WS_GDB_SIG_INT = 2, WS_GDB_SIG_ILL = 4, WS_GDB_SIG_TRAP = 5, WS_GDB_SIG_ABRT = 6,
    WS_GDB_SIG_BUS = 10, WS_GDB_SIG_SEGV = 11
};

/* The exit code of a device closed before its process exits (the
 * program closed it itself): the session ends without telling gdb, and
 * the connection goes to whoever learns the status (ws_gdb_serve_handoff). */
#define WS_GDB_EXIT_UNKNOWN (-1)

typedef struct ws_gdb_stop {
    ws_gdb_stop_kind kind;
    uint32_t tid;
    int signal;              /* GDB's signal numbers, WS_GDB_SIG_*    */
    ws_gdb_reason reason;
    uint32_t addr;           /* watchpoint data address                  */
    int exit_code;           /* WS_GDB_EXIT_UNKNOWN: the process has not exited yet */
    char note[544];          /* a line for gdb's console before the stop (a deadlock's report) */
} ws_gdb_stop;

/* Z packet types. */
enum { WS_GDB_BP_SW = 0, WS_GDB_BP_HW = 1, WS_GDB_WP_WRITE = 2, WS_GDB_WP_READ = 3, WS_GDB_WP_ACCESS = 4 };

/* A breakpoint condition as gdb compiled it (agent expression bytecode,
 * see agent_expr.h); a breakpoint stops if any of its conditions holds. */
typedef struct ws_gdb_cond {
    const uint8_t *code;
    size_t len;
} ws_gdb_cond;
#define WS_GDB_MAX_CONDS 8

/* One vCont action: tid 0 means "every thread not named before". */
typedef struct ws_gdb_action {
    uint32_t tid;
    char op;                 /* 'c' continue, 's' step, 't' stop, 'r' step
                                while pc is in [lo, hi) (range stepping:
                                only for targets with range_stepping; the
                                session turns it into 's' for others)    */
    uint32_t lo, hi;
    int sig;                 /* C/S: the signal gdb passes (0: none); a
                                lane cannot take one, but a step that
                                passes a fault's signal lets the fault
                                end the launch, as continue does     */
} ws_gdb_action;

typedef struct ws_gdb_target_ops {
    ws_status (*threads)(void *t, ws_gdb_thread *out, size_t max, size_t *n);
    ws_status (*read_reg)(void *t, uint32_t tid, uint32_t regno, uint32_t *v);
    ws_status (*write_reg)(void *t, uint32_t tid, uint32_t regno, uint32_t v);
    /* tid selects whose stack / shared memory an address means. */
    ws_status (*read_mem)(void *t, uint32_t tid, uint32_t addr, uint8_t *buf, size_t len);
    ws_status (*write_mem)(void *t, uint32_t tid, uint32_t addr, const uint8_t *buf, size_t len);
    ws_status (*breakpoint)(void *t, int type, uint32_t addr, uint32_t kind, int insert,
                            const ws_gdb_cond *conds, size_t nconds);
    ws_status (*resume)(void *t, const ws_gdb_action *acts, size_t n);
    /* Ask running threads to stop (tid 0: all) and report it. */
    ws_status (*interrupt)(void *t, uint32_t tid);
    /* Next stop; WS_ERR_TIMEOUT if none within timeout_ms. */
    ws_status (*wait)(void *t, int timeout_ms, ws_gdb_stop *stop);
    /* Resident modules as <library-list> XML into a malloc'd string. */
    ws_status (*libraries)(void *t, char **xml, size_t *len);
    /* A file by name (module paths from the library list): bytes stay
     * owned by the target until the next call. */
    ws_status (*file)(void *t, const char *name, const uint8_t **data, size_t *size);
    /* `monitor` command: output text into a malloc'd string. */
    ws_status (*monitor)(void *t, const char *cmd, char **out);
    void (*detach)(void *t);
    const char *(*error)(void *t);
    int non_stop_capable;
    ws_status (*set_non_stop)(void *t, int on);
    /* Optional: 1 if tid is a live thread, without listing them all (H
     * and T come once per thread when gdb lists threads). */
    int (*thread_alive)(void *t, uint32_t tid);
    /* Optional: a descriptor readable when wait() has something new, so
     * the server sleeps on gdb's socket and the target together (-1: it
     * polls wait() every few milliseconds instead). */
    int (*event_fd)(void *t);
    /* Optional: execute backwards ('s': one instruction of tid, 0 = the
     * thread gdb follows; 'c': to the previous breakpoint hit), the stop reported through wait() as
     * for resume. Given, the server accepts bs/bc and advertises
     * ReverseStep+ and ReverseContinue+. */
    ws_status (*reverse)(void *t, char op, uint32_t tid);
    /* Optional (a target whose threads are warps): make the lane whose
     * name starts with `prefix` ("block (X,Y,Z) thread (X,Y,Z) ") its
     * warp's focus; a line for gdb's console into out. Without it,
     * `monitor focus` names the thread that runs those coordinates. */
    ws_status (*focus)(void *t, const char *prefix, char *out, size_t cap);
    /* 1: resume takes 'r' actions (steps on by itself while the thread's
     * pc stays in the range; a stop may still come early) */
    int range_stepping;
    /* Optional: the thread gdb has selected (its last Hg, or the thread of
     * the last stop), told before each Z/z packet: a watchpoint on shared
     * memory watches the block of the thread gdb was on when it set it. */
    void (*selected)(void *t, uint32_t tid);
} ws_gdb_target_ops;

#endif
