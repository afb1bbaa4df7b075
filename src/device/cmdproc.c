/* Command processor: consumes the in-order queue (copies, memset, launches,
 * fences) and runs launches on the cores: dispatch blocks, run each warp for
 * a quantum in fixed core/slot order, retire finished blocks, repeat. The
 * fixed order makes every run identical. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "device/device.h"
#include "device/events/event_bus.h"
#include "device/debug/debug_hooks.h"
#include "device/parallel.h"
#include "device/timing.h"
#include "gfx/gfx_device.h"
#include "isa/fpu.h"

ws_status ws_cmd_push(ws_device *dev, const ws_cmd *cmd)
{
    if (dev->qlen == dev->qcap) {
        size_t cap = dev->qcap ? dev->qcap * 2 : 16;
        ws_cmd *q = malloc(cap * sizeof *q);
        if (!q) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "command queue: out of host memory");
        for (size_t i = 0; i < dev->qlen; i++) q[i] = dev->queue[(dev->qhead + i) % dev->qcap];
        free(dev->queue);
        dev->queue = q;
        dev->qcap = cap;
        dev->qhead = 0;
    }
    dev->queue[(dev->qhead + dev->qlen) % dev->qcap] = *cmd;
    dev->qlen++;
    return WS_OK;
}

static void cmd_free(ws_cmd *c)
{
    free(c->data);
    free(c->launch);
    ws_gfx_cmd_free(c->gfx);
}

void ws_cmd_discard_all(ws_device *dev)
{
    while (dev->qlen) {
        cmd_free(&dev->queue[dev->qhead]);
        dev->qhead = (dev->qhead + 1) % dev->qcap;
        dev->qlen--;
    }
}

static void release_all(ws_device *dev)
{
    for (uint32_t c = 0; c < dev->cfg.cores; c++)
        for (uint32_t s = 0; s < dev->cores[c].nblock_slots; s++)
            if (dev->cores[c].blocks[s].in_use) ws_block_release(dev, &dev->cores[c].blocks[s]);
}

/* Core c's share of a scheduling round: each of its warps runs for a
 * quantum in slot order. Returns 0, or -1 on a fault. */
static int run_core(ws_device *dev, uint32_t c, int64_t *issued_total, uint32_t *released)
{
    ws_core *core = &dev->cores[c];
    for (uint32_t s = 0; s < dev->cfg.warps_per_core; s++) {
        ws_warp *w = &core->warps[s];
        if (!w->active || !(w->live & ~w->waiting)) continue;
        uint32_t issued = 0, budget = dev->cfg.warp_quantum;
        if (dev->debug) { /* safe point: halted warps do not run */
            int gate = ws_dbg_warp_gate(dev, w, &budget);
            if (gate < 0) return -1;
            if (gate) continue;
        }
        ws_warp_result r = ws_warp_run(dev, w, budget, &issued);
        *issued_total += issued;
        if (dev->debug) r = ws_dbg_warp_done(dev, w, r);
        if (r == WARP_FAULT) return -1;
        ws_block *b = w->block;
        if (b->in_use && b->live_lanes == 0) {
            ws_block_release(dev, b);
            ++*released;
        }
    }
    return 0;
}

/* A parallel launch's step of core c: one scheduling round. */
static int core_round(ws_device *dev, uint32_t c, uint64_t now, uint64_t *next, uint32_t *released)
{
    int64_t issued = 0;
    *next = now + 1;
    if (run_core(dev, c, &issued, released) < 0) return -1;
    return !issued && !*released; /* a round with nothing to run: nothing will change */
}

/* One scheduling round over all cores, in core order. Returns
 * instructions issued, or -1 on a fault. */
static int64_t run_round(ws_device *dev)
{
    int64_t issued_total = 0;
    uint32_t released = 0;
    for (uint32_t c = 0; c < dev->cfg.cores; c++)
        if (run_core(dev, c, &issued_total, &released) < 0) return -1;
    return issued_total;
}

/* The cores on several host threads (src/device/parallel.c); the launch's
 * first blocks are placed here. Returns 1 if the launch is to run on this
 * thread (the pool could not start). */
static int run_parallel(ws_device *dev, double limit, ws_status *st)
{
    ws_dispatch_blocks(dev);
    const ws_par_launch how = { .step = core_round, .placed = NULL, .limit_s = limit };
    switch (ws_par_run(dev, &how)) {
    case WS_PAR_DONE: *st = WS_OK; return 0;
    case WS_PAR_FAULT: *st = WS_ERR_KERNEL_FAULT; return 0;
    case WS_PAR_DEADLOCK: ws_raise_deadlock(dev); *st = WS_ERR_DEADLOCK; return 0;
    case WS_PAR_TIMEOUT: *st = ws_fault_host_stop(dev, WS_HOST_WATCHDOG, UINT64_MAX); return 0;
    case WS_PAR_INTERRUPTED: *st = ws_fault_host_stop(dev, WS_HOST_INTERRUPT, UINT64_MAX); return 0;
    case WS_PAR_NO_THREADS: break;
    }
    return 1;
}

