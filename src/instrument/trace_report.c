/* The text reports of the built-in tools, written at device close:
 *   bbcount  — instructions per launch against the device's own counter,
 *              the source lines that ran most, and the instruction mix
 *              (trace_mix.c);
 *   memtrace — accesses against the device's memory counters, the sizing
 *              (records reserved = buffer size, nothing dropped), and per
 *              source line: accesses, warp requests, 32-byte sectors per
 *              request (coalescing), shared-memory bank conflicts, bytes. */
#include <stdlib.h>
#include <string.h>
#include "instrument/tracer.h"
#include "instrument/tracer_int.h"
#include "isa/isa.h"
#include "runtime/path_text.h"
#include "warpscope/abi.h"

typedef struct line_stat {
    uint32_t addr;              /* one instruction of the line (memtrace: the memory instruction) */
    char where[160];
    uint64_t value;             /* bbcount: instructions executed */
    uint64_t accesses, requests, sectors, bytes, conflicts, shared_requests;
    uint8_t kind;
    uint8_t space;              /* memtrace: 0 global, 1 shared, 2 local (stack) */
} line_stat;

void tr_where(const tr_twin *tw, uint32_t addr, char *buf, size_t n)
{
    ws_line_info li;
    if (!tw || !tw->lines || ws_line_map_lookup(tw->lines, addr, &li) || !li.file) {
        /* no line (library code built without -g): the function says what ran */
        const char *fn = tw ? ws_line_map_symbol(tw->lines, addr) : NULL;
        if (fn) snprintf(buf, n, "0x%08x (%s)", addr, fn);
        else snprintf(buf, n, "0x%08x", addr);
    } else if (!li.line) {
        /* code the compiler gave no line (a jump table's load, a merged
         * tail): named by its function, as the profiler does, not lumped
         * together over the module as one "line 0" */
        const char *fn = li.function ? li.function : li.outer;
        snprintf(buf, n, "%s:0 (%s)", ws_path_base(li.file), fn ? fn : "?");
    } else {
        snprintf(buf, n, "%s:%u", ws_path_base(li.file), li.line);
    }
}

const char *tr_check(const ws_trace_launch *L, uint64_t a, uint64_t b)
{
    if (L->flags & WS_TRACE_FAULTED) return "not compared: the launch faulted";
    return a == b ? "match" : "MISMATCH";
}

static int by_value(const void *a, const void *b)
{
    const line_stat *x = a, *y = b;
    if (x->value != y->value) return x->value < y->value ? 1 : -1;
    return strcmp(x->where, y->where);
}

/* Lines keyed by their text; small tables, linear merge is enough. */
static line_stat *line_for(line_stat **tab, size_t *n, const char *where, uint8_t kind, uint8_t space)
{
    for (size_t i = 0; i < *n; i++)
        if ((*tab)[i].kind == kind && (*tab)[i].space == space && !strcmp((*tab)[i].where, where)) return &(*tab)[i];
    line_stat *t = realloc(*tab, (*n + 1) * sizeof *t);
    if (!t) return NULL;
    *tab = t;
    memset(&t[*n], 0, sizeof *t);
    snprintf(t[*n].where, sizeof t[*n].where, "%s", where);
    t[*n].kind = kind;
    t[*n].space = space;
    return &t[(*n)++];
}

uint64_t tr_counted_instructions(const ws_trace_launch *L)
{
    uint64_t instr = 0;
    for (uint32_t b = 0; b < L->nblocks; b++) instr += L->counts[b] * L->blocks[b].ninst;
    return instr;
}

