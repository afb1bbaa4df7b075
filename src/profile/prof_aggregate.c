/* Sample aggregation: records -> per-PC counts with the state breakdown
 * and the most-waited-on producer; launches -> kernels; PCs -> lines.
 * Every sort has a total order so reports are byte-identical run to run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "profile/prof_internal.h"

typedef struct key { uint32_t pc, producer; uint8_t state; } key;

static int by_key(const void *a, const void *b)
{
    const key *x = a, *y = b;
    if (x->pc != y->pc) return x->pc < y->pc ? -1 : 1;
    if (x->producer != y->producer) return x->producer < y->producer ? -1 : 1;
    return (int)x->state - (int)y->state;
}

int prof_aggregate(const ws_trace_record *rec, size_t n, prof_pc **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    if (!n) return 0;
    key *k = malloc(n * sizeof *k);
    prof_pc *p = calloc(n, sizeof *p);
    if (!k || !p) { free(k); free(p); return -1; }
    for (size_t i = 0; i < n; i++) {
        k[i].pc = rec[i].pc;
        k[i].producer = rec[i].producer_pc;
        k[i].state = rec[i].state < WS_STATE_COUNT ? rec[i].state : WS_STATE_MISC;
    }
    qsort(k, n, sizeof *k, by_key);
    size_t np = 0;
    for (size_t i = 0; i < n;) {
        prof_pc *e = &p[np++];
        e->pc = k[i].pc;
        size_t j = i;
        while (j < n && k[j].pc == e->pc) {
            /* One run per producer: the largest run names the producer
             * (ties go to the lower address, by the sort order). */
            size_t r = j;
            uint64_t waits = 0, mem = 0;
            while (r < n && k[r].pc == e->pc && k[r].producer == k[j].producer) {
                e->state[k[r].state]++;
                e->samples++;
                mem += k[r].state == WS_STATE_LONG_SCOREBOARD || k[r].state == WS_STATE_SHORT_SCOREBOARD;
                r++;
                waits++;
            }
            /* Memory waits (long/short scoreboard) name the producer
             * before ALU waits do: the report's "N% long_scoreboard,
             * waiting on ..." must name what those samples wait for. */
            if (k[j].producer && (mem ? !e->producer_memory || mem > e->producer_samples
                                      : !e->producer_memory && waits > e->producer_samples)) {
                e->producer_samples = mem ? mem : waits;
                e->producer_memory = mem > 0;
                e->producer_pc = k[j].producer;
            }
            j = r;
        }
        i = j;
    }
    free(k);
    *out = p;
    *nout = np;
    return 0;
}

typedef struct point_rec { uint64_t cycle; uint8_t state; } point_rec;

static int by_cycle(const void *a, const void *b)
{
    const point_rec *x = a, *y = b;
    if (x->cycle != y->cycle) return x->cycle < y->cycle ? -1 : 1;
    return (int)x->state - (int)y->state;
}

int prof_point_spread(const ws_trace_record *rec, size_t n, prof_spread *out)
{
    memset(out, 0, sizeof *out);
    if (!n) return 0;
    point_rec *r = malloc(n * sizeof *r);
    if (!r) return -1;
    for (size_t i = 0; i < n; i++)
        r[i] = (point_rec){ rec[i].cycle, rec[i].state < WS_STATE_COUNT ? rec[i].state : WS_STATE_MISC };
    qsort(r, n, sizeof *r, by_cycle);
    for (size_t i = 0; i < n;) {
        uint64_t y[WS_STATE_COUNT] = { 0 }, m = 0;
        size_t j = i;
        for (; j < n && r[j].cycle == r[i].cycle; j++, m++) y[r[j].state]++;
        out->points++;
        out->mm += m * m;
        for (int s = 0; s < WS_STATE_COUNT; s++) {
            out->ym[s] += y[s] * m;
            out->yy[s] += y[s] * y[s];
        }
        i = j;
    }
    free(r);
    return 0;
}

