/* Device lifetime, configuration, errors. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/api_lock.h"
#include "runtime/gfx_api.h"
#include "runtime/tools.h"
#include "runtime/runtime.h"
#include "runtime/source_lines.h"
#include "device/debug/debug_hooks.h"
#include "device/parallel.h"
#include "device/timing.h"
#include "device/fast_exec.h"
#include "device/trace/trace_cell_hw.h"
#include "device/trace/pc_counters.h"
#include "device/events/event_bus.h"

const char *ws_version(void) { return "0.1.0"; }

const char *ws_status_name(ws_status s)
{
    static const char *const names[] = {
        "WS_OK", "WS_ERR_INVALID_ARG", "WS_ERR_OUT_OF_MEMORY", "WS_ERR_BAD_ADDRESS",
        "WS_ERR_BAD_MODULE", "WS_ERR_NOT_FOUND", "WS_ERR_BAD_LAUNCH", "WS_ERR_KERNEL_FAULT",
        "WS_ERR_KERNEL_ASSERT", "WS_ERR_DEADLOCK", "WS_ERR_IO", "WS_ERR_BUSY",
        "WS_ERR_UNSUPPORTED", "WS_ERR_INTERNAL", "WS_ERR_TIMEOUT", "WS_ERR_STOPPED", "WS_ERR_INTERRUPTED" };
    return (unsigned)s < sizeof names / sizeof *names ? names[s] : "WS_ERR_UNKNOWN";
}

const char *ws_last_error(const ws_device *dev)
{
    return dev ? dev->err : "no device";
}

_Static_assert(WS_ERRLEN <= WS_ERROR_MAX, "ws_last_error_copy's WS_ERROR_MAX must hold every message");

ws_status ws_last_error_copy(const ws_device *dev, char *buf, size_t len)
{
    if (!buf || !len) return WS_ERR_INVALID_ARG; /* no message: the one the caller wants stays */
    if (!dev) {
        snprintf(buf, len, "no device");
        return WS_ERR_INVALID_ARG;
    }
    /* The read lock: a failing call writes the message holding the API
     * lock, so the copy is one whole message; the printf handler and a
     * tool's callback (whose thread holds the lock) may call it. Refused
     * while another thread closes the device: buf is left empty. */
    buf[0] = '\0';
    WS_API_READ_LOCKED((ws_device *)dev, "ws_last_error_copy");
    snprintf(buf, len, "%s", dev->err);
    return WS_OK;
}

void ws_config_default(ws_config *c)
{
    if (!c) return; /* nothing to fill (a void call has no status to refuse it with) */
    memset(c, 0, sizeof *c);
    c->cores = 4;
    c->warps_per_core = 8;
    c->lanes_per_warp = 32;
    c->shared_per_core = 64 * 1024;
    c->max_shared_per_block = 48 * 1024;
    c->stack_per_lane = 8 * 1024;
    c->global_mem_limit = 256ull << 20;
    c->max_threads_per_block = 256;
    c->mode = WS_MODE_FUNCTIONAL;
    c->warp_quantum = 64;
}

ws_status ws_config_validate(const ws_config *cfg, char *err, size_t errlen)
{
    char tmp[8];
    if (!err) { err = tmp; errlen = sizeof tmp; }
    if (!cfg) {
        snprintf(err, errlen, "ws_config_validate: cfg is NULL");
        return WS_ERR_INVALID_ARG;
    }
    return ws_config_check(cfg, err, errlen) ? WS_ERR_INVALID_ARG : WS_OK;
}

