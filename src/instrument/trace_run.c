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
#include "gfx/gfx_device.h"
#include "instrument/trace_verify.h"
#include "instrument/tracer_int.h"
#include "runtime/launch_snapshot.h"
#include "runtime/tools.h"

/* The passes run in this thread (the device runs in its caller's thread):
 * its CPU time compares them without counting other processes' load. */
static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
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

/* Past this many thread-instructions a counting pass may have entered a
 * block 2^32 times (each counted entry runs its three instructions). */
#define WIDE_COUNTS_AFTER (3ull << 32)

/* Pass 1's count of block b: its lane executions (which 0) or warp
 * executions (1), 64-bit, low word first. */
static uint64_t counter(const uint32_t *ctl, uint32_t b, int which)
{
    const uint32_t *w = ctl + (WSI_CTL_HEADER + WSI_CTL_COUNTER_SIZE * b) / 4 + 2 * which;
    return (uint64_t)w[1] << 32 | w[0];
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
static int describe(ws_trace_launch *L, const tr_twin *tw, const ws_grid_run *G, uint64_t number, uint32_t lanes)
{
    const wsi_module_info *in = &tw->rinfo;
    L->kernel = strdup(G->kernel_name);
    L->module = strdup(tw->orig->name);
    L->launch_id = G->id;
    L->launch_number = number;
    L->grid = G->grid;
    L->block = G->block;
    L->lanes_per_warp = lanes;
    L->nblocks = in->nblocks;
    L->nmem_insts = in->nmems;
    L->blocks = calloc(in->nblocks + 1, sizeof *L->blocks);
    L->mem_insts = calloc(in->nmems + 1, sizeof *L->mem_insts);
    L->counts = calloc(in->nblocks + 1, sizeof *L->counts);
    if (!L->kernel || !L->module || !L->blocks || !L->mem_insts || !L->counts) return -1;
    for (uint32_t i = 0; i < in->nblocks; i++)
        L->blocks[i] = (ws_trace_block){ in->blocks[i].addr, in->blocks[i].ninst, in->blocks[i].nmem, in->blocks[i].first_mem,
                                         in->blocks[i].taken, in->blocks[i].fall, in->blocks[i].last };
    for (uint32_t i = 0; i < in->nmems; i++)
        L->mem_insts[i] = (ws_trace_mem_inst){ in->mems[i].addr, in->mems[i].block, in->mems[i].kind, in->mems[i].size };
    return 0;
}

/* The record buffers: one per record type, each with its control words. */
enum { BUF_BB, BUF_MEM, BUF_WARP, BUF_CUSTOM, NBUF };
static const struct { uint32_t size, next, cap, base; } buf_ctl[NBUF] = {
    { WSI_BB_RECORD_SIZE, WSI_CTL_BB_NEXT, WSI_CTL_BB_CAP, WSI_CTL_BB_BASE },
    { WSI_MEM_RECORD_SIZE, WSI_CTL_MEM_NEXT, WSI_CTL_MEM_CAP, WSI_CTL_MEM_BASE },
    { WSI_WARP_RECORD_SIZE, WSI_CTL_WARP_NEXT, WSI_CTL_WARP_CAP, WSI_CTL_WARP_BASE },
    { 0 /* the tool's slot */, WSI_CTL_CUSTOM_NEXT, WSI_CTL_CUSTOM_CAP, WSI_CTL_CUSTOM_BASE },
};

static uint32_t rec_size(const tracer *t, int i) { return i == BUF_CUSTOM ? 1u << t->custom.slot_shift : buf_ctl[i].size; }

typedef struct sizing {
    uint64_t n[NBUF];
} sizing;

/* Σ over blocks of executions × records per block (the method). */
static sizing size_from_counts(const tracer *t, const tr_twin *tw, const ws_trace_launch *L)
{
    sizing s = { { 0, 0, 0, 0 } };
    for (uint32_t b = 0; b < L->nblocks; b++) {
        if (t->opt.tool == TR_CUSTOM) {
            s.n[BUF_CUSTOM] += L->counts[b] * tw->rinfo.blocks[b].ncustom;
            continue;
        }
        if (!(tw->flags & WSI_NO_BLOCKS)) s.n[BUF_BB] += L->counts[b];
        s.n[BUF_MEM] += L->counts[b] * L->blocks[b].nmem;
        if (L->warp_counts) s.n[BUF_WARP] += L->warp_counts[b];
    }
    return s;
}

/* A pointer word of module data (an R_RISCV_32 relocation outside the
 * code: function pointer tables, addresses of globals): its place in the
 * original and in the twin, and the value each holds as loaded. */
typedef struct ptr_pair { uint32_t o_place, t_place, o_val, t_val; } ptr_pair;

static int by_twin_place(const void *a, const void *b)
{
    uint32_t x = ((const struct ws_elf_reloc *)a)->place, y = ((const struct ws_elf_reloc *)b)->place;
    return x < y ? -1 : x > y;
}

/* Pairs of pointer words, or NULL (none, or out of host memory). */
static ptr_pair *pointer_pairs(const ws_module *orig, const ws_module *twin, uint32_t delta, uint32_t *n)
{
    const ws_elf_image *oi = &orig->img, *ti = &twin->img;
    *n = 0;
    struct ws_elf_reloc *tr = ti->nrelocs ? malloc(ti->nrelocs * sizeof *tr) : NULL;
    ptr_pair *pp = oi->nrelocs ? malloc(oi->nrelocs * sizeof *pp) : NULL;
    if (!tr || !pp) { free(tr); free(pp); return NULL; }
    uint32_t nt = 0;
    for (uint32_t i = 0; i < ti->nrelocs; i++)
        if (ti->relocs[i].type == 1 /* R_RISCV_32 */) tr[nt++] = ti->relocs[i];
    qsort(tr, nt, sizeof *tr, by_twin_place);
    const uint32_t od = orig->base - orig->link_base, td = twin->base - twin->link_base;
    const uint32_t otext_lo = oi->text_start - od, otext_hi = oi->text_end - od; /* link addresses */
    for (uint32_t i = 0; i < oi->nrelocs; i++) {
        const struct ws_elf_reloc *r = &oi->relocs[i];
        if (r->type != 1 || (r->place >= otext_lo && r->place < otext_hi)) continue;
        struct ws_elf_reloc key = { r->place + delta, 0, 0 };
        const struct ws_elf_reloc *t = bsearch(&key, tr, nt, sizeof *tr, by_twin_place);
        if (!t) continue;
        pp[(*n)++] = (ptr_pair){ r->place + od, t->place + td, r->value + od, t->value + td };
    }
    free(tr);
    if (!*n) { free(pp); return NULL; }
    return pp;
}

/* After the bytes of writable data moved between the copies, the pointer
 * words that moved with them still point into the copy they came from: a
 * function pointer in the original's .data called the original's
 * uninstrumented code from inside a pass (its instructions and accesses
 * were missing from the trace). Each writable pointer word that holds a
 * value some pointer word of the source held as loaded gets the
 * destination's value for it (so a table the kernel shuffled is
 * translated too); one that points elsewhere into the source's data moves
 * by the data's offset. (A pointer the kernel computed and stored in a
 * word that is not a relocation, e.g. in .bss, is not translated.) */
static void translate_pointers(ws_device *dev, const ws_module *orig, const ws_module *twin, uint32_t delta,
                               int to_twin)
{
    uint32_t n = 0;
    ptr_pair *pp = pointer_pairs(orig, twin, delta, &n);
    if (!pp) return;
    const ws_elf_image *oi = &orig->img;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t off = pp[i].o_place - orig->base; /* granule of the original's image */
        if (off >= oi->size || !oi->writable[off / 8]) continue;
        uint32_t place = to_twin ? pp[i].t_place : pp[i].o_place;
        uint8_t *w = ws_mem_global_ptr(&dev->mem, place);
        uint32_t v;
        memcpy(&v, w, 4);
        uint32_t nv = v;
        int found = 0;
        for (uint32_t j = 0; j < n && !found; j++) {
            uint32_t from = to_twin ? pp[j].o_val : pp[j].t_val, to = to_twin ? pp[j].t_val : pp[j].o_val;
            if (v == from) nv = to, found = 1;
        }
        if (!found) {
            /* into the source's data (outside its code): moves with the data */
            const ws_module *src = to_twin ? orig : twin;
            uint32_t tlo = to_twin ? oi->text_start : twin->img.text_start;
            uint32_t thi = to_twin ? oi->text_end : twin->img.text_end;
            if (v - src->base < src->size && !(v >= tlo && v < thi))
                nv = to_twin ? v - orig->base + twin->base + delta : v - twin->base - delta + orig->base;
        }
        if (nv != v) memcpy(w, &nv, 4);
    }
    free(pp);
}

