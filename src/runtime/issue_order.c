/* The issue order of a module's code (issue_order.h).
 *
 * The device issues a diverged warp's lanes in order of their PCs' keys,
 * lowest first, and a group runs until it would pass the others: with
 * keys in a topological order of the control flow, the lanes of a branch
 * all reach its join before any goes past it. Address order is such an
 * order when the compiler lays blocks out that way, which it does not
 * always: a rotated loop puts its latch above its header, an `if` body
 * may sit below the loop it belongs to. Then the lanes that skipped the
 * body ran on through the latch into the next iteration's warp shuffle
 * without the others (a warp scan gave wrong sums at -O1).
 *
 * Per function: basic blocks from a sweep of its instructions (an
 * indirect jump other than a return goes to each entry of the jump table
 * it reads, or if that is not found, to each of the function's addresses
 * that the module's read-only data holds); back edges from a depth-first search; each loop's body from its back edges;
 * then Kahn's topological sort of the forward edges, taking the ready
 * block with the lowest address, and once a loop's header is out, only
 * blocks of that loop until all of them are (the lanes still looping go
 * before those that left it). A function already in that order keeps
 * its addresses as keys. */
#include <stdlib.h>
#include <string.h>
#include "isa/isa.h"
#include "runtime/code_pointers.h"
#include "runtime/func_symbols.h"
#include "runtime/issue_order.h"

#define NONE UINT32_MAX
/* A function of more blocks keeps address order: the sort below takes
 * time and memory quadratic in its blocks, and a module is untrusted
 * input (kernels have tens to hundreds). */
#define MAX_BLOCKS 2048u
#define MAX_EDGES (1u << 20) /* a function of many switches on a long table */
#define WINDOW 16 /* instructions before an indirect jump searched for its table's address */

enum { K_FALL, K_BRANCH, K_JUMP, K_CALL, K_TABLE, K_END }; /* how control leaves an instruction */

typedef struct block {
    uint32_t start, end;       /* halfword slots of the function, [start, end) */
    uint32_t *succ, nsucc;     /* blocks (in func_cfg's edges) */
    uint8_t *back;             /* succ[i] is reached by a back edge */
    uint32_t indeg;            /* forward edges in, still to be taken */
} block;

typedef struct loop {
    uint32_t header, size, left; /* left: blocks not yet placed */
    uint8_t *in;                 /* per block: in the body */
    int irreducible;             /* entered other than through its header */
} loop;

typedef struct func_cfg {
    uint32_t nslots, nb, nloops;
    uint8_t *len, *kind;         /* per slot: instruction length in halfwords (0: none), kind */
    uint8_t *sync;               /* per slot: a warp vote or shuffle, or a barrier */
    uint32_t *target;            /* per slot: branch/jump target slot or NONE */
    uint32_t *block_of;          /* per slot (instruction starts) */
    uint32_t *table, ntable;     /* slots indirect jumps may reach: [0, nfall) any of the function's, then each table's */
    uint32_t nfall, cap;
    uint32_t *tab_lo, *tab_n;    /* per indirect jump's slot: its targets, table[tab_lo, tab_lo + tab_n) */
    size_t *tab_at;              /* per indirect jump's slot: its table's first word (index in the pointers) */
    uint32_t *edges;             /* every block's successors */
    uint8_t *edge_back;
    block *b;
    loop *loops;
} func_cfg;

/* Decode the instruction at halfword slot s of text, which ends at slot
 * end: its length in slots, or 0 for a partial instruction at the end. */
static uint32_t decode_at(const uint8_t *text, uint32_t s, uint32_t end, ws_inst *in)
{
    const uint32_t lo16 = (uint32_t)text[2 * s] | (uint32_t)text[2 * s + 1] << 8;
    const uint32_t n = ws_inst_length((uint16_t)lo16) / 2;
    if (s + n > end) return 0;
    ws_decode(n == 2 ? lo16 | ((uint32_t)text[2 * s + 2] | (uint32_t)text[2 * s + 3] << 8) << 16 : lo16, in);
    return n;
}

static void cfg_free(func_cfg *c)
{
    for (uint32_t i = 0; i < c->nloops; i++) free(c->loops[i].in);
    free(c->loops), free(c->b), free(c->block_of), free(c->target), free(c->kind), free(c->len), free(c->sync);
    free(c->table), free(c->edges), free(c->edge_back), free(c->tab_lo), free(c->tab_n), free(c->tab_at);
    memset(c, 0, sizeof *c);
}