static void report_bbcount(const tr_twin *tw, const ws_trace_launch *L, FILE *f)
{
    const uint64_t instr = tr_counted_instructions(L);
    uint64_t execs = 0;
    uint32_t ran = 0;
    line_stat *tab = NULL;
    size_t n = 0;
    for (uint32_t b = 0; b < L->nblocks; b++) {
        execs += L->counts[b];
        ran += L->counts[b] != 0;
        if (!L->counts[b]) continue;
        /* each instruction of the block on its own line: walk the original code */
        uint32_t at = L->blocks[b].addr;
        for (uint32_t k = 0; k < L->blocks[b].ninst; k++) {
            char where[160];
            tr_where(tw, at, where, sizeof where);
            line_stat *s = line_for(&tab, &n, where, 0, 0);
            if (s) s->value += L->counts[b];
            const uint16_t lo = tr_twin_halfword(tw, at);
            at += lo ? ws_inst_length(lo) : 4;
        }
    }
    fprintf(f, "  instructions executed (over lanes): %llu; device counter: %llu (%s)\n", (unsigned long long)instr,
            (unsigned long long)L->device_thread_instructions, tr_check(L, instr, L->device_thread_instructions));
    fprintf(f, "  basic blocks: %u in the module, %u ran, %llu lane executions\n", L->nblocks, ran,
            (unsigned long long)execs);
    if (n) qsort(tab, n, sizeof *tab, by_value);
    fprintf(f, "  lines by instructions executed:\n");
    const size_t shown = n < 10 ? n : 10;
    int width = 32; /* wider for a longer name, so the counts stay in one column */
    for (size_t i = 0; i < shown; i++)
        if ((int)strlen(tab[i].where) > width) width = (int)strlen(tab[i].where);
    for (size_t i = 0; i < shown; i++)
        fprintf(f, "    %-*s %12llu  %5.1f%%\n", width, tab[i].where, (unsigned long long)tab[i].value,
                instr ? 100.0 * (double)tab[i].value / (double)instr : 0.0);
    free(tab);
    tr_report_mix(tw, L, f);
}

static uint8_t space_of(uint32_t a)
{
    return a >= WS_SHARED_BASE && a < WS_SHARED_BASE + 0x10000000u ? 1 : a >= WS_STACK_BASE && a < WS_SHARED_BASE ? 2 : 0;
}

/* Insertion sort: a request holds at most a warp's lanes (64 keys). */
static void sort_small(uint32_t *a, uint32_t n)
{
    for (uint32_t i = 1; i < n; i++) {
        uint32_t v = a[i], j = i;
        for (; j > 0 && a[j - 1] > v; j--) a[j] = a[j - 1];
        a[j] = v;
    }
}

/* One warp request: the lanes' accesses of one execution of one
 * instruction, their addresses in ascending order. */
static void account(line_stat *s, const ws_trace_mem_inst *mi, const uint32_t *addr, size_t n)
{
    uint32_t keys[64];
    s->accesses += n;
    s->requests++;
    s->bytes += (uint64_t)n * mi->size;
    size_t k = 0;
    if (s->space == 2) return; /* lane stacks are interleaved by the device: no coalescing to measure */
    if (s->space == 1) { /* 32 banks of 4 bytes: the most distinct words in one bank */
        s->shared_requests++;
        uint32_t words[64];
        for (size_t i = 0; i < n && k < 64; i++) words[k++] = addr[i] >> 2;
        sort_small(words, (uint32_t)k);
        unsigned per_bank[32] = { 0 }, worst = 1;
        for (size_t i = 0; i < k; i++)
            if (!i || words[i] != words[i - 1])
                if (++per_bank[words[i] & 31] > worst) worst = per_bank[words[i] & 31];
        s->conflicts += worst - 1;
        return;
    }
    for (size_t i = 0; i < n && k < 63; i++) {
        keys[k++] = addr[i] >> 5;
        if (((addr[i] + mi->size - 1) >> 5) != (addr[i] >> 5)) keys[k++] = (addr[i] + mi->size - 1) >> 5;
    }
    sort_small(keys, (uint32_t)k);
    for (size_t i = 0; i < k; i++) s->sectors += !i || keys[i] != keys[i - 1];
}

/* One warp's accesses grouped into requests without sorting them: the
 * o-th execution of memory instruction i by each lane forms request
 * base[i] + o (base: the running sum of maxocc, each instruction's most
 * executions by one lane of the warp), and a counting sort places each
 * request's addresses together, lanes in ascending order. Requests come
 * out in (instruction, execution) order. */
typedef struct warp_requests {
    uint32_t ninst;
    uint32_t *occ, *maxocc, *base;   /* per instruction */
    int32_t *line_of;                /* per instruction and space: the line's row, -1 not yet */
    uint32_t *start, *fill;          /* per request (start: nreq + 1) */
    uint32_t *addr;                  /* per access */
    size_t cap_start, cap_fill, cap_addr;
} warp_requests;