/* Module data the kernel may read and write lives in each copy: the twin
 * gets the original's before a pass, the original the twin's after it. */
static void sync_data(ws_device *dev, const ws_module *orig, const ws_module *twin, uint32_t delta, int to_twin)
{
    const ws_elf_image *img = &orig->img;
    for (uint32_t g = 0; g < img->size / 8;) {
        if (!img->writable[g]) { g++; continue; }
        uint32_t e = g;
        while (e < img->size / 8 && img->writable[e]) e++;
        uint32_t off = g * 8, n = (e - g) * 8;
        if (off + delta + n <= twin->size) {
            uint8_t *o = ws_mem_global_ptr(&dev->mem, orig->base + off), *t = ws_mem_global_ptr(&dev->mem, twin->base + off + delta);
            memmove(to_twin ? t : o, to_twin ? o : t, n);
        }
        g = e;
    }
    translate_pointers(dev, orig, twin, delta, to_twin);
}

/* The recording pass's records, read where the lanes wrote them: in its
 * buffers in device memory (a copy would double a large trace's memory),
 * which stay allocated until records_free. */
typedef struct records {
    const uint8_t *p[NBUF];
    uint64_t n[NBUF];     /* records kept (at most the buffer's size) */
    ws_device *dev;
    uint32_t buf;         /* the buffers' device allocation (0: none) */
    int no_room;          /* they did not fit in device memory: the pass did not run */
} records;

