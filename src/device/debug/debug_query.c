/* The command processor's debug queries: live lanes, the cores running a
 * launch or block, the last fault. Running warps are read as a probe on a
 * real device would see them: a snapshot that may already be stale. */
#include <stdio.h>
#include <string.h>
#include "device/debug/debug_internal.h"
#include "gfx/gfx_device.h"

ws_status ws_debug_lanes(ws_debug *d, ws_dbg_lane *out, size_t max, size_t *n)
{
    if (!d || !n || (max && !out)) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    ws_device *dev = d->dev;
    size_t k = 0;
    if (dev && dev->current)
        for (uint32_t i = 0; i < d->nwarps; i++) {
            const ws_warp *w = dbg_warp_of(d, i);
            const dbg_warp *dw = &d->w[i];
            if (!w->active) continue;
            for (uint32_t m = w->live; m; m &= m - 1) {
                uint32_t l = (uint32_t)__builtin_ctz(m);
                if (k < max) {
                    ws_dbg_lane *o = &out[k];
                    o->hart = i * d->lanes + l;
                    o->core = w->core;
                    o->warp = w->slot;
                    o->lane = l;
                    o->block = w->block->idx;
                    o->thread = (ws_dim3){ w->tid[0][l], w->tid[1][l], w->tid[2][l] };
                    o->launch_id = dev->current->id;
                    o->halted = dw->state == DW_HALTED;
                    o->cause = o->halted ? dw->cause : 0;
                    o->pc = (w->group >> l & 1) ? w->group_pc : w->pc[l];
                    o->depth = w->depth[l];
                    const ws_grid_run *L = dev->current;
                    o->gfx_stage = L->gfx ? (L->gfx->fragment ? 2 : 1) : 0;
                    o->draw = L->draw_id;
                    if (L->gfx && L->sysval) memcpy(o->sys, &L->sysval[ws_lane_grid_thread(L, w, l) * WS_GFX_SYSVALS], sizeof o->sys);
                    else memset(o->sys, 0, sizeof o->sys);
                }
                k++;
            }
        }
    *n = k;
    pthread_mutex_unlock(&d->mu);
    return WS_OK;
}

ws_status ws_debug_locate(ws_debug *d, uint64_t launch_id, const ws_dim3 *block, uint64_t *mask,
                          size_t mask_words)
{
    if (!d || (mask_words && !mask)) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    ws_status st = WS_OK;
    ws_device *dev = d->dev;
    if (mask_words) memset(mask, 0, mask_words * sizeof *mask);
    if (!dev) st = dbg_fail(d, WS_ERR_INVALID_ARG, "the device was closed");
    else if (!dev->current || (launch_id && dev->current->id != launch_id))
        st = dbg_fail(d, WS_ERR_NOT_FOUND, "launch %llu is not running",
                      (unsigned long long)launch_id);
    else
        for (uint32_t c = 0; c < dev->cfg.cores; c++) {
            const ws_core *core = &dev->cores[c];
            int hit = 0;
            for (uint32_t s = 0; s < core->nblock_slots && !hit; s++) {
                const ws_block *b = &core->blocks[s];
                hit = b->in_use && (!block || (b->idx.x == block->x && b->idx.y == block->y &&
                                               b->idx.z == block->z));
            }
            if (hit && c / 64 < mask_words) mask[c / 64] |= 1ull << (c % 64);
        }
    pthread_mutex_unlock(&d->mu);
    return st;
}

ws_status ws_debug_fault(ws_debug *d, ws_dbg_fault *out)
{
    if (!d || !out) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    ws_status st = WS_OK;
    if (d->have_fault) *out = d->fault;
    else st = dbg_fail(d, WS_ERR_NOT_FOUND, "no warp has stopped on a fault");
    pthread_mutex_unlock(&d->mu);
    return st;
}

ws_status ws_debug_fault_discard(ws_debug *d, uint32_t hart)
{
    if (!d) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    ws_status st = WS_OK;
    uint32_t w = d->lanes ? hart / d->lanes : 0;
    if (!d->dev || hart >= d->nharts)
        st = dbg_fail(d, WS_ERR_INVALID_ARG, "discarding a fault: hart %u is not a hart of the device (%u)", hart,
                      d->nharts);
    else if (d->w[w].state != DW_HALTED || !d->w[w].faulted || d->saved_fault[w].lane != hart % d->lanes)
        st = dbg_fail(d, WS_ERR_NOT_FOUND, "discarding a fault: hart %u is not halted on a fault of its own", hart);
    else {
        dbg_warp *dw = &d->w[w];
        dw->faulted = 0;
        dw->fault_after_step = 0;
        if (dw->cause == WS_DCSR_CAUSE_FAULT) dw->cause = WS_DCSR_CAUSE_HALTREQ;
        memset(&d->saved_fault[w], 0, sizeof d->saved_fault[w]);
        if (d->have_fault && d->fault.hart == hart) d->have_fault = 0;
    }
    pthread_mutex_unlock(&d->mu);
    return st;
}

