/* Test harness for the debug hardware: an application thread that loads,
 * launches and synchronises, and tool-side helpers that go through
 * src/device/debug/debug.h only. */
#ifndef DBG_HARNESS_H
#define DBG_HARNESS_H
#include <pthread.h>
#include <stdatomic.h>
#include "device/debug/debug.h"

typedef struct app {
    ws_device *dev;
    ws_module *mod;
    const char *kernel;
    ws_dim3 grid, block;
    ws_arg args[4];
    size_t nargs;
    ws_status st;
    atomic_int done;
    pthread_t th;
} app;

void app_start(app *a);
ws_status app_join(app *a);

/* A tool session: a device with the debug kernels loaded, the debugger
 * attached with every module active, and the application thread. */
typedef struct dbg_session {
    ws_device *dev;
    ws_module *mod;
    ws_debug *d;
    uint32_t bp, with_bar; /* device addresses of bp_target and with_bar */
    app a;
} dbg_session;

/* The default configuration with `cores` cores x `wpc` warps. */
void session_config(ws_config *c, uint32_t cores, uint32_t wpc);
/* Open the device, load `elf` and locate bp_target and with_bar (the addrs
 * kernel); no debugger yet. -1 (s->dev NULL) when the device or the module
 * cannot be had. */
int session_open_device(dbg_session *s, const char *elf, const ws_config *c);
/* session_config + session_open_device, then the debugger attached
 * (topology, cores per group). */
int session_open(dbg_session *s, const char *elf, uint32_t cores, uint32_t wpc,
                 ws_dbg_topology topo, uint32_t per_group);
/* Detach the debugger and close the device. */
void session_close(dbg_session *s);
/* Start `kernel` on the application thread: `blocks` blocks of `threads`
 * threads (1-D), pointer arguments p0 and, unless it is 0, p1. */
void session_launch(dbg_session *s, const char *kernel, uint32_t blocks, uint32_t threads,
                    ws_addr p0, ws_addr p1);
/* Attach with every debug module active (CHECKs the attach). */
ws_debug *dbg_attach(ws_device *dev, ws_dbg_topology topo, uint32_t per_group);
/* Hart id of lane `lane` of warp slot `slot` of `core` (`wpc` warps a core). */
uint32_t hart_of(uint32_t core, uint32_t wpc, uint32_t slot, uint32_t lane);

/* DMI helpers (all CHECK that the DMI access itself succeeds). */
uint32_t dmr(ws_debug *d, uint32_t dm, uint32_t addr);
void dmw(ws_debug *d, uint32_t dm, uint32_t addr, uint32_t v);
uint32_t dmctl_sel(uint32_t hart);          /* dmactive + hartsel fields   */
void select_hart(ws_debug *d, uint32_t dm, uint32_t hart);
void halt_hart(ws_debug *d, uint32_t dm, uint32_t hart);
void resume_hart(ws_debug *d, uint32_t dm, uint32_t hart);
void resume_all(ws_debug *d);               /* every hart, every module    */
/* Access Register; returns cmderr (cleared afterwards). */
uint32_t reg_read(ws_debug *d, uint32_t dm, uint32_t hart, uint32_t regno, uint32_t *v);
uint32_t reg_write(ws_debug *d, uint32_t dm, uint32_t hart, uint32_t regno, uint32_t v);
/* Access Memory of size 1/2/4; returns cmderr (cleared afterwards). */
uint32_t mem_read(ws_debug *d, uint32_t dm, uint32_t hart, uint32_t addr, uint32_t size, uint32_t *v);
uint32_t mem_write(ws_debug *d, uint32_t dm, uint32_t hart, uint32_t addr, uint32_t size, uint32_t v);
/* System bus, 32-bit; returns sberror (cleared afterwards). */
uint32_t sb_read32(ws_debug *d, uint32_t dm, uint32_t addr, uint32_t *v);
uint32_t sb_write32(ws_debug *d, uint32_t dm, uint32_t addr, uint32_t v);
/* Poll dmstatus of `hart` until (dmstatus & bits) == bits; 0 on success. */
int wait_status(ws_debug *d, uint32_t dm, uint32_t hart, uint32_t bits);
/* The same for the harts dmcontrol selects now (hartsel, hart array mask). */
int wait_selected_status(ws_debug *d, uint32_t dm, uint32_t bits);
/* A CSR of a halted hart through Access Register (cmderr not looked at). */
uint32_t csr_get(ws_debug *d, uint32_t dm, uint32_t hart, uint32_t csr);
/* dcsr.cause of a halted hart (cmderr not looked at). */
uint32_t halt_cause(ws_debug *d, uint32_t dm, uint32_t hart);
/* Next event of `kind` (others are skipped); 0 on success. */
int wait_event(ws_debug *d, ws_dbg_event_kind kind, ws_dbg_event *ev);
/* Arm trigger `idx` of hart's core: tdata1 (type 2, given bits) and tdata2. */
uint32_t set_trigger(ws_debug *d, uint32_t dm, uint32_t hart, uint32_t idx, uint32_t bits, uint32_t tdata2);

#define DMS_ALLHALTED (1u << 9)
#define DMS_ANYHALTED (1u << 8)
#define DMS_ALLRUNNING (1u << 11)
#define DMS_ANYRUNNING (1u << 10)
#define DMS_ALLRESUMEACK (1u << 17)
#define DMS_ANYNONEXISTENT (1u << 14)
#define DMS_ALLNONEXISTENT (1u << 15)
#define DMS_ANYUNAVAIL (1u << 12)
#define TRIG_EXEC (1u << 2)
#define TRIG_STORE (1u << 1)
#define TRIG_LOAD (1u << 0)
#define TRIG_NAPOT (1u << 7)
#define EBREAK_INSN 0x00100073u

/* CHECK that Access Register reads `regno` of `hart` without error, and
 * that it holds `want`. */
#define CHECK_REG(d, dm, hart, regno, want) do { uint32_t reg_ = 0; \
    CHECK_EQ_U(reg_read(d, dm, hart, regno, &reg_), 0); CHECK_EQ_U(reg_, want); } while (0)
/* CHECK that dcsr of `hart` reads without error and gives halt `cause`. */
#define CHECK_HALT_CAUSE(d, dm, hart, cause) do { uint32_t dcsr_ = 0; \
    CHECK_EQ_U(reg_read(d, dm, hart, WS_REGNO_CSR(WS_CSR_DCSR), &dcsr_), 0); \
    CHECK_EQ_U(dcsr_ >> 6 & 7, cause); } while (0)
#endif