static void records_free(records *r)
{
    if (r->buf) ws_mem_free_tool(&r->dev->mem, r->buf);
    memset(r, 0, sizeof *r);
}

/* What makes room for a launch's records, for the one who can act on it:
 * `warpscope trace` has its options; a custom tool its own filters, and
 * its buffers share the top of the program's global_mem_limit (the arena
 * is not grown for it, as for WARPSCOPE_TRACE's tracer), so a larger
 * limit gives them more. */
static const char *fewer_records(const tracer *t)
{
    return t->opt.tool == TR_CUSTOM ? "trace fewer kernels (ws_trace_tool.kernel) or fewer points (ws_trace_tool.where, "
                                      "a smaller record_size)"
                                    : "trace fewer launches or kernels (--launch, --kernel)";
}

static const char *more_room(const tracer *t)
{
    return t->opt.tool == TR_CUSTOM ? "open the device with a larger global_mem_limit (ws_config, at most 3040 MiB; "
                                      "the bundled examples take WARPSCOPE_CONFIG=global_mem_limit=1024M)"
                                    : "let the program use less memory";
}

/* The recording pass into buffers of exactly `want` records; *used gets
 * what the lanes reserved (more than want: the pass overflowed). Buffers
 * that do not fit leave out->no_room set and the pass not run. */
