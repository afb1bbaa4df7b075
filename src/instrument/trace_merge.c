/* Merging the recording pass's buffers into one trace: each record names
 * its call site by the helper's return address, which the rewriter's site
 * tables turn into a block or memory-instruction id; records are grouped
 * by thread (a counting sort, stable, so each thread's records stay in the
 * order its lane reserved them: program order), and a thread's memory
 * records fall into its block executions by the blocks' static counts. */
#include <stdlib.h>
#include <string.h>
#include "instrument/tracer_int.h"

/* Call-site address -> id: a direct table over the sites' address range
 * (each record looks one up; sites are 2-byte aligned code addresses). */
typedef struct site_map {
    uint32_t lo, span;   /* addresses [lo, lo + span) */
    int32_t *slot;       /* per 2 bytes: the id, or -1 */
} site_map;

enum { SITE_MAP_MAX = 1u << 24 }; /* 32 MiB of code: far beyond any module */

static int site_map_build(site_map *m, const uint32_t *links, uint32_t n, uint32_t delta)
{
    uint32_t lo = UINT32_MAX, hi = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t a = links[i] + delta;
        lo = a < lo ? a : lo;
        hi = a > hi ? a : hi;
    }
    m->lo = n ? lo : 0;
    m->span = n ? hi - lo + 2 : 0;
    if (m->span > 2u * SITE_MAP_MAX) return -1;
    m->slot = malloc((m->span / 2 + 1) * sizeof *m->slot);
    if (!m->slot) return -1;
    memset(m->slot, 0xFF, (m->span / 2 + 1) * sizeof *m->slot);
    for (uint32_t i = 0; i < n; i++) m->slot[(links[i] + delta - m->lo) / 2] = (int32_t)i;
    return 0;
}

static int64_t lookup(const site_map *m, uint32_t addr)
{
    uint32_t d = addr - m->lo;
    return d < m->span && !(d & 1) ? m->slot[d / 2] : -1;
}

static uint32_t get32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Warp records: the leader lane's gid names the warp (warps are runs of
 * lanes_per_warp consecutive threads of a block); sorted by warp, stable. */
static int merge_warps(const site_map *bs, ws_trace_launch *L, const tr_buffers *b, uint32_t total_threads,
                       uint32_t tpb, int faulted, uint64_t *unwritten, char *err, size_t errlen)
{
    uint32_t lanes = L->lanes_per_warp ? L->lanes_per_warp : 32, wpb = (tpb + lanes - 1) / lanes;
    uint64_t nwarps = (uint64_t)total_threads / (tpb ? tpb : 1) * wpb;
    uint64_t *start = calloc(nwarps + 2, sizeof *start);
    L->warps = malloc((b->nwarp + 1) * sizeof *L->warps);
    if (!start || !L->warps) { free(start); snprintf(err, errlen, "out of host memory while merging the trace"); return -1; }
    for (uint64_t i = 0; i < b->nwarp; i++) {
        uint32_t gid = get32(b->warp + i * WSI_WARP_RECORD_SIZE);
        if (faulted && lookup(bs, get32(b->warp + i * WSI_WARP_RECORD_SIZE + 8)) < 0) { (*unwritten)++; continue; }
        if (gid >= total_threads) { free(start); snprintf(err, errlen, "warp record %llu names thread %u", (unsigned long long)i, gid); return -1; }
        start[gid / tpb * wpb + gid % tpb / lanes + 1]++;
    }
    for (uint64_t w = 0; w < nwarps; w++) start[w + 1] += start[w];
    uint64_t kept = 0;
    for (uint64_t i = 0; i < b->nwarp; i++) {
        const uint8_t *r = b->warp + i * WSI_WARP_RECORD_SIZE;
        uint32_t gid = get32(r), warp = gid / tpb * wpb + gid % tpb / lanes;
        int64_t id = lookup(bs, get32(r + 8));
        if (id < 0 && faulted) continue; /* reserved before the fault, never written */
        if (id < 0) { free(start); snprintf(err, errlen, "warp record %llu has an unknown site", (unsigned long long)i); return -1; }
        L->warps[start[warp]++] = (ws_trace_warp_exec){ warp, get32(r + 4), (uint32_t)id };
        kept++;
    }
    L->nwarp = kept;
    free(start);
    return 0;
}

/* An address the recording pass touched, as the launch touches it: the
 * module's own data (globals, constants) lives in each twin during its
 * pass (trace_run.c, sync_data), data_delta further on than in the
 * original; such an address becomes the original's (until 2026-11-27 the
 * trace named the twin's copy, an address the program never sees). */
