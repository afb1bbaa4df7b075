/* Shader launches of the graphics pipeline and the device memory their
 * inputs and outputs live in: what the vertex and fragment stages share. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "gfx/gfx_int.h"

/* The device's graphics state, made on first use (also by gfx_cmd.c). */
ws_gfx_device *gfx_hw(ws_device *dev)
{
    if (!dev->gfx && (dev->gfx = calloc(1, sizeof *dev->gfx)))
        for (int i = 0; i < 256; i++) dev->gfx->unorm[i] = (float)i / 255.0f;
    return dev->gfx;
}

ws_status gfx_scratch(gfx_draw *d, uint64_t bytes, uint32_t *addr)
{
    ws_device *dev = d->dev;
    ws_gfx_device *g = gfx_hw(dev);
    if (!g) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "graphics: out of host memory");
    if (bytes > UINT32_MAX / 2)
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "draw %llu (shaders '%s', '%s'): %llu bytes of shader inputs "
                            "and outputs at once: more than device memory can hold (at most 2 GiB; split the draw)",
                            (unsigned long long)d->cmd->draw_id, d->st->pipe.vs.name, d->st->pipe.fs.name,
                            (unsigned long long)bytes);
    if (bytes > g->scratch_size) {
        /* Grow in powers of two (few reallocations), but settle for the exact
         * size when the power of two does not fit. */
        uint64_t want = g->scratch_size ? (uint64_t)g->scratch_size * 2 : 1u << 20;
        while (want < bytes) want *= 2;
        if (g->scratch) ws_mem_free(&dev->mem, g->scratch, REGION_DATA);
        g->scratch = g->scratch_size = 0;
        uint32_t a;
        if (want > UINT32_MAX / 2 || ws_mem_alloc(&dev->mem, (uint32_t)want, REGION_DATA, &a)) {
            want = bytes;
            if (ws_mem_alloc(&dev->mem, (uint32_t)want, REGION_DATA, &a))
                return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "draw %llu (shaders '%s', '%s'): no room in device "
                                    "memory for %llu bytes of shader inputs and outputs (raise global_mem_limit)",
                                    (unsigned long long)d->cmd->draw_id, d->st->pipe.vs.name, d->st->pipe.fs.name,
                                    (unsigned long long)want);
        }
        g->scratch = a;
        g->scratch_size = (uint32_t)want;
    }
    *addr = g->scratch;
    return WS_OK;
}

ws_status gfx_fault(gfx_draw *d, const char *fmt, ...)
{
    char msg[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return ws_set_error(d->dev, WS_ERR_KERNEL_FAULT, "draw %llu (shaders '%s', '%s'): %s",
                        (unsigned long long)d->cmd->draw_id, d->st->pipe.vs.name, d->st->pipe.fs.name, msg);
}

ws_status gfx_shade(gfx_draw *d, const ws_gfx_stage *s, int fragment, uint64_t threads, uint32_t *sysval,
                    const uint32_t base[3], const uint32_t stride[3], uint64_t *launch_id)
{
    ws_device *dev = d->dev;
    if (!threads) return WS_OK;
    uint32_t nl = dev->cfg.lanes_per_warp;
    ws_grid_run *L = calloc(1, sizeof *L);
    if (!L) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "graphics: out of host memory");
    ws_gfx_run run = { .st = d->st, .sysval = sysval, .fragment = fragment,
                       .instanced = d->cmd->instances > 1 || d->cmd->first_instance };
    L->id = dev->next_launch_id++;
    L->kernel = s->kernel;
    L->kernel_name = s->name;
    L->entry = s->entry;
    L->body = s->body;
    /* One warp per block: quads (4 consecutive lanes) never straddle warps. */
    L->block = (ws_dim3){ nl, 1, 1 };
    L->grid = (ws_dim3){ (uint32_t)((threads + nl - 1) / nl), 1, 1 };
    L->shared_total = s->shared_total;
    L->shared_lo = s->shared_lo;
    L->dyn_shared_addr = s->dyn_shared_addr;
    L->threads_per_block = nl;
    L->warps_per_block = 1;
    L->total_blocks = L->grid.x;
    L->ni = 3;
    for (int i = 0; i < 3; i++) {
        L->ireg[i] = base[i];
        L->ireg_stride[i] = stride[i];
    }
    L->gfx = &run;
    L->sysval = sysval;
    L->thread_limit = threads;
    L->draw_id = (uint32_t)d->cmd->draw_id;
    L->gfx_stage = fragment ? WS_GFX_STAGE_FRAGMENT : s->old_sysvals ? WS_GFX_STAGE_OLD_VERTEX : WS_GFX_STAGE_VERTEX;
    *launch_id = L->id;
    ws_status st = d->launch(dev, L);
    free(L);
    return st;
}