static ws_status record_pass(tracer *t, tr_twin *tw, ws_grid_run *G, ws_tool_runner *run, uint32_t entry, sizing want,
                             sizing *used, records *out, int *overflow, double *secs, tv_digest *dg, uint64_t nbytes)
{
    ws_device *dev = t->dev;
    uint64_t bytes = 0, off[NBUF];
    for (int i = 0; i < NBUF; i++) {
        off[i] = bytes;
        /* (an empty buffer still gets one slot: warp records that find
         * their buffer full go to slot 0, which must be its own) */
        bytes += (want.n[i] ? want.n[i] : 1) * rec_size(t, i);
        if (want.n[i] > UINT32_MAX) bytes = UINT64_MAX / 2;
    }
    out->no_room = 0;
    if (bytes > 0xF0000000u) {
        out->no_room = 1;
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "trace: launch %llu (%s in %s) needs %llu bytes of trace buffers, "
                            "more than the device can address; %s", (unsigned long long)G->id, G->kernel_name,
                            tw->name ? tw->name : "?", (unsigned long long)bytes, fewer_records(t));
    }
    uint32_t buf = 0;
    if (bytes && ws_mem_alloc_tool(&dev->mem, (uint32_t)bytes, REGION_DATA, &buf)) { /* (above the program's) */
        out->no_room = 1;
        return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "trace: launch %llu (%s in %s) needs %llu bytes of device memory for "
                            "its trace buffers, more than the %llu free between the program's memory and the tools'; %s, "
                            "or %s", (unsigned long long)G->id, G->kernel_name, tw->name ? tw->name : "?",
                            (unsigned long long)bytes,
                            (unsigned long long)(ws_mem_tool_lo(&dev->mem) > dev->mem.brk ? ws_mem_tool_lo(&dev->mem) - dev->mem.brk : 0),
                            fewer_records(t), more_room(t));
    }
    if (bytes) memset(ws_mem_global_ptr(&dev->mem, buf), 0, bytes);
    uint32_t *ctl = ctl_of(dev, tw->record, &tw->rinfo);
    memset(ctl, 0, WSI_CTL_HEADER);
    for (int i = 0; i < NBUF; i++) {
        ctl[buf_ctl[i].cap / 4] = (uint32_t)want.n[i];
        ctl[buf_ctl[i].base / 4] = buf + (uint32_t)off[i];
    }
    ctl[WSI_CTL_NCTA_X / 4] = G->grid.x;
    ctl[WSI_CTL_NCTA_XY / 4] = G->grid.x * G->grid.y;
    ctl[WSI_CTL_TPB / 4] = G->threads_per_block;
    ctl[WSI_CTL_WPB / 4] = G->warps_per_block;
    sync_data(dev, tw->orig, tw->record, tw->rinfo.data_delta, 1);
    ws_status st = run_pass(dev, run, entry, secs);
    sync_data(dev, tw->orig, tw->record, tw->rinfo.data_delta, 0);
    int hole = tv_exclude(dg, dev, buf, bytes);
    if (tv_take(dg, dev, nbytes)) st = ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "trace: out of host memory");
    dg->nholes -= hole;
    ctl = ctl_of(dev, tw->record, &tw->rinfo);
    *overflow = 0;
    static const uint8_t none[1];
    out->dev = dev;
    out->buf = bytes ? buf : 0;
    for (int i = 0; i < NBUF; i++) {
        used->n[i] = ctl[buf_ctl[i].next / 4];
        *overflow |= used->n[i] > want.n[i];
        out->n[i] = used->n[i] < want.n[i] ? used->n[i] : want.n[i];
        out->p[i] = bytes ? ws_mem_global_ptr(&dev->mem, buf + (uint32_t)off[i]) : none;
    }
    return st;
}

/* One counting pass on `twin` (the narrow or the wide counting twin of
 * tw): counters zeroed, the module's data in and out; its host time is
 * added to *secs. */
static ws_status count_pass(ws_device *dev, ws_tool_runner *run, const tr_twin *tw, const ws_module *twin,
                            const wsi_module_info *info, uint32_t entry, double *secs)
{
    double s = 0;
    memset(ctl_of(dev, twin, info), 0, info->ctl_size);
    sync_data(dev, tw->orig, twin, info->data_delta, 1);
    ws_status st = run_pass(dev, run, entry, &s);
    sync_data(dev, tw->orig, twin, info->data_delta, 0);
    *secs += s;
    return st;
}