static int requests_init(warp_requests *q, uint32_t ninst)
{
    q->ninst = ninst;
    q->occ = calloc(ninst + 1, sizeof *q->occ);
    q->maxocc = calloc(ninst + 1, sizeof *q->maxocc);
    q->base = calloc(ninst + 1, sizeof *q->base);
    q->line_of = malloc(((size_t)ninst * 3 + 1) * sizeof *q->line_of);
    if (!q->occ || !q->maxocc || !q->base || !q->line_of) return 0;
    for (size_t i = 0; i < (size_t)ninst * 3; i++) q->line_of[i] = -1;
    return 1;
}

static void requests_free(warp_requests *q)
{
    free(q->occ); free(q->maxocc); free(q->base); free(q->line_of);
    free(q->start); free(q->fill); free(q->addr);
}

static int grow(uint32_t **p, size_t *cap, size_t want)
{
    if (want <= *cap) return 1;
    size_t c = want > 2 * *cap ? want : 2 * *cap;
    uint32_t *n = realloc(*p, c * sizeof *n);
    if (!n) return 0;
    *p = n;
    *cap = c;
    return 1;
}

/* Zero the counts a thread's accesses raised: as cheap as the accesses,
 * however many memory instructions the module has. */
static void occ_clear(warp_requests *q, const ws_trace_thread *th, const ws_trace_launch *L)
{
    for (uint32_t a = 0; a < th->nmem; a++) q->occ[L->mem[th->first_mem + a].inst] = 0;
}

/* The requests of threads [k, end) (one warp); 0: out of host memory. */
static int requests_group(warp_requests *q, const ws_trace_launch *L, uint32_t k, uint32_t end)
{
    const size_t ni = q->ninst;
    memset(q->maxocc, 0, ni * sizeof *q->maxocc);
    size_t total = 0;
    for (uint32_t j = k; j < end; j++) {
        const ws_trace_thread *th = &L->threads[j];
        const ws_trace_access *x = &L->mem[th->first_mem];
        for (uint32_t a = 0; a < th->nmem; a++) {
            uint32_t o = ++q->occ[x[a].inst];
            if (o > q->maxocc[x[a].inst]) q->maxocc[x[a].inst] = o;
        }
        occ_clear(q, th, L);
        total += th->nmem;
    }
    size_t nreq = 0;
    for (size_t i = 0; i < ni; i++) { q->base[i] = (uint32_t)nreq; nreq += q->maxocc[i]; }
    if (!grow(&q->start, &q->cap_start, nreq + 1) || !grow(&q->fill, &q->cap_fill, nreq + 1) ||
        !grow(&q->addr, &q->cap_addr, total + 1))
        return 0;
    memset(q->start, 0, (nreq + 1) * sizeof *q->start);
    for (uint32_t pass = 0; pass < 2; pass++) { /* count each request's lanes, then place them */
        for (uint32_t j = k; j < end; j++) {
            const ws_trace_thread *th = &L->threads[j];
            for (uint32_t a = 0; a < th->nmem; a++) {
                const ws_trace_access *x = &L->mem[th->first_mem + a];
                uint32_t r = q->base[x->inst] + q->occ[x->inst]++;
                if (pass == 0) q->start[r + 1]++;
                else q->addr[q->fill[r]++] = x->addr;
            }
            occ_clear(q, th, L);
        }
        if (pass == 0) {
            for (size_t r = 0; r < nreq; r++) q->start[r + 1] += q->start[r];
            memcpy(q->fill, q->start, nreq * sizeof *q->fill);
        }
    }
    return 1;
}