/* Decode the function [fa, fa + 2 * nslots) (slots relative to its
 * start); each indirect jump's table among the code pointers p[0, np).
 * 0, or 1: not understood (a target between instructions), -1: memory. */
static int sweep(func_cfg *c, const uint8_t *code, uint32_t nslots, uint32_t fa, const uint8_t *calls_sync,
                 const ws_code_pointer *p, size_t np)
{
    c->nslots = nslots;
    c->len = calloc(nslots + 1, 1);
    c->kind = calloc(nslots + 1, 1);
    c->sync = calloc(nslots + 1, 1);
    c->target = malloc((nslots + 1) * sizeof *c->target);
    c->block_of = malloc((nslots + 1) * sizeof *c->block_of);
    if (!c->len || !c->kind || !c->sync || !c->target || !c->block_of) return -1;
    if (c->nfall && !(c->tab_at = malloc((nslots + 1) * sizeof *c->tab_at))) return -1;
    ws_inst recent[WINDOW];
    uint32_t recent_pc[WINDOW], nrecent = 0;
    for (uint32_t s = 0; s < nslots;) {
        ws_inst in;
        const uint32_t n = decode_at(code, s, nslots, &in);
        if (!n) break; /* a partial instruction at the end: not code */
        c->len[s] = (uint8_t)n;
        c->target[s] = NONE;
        c->sync[s] = ws_op_collective((ws_op)in.op) || in.op == OP_BAR || calls_sync[s];
        uint8_t k = K_FALL;
        if (in.op >= OP_BEQ && in.op <= OP_BGEU) k = K_BRANCH;
        else if (in.op == OP_JAL && in.rd == 0) k = K_JUMP;
        else if (in.op == OP_JAL && in.rd == 1) k = K_CALL; /* comes back: falls through (and, into this function, goes there) */
        else if (in.op == OP_JALR && in.rd == 0 && in.rs1 != 1 && c->nfall) { /* a switch's jump */
            k = K_TABLE;
            c->tab_at[s] = ws_jump_table_at(recent, recent_pc, nrecent, p, np, fa, fa + 2 * nslots);
        }
        else if ((in.op == OP_JALR && in.rd == 0) || in.op == OP_ILLEGAL) k = K_END; /* ret, a jump out */
        if (k == K_BRANCH || k == K_JUMP || k == K_CALL) {
            const int64_t t = (int64_t)s + in.imm / 2;
            if (in.imm % 2 == 0 && t >= (k == K_CALL) && t < (int64_t)nslots) c->target[s] = (uint32_t)t;
            else if (k == K_JUMP) k = K_END;  /* a tail call out of the function */
            else if (k == K_CALL) k = K_FALL; /* a call of another function, or of this one from its start */
        }
        c->kind[s] = k;
        if (nrecent == WINDOW) { /* keep the last WINDOW, oldest first */
            memmove(recent, recent + 1, (WINDOW - 1) * sizeof *recent);
            memmove(recent_pc, recent_pc + 1, (WINDOW - 1) * sizeof *recent_pc);
            nrecent--;
        }
        recent[nrecent] = in, recent_pc[nrecent++] = fa + 2 * s;
        s += n;
    }
    return 0;
}