void prof_spread_add(prof_spread *acc, const prof_spread *add)
{
    acc->points += add->points;
    acc->mm += add->mm;
    for (int s = 0; s < WS_STATE_COUNT; s++) {
        acc->ym[s] += add->ym[s];
        acc->yy[s] += add->yy[s];
    }
}

double prof_share_error(const prof_spread *s, unsigned state, uint64_t y, uint64_t m)
{
    if (s->points < 2 || !m || state >= WS_STATE_COUNT) return 0;
    const double p = (double)y / (double)m, k = (double)s->points;
    /* Σ (y_i - p m_i)² expanded over the sums; rounding may leave a tiny negative */
    double ss = (double)s->yy[state] - 2 * p * (double)s->ym[state] + p * p * (double)s->mm;
    return ss > 0 ? sqrt(k / (k - 1) * ss) / (double)m : 0;
}

double prof_kernel_share_error(const prof_kernel *k)
{
    if (!k->samples) return 1;
    double worst = 0.5 / sqrt((double)k->samples);
    for (unsigned s = 0; s < WS_STATE_COUNT; s++)
        if (k->state[s]) {
            double e = prof_share_error(&k->spread, s, k->state[s], k->samples);
            if (e > worst) worst = e;
        }
    return worst;
}

/* Barrier peers. A sample (one cycle) shows every resident warp of a core
 * in "all warps" mode; the warps of one block that are not waiting at a
 * barrier while others of the block are, are the ones those wait for
 * (but not warps that have exited and drain their stores: they hold no
 * barrier back). */
typedef struct bkey { uint64_t cycle, block; uint16_t core; uint8_t waiting; uint32_t pc; } bkey;

