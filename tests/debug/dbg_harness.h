/* Test harness for the debug hardware: an application thread that loads,
 * launches and synchronises, and tool-side helpers that go through
 * src/debug/debug.h only. */
#ifndef DBG_HARNESS_H
#define DBG_HARNESS_H
#include <pthread.h>
#include <stdatomic.h>
#include "debug/debug.h"

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
#endif
