/* The replayer's small shared pieces: its error, object lookup by
 * capture id, the live-allocation list and a scratch buffer. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/replay_int.h"

ws_status rp_fail(ws_replay *r, ws_status st, const char *fmt, ...)
{
    char msg[700];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(r->err, sizeof r->err, "%s: %s", r->name, msg);
    return st;
}

rp_obj *rp_object(ws_replay *r, uint32_t id, rp_kind kind, const char *what)
{
    static const char *const kinds[] = { "nothing", "module", "kernel", "texture", "render target", "pipeline" };
    if (id >= r->nobj || r->obj[id]->kind != kind) {
        rp_fail(r, WS_ERR_BAD_MODULE, "%s names %s %u, which the capture does not define", what, kinds[kind], id);
        return NULL;
    }
    return r->obj[id];
}

uint8_t *rp_scratch(ws_replay *r, size_t n)
{
    if (n > r->scratch_size) {
        uint8_t *p = realloc(r->scratch, n);
        if (!p) return NULL;
        r->scratch = p;
        r->scratch_size = n;
    }
    return r->scratch;
}

int rp_live_add(ws_replay *r, uint32_t addr, uint64_t size)
{
    if (r->nlive == r->livecap) {
        size_t cap = r->livecap ? r->livecap * 2 : 16;
        rp_alloc *p = realloc(r->live, cap * sizeof *p);
        if (!p) return -1;
        r->live = p;
        r->livecap = cap;
    }
    size_t i = r->nlive;
    while (i && r->live[i - 1].addr > addr) { r->live[i] = r->live[i - 1]; i--; }
    r->live[i] = (rp_alloc){ addr, size, NULL, 0 };
    r->nlive++;
    return 0;
}

void rp_live_remove(ws_replay *r, uint32_t addr)
{
    for (size_t i = 0; i < r->nlive; i++)
        if (r->live[i].addr == addr) {
            memmove(&r->live[i], &r->live[i + 1], (r->nlive - i - 1) * sizeof *r->live);
            r->nlive--;
            return;
        }
}