static uint32_t to_original(const ws_module *orig, const ws_module *twin, const wsi_module_info *in, uint32_t a)
{
    const uint32_t t_off = a - twin->base;
    if (!orig || t_off >= twin->size) return a;
    const uint32_t tlink = twin->link_base + t_off, olink = tlink - in->data_delta, o_off = olink - orig->link_base;
    if (tlink < in->new_text_end || olink < in->old_text_end || o_off >= orig->size) return a; /* (its code) */
    return orig->base + o_off;
}

int tr_merge(const tr_twin *tw, const ws_module *record, ws_trace_launch *L, const tr_buffers *b,
             uint32_t total_threads, uint32_t tpb, char *err, size_t errlen)
{
    const uint8_t *bb = b->bb, *mem = b->mem;
    uint64_t nbb = b->nbb, nmem = b->nmem;
    const wsi_module_info *in = &tw->rinfo;
    uint32_t delta = record->base - record->link_base;
    site_map bs = { 0, 0, NULL }, ms = { 0, 0, NULL };
    const int maps = !site_map_build(&bs, in->bb_site, in->nblocks, delta) &&
                     !site_map_build(&ms, in->mem_site, in->nmems, delta);
    uint64_t *bcount = calloc((size_t)total_threads + 1, sizeof *bcount);
    uint64_t *mcount = calloc((size_t)total_threads + 1, sizeof *mcount);
    L->bb = malloc((nbb + 1) * sizeof *L->bb);
    L->mem = malloc((nmem + 1) * sizeof *L->mem);
    if ((L->flags & WS_TRACE_VALUES) && !(L->values = calloc(nmem + 1, sizeof *L->values))) L->flags &= ~(uint32_t)WS_TRACE_VALUES;
    int rc = -1;
    if (!maps || !bcount || !mcount || !L->bb || !L->mem) {
        snprintf(err, errlen, "out of host memory while merging the trace");
        goto done;
    }
    /* A fault stops the device between a lane's reservation of a record
     * and its write: such a slot stays zero (no known site) and is left
     * out of a FAULTED launch; anywhere else it is an error. */
    const int faulted = (L->flags & WS_TRACE_FAULTED) != 0;
    uint64_t unwritten = 0;
    for (uint64_t i = 0; i < nbb; i++) { /* counts per thread */
        if (faulted && lookup(&bs, get32(bb + i * WSI_BB_RECORD_SIZE + 4)) < 0) { unwritten++; continue; }
        uint32_t gid = get32(bb + i * WSI_BB_RECORD_SIZE);
        if (gid >= total_threads) { snprintf(err, errlen, "block record %llu names thread %u of %u", (unsigned long long)i, gid, total_threads); goto done; }
        bcount[gid + 1]++;
    }
    for (uint64_t i = 0; i < nmem; i++) {
        if (faulted && lookup(&ms, get32(mem + i * WSI_MEM_RECORD_SIZE + 4)) < 0) { unwritten++; continue; }
        uint32_t gid = get32(mem + i * WSI_MEM_RECORD_SIZE);
        if (gid >= total_threads) { snprintf(err, errlen, "memory record %llu names thread %u of %u", (unsigned long long)i, gid, total_threads); goto done; }
        mcount[gid + 1]++;
    }
    uint32_t nthreads = 0;
    for (uint32_t g = 0; g < total_threads; g++) nthreads += bcount[g + 1] || mcount[g + 1];
    L->threads = calloc(nthreads + 1, sizeof *L->threads);
    if (!L->threads) { snprintf(err, errlen, "out of host memory while merging the trace"); goto done; }
    for (uint32_t g = 0, k = 0; g < total_threads; g++) {
        if (bcount[g + 1] || mcount[g + 1])
            L->threads[k++] = (ws_trace_thread){ .gid = g, .nblocks = (uint32_t)bcount[g + 1], .first_block = bcount[g],
                                                 .first_mem = mcount[g], .nmem = (uint32_t)mcount[g + 1] };
        bcount[g + 1] += bcount[g]; /* prefix sums: where each thread's records start */
        mcount[g + 1] += mcount[g];
    }
    for (uint32_t k = 0; k < nthreads; k++) { /* fix starts after the prefix sums */
        L->threads[k].first_block = bcount[L->threads[k].gid];
        L->threads[k].first_mem = mcount[L->threads[k].gid];
    }
    L->nthreads = nthreads;
    for (uint64_t i = 0; i < nbb; i++) {
        const uint8_t *r = bb + i * WSI_BB_RECORD_SIZE;
        int64_t id = lookup(&bs, get32(r + 4));
        if (id < 0 && faulted) continue;
        if (id < 0) { snprintf(err, errlen, "block record %llu has an unknown site 0x%08x", (unsigned long long)i, get32(r + 4)); goto done; }
        L->bb[bcount[get32(r)]++] = (uint32_t)id;
    }
    for (uint64_t i = 0; i < nmem; i++) {
        const uint8_t *r = mem + i * WSI_MEM_RECORD_SIZE;
        int64_t id = lookup(&ms, get32(r + 4));
        if (id < 0 && faulted) continue;
        if (id < 0) { snprintf(err, errlen, "memory record %llu has an unknown site 0x%08x", (unsigned long long)i, get32(r + 4)); goto done; }
        uint64_t k = mcount[get32(r)]++;
        L->mem[k] = (ws_trace_access){ (uint32_t)id, to_original(tw->orig, record, in, get32(r + 8) + (uint32_t)in->mems[id].imm) };
        if (L->values && in->mems[id].kind != WSI_LOAD) L->values[k] = get32(r + 12);
    }
    L->nbb = bcount[total_threads];
    L->nmem = mcount[total_threads];
    /* each thread's accesses must fit its block executions */
    for (uint32_t k = 0; k < nthreads; k++) {
        const ws_trace_thread *t = &L->threads[k];
        uint64_t want = 0;
        for (uint32_t j = 0; j < t->nblocks; j++) want += L->blocks[L->bb[t->first_block + j]].nmem;
        if (want != t->nmem && !(L->flags & (WS_TRACE_FAULTED | WS_TRACE_NO_BLOCKS))) {
            snprintf(err, errlen, "thread %u: %u memory records, its blocks hold %llu", t->gid, t->nmem, (unsigned long long)want);
            goto done;
        }
    }
    rc = (L->flags & WS_TRACE_WARPS) && b->warp
             ? merge_warps(&bs, L, b, total_threads, tpb, faulted, &unwritten, err, errlen) : 0;
    if (!rc && unwritten) /* not an error: the caller notes it */
        snprintf(err, errlen, "%llu record slots reserved before the fault were never written: left out",
                 (unsigned long long)unwritten);
done:
    if (rc) { /* nothing half merged reaches the reports */
        free(L->bb); free(L->mem); free(L->values); free(L->threads);
        L->bb = NULL; L->mem = NULL; L->values = NULL; L->threads = NULL;
        L->nbb = L->nmem = 0;
        L->nthreads = 0;
        L->flags &= ~(uint32_t)WS_TRACE_VALUES;
    }
    free(bs.slot);
    free(ms.slot);
    free(bcount);
    free(mcount);
    return rc;
}

