/* Replay passes (the patent's way to collect more samples): the launch's
 * inputs — global memory, lane stacks, shared memory — are captured before
 * the first pass and restored before each further pass, and each pass
 * shifts the sampling phase by period/passes, so N passes see N times the
 * sampling points of one run. The device is deterministic, so every pass
 * must take the same cycles; a difference is reported. Device printf runs
 * only in the last pass, whose memory is what a single run would leave. */
#include <stdlib.h>
#include <string.h>
#include "gfx/gfx_device.h"
#include "isa/isa.h"
#include "profile/prof_session.h"
#include "runtime/launch_snapshot.h"

static void discard_printf(void *user, uint64_t id, ws_dim3 b, ws_dim3 t, const char *text, size_t len)
{
    (void)user; (void)id; (void)b; (void)t; (void)text; (void)len;
}

/* Append the records of the pass just run. */
static int collect(ws_device *dev, ws_profiler *P, prof_launch *pl)
{
    const ws_trace_header *h = (const ws_trace_header *)ws_mem_global_ptr(&dev->mem, P->buffer);
    if (h->magic != WS_TRACE_MAGIC) return 0;
    uint64_t n = h->written < P->capacity ? h->written : P->capacity;
    pl->dropped += h->dropped + (h->written - n);
    pl->overflowed += h->overflowed;
    if (!n) return 0;
    ws_trace_record *r = realloc(pl->records, (pl->nrecords + n) * sizeof *r);
    if (!r) return -1;
    pl->records = r;
    memcpy(r + pl->nrecords, (const uint8_t *)h + sizeof *h, n * sizeof *r);
    pl->nrecords += n;
    return 0;
}

static void copy_counters(prof_launch *pl, const ws_timing_counters *c)
{
    prof_counters *o = &pl->counters;
    o->valid = 1;
    o->cycles = c->cycles;
    o->warp_instructions = c->warp_instructions;
    o->thread_instructions = c->thread_instructions;
    o->ipc = c->ipc;
    o->simt_efficiency = c->simt_efficiency;
    o->occupancy = c->achieved_occupancy;
    o->mem_requests = c->gmem_requests;
    o->mem_sectors = c->gmem_sectors;
    o->sectors_per_request = c->sectors_per_request;
    o->shared_requests = c->shared_requests;
    o->bank_conflicts = c->shared_bank_conflicts;
    for (int u = 0; u < WS_UNIT_COUNT && u < PROF_UNITS; u++) {
        o->unit_busy[u] = c->unit_busy[u];
        o->unit_instances[u] = c->unit_instances[u];
    }
    for (int st = 0; st < WS_STATE_COUNT && st < WS_WARP_STATE_COUNT; st++) o->state_cycles[st] = c->state_cycles[st];
}

static ws_status sample_pass(ws_device *dev, ws_profiler *P, const ws_grid_run *L, uint32_t pass)
{
    uint64_t period = 1ull << P->opt.period_log2;
    ws_trace_config tc;
    memset(&tc, 0, sizeof tc);
    tc.enabled = 1;
    tc.trigger = WS_TRACE_ON_CYCLES;
    tc.period_log2 = P->opt.period_log2;
    tc.event_count = 1;
    /* Pass p samples, in each period, at a pseudo-random cycle of its
     * share [p, p + 1) * period / passes (the same offsets in every pass,
     * so passes never sample one cycle twice): a loop whose period shares
     * a factor with 2^N is seen at all its cycles, not at the same few in
     * every period, as fixed points 2^N apart would see it. Period 1
     * samples every cycle. */
    uint64_t from = period * pass / P->opt.passes, to = period * (pass + 1) / P->opt.passes;
    tc.phase = (period - from) & (period - 1);
    tc.dither = to - from; /* (>= 1: passes <= period, prof_options.c) */
    tc.mode = P->opt.mode;
    tc.core_mask = UINT64_MAX;
    tc.launch_id = L->id;
    tc.buffer = P->buffer;
    tc.capacity = P->capacity;
    return ws_trace_configure(dev, &tc); /* does not drain the queue: we run inside it */
}

