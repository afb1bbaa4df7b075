/* One traced launch (docs/tracing.md, "How a trace is sized"):
 *   1. the counting twin runs: one atomic add per block entry;
 *   2. inputs are restored; buffers are sized from the counts exactly —
 *      Σ executions × records per block × record size — and the recording
 *      twin runs, each lane reserving its slots with an atomic bump;
 *   3. inputs are restored and the launch itself runs, so the program's
 *      results and the device counters are those of an untraced run.
 * No host synchronisation during a pass; a buffer that would overflow is
 * detected by the inserted code before it writes, and the pass is re-run
 * with the measured sizes. */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "instrument/trace_verify.h"
#include "instrument/tracer_int.h"
#include "runtime/launch_snapshot.h"
#include "runtime/tools.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void discard_printf(void *user, uint64_t id, ws_dim3 b, ws_dim3 t, const char *text, size_t len)
{
    (void)user; (void)id; (void)b; (void)t; (void)text; (void)len;
}

static uint32_t *ctl_of(ws_device *dev, const ws_module *m, const wsi_module_info *info)
{
    return (uint32_t *)(void *)ws_mem_global_ptr(&dev->mem, m->base + (info->ctl_addr - m->link_base));
}

static int kernel_entry(const ws_module *m, const char *name, uint32_t *entry)
{
    for (uint32_t i = 0; i < m->img.nkernels; i++)
        if (!strcmp(m->kernels[i].meta->name, name)) { *entry = m->kernels[i].entry; return 0; }
    return -1;
}

/* Run one instrumented pass with device printf silenced. */
static ws_status run_pass(ws_device *dev, ws_tool_runner *run, uint32_t entry, double *secs)
{
    ws_printf_fn fn = dev->printf_fn;
    void *user = dev->printf_user;
    dev->printf_fn = discard_printf;
    dev->printf_user = NULL;
    double t0 = now();
    ws_status st = ws_tool_run_entry(run, entry);
    *secs = now() - t0;
    dev->printf_fn = fn;
    dev->printf_user = user;
    return st;
}

static void note(ws_trace_launch *L, const char *fmt, const char *text)
{
    size_t old = L->note ? strlen(L->note) : 0, add = strlen(fmt) + strlen(text) + 4;
    char *n = realloc(L->note, old + add);
    if (!n) return;
    if (!old) n[0] = 0;
    snprintf(n + old, add, old ? "; " : "");
    snprintf(n + strlen(n), add, fmt, text);
    L->note = n;
}

static ws_trace_launch *new_launch(tracer *t)
{
    ws_trace *tr = &t->trace;
    ws_trace_launch *n = realloc(tr->launches, (tr->nlaunches + 1) * sizeof *n);
    tr_timing *tm = n ? realloc(t->timing, (tr->nlaunches + 1) * sizeof *tm) : NULL;
    if (n) tr->launches = n;
    if (tm) t->timing = tm;
    if (!n || !tm) return NULL;
    memset(&n[tr->nlaunches], 0, sizeof *n);
    memset(&tm[tr->nlaunches], 0, sizeof *tm);
    return &n[tr->nlaunches++];
}

/* The static tables: the same for both twins. */
static int describe(ws_trace_launch *L, const tr_twin *tw, const ws_grid_run *G)
{
    const wsi_module_info *in = &tw->rinfo;
    L->kernel = strdup(G->kernel_name);
    L->module = strdup(tw->orig->name);
    L->launch_id = G->id;
    L->grid = G->grid;
    L->block = G->block;
    L->nblocks = in->nblocks;
    L->nmem_insts = in->nmems;
    L->blocks = calloc(in->nblocks + 1, sizeof *L->blocks);
    L->mem_insts = calloc(in->nmems + 1, sizeof *L->mem_insts);
    L->counts = calloc(in->nblocks + 1, sizeof *L->counts);
    if (!L->kernel || !L->module || !L->blocks || !L->mem_insts || !L->counts) return -1;
    for (uint32_t i = 0; i < in->nblocks; i++)
        L->blocks[i] = (ws_trace_block){ in->blocks[i].addr, in->blocks[i].ninst, in->blocks[i].nmem, in->blocks[i].first_mem };
    for (uint32_t i = 0; i < in->nmems; i++)
        L->mem_insts[i] = (ws_trace_mem_inst){ in->mems[i].addr, in->mems[i].block, in->mems[i].kind, in->mems[i].size };
    return 0;
}

typedef struct sizing {
    uint64_t nbb, nmem;
} sizing;

