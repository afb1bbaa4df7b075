/* The frame debugger's gdb target (replay_debug.c), shared with its
 * server entry point (replay_debug_serve.c). */
#ifndef WS_CAPTURE_REPLAY_DEBUG_INT_H
#define WS_CAPTURE_REPLAY_DEBUG_INT_H
#include "capture/replay.h"
#include "device/debug/debug.h"
#include "gdbstub/gdb_target.h"

#define RD_PSEUDO_TID 1u   /* the frame start / end: no thread is stopped */

typedef enum rd_where { RD_START = 0, RD_STOP, RD_END } rd_where;

typedef struct rd_bp {
    uint32_t addr;
    int type;                       /* WS_GDB_BP_SW / WS_GDB_BP_HW           */
    uint8_t code[WS_GDB_MAX_CONDS][256];
    size_t len[WS_GDB_MAX_CONDS], nconds;
} rd_bp;

typedef struct rd_target {
    ws_replay *r;
    ws_debug *dbg;
    ws_config cfg;
    rd_bp bps[WS_SHADOW_MAX_BPS];
    size_t nbps;
    /* where gdb is: the frame start, a snapshot, or the frame end */
    rd_where where;
    ws_shadow_state snap;           /* RD_STOP: the context gdb reads        */
    ws_shadow_thread focus;         /* the thread gdb follows (have_focus)   */
    int have_focus;
    uint64_t focus_count;           /* its instruction ordinal at snap (0: not known) */
    /* monitor debug-pixel: breakpoints count only that pixel's fragment */
    int pixel, pixel_entry;
    uint32_t px, py, pdraw;
    int libs_told;                  /* gdb heard of the modules (library stop) */
    ws_gdb_stop stop;               /* the stop wait() reports next          */
    int have_stop;
    uint64_t replays;               /* frames replayed (monitor position)   */
    double replay_s;
    char err[512];
} rd_target;

extern const ws_gdb_target_ops rd_ops;
/* Attach the debug hardware to the replay's device, go to the frame start. */
ws_status rd_init(rd_target *t, ws_replay *r);
void rd_fini(rd_target *t);
#endif
