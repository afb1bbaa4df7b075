/* An in-memory ws_gdb_target for protocol tests and the packet fuzzer:
 * four threads, 64 KiB of memory at FAKE_BASE, a module file, and a
 * resume that stops the first thread at once. Header-only so the test
 * and the fuzzer share it. */
#ifndef WS_TESTS_GDB_FAKE_TARGET_H
#define WS_TESTS_GDB_FAKE_TARGET_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "gdbstub/gdb_target.h"
#include "gdbstub/tdesc.h"

#define FAKE_BASE 0x10000u
#define FAKE_SIZE 0x10000u
#define FAKE_THREADS 4

typedef struct fake_target {
    uint32_t regs[FAKE_THREADS][WS_GDB_NUM_REGS];
    uint8_t mem[FAKE_SIZE];
    int nbp, resumed, stops_queued, detached, non_stop, nconds;
    ws_gdb_stop queued;
    uint8_t file[256];
} fake_target;

static ws_status fake_threads(void *t, ws_gdb_thread *out, size_t max, size_t *n)
{
    (void)t;
    for (size_t i = 0; i < FAKE_THREADS && i < max; i++) {
        out[i].tid = (uint32_t)i + 1;
        snprintf(out[i].name, sizeof out[i].name, "block (0,0,0) thread (%u,0,0) core 0 warp 0 lane %u",
                 (unsigned)i, (unsigned)i);
    }
    *n = FAKE_THREADS;
    return WS_OK;
}

static int fake_tid_ok(uint32_t tid)
{
    return tid >= 1 && tid <= FAKE_THREADS;
}

static ws_status fake_read_reg(void *t, uint32_t tid, uint32_t r, uint32_t *v)
{
    fake_target *f = t;
    if (!fake_tid_ok(tid) || r >= WS_GDB_NUM_REGS) return WS_ERR_INVALID_ARG;
    *v = f->regs[tid - 1][r];
    return WS_OK;
}

static ws_status fake_write_reg(void *t, uint32_t tid, uint32_t r, uint32_t v)
{
    fake_target *f = t;
    if (!fake_tid_ok(tid) || r >= WS_GDB_REG_BLOCK_X) return WS_ERR_INVALID_ARG;
    f->regs[tid - 1][r] = v;
    return WS_OK;
}

static int fake_range(uint32_t addr, size_t len)
{
    return addr >= FAKE_BASE && len <= FAKE_SIZE && addr - FAKE_BASE <= FAKE_SIZE - len;
}

static ws_status fake_read_mem(void *t, uint32_t tid, uint32_t addr, uint8_t *buf, size_t len)
{
    fake_target *f = t;
    (void)tid;
    if (!fake_range(addr, len)) return WS_ERR_BAD_ADDRESS;
    memcpy(buf, f->mem + (addr - FAKE_BASE), len);
    return WS_OK;
}

static ws_status fake_write_mem(void *t, uint32_t tid, uint32_t addr, const uint8_t *buf, size_t len)
{
    fake_target *f = t;
    (void)tid;
    if (!fake_range(addr, len)) return WS_ERR_BAD_ADDRESS;
    memcpy(f->mem + (addr - FAKE_BASE), buf, len);
    return WS_OK;
}

static ws_status fake_breakpoint(void *t, int type, uint32_t addr, uint32_t kind, int insert,
                                 const ws_gdb_cond *conds, size_t nconds)
{
    fake_target *f = t;
    f->nconds = (int)nconds;
    for (size_t i = 0; i < nconds; i++)
        if (!conds[i].code || !conds[i].len) return WS_ERR_INVALID_ARG;
    if (!fake_range(addr, kind ? kind : 1)) return WS_ERR_BAD_ADDRESS;
    (void)type;
    f->nbp += insert ? 1 : -1;
    return WS_OK;
}

static ws_status fake_resume(void *t, const ws_gdb_action *a, size_t n)
{
    fake_target *f = t;
    for (size_t i = 0; i < n; i++)
        if (a[i].tid && !fake_tid_ok(a[i].tid)) return WS_ERR_INVALID_ARG;
    f->resumed++;
    memset(&f->queued, 0, sizeof f->queued);
    f->queued.kind = WS_GDB_STOP_SIGNAL;
    f->queued.signal = 5;
    f->queued.tid = a[0].tid ? a[0].tid : 1;
    f->queued.reason = a[0].op == 's' ? WS_GDB_R_NONE : WS_GDB_R_SWBREAK;
    f->stops_queued = 1;
    return WS_OK;
}

static ws_status fake_interrupt(void *t, uint32_t tid)
{
    fake_target *f = t;
    memset(&f->queued, 0, sizeof f->queued);
    f->queued.kind = WS_GDB_STOP_SIGNAL;
    f->queued.signal = tid ? 0 : 2;
    f->queued.tid = tid ? tid : 1;
    f->stops_queued = 1;
    return WS_OK;
}

static ws_status fake_wait(void *t, int timeout_ms, ws_gdb_stop *st)
{
    fake_target *f = t;
    (void)timeout_ms;
    if (!f->stops_queued) return WS_ERR_TIMEOUT;
    f->stops_queued = 0;
    *st = f->queued;
    return WS_OK;
}

static ws_status fake_libraries(void *t, char **xml, size_t *len)
{
    (void)t;
    const char *doc = "<library-list><library name=\"mod.elf\"><segment address=\"0x10000\"/></library></library-list>";
    *xml = strdup(doc);
    if (!*xml) return WS_ERR_OUT_OF_MEMORY;
    *len = strlen(doc);
    return WS_OK;
}

static ws_status fake_file(void *t, const char *name, const uint8_t **data, size_t *size)
{
    fake_target *f = t;
    if (strcmp(name, "mod.elf")) return WS_ERR_NOT_FOUND;
    *data = f->file;
    *size = sizeof f->file;
    return WS_OK;
}

static ws_status fake_monitor(void *t, const char *cmd, char **out)
{
    (void)t;
    if (strcmp(cmd, "help")) return WS_ERR_NOT_FOUND;
    *out = strdup("fake target\n");
    return *out ? WS_OK : WS_ERR_OUT_OF_MEMORY;
}

static void fake_detach(void *t)
{
    ((fake_target *)t)->detached = 1;
}

static const char *fake_error(void *t)
{
    (void)t;
    return "fake error";
}

static ws_status fake_set_non_stop(void *t, int on)
{
    ((fake_target *)t)->non_stop = on;
    return WS_OK;
}

static const ws_gdb_target_ops fake_ops = {
    fake_threads, fake_read_reg, fake_write_reg, fake_read_mem, fake_write_mem, fake_breakpoint,
    fake_resume, fake_interrupt, fake_wait, fake_libraries, fake_file, fake_monitor, fake_detach,
    fake_error, 1, fake_set_non_stop, NULL /* thread_alive: the listing fallback */, NULL, NULL, NULL, 0, NULL,
};

static void fake_init(fake_target *f)
{
    memset(f, 0, sizeof *f);
    for (int t = 0; t < FAKE_THREADS; t++)
        for (int r = 0; r < WS_GDB_NUM_REGS; r++) f->regs[t][r] = (uint32_t)(t * 0x1000 + r);
    for (size_t i = 0; i < sizeof f->file; i++) f->file[i] = (uint8_t)i; /* includes $ # } * */
    for (size_t i = 0; i < FAKE_SIZE; i++) f->mem[i] = (uint8_t)(i * 7);
}
#endif
