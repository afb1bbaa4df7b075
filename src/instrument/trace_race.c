/* The racecheck tool's report: hazards between the threads of a block in
 * shared and global memory. Every thread's records give its accesses in
 * program order and the blocks it ran; the barriers inside those blocks
 * (bar does not end a basic block) cut its accesses into epochs: epoch k
 * lies between its k-th and (k+1)-th barrier. Two accesses by different
 * threads of one block to the same byte in the same epoch, at least one a
 * write, are a hazard: no barrier orders them, so the result depends on
 * the schedule (two atomics are not: they are ordered by the hardware),
 * unless a lock or a flag may order them: a release by one thread and an
 * acquire by the other through one word (trace_race_sync.c).
 * Stacks are private to their lane. Global accesses are also compared
 * between blocks (trace_race_grid.c), where only atomics and fences order
 * them.
 * Each access becomes a record per 4-byte word it touches, with the bytes
 * it touches there; a block's records are radix-sorted by epoch and word
 * (stable: threads stay in order), and each group of one word in one
 * epoch is checked. Counted per word, per pair of source lines (and kinds). */
#include <stdlib.h>
#include <string.h>
#include "instrument/trace_race.h"
#include "instrument/tracer_int.h"
#include "isa/isa.h"
#include "warpscope/abi.h"

/* Stable LSD radix sort of n records by key (its low `bits` bits). */
int tr_race_sort(race_rec *r, size_t n, unsigned bits)
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

int tr_race_writes(const ws_trace_launch *L, uint32_t inst) { return L->mem_insts[inst].kind != WS_TRACE_LOAD; }
int tr_race_atomic(const ws_trace_launch *L, uint32_t inst) { return L->mem_insts[inst].kind == WS_TRACE_ATOMIC; }

void tr_race_hazard(race_ctx *c, uint32_t block, uint32_t block_b, uint32_t epoch, uint32_t addr, uint32_t ta,
                    uint32_t ia, uint32_t tb, uint32_t ib, uint32_t lo, uint32_t hi)
{
    const ws_trace_launch *L = c->L;
    uint32_t sa = c->site ? c->site[ia] : ia, sb = c->site ? c->site[ib] : ib;
    if (sa > sb || (sa == sb && ia > ib)) {
        uint32_t t = ia; ia = ib; ib = t;
        t = sa; sa = sb; sb = t;
        t = ta; ta = tb; tb = t;
        t = block; block = block_b; block_b = t;
    }
    const int ww = tr_race_writes(L, ia) && tr_race_writes(L, ib), between = block != block_b;
    size_t i = 0;
    while (i < c->npairs && !(c->pairs[i].site_a == sa && c->pairs[i].site_b == sb && c->pairs[i].write_write == ww &&
                              c->pairs[i].between_blocks == between))
        i++;
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
        p->a = ia, p->b = ib, p->site_a = sa, p->site_b = sb, p->write_write = ww, p->between_blocks = between;
        p->ex_block = block, p->ex_block_b = block_b, p->ex_tid_a = ta, p->ex_tid_b = tb, p->ex_addr = addr;
    }
    race_pair *p = &c->pairs[i];
    const uint32_t lpw = L->lanes_per_warp;
    if (!between && lo / lpw != hi / lpw && !p->across_warps) {
        p->across_warps = 1;
        /* the report says "between warps": its example must be such a pair */
        if (ta / lpw != tb / lpw && p->ex_tid_a / lpw == p->ex_tid_b / lpw)
            p->ex_block = block, p->ex_block_b = block, p->ex_tid_a = ta, p->ex_tid_b = tb, p->ex_addr = addr;
    }
    /* bytes of one word come one after another: count the word once */
    if (!p->counted || p->last_block != block || p->last_epoch != epoch || p->last_word != addr >> 2) {
        p->words++;
        p->counted = 1, p->last_block = block, p->last_epoch = epoch, p->last_word = addr >> 2;
    }
}

/* One group of records: the same word in the same epoch of one block,
 * sorted by thread. Each instruction in it, by the bytes it touches and
 * what its thread acquired before and releases after it, with its first
 * two threads; every pair of them (one with itself if two threads ran it)
 * that shares a byte, with a write, not two atomics (or C11 atomic loads
 * and stores), two different threads and no handshake through a word that
 * may order them (trace_race_sync.c), is a hazard. */