/* A warp waiting at a barrier has already issued the `bar`: its PC is the
 * next instruction. Charge the wait to the barrier itself, which is the
 * line a reader needs (bar is always a 32-bit custom-0 instruction). A
 * warp in `membar` has issued its fence (always 32 bits too): the wait is
 * the fence's, not the next line's, as the instruction counters say. */
static void attribute_barriers(ws_device *dev, prof_launch *pl)
{
    for (size_t i = 0; i < pl->nrecords; i++) {
        ws_trace_record *r = &pl->records[i];
        uint32_t at = r->pc - 4;
        if ((r->state != WS_STATE_BARRIER && r->state != WS_STATE_MEMBAR) || !ws_mem_in_global(&dev->mem, at) ||
            !ws_mem_in_global(&dev->mem, at + 3))
            continue;
        uint32_t bits;
        memcpy(&bits, ws_mem_global_ptr(&dev->mem, at), 4);
        ws_inst in;
        ws_decode(bits, &in);
        unsigned op = in.op;
        if (r->state == WS_STATE_BARRIER ? op == OP_BAR : op == OP_FENCE || op == OP_FENCE_I) r->pc = at;
    }
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Distinct cycles at which samples were taken: replay passes with shifted
 * phases add sampling points, not copies of the same ones. */
static uint64_t sample_points(const prof_launch *pl)
{
    if (!pl->nrecords) return 0;
    uint64_t *c = malloc(pl->nrecords * sizeof *c), n = 1;
    if (!c) return 0;
    for (size_t i = 0; i < pl->nrecords; i++) c[i] = pl->records[i].cycle;
    qsort(c, pl->nrecords, sizeof *c, by_u64);
    for (size_t i = 1; i < pl->nrecords; i++) n += c[i] != c[i - 1];
    free(c);
    return n;
}

static prof_launch *new_launch(ws_profiler *P)
{
    if (P->nlaunches == P->launchcap) {
        size_t cap = P->launchcap ? P->launchcap * 2 : 8;
        prof_launch *n = realloc(P->launches, cap * sizeof *n);
        if (!n) return NULL;
        P->launches = n;
        P->launchcap = cap;
    }
    prof_launch *pl = &P->launches[P->nlaunches];
    memset(pl, 0, sizeof *pl);
    return pl;
}

/* One pass: program the cells, run (device printf only in the last pass),
 * read the samples back, check the cycles against the first pass. */
static ws_status run_pass(ws_device *dev, ws_profiler *P, prof_launch *pl, ws_grid_run *L,
                          ws_tool_runner *run, uint32_t p, uint32_t passes, prof_callers *calls)
{
    if (sample_pass(dev, P, L, p) != WS_OK && !pl->error[0])
        snprintf(pl->error, sizeof pl->error, "the trace cells refused the settings: %.180s", dev->err);
    else
        prof_callers_arm(dev, calls, L->entry);
    /* The first pass also counts every instruction exactly. */
    if (p == 0 && ws_pc_counters_arm(dev, 1) != WS_OK && !pl->error[0])
        snprintf(pl->error, sizeof pl->error, "no host memory for the instruction counters");
    ws_printf_fn fn = dev->printf_fn;
    void *user = dev->printf_user;
    if (p + 1 < passes) {
        dev->printf_fn = discard_printf;
        dev->printf_user = NULL;
    }
    ws_status st = ws_tool_run(run);
    dev->printf_fn = fn;
    dev->printf_user = user;
    ws_trace_disable(dev);
    ws_trace_observe(dev, NULL, NULL);
    if (p == 0) {
        ws_pc_counters_arm(dev, 0);
        const ws_pc_counters *pcc = ws_pc_counters_get(dev);
        if (pcc && pcc->launch_id == L->id && prof_exact_table(pcc, &pl->exact, &pl->nexact) && !pl->error[0])
            snprintf(pl->error, sizeof pl->error, "out of host memory while reading the instruction counters");
    }
    size_t before = pl->nrecords;
    if (collect(dev, P, pl) && !pl->error[0])
        snprintf(pl->error, sizeof pl->error, "out of host memory while reading samples");
    const int lost = calls->failed || (pl->nrecords > before &&
                                       prof_callers_match(calls, pl->records + before, pl->nrecords - before));
    if (lost && !pl->error[0])
        snprintf(pl->error, sizeof pl->error, "out of host memory while finding the call sites of samples");
    uint64_t cycles = L->stats.cycles;
    ws_timing_counters tcn;
    if (ws_last_launch_counters(dev, &tcn) == WS_OK && tcn.launch_id == L->id) {
        copy_counters(pl, &tcn);
        cycles = tcn.cycles;
    }
    if (p == 0) pl->cycles = cycles;
    else if (cycles != pl->cycles && !pl->error[0])
        snprintf(pl->error, sizeof pl->error, "replay pass %u took %llu cycles, pass 1 took %llu: "
                 "the launch is not deterministic under replay", p + 1, (unsigned long long)cycles,
                 (unsigned long long)pl->cycles);
    pl->passes = p + 1;
    return st;
}

/* Samples -> per-PC table with source lines; the raw records stay only
 * when a timeline is wanted. */
static void finish_launch(ws_device *dev, ws_profiler *P, prof_launch *pl, const struct ws_module *m,
                          prof_callers *calls)
{
    pl->samples = pl->nrecords;
    pl->sample_points = sample_points(pl);
    attribute_barriers(dev, pl);
    if (prof_barrier_peers(pl->records, pl->nrecords, &pl->peers, &pl->npeers) && !pl->error[0])
        snprintf(pl->error, sizeof pl->error, "out of host memory while matching barrier waits");
    /* after attribute_barriers: the states the per-PC counts have */
    if (prof_point_spread(pl->records, pl->nrecords, &pl->spread) && !pl->error[0])
        snprintf(pl->error, sizeof pl->error, "out of host memory while measuring the samples' spread");
    if (prof_aggregate(pl->records, pl->nrecords, &pl->pcs, &pl->npcs) && !pl->error[0])
        snprintf(pl->error, sizeof pl->error, "out of host memory while aggregating samples");
    /* The exact counts join the sampled PCs (and add the PCs never sampled). */
    if (pl->exact && prof_merge(&pl->pcs, &pl->npcs, pl->exact, pl->nexact) && !pl->error[0])
        snprintf(pl->error, sizeof pl->error, "out of host memory while merging the instruction counters");
    prof_pcs_free(pl->exact, pl->nexact);
    pl->exact = NULL;
    pl->nexact = 0;
    prof_callers_mark_outside(calls, pl->pcs, pl->npcs);
    if (prof_callers_table(calls, &pl->calls, &pl->ncalls) && !pl->error[0])
        snprintf(pl->error, sizeof pl->error, "out of host memory while charging call sites");
    prof_callers_reach(calls, &pl->reach, &pl->nreach);
    if (pl->error[0])
        fprintf(stderr, "warpscope: profiler: launch %llu (%s): %s\n", (unsigned long long)pl->id, pl->kernel,
                pl->error);
    if (!P->opt.trace) {
        free(pl->records);
        pl->records = NULL;
        pl->nrecords = 0;
    }
    prof_module *pm = prof_module_for(P, m);
    prof_correlate(pl->pcs, pl->npcs, pm ? pm->map : NULL, m->base, pm ? pm->link_base : 0, m->img.bytes,
                   m->img.size, pl->kernel, P->opt.inline_mode);
    prof_correlate(pl->calls, pl->ncalls, pm ? pm->map : NULL, m->base, pm ? pm->link_base : 0, m->img.bytes,
                   m->img.size, pl->kernel, P->opt.inline_mode);
    if (pl->fault.kind)
        prof_correlate_fault(&pl->fault, pm ? pm->map : NULL, m->base, pm ? pm->link_base : 0, m->img.bytes,
                             m->img.size, pl->kernel, P->opt.inline_mode);
}

/* The device's fault, field by field. Deadlocks, watchdogs and debug
 * machines stop the launch without a faulting lane. */
static void keep_fault(const ws_device *dev, prof_fault *f)
{
    const ws_fault *d = &dev->fault;
    if (d->kind == FAULT_NONE) return;
    f->kind = ws_fault_kind_name(d->kind);
    f->has_lane = d->kind != FAULT_DEADLOCK && d->kind != FAULT_WATCHDOG && d->kind != FAULT_MACHINE &&
                  d->kind != FAULT_INTERRUPTED;
    f->pc = d->pc;
    f->addr = d->addr;
    f->size = d->size;
    f->block = d->block;
    f->thread = d->thread;
    f->core = d->core;
    f->warp = d->warp;
    f->lane = d->lane;
    snprintf(f->detail, sizeof f->detail, "%.250s", d->detail);
}

ws_status prof_launch_run(ws_device *dev, ws_profiler *P, ws_grid_run *L, ws_tool_runner *run)
{
    prof_launch *pl = new_launch(P);
    const struct ws_module *m = L->kernel->mod;
    if (!pl || !(pl->kernel = strdup(L->kernel->meta->name)) || !(pl->module = strdup(m->name))) {
        if (pl) { free(pl->kernel); pl->kernel = NULL; }
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "profiler: out of host memory");
    }
    P->nlaunches++;
    pl->id = L->id;
    for (uint32_t i = 0; i < L->kernel->meta->nparams && !pl->stack_param[0]; i++) {
        const ws_elf_param *q = &L->kernel->meta->params[i];
        if (q->kind == WS_PARAM_AGG && ws_elf_agg_by_reference(&q->agg))
            snprintf(pl->stack_param, sizeof pl->stack_param, "'%.40s' (%.60s, %u bytes)", q->name, q->type_name,
                     q->agg.size);
    }
    if (L->gfx) { /* shaders are reported per draw */
        pl->stage = L->gfx->fragment ? "fragment" : "vertex";
        pl->draw = L->draw_id;
    }
    pl->grid = L->grid;
    pl->block = L->block;
    ws_launch_snapshot snap = { 0 };
    int replay = P->opt.passes > 1;
    size_t hole = sizeof(ws_trace_header) + (size_t)P->capacity * sizeof(ws_trace_record);
    if (replay && ws_launch_snapshot_take(dev, &snap, P->buffer, hole)) {
        ws_launch_snapshot_free(&snap);
        replay = 0;
        snprintf(pl->error, sizeof pl->error, "no host memory to capture the launch's inputs: one pass only");
    }
    const ws_grid_run orig = *L;
    uint32_t passes = replay ? P->opt.passes : 1;
    ws_status st = WS_OK;
    prof_callers calls;
    memset(&calls, 0, sizeof calls);
    for (uint32_t p = 0; p < passes; p++) {
        if (p) {
            ws_launch_snapshot_restore(dev, &snap);
            *L = orig;
        }
        st = run_pass(dev, P, pl, L, run, p, passes, &calls);
        if (st != WS_OK) break; /* a fault ends the launch: nothing to replay */
    }
    if (replay) ws_launch_snapshot_free(&snap);
    pl->status = st;
    if (st != WS_OK) { /* the fault report, with its source line, for the report and JSON */
        snprintf(pl->error, sizeof pl->error, "%s", dev->err);
        keep_fault(dev, &pl->fault);
    }
    pl->stats = L->stats;
    prof_limits_fill(&pl->limits, dev, L, &pl->counters);
    finish_launch(dev, P, pl, m, &calls);
    prof_callers_free(&calls);
    return st;
}