/* A trace is complete only if it holds what the launch did, as the
 * device counted it: every thread-instruction (the blocks' counts) and
 * every access (the memory records). A pass that ran the kernel otherwise
 * (a race, or inserted code that changed it) can fill its buffers exactly
 * and still miss records. */
static void check_against_device(const tracer *t, ws_trace_launch *L)
{
    const uint64_t instr = tr_counted_instructions(L), mem = L->device_loads + L->device_stores + L->device_atomics;
    char why[160] = "";
    if (instr != L->device_thread_instructions)
        snprintf(why, sizeof why, "the counted blocks hold %llu thread-instructions, the device ran %llu",
                 (unsigned long long)instr, (unsigned long long)L->device_thread_instructions);
    if (!why[0] && t->opt.tool != TR_BBCOUNT && t->opt.tool != TR_CUSTOM && L->nmem != mem)
        snprintf(why, sizeof why, "%llu memory records, the device made %llu accesses", (unsigned long long)L->nmem,
                 (unsigned long long)mem);
    if (!why[0]) return;
    L->flags &= ~(uint32_t)WS_TRACE_COMPLETE;
    note(L, "incomplete: %s", why);
}

ws_status tr_launch(tracer *t, tr_twin *tw, ws_grid_run *G, uint64_t number, ws_tool_runner *run)
{
    ws_device *dev = t->dev;
    uint32_t count_entry, record_entry;
    ws_trace_launch *L = new_launch(t);
    tr_timing *tm = L ? &t->timing[t->trace.nlaunches - 1] : NULL;
    if (tm) tm->twin = (size_t)(tw - t->twins);
    if (L && G->gfx) { /* a shader: reports say which stage of which draw, as the profiler does */
        L->stage = G->gfx->fragment ? WS_TRACE_STAGE_FRAGMENT : WS_TRACE_STAGE_VERTEX;
        L->draw = G->draw_id;
    }
    if (!L || describe(L, tw, G, number, t->lanes_per_warp) || kernel_entry(tw->count, G->kernel_name, &count_entry) ||
        kernel_entry(tw->record, G->kernel_name, &record_entry)) {
        fprintf(stderr, "warpscope: trace: launch %llu (%s in %s) runs untraced: out of host memory\n",
                (unsigned long long)G->id, G->kernel_name, tw->name ? tw->name : "?");
        return ws_tool_run(run);
    }
    ws_launch_snapshot snap;
    if (ws_launch_snapshot_take(dev, &snap, 0, 0)) {
        ws_launch_snapshot_free(&snap);
        note(L, "%s", "no host memory to save the launch's inputs: not traced");
        return ws_tool_run(run);
    }
    ws_trace_custom_records custom = { 0 };
    /* what the instrumented passes compute must equal what the launch computes */
    tv_digest dg = { 0 };
    tv_exclude(&dg, dev, tw->count->base, tw->count->size);
    tv_exclude(&dg, dev, tw->record->base, tw->record->size);
    /* pass 1: count, with 32-bit counters unless the pass ran long enough
     * to wrap one (each counted entry is at least its three instructions):
     * then again with carries. counters=64: with carries at once. */
    const ws_module *counted = tw->count;
    const wsi_module_info *cinfo = &tw->cinfo;
    ws_status st1 = WS_OK;
    int narrow_ran = 0, want_wide = t->opt.wide_counts;
    tm->count = 0;
    if (!want_wide) {
        st1 = count_pass(dev, run, tw, tw->count, &tw->cinfo, count_entry, &tm->count);
        narrow_ran = 1;
        want_wide = G->stats.thread_instructions >= WIDE_COUNTS_AFTER;
    }
    if (want_wide) {
        char err[512] = "no kernel entry";
        uint32_t wide_entry;
        ws_module *wide = tr_twin_wide(t, tw, err, sizeof err);
        if (wide && !kernel_entry(wide, G->kernel_name, &wide_entry)) {
            if (narrow_ran) ws_launch_snapshot_restore(dev, &snap);
            tv_exclude(&dg, dev, wide->base, wide->size);
            st1 = count_pass(dev, run, tw, wide, &tw->wcinfo, wide_entry, &tm->count);
            counted = wide;
            cinfo = &tw->wcinfo;
        } else {
            note(L, "64-bit counting failed (%s): 32-bit block counters, which may wrap", err);
            if (!narrow_ran) st1 = count_pass(dev, run, tw, tw->count, &tw->cinfo, count_entry, &tm->count);
        }
    }
    if (t->opt.tool == TR_BBCOUNT && tv_take(&dg, dev, snap.nglobal)) tv_free(&dg);
    const uint32_t *ctl = ctl_of(dev, counted, cinfo);
    for (uint32_t b = 0; b < L->nblocks; b++) L->counts[b] = counter(ctl, b, 0);
    if (tw->flags & WSI_NO_BLOCKS) L->flags |= WS_TRACE_NO_BLOCKS;
    if (t->opt.values && t->opt.tool != TR_BBCOUNT && t->opt.tool != TR_CUSTOM) L->flags |= WS_TRACE_VALUES;
    if (tw->flags & WSI_WARPS) {
        L->flags |= WS_TRACE_WARPS;
        if ((L->warp_counts = calloc(L->nblocks + 1, sizeof *L->warp_counts)) != NULL)
            for (uint32_t b = 0; b < L->nblocks; b++) L->warp_counts[b] = counter(ctl, b, 1);
    }
    /* A pass's fault report names the twin's PC: the launch's own report,
     * which names the original's, is noted instead when the launch faults
     * too (it runs last). */
    char pass_fault[WS_ERRLEN] = "";
    if (st1 != WS_OK) {
        L->flags |= WS_TRACE_FAULTED;
        snprintf(pass_fault, sizeof pass_fault, "%s", dev->err);
    }
    ws_launch_snapshot_restore(dev, &snap);
    /* pass 2: record */
    int complete = st1 == WS_OK;
    if (t->opt.tool == TR_BBCOUNT) {
        L->flags |= WS_TRACE_COUNTS_ONLY;
    } else {
        sizing want = size_from_counts(t, tw, L), used;
        for (int i = 0; i < NBUF; i++) want.n[i] -= want.n[i] < t->opt.short_by ? want.n[i] : t->opt.short_by;
        records rec = { .buf = 0 };
        custom = (ws_trace_custom_records){ 0 };
        int overflow = 0;
        ws_status st2 = record_pass(t, tw, G, run, record_entry, want, &used, &rec, &overflow, &tm->record, &dg,
                                    snap.nglobal);
        int lanes_differ = used.n[BUF_BB] != want.n[BUF_BB] || used.n[BUF_MEM] != want.n[BUF_MEM] ||
                           used.n[BUF_CUSTOM] != want.n[BUF_CUSTOM];
        /* measure again, once; also after a fault, if records went to slot 0 */
        if ((st2 == WS_OK || overflow) && (lanes_differ || used.n[BUF_WARP] != want.n[BUF_WARP])) {
            if (lanes_differ) {
                L->flags |= WS_TRACE_OVERFLOWED;
                /* A launch that faults stops its other warps wherever the fault
                 * finds them, and the inserted code moves that point: the two
                 * passes differ without any race. */
                note(L, "%s", t->opt.short_by ? "the recording pass's buffers were made short (--test-short); "
                                                   "re-ran it with the sizes it measured"
                              : st1 != WS_OK ? "the launch faults, and its other warps stood elsewhere when the "
                                               "recording pass faulted than when the counting pass did (the "
                                               "inserted code moves the point); re-ran it with the sizes it measured"
                                             : "the recording pass's lanes took other paths than the counting "
                                               "pass's (a race?); re-ran it with the sizes it measured");
            } else {
                note(L, "%s", "warps entered blocks in other groups than in the counting pass (grouping depends on "
                     "the schedule); re-ran the recording pass with the warp-record count it measured");
            }
            records_free(&rec);
            ws_launch_snapshot_restore(dev, &snap);
            want = used;
            dev->err[0] = 0;
            st2 = record_pass(t, tw, G, run, record_entry, want, &used, &rec, &overflow, &tm->record, &dg, snap.nglobal);
        }
        if (rec.no_room) { /* nothing ran, nothing faulted: the launch runs as it is, with its counts alone */
            L->flags |= WS_TRACE_NO_ROOM;
            note(L, "%s", dev->err);
            dev->err[0] = 0; /* (the tracer's, not the program's) */
        } else if (st2 != WS_OK && st1 == WS_OK) { /* faulted only when traced */
            L->flags |= WS_TRACE_FAULTED;
            snprintf(pass_fault, sizeof pass_fault, "%s", dev->err);
        }
        for (int i = 0; i < NBUF; i++) complete = complete && used.n[i] == want.n[i]; /* zero slack, no drop */
        complete = complete && st2 == WS_OK;
        char err[256] = "";
        uint32_t threads = (uint32_t)(G->grid.x * G->grid.y * G->grid.z) * G->threads_per_block;
        tr_buffers b = { rec.p[BUF_BB], rec.p[BUF_MEM], rec.p[BUF_WARP], rec.n[BUF_BB], rec.n[BUF_MEM], rec.n[BUF_WARP] };
        int bad = t->opt.tool == TR_CUSTOM
                      ? rec.p[BUF_CUSTOM] && tr_merge_custom(rec.p[BUF_CUSTOM], rec.n[BUF_CUSTOM], rec_size(t, BUF_CUSTOM),
                                                             t->custom_tool.record_size, threads, &custom, err, sizeof err)
                      : rec.p[BUF_MEM] && tr_merge(tw, tw->record, L, &b, threads, G->threads_per_block, err, sizeof err);
        if (bad) {
            note(L, "%s", err);
            complete = 0;
        } else if (err[0]) {
            note(L, "%s", err);
        }
        records_free(&rec);
        ws_launch_snapshot_restore(dev, &snap);
    }
    if (complete) L->flags |= WS_TRACE_COMPLETE;
    ws_launch_snapshot_free(&snap);
    /* the launch itself */
    double t0 = now();
    ws_status st = ws_tool_run(run);
    tm->original = now() - t0;
    L->device_thread_instructions = G->stats.thread_instructions;
    L->device_loads = G->stats.thread_loads;
    L->device_stores = G->stats.thread_stores;
    L->device_atomics = G->stats.thread_atomics;
    if (L->flags & WS_TRACE_FAULTED)
        note(L, "%s", st != WS_OK ? dev->err : pass_fault); /* (the original's PC when the launch faulted too) */
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
    if (st == WS_OK && (L->flags & WS_TRACE_COMPLETE)) check_against_device(t, L);
    if (t->opt.tool == TR_CUSTOM && (t->custom.loop_at || t->custom.branch_at)) {
        char why[160];
        if (t->custom.loop_at)
            snprintf(why, sizeof why, "loops (a branch back at 0x%08x): its turns count towards the starvation guard",
                     t->custom.loop_at);
        else
            snprintf(why, sizeof why, "branches (at 0x%08x): a group whose lanes split there ends a starvation "
                     "guard's turn", t->custom.branch_at);
        note(L, "the tool's device function %s, so where lanes of a warp wait for others the recording pass may "
             "group them otherwise than the launch (docs/tracing.md, custom tools)", why);
    }
    if (t->opt.tool == TR_CUSTOM) { /* the tool reads its records now */
        if (!L->note && !(L->note = strdup(""))) return st;
        L->device = t->device_number; /* (the tool's own number: a device numbers itself only at close) */
        t->custom_tool.records(t->custom_user, L, &custom);
        tr_custom_free(&custom);
    }
    if (!L->note && !(L->note = strdup(""))) return st;
    return st;
}