#define GROUP_INSTS 64
static void check_group(race_ctx *c, const race_sync *rs, uint32_t block, const race_rec *g, size_t n, unsigned wbits)
{
    const ws_trace_launch *L = c->L;
    struct { uint32_t inst, tid[2], last, sync; uint8_t bytes, csync; int ntid; } e[GROUP_INSTS]; /* last: its highest thread */
    int ne = 0;
    for (size_t i = 0; i < n; i++) {
        int k = 0;
        const uint8_t csync = g[i].order & RACE_SYNC;
        while (k < ne && !(e[k].inst == g[i].inst && e[k].bytes == g[i].bytes && e[k].sync == g[i].sync && e[k].csync == csync))
            k++;
        if (k == ne) {
            if (ne == GROUP_INSTS) continue; /* (more than any real kernel puts on one word) */
            e[ne].inst = g[i].inst, e[ne].bytes = g[i].bytes, e[ne].tid[0] = e[ne].last = g[i].tid, e[ne].ntid = 1;
            e[ne].sync = g[i].sync, e[ne].csync = csync;
            ne++;
            continue;
        }
        if (e[k].ntid == 1 && e[k].tid[0] != g[i].tid) e[k].tid[1] = g[i].tid, e[k].ntid = 2;
        e[k].last = g[i].tid; /* (the group is sorted by thread) */
    }
    for (int u = 0; u < ne; u++)
        for (int v = u; v < ne; v++) {
            const uint32_t iu = e[u].inst, iv = e[v].inst;
            if (!(e[u].bytes & e[v].bytes) || (!tr_race_writes(L, iu) && !tr_race_writes(L, iv))) continue;
            if ((tr_race_atomic(L, iu) || e[u].csync) && (tr_race_atomic(L, iv) || e[v].csync)) continue;
            if (tr_sync_ordered(rs, e[u].sync, e[v].sync)) continue; /* a lock or a flag may order them */
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
            const uint32_t lpw = L->lanes_per_warp;
            if (tu / lpw == tv / lpw && lo / lpw != hi / lpw) { /* an example pair from two warps */
                if (e[v].last / lpw != tu / lpw) tv = e[v].last;
                else if (e[u].last / lpw != tv / lpw) tu = e[u].last;
            }
            const uint32_t word = (uint32_t)(g[0].key & ((1ull << wbits) - 1));
            const uint32_t addr = (word << 2) + (uint32_t)__builtin_ctz(e[u].bytes & e[v].bytes);
            tr_race_hazard(c, block, block, (uint32_t)(g[0].key >> wbits), addr, tu, iu, tv, iv, lo, hi);
        }
}

/* The instructions of operation `op` (barriers, fences) inside block b of
 * the original code: how many, and their pcs in order into pcs (if not
 * NULL). */
