/* The frame debugger's gdb target (replay_debug.c), shared with its
 * server entry point (replay_debug_serve.c). */
#ifndef WS_CAPTURE_REPLAY_DEBUG_INT_H
#define WS_CAPTURE_REPLAY_DEBUG_INT_H
#include "capture/replayer.h"
#include "device/debug/debug.h"
#include "gdbstub/gdb_target.h"

#define RD_PSEUDO_TID 1u   /* the frame end (and start, see start_tid): no thread is stopped */

typedef enum rd_where { RD_START = 0, RD_STOP, RD_END } rd_where;

typedef struct rd_bp {
    uint32_t addr;
    int type;                       /* WS_GDB_BP_SW / WS_GDB_BP_HW           */
    uint8_t code[WS_GDB_MAX_CONDS][256];
    size_t len[WS_GDB_MAX_CONDS], nconds;
} rd_bp;

/* A watchpoint: the shadow unit's watched range and gdb's type
 * (WS_GDB_WP_WRITE / READ / ACCESS). */
typedef struct rd_watch {
    ws_shadow_watch range;
    int type;
} rd_watch;

typedef struct rd_target {
    ws_replay *r;
    ws_debug *dbg;
    ws_config cfg;
    rd_bp bps[WS_SHADOW_MAX_BPS];
    size_t nbps;
    rd_watch watches[WS_SHADOW_MAX_WATCHES];
    size_t nwatches;
    /* where gdb is: the frame start, a snapshot, or the frame end */
    rd_where where;
    ws_shadow_state snap;           /* RD_STOP: the context gdb reads        */
    ws_shadow_thread focus;         /* the thread gdb follows (have_focus)   */
    int have_focus;
    uint64_t focus_count;           /* its instruction ordinal at snap (0: not known) */
    /* A thread stepped back from its first instruction: that lane of the
     * snapshot is shown at the launch's call of its kernel (the exit
     * stub's WS_EXIT_STUB_BASE), just before its first instruction
     * (-1: none) */
    int at_call;
    /* monitor debug-pixel: breakpoints count only that pixel's fragment */
    int pixel, pixel_entry;
    uint32_t px, py, pdraw;
    /* why no shader runs at that pixel (in that draw), from the pixel
     * history: continue reaches the frame end there (empty: one runs) */
    char pixel_why[1024];
    int libs_told;                  /* gdb heard of the modules (library stop) */
    /* gdb's id of the frame start: the id the frame's first thread (block
     * 0, thread 0 of its first launch: where stepi from the start goes)
     * has at its first instruction, so that stepi ends on the thread gdb
     * stepped (a stop on another thread is a "signal" to gdb: stepi at the
     * frame start printed "received signal SIGTRAP"); RD_PSEUDO_TID if the
     * frame has no such thread */
    uint32_t start_tid;
    /* ... and of the frame end: the id the followed thread had at its last
     * stop, where reverse-stepi from the end goes back to it (the end was
     * thread 1, and reverse-stepi there printed "Thread N ... received
     * signal SIGTRAP"); RD_PSEUDO_TID when no thread is followed */
    uint32_t end_tid;
    /* The lanes after a breakpoint hit's lane at its warp-instruction come
     * with the next continue, even after gdb's step-over of the hit lane
     * (a single step of that thread, which passes the whole
     * warp-instruction): at_hit says the stop is a hit, pending_after
     * where the continue after such a step starts counting. */
    int at_hit, pending;
    /* the snapshot is a forward step's: before its whole warp-instruction,
     * no lane of which has run (the lanes before the thread's neither) */
    int whole_insn;
    uint64_t pending_after;
    /* ... and backwards: gdb steps a hit lane back off its breakpoint
     * (to its previous instruction, before the whole warp-instruction)
     * before it reverse-continues, which then counts the hits before the
     * hit's position (back_before), the lanes before it there included */
    int back_pending;
    uint64_t back_before;
    /* a reverse step found a watched access in the instruction it went
     * back over and reported it where it began (this position): gdb's
     * step back over it from here is not reported again */
    uint64_t back_watch_pos;
    /* the watched access (its position) such a stop, or reverse-continue's,
     * was reported after: gdb's step back over it shows the stores of the
     * lanes before it in that instruction made (0: none) */
    uint64_t back_access;
    /* The lanes' faults every replay meets (the shadow unit lists them,
     * the same in each): a forward continue or step that reaches one
     * stops there, before the faulting instruction, with the signal the
     * live server gives it (the replays went past it to the frame end).
     * pos and count: the faulting instruction's position and its thread's
     * ordinal there, counted by one replay of that thread when first
     * needed (count 0: not yet; none: it has no instruction to show). */
    struct rd_fault {
        ws_shadow_fault f;
        uint64_t pos, count;
        int none;
    } faults[WS_SHADOW_MAX_FAULTS];
    size_t nfaults;
    int at_fault;                   /* the stop is fault at_fault - 1 (0: none) */
    ws_dbg_module *libs;            /* every module the frame has, loaded or not
                                       (images: our copies)                 */
    size_t nlibs;
    ws_gdb_stop stop;               /* the stop wait() reports next          */
    int have_stop;
    uint64_t replays;               /* frames replayed (monitor position)   */
    uint64_t replays_identical;     /* ... whose results matched the digest of each captured frame end:
                                       the frame ran to its end under the breakpoint */
    double replay_s;
    char err[512];
    /* The frame's work failed (a kernel fault, an assert, a deadlock, the
     * watchdog) in a capture that does not record its failures (written
     * before 2026-11-27): every replay stops there, so that is where its
     * frame ends; the replayer's message, for monitor position. */
    char stops_early[640];
    /* A capture that records its failures: the replay meets them as the
     * original did and goes on to the frame end; the first, for monitor
     * position. */
    char passed[1100];
} rd_target;

