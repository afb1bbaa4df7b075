/* gdb threads that are warps (WARPSCOPE_DEBUG threads=warp): a target
 * wrapped around one whose threads are lanes (tid = 2 + hart, harts
 * numbered warp by warp: target_dbg.h). gdb sees one thread per warp,
 * tid = 2 + warp; its registers, stack and shared memory are those of the
 * warp's focus lane: the lane its last stop was for, or the one `monitor
 * focus` picked. gdb's cost per thread (a register fetch, a frame line)
 * is then paid per warp, not per lane: docs/debugging.md. */
#ifndef WS_GDBSTUB_WARP_VIEW_H
#define WS_GDBSTUB_WARP_VIEW_H
#include "gdbstub/gdb_target.h"

typedef struct ws_gdb_warp_view {
    const ws_gdb_target_ops *lanes_ops; /* the wrapped target: a thread a lane */
    void *lanes;
    uint32_t lanes_per_warp, nwarps;
    uint8_t *focus;          /* per warp: its focus lane                   */
    uint8_t *told;           /* per warp, non-stop: gdb has heard it stopped
                                and not resumed it since (its other lanes'
                                stops say nothing new)                     */
    int non_stop;
    ws_gdb_thread *list;     /* the wrapped target's threads (scratch)     */
    size_t list_cap;
    char err[256];
} ws_gdb_warp_view;

extern const ws_gdb_target_ops ws_gdb_warp_view_ops;

ws_status ws_gdb_warp_view_init(ws_gdb_warp_view *v, const ws_gdb_target_ops *lanes_ops, void *lanes,
                                uint32_t lanes_per_warp, uint32_t nwarps);
void ws_gdb_warp_view_fini(ws_gdb_warp_view *v);
/* A new gdb attached: every warp's focus back to its first lane. */
void ws_gdb_warp_view_reset(ws_gdb_warp_view *v);

#endif