ws_status ws_runtime_device_open(const ws_config *cfg, ws_device **out)
{
    if (!out) return WS_ERR_INVALID_ARG;
    *out = NULL;
    ws_config c;
    if (cfg) c = *cfg;
    else ws_config_default(&c);
    char err[256];
    if (ws_config_check(&c, err, sizeof err)) return WS_ERR_INVALID_ARG;
    ws_device *dev = calloc(1, sizeof *dev);
    if (!dev) return WS_ERR_OUT_OF_MEMORY;
    if (ws_api_lock_init(dev)) {
        free(dev);
        return WS_ERR_INTERNAL;
    }
    dev->cfg = c;
    ws_config asked = c; /* (threads=0 asks the environment; the device's config keeps the 0) */
    if (!asked.threads) asked.threads = ws_config_threads_from_env();
    dev->host_threads = ws_par_threads_for(&asked, &dev->threads_asked);
    dev->decode_lock_ready = pthread_mutex_init(&dev->decode_lock, NULL) == 0;
    dev->describe_pc = ws_source_describe_pc;
    dev->full_mask = c.lanes_per_warp == 32 ? UINT32_MAX : (1u << c.lanes_per_warp) - 1;
    dev->next_launch_id = 1;
    if (ws_mem_init(&dev->mem, c.global_mem_limit, c.stack_per_lane,
                    c.cores * c.warps_per_core * c.lanes_per_warp, c.lanes_per_warp)) {
        ws_api_lock_destroy(dev);
        free(dev);
        return WS_ERR_OUT_OF_MEMORY;
    }
    dev->ncode_pages = (uint32_t)(c.global_mem_limit >> 12);
    dev->code_pages = calloc(dev->ncode_pages, sizeof *dev->code_pages);
    dev->cores = calloc(c.cores, sizeof *dev->cores);
    (void)ws_fast_create(dev); /* without it, the interpreter runs everything */
    int ok = dev->code_pages && dev->cores && dev->decode_lock_ready;
    for (uint32_t i = 0; ok && i < c.cores; i++) {
        ws_core *core = &dev->cores[i];
        core->warps = calloc(c.warps_per_core, sizeof *core->warps);
        core->blocks = calloc(c.warps_per_core, sizeof *core->blocks);
        core->shared = calloc(1, c.shared_per_core ? c.shared_per_core : 1);
        ok = core->warps && core->blocks && core->shared;
        for (uint32_t s = 0; ok && s < c.warps_per_core; s++) {
            core->warps[s].core = i;
            core->warps[s].slot = s;
        }
    }
    if (ok && c.mode == WS_MODE_TIMING) ok = ws_timing_create(dev) == WS_OK;
    if (!ok) {
        ws_device_close(dev);
        return WS_ERR_OUT_OF_MEMORY;
    }
    ws_tools_init(dev);
    *out = dev;
    return WS_OK;
}

ws_status ws_device_close(ws_device *dev)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    ws_status drained = WS_OK;
    {   /* waits for a call in flight on another thread (docs/api.md, "Threads") */
        WS_API_LOCKED(dev, "ws_device_close");
        if (ws_tools_in_callback(dev))
            return ws_set_error(dev, WS_ERR_BUSY, "ws_device_close: called from a tool callback; the device can be "
                                "closed after the call that made the callback returns");
        /* From here a call from another thread that gets the lock is
         * refused; the ones waiting for it now are let through after the
         * locked part, to leave at once. */
        ws_api_closing(dev);
        /* Work still queued runs first, as a synchronising call would run
         * it: its printf output appears and tools see it. If it fails the
         * device closes anyway and its status is close's. */
        drained = ws_cmd_drain(dev, 0);
        ws_tools_close(dev); /* reports are written, gdb hears the program exit */
        ws_cmd_discard_all(dev);
        ws_timing_destroy(dev);
        ws_trace_cells_free(dev);
        ws_pc_counters_free(dev);
        ws_ev_free(dev);
        ws_gfx_api_free(dev);
        ws_modules_release_all(dev);
        ws_dbg_device_close(dev); /* tells an attached debugger, then cuts it loose */
    }
    /* Every call that counted itself in has left (a call that starts after
     * this, as close returns, is the caller's bug: docs/api.md). */
    ws_api_wait_callers(dev);
    ws_par_free(dev); /* the worker threads end before the cores go */
    free(dev->modules);
    free(dev->queue);
    if (dev->cores)
        for (uint32_t i = 0; i < dev->cfg.cores; i++) {
            free(dev->cores[i].warps);
            free(dev->cores[i].blocks);
            free(dev->cores[i].shared);
        }
    free(dev->cores);
    if (dev->code_pages) /* up to the last page allocated: the table is mostly untouched memory */
        for (uint32_t i = 0; dev->code_pages_live && i < dev->ncode_pages; i++)
            if (dev->code_pages[i]) free(dev->code_pages[i]), dev->code_pages_live--;
    free(dev->code_pages);
    ws_fast_free(dev);
    ws_mem_fini(&dev->mem);
    if (dev->decode_lock_ready) pthread_mutex_destroy(&dev->decode_lock);
    ws_api_lock_destroy(dev);
    free(dev);
    return drained;
}