extern const ws_gdb_target_ops rd_ops;

/* replay_debug.c: movement and the shared helpers */
ws_status rd_fail(rd_target *t, ws_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
uint32_t rd_tid_of_lane(const rd_target *t, uint32_t lane);  /* gdb's id of a lane of the copy */
int rd_lane_of(const rd_target *t, uint32_t tid);            /* the copy's lane behind tid, or -1 */
uint32_t rd_pseudo_tid(const rd_target *t);                  /* the frame start's or end's id */
ws_status rd_resume(void *t, const ws_gdb_action *acts, size_t n);
ws_status rd_reverse(void *t, char op, uint32_t tid);
ws_status rd_interrupt(void *t, uint32_t tid);
ws_status rd_wait(void *t, int timeout_ms, ws_gdb_stop *stop);

/* replay_debug_view.c: the stopped state as gdb reads it */
ws_status rd_threads(void *t, ws_gdb_thread *out, size_t max, size_t *n);
int rd_thread_alive(void *t, uint32_t tid);
ws_status rd_read_reg(void *t, uint32_t tid, uint32_t r, uint32_t *v);
ws_status rd_write_reg(void *t, uint32_t tid, uint32_t r, uint32_t v);
ws_status rd_read_mem(void *t, uint32_t tid, uint32_t addr, uint8_t *buf, size_t len);
ws_status rd_write_mem(void *t, uint32_t tid, uint32_t addr, const uint8_t *buf, size_t len);
ws_status rd_breakpoint(void *t, int type, uint32_t addr, uint32_t kind, int insert, const ws_gdb_cond *conds,
                        size_t nconds);
ws_status rd_libraries(void *t, char **xml, size_t *len);
ws_status rd_list_modules(rd_target *t); /* one unarmed replay: fills libs */
void rd_free_modules(rd_target *t);
ws_status rd_file(void *t, const char *name, const uint8_t **data, size_t *size);
ws_status rd_monitor(void *t, const char *cmd, char **out);
void rd_detach(void *t);
const char *rd_error(void *t);
/* Attach the debug hardware to the replay's device, go to the frame start. */
ws_status rd_init(rd_target *t, ws_replay *r);
void rd_fini(rd_target *t);
#endif