static sizing size_from_counts(const ws_trace_launch *L)
{
    sizing s = { 0, 0 };
    for (uint32_t b = 0; b < L->nblocks; b++) {
        s.nbb += L->counts[b];
        s.nmem += L->counts[b] * L->blocks[b].nmem;
    }
    return s;
}

/* The recording pass into buffers of exactly `want` records; returns what
 * the lanes reserved in *used (more than want: the pass overflowed). */
static ws_status record_pass(tracer *t, tr_twin *tw, ws_grid_run *G, ws_tool_runner *run, uint32_t entry, sizing want,
                             sizing *used, uint8_t **bb, uint8_t **mem, int *overflow, double *secs, tv_digest *dg,
                             uint64_t nbytes)
{
    ws_device *dev = t->dev;
    uint64_t bytes = want.nbb * WSI_BB_RECORD_SIZE + want.nmem * WSI_MEM_RECORD_SIZE;
    if (bytes > 0xF0000000u || want.nbb > UINT32_MAX || want.nmem > UINT32_MAX)
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "trace: launch %llu (%s) needs %llu bytes of trace buffers, "
                            "more than the device can address", (unsigned long long)G->id, G->kernel_name,
                            (unsigned long long)bytes);
    uint32_t buf = 0;
    if (bytes && ws_mem_alloc(&dev->mem, (uint32_t)bytes, REGION_DATA, &buf))
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "trace: launch %llu (%s) needs %llu bytes of device memory for "
                            "its trace buffers; raise global_mem_limit (WARPSCOPE_CONFIG)", (unsigned long long)G->id,
                            G->kernel_name, (unsigned long long)bytes);
    if (bytes) memset(ws_mem_global_ptr(&dev->mem, buf), 0, bytes);
    uint32_t *ctl = ctl_of(dev, tw->record, &tw->rinfo);
    memset(ctl, 0, WSI_CTL_HEADER);
    ctl[WSI_CTL_BB_CAP / 4] = (uint32_t)want.nbb;
    ctl[WSI_CTL_BB_BASE / 4] = buf;
    ctl[WSI_CTL_MEM_CAP / 4] = (uint32_t)want.nmem;
    ctl[WSI_CTL_MEM_BASE / 4] = buf + (uint32_t)(want.nbb * WSI_BB_RECORD_SIZE);
    ctl[WSI_CTL_NCTA_X / 4] = G->grid.x;
    ctl[WSI_CTL_NCTA_XY / 4] = G->grid.x * G->grid.y;
    ctl[WSI_CTL_TPB / 4] = G->threads_per_block;
    ws_status st = run_pass(dev, run, entry, secs);
    int hole = tv_exclude(dg, dev, buf, bytes);
    if (tv_take(dg, dev, nbytes)) st = ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "trace: out of host memory");
    dg->nholes -= hole;
    ctl = ctl_of(dev, tw->record, &tw->rinfo);
    used->nbb = ctl[WSI_CTL_BB_NEXT / 4];
    used->nmem = ctl[WSI_CTL_MEM_NEXT / 4];
    *overflow = ctl[WSI_CTL_OVERFLOW / 4] != 0;
    uint64_t nbb = used->nbb < want.nbb ? used->nbb : want.nbb, nmem = used->nmem < want.nmem ? used->nmem : want.nmem;
    *bb = malloc(nbb * WSI_BB_RECORD_SIZE + 1);
    *mem = malloc(nmem * WSI_MEM_RECORD_SIZE + 1);
    if (*bb && *mem) {
        memcpy(*bb, ws_mem_global_ptr(&dev->mem, buf), nbb * WSI_BB_RECORD_SIZE);
        memcpy(*mem, ws_mem_global_ptr(&dev->mem, buf + (uint32_t)(want.nbb * WSI_BB_RECORD_SIZE)), nmem * WSI_MEM_RECORD_SIZE);
    }
    if (bytes) ws_mem_free(&dev->mem, buf, REGION_DATA);
    if (!*bb || !*mem) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "trace: out of host memory");
    return st;
}

