/* The fast functional engine (issue 14, docs/performance.md): runs the
 * issuing group of a warp on pre-decoded blocks of straight-line code with
 * threaded dispatch and batched statistics, while no tool watches single
 * instructions; a group of a divergent warp runs until it reaches the
 * other lanes' PC or the starvation guard acts, as in the interpreter.
 * Anything else (the first unsupported instruction, a divergent branch, the
 * budget)
 * ends the run at an instruction boundary, with the warp in exactly the
 * state the interpreter (warp_exec.c) would have left it in after the same
 * instructions; ws_warp_run then carries on. */
#ifndef WS_DEVICE_FAST_EXEC_H
#define WS_DEVICE_FAST_EXEC_H
#include "device/device.h"

/* Run at most `budget` warp-instructions of w's current group (w->group
 * != 0, w->sticky == 0, w->held_to == 0: a hold hint's code is the
 * interpreter's, warp_exec.c; no debugger or event bus). *issued gets the number issued (0: the instruction at group_pc is
 * left to the interpreter). Returns -1 if an instruction faulted (the
 * report is raised and counted as the interpreter counts it; it is not in
 * *issued), else 0. *inserted gets how many instructions of
 * an instrumented module's inserted code ran besides those, which
 * `budget` does not count (ws_code_inserted; functional mode only). */
int ws_fast_run(ws_device *dev, ws_warp *w, ws_launch_stats *st, uint32_t budget, uint32_t *issued,
                uint32_t *inserted);
/* Allocate the engine's per-core state (device open); -1: no memory (the
 * interpreter then runs everything). */
int ws_fast_create(ws_device *dev);
/* Drop every pre-decoded block (the code or its decoding changed). */
void ws_fast_flush(ws_device *dev);
/* Blocks built since the last flush, on every core: whether the engine
 * ran (tests). */
size_t ws_fast_blocks(const ws_device *dev);
/* Free the engine's state (device close). */
void ws_fast_free(ws_device *dev);

/* Interpreter pieces the engine shares (warp_exec.c). */
int ws_warp_exec_csr(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc);
int ws_warp_exec_float(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc);
int ws_warp_exec_atomic(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc);
#endif