static int ascending_size(const void *a, const void *b)
{
    const size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

static int table_add(func_cfg *c, uint32_t slot)
{
    if (c->ntable == c->cap) {
        uint32_t *t = realloc(c->table, (c->cap = c->cap ? 2 * c->cap : 16) * sizeof *t);
        if (!t) return -1;
        c->table = t;
    }
    c->table[c->ntable++] = slot;
    return 0;
}

/* Each indirect jump's targets: the words of its table, which runs on
 * while they point into the function, up to the next table an indirect
 * jump of the function reads; any of the function's code pointers when
 * its table was not found. -1 out of memory. */
static int resolve_tables(func_cfg *c, const ws_code_pointer *p, size_t np, uint32_t fa)
{
    if (!c->nfall) return 0;
    c->tab_lo = calloc(c->nslots + 1, sizeof *c->tab_lo);
    c->tab_n = calloc(c->nslots + 1, sizeof *c->tab_n);
    if (!c->tab_lo || !c->tab_n) return -1;
    const uint32_t fe = fa + 2 * c->nslots;
    size_t *starts = malloc((c->nslots + 1) * sizeof *starts), nstarts = 0; /* the tables' first words, ascending */
    if (!starts) return -1;
    for (uint32_t s = 0; s < c->nslots && c->len[s]; s += c->len[s])
        if (c->kind[s] == K_TABLE && c->tab_at[s] < np) starts[nstarts++] = c->tab_at[s];
    qsort(starts, nstarts, sizeof *starts, ascending_size);
    for (uint32_t s = 0; s < c->nslots && c->len[s]; s += c->len[s]) {
        if (c->kind[s] != K_TABLE) continue;
        const size_t first = c->tab_at[s];
        if (first >= np) { c->tab_lo[s] = 0, c->tab_n[s] = c->nfall; continue; }
        size_t l = 0, h = nstarts; /* the next table's first word after this one's */
        while (l < h) {
            const size_t m = (l + h) / 2;
            if (starts[m] <= first) l = m + 1;
            else h = m;
        }
        const size_t stop = l < nstarts ? starts[l] : np;
        c->tab_lo[s] = c->ntable;
        for (size_t i = first; i < stop && p[i].to > fa && p[i].to < fe; i++) {
            if (i > first && p[i].at != p[i - 1].at + 4) break;
            if (table_add(c, (p[i].to - fa) / 2)) { free(starts); return -1; }
        }
        c->tab_n[s] = c->ntable - c->tab_lo[s];
    }
    free(starts);
    return 0;
}

/* Basic blocks and their edges. 0, 1 (not understood), -1 (memory). */
static int build_blocks(func_cfg *c)
{
    const uint32_t n = c->nslots;
    uint8_t *leader = calloc(n + 1, 1);
    if (!leader) return -1;
    leader[0] = 1;
    for (uint32_t s = 0; s < n; s += c->len[s] ? c->len[s] : 1) {
        if (!c->len[s]) break;
        if (c->target[s] != NONE) {
            if (!c->len[c->target[s]]) { free(leader); return 1; } /* into the middle of an instruction */
            leader[c->target[s]] = 1;
        }
        if (c->kind[s] != K_FALL) leader[s + c->len[s]] = 1;
    }
    for (uint32_t i = 0; i < c->ntable; i++) leader[c->table[i]] |= c->len[c->table[i]] != 0; /* else not code */
    uint32_t nb = 0;
    for (uint32_t s = 0; s < n && c->len[s]; s += c->len[s]) nb += leader[s];
    c->b = calloc(nb ? nb : 1, sizeof *c->b);
    if (!c->b) { free(leader); return -1; }
    uint32_t cur = NONE;
    for (uint32_t s = 0; s < n && c->len[s]; s += c->len[s]) {
        if (leader[s]) {
            cur = cur == NONE ? 0 : cur + 1;
            c->b[cur].start = s;
        }
        c->block_of[s] = cur;
        c->b[cur].end = s + c->len[s];
    }
    c->nb = cur == NONE ? 0 : cur + 1;
    free(leader);
    /* at most two successors a block, or its table's entries */
    uint32_t nedges = 0, *last = malloc((c->nb ? c->nb : 1) * sizeof *last);
    uint32_t *seen = calloc(c->nb ? c->nb : 1, sizeof *seen); /* the block + 1 whose table last named it */
    if (!last || !seen) { free(last), free(seen); return -1; }
    for (uint32_t i = 0; i < c->nb; i++) {
        uint32_t t = c->b[i].start; /* the block's last instruction */
        for (uint32_t s = c->b[i].start; s < c->b[i].end; s += c->len[s]) t = s;
        last[i] = t;
        nedges += c->kind[t] == K_TABLE ? c->tab_n[t] : 2;
    }
    if (nedges > MAX_EDGES) { free(last), free(seen); return 1; }
    c->edges = malloc((nedges ? nedges : 1) * sizeof *c->edges);
    c->edge_back = calloc(nedges ? nedges : 1, 1);
    if (!c->edges || !c->edge_back) { free(last), free(seen); return -1; }
    uint32_t e = 0;
    for (uint32_t i = 0; i < c->nb; i++) {
        block *b = &c->b[i];
        const uint32_t t = last[i], next = b->end;
        b->succ = c->edges + e, b->back = c->edge_back + e;
        for (uint32_t j = 0; c->kind[t] == K_TABLE && j < c->tab_n[t]; j++) {
            const uint32_t slot = c->table[c->tab_lo[t] + j];
            if (!c->len[slot] || seen[c->block_of[slot]] == i + 1) continue; /* not code, or named before */
            seen[c->block_of[slot]] = i + 1;
            b->succ[b->nsucc++] = c->block_of[slot];
        }
        const int falls = c->kind[t] == K_FALL || c->kind[t] == K_BRANCH || c->kind[t] == K_CALL;
        if (c->target[t] != NONE) b->succ[b->nsucc++] = c->block_of[c->target[t]];
        if (falls && next < n && c->len[next] && (!b->nsucc || c->block_of[next] != b->succ[0]))
            b->succ[b->nsucc++] = c->block_of[next];
        e += b->nsucc;
    }
    free(last), free(seen);
    return 0;
}

/* Depth-first from the entry: marks back edges. 1 if a block is not
 * reached (an indirect jump's targets), -1 out of memory. */
static int find_back_edges(func_cfg *c)
{
    uint8_t *color = calloc(c->nb, 1); /* 0 white, 1 on the stack, 2 done */
    uint32_t *stack = malloc(c->nb * sizeof *stack), *next = calloc(c->nb, sizeof *next);
    if (!color || !stack || !next) { free(color), free(stack), free(next); return -1; }
    uint32_t sp = 0, reached = 1;
    stack[sp++] = 0;
    color[0] = 1;
    while (sp) {
        const uint32_t u = stack[sp - 1];
        block *b = &c->b[u];
        if (next[u] == b->nsucc) { color[u] = 2, sp--; continue; }
        const uint32_t i = next[u]++, v = b->succ[i];
        if (color[v] == 1) b->back[i] = 1;
        else if (!color[v]) { color[v] = 1, stack[sp++] = v, reached++; }
    }
    free(color), free(stack), free(next);
    return reached == c->nb ? 0 : 1;
}

/* The loops, one per header: the blocks that reach a back edge's source
 * without passing the header; not one entered other than through its
 * header (irreducible). 0, or -1 out of memory. */
static int find_loops(func_cfg *c)
{
    const uint32_t nb = c->nb;
    uint32_t *npred = calloc(nb + 1, sizeof *npred), *preds = NULL, *work = malloc(nb * sizeof *work);
    uint32_t nedges = 0;
    if (!npred || !work) { free(npred), free(work); return -1; }
    for (uint32_t u = 0; u < nb; u++)
        for (uint32_t i = 0; i < c->b[u].nsucc; i++) npred[c->b[u].succ[i] + 1]++, nedges++;
    for (uint32_t v = 0; v < nb; v++) npred[v + 1] += npred[v]; /* offsets */
    uint32_t *fill = calloc(nb, sizeof *fill);
    preds = malloc((nedges ? nedges : 1) * sizeof *preds);
    c->loops = calloc(nb, sizeof *c->loops);
    int rc = !fill || !preds || !c->loops ? -1 : 0;
    for (uint32_t u = 0; !rc && u < nb; u++)
        for (uint32_t i = 0; i < c->b[u].nsucc; i++) {
            const uint32_t v = c->b[u].succ[i];
            preds[npred[v] + fill[v]++] = u;
        }
    for (uint32_t u = 0; !rc && u < nb; u++)
        for (uint32_t i = 0; !rc && i < c->b[u].nsucc; i++) {
            if (!c->b[u].back[i]) continue;
            const uint32_t h = c->b[u].succ[i];
            loop *l = NULL;
            for (uint32_t k = 0; k < c->nloops; k++)
                if (c->loops[k].header == h) l = &c->loops[k];
            if (!l) {
                l = &c->loops[c->nloops++];
                l->header = h;
                if (!(l->in = calloc(nb, 1))) { rc = -1; break; }
                l->in[h] = 1, l->size = 1;
            }
            uint32_t nw = 0;
            if (!l->irreducible && !l->in[u]) l->in[u] = 1, l->size++, work[nw++] = u;
            while (nw) {
                const uint32_t x = work[--nw];
                if (x == 0) { l->irreducible = 1; break; } /* the entry reaches the back edge around the header */
                for (uint32_t p = npred[x]; p < npred[x + 1]; p++)
                    if (!l->in[preds[p]]) l->in[preds[p]] = 1, l->size++, work[nw++] = preds[p];
            }
        }
    /* An irreducible loop (a `goto` into its middle) is not kept together
     * and holds no lanes at a header: its blocks go in the topological
     * order of the edges the search did not find to go back, as any
     * block's, which still puts the lanes that left it after those still
     * in it. */
    uint32_t kept = 0;
    for (uint32_t k = 0; k < c->nloops; k++) {
        if (c->loops[k].irreducible) { free(c->loops[k].in); continue; }
        c->loops[kept++] = c->loops[k];
    }
    c->nloops = kept;
    free(npred), free(preds), free(work), free(fill);
    return rc;
}

/* Kahn's sort into order[]: lowest address first among the ready blocks
 * of the innermost loop being placed. 0, 1 (not understood), -1. */
static int sort_blocks(func_cfg *c, uint32_t *order)
{
    const uint32_t nb = c->nb;
    uint32_t *ready = malloc(nb * sizeof *ready), *open = malloc((c->nloops + 1) * sizeof *open);
    if (!ready || !open) { free(ready), free(open); return -1; }
    for (uint32_t u = 0; u < nb; u++)
        for (uint32_t i = 0; i < c->b[u].nsucc; i++)
            if (!c->b[u].back[i]) c->b[c->b[u].succ[i]].indeg++;
    for (uint32_t k = 0; k < c->nloops; k++) c->loops[k].left = c->loops[k].size;
    uint32_t nready = 0, nopen = 0, placed = 0;
    int rc = 0;
    ready[nready++] = 0;
    while (placed < nb) {
        const uint8_t *in = nopen ? c->loops[open[nopen - 1]].in : NULL;
        uint32_t best = NONE;
        for (uint32_t r = 0; r < nready; r++)
            if ((!in || in[ready[r]]) && (best == NONE || c->b[ready[r]].start < c->b[ready[best]].start)) best = r;
        if (best == NONE) { rc = 1; break; } /* a loop left unfinished: not a loop we understand */
        const uint32_t u = ready[best];
        ready[best] = ready[--nready];
        order[placed++] = u;
        for (uint32_t k = 0; k < c->nloops; k++) {
            if (c->loops[k].in[u]) c->loops[k].left--;
            if (c->loops[k].header == u) open[nopen++] = k;
        }
        while (nopen && !c->loops[open[nopen - 1]].left) nopen--;
        for (uint32_t i = 0; i < c->b[u].nsucc; i++)
            if (!c->b[u].back[i] && !--c->b[c->b[u].succ[i]].indeg) ready[nready++] = c->b[u].succ[i];
    }
    free(ready), free(open);
    return rc;
}

/* The keys (slots) of one function [fs, fs + nslots), at address fa,
 * into keys[]; left as they are (addresses) when its control flow is not
 * understood. Its indirect jumps go to the entries of the tables they
 * read among the code pointers p[0, np), or where none is found, to the
 * slots any[0, nany) (ascending, inside it); calls_sync[s] marks the
 * calls into a function that holds a vote, shuffle or barrier. Each
 * loop's header slot gets in ends[] the key (slot) just past the loop's
 * blocks, which issue order keeps together. 0, 1 when its control flow
 * is not understood (address order), -1 out of memory. */
static int order_function(const uint8_t *code, uint32_t fs, uint32_t fa, uint32_t nslots, const uint32_t *any,
                          uint32_t nany, const ws_code_pointer *p, size_t np, const uint8_t *calls_sync,
                          uint32_t *keys, uint32_t *ends, int *moved)
{
    func_cfg c;
    memset(&c, 0, sizeof c);
    uint32_t *order = NULL;
    int rc = 0;
    for (uint32_t i = 0; !rc && i < nany; i++) rc = table_add(&c, any[i] - fs);
    c.nfall = c.ntable;
    if (!rc) rc = sweep(&c, code, nslots, fa, calls_sync, p, np);
    if (!rc) rc = resolve_tables(&c, p, np, fa);
    if (!rc) rc = build_blocks(&c);
    if (!rc && c.nb > MAX_BLOCKS) rc = 1;
    if (!rc && c.nb > 1) rc = find_back_edges(&c);
    if (!rc && c.nb > 1) rc = find_loops(&c);
    if (!rc && c.nb > 1) rc = (order = malloc(c.nb * sizeof *order)) ? sort_blocks(&c, order) : -1;
    if (!rc && c.nb > 1) {
        uint32_t cur = fs;
        for (uint32_t i = 0; i < c.nb; i++) {
            const block *b = &c.b[order[i]];
            if (order[i] != i) *moved = 1;
            for (uint32_t s = b->start; s < b->end; s++) keys[fs + s] = cur + (s - b->start);
            cur += b->end - b->start;
        }
        /* A loop's lanes need to wait for each other at its header only
         * if the loop holds a vote, shuffle or barrier, or calls a
         * function that does: elsewhere lanes of different iterations
         * may run together, which keeps more of them in one group
         * (collatz: 42 % SIMT efficiency against 35 % held at the
         * header). Not every call: the tracer's instrumented copy calls
         * its recording code in loops the original has no call in, and
         * must group lanes as the original does. */
        for (uint32_t k = 0; k < c.nloops; k++) {
            const loop *l = &c.loops[k];
            uint32_t len = 0, sync = 0;
            for (uint32_t u = 0; u < c.nb; u++) {
                if (!l->in[u]) continue;
                len += c.b[u].end - c.b[u].start;
                for (uint32_t q = c.b[u].start; q < c.b[u].end; q++) sync |= c.sync[q];
            }
            const uint32_t head = fs + c.b[l->header].start;
            if (sync) ends[head] = keys[head] + len;
        }
    }
    free(order);
    cfg_free(&c);
    return rc;
}

/* Per slot of the code, 1 at each direct call (`jal ra`, or `auipc` and
 * `jalr ra` through its register, as `call` is without relaxation) into a
 * function that holds a vote, shuffle or barrier or calls one that does:
 * at -O0 a warp sum is such a call, and a loop around it must keep its
 * lanes together as if it were inlined; own[f] (nfuncs bytes, the
 * caller's): whether function f holds one itself. NULL out of host
 * memory. */
static uint8_t *sync_calls(const uint8_t *text, uint32_t lo, uint32_t nslots, const uint32_t *funcs, size_t nfuncs,
                           uint8_t *own)
{
    uint8_t *at = calloc(nslots ? nslots : 1, 1), *fsync = calloc(nfuncs ? nfuncs : 1, 1);
    uint32_t *callee = malloc((nslots ? nslots : 1) * sizeof *callee); /* per slot: a call's function, or NONE */
    if (!at || !fsync || !callee) { free(at), free(fsync), free(callee); return NULL; }
    for (uint32_t s = 0; s < nslots; s++) callee[s] = NONE;
    for (size_t f = 0; f < nfuncs; f++) {
        const uint32_t a = funcs[2 * f], e = funcs[2 * f + 1];
        if (a < lo || e > lo + 2 * nslots || e <= a || (a - lo) % 2) continue;
        ws_inst prev = { 0 };
        for (uint32_t s = (a - lo) / 2; s < (e - lo) / 2;) {
            ws_inst in;
            const uint32_t n = decode_at(text, s, (e - lo) / 2, &in), pc = lo + 2 * s;
            if (!n) break;
            if (ws_op_collective((ws_op)in.op) || in.op == OP_BAR) fsync[f] = 1;
            uint32_t t = NONE;
            if (in.op == OP_JAL && in.rd == 1) t = pc + (uint32_t)in.imm;
            else if (in.op == OP_JALR && in.rd == 1 && prev.op == OP_AUIPC && prev.rd == in.rs1 && in.rs1)
                t = pc - 4 + (uint32_t)prev.imm + (uint32_t)in.imm; /* the auipc is the 4 bytes before */
            if (t != NONE) {
                const size_t g = ws_func_range_at(funcs, nfuncs, t);
                if (g < nfuncs && t == funcs[2 * g]) callee[s] = (uint32_t)g;
            }
            prev = n == 2 ? in : (ws_inst){ 0 };
            s += n;
        }
    }
    memcpy(own, fsync, nfuncs);
    for (int changed = 1; changed;) { /* a caller of a function that holds one holds one */
        changed = 0;
        for (size_t f = 0; f < nfuncs; f++) {
            if (fsync[f]) continue;
            const uint32_t a = funcs[2 * f], e = funcs[2 * f + 1];
            if (a < lo || e > lo + 2 * nslots || e <= a) continue;
            for (uint32_t s = (a - lo) / 2; s < (e - lo) / 2 && !fsync[f]; s++)
                if (callee[s] != NONE && fsync[callee[s]]) fsync[f] = 1, changed = 1;
        }
    }
    for (uint32_t s = 0; s < nslots; s++) at[s] = callee[s] != NONE && fsync[callee[s]];
    free(fsync), free(callee);
    return at;
}

static int ascending(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

/* Both public calls: the keys, loop ends and whether any key moved; and
 * the starts of the functions left in address order that hold a vote,
 * shuffle or barrier (into unfollowed[0, max), counted in *nunfollowed).
 * 0, or -1 out of host memory. */
static int order_all(const uint8_t *text, uint32_t lo, uint32_t size, const uint32_t *funcs, size_t nfuncs,
                     const ws_code_pointer *ptrs, size_t nptrs, uint32_t *k, uint32_t *ends, int *moved,
                     uint32_t *unfollowed, size_t max, size_t *nunfollowed)
{
    const uint32_t nslots = size / 2;
    uint32_t *to = malloc((nptrs ? nptrs : 1) * sizeof *to), *any = malloc((nptrs ? nptrs : 1) * sizeof *any);
    uint8_t *own = malloc(nfuncs ? nfuncs : 1);
    uint8_t *calls_sync = own ? sync_calls(text, lo, nslots, funcs, nfuncs, own) : NULL;
    int rc = !to || !any || !calls_sync ? -1 : 0;
    for (size_t i = 0; !rc && i < nptrs; i++) to[i] = ptrs[i].to;
    if (!rc) qsort(to, nptrs, sizeof *to, ascending);
    size_t t = 0;
    for (size_t f = 0; f < nfuncs && rc >= 0; f++) {
        const uint32_t a = funcs[2 * f], e = funcs[2 * f + 1];
        if (a < lo || e > lo + size || e <= a || (a - lo) % 2) continue;
        uint32_t nany = 0; /* every code pointer into the function past its entry, as slots of the code, once */
        while (t < nptrs && to[t] <= a) t++;
        for (; t < nptrs && to[t] < e; t++)
            if (!nany || any[nany - 1] != (to[t] - lo) / 2) any[nany++] = (to[t] - lo) / 2;
        rc = order_function(text + (a - lo), (a - lo) / 2, a, (e - a) / 2, any, nany, ptrs, nptrs,
                            calls_sync + (a - lo) / 2, k, ends, moved);
        if (rc == 1 && nunfollowed && own[f]) {
            if (*nunfollowed < max) unfollowed[*nunfollowed] = a;
            ++*nunfollowed;
        }
    }
    free(to), free(any), free(calls_sync), free(own);
    return rc < 0 ? -1 : 0;
}

int ws_issue_order(const uint8_t *text, uint32_t lo, uint32_t size, const uint32_t *funcs, size_t nfuncs,
                   const ws_code_pointer *ptrs, size_t nptrs, uint32_t **keys, uint32_t **loop_ends)
{
    *keys = *loop_ends = NULL;
    const uint32_t nslots = size / 2;
    uint32_t *k = malloc((nslots ? nslots : 1) * sizeof *k), *ends = calloc(nslots ? nslots : 1, sizeof *ends);
    if (!k || !ends) { free(k), free(ends); return -1; }
    for (uint32_t s = 0; s < nslots; s++) k[s] = s;
    int moved = 0, loops = 0;
    if (order_all(text, lo, size, funcs, nfuncs, ptrs, nptrs, k, ends, &moved, NULL, 0, NULL)) {
        free(k), free(ends);
        return -1;
    }
    for (uint32_t s = 0; s < nslots; s++)
        if (ends[s]) ends[s] = lo + 2 * ends[s], loops = 1;
    if (loops) *loop_ends = ends;
    else free(ends);
    if (!moved) { free(k); return 0; }
    for (uint32_t s = 0; s < nslots; s++) k[s] = lo + 2 * k[s];
    *keys = k;
    return 0;
}

int ws_issue_unfollowed(const uint8_t *text, uint32_t lo, uint32_t size, const uint32_t *funcs, size_t nfuncs,
                        const ws_code_pointer *ptrs, size_t nptrs, uint32_t *out, size_t max, size_t *n)
{
    *n = 0;
    const uint32_t nslots = size / 2;
    uint32_t *k = malloc((nslots ? nslots : 1) * sizeof *k), *ends = calloc(nslots ? nslots : 1, sizeof *ends);
    int moved = 0;
    const int rc = !k || !ends ? -1 : order_all(text, lo, size, funcs, nfuncs, ptrs, nptrs, k, ends, &moved, out, max, n);
    free(k), free(ends);
    return rc;
}