static void report_memtrace(const tracer *t, const tr_twin *tw, const ws_trace_launch *L, FILE *f)
{
    uint64_t ld = 0, st = 0, at = 0;
    for (uint64_t i = 0; i < L->nmem; i++) {
        uint8_t k = L->mem_insts[L->mem[i].inst].kind;
        ld += k == WS_TRACE_LOAD;
        st += k == WS_TRACE_STORE;
        at += k == WS_TRACE_ATOMIC;
    }
    fprintf(f, "  accesses: %llu loads, %llu stores, %llu atomics; device counters: %llu, %llu, %llu (%s)\n",
            (unsigned long long)ld, (unsigned long long)st, (unsigned long long)at,
            (unsigned long long)L->device_loads, (unsigned long long)L->device_stores,
            (unsigned long long)L->device_atomics,
            tr_check(L, ld == L->device_loads && st == L->device_stores && at == L->device_atomics, 1));
    /* per warp: the threads of a warp are consecutive gids within a block */
    uint32_t tpb = L->block.x * L->block.y * L->block.z, lanes = t->lanes_per_warp ? t->lanes_per_warp : 32;
    line_stat *tab = NULL;
    size_t n = 0;
    const uint32_t ni = L->nmem_insts;
    char (*where)[160] = calloc(ni + 1, sizeof *where);
    for (uint32_t i = 0; i < ni && where; i++) tr_where(tw, L->mem_insts[i].addr, where[i], sizeof where[i]);
    warp_requests q = { 0 };
    int ok = where && requests_init(&q, ni);
    for (uint32_t k = 0; ok && k < L->nthreads;) {
        uint32_t warp = L->threads[k].gid / tpb * ((tpb + lanes - 1) / lanes) + L->threads[k].gid % tpb / lanes;
        uint32_t end = k;
        while (end < L->nthreads &&
               L->threads[end].gid / tpb * ((tpb + lanes - 1) / lanes) + L->threads[end].gid % tpb / lanes == warp)
            end++;
        if (!(ok = requests_group(&q, L, k, end))) break;
        for (uint32_t i = 0, r = 0; ok && i < ni; i++) { /* instruction by instruction, execution by execution */
            const ws_trace_mem_inst *mi = &L->mem_insts[i];
            for (uint32_t o = 0; ok && o < q.maxocc[i]; o++, r++) {
                uint32_t *g = q.addr + q.start[r], m = q.start[r + 1] - q.start[r];
                sort_small(g, m);
                /* a generic pointer may reach two spaces in one request: each
                 * space's lanes (a run of the sorted addresses) count apart */
                for (uint32_t from = 0, to; ok && from < m; from = to) {
                    const uint8_t space = space_of(g[from]);
                    for (to = from + 1; to < m && space_of(g[to]) == space; to++) {}
                    int32_t *row = &q.line_of[i * 3 + space];
                    if (*row < 0) { /* the line's row, found once per instruction and space */
                        line_stat *ls = line_for(&tab, &n, where[i], mi->kind, space);
                        if (!(ok = ls != NULL)) break;
                        *row = (int32_t)(ls - tab);
                    }
                    account(&tab[*row], mi, g + from, to - from);
                }
            }
        }
        k = end;
    }
    requests_free(&q);
    for (size_t i = 0; i < n; i++) tab[i].value = tab[i].accesses;
    if (n) qsort(tab, n, sizeof *tab, by_value);
    /* the line column widens for a longer name (an address and its function) */
    int width = 28;
    for (size_t i = 0; i < n; i++)
        if (tab[i].accesses && (int)strlen(tab[i].where) > width) width = (int)strlen(tab[i].where);
    fprintf(f, "  %-*s %-6s %-6s %10s %9s %9s %12s %9s\n", width, "line", "kind", "space", "accesses", "requests",
            "sect/req", "bytes", "bank-cf");
    for (size_t i = 0; i < n; i++) {
        const line_stat *s = &tab[i];
        if (!s->accesses) continue;
        uint64_t greq = s->requests - s->shared_requests;
        char spr[32] = "-", cf[32] = "-";
        if (greq && s->space == 0) snprintf(spr, sizeof spr, "%.2f", (double)s->sectors / (double)greq);
        if (s->shared_requests) snprintf(cf, sizeof cf, "%llu", (unsigned long long)s->conflicts);
        fprintf(f, "  %-*s %-6s %-6s %10llu %9llu %9s %12llu %9s\n", width, s->where,
                s->kind == WS_TRACE_LOAD ? "load" : s->kind == WS_TRACE_STORE ? "store" : "atomic",
                s->space == 0 ? "global" : s->space == 1 ? "shared" : "local",
                (unsigned long long)s->accesses, (unsigned long long)s->requests, spr, (unsigned long long)s->bytes, cf);
    }
    fprintf(f, "  (sect/req: 32-byte sectors per warp request to global memory; 4 is ideal for 32 lanes x 4 bytes.\n"
               "   bank-cf: extra shared-memory passes caused by bank conflicts)\n");
    free(where);
    free(tab);
}