ws_status ws_debug_launch(ws_debug *d, ws_dbg_launch *out)
{
    if (!d || !out) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    const ws_grid_run *L = d->dev ? d->dev->current : NULL;
    if (L) {
        memset(out, 0, sizeof *out);
        out->id = L->id;
        snprintf(out->kernel, sizeof out->kernel, "%s", L->kernel_name);
        out->entry = L->entry;
        out->body = L->body;
        out->grid = L->grid;
        out->block = L->block;
        out->blocks_total = L->total_blocks;
        out->blocks_dispatched = L->next_block;
        out->blocks_done = L->done_blocks;
    }
    pthread_mutex_unlock(&d->mu);
    return L ? WS_OK : WS_ERR_NOT_FOUND;
}

/* WS_OK if `warp` exists and is halted (d->mu held), else the error. */
static ws_status halted_warp(ws_debug *d, uint32_t warp)
{
    if (!d->dev || warp >= d->nwarps) return dbg_fail(d, WS_ERR_INVALID_ARG, "warp %u does not exist", warp);
    if (d->w[warp].state != DW_HALTED) return dbg_fail(d, WS_ERR_BUSY, "warp %u is running", warp);
    return WS_OK;
}

ws_status ws_debug_warp_regs(ws_debug *d, uint32_t warp, ws_dbg_warp_regs *out)
{
    if (!d || !out) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    ws_status st = halted_warp(d, warp);
    if (st == WS_OK) {
        const ws_warp *w = dbg_warp_of(d, warp);
        uint32_t n = d->lanes;
        for (uint32_t r = 0; r < 32; r++) {
            memcpy(out->x[r], w->x[r], n * sizeof(uint32_t));
            memcpy(out->f[r], w->f[r], n * sizeof(uint32_t));
        }
        memcpy(out->pc, w->pc, n * sizeof(uint32_t)); /* halted: no issuing group */
        memcpy(out->fflags, w->fflags, n);
        memcpy(out->frm, w->frm, n);
    }
    pthread_mutex_unlock(&d->mu);
    return st;
}

ws_status ws_debug_step_exclude(ws_debug *d, uint32_t warp, uint32_t lanes)
{
    if (!d) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    ws_status st = halted_warp(d, warp);
    if (st == WS_OK) {
        ws_warp *w = (ws_warp *)dbg_warp_of(d, warp);
        if (w->group) ws_simt_leave_group(w); /* the next step picks its group afresh */
        w->step_exclude = lanes;
    }
    pthread_mutex_unlock(&d->mu);
    return st;
}

ws_status ws_debug_step_range(ws_debug *d, uint32_t warp, const ws_dbg_step_range *r)
{
    if (!d || !r || r->nranges > WS_DBG_STEP_RANGES || r->lane >= WS_MAX_LANES) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    ws_status st = halted_warp(d, warp);
    if (st == WS_OK && r->lane >= d->lanes) st = dbg_fail(d, WS_ERR_INVALID_ARG, "lane %u does not exist", r->lane);
    if (st == WS_OK) {
        d->w[warp].range = *r;
        d->w[warp].ranging = 1;
        d->w[warp].range_past = 0;
    }
    pthread_mutex_unlock(&d->mu);
    return st;
}

ws_status ws_debug_step_range_past(ws_debug *d, uint32_t warp, uint32_t *past)
{
    if (!d || !past) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    ws_status st = halted_warp(d, warp);
    if (st == WS_OK) *past = d->w[warp].range_past;
    pthread_mutex_unlock(&d->mu);
    return st;
}

ws_status ws_debug_step_lanes(ws_debug *d, uint32_t warp, uint32_t *lanes)
{
    if (!d || !lanes) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    ws_status st = halted_warp(d, warp);
    if (st == WS_OK) *lanes = d->w[warp].step_issued;
    pthread_mutex_unlock(&d->mu);
    return st;
}
