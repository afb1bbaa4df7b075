/* The exit drain of a kernel (docs/profiling.md): warps whose lanes have
 * returned wait at the exit stub until every store and atomic they issued
 * has completed (timing.md: a warp's store_done). The instruction
 * counters count, for each warp that ran to its end, the store or atomic
 * that completed last (ws_pc_counter.exit_drains): what its drain waited
 * for, through calls, tail calls and whatever path the warp took. Until
 * 2026-11-29 the profiler guessed them from the code, walking back from
 * the kernel's returns to the first global store on each path, which
 * stopped at calls and named stores of paths the warps never took. */
#include <stdlib.h>
#include <string.h>
#include "profile/prof_internal.h"

static int by_drains(const void *a, const void *b)
{
    const prof_pc *x = *(const prof_pc *const *)a, *y = *(const prof_pc *const *)b;
    if (x->exact.exit_drains != y->exact.exit_drains) return x->exact.exit_drains > y->exact.exit_drains ? -1 : 1;
    if (x->exact.warp_instructions != y->exact.warp_instructions)
        return x->exact.warp_instructions > y->exact.warp_instructions ? -1 : 1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

size_t prof_drain_stores(const prof_kernel *k, const prof_pc **out, size_t max)
{
    size_t found = 0;
    const prof_pc **hit = malloc((k->npcs + 1) * sizeof *hit);
    if (!hit) return 0;
    for (size_t i = 0; i < k->npcs; i++)
        if (k->pcs[i].exact.exit_drains) hit[found++] = &k->pcs[i];
    qsort(hit, found, sizeof *hit, by_drains);
    if (found > max) found = max;
    memcpy(out, hit, found * sizeof *hit);
    free(hit);
    return found;
}

void prof_drain_figures(const prof_line *lines, size_t nl, uint64_t *drain, uint64_t *all)
{
    *drain = *all = 0;
    for (size_t i = 0; i < nl; i++) {
        *all += prof_exact_cycles(&lines[i].exact);
        if (prof_line_is_exit(&lines[i])) *drain += prof_exact_cycles(&lines[i].exact);
    }
}
