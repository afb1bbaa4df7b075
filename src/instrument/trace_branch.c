/* The branch tool's report: for each conditional branch, from the warp
 * records, how often warps reached it, how many lanes went each way, and
 * how often a warp diverged there (some lanes taken, some not); then the
 * same for each indirect jump (a call through a pointer, a jump table, a
 * return): how many targets its lanes went to, and how often one warp's
 * lanes went to more than one. A lane's outcome is the next block it
 * entered. Direct jumps and calls are not listed: their lanes cannot part. */
#include <stdlib.h>
#include <string.h>
#include "instrument/tracer_int.h"
#include "isa/isa.h"

typedef struct branch_stat {
    uint32_t block;
    uint64_t executions, lanes_in, taken, not_taken, divergent;
} branch_stat;

static int by_executions(const void *a, const void *b)
{
    const branch_stat *x = a, *y = b;
    if (x->executions != y->executions) return x->executions < y->executions ? 1 : -1;
    return x->block < y->block ? -1 : x->block > y->block;
}

typedef enum jump_kind { NOT_INDIRECT, IND_CALL, IND_JUMP, IND_RETURN } jump_kind;

/* What the last instruction of block b is, as far as this report cares. */
static jump_kind indirect_kind(const tr_twin *tw, const ws_trace_block *b)
{
    const uint32_t lo = tr_twin_halfword(tw, b->last), hi = tr_twin_halfword(tw, b->last + 2);
    ws_inst in;
    ws_decode(lo | hi << 16, &in);
    if (in.op != OP_JALR) return NOT_INDIRECT;
    ws_inst before; /* auipc + jalr on one register: a direct call or tail call ("call f") */
    ws_decode(tr_twin_halfword(tw, b->last - 4) | (uint32_t)tr_twin_halfword(tw, b->last - 2) << 16, &before);
    if (b->last - 4 >= b->addr && before.op == OP_AUIPC && before.len == 4 && before.rd == in.rs1) return NOT_INDIRECT;
    if (in.rd != 0) return IND_CALL;
    return in.rs1 == 1 && in.imm == 0 ? IND_RETURN : IND_JUMP;
}

typedef struct indirect_stat {
    uint32_t block;
    jump_kind kind;
    uint64_t executions, lanes_in, divergent;
    uint8_t *targets; /* a bit per block of the launch's module */
} indirect_stat;

static int by_indirect_executions(const void *a, const void *b)
{
    const indirect_stat *x = a, *y = b;
    if (x->executions != y->executions) return x->executions < y->executions ? 1 : -1;
    return x->block < y->block ? -1 : x->block > y->block;
}

/* The name column's width: 28, or the longest name shown (library code
 * named "0x01000274 (__atomic_fetch_add_8)", FILE:0 (FUNCTION)), so the
 * numbers stay in their columns. */
static int widen(const tr_twin *tw, const ws_trace_launch *L, uint32_t block, int width)
{
    char where[160];
    tr_where(tw, L->blocks[block].last, where, sizeof where);
    return (int)strlen(where) > width ? (int)strlen(where) : width;
}

static uint32_t bits_set(const uint8_t *bits, uint32_t n)
{
    uint32_t c = 0;
    for (uint32_t i = 0; i < (n + 7) / 8; i++) c += (uint32_t)__builtin_popcount(bits[i]);
    return c;
}

/* The indirect jumps of a launch: a site per block that ends in one. */
typedef struct indirect_sites {
    uint32_t *site_of; /* per block: its site + 1, 0 if it ends in none */
    indirect_stat *st;
    uint32_t n;
    uint8_t *bits;
} indirect_sites;