static ws_status run_launch(ws_device *dev, ws_grid_run *L)
{
    dev->current = L;
    for (uint32_t c = 0; c < dev->cfg.cores; c++) dev->cores[c].hot_lo = dev->cores[c].hot_hi = 0;
    memset(&dev->fault, 0, sizeof dev->fault);
    uint32_t per_block_shared = (L->shared_total + 15u) & ~15u;
    uint32_t slots = dev->cfg.warps_per_core / L->warps_per_block;
    L->slots_by_shared = 0;
    if (per_block_shared && dev->cfg.shared_per_core / per_block_shared < slots) {
        slots = dev->cfg.shared_per_core / per_block_shared;
        L->slots_by_shared = 1;
    }
    L->per_core_order = dev->cfg.mode != WS_MODE_TIMING;
    L->block_chunk = ws_block_chunk(L->total_blocks, dev->cfg.cores);
    for (uint32_t c = 0; c < dev->cfg.cores; c++) {
        dev->cores[c].nblock_slots = slots;
        dev->cores[c].next_block = (uint64_t)c * L->block_chunk;
        dev->cores[c].taken_blocks = 0;
        for (uint32_t s = 0; s < dev->cfg.warps_per_core; s++) dev->cores[c].warps[s].active = 0;
    }
    double t0 = ws_now_seconds();
    ws_status st = WS_OK;
    const double limit = dev->cfg.watchdog_ms ? dev->cfg.watchdog_ms / 1e3 : 0;
    uint64_t rounds = 0;
    if (dev->debug) ws_dbg_launch_start(dev, L->id);
    if (dev->events) {
        dev->events->stop = dev->events->halt_pending = 0;
        dev->events->wd_halt = (ws_ev_unit_halt){ 0 }; /* a distributor's halt lasts one launch */
    }
    /* Timing mode: the cycle-driven model runs the launch (timing.c). */
    if (dev->cfg.mode == WS_MODE_TIMING) st = ws_timing_run(dev, L);
    int serial = dev->cfg.mode != WS_MODE_TIMING;
    /* The host asked to end it (ws_device_interrupt) before it started,
     * or while no launch ran: it ends before running anything, however
     * short (the timing model looks the same way). */
    if (serial && ws_host_interrupt_take(dev)) {
        st = ws_fault_host_stop(dev, WS_HOST_INTERRUPT, UINT64_MAX);
        serial = 0;
    }
    if (serial && ws_par_launch_ok(dev, L)) serial = run_parallel(dev, limit, &st);
    while (serial && L->done_blocks < L->total_blocks) {
        uint32_t placed = ws_dispatch_blocks(dev);
        int64_t issued = run_round(dev);
        if (issued < 0) { st = WS_ERR_KERNEL_FAULT; break; }
        ws_ev_tick(dev); /* (a `lasting` step outlasted with no event to tell) */
        if (dev->events && dev->events->stop) { st = WS_ERR_STOPPED; break; } /* a debug machine's action */
        /* A kernel that never ends (a lost exit condition, a lock never
         * released) would hang the host: the watchdog ends it, like a
         * driver's timeout detection, and so does the host's request
         * (ws_device_interrupt). Checked every 64 rounds, while blocks
         * remain: a launch whose blocks all finished is done (WS_OK). */
        const int why = (++rounds & 63) == 0 && L->done_blocks < L->total_blocks
                            ? ws_host_stop_due(dev, t0, limit, 1) : 0;
        if (why) {
            st = ws_fault_host_stop(dev, why, UINT64_MAX);
            break;
        }
        if (issued == 0 && placed == 0 && L->done_blocks < L->total_blocks) {
            const int wd = ws_ev_wd_stopped(dev);
            if (wd > 0) { st = WS_ERR_STOPPED; break; }
            if (wd < 0) continue; /* (the debugger released it) */
            const int idle = ws_ev_launch_idle(dev); /* (debug machines: lasting steps, a pending halt) */
            if (idle == WS_EV_IDLE_STOP) { st = WS_ERR_STOPPED; break; }
            if (idle == WS_EV_IDLE_RETRY) continue;
            /* Halted warps are stopped, not deadlocked: wait for the tool. */
            int waited = dev->debug ? ws_dbg_idle_wait(dev) : 0;
            if (waited > 0) continue;
            if (waited < 0) { st = WS_ERR_KERNEL_FAULT; break; }
            ws_raise_deadlock(dev);
            st = WS_ERR_DEADLOCK;
            break;
        }
    }
    if ((st == WS_ERR_INTERRUPTED || st == WS_ERR_TIMEOUT) && L->done_blocks >= L->total_blocks) {
        /* the pool's cores finished the last block as the host's stop was
         * decided: the launch is complete */
        memset(&dev->fault, 0, sizeof dev->fault);
        st = WS_OK;
    }
    if (st == WS_OK && ws_ev_halt_unclaimed(dev)) st = WS_ERR_STOPPED; /* a machine's halt after the last warp */
    L->stats.host_seconds = ws_now_seconds() - t0;
    L->stats.launch_id = L->id;
    L->stats.blocks = L->done_blocks;
    L->stats.threads = L->done_blocks * L->threads_per_block;
    L->stats.shared_per_block = L->shared_total;
    L->stats.blocks_per_core = slots;
    L->stats.cores = dev->cfg.cores < WS_STATS_MAX_CORES ? dev->cfg.cores : WS_STATS_MAX_CORES;
    L->stats.simt_efficiency = L->stats.warp_instructions
        ? (double)L->stats.thread_instructions / ((double)L->stats.warp_instructions * dev->cfg.lanes_per_warp)
        : 0.0;
    if (st != WS_OK) {
        char msg[WS_ERRLEN];
        ws_fault_format(dev, msg, sizeof msg);
        if (dev->fault.kind == FAULT_ASSERT) st = WS_ERR_KERNEL_ASSERT;
        ws_set_error(dev, st, "%s", msg);
        release_all(dev);
    }
    dev->last_stats = L->stats;
    dev->have_stats = 1;
    if (dev->events) ws_ev_machines_launch_end(dev);
    ws_ev_launch_end(dev, dev->cfg.mode == WS_MODE_TIMING ? dev->now_cycle : L->stats.warp_instructions);
    dev->current = NULL;
    if (dev->debug) ws_dbg_launch_end(dev, L->id, st);
    return st;
}

