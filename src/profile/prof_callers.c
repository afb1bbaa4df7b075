/* The caller view: a sample in code outside the kernel's own compile unit
 * (the device library's printf, picolibc's memset, a 64-bit atomic helper,
 * another source file's function) is also charged to the call in the
 * kernel's unit that led there. The sampled warp's lowest active lane is
 * unwound at the cycle of the sample, with the CFI machinery of the fault
 * reports (ws_source_call_from), through the trace cells' host-side
 * observer: nothing the device simulates changes. */
#include <stdlib.h>
#include <string.h>
#include "device/device.h"
#include "profile/prof_internal.h"

static int in_kernel_unit(const prof_callers *c, uint32_t pc)
{
    for (size_t i = 0; i < c->nspans; i++)
        if (pc - c->spans[i].lo < c->spans[i].hi - c->spans[i].lo) return 1;
    return 0;
}

/* A lane's own next instruction (the group's lanes share group_pc). */
static uint32_t lane_next_pc(const ws_warp *w, uint32_t lane)
{
    return w->group >> lane & 1 ? w->group_pc : w->pc[lane];
}

/* The lane whose calls stand for the warp's: the lowest of those at the
 * sampled instruction. A stalled warp's mask holds all its runnable
 * lanes, and after a divergent call the lowest of them may wait in the
 * kernel's own code while another runs the callee (`if (t == 1)
 * printf(...)`): unwinding that one would charge the wrong call, and name
 * the sampled function as the callee. A warp that issued has its group in
 * the mask, already past the instruction: its lowest lane. */
static uint32_t sampled_lane(const ws_warp *w, const ws_trace_record *r)
{
    const uint32_t m = r->active_mask ? r->active_mask : w->live;
    uint32_t at = 0;
    for (uint32_t rest = m; rest; rest &= rest - 1) {
        const uint32_t lane = (uint32_t)__builtin_ctz(rest);
        if (lane_next_pc(w, lane) == r->pc) at |= 1u << lane;
    }
    const uint32_t pick = at ? at : m;
    return pick ? (uint32_t)__builtin_ctz(pick) : 0;
}

static void observe(void *user, const ws_device *dev, const struct ws_warp *w, const ws_trace_record *r)
{
    prof_callers *c = user;
    if (!c->nspans || in_kernel_unit(c, r->pc)) return;
    prof_callrec e;
    memset(&e, 0, sizeof e);
    if (ws_source_call_from(dev, c->cache, r->pc, w, sampled_lane(w, r), c->spans, c->nspans, &e.call, e.callee,
                            sizeof e.callee))
        return; /* no call in the kernel's unit (the exit stub, a corrupt stack) */
    if (c->npass == c->passcap) {
        size_t cap = c->passcap ? c->passcap * 2 : 256;
        prof_callrec *n = realloc(c->pass, cap * sizeof *n);
        if (!n) { c->failed = 1; return; }
        c->pass = n;
        c->passcap = cap;
    }
    e.cycle = r->cycle;
    e.core = r->core;
    e.warp = r->warp;
    c->pass[c->npass++] = e;
}

ws_status prof_callers_arm(ws_device *dev, prof_callers *c, uint32_t entry)
{
    c->npass = 0;
    if (!c->nspans) c->nspans = ws_source_unit_spans(dev, entry, c->spans, PROF_UNIT_SPANS);
    if (!c->cache) c->cache = ws_source_cache_new(); /* (NULL: each unwinding opens the modules) */
    return ws_trace_observe(dev, c->nspans ? observe : NULL, c);
}

static int by_sample(const void *a, const void *b)
{
    const prof_callrec *x = a, *y = b;
    if (x->cycle != y->cycle) return x->cycle < y->cycle ? -1 : 1;
    if (x->core != y->core) return x->core < y->core ? -1 : 1;
    return (x->warp > y->warp) - (x->warp < y->warp);
}

static const prof_callrec *find(const prof_callers *c, const ws_trace_record *r)
{
    prof_callrec key;
    memset(&key, 0, sizeof key);
    key.cycle = r->cycle;
    key.core = r->core;
    key.warp = r->warp;
    return bsearch(&key, c->pass, c->npass, sizeof key, by_sample);
}

/* Count a sample of a call site's callee: one entry per call and callee
 * (a call through a pointer reaches several). */