ws_status ws_device_interrupt(ws_device *dev)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    ws_api_count_in(dev); /* (a close on another thread waits for it) */
    atomic_store(&dev->interrupt_req, 1); /* no lock: a signal handler may be the caller */
    ws_api_count_out(dev);
    return WS_OK;
}

ws_status ws_device_config(const ws_device *dev, ws_config *out)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    ws_api_count_in(dev); /* (a close on another thread waits for it) */
    const ws_status st = out ? WS_OK : ws_set_error((ws_device *)dev, WS_ERR_INVALID_ARG, "ws_device_config: out is NULL");
    if (out) {
        *out = dev->cfg; /* fixed at open: no lock (the debug server reads it) */
        /* threads as resolved at open ($WARPSCOPE_THREADS or the host's
         * cores for 0, never more than the cores): the host threads a
         * launch that runs in parallel uses (until 2026-11-29 it gave back
         * the 0) */
        out->threads = dev->host_threads;
    }
    ws_api_count_out(dev);
    return st;
}

ws_status ws_set_printf_handler(ws_device *dev, ws_printf_fn fn, void *user)
{
    if (!dev) return WS_ERR_INVALID_ARG;
    WS_API_LOCKED(dev, "ws_set_printf_handler");
    dev->printf_fn = fn;
    dev->printf_user = user;
    return WS_OK;
}

int ws_runtime_grow_arena(ws_device *dev, uint64_t limit)
{
    const uint64_t range = WS_GLOBAL_MAX_END - WS_GLOBAL_BASE;
    if (limit > range) limit = range;
    limit = (limit + 4095) & ~(uint64_t)4095;
    if (dev->mem.limit >= limit) return 0;
    if (dev->mem.brk || dev->code_pages_live) return -1;
    /* The decoded-code table covers the arena page by page, so it grows
     * with it (left at the old size, code placed above it was indexed
     * past its end). Nothing is loaded yet: it is empty. */
    ws_memory bigger;
    ws_inst **pages = calloc((size_t)(limit >> 12), sizeof *pages);
    if (!pages || ws_mem_init(&bigger, limit, dev->mem.stack_size, dev->mem.nslots, dev->mem.stack_lanes)) {
        free(pages);
        return -1;
    }
    bigger.user_limit = dev->mem.user_limit; /* the program keeps the memory it was given */
    if (dev->mem.ntool) { /* an earlier tool's buffers (several tools attached): same offsets, bytes and shadow */
        const uint64_t lo = dev->mem.tool_dirty, n = dev->mem.limit - lo;
        memcpy(bigger.global + lo, dev->mem.global + lo, n);
        memcpy(bigger.shadow + lo / 8, dev->mem.shadow + lo / 8, n / 8);
        bigger.tool = dev->mem.tool, bigger.ntool = dev->mem.ntool, bigger.toolcap = dev->mem.toolcap;
        bigger.tool_dirty = lo;
        dev->mem.tool = NULL;
    }
    ws_mem_fini(&dev->mem);
    dev->mem = bigger;
    free(dev->code_pages);
    dev->code_pages = pages;
    dev->ncode_pages = (uint32_t)(limit >> 12);
    return 0;
}