static int by_bkey(const void *a, const void *b)
{
    const bkey *x = a, *y = b;
    if (x->cycle != y->cycle) return x->cycle < y->cycle ? -1 : 1;
    if (x->core != y->core) return x->core < y->core ? -1 : 1;
    if (x->block != y->block) return x->block < y->block ? -1 : 1;
    if (x->waiting != y->waiting) return x->waiting ? -1 : 1;  /* the waiting warps first */
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static int by_peer(const void *a, const void *b)
{
    const prof_peer *x = a, *y = b;
    if (x->barrier_pc != y->barrier_pc) return x->barrier_pc < y->barrier_pc ? -1 : 1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* Sort and add up equal pairs in place; returns the new count. */
static size_t peers_fold(prof_peer *p, size_t n)
{
    if (!n) return 0;
    qsort(p, n, sizeof *p, by_peer);
    size_t k = 0;
    for (size_t i = 1; i < n; i++) {
        if (p[i].barrier_pc == p[k].barrier_pc && p[i].pc == p[k].pc) p[k].samples += p[i].samples;
        else p[++k] = p[i];
    }
    return k + 1;
}

int prof_barrier_peers(const ws_trace_record *rec, size_t n, prof_peer **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    if (n < 2) return 0;
    bkey *k = malloc(n * sizeof *k);
    if (!k) return -1;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        if (rec[i].state == WS_STATE_DRAIN) continue;
        k[m].cycle = rec[i].cycle;
        k[m].block = rec[i].block;
        k[m].core = rec[i].core;
        k[m].waiting = rec[i].state == WS_STATE_BARRIER;
        k[m++].pc = rec[i].pc;
    }
    n = m;
    qsort(k, n, sizeof *k, by_bkey);
    prof_peer *p = NULL;
    size_t np = 0, cap = 0;
    int fail = 0;
    for (size_t i = 0; i < n && !fail;) {
        size_t j = i;
        while (j < n && k[j].cycle == k[i].cycle && k[j].core == k[i].core && k[j].block == k[i].block) j++;
        size_t w = i; /* [i, w): waiting, sorted by barrier */
        while (w < j && k[w].waiting) w++;
        for (size_t b = i; b < w && !fail; b++) {
            if (b > i && k[b].pc == k[b - 1].pc) continue; /* one count per distinct barrier */
            for (size_t o = w; o < j; o++) {
                /* full: add up equal pairs first, grow if that frees less than half */
                if (np == cap) {
                    if (cap) np = peers_fold(p, np);
                    if (2 * np >= cap) {
                        size_t nc = cap ? 2 * cap : 256;
                        prof_peer *q = realloc(p, nc * sizeof *q);
                        if (!q) { fail = 1; break; }
                        p = q;
                        cap = nc;
                    }
                }
                p[np].barrier_pc = k[b].pc;
                p[np].pc = k[o].pc;
                p[np++].samples = 1;
            }
        }
        i = j;
    }
    free(k);
    if (fail) { free(p); return -1; }
    *out = p;
    *nout = peers_fold(p, np);
    return 0;
}

int prof_peers_merge(prof_peer **acc, size_t *nacc, const prof_peer *add, size_t nadd)
{
    if (!nadd) return 0;
    prof_peer *r = realloc(*acc, (*nacc + nadd) * sizeof *r);
    if (!r) return -1;
    memcpy(r + *nacc, add, nadd * sizeof *r);
    *acc = r;
    *nacc = peers_fold(r, *nacc + nadd);
    return 0;
}

static int by_reach(const void *a, const void *b)
{
    const prof_reach *x = a, *y = b;
    if (x->call != y->call) return x->call < y->call ? -1 : 1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

size_t prof_reach_fold(prof_reach *r, size_t n)
{
    if (!n) return 0;
    qsort(r, n, sizeof *r, by_reach);
    size_t k = 0;
    for (size_t i = 1; i < n; i++) {
        if (r[i].call == r[k].call && r[i].pc == r[k].pc) r[k].samples += r[i].samples;
        else r[++k] = r[i];
    }
    return k + 1;
}

int prof_reach_merge(prof_reach **acc, size_t *nacc, const prof_reach *add, size_t nadd)
{
    if (!nadd) return 0;
    prof_reach *r = realloc(*acc, (*nacc + nadd) * sizeof *r);
    if (!r) return -1;
    memcpy(r + *nacc, add, nadd * sizeof *r);
    *acc = r;
    *nacc = prof_reach_fold(r, *nacc + nadd);
    return 0;
}

double prof_pct(uint64_t a, uint64_t b) { return b ? 100.0 * (double)a / (double)b : 0.0; }

uint64_t prof_exact_cycles(const ws_pc_counter *e)
{
    uint64_t c = 0;
    for (int s = 0; s < WS_STATE_COUNT; s++) c += e->stall_cycles[s];
    return c;
}

void prof_exact_add(ws_pc_counter *acc, const ws_pc_counter *add)
{
    acc->warp_instructions += add->warp_instructions;
    acc->thread_instructions += add->thread_instructions;
    acc->shared_requests += add->shared_requests;
    acc->shared_wavefronts += add->shared_wavefronts;
    acc->gmem_requests += add->gmem_requests;
    acc->gmem_sectors += add->gmem_sectors;
    acc->local_requests += add->local_requests;
    for (int s = 0; s < WS_STATE_COUNT; s++) acc->stall_cycles[s] += add->stall_cycles[s];
    acc->exit_drains += add->exit_drains;
}

static int exact_any(const ws_pc_counter *e)
{
    if (e->warp_instructions || e->shared_requests || e->gmem_requests) return 1;
    for (int s = 0; s < WS_STATE_COUNT; s++)
        if (e->stall_cycles[s]) return 1;
    return 0;
}

int prof_exact_table(const ws_pc_counters *c, prof_pc **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    size_t n = 0;
    for (size_t i = 0; i < c->n; i++) n += exact_any(&c->e[i]);
    prof_pc *p = calloc(n + 1, sizeof *p);
    if (!p) return -1;
    size_t k = 0;
    for (size_t i = 0; i < c->n; i++)
        if (exact_any(&c->e[i])) {
            p[k].pc = c->lo + 2 * (uint32_t)i;
            p[k++].exact = c->e[i];
        }
    if (exact_any(&c->outside)) { /* above every module address: the table stays sorted */
        p[k].pc = WS_RETIRE_ADDR;
        p[k++].exact = c->outside;
    }
    *out = p;
    *nout = k;
    return 0;
}

void prof_src_free(prof_src *s)
{
    free(s->file);
    free(s->function);
    free(s->inline_chain);
    memset(s, 0, sizeof *s);
}

static char *dup_or_null(const char *s, int *fail)
{
    if (!s) return NULL;
    char *d = strdup(s);
    if (!d) *fail = 1;
    return d;
}

int prof_src_copy(prof_src *dst, const prof_src *src)
{
    int fail = 0;
    dst->line = src->line;
    dst->file = dup_or_null(src->file, &fail);
    dst->function = dup_or_null(src->function, &fail);
    dst->inline_chain = dup_or_null(src->inline_chain, &fail);
    return fail ? -1 : 0;
}

void prof_pcs_free(prof_pc *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        prof_src_free(&p[i].src);
        prof_src_free(&p[i].producer_src);
    }
    free(p);
}

static int lighter_callee(const prof_callee *a, const prof_callee *b)
{
    if (a->samples != b->samples) return a->samples < b->samples;
    return strcmp(a->name, b->name) > 0;
}

void prof_callee_add(prof_pc *p, const char *name, uint64_t n)
{
    uint32_t i = 0;
    while (i < p->ncallees && strcmp(p->callees[i].name, name)) i++;
    if (i == p->ncallees) {
        if (p->ncallees == PROF_CALLEES) { /* (beyond the heaviest few: counted together) */
            p->other_callee_samples += n;
            return;
        }
        p->ncallees++;
        snprintf(p->callees[i].name, sizeof p->callees[i].name, "%s", name);
        p->callees[i].samples = 0;
    }
    p->callees[i].samples += n;
    for (; i > 0 && lighter_callee(&p->callees[i - 1], &p->callees[i]); i--) { /* keep them heaviest first */
        prof_callee t = p->callees[i];
        p->callees[i] = p->callees[i - 1];
        p->callees[i - 1] = t;
    }
}

/* The callees of call site b join a's (launches of one kernel). */
static void merge_callees(prof_pc *a, const prof_pc *b)
{
    for (uint32_t i = 0; i < b->ncallees; i++) prof_callee_add(a, b->callees[i].name, b->callees[i].samples);
    a->other_callee_samples += b->other_callee_samples;
}

static int copy_pc(prof_pc *dst, const prof_pc *src)
{
    *dst = *src;
    memset(&dst->src, 0, sizeof dst->src);
    memset(&dst->producer_src, 0, sizeof dst->producer_src);
    return prof_src_copy(&dst->src, &src->src) | prof_src_copy(&dst->producer_src, &src->producer_src);
}

/* Both inputs sorted by pc; the result too. Producer: the same one adds
 * up; otherwise the one with more samples wins (only the top producer of
 * each launch is kept). */
int prof_merge(prof_pc **acc, size_t *nacc, const prof_pc *add, size_t nadd)
{
    prof_pc *a = *acc, *r = calloc(*nacc + nadd + 1, sizeof *r);
    if (!r) return -1;
    size_t i = 0, j = 0, n = 0;
    int fail = 0;
    while (i < *nacc || j < nadd) {
        if (j == nadd || (i < *nacc && a[i].pc < add[j].pc)) {
            r[n++] = a[i];          /* ownership moves */
            memset(&a[i].src, 0, sizeof a[i].src);
            memset(&a[i].producer_src, 0, sizeof a[i].producer_src);
            i++;
        } else if (i == *nacc || add[j].pc < a[i].pc) {
            fail |= copy_pc(&r[n++], &add[j++]);
        } else {
            prof_pc *e = &r[n++];
            *e = a[i];
            memset(&a[i].src, 0, sizeof a[i].src);
            memset(&a[i].producer_src, 0, sizeof a[i].producer_src);
            e->samples += add[j].samples;
            for (int s = 0; s < WS_STATE_COUNT; s++) e->state[s] += add[j].state[s];
            prof_exact_add(&e->exact, &add[j].exact);
            merge_callees(e, &add[j]);
            if (add[j].producer_pc && add[j].producer_pc == e->producer_pc &&
                add[j].producer_memory == e->producer_memory) {
                e->producer_samples += add[j].producer_samples;
            } else if (add[j].producer_pc && (add[j].producer_memory > e->producer_memory ||
                       (add[j].producer_memory == e->producer_memory &&
                        add[j].producer_samples > e->producer_samples))) {
                prof_src_free(&e->producer_src);
                e->producer_pc = add[j].producer_pc;
                e->producer_samples = add[j].producer_samples;
                e->producer_memory = add[j].producer_memory;
                memcpy(e->producer_disasm, add[j].producer_disasm, sizeof e->producer_disasm);
                e->producer_waw = add[j].producer_waw;
                fail |= prof_src_copy(&e->producer_src, &add[j].producer_src);
            }
            i++;
            j++;
        }
    }
    prof_pcs_free(a, *nacc);
    *acc = r;
    *nacc = n;
    return fail ? -1 : 0;
}

int prof_top_stall(const uint64_t state[WS_STATE_COUNT])
{
    int best = -1;
    for (int s = 0; s < WS_STATE_COUNT; s++)
        if (s != WS_STATE_SELECTED && state[s] && (best < 0 || state[s] > state[best])) best = s;
    return best;
}

static int by_samples_kernel(const void *a, const void *b)
{
    const prof_kernel *x = a, *y = b;
    if (x->samples != y->samples) return x->samples > y->samples ? -1 : 1;
    if (x->cycles != y->cycles) return x->cycles > y->cycles ? -1 : 1;
    int c = strcmp(x->kernel, y->kernel);
    return c ? c : strcmp(x->module, y->module);
}

int prof_kernels_build(const prof_data *d, prof_kernel **out, size_t *nout)
{
    prof_kernel *k = calloc(d->nlaunches + 1, sizeof *k);
    if (!k) return -1;
    size_t n = 0;
    int fail = 0;
    for (size_t i = 0; i < d->nlaunches; i++) {
        const prof_launch *L = &d->launches[i];
        size_t j = 0;
        while (j < n && (strcmp(k[j].kernel, L->kernel) || strcmp(k[j].module, L->module))) j++;
        if (j == n) {
            k[n].kernel = L->kernel, k[n].module = L->module, k[n].stage = L->stage;
            k[n].stack_param = L->stack_param;
            n++;
        }
        prof_kernel *e = &k[j];
        /* How many of its warps' lanes the blocks fill: a block of 8
         * threads runs every instruction on 8 of 32 lanes, branch or not. */
        uint64_t tpb = (uint64_t)L->block.x * L->block.y * L->block.z;
        uint64_t blocks = (uint64_t)L->grid.x * L->grid.y * L->grid.z;
        uint32_t lanes = d->cfg->lanes_per_warp ? d->cfg->lanes_per_warp : 1;
        e->block_threads += blocks * tpb;
        e->block_lanes += blocks * ((tpb + lanes - 1) / lanes) * lanes;
        e->block_size = !e->launches || e->block_size == tpb ? (uint32_t)tpb : 0;
        e->launches++;
        e->samples += L->samples;
        e->cycles += L->cycles;
        e->dropped += L->dropped;
        e->overflowed += L->overflowed;
        for (size_t p = 0; p < L->npcs; p++)
            for (int s = 0; s < WS_STATE_COUNT; s++) e->state[s] += L->pcs[p].state[s];
        prof_spread_add(&e->spread, &L->spread);
        for (unsigned u = 0; L->counters.valid && u < PROF_UNITS; u++) {
            e->unit_busy[u] += L->counters.unit_busy[u];
            e->unit_capacity[u] += L->counters.cycles * L->counters.unit_instances[u];
        }
        if (L->limits.valid) {
            e->occ_theoretical += (double)L->counters.cycles * L->limits.theoretical_occupancy;
            e->occ_achieved += (double)L->counters.cycles * L->limits.achieved_occupancy;
            e->occ_cycles += L->counters.cycles;
            e->global_latency = L->limits.global_latency;
            e->sector_cycles = L->limits.sector_cycles;
        }
        if (prof_merge(&e->pcs, &e->npcs, L->pcs, L->npcs) || prof_merge(&e->calls, &e->ncalls, L->calls, L->ncalls) ||
            prof_reach_merge(&e->reach, &e->nreach, L->reach, L->nreach) || prof_peers_merge(&e->peers, &e->npeers, L->peers, L->npeers)) fail = 1;
    }
    qsort(k, n, sizeof *k, by_samples_kernel);
    *out = k;
    *nout = n;
    if (fail) { prof_kernels_free(k, n); *out = NULL; *nout = 0; return -1; }
    return 0;
}

void prof_kernels_free(prof_kernel *k, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        prof_pcs_free(k[i].pcs, k[i].npcs);
        prof_pcs_free(k[i].calls, k[i].ncalls);
        free(k[i].reach);
        free(k[i].peers);
    }
    free(k);
}