static uint32_t block_ops(const tr_twin *tw, const ws_trace_block *b, int op, uint32_t *pcs)
{
    uint32_t n = 0;
    for (uint32_t at = b->addr; at <= b->last;) {
        const uint16_t lo = tr_twin_halfword(tw, at);
        if (!lo) break;
        uint32_t bits = lo;
        if (ws_inst_length(lo) == 4) bits |= (uint32_t)tr_twin_halfword(tw, at + 2) << 16;
        ws_inst in;
        ws_decode(bits, &in);
        if ((int)in.op == op) {
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
    if (p->site_a != q->site_a) return p->site_a < q->site_a ? -1 : 1;
    if (p->site_b != q->site_b) return p->site_b < q->site_b ? -1 : 1;
    return p->between_blocks - q->between_blocks;
}

static const char *kind_name(uint8_t k) { return k == WS_TRACE_LOAD ? "load" : k == WS_TRACE_STORE ? "store" : "atomic"; }


/* Where the barriers (or fences) of each basic block are: block b's are
 * pcs[first[b] .. first[b] + n[b]) (an unrolled loop may hold many). */
typedef struct op_table {
    uint32_t *n, *first, *pcs;
} op_table;

static int op_table_build(const tr_twin *tw, const ws_trace_launch *L, int op, op_table *t)
{
    t->n = calloc(L->nblocks + 1, sizeof *t->n);
    t->first = calloc(L->nblocks + 1, sizeof *t->first);
    t->pcs = NULL;
    if (!t->n || !t->first) return -1;
    uint64_t total = 0;
    for (uint32_t b = 0; b < L->nblocks; b++) {
        t->first[b] = (uint32_t)total;
        total += t->n[b] = block_ops(tw, &L->blocks[b], op, NULL);
    }
    if (!(t->pcs = malloc((total + 1) * sizeof *t->pcs))) return -1;
    for (uint32_t b = 0; b < L->nblocks; b++) block_ops(tw, &L->blocks[b], op, t->pcs + t->first[b]);
    return 0;
}

static void op_table_free(op_table *t)
{
    free(t->n);
    free(t->first);
    free(t->pcs);
}

/* The epoch of pc in basic block b entered in epoch `epoch`. */
static uint32_t epoch_at(const op_table *bars, uint32_t b, uint32_t epoch, uint32_t pc)
{
    for (uint32_t q = 0; q < bars->n[b] && bars->pcs[bars->first[b] + q] < pc; q++) epoch++;
    return epoch;
}

typedef struct rec_buf {
    race_rec *r;
    size_t n, cap;
} rec_buf;

static race_rec *rec_push(rec_buf *b)
{
    if (b->n == b->cap) {
        size_t n = b->cap ? 2 * b->cap : 4096;
        race_rec *r = realloc(b->r, n * sizeof *r);
        if (!r) return NULL;
        b->r = r, b->cap = n;
    }
    return &b->r[b->n++];
}

/* What each memory instruction is, for what orders accesses: INST_TAKES,
 * an atomic that may take a lock (an exchange, a compare-and-swap, lr/sc,
 * an atomic or/and: a test-and-set; not an add, which takes a ticket or
 * counts, min or max); INST_CAS, a compare-and-swap (lr, amocas);
 * INST_RELAXED, a plain load that some thread follows with a
 * compare-and-swap of the same word (its next access): the first read of a
 * compare-and-swap loop, or a test-and-test-and-set's spin, which C11
 * writes as a relaxed atomic load, a plain lw on RISC-V. It counts as an
 * atomic load (a hazard with a plain store, not with an atomic). */
enum { INST_TAKES = 1, INST_CAS = 2, INST_RELAXED = 4 };

static uint8_t *inst_table(const tr_twin *tw, const ws_trace_launch *L)
{
    uint8_t *f = calloc(L->nmem_insts + 1, 1);
    if (!f) return NULL;
    for (uint32_t i = 0; i < L->nmem_insts; i++) {
        if (L->mem_insts[i].kind != WS_TRACE_ATOMIC) continue;
        const uint32_t pc = L->mem_insts[i].addr;
        const uint16_t lo = tr_twin_halfword(tw, pc);
        uint32_t bits = lo;
        if (ws_inst_length(lo) == 4) bits |= (uint32_t)tr_twin_halfword(tw, pc + 2) << 16;
        ws_inst in;
        ws_decode(bits, &in);
        switch ((ws_op)in.op) {
        case OP_LR_W: case OP_AMOCAS_W: case OP_AMOCAS_D: f[i] = INST_TAKES | INST_CAS; break;
        case OP_SC_W: case OP_AMOSWAP_W: case OP_AMOSWAP_D: case OP_AMOOR_W: case OP_AMOAND_W: case OP_AMOOR_D: case OP_AMOAND_D:
            f[i] = INST_TAKES;
            break;
        default: break;
        }
    }
    /* the loads that a compare-and-swap of their word follows */
    for (uint32_t t = 0; t < L->nthreads; t++) {
        const ws_trace_thread *th = &L->threads[t];
        uint32_t prev = UINT32_MAX, prev_word = 0;
        for (uint64_t m = th->first_mem; m < th->first_mem + th->nmem; m++) {
            const ws_trace_access *a = &L->mem[m];
            if (a->inst >= L->nmem_insts) break;
            const int in_shared = a->addr - WS_SHARED_BASE < WS_SHARED_END - WS_SHARED_BASE;
            if (!in_shared && a->addr >= WS_STACK_BASE) continue; /* a lane's own stack */
            if (prev != UINT32_MAX && f[a->inst] & INST_CAS && a->addr >> 2 == prev_word) f[prev] |= INST_RELAXED;
            prev = L->mem_insts[a->inst].kind == WS_TRACE_LOAD ? a->inst : UINT32_MAX;
            prev_word = a->addr >> 2;
        }
    }
    return f;
}

/* One thread's fences and atomics as its records are made: fenced, a
 * fence since its last access; in the block's records, rec0 where the
 * thread's begin, ld0 to ld1 its last access's if that was a load (shared
 * or global) of epoch ld_epoch. */
typedef struct thread_sync {
    size_t rec0, ld0, ld1;
    uint32_t ld_epoch;
    uint8_t fenced;
} thread_sync;

/* A fence: a load right before it is an acquiring (C11 atomic) load, of
 * its words; a store right after it a releasing one. */
static void pass_fence(thread_sync *ts, rec_buf *recs, race_sync *rs)
{
    ts->fenced = 1;
    if (ts->ld0 != SIZE_MAX)
        for (size_t i = ts->ld0; i < ts->ld1; i++) {
            recs->r[i].order |= RACE_SYNC;
            tr_sync_acquire(rs, ts->ld0 - ts->rec0, (uint32_t)recs->r[i].key | RACE_TAKEN, ts->ld_epoch);
        }
    ts->ld0 = SIZE_MAX;
}

static void report_pair(const tr_twin *tw, const ws_trace_launch *L, const race_pair *p, FILE *f)
{
    const ws_trace_mem_inst *ma = &L->mem_insts[p->a], *mb = &L->mem_insts[p->b];
    char wa[160], wb[160];
    tr_where(tw, ma->addr, wa, sizeof wa);
    tr_where(tw, mb->addr, wb, sizeof wb);
    const ws_dim3 gb = L->grid, bd = L->block;
    const int shared = p->ex_addr - WS_SHARED_BASE < WS_SHARED_END - WS_SHARED_BASE;
#define BX(b) (b) % gb.x, (b) / gb.x % gb.y, (b) / gb.x / gb.y
#define TX(t) (t) % bd.x, (t) / bd.x % bd.y, (t) / bd.x / bd.y
    fprintf(f, "    %-11s %s (%s) and %s (%s): %s memory, %llu word%s, ", p->write_write ? "write-write" : "read-write", wa,
            kind_name(ma->kind), wb, kind_name(mb->kind),
            shared ? "shared" : "global",
            (unsigned long long)p->words, p->words == 1 ? "" : "s");
    /* shared memory is at its link address in every module: its objects
     * name it (global memory is mostly the program's buffers) */
    char name[92], obj[96] = "";
    if (shared && tw && tw->lines && !ws_line_map_object(tw->lines, p->ex_addr, name, sizeof name))
        snprintf(obj, sizeof obj, " (%s)", name);
    if (p->between_blocks)
        fprintf(f, "between blocks; e.g. block (%u,%u,%u) thread (%u,%u,%u) and block (%u,%u,%u) thread (%u,%u,%u) at 0x%08x%s\n",
                BX(p->ex_block), TX(p->ex_tid_a), BX(p->ex_block_b), TX(p->ex_tid_b), p->ex_addr, obj);
    else
        fprintf(f, "%s; e.g. block (%u,%u,%u) threads (%u,%u,%u) and (%u,%u,%u) at 0x%08x%s\n",
                p->across_warps ? "between warps" : "within a warp", BX(p->ex_block), TX(p->ex_tid_a),
                TX(p->ex_tid_b), p->ex_addr, obj);
#undef BX
#undef TX
}

typedef struct site_key {
    char where[160];
    uint32_t kind, inst;
} site_key;

static int by_site(const void *a, const void *b)
{
    const site_key *x = a, *y = b;
    int c = strcmp(x->where, y->where);
    if (c) return c;
    if (x->kind != y->kind) return x->kind < y->kind ? -1 : 1;
    return x->inst < y->inst ? -1 : x->inst > y->inst;
}

/* Each memory instruction's site: instructions of one source line and
 * kind share one (an unrolled loop's copies of a line), so the report
 * names each pair of lines once (it listed the pair once per pair of
 * instructions, the same text many times). NULL: out of host memory. */
static uint32_t *site_table(const tr_twin *tw, const ws_trace_launch *L)
{
    const uint32_t n = L->nmem_insts;
    site_key *k = malloc((n ? n : 1) * sizeof *k);
    uint32_t *site = malloc((n ? n : 1) * sizeof *site);
    if (!k || !site) { free(k); free(site); return NULL; }
    for (uint32_t i = 0; i < n; i++) {
        tr_where(tw, L->mem_insts[i].addr, k[i].where, sizeof k[i].where);
        k[i].kind = L->mem_insts[i].kind;
        k[i].inst = i;
    }
    qsort(k, n, sizeof *k, by_site);
    for (uint32_t i = 0, id = 0; i < n; i++) {
        if (i && (strcmp(k[i].where, k[i - 1].where) || k[i].kind != k[i - 1].kind)) id++;
        site[k[i].inst] = id;
    }
    free(k);
    return site;
}

void tr_report_races(const tr_twin *tw, const ws_trace_launch *L, FILE *f)
{
    if (L->flags & WS_TRACE_NO_BLOCKS) return;
    const uint64_t tpb = (uint64_t)L->block.x * L->block.y * L->block.z;
    if (!tpb || !L->lanes_per_warp) return;
    uint32_t *site = site_table(tw, L);
    uint8_t *insts = inst_table(tw, L);
    race_ctx c = { .L = L, .site = site };
    if (!site || !insts) c.oom = 1;
    op_table bars = { 0 }, fences = { 0 };
    race_sync rs = { 0 }, gs = { 0 }; /* the block's table, the launch's */
    tr_sync_block(&gs);
    c.grid_sync = &gs;
    rec_buf recs = { 0 }, grid = { 0 }; /* one block's records; the launch's global ones */
    if (op_table_build(tw, L, OP_BAR, &bars) || op_table_build(tw, L, OP_FENCE, &fences)) c.oom = 1;
    uint64_t shared = 0, global = 0, inconsistent = 0;
    /* threads come in gid order, so a block's threads are together */
    for (uint32_t t0 = 0; t0 < L->nthreads && !c.oom;) {
        const uint32_t blk = (uint32_t)(L->threads[t0].gid / tpb);
        uint32_t t1 = t0, max_epoch = 0;
        recs.n = 0;
        tr_sync_block(&rs);
        for (; t1 < L->nthreads && L->threads[t1].gid / tpb == blk && !c.oom; t1++) {
            const ws_trace_thread *th = &L->threads[t1];
            const uint32_t tid = (uint32_t)(th->gid % tpb);
            uint64_t m = th->first_mem, mend = th->first_mem + th->nmem;
            uint32_t epoch = 0;
            thread_sync ts = { .rec0 = recs.n, .ld0 = SIZE_MAX };
            for (uint32_t j = 0; j < th->nblocks && !c.oom; j++) {
                const uint32_t b = L->bb[th->first_block + j];
                const ws_trace_block *blk_info = &L->blocks[b];
                uint32_t fq = 0; /* b's fences passed */
                for (uint32_t k = 0; k < blk_info->nmem && m < mend; k++, m++) {
                    const ws_trace_access *a = &L->mem[m];
                    const ws_trace_mem_inst *mi = &L->mem_insts[a->inst];
                    if (mi->block != b) { inconsistent++; m = mend; break; } /* records out of step: stop */
                    for (; fq < fences.n[b] && fences.pcs[fences.first[b] + fq] < mi->addr; fq++)
                        pass_fence(&ts, &recs, &rs);
                    const uint32_t off = a->addr;
                    const int in_shared = off - WS_SHARED_BASE < WS_SHARED_END - WS_SHARED_BASE;
                    if (!in_shared && off >= WS_STACK_BASE) continue; /* a lane's own stack */
                    const uint32_t e = epoch_at(&bars, b, epoch, mi->addr);
                    if (e > max_epoch) max_epoch = e;
                    const size_t rec_at = recs.n;
                    /* the words it touches, and its bytes in each */
                    for (uint32_t at = off; at < off + mi->size;) {
                        const uint32_t in_word = 4 - (at & 3), len = off + mi->size - at < in_word ? off + mi->size - at : in_word;
                        race_rec *to = rec_push(&recs);
                        if (!to) { c.oom = 1; break; }
                        *to = (race_rec){ (uint64_t)e << 32 | at >> 2, tid, a->inst, blk, 0,
                                          (uint8_t)(((1u << len) - 1) << (at & 3)),
                                          (uint8_t)((ts.fenced && mi->kind == WS_TRACE_STORE) || insts[a->inst] & INST_RELAXED
                                                        ? RACE_SYNC : 0) };
                        at += len;
                    }
                    /* an atomic acquires and releases its words, a store
                     * right after a fence releases them */
                    const uint32_t taken = insts[a->inst] & INST_TAKES ? RACE_TAKEN : 0;
                    for (size_t i = rec_at; i < recs.n; i++) {
                        const uint32_t w = (uint32_t)recs.r[i].key;
                        if (mi->kind == WS_TRACE_ATOMIC) tr_sync_acquire(&rs, rec_at - ts.rec0, w | taken, e);
                        if (mi->kind == WS_TRACE_ATOMIC || (ts.fenced && mi->kind == WS_TRACE_STORE))
                            tr_sync_release(&rs, recs.n - ts.rec0, w, e);
                    }
                    ts.ld0 = mi->kind == WS_TRACE_LOAD ? rec_at : SIZE_MAX, ts.ld1 = recs.n, ts.ld_epoch = e;
                    ts.fenced = 0;
                    if (in_shared) shared++;
                    else global++;
                }
                for (; fq < fences.n[b]; fq++) pass_fence(&ts, &recs, &rs); /* after its last access */
                epoch += bars.n[b];
            }
            tr_sync_thread(&rs, recs.r + ts.rec0, recs.n - ts.rec0);
            if (rs.oom) c.oom = 1;
        }
        /* the global records, to be compared with other blocks': other
         * threads' acquires in earlier epochs and releases in later ones
         * order them too (a barrier between); then only the word stays in
         * the key */
        if (!c.oom && tr_sync_epochs(&rs, max_epoch)) c.oom = 1;
        uint32_t last_id = 0, last_epoch = 0, last_gid = 0;
        int have_last = 0;
        for (size_t i = 0; i < recs.n && !c.oom; i++) {
            const race_rec *r = &recs.r[i];
            const uint32_t e = (uint32_t)(r->key >> 32);
            if (((uint32_t)r->key << 2) - WS_SHARED_BASE < WS_SHARED_END - WS_SHARED_BASE) continue;
            race_rec *g = rec_push(&grid);
            if (!g) { c.oom = 1; break; }
            *g = *r;
            g->key = (uint32_t)r->key;
            if (!have_last || r->sync != last_id || e != last_epoch) {
                last_gid = tr_sync_grid_id(&rs, r->sync, e, &gs);
                last_id = r->sync, last_epoch = e, have_last = 1;
            }
            g->sync = last_gid;
        }
        if (gs.oom) c.oom = 1;
        /* sort on as few bits as the block needs: epoch above word index */
        uint32_t max_word = 0;
        for (size_t i = 0; i < recs.n; i++)
            if ((uint32_t)recs.r[i].key > max_word) max_word = (uint32_t)recs.r[i].key;
        const unsigned wbits = max_word ? 32 - (unsigned)__builtin_clz(max_word) : 1;
        const unsigned bits = wbits + (max_epoch ? 32 - (unsigned)__builtin_clz(max_epoch) : 0);
        for (size_t i = 0; i < recs.n; i++) recs.r[i].key = (recs.r[i].key >> 32) << wbits | (uint32_t)recs.r[i].key;
        if (c.oom || tr_race_sort(recs.r, recs.n, bits)) { c.oom = 1; break; }
        for (size_t i = 0; i < recs.n;) {
            size_t j = i + 1;
            while (j < recs.n && recs.r[j].key == recs.r[i].key) j++;
            if (j - i > 1 && recs.r[i].tid != recs.r[j - 1].tid) check_group(&c, &rs, blk, &recs.r[i], j - i, wbits);
            i = j;
        }
        t0 = t1;
    }
    free(recs.r);
    op_table_free(&bars);
    op_table_free(&fences);
    tr_sync_free(&rs);
    if (!c.oom) tr_race_between_blocks(&c, grid.r, grid.n);
    tr_sync_free(&gs);
    free(grid.r);
    free(site);
    free(insts);
    if (c.oom) {
        fprintf(f, "  racecheck: out of host memory; no hazards reported\n");
        free(c.pairs);
        return;
    }
    if (c.npairs) qsort(c.pairs, c.npairs, sizeof *c.pairs, by_words);
    size_t between = 0;
    for (size_t i = 0; i < c.npairs; i++) between += c.pairs[i].between_blocks;
    fprintf(f, "  racecheck: %zu hazard%s (%llu shared and %llu global accesses checked)%s%s%s\n", c.npairs,
            c.npairs == 1 ? "" : "s", (unsigned long long)shared, (unsigned long long)global,
            c.npairs > between ? ": accesses by different threads of a block to the same byte with no barrier, lock or flag between, one a write" : "",
            between && c.npairs > between ? "; " : between ? ": " : "",
            between ? "accesses by different blocks to the same global byte, one a write, not ordered by a lock or a flag" : "");
    if (inconsistent) fprintf(f, "  racecheck: %llu threads' records were out of step and were cut short\n",
                              (unsigned long long)inconsistent);
    for (size_t i = 0; i < c.npairs; i++) report_pair(tw, L, &c.pairs[i], f);
    free(c.pairs);
}