static int count_callee(prof_callers *c, const prof_callrec *e)
{
    for (size_t i = 0; i < c->nnames; i++)
        if (c->names[i].call == e->call && !strcmp(c->names[i].callee, e->callee)) {
            c->name_samples[i]++;
            return 0;
        }
    prof_callrec *n = realloc(c->names, (c->nnames + 1) * sizeof *n);
    if (!n) return -1;
    c->names = n;
    uint64_t *s = realloc(c->name_samples, (c->nnames + 1) * sizeof *s);
    if (!s) return -1;
    c->name_samples = s;
    c->names[c->nnames] = *e;
    c->name_samples[c->nnames++] = 1;
    return 0;
}

/* Note that call site `call` led to a sample at `pc`: one pair per
 * sample, summed when the array is full (and by prof_callers_reach). */
static int note_reach(prof_callers *c, uint32_t call, uint32_t pc)
{
    if (c->nreach == c->reachcap) {
        c->nreach = prof_reach_fold(c->reach, c->nreach);
        if (2 * c->nreach >= c->reachcap) { /* folding freed less than half: grow */
            size_t cap = c->reachcap ? 2 * c->reachcap : 256;
            prof_reach *r = realloc(c->reach, cap * sizeof *r);
            if (!r) return -1;
            c->reach = r;
            c->reachcap = cap;
        }
    }
    c->reach[c->nreach++] = (prof_reach){ call, pc, 1 };
    return 0;
}

int prof_callers_match(prof_callers *c, const ws_trace_record *rec, size_t n)
{
    if (!c->npass) return 0; /* (no sample of this pass outside the kernel's unit) */
    qsort(c->pass, c->npass, sizeof *c->pass, by_sample);
    for (size_t i = 0; i < n; i++) {
        const prof_callrec *e = find(c, &rec[i]);
        if (!e) continue;
        if (c->nsites == c->sitecap) {
            size_t cap = c->sitecap ? c->sitecap * 2 : 256;
            ws_trace_record *s = realloc(c->sites, cap * sizeof *s);
            if (!s) return -1;
            c->sites = s;
            c->sitecap = cap;
        }
        ws_trace_record *s = &c->sites[c->nsites++];
        *s = rec[i];
        s->pc = e->call;
        s->producer_pc = 0; /* what the callee waits on is the callee's line's */
        if (count_callee(c, e) || note_reach(c, e->call, rec[i].pc)) return -1;
    }
    c->npass = 0;
    return 0;
}

/* The callee entries, heaviest first, then by call and name: a total
 * order, so that the PROF_CALLEES kept per site do not depend on the
 * order the samples came in. */
typedef struct callee_ref {
    const prof_callers *c;
    size_t i;
} callee_ref;

static int heavier_callee(const void *a, const void *b)
{
    const callee_ref *x = a, *y = b;
    uint64_t sx = x->c->name_samples[x->i], sy = y->c->name_samples[y->i];
    if (sx != sy) return sx > sy ? -1 : 1;
    const prof_callrec *p = &x->c->names[x->i], *q = &y->c->names[y->i];
    if (p->call != q->call) return p->call < q->call ? -1 : 1;
    return strcmp(p->callee, q->callee);
}

static prof_pc *site_of(prof_pc *p, size_t n, uint32_t pc)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p[mid].pc < pc) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && p[lo].pc == pc ? &p[lo] : NULL;
}

int prof_callers_table(const prof_callers *c, prof_pc **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    if (!c->nsites) return 0;
    if (prof_aggregate(c->sites, c->nsites, out, nout)) return -1;
    callee_ref *order = malloc(c->nnames * sizeof *order);
    if (!order) return -1;
    for (size_t j = 0; j < c->nnames; j++) order[j] = (callee_ref){ c, j };
    qsort(order, c->nnames, sizeof *order, heavier_callee);
    for (size_t j = 0; j < c->nnames; j++) {
        const prof_callrec *e = &c->names[order[j].i];
        prof_pc *site = site_of(*out, *nout, e->call);
        if (site) prof_callee_add(site, e->callee, c->name_samples[order[j].i]);
    }
    free(order);
    return 0;
}

void prof_callers_reach(prof_callers *c, prof_reach **out, size_t *nout)
{
    *nout = prof_reach_fold(c->reach, c->nreach);
    *out = *nout ? c->reach : NULL;
    if (!*nout) free(c->reach);
    c->reach = NULL;
    c->nreach = c->reachcap = 0;
}

void prof_callers_mark_outside(const prof_callers *c, prof_pc *p, size_t n)
{
    for (size_t i = 0; i < n; i++) p[i].outside_unit = c->nspans && !in_kernel_unit(c, p[i].pc);
}

void prof_callers_free(prof_callers *c)
{
    ws_source_cache_free(c->cache);
    free(c->pass);
    free(c->sites);
    free(c->names);
    free(c->name_samples);
    free(c->reach);
    memset(c, 0, sizeof *c);
}