static ws_status run_cmd_kind(ws_device *dev, ws_cmd *c);

/* A launch as CMD_LAUNCH runs it: the runtime's hook lets attached tools
 * see (or replay) it. The graphics pipeline's shader launches come here. */
static ws_status launch_now(ws_device *dev, ws_grid_run *L)
{
    if (dev->launch_hook) return dev->launch_hook(dev, L, run_launch);
    return run_launch(dev, L);
}

/* The command's events around its execution. */
static ws_status run_cmd(ws_device *dev, ws_cmd *c)
{
    ws_ev_emit(dev, WS_EV_CP, WS_EV_CP_FETCH, 0, (uint32_t)c->kind);
    ws_ev_emit(dev, WS_EV_CP, WS_EV_CP_START, 0, (uint32_t)c->kind);
    ws_fpu_host fp; /* the calling thread's float flags are the program's (isa/fpu.h) */
    ws_fpu_host_save(&fp);
    ws_status st = run_cmd_kind(dev, c);
    ws_fpu_host_restore(&fp);
    /* A request to end a launch made while this one ran, which completed
     * before it looked: answered (docs/api.md, "Ending a launch from the
     * host"), not left to end a later, unrelated launch. */
    if (c->kind == CMD_LAUNCH || c->kind == CMD_GFX) ws_host_interrupt_clear(dev);
    if (c->kind == CMD_FENCE) ws_ev_emit(dev, WS_EV_CP, WS_EV_CP_FENCE, 0, (uint32_t)c->fence);
    ws_ev_emit(dev, WS_EV_CP, WS_EV_CP_DONE, 0, (uint32_t)c->kind);
    return st;
}

static ws_status run_cmd_kind(ws_device *dev, ws_cmd *c)
{
    char err[256];
    switch (c->kind) {
    case CMD_COPY_HTOD: {
        uint8_t *d = ws_mem_host_range(&dev->mem, c->dst, c->n, 1, err, sizeof err);
        if (!d) return ws_set_error(dev, WS_ERR_BAD_ADDRESS, "copy host to device: %s", err);
        memcpy(d, c->data, c->n);
        return WS_OK;
    }
    case CMD_COPY_DTOD: {
        uint8_t *s = ws_mem_host_range(&dev->mem, c->src, c->n, WS_MEM_COPY_FROM, err, sizeof err);
        if (!s) return ws_set_error(dev, WS_ERR_BAD_ADDRESS, "copy device to device (source): %s", err);
        uint8_t *d = ws_mem_host_range(&dev->mem, c->dst, c->n, 1, err, sizeof err);
        if (!d) return ws_set_error(dev, WS_ERR_BAD_ADDRESS, "copy device to device (destination): %s", err);
        memmove(d, s, c->n);
        return WS_OK;
    }
    case CMD_MEMSET: {
        uint8_t *d = ws_mem_host_range(&dev->mem, c->dst, c->n, 1, err, sizeof err);
        if (!d) return ws_set_error(dev, WS_ERR_BAD_ADDRESS, "memset: %s", err);
        memset(d, c->value, c->n);
        return WS_OK;
    }
    case CMD_LAUNCH:
        return launch_now(dev, c->launch);
    case CMD_GFX:
        return ws_gfx_execute(dev, c->gfx, launch_now);
    case CMD_FENCE:
        dev->fence_done = c->fence;
        return WS_OK;
    }
    return WS_ERR_INTERNAL;
}