int tr_merge_custom(const uint8_t *recs, uint64_t n, uint32_t slot, uint32_t payload, uint32_t total_threads,
                    ws_trace_custom_records *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    uint64_t *start = calloc((size_t)total_threads + 1, sizeof *start);
    uint32_t *gid = malloc((n + 1) * sizeof *gid), *site = malloc((n + 1) * sizeof *site);
    uint8_t *pay = malloc(n * payload + 1);
    if (!start || !gid || !site || !pay) {
        free(start); free(gid); free(site); free(pay);
        snprintf(err, errlen, "out of host memory while merging the tool's records");
        return -1;
    }
    for (uint64_t i = 0; i < n; i++) {
        uint32_t g = get32(recs + i * slot);
        if (g >= total_threads) {
            free(start); free(gid); free(site); free(pay);
            snprintf(err, errlen, "tool record %llu names thread %u of %u", (unsigned long long)i, g, total_threads);
            return -1;
        }
        start[g + 1]++;
    }
    for (uint32_t g = 0; g < total_threads; g++) start[g + 1] += start[g];
    for (uint64_t i = 0; i < n; i++) { /* stable: each lane reserved its slots in program order */
        const uint8_t *r = recs + i * slot;
        uint64_t k = start[get32(r)]++;
        gid[k] = get32(r);
        site[k] = get32(r + 4);
        memcpy(pay + k * payload, r + 8, payload);
    }
    free(start);
    *out = (ws_trace_custom_records){ n, payload, gid, site, pay };
    return 0;
}

void tr_custom_free(ws_trace_custom_records *r)
{
    free((void *)r->gid);
    free((void *)r->site);
    free((void *)r->payload);
    memset(r, 0, sizeof *r);
}