static int sites_build(const tr_twin *tw, const ws_trace_launch *L, indirect_sites *S)
{
    memset(S, 0, sizeof *S);
    const size_t row = (L->nblocks + 7) / 8;
    S->site_of = calloc(L->nblocks + 1, sizeof *S->site_of);
    S->st = calloc(L->nblocks + 1, sizeof *S->st); /* at most a site per block */
    if (!S->site_of || !S->st) return -1;
    for (uint32_t b = 0; b < L->nblocks; b++) {
        const jump_kind kind = indirect_kind(tw, &L->blocks[b]);
        if (kind != NOT_INDIRECT) S->st[S->n] = (indirect_stat){ .block = b, .kind = kind }, S->site_of[b] = ++S->n;
    }
    S->bits = calloc((size_t)S->n + 1, row);
    if (!S->bits) return -1;
    for (uint32_t i = 0; i < S->n; i++) S->st[i].targets = S->bits + (size_t)i * row;
    return 0;
}

static void sites_free(indirect_sites *S)
{
    free(S->site_of);
    free(S->st);
    free(S->bits);
}

/* The indirect jumps' table (split[r]: the lanes of warp record r went to
 * more than one block). Returns are listed only where they diverged (lanes
 * called from different places): the others, one line. */
static void report_indirect(const tr_twin *tw, const ws_trace_launch *L, indirect_sites *S, const uint8_t *split,
                            FILE *f)
{
    if (!S->n) return;
    for (uint64_t r = 0; r < L->nwarp; r++) {
        const uint32_t site = S->site_of[L->warps[r].block];
        if (!site) continue;
        indirect_stat *s = &S->st[site - 1];
        s->executions++;
        s->lanes_in += (uint64_t)__builtin_popcount(L->warps[r].mask);
        s->divergent += split[r];
    }
    qsort(S->st, S->n, sizeof *S->st, by_indirect_executions);
    if (!S->st[0].executions) return;
    static const char *const kinds[] = { "", "call", "jump", "return" };
    uint32_t quiet_returns = 0, rows = 0;
    int width = 28;
    for (uint32_t i = 0; i < S->n && S->st[i].executions; i++)
        if (S->st[i].kind != IND_RETURN || S->st[i].divergent) width = widen(tw, L, S->st[i].block, width), rows++;
    if (rows) /* a table of returns that did not diverge is its summary line alone */
        fprintf(f, "  %-*s %-10s %-6s %10s %9s %7s %10s\n", width, "indirect jump", "pc", "kind", "warp-execs",
                "lanes/ex", "targets", "divergent");
    for (uint32_t i = 0; i < S->n && S->st[i].executions; i++) {
        const indirect_stat *s = &S->st[i];
        if (s->kind == IND_RETURN && !s->divergent) {
            quiet_returns++;
            continue;
        }
        char where[160], targets[16];
        const uint32_t nt = bits_set(s->targets, L->nblocks);
        snprintf(targets, sizeof targets, nt ? "%u" : "-", nt);
        tr_where(tw, L->blocks[s->block].last, where, sizeof where);
        fprintf(f, "  %-*s 0x%08x %-6s %10llu %9.1f %7s %9.1f%%\n", width, where, L->blocks[s->block].last, kinds[s->kind],
                (unsigned long long)s->executions, (double)s->lanes_in / (double)s->executions, targets,
                100.0 * (double)s->divergent / (double)s->executions);
    }
    if (quiet_returns)
        fprintf(f, "  (%s%u return%s, none divergent)\n", rows ? "and " : "indirect jumps: ", quiet_returns,
                quiet_returns == 1 ? "" : "s");
    if (rows)
        fprintf(f, "  (targets: blocks its lanes went to over the launch, -: they left the kernel; divergent: "
                   "executions where the warp's lanes went to more than one)\n");
}

