/* Precise fault reports: what happened, where (kernel, launch, block,
 * thread, core/warp/lane), at which instruction. */
#include <stdarg.h>
#include <string.h>
#include "device/events/event_bus.h"
#include "device/device.h"
#include "gfx/gfx_device.h"

const char *ws_fault_kind_name(ws_fault_kind k)
{
    switch (k) {
    case FAULT_NONE: return "no fault";
    case FAULT_ILLEGAL_INSTRUCTION: return "illegal instruction";
    case FAULT_FETCH: return "instruction access fault";
    case FAULT_LOAD: return "load access fault";
    case FAULT_STORE: return "store access fault";
    case FAULT_LOAD_MISALIGNED: return "misaligned load";
    case FAULT_STORE_MISALIGNED: return "misaligned store";
    case FAULT_BREAKPOINT: return "breakpoint";
    case FAULT_ECALL: return "environment call";
    case FAULT_ASSERT: return "device assert";
    case FAULT_TRAP: return "trap";
    case FAULT_DEADLOCK: return "deadlock";
    case FAULT_WATCHDOG: return "watchdog";
    case FAULT_MACHINE: return "stopped by a debug machine";
    case FAULT_INTERRUPTED: return "interrupted";
    }
    return "fault";
}

void ws_fault_raise(ws_device *dev, ws_warp *w, uint32_t lane, ws_fault_kind kind, uint32_t pc,
                    uint32_t addr, uint32_t size, const char *fmt, ...)
{
    /* In a parallel round each core keeps its own first fault; the round
     * reports the lowest core's (src/device/parallel.c). */
    ws_fault *f = dev->par_active && w ? &dev->cores[w->core].fault : &dev->fault;
    if (f->kind != FAULT_NONE) return; /* keep the first */
    ws_ev_emit(dev, WS_EV_MEM, WS_EV_MEM_FAULT, w ? w->core : 0, addr);
    f->kind = kind;
    f->pc = pc;
    f->addr = addr;
    f->size = size;
    f->core = w ? w->core : 0;
    f->warp = w ? w->slot : 0;
    f->lane = lane;
    if (w) {
        f->block = w->block->idx;
        f->thread = (ws_dim3){ w->tid[0][lane], w->tid[1][lane], w->tid[2][lane] };
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(f->detail, sizeof f->detail, fmt, ap);
    va_end(ap);
}

/* The warp of the faulting lane, still as the fault left it (a launch's
 * warps are released after its report is written), or NULL when the
 * fault is not a lane's. */
static const ws_warp *faulting_warp(const ws_device *dev, const ws_fault *f)
{
    if (!dev->current || f->core >= dev->cfg.cores || f->warp >= dev->cfg.warps_per_core ||
        f->lane >= dev->cfg.lanes_per_warp)
        return NULL;
    const ws_warp *w = &dev->cores[f->core].warps[f->warp];
    if (!w->active || !w->block || w->block->idx.x != f->block.x || w->block->idx.y != f->block.y ||
        w->block->idx.z != f->block.z || w->tid[0][f->lane] != f->thread.x || w->tid[1][f->lane] != f->thread.y ||
        w->tid[2][f->lane] != f->thread.z)
        return NULL;
    return w;
}

/* What ran: "kernel 'k' launch N", or for a shader launch its stage and
 * draw, "fragment shader 'fs' of draw D, launch N" (a shader is not a
 * kernel, and the draw is what the user issued). */
static void describe_launch(const ws_grid_run *L, char *buf, size_t len)
{
    if (!L) { snprintf(buf, len, "kernel '?' launch 0"); return; }
    unsigned long long lid = (unsigned long long)L->id;
    if (L->gfx)
        snprintf(buf, len, "%s shader '%s' of draw %u, launch %llu", L->gfx->fragment ? "fragment" : "vertex",
                 L->kernel_name, L->draw_id, lid);
    else
        snprintf(buf, len, "kernel '%s' launch %llu", L->kernel_name, lid);
}

void ws_fault_format(const ws_device *dev, char *buf, size_t len)
{
    const ws_fault *f = &dev->fault;
    const ws_grid_run *L = dev->current;
    char who[192];
    describe_launch(L, who, sizeof who);
    if (f->kind == FAULT_DEADLOCK || f->kind == FAULT_WATCHDOG || f->kind == FAULT_MACHINE || f->kind == FAULT_INTERRUPTED) {
        snprintf(buf, len, "%s: %s, %s", ws_fault_kind_name(f->kind), f->detail, who);
        return;
    }
    char dis[96] = "";
    if (ws_mem_in_global(&dev->mem, f->pc) && f->kind != FAULT_FETCH &&
        dev->mem.shadow[(f->pc - WS_GLOBAL_BASE) >> 3] == SHADOW_RX) {
        uint32_t bits = 0;
        memcpy(&bits, ws_mem_global_ptr(&dev->mem, f->pc), ws_inst_length(*(uint16_t *)ws_mem_global_ptr(&dev->mem, f->pc)));
        ws_inst in;
        ws_decode(bits, &in);
        ws_disasm(&in, f->pc, dis, sizeof dis);
    }
    char gfx[128] = "";
    if (L && L->gfx) /* which draw, vertex or pixel (grids of shader launches are 1-D) */
        ws_gfx_describe_thread(L, (uint64_t)f->block.x * L->threads_per_block + f->thread.x, gfx, sizeof gfx);
    int n = snprintf(buf, len,
                     "%s: %s; %s, block (%u,%u,%u) thread (%u,%u,%u) "
                     "[core %u warp %u lane %u]%s, pc 0x%08x%s%s%s",
                     ws_fault_kind_name(f->kind), f->detail, who, f->block.x, f->block.y,
                     f->block.z, f->thread.x, f->thread.y, f->thread.z, f->core, f->warp, f->lane, gfx, f->pc,
                     dis[0] ? " (" : "", dis, dis[0] ? ")" : "");
    /* the source line and the calls that led there get all the room left,
     * and shorten themselves to fit */
    if (dev->describe_pc && n >= 0 && (size_t)n + 1 < len)
        dev->describe_pc(dev, f->pc, faulting_warp(dev, f), f->lane, buf + n, len - (size_t)n);
}

/* Where the launch still runs: how many warps are resident and the first
 * (core order) with running lanes, else the first waiting one. */
static void where_running(const ws_device *dev, char *buf, size_t len)
{
    const ws_warp *pick = NULL;
    uint32_t resident = 0, pick_runs = 0;
    for (uint32_t c = 0; c < dev->cfg.cores; c++)
        for (uint32_t s = 0; s < dev->cfg.warps_per_core; s++) {
            const ws_warp *w = &dev->cores[c].warps[s];
            if (!w->active || !w->live || !w->block) continue;
            resident++;
            uint32_t runs = w->live & ~w->waiting;
            if (!pick || (runs && !pick_runs)) {
                pick = w;
                pick_runs = runs;
            }
        }
    buf[0] = 0;
    if (!pick) return;
    uint32_t l = (uint32_t)__builtin_ctz(pick_runs ? pick_runs : pick->live);
    uint32_t pc = pick->group >> l & 1 ? pick->group_pc : pick->pc[l];
    /* a shader's lane is a vertex or a pixel of a draw: name it, as a
     * lane's fault does (a hang at one pixel is a shader bug like any) */
    char gfx[128] = "";
    const ws_grid_run *L = dev->current;
    if (L && L->gfx) ws_gfx_describe_thread(L, ws_lane_grid_thread(L, pick, l), gfx, sizeof gfx);
    int n = snprintf(buf, len, "; %u warp%s resident, the first %s: block (%u,%u,%u) thread (%u,%u,%u) "
                     "[core %u warp %u lane %u]%s%s pc 0x%08x", resident, resident == 1 ? "" : "s",
                     pick_runs ? "still running" : "waiting", pick->block->idx.x, pick->block->idx.y,
                     pick->block->idx.z, pick->tid[0][l], pick->tid[1][l], pick->tid[2][l], pick->core,
                     pick->slot, l, gfx, gfx[0] ? "," : "", pc);
    if (dev->describe_pc && n >= 0 && (size_t)n + 1 < len) dev->describe_pc(dev, pc, pick, l, buf + n, len - (size_t)n);
}

ws_status ws_fault_host_stop(ws_device *dev, int why, uint64_t cycle)
{
    const ws_grid_run *L = dev->current;
    const unsigned long long done = L ? L->done_blocks : 0, total = L ? L->total_blocks : 0;
    char at[48] = "", *d = dev->fault.detail;
    if (cycle != UINT64_MAX) snprintf(at, sizeof at, ", cycle %llu", (unsigned long long)cycle);
    const int n = why == WS_HOST_INTERRUPT
                      ? snprintf(d, sizeof dev->fault.detail, "the host asked it to end (%llu blocks of %llu done%s)",
                                 done, total, at)
                      : snprintf(d, sizeof dev->fault.detail, "still running after %u ms (%llu blocks of %llu done%s); "
                                 "raise or disable watchdog_ms", dev->cfg.watchdog_ms, done, total, at);
    if (n >= 0 && (size_t)n < sizeof dev->fault.detail) /* where gets the rest of the detail */
        where_running(dev, d + n, sizeof dev->fault.detail - (size_t)n);
    dev->fault.kind = why == WS_HOST_INTERRUPT ? FAULT_INTERRUPTED : FAULT_WATCHDOG;
    return why == WS_HOST_INTERRUPT ? WS_ERR_INTERRUPTED : WS_ERR_TIMEOUT;
}

/* Every lane is retired or waiting at a barrier no one else will reach. */
void ws_deadlock_text(const ws_device *dev, char *d, size_t len)
{
    uint32_t waits[WS_MAX_BARRIERS] = { 0 }, blocks = 0;
    ws_dim3 first = { 0, 0, 0 };
    for (uint32_t c = 0; c < dev->cfg.cores; c++) {
        const ws_core *core = &dev->cores[c];
        for (uint32_t s = 0; s < core->nblock_slots; s++) {
            const ws_block *b = &core->blocks[s];
            if (!b->in_use) continue;
            if (!blocks++) first = b->idx;
            for (uint32_t i = 0; i < WS_MAX_BARRIERS; i++) waits[i] += b->arrived[i];
        }
    }
    char ids[256] = "";
    size_t n = 0;
    for (uint32_t i = 0; i < WS_MAX_BARRIERS && n < sizeof ids - 40; i++)
        if (waits[i]) n += (size_t)snprintf(ids + n, sizeof ids - n, "%s%u lanes at barrier %u",
                                            n ? ", " : "", waits[i], i);
    n = (size_t)snprintf(d, len,
                         "no lane can make progress in %u resident blocks (first: block (%u,%u,%u)): %s; "
                         "a barrier is probably inside divergent code or uses different ids",
                         blocks, first.x, first.y, first.z, ids[0] ? ids : "all lanes waiting");
    if (n < len) /* where gets the rest of the detail */
        where_running(dev, d + n, len - n);
}

void ws_raise_deadlock(ws_device *dev)
{
    ws_deadlock_text(dev, dev->fault.detail, sizeof dev->fault.detail);
    dev->fault.kind = FAULT_DEADLOCK;
}
