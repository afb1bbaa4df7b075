/* The calls the device and runtime make into the debug hardware. Every
 * call site is guarded by `if (dev->debug)`, so a device with no debugger
 * ever attached pays one predictable branch per warp quantum (and per
 * memory instruction) and nothing else. */
#ifndef WS_DEBUG_HOOKS_H
#define WS_DEBUG_HOOKS_H
#include "device/device.h"
#include "device/debug/debug.h" /* (ws_dbg_held_wait's kinds) */

/* Bit set in ws_inst.op of a decoded-cache entry whose address has an
 * execute trigger on some core: the interpreter's switch sends it to its
 * default case, which asks ws_dbg_exec_hit and then runs the real op. */
#define WS_INST_TRAP 0x8000u

/* A debugger is attached now. dev->debug stays set after the tool
 * detaches (the handle is reused); while none is attached every hook does
 * nothing, so the fast engine may run the code again. */
int ws_dbg_attached(const ws_device *dev);

/* ---- device thread: cmdproc.c ---- */
/* Before warp w runs a quantum. Returns 1 to skip the warp (halted), 0 to
 * run it (*budget may shrink to 1 for a step), -1 to end the launch with
 * the fault of a faulted warp the tool resumed (dev->fault restored). */
int ws_dbg_warp_gate(ws_device *dev, ws_warp *w, uint32_t *budget);
/* After the quantum: completes steps; a fault becomes a halt (cause 7,
 * returns WARP_HALT) while a debugger is attached. */
ws_warp_result ws_dbg_warp_done(ws_device *dev, ws_warp *w, ws_warp_result r);
/* Nothing issued and nothing placed: 1 = halted warps exist, waited for the
 * tool and something changed (run another round); 0 = a real deadlock;
 * -1 = a faulted warp was resumed (end the launch with its fault). */
int ws_dbg_idle_wait(ws_device *dev);
/* Timing mode, after each cycle: if a warp halted since *seen and all-stop
 * now holds the device for the tool (no warp can run), wait for the tool
 * as ws_dbg_idle_wait does (its result), before the clock moves on; else
 * 0 at once (one load when nothing halted). */
int ws_dbg_hold_wait(ws_device *dev, uint64_t *seen);
/* Host seconds this launch spent parked in ws_dbg_idle_wait (every warp
 * halted): the watchdog does not count them. */
double ws_dbg_parked_seconds(ws_device *dev);
void ws_dbg_launch_start(ws_device *dev, uint64_t launch_id);
void ws_dbg_launch_end(ws_device *dev, uint64_t launch_id, ws_status st);

/* Between commands: load or clear the machines the tool asked for
 * through the EV* registers now, not at the next launch's start (a
 * command processor the debugger's machine halted starts none). */
void ws_dbg_take_machine_requests(ws_device *dev);

/* The application waits on a command processor, or a launch on a work
 * distributor, that the debugger's machines hold halted (kind:
 * WS_DBG_EV_CP_HELD or _WD_HELD; why: the refusal's text). If the tool
 * asked to be told (kind blocking), the thread waits until the tool
 * releases the halt, resumes or detaches, and 1 is returned: look again.
 * 0: no tool waits for it (the wait is refused, WS_ERR_STOPPED). */
int ws_dbg_held_wait(ws_device *dev, int kind, const char *why);
/* A debug machine's halt fired once the launch's last warp had left
 * (reason: the machine's firing): with a tool that asked to hear it
 * (WS_DBG_EV_END_HELD blocking), the halt is told as a stop of the
 * finished launch and the thread waits for the tool's resume; 1 then (the
 * launch ends well). 0: no tool waits for it. */
int ws_dbg_end_halt_wait(ws_device *dev, const char *reason);

/* Nothing can run and a debug machine asked for a halt: halt every live
 * warp (waiting ones too) with cause "debug machine". 1 = halted. */
int ws_dbg_machine_halt_idle(ws_device *dev);
/* Some warp is halted for the tool: nothing issuing is no deadlock (the
 * waits a for>T step times may still end when the tool resumes it). */
int ws_dbg_any_halted(ws_device *dev);

/* ---- device thread: warp_exec.c / lane_io.c ---- */
/* ebreak by group g at pc: 1 = the warp halted (cause ebreak). */
int ws_dbg_ebreak(ws_device *dev, ws_warp *w, uint32_t g, uint32_t pc);
/* Group g of w stands at the exit stub, about to retire. When they are
 * w's last lanes, its sched.warp_retire is emitted now, while they are
 * still live; a debug machine's halt that event (or an earlier one of
 * this quantum) asked for is taken here. 1 = the warp halted there. */
int ws_dbg_exit_gate(ws_device *dev, ws_warp *w, uint32_t g);
/* A trapped entry at pc (in: its instruction, NULL where none is): 1 = an
 * execute trigger of w's core hit. */
int ws_dbg_exec_hit(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc);
/* Load/store of `size` bytes at x[rs1]+imm by group g: 1 = a data trigger
 * hit (warp halted before the access). rw: 1 load, 2 store, 3 both. */
int ws_dbg_data_hit(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t size, int rw);
/* A freshly decoded entry: sets WS_INST_TRAP if a trigger watches pc. */
void ws_dbg_decoded(ws_device *dev, uint32_t pc, ws_inst *in);
/* 1 if an attached debugger's execute trigger watches pc (a far-branch
 * hint's triple is then not fused: warp_exec.c). */
int ws_dbg_exec_watched(ws_device *dev, uint32_t pc);

/* ---- application thread: runtime ---- */
/* A module's code was added to / is leaving dev's code table (by key). */
void ws_dbg_module_loaded(ws_device *dev, const ws_code_region *r);
void ws_dbg_module_unloading(ws_device *dev, const void *key);
/* The device is closing: event, then the debug handle is cut loose. */
void ws_dbg_device_close(ws_device *dev);

#endif