ws_status tr_launch(tracer *t, tr_twin *tw, ws_grid_run *G, ws_tool_runner *run)
{
    ws_device *dev = t->dev;
    uint32_t count_entry, record_entry;
    ws_trace_launch *L = new_launch(t);
    tr_timing *tm = L ? &t->timing[t->trace.nlaunches - 1] : NULL;
    if (!L || describe(L, tw, G) || kernel_entry(tw->count, G->kernel_name, &count_entry) ||
        kernel_entry(tw->record, G->kernel_name, &record_entry)) {
        fprintf(stderr, "warpscope: trace: launch %llu (%s) runs untraced: out of host memory\n",
                (unsigned long long)G->id, G->kernel_name);
        return ws_tool_run(run);
    }
    ws_launch_snapshot snap;
    if (ws_launch_snapshot_take(dev, &snap, 0, 0)) {
        ws_launch_snapshot_free(&snap);
        note(L, "%s", "no host memory to save the launch's inputs: not traced");
        return ws_tool_run(run);
    }
    /* what the instrumented passes compute must equal what the launch computes */
    tv_digest dg = { 0 };
    tv_exclude(&dg, dev, tw->count->base + (tw->cinfo.ctl_addr - tw->count->link_base), tw->cinfo.ctl_size);
    tv_exclude(&dg, dev, tw->record->base + (tw->rinfo.ctl_addr - tw->record->link_base), tw->rinfo.ctl_size);
    /* pass 1: count */
    uint32_t *ctl = ctl_of(dev, tw->count, &tw->cinfo);
    memset(ctl, 0, tw->cinfo.ctl_size);
    ws_status st1 = run_pass(dev, run, count_entry, &tm->count);
    if (t->opt.tool == TR_BBCOUNT && tv_take(&dg, dev, snap.nglobal)) tv_free(&dg);
    ctl = ctl_of(dev, tw->count, &tw->cinfo);
    for (uint32_t b = 0; b < L->nblocks; b++) L->counts[b] = ctl[WSI_CTL_HEADER / 4 + b];
    if (st1 != WS_OK) {
        L->flags |= WS_TRACE_FAULTED;
        note(L, "%s", dev->err);
    }
    ws_launch_snapshot_restore(dev, &snap);
    /* pass 2: record */
    int complete = st1 == WS_OK;
    if (t->opt.tool == TR_BBCOUNT) {
        L->flags |= WS_TRACE_COUNTS_ONLY;
    } else {
        sizing want = size_from_counts(L), used;
        uint8_t *bb = NULL, *mem = NULL;
        int overflow = 0;
        ws_status st2 = record_pass(t, tw, G, run, record_entry, want, &used, &bb, &mem, &overflow, &tm->record, &dg,
                                     snap.nglobal);
        if (st2 == WS_OK && overflow) { /* control flow differed from pass 1: measure again, once */
            L->flags |= WS_TRACE_OVERFLOWED;
            note(L, "%s", "the recording pass needed more records than the counting pass measured; re-ran it with the measured sizes");
            free(bb);
            free(mem);
            ws_launch_snapshot_restore(dev, &snap);
            want = used;
            st2 = record_pass(t, tw, G, run, record_entry, want, &used, &bb, &mem, &overflow, &tm->record, &dg,
                              snap.nglobal);
        }
        if (st2 != WS_OK && st1 == WS_OK) { /* faulted only when traced */
            L->flags |= WS_TRACE_FAULTED;
            note(L, "%s", dev->err);
        }
        complete = complete && st2 == WS_OK && !overflow && used.nbb == want.nbb && used.nmem == want.nmem;
        uint64_t nbb = used.nbb < want.nbb ? used.nbb : want.nbb, nmem = used.nmem < want.nmem ? used.nmem : want.nmem;
        char err[256];
        uint32_t threads = (uint32_t)(G->grid.x * G->grid.y * G->grid.z) * G->threads_per_block;
        if (bb && mem && tr_merge(tw, tw->record, L, bb, nbb, mem, nmem, threads, err, sizeof err)) {
            note(L, "%s", err);
            complete = 0;
        }
        free(bb);
        free(mem);
        ws_launch_snapshot_restore(dev, &snap);
    }
    if (complete) L->flags |= WS_TRACE_COMPLETE;
    ws_launch_snapshot_free(&snap);
    /* the launch itself */
    double t0 = now();
    ws_status st = ws_tool_run(run);
    tm->original = now() - t0;
    if (dg.page && st == WS_OK && !(L->flags & WS_TRACE_FAULTED)) {
        int64_t at = tv_compare(&dg, dev);
        L->results_checked = dg.nbytes;
        if (at >= 0) {
            char where[64];
            snprintf(where, sizeof where, "0x%08llx", (unsigned long long)at);
            L->flags |= WS_TRACE_RESULTS_DIFFER;
            note(L, "the instrumented run's results differ from the launch's in the page at %s", where);
        }
    }
    tv_free(&dg);
    L->device_thread_instructions = G->stats.thread_instructions;
    L->device_loads = G->stats.thread_loads;
    L->device_stores = G->stats.thread_stores;
    L->device_atomics = G->stats.thread_atomics;
    if (!L->note && !(L->note = strdup(""))) return st;
    return st;
}