/* Who can let a halted command processor go on: the side that halted it;
 * under the event watcher the program's ws_events_resume is refused, so
 * only the watcher's machines can. */
static void cp_release_hint(const ws_device *dev, int holder, char *buf, size_t len)
{
    if (holder == WS_EV_DEBUGGER)
        snprintf(buf, len, "the debugger's 'monitor watch resume' (EVCTL 8; its machines stay) or 'monitor watch "
                 "clear' (EVCTL 2) lets it go on");
    else if (dev->events_owner)
        snprintf(buf, len, "only a machine's cp.resume or cp.step lets it go on (the bus is held by %s, which refuses "
                 "the program's ws_events_resume)", dev->events_owner);
    else
        snprintf(buf, len, "ws_events_resume lets it go on");
}

/* Is the command processor held (a side halted it with no step left)?
 * Then `what` waits: WS_ERR_STOPPED, saying who holds it and what lets it
 * go on. A debugger's release since is taken first. */
static ws_status cp_held(ws_device *dev, const char *what)
{
    struct ws_events *ev = dev->events;
    for (;;) {
        if (ev && ev->cp_halt.halted[WS_EV_DEBUGGER] && dev->debug)
            ws_dbg_take_machine_requests(dev); /* a 'monitor watch resume' or 'clear' since releases it */
        const int holder = ev ? ws_ev_unit_holder(&ev->cp_halt) : -1;
        if (holder < 0) return WS_OK;
        char release[240], by[WS_EV_HALT_BY_LEN], msg[WS_ERRLEN];
        cp_release_hint(dev, holder, release, sizeof release);
        ws_ev_halt_by(&ev->cp_halt, holder, by, sizeof by);
        snprintf(msg, sizeof msg, "%sthe command processor was halted by %s with %u command%s queued; %s", what, by,
                 (unsigned)dev->qlen, dev->qlen == 1 ? "" : "s", release);
        /* The debugger's halt holds the program's wait while gdb looks
         * (gdb hears a stop); the program's own halt is its error to see. */
        if (holder == WS_EV_DEBUGGER && dev->debug && ws_dbg_held_wait(dev, WS_DBG_EV_CP_HELD, msg)) continue;
        return ws_set_error(dev, WS_ERR_STOPPED, "%s", msg);
    }
}

ws_status ws_cmd_direct(ws_device *dev, const char *what)
{
    ws_status st = ws_cmd_drain(dev, 0);
    if (st != WS_OK) return st;
    char prefix[96];
    snprintf(prefix, sizeof prefix, "%s: ", what);
    return cp_held(dev, prefix);
}

ws_status ws_cmd_drain(ws_device *dev, uint64_t until_fence)
{
    if (dev->handed_back) { /* as if the tool had not waited: the work queued after the failure is discarded */
        ws_status st = dev->handed_back;
        dev->handed_back = 0;
        ws_cmd_discard_all(dev);
        return ws_set_error(dev, st, "%s", dev->handed_back_msg);
    }
    if (until_fence) ws_ev_emit(dev, WS_EV_CP, WS_EV_CP_WAIT, 0, (uint32_t)until_fence);
    while (dev->qlen) {
        if (until_fence && dev->fence_done >= until_fence) break;
        ws_status held = cp_held(dev, ""); /* a debug machine halted the command processor */
        if (held != WS_OK) return held;
        if (dev->events) ws_ev_unit_went(&dev->events->cp_halt);
        ws_cmd c = dev->queue[dev->qhead];
        dev->qhead = (dev->qhead + 1) % dev->qcap;
        dev->qlen--;
        ws_status st = run_cmd(dev, &c);
        cmd_free(&c);
        if (st != WS_OK) {
            /* A failed command cancels the work queued after it. */
            ws_cmd_discard_all(dev);
            return st;
        }
    }
    return WS_OK;
}