int prof_line_has(const prof_line *l, const prof_pc *p)
{
    if (!l->file || !p->src.file) return !l->file && !p->src.file && l->line == p->pc;
    if (l->line != p->src.line || strcmp(l->file, p->src.file)) return 0;
    /* line 0, code without a line: one per function, so an inlined
     * callee's (--inline callee) is not labelled with its caller's name */
    return l->line || !strcmp(l->function ? l->function : "", p->src.function ? p->src.function : "");
}

int prof_line_is_exit(const prof_line *l)
{
    return !l->file && l->line == WS_RETIRE_ADDR;
}

uint64_t prof_lines_cycles(const prof_line *l, size_t n)
{
    uint64_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (!prof_line_is_exit(&l[i])) c += prof_exact_cycles(&l[i].exact);
    return c;
}

static int by_samples_line(const void *a, const void *b)
{
    const prof_line *x = a, *y = b;
    if (x->samples != y->samples) return x->samples > y->samples ? -1 : 1;
    /* equal samples (none, in a kernel shorter than the first sampling
     * point): the exact warp-cycles say which is hotter */
    uint64_t cx = prof_exact_cycles(&x->exact), cy = prof_exact_cycles(&y->exact);
    if (cx != cy) return cx > cy ? -1 : 1;
    int c = strcmp(x->file ? x->file : "", y->file ? y->file : "");
    if (c) return c;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    return strcmp(x->function ? x->function : "", y->function ? y->function : "");
}

