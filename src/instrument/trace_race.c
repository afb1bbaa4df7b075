/* The racecheck tool's report: hazards between the threads of a block in
 * shared and global memory. Every thread's records give its accesses in
 * program order and the blocks it ran; the barriers inside those blocks
 * (bar does not end a basic block) cut its accesses into epochs: epoch k
 * lies between its k-th and (k+1)-th barrier. Two accesses by different
 * threads of one block to the same byte in the same epoch, at least one a
 * write, are a hazard: no barrier orders them, so the result depends on
 * the schedule (two atomics are not: they are ordered by the hardware).
 * Stacks are private to their lane; blocks are not compared with each
 * other (nothing orders them within a launch but atomics).
 * Each access becomes a record per 4-byte word it touches, with the bytes
 * it touches there; a block's records are radix-sorted by epoch and word
 * (stable: threads stay in order), and each group of one word in one
 * epoch is checked. Counted per word, per pair of instructions. */
#include <stdlib.h>
#include <string.h>
#include "instrument/tracer_int.h"
#include "isa/isa.h"
#include "warpscope/abi.h"

typedef struct race_rec {
    uint64_t key;              /* epoch << 32 | word index (address / 4);
                                  sorted as epoch << wbits | word index      */
    uint32_t tid, inst;        /* thread (linear in its block), mem_insts index */
    uint8_t bytes;             /* bit i: byte i of the word                   */
} race_rec;

typedef struct race_pair {
    uint32_t a, b;             /* mem_insts indices, a <= b                  */
    int write_write;           /* else read-write                            */
    int across_warps;          /* some occurrence between two warps          */
    uint64_t words;            /* (block, epoch, word) occurrences            */
    uint32_t last_block, last_epoch, last_word; /* the last occurrence counted */
    int counted;
    uint32_t ex_block, ex_tid_a, ex_tid_b, ex_addr; /* the first occurrence   */
} race_pair;

typedef struct race_ctx {
    const ws_trace_launch *L;
    race_pair *pairs;
    size_t npairs, cap;
    int oom;
} race_ctx;

/* Stable LSD radix sort of n records by key (its low `bits` bits). */
static int radix_sort(race_rec *r, size_t n, unsigned bits)
{
    if (n < 2) return 0;
    race_rec *tmp = malloc(n * sizeof *tmp);
    if (!tmp) return -1;
    size_t count[2048];
    race_rec *src = r, *dst = tmp;
    for (unsigned shift = 0; shift < bits; shift += 11) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++) count[src[i].key >> shift & 2047]++;
        size_t at = 0;
        for (size_t d = 0; d < 2048; d++) { size_t c = count[d]; count[d] = at; at += c; }
        for (size_t i = 0; i < n; i++) dst[count[src[i].key >> shift & 2047]++] = src[i];
        race_rec *t = src; src = dst; dst = t;
    }
    if (src != r) memcpy(r, src, n * sizeof *r);
    free(tmp);
    return 0;
}

static int writes(const ws_trace_launch *L, uint32_t inst) { return L->mem_insts[inst].kind != WS_TRACE_LOAD; }
static int atomic(const ws_trace_launch *L, uint32_t inst) { return L->mem_insts[inst].kind == WS_TRACE_ATOMIC; }

/* Record one hazard between (ta, ia) and (tb, ib) at byte addr; the
 * threads involved span lo..hi (two warps or more: across warps). */
