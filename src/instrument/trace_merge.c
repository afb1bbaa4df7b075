/* Merging the recording pass's buffers into one trace: each record names
 * its call site by the helper's return address, which the rewriter's site
 * tables turn into a block or memory-instruction id; records are grouped
 * by thread (a counting sort, stable, so each thread's records stay in the
 * order its lane reserved them: program order), and a thread's memory
 * records fall into its block executions by the blocks' static counts. */
#include <stdlib.h>
#include <string.h>
#include "instrument/tracer_int.h"

typedef struct site {
    uint32_t addr, id;
} site;

static int by_addr(const void *a, const void *b)
{
    uint32_t x = ((const site *)a)->addr, y = ((const site *)b)->addr;
    return x < y ? -1 : x > y;
}

static site *site_table(const uint32_t *links, uint32_t n, uint32_t delta)
{
    site *s = malloc((n + 1) * sizeof *s);
    if (!s) return NULL;
    for (uint32_t i = 0; i < n; i++) s[i] = (site){ links[i] + delta, i };
    qsort(s, n, sizeof *s, by_addr);
    return s;
}

static int64_t lookup(const site *s, uint32_t n, uint32_t addr)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (s[mid].addr < addr) lo = mid + 1;
        else hi = mid;
    }
    return lo < n && s[lo].addr == addr ? (int64_t)s[lo].id : -1;
}

static uint32_t get32(const uint8_t *p)
{
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

/* Warp records: the leader lane's gid names the warp (warps are runs of
 * lanes_per_warp consecutive threads of a block); sorted by warp, stable. */
static int merge_warps(const site *bs, uint32_t nsites, ws_trace_launch *L, const tr_buffers *b, uint32_t total_threads,
                       uint32_t tpb, char *err, size_t errlen)
{
    uint32_t lanes = L->lanes_per_warp ? L->lanes_per_warp : 32, wpb = (tpb + lanes - 1) / lanes;
    uint64_t nwarps = (uint64_t)total_threads / (tpb ? tpb : 1) * wpb;
    uint64_t *start = calloc(nwarps + 2, sizeof *start);
    L->warps = malloc((b->nwarp + 1) * sizeof *L->warps);
    if (!start || !L->warps) { free(start); snprintf(err, errlen, "out of host memory while merging the trace"); return -1; }
    for (uint64_t i = 0; i < b->nwarp; i++) {
        uint32_t gid = get32(b->warp + i * WSI_WARP_RECORD_SIZE);
        if (gid >= total_threads) { free(start); snprintf(err, errlen, "warp record %llu names thread %u", (unsigned long long)i, gid); return -1; }
        start[gid / tpb * wpb + gid % tpb / lanes + 1]++;
    }
    for (uint64_t w = 0; w < nwarps; w++) start[w + 1] += start[w];
    for (uint64_t i = 0; i < b->nwarp; i++) {
        const uint8_t *r = b->warp + i * WSI_WARP_RECORD_SIZE;
        uint32_t gid = get32(r), warp = gid / tpb * wpb + gid % tpb / lanes;
        int64_t id = lookup(bs, nsites, get32(r + 8));
        if (id < 0) { free(start); snprintf(err, errlen, "warp record %llu has an unknown site", (unsigned long long)i); return -1; }
        L->warps[start[warp]++] = (ws_trace_warp_exec){ warp, get32(r + 4), (uint32_t)id };
    }
    L->nwarp = b->nwarp;
    free(start);
    return 0;
}

int tr_merge(const tr_twin *tw, const ws_module *record, ws_trace_launch *L, const tr_buffers *b,
             uint32_t total_threads, uint32_t tpb, char *err, size_t errlen)
{
    const uint8_t *bb = b->bb, *mem = b->mem;
    uint64_t nbb = b->nbb, nmem = b->nmem;
    const wsi_module_info *in = &tw->rinfo;
    uint32_t delta = record->base - record->link_base;
    site *bs = site_table(in->bb_site, in->nblocks, delta), *ms = site_table(in->mem_site, in->nmems, delta);
    uint64_t *bcount = calloc((size_t)total_threads + 1, sizeof *bcount);
    uint64_t *mcount = calloc((size_t)total_threads + 1, sizeof *mcount);
    L->bb = malloc((nbb + 1) * sizeof *L->bb);
    L->mem = malloc((nmem + 1) * sizeof *L->mem);
    if ((L->flags & WS_TRACE_VALUES) && !(L->values = calloc(nmem + 1, sizeof *L->values))) L->flags &= ~(uint32_t)WS_TRACE_VALUES;
    int rc = -1;
    if (!bs || !ms || !bcount || !mcount || !L->bb || !L->mem) {
        snprintf(err, errlen, "out of host memory while merging the trace");
        goto done;
    }
    for (uint64_t i = 0; i < nbb; i++) { /* counts per thread */
        uint32_t gid = get32(bb + i * WSI_BB_RECORD_SIZE);
        if (gid >= total_threads) { snprintf(err, errlen, "block record %llu names thread %u of %u", (unsigned long long)i, gid, total_threads); goto done; }
        bcount[gid + 1]++;
    }
    for (uint64_t i = 0; i < nmem; i++) {
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
        int64_t id = lookup(bs, in->nblocks, get32(r + 4));
        if (id < 0) { snprintf(err, errlen, "block record %llu has an unknown site 0x%08x", (unsigned long long)i, get32(r + 4)); goto done; }
        L->bb[bcount[get32(r)]++] = (uint32_t)id;
    }
    for (uint64_t i = 0; i < nmem; i++) {
        const uint8_t *r = mem + i * WSI_MEM_RECORD_SIZE;
        int64_t id = lookup(ms, in->nmems, get32(r + 4));
        if (id < 0) { snprintf(err, errlen, "memory record %llu has an unknown site 0x%08x", (unsigned long long)i, get32(r + 4)); goto done; }
        uint64_t k = mcount[get32(r)]++;
        L->mem[k] = (ws_trace_access){ (uint32_t)id, get32(r + 8) + (uint32_t)in->mems[id].imm };
        if (L->values && in->mems[id].kind != WSI_LOAD) L->values[k] = get32(r + 12);
    }
    L->nbb = nbb;
    L->nmem = nmem;
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
    rc = (L->flags & WS_TRACE_WARPS) && b->warp ? merge_warps(bs, in->nblocks, L, b, total_threads, tpb, err, errlen) : 0;
done:
    free(bs);
    free(ms);
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