/* Lines of a kernel, hottest first. PCs without a line (no DWARF) are one
 * line of their own each (file NULL). */
int prof_lines_build(const prof_pc *p, size_t n, prof_line **out, size_t *nout)
{
    prof_line *l = calloc(n + 1, sizeof *l);
    if (!l) return -1;
    size_t nl = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        if (p[i].src.file)
            while (j < nl && !prof_line_has(&l[j], &p[i])) j++;
        else
            j = nl;
        if (j == nl) {
            l[nl].file = p[i].src.file;
            l[nl].function = p[i].src.function;
            l[nl].line = p[i].src.file ? p[i].src.line : p[i].pc; /* no line: show the PC */
            nl++;
        }
        prof_line *e = &l[j];
        e->samples += p[i].samples;
        prof_exact_add(&e->exact, &p[i].exact);
        for (int s = 0; s < WS_STATE_COUNT; s++) e->state[s] += p[i].state[s];
        /* Keep the two largest waits on distinct producers. */
        const prof_pc *c = &p[i];
        uint64_t cs = c->producer_memory ? c->producer_samples : 0; /* the line names memory waits' producers */
        if (!cs) continue;
        if (e->top_producer_pc && e->top_producer_pc->producer_pc == c->producer_pc) {
            if (cs > e->producer_samples) { e->producer_samples = cs; e->top_producer_pc = c; }
        } else if (cs > e->producer_samples) {
            e->second_producer_pc = e->top_producer_pc;
            e->second_samples = e->producer_samples;
            e->producer_samples = cs;
            e->top_producer_pc = c;
        } else if (cs > e->second_samples) {
            e->second_samples = cs;
            e->second_producer_pc = c;
        }
    }
    qsort(l, nl, sizeof *l, by_samples_line);
    *out = l;
    *nout = nl;
    return 0;
}