typedef struct shown_mod {
    const char *full, *base;
    int use_full;
} shown_mod;

static int by_base_then_full(const void *a, const void *b)
{
    const shown_mod *x = a, *y = b;
    const int c = strcmp(x->base, y->base);
    return c ? c : strcmp(x->full, y->full);
}

/* O(n log n) in the launches: a program may run (and trace) many. */
const char **ws_trace_modules_shown(const ws_trace *t)
{
    const uint32_t n = t->nlaunches;
    const char **shown = malloc((n ? n : 1) * sizeof *shown);
    shown_mod *d = malloc((n ? n : 1) * sizeof *d);
    if (!shown || !d) {
        free(shown);
        free(d);
        return NULL;
    }
    for (uint32_t i = 0; i < n; i++) {
        const char *m = t->launches[i].module ? t->launches[i].module : "?";
        d[i] = (shown_mod){ m, ws_path_base(m), 0 };
    }
    qsort(d, n, sizeof *d, by_base_then_full);
    for (uint32_t i = 0, j; i < n; i = j) { /* a run of one base name: several modules? */
        int several = 0;
        for (j = i + 1; j < n && !strcmp(d[j].base, d[i].base); j++) several |= strcmp(d[j].full, d[i].full) != 0;
        for (uint32_t k = i; k < j; k++) d[k].use_full = several;
    }
    for (uint32_t i = 0; i < n; i++) {
        const char *m = t->launches[i].module ? t->launches[i].module : "?";
        const shown_mod key = { m, ws_path_base(m), 0 };
        const shown_mod *hit = bsearch(&key, d, n, sizeof *d, by_base_then_full);
        shown[i] = hit && !hit->use_full ? key.base : m;
    }
    free(d);
    return shown;
}

const char *ws_trace_launch_label(const ws_trace *t, const char *const *shown, uint32_t i, char *buf, size_t n)
{
    const ws_trace_launch *L = &t->launches[i];
    int len = snprintf(buf, n, "%s (%s)", L->kernel ? L->kernel : "?", shown ? shown[i] : L->module ? L->module : "?");
    /* each device numbers its launches from 1: with several, the device
     * tells two launches 1 of one kernel apart */
    if (len >= 0 && (size_t)len < n && L->device && t->ndevices > 1)
        snprintf(buf + len, n - (size_t)len, " on device %u", L->device);
    return buf;
}

const char *ws_trace_stage_text(const ws_trace_launch *L, char *buf, size_t n)
{
    static const char *const stages[] = { [WS_TRACE_STAGE_VERTEX] = "vertex", [WS_TRACE_STAGE_FRAGMENT] = "fragment" };
    if (n) buf[0] = 0;
    if (L->stage == WS_TRACE_STAGE_VERTEX || L->stage == WS_TRACE_STAGE_FRAGMENT)
        snprintf(buf, n, " (%s shader of draw %u)", stages[L->stage], L->draw);
    return buf;
}

const char *ws_trace_program_label(const ws_trace *t, const char *const *shown, uint32_t i, char *buf, size_t n)
{
    const ws_trace_launch *L = &t->launches[i];
    const uint64_t number = L->launch_number ? L->launch_number : L->launch_id;
    int len = snprintf(buf, n, "%llu ", (unsigned long long)number);
    if (len < 0 || (size_t)len >= n) return buf;
    ws_trace_launch_label(t, shown, i, buf + len, n - (size_t)len);
    len += (int)strlen(buf + len);
    if (number != L->launch_id && (size_t)len < n) {
        if (L->device) snprintf(buf + len, n - (size_t)len, " (device %u's launch %llu)", L->device,
                                (unsigned long long)L->launch_id);
        else snprintf(buf + len, n - (size_t)len, " (the device's launch %llu)", (unsigned long long)L->launch_id);
    }
    return buf;
}

