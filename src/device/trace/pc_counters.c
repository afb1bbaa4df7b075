/* Instruction counters (pc_counters.h): the table and its range. */
#include <stdlib.h>
#include <string.h>
#include "device/trace/pc_counters.h"

ws_status ws_pc_counters_arm(ws_device *dev, int on)
{
    if (!dev->pcc && on && !(dev->pcc = calloc(1, sizeof *dev->pcc)))
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "instruction counters: out of host memory");
    if (dev->pcc) dev->pcc->armed = on;
    return WS_OK;
}

void ws_pc_counters_launch_begin(ws_device *dev, const ws_grid_run *L)
{
    ws_pc_counters *p = dev->pcc;
    if (!p || !p->armed) return;
    p->lo = p->hi = 0;
    p->n = 0;
    memset(&p->outside, 0, sizeof p->outside);
    for (size_t i = 0; i < dev->ncode; i++) { /* the module holding the kernel */
        const ws_code_region *r = &dev->code[i];
        if (L->entry < r->base || L->entry - r->base >= r->size) continue;
        /* Only its code (data and constants follow; a table for them
         * would be cleared for nothing at every launch). */
        uint32_t lo = r->text_lo, hi = r->text_hi;
        if (!(lo <= L->entry && L->entry < hi)) { lo = r->base; hi = r->base + r->size; }
        size_t n = (hi - lo) / 2;
        if (n > p->cap) {
            ws_pc_counter *e = realloc(p->e, n * sizeof *e);
            if (!e) return; /* nothing counted: the range stays empty */
            p->e = e;
            p->cap = n;
        }
        memset(p->e, 0, n * sizeof *p->e);
        p->lo = lo;
        p->hi = hi;
        p->n = n;
        break;
    }
    p->launch_id = L->id;
}

const ws_pc_counters *ws_pc_counters_get(const ws_device *dev)
{
    return dev->pcc && dev->pcc->n ? dev->pcc : NULL;
}

void ws_pc_counters_free(ws_device *dev)
{
    if (!dev->pcc) return;
    free(dev->pcc->e);
    free(dev->pcc);
    dev->pcc = NULL;
}