static void hazard(race_ctx *c, uint32_t block, uint32_t epoch, uint32_t addr, uint32_t ta, uint32_t ia, uint32_t tb,
                   uint32_t ib, uint32_t lo, uint32_t hi)
{
    const ws_trace_launch *L = c->L;
    if (ia > ib) { uint32_t t = ia; ia = ib; ib = t; t = ta; ta = tb; tb = t; }
    const int ww = writes(L, ia) && writes(L, ib);
    size_t i = 0;
    while (i < c->npairs && !(c->pairs[i].a == ia && c->pairs[i].b == ib && c->pairs[i].write_write == ww)) i++;
    if (i == c->npairs) {
        if (c->npairs == c->cap) {
            size_t n = c->cap ? 2 * c->cap : 16;
            race_pair *p = realloc(c->pairs, n * sizeof *p);
            if (!p) { c->oom = 1; return; }
            c->pairs = p;
            c->cap = n;
        }
        race_pair *p = &c->pairs[c->npairs++];
        memset(p, 0, sizeof *p);
        p->a = ia, p->b = ib, p->write_write = ww;
        p->ex_block = block, p->ex_tid_a = ta, p->ex_tid_b = tb, p->ex_addr = addr;
    }
    race_pair *p = &c->pairs[i];
    if (lo / L->lanes_per_warp != hi / L->lanes_per_warp) p->across_warps = 1;
    /* bytes of one word come one after another: count the word once */
    if (!p->counted || p->last_block != block || p->last_epoch != epoch || p->last_word != addr >> 2) {
        p->words++;
        p->counted = 1, p->last_block = block, p->last_epoch = epoch, p->last_word = addr >> 2;
    }
}

/* One group of records: the same word in the same epoch of one block,
 * sorted by thread. Each instruction in it, by the bytes it touches, with
 * its first two threads; every pair of them (one with itself if two
 * threads ran it) that shares a byte, with a write, not two atomics and
 * two different threads, is a hazard. */
#define GROUP_INSTS 64
static void check_group(race_ctx *c, uint32_t block, const race_rec *g, size_t n, unsigned wbits)
{
    const ws_trace_launch *L = c->L;
    struct { uint32_t inst, tid[2], last; uint8_t bytes; int ntid; } e[GROUP_INSTS]; /* last: its highest thread */
    int ne = 0;
    for (size_t i = 0; i < n; i++) {
        int k = 0;
        while (k < ne && !(e[k].inst == g[i].inst && e[k].bytes == g[i].bytes)) k++;
        if (k == ne) {
            if (ne == GROUP_INSTS) continue; /* (more than any real kernel puts on one word) */
            e[ne].inst = g[i].inst, e[ne].bytes = g[i].bytes, e[ne].tid[0] = e[ne].last = g[i].tid, e[ne].ntid = 1;
            ne++;
            continue;
        }
        if (e[k].ntid == 1 && e[k].tid[0] != g[i].tid) e[k].tid[1] = g[i].tid, e[k].ntid = 2;
        e[k].last = g[i].tid; /* (the group is sorted by thread) */
    }
    for (int u = 0; u < ne; u++)
        for (int v = u; v < ne; v++) {
            const uint32_t iu = e[u].inst, iv = e[v].inst;
            if (!(e[u].bytes & e[v].bytes) || (!writes(L, iu) && !writes(L, iv))) continue;
            if (atomic(L, iu) && atomic(L, iv)) continue;
            uint32_t tu = e[u].tid[0], tv = e[v].tid[0];
            if (u == v) {
                if (e[u].ntid < 2) continue;
                tv = e[u].tid[1];
            } else if (tu == tv) {
                if (e[v].ntid == 2) tv = e[v].tid[1];
                else if (e[u].ntid == 2) tu = e[u].tid[1];
                else continue; /* one thread: program order */
            }
            const uint32_t lo = e[u].tid[0] < e[v].tid[0] ? e[u].tid[0] : e[v].tid[0];
            const uint32_t hi = e[u].last > e[v].last ? e[u].last : e[v].last;
            const uint32_t word = (uint32_t)(g[0].key & ((1ull << wbits) - 1));
            const uint32_t addr = (word << 2) + (uint32_t)__builtin_ctz(e[u].bytes & e[v].bytes);
            hazard(c, block, (uint32_t)(g[0].key >> wbits), addr, tu, iu, tv, iv, lo, hi);
        }
}

/* The barriers inside block b of the original code: how many, and their
 * pcs in order into pcs (if not NULL). */
