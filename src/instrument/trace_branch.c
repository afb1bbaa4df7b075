/* The branch tool's report: for each conditional branch, from the warp
 * records, how often warps reached it, how many lanes went each way, and
 * how often a warp diverged there (some lanes taken, some not). A lane's
 * outcome is the next block it entered: the branch's target or its
 * fall-through. */
#include <stdlib.h>
#include <string.h>
#include "instrument/tracer_int.h"

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

void tr_report_branches(const tr_twin *tw, const ws_trace_launch *L, FILE *f)
{
    if (!(L->flags & WS_TRACE_WARPS)) return;
    uint32_t *tk = calloc(L->nwarp + 1, sizeof *tk), *nt = calloc(L->nwarp + 1, sizeof *nt);
    int64_t pending[32];
    branch_stat *st = calloc(L->nblocks + 1, sizeof *st);
    if (!tk || !nt || !st) { free(tk); free(nt); free(st); return; }
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
                }
                pending[l] = blk->taken >= 0 || blk->fall >= 0 ? (int64_t)r : -1;
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
    fprintf(f, "  %-28s %-10s %10s %9s %7s %7s %10s\n", "branch", "pc", "warp-execs", "lanes/ex", "taken", "not", "divergent");
    for (uint32_t i = 0; i < L->nblocks && st[i].executions; i++) {
        const branch_stat *s = &st[i];
        char where[160];
        tr_where(tw, L->blocks[s->block].last, where, sizeof where);
        uint64_t out = s->taken + s->not_taken;
        fprintf(f, "  %-28s 0x%08x %10llu %9.1f %6.1f%% %6.1f%% %9.1f%%\n", where, L->blocks[s->block].last,
                (unsigned long long)s->executions, (double)s->lanes_in / (double)s->executions,
                out ? 100.0 * (double)s->taken / (double)out : 0.0, out ? 100.0 * (double)s->not_taken / (double)out : 0.0,
                100.0 * (double)s->divergent / (double)s->executions);
    }
    fprintf(f, "  (lanes/ex: active lanes arriving; taken/not: share of lanes; divergent: executions where the warp split)\n");
    free(tk);
    free(nt);
    free(st);
}