void tr_report(const tracer *t, FILE *f)
{
    static const char *names[] = { "bbcount", "memtrace", "dump", "branch", "racecheck" };
    fprintf(f, "warpscope trace (%s)", names[t->opt.tool]);
    /* (the first device to close, while no other is known, names none) */
    if (t->trace.ndevices > 1) fprintf(f, ", device %u", t->device_number);
    fprintf(f, ": %u launch%s traced\n", t->trace.nlaunches, t->trace.nlaunches == 1 ? "" : "es");
    const char **shown = ws_trace_modules_shown(&t->trace);
    for (uint32_t i = 0; i < t->trace.nlaunches; i++) {
        const ws_trace_launch *L = &t->trace.launches[i];
        const tr_twin *tw = &t->twins[t->timing[i].twin];
        char label[1024], stage[64];
        /* a shader launch names its stage and draw (it was the bare shader
         * name and a one-dimensional grid, which draw was not said) */
        ws_trace_stage_text(L, stage, sizeof stage);
        fprintf(f, "\nlaunch %llu: %s%s grid (%u,%u,%u) block (%u,%u,%u)%s%s\n", (unsigned long long)L->launch_id,
                ws_trace_launch_label(&t->trace, shown, i, label, sizeof label), stage, L->grid.x, L->grid.y, L->grid.z,
                L->block.x, L->block.y, L->block.z,
                L->flags & WS_TRACE_COMPLETE ? "" : "  [INCOMPLETE]", L->flags & WS_TRACE_FAULTED ? "  [FAULTED]" : "");
        if (L->note && L->note[0]) fprintf(f, "  note: %s\n", L->note);
        if (L->results_checked)
            fprintf(f, "  results: the instrumented run left global memory %s the launch's (%llu bytes compared)\n",
                    L->flags & WS_TRACE_RESULTS_DIFFER ? "DIFFERENT from" : "identical to",
                    (unsigned long long)L->results_checked);
        if (L->flags & WS_TRACE_NO_ROOM)
            fprintf(f, "  records: none, the recording pass did not run: no room for its buffers in device memory (the "
                    "note says how much they need)\n");
        else if (!(L->flags & WS_TRACE_COUNTS_ONLY))
            fprintf(f, "  records: %llu block + %llu memory, %s\n", (unsigned long long)L->nbb, (unsigned long long)L->nmem,
                    !(L->flags & WS_TRACE_COMPLETE) ? "INCOMPLETE (the note says why)"
                    : L->flags & WS_TRACE_OVERFLOWED ? "buffers sized by a second recording pass; dropped: 0"
                                                      : "buffers sized exactly from the counting pass; dropped: 0");
        report_bbcount(tw, L, f);
        if (L->flags & WS_TRACE_NO_ROOM) continue; /* (empty tables would read as a launch without accesses or branches) */
        if (t->opt.tool == TR_MEMTRACE || t->opt.tool == TR_DUMP) report_memtrace(t, tw, L, f);
        if (t->opt.tool == TR_BRANCH || t->opt.tool == TR_DUMP) tr_report_branches(tw, L, f);
        if (t->opt.tool == TR_RACECHECK) tr_report_races(tw, L, f);
    }
    free(shown);
}

void tr_report_host_time(const tracer *t, FILE *f)
{
    const char **shown = ws_trace_modules_shown(&t->trace);
    for (uint32_t i = 0; i < t->trace.nlaunches; i++) {
        const ws_trace_launch *L = &t->trace.launches[i];
        const tr_timing *tm = &t->timing[i];
        char label[1024];
        /* (the program's launch number: each device numbers its own launches from 1) */
        fprintf(f, "warpscope trace: launch %s host time: launch %.3f s, counting pass %.3f s (%.2fx)",
                ws_trace_program_label(&t->trace, shown, i, label, sizeof label),
                tm->original, tm->count, tm->original > 0 ? tm->count / tm->original : 0.0);
        if (!(L->flags & WS_TRACE_COUNTS_ONLY))
            fprintf(f, ", recording pass %.3f s (%.2fx)", tm->record, tm->original > 0 ? tm->record / tm->original : 0.0);
        fprintf(f, "\n");
    }
    free(shown);
}