static uint32_t block_barriers(const tr_twin *tw, const ws_trace_block *b, uint32_t *pcs)
{
    uint32_t n = 0;
    for (uint32_t at = b->addr; at <= b->last;) {
        const uint16_t lo = tr_twin_halfword(tw, at);
        if (!lo) break;
        uint32_t bits = lo;
        if (ws_inst_length(lo) == 4) bits |= (uint32_t)tr_twin_halfword(tw, at + 2) << 16;
        ws_inst in;
        ws_decode(bits, &in);
        if (in.op == OP_BAR) {
            if (pcs) pcs[n] = at;
            n++;
        }
        at += ws_inst_length(lo);
    }
    return n;
}

static int by_words(const void *x, const void *y)
{
    const race_pair *p = x, *q = y;
    if (p->words != q->words) return p->words < q->words ? 1 : -1;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    return p->b < q->b ? -1 : p->b > q->b;
}

static const char *kind_name(uint8_t k) { return k == WS_TRACE_LOAD ? "load" : k == WS_TRACE_STORE ? "store" : "atomic"; }


void tr_report_races(const tr_twin *tw, const ws_trace_launch *L, FILE *f)
{
    if (L->flags & WS_TRACE_NO_BLOCKS) return;
    const uint64_t tpb = (uint64_t)L->block.x * L->block.y * L->block.z;
    if (!tpb || !L->lanes_per_warp) return;
    /* barriers per basic block (an unrolled loop may hold many): block b's
     * are bars[first[b] .. first[b] + nbars[b]) */
    uint32_t *nbars = calloc(L->nblocks + 1, sizeof *nbars), *first = calloc(L->nblocks + 1, sizeof *first), *bars = NULL;
    race_ctx c = { .L = L };
    race_rec *recs = NULL;
    size_t nrec = 0, cap = 0;
    uint64_t total_bars = 0;
    if (!nbars || !first) c.oom = 1;
    for (uint32_t b = 0; b < L->nblocks && !c.oom; b++) {
        first[b] = (uint32_t)total_bars;
        total_bars += nbars[b] = block_barriers(tw, &L->blocks[b], NULL);
    }
    if (!c.oom && !(bars = malloc((total_bars + 1) * sizeof *bars))) c.oom = 1;
    for (uint32_t b = 0; b < L->nblocks && !c.oom; b++) block_barriers(tw, &L->blocks[b], bars + first[b]);
    uint64_t shared = 0, global = 0, inconsistent = 0;
    /* threads come in gid order, so a block's threads are together */
    for (uint32_t t0 = 0; t0 < L->nthreads && !c.oom;) {
        const uint32_t blk = (uint32_t)(L->threads[t0].gid / tpb);
        uint32_t t1 = t0, max_epoch = 0;
        nrec = 0;
        for (; t1 < L->nthreads && L->threads[t1].gid / tpb == blk && !c.oom; t1++) {
            const ws_trace_thread *th = &L->threads[t1];
            const uint32_t tid = (uint32_t)(th->gid % tpb);
            uint64_t m = th->first_mem, mend = th->first_mem + th->nmem;
            uint32_t epoch = 0;
            for (uint32_t j = 0; j < th->nblocks; j++) {
                const uint32_t b = L->bb[th->first_block + j];
                const ws_trace_block *blk_info = &L->blocks[b];
                for (uint32_t k = 0; k < blk_info->nmem && m < mend; k++, m++) {
                    const ws_trace_access *a = &L->mem[m];
                    const ws_trace_mem_inst *mi = &L->mem_insts[a->inst];
                    if (mi->block != b) { inconsistent++; m = mend; break; } /* records out of step: stop */
                    const uint32_t off = a->addr;
                    const int in_shared = off - WS_SHARED_BASE < WS_SHARED_END - WS_SHARED_BASE;
                    if (!in_shared && off >= WS_STACK_BASE) continue; /* a lane's own stack */
                    uint32_t e = epoch;
                    for (uint32_t q = 0; q < nbars[b] && bars[first[b] + q] < mi->addr; q++) e++;
                    if (e > max_epoch) max_epoch = e;
                    /* the words it touches, and its bytes in each */
                    for (uint32_t at = off; at < off + mi->size && !c.oom;) {
                        const uint32_t in_word = 4 - (at & 3), len = off + mi->size - at < in_word ? off + mi->size - at : in_word;
                        if (nrec == cap) {
                            size_t n = cap ? 2 * cap : 4096;
                            race_rec *r = realloc(recs, n * sizeof *r);
                            if (!r) { c.oom = 1; break; }
                            recs = r, cap = n;
                        }
                        recs[nrec++] = (race_rec){ (uint64_t)e << 32 | at >> 2, tid, a->inst,
                                                   (uint8_t)(((1u << len) - 1) << (at & 3)) };
                        at += len;
                    }
                    if (in_shared) shared++;
                    else global++;
                }
                epoch += nbars[b];
            }
        }
        /* sort on as few bits as the block needs: epoch above word index */
        uint32_t max_word = 0;
        for (size_t i = 0; i < nrec; i++)
            if ((uint32_t)recs[i].key > max_word) max_word = (uint32_t)recs[i].key;
        const unsigned wbits = max_word ? 32 - (unsigned)__builtin_clz(max_word) : 1;
        const unsigned bits = wbits + (max_epoch ? 32 - (unsigned)__builtin_clz(max_epoch) : 0);
        for (size_t i = 0; i < nrec; i++) recs[i].key = (recs[i].key >> 32) << wbits | (uint32_t)recs[i].key;
        if (c.oom || radix_sort(recs, nrec, bits)) { c.oom = 1; break; }
        for (size_t i = 0; i < nrec;) {
            size_t j = i + 1;
            while (j < nrec && recs[j].key == recs[i].key) j++;
            if (j - i > 1 && recs[i].tid != recs[j - 1].tid) check_group(&c, blk, &recs[i], j - i, wbits);
            i = j;
        }
        t0 = t1;
    }
    free(recs);
    free(nbars);
    free(first);
    free(bars);
    if (c.oom) {
        fprintf(f, "  racecheck: out of host memory; no hazards reported\n");
        free(c.pairs);
        return;
    }
    if (c.npairs) qsort(c.pairs, c.npairs, sizeof *c.pairs, by_words);
    fprintf(f, "  racecheck: %zu hazard%s (%llu shared and %llu global accesses checked)%s\n", c.npairs,
            c.npairs == 1 ? "" : "s", (unsigned long long)shared, (unsigned long long)global,
            c.npairs ? ": accesses by different threads of a block to the same byte with no barrier between, one a write"
                     : "");
    if (inconsistent) fprintf(f, "  racecheck: %llu threads' records were out of step and were cut short\n",
                              (unsigned long long)inconsistent);
    for (size_t i = 0; i < c.npairs; i++) {
        const race_pair *p = &c.pairs[i];
        const ws_trace_mem_inst *ma = &L->mem_insts[p->a], *mb = &L->mem_insts[p->b];
        char wa[160], wb[160];
        tr_where(tw, ma->addr, wa, sizeof wa);
        tr_where(tw, mb->addr, wb, sizeof wb);
        const ws_dim3 gb = L->grid, bd = L->block;
        const uint32_t bx = p->ex_block % gb.x, by = p->ex_block / gb.x % gb.y, bz = p->ex_block / gb.x / gb.y;
        fprintf(f, "    %-11s %s (%s) and %s (%s): %s memory, %llu word%s, %s; e.g. block (%u,%u,%u) threads (%u,%u,%u) "
                   "and (%u,%u,%u) at 0x%08x\n",
                p->write_write ? "write-write" : "read-write", wa, kind_name(ma->kind), wb, kind_name(mb->kind),
                p->ex_addr - WS_SHARED_BASE < WS_SHARED_END - WS_SHARED_BASE ? "shared" : "global",
                (unsigned long long)p->words, p->words == 1 ? "" : "s",
                p->across_warps ? "between warps" : "within a warp", bx, by, bz, p->ex_tid_a % bd.x,
                p->ex_tid_a / bd.x % bd.y, p->ex_tid_a / bd.x / bd.y, p->ex_tid_b % bd.x, p->ex_tid_b / bd.x % bd.y,
                p->ex_tid_b / bd.x / bd.y, p->ex_addr);
    }
    free(c.pairs);
}