void tr_report_branches(const tr_twin *tw, const ws_trace_launch *L, FILE *f)
{
    if (!(L->flags & WS_TRACE_WARPS)) return;
    uint32_t *tk = calloc(L->nwarp + 1, sizeof *tk), *nt = calloc(L->nwarp + 1, sizeof *nt);
    uint32_t *next = malloc((L->nwarp + 1) * sizeof *next); /* an indirect jump's first lane's target */
    uint8_t *split = calloc(L->nwarp + 1, 1);
    int64_t pending[32];
    branch_stat *st = calloc(L->nblocks + 1, sizeof *st);
    indirect_sites S;
    if (sites_build(tw, L, &S) || !tk || !nt || !st || !next || !split) {
        free(tk), free(nt), free(st), free(next), free(split), sites_free(&S);
        return;
    }
    for (uint64_t r = 0; r < L->nwarp; r++) next[r] = UINT32_MAX;
    for (uint64_t i = 0; i < L->nwarp;) {
        uint64_t end = i;
        while (end < L->nwarp && L->warps[end].warp == L->warps[i].warp) end++;
        for (int l = 0; l < 32; l++) pending[l] = -1;
        for (uint64_t r = i; r < end; r++) { /* one warp, in order */
            const ws_trace_warp_exec *x = &L->warps[r];
            const ws_trace_block *blk = &L->blocks[x->block];
            for (uint32_t m = x->mask; m; m &= m - 1) {
                int l = __builtin_ctz(m);
                if (pending[l] >= 0) {
                    const ws_trace_block *from = &L->blocks[L->warps[pending[l]].block];
                    if ((int32_t)x->block == from->taken) tk[pending[l]] |= 1u << l;
                    else if ((int32_t)x->block == from->fall) nt[pending[l]] |= 1u << l;
                    else if (S.site_of[L->warps[pending[l]].block]) { /* an indirect jump's lane */
                        uint32_t *to = &next[pending[l]];
                        split[pending[l]] |= *to != UINT32_MAX && *to != x->block;
                        *to = x->block;
                        S.st[S.site_of[L->warps[pending[l]].block] - 1].targets[x->block / 8] |=
                            (uint8_t)(1u << (x->block % 8));
                    }
                }
                pending[l] = blk->taken >= 0 || blk->fall >= 0 || S.site_of[x->block] ? (int64_t)r : -1;
            }
        }
        i = end;
    }
    for (uint64_t r = 0; r < L->nwarp; r++) {
        const ws_trace_block *blk = &L->blocks[L->warps[r].block];
        if (blk->taken < 0 && blk->fall < 0) continue;
        branch_stat *s = &st[L->warps[r].block];
        s->block = L->warps[r].block;
        s->executions++;
        s->lanes_in += (uint64_t)__builtin_popcount(L->warps[r].mask);
        s->taken += (uint64_t)__builtin_popcount(tk[r]);
        s->not_taken += (uint64_t)__builtin_popcount(nt[r]);
        s->divergent += tk[r] && nt[r];
    }
    qsort(st, L->nblocks, sizeof *st, by_executions);
    if (!L->nblocks || !st[0].executions) {
        /* a kernel without a conditional branch on its way (a shader, say)
         * got the table's heading and legend with no row under them */
        fprintf(f, "  conditional branches: none ran\n");
        report_indirect(tw, L, &S, split, f);
        free(tk), free(nt), free(st), free(next), free(split), sites_free(&S);
        return;
    }
    int width = 28;
    for (uint32_t i = 0; i < L->nblocks && st[i].executions; i++) width = widen(tw, L, st[i].block, width);
    fprintf(f, "  %-*s %-10s %10s %9s %7s %7s %10s\n", width, "branch", "pc", "warp-execs", "lanes/ex", "taken", "not",
            "divergent");
    for (uint32_t i = 0; i < L->nblocks && st[i].executions; i++) {
        const branch_stat *s = &st[i];
        char where[160];
        tr_where(tw, L->blocks[s->block].last, where, sizeof where);
        uint64_t out = s->taken + s->not_taken;
        fprintf(f, "  %-*s 0x%08x %10llu %9.1f %6.1f%% %6.1f%% %9.1f%%\n", width, where, L->blocks[s->block].last,
                (unsigned long long)s->executions, (double)s->lanes_in / (double)s->executions,
                out ? 100.0 * (double)s->taken / (double)out : 0.0, out ? 100.0 * (double)s->not_taken / (double)out : 0.0,
                100.0 * (double)s->divergent / (double)s->executions);
    }
    fprintf(f, "  (lanes/ex: active lanes arriving; taken/not: share of lanes; divergent: executions where the warp split)\n");
    report_indirect(tw, L, &S, split, f);
    free(tk);
    free(nt);
    free(st);
    free(next);
    free(split);
    sites_free(&S);
}
