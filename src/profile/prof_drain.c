/* The exit drain of a kernel (docs/profiling.md): warps whose lanes have
 * returned wait at the exit stub until every store and atomic they issued
 * has completed (timing.md: a warp's store_done). A global store's or
 * atomic's completion is its turn at the core's LSU port, which only
 * moves forward, plus global_latency, so the one a warp issued last
 * completes last of its global ones: the drain waits for the last global
 * stores and atomics before the kernel's return. They are found from the
 * code the launches ran (the instruction counters), walking back from the
 * kernel's executed `ret`s along fall-through and jump edges, each path
 * up to its first global store or atomic; a path that meets a call ends
 * there (the callee's stores are not followed, and the caller's before
 * the call are not the last). A path is any the code allows:
 * one that the launches never took (a bounds test that never failed) may
 * name a store that ran as rarely; the stores are listed most run first. */
#include <stdlib.h>
#include <string.h>
#include "profile/prof_internal.h"

/* The target of a branch or a plain jump ("bnez a1, 0x1000032", "j
 * 0x1000040"), 0 when the instruction is neither. */
static uint32_t jump_target(const char *d)
{
    const char *last = strrchr(d, ' ');
    if (!last || strncmp(last + 1, "0x", 2)) return 0;
    if ((d[0] == 'b' && strncmp(d, "bar", 3)) || !strncmp(d, "j ", 2)) return (uint32_t)strtoul(last + 1, NULL, 16);
    return 0;
}

/* Whether control never falls through to the next instruction. */
static int no_fall_through(const char *d)
{
    return !strncmp(d, "j ", 2) || !strncmp(d, "jr ", 3) || !strcmp(d, "ret") || !strncmp(d, "tail", 4) ||
           !strncmp(d, "mret", 4);
}

/* A global store or atomic that ran. Stores to the lanes' stacks (local
 * memory: a prologue saving registers) are walked past: the drain waits
 * for them too, but a warp's register saves completed long before its
 * return, and naming them would send the user to a function's first line. */
static int writes_memory(const prof_pc *p)
{
    const char *kind = prof_inst_kind(p->disasm);
    return p->exact.gmem_requests > p->exact.local_requests && (!strcmp(kind, "store") || !strcmp(kind, "atomic"));
}

static int by_warp_instructions(const void *a, const void *b)
{
    const prof_pc *x = *(const prof_pc *const *)a, *y = *(const prof_pc *const *)b;
    if (x->exact.warp_instructions != y->exact.warp_instructions)
        return x->exact.warp_instructions > y->exact.warp_instructions ? -1 : 1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

size_t prof_drain_stores(const prof_kernel *k, const prof_pc **out, size_t max)
{
    /* the instructions that ran, in address order (k->pcs is sorted) */
    size_t n = 0, found = 0;
    const prof_pc **ran = malloc((k->npcs + 1) * sizeof *ran);
    size_t *stack = malloc((k->npcs + 1) * sizeof *stack);
    char *seen = calloc(k->npcs + 1, 1);
    const prof_pc **hit = malloc((k->npcs + 1) * sizeof *hit);
    uint32_t *to = malloc((k->npcs + 1) * sizeof *to);
    if (!ran || !stack || !seen || !hit || !to) goto done;
    for (size_t i = 0; i < k->npcs; i++)
        if (k->pcs[i].exact.warp_instructions && k->pcs[i].pc != WS_RETIRE_ADDR) {
            to[n] = jump_target(k->pcs[i].disasm);
            ran[n++] = &k->pcs[i];
        }
    size_t top = 0;
    /* start at the kernel's own returns (a called function's return to
     * its caller is not the kernel's) */
    for (size_t i = 0; i < n; i++)
        if (!strcmp(ran[i]->disasm, "ret") && ran[i]->src.function && k->kernel &&
            !strcmp(ran[i]->src.function, k->kernel) && !ran[i]->outside_unit) {
            seen[i] = 1;
            stack[top++] = i;
        }
    while (top) {
        size_t i = stack[--top];
        if (writes_memory(ran[i])) {
            hit[found++] = ran[i];
            continue; /* what came before completed no later */
        }
        /* a call (jal, jalr linking a register): what the path did last
         * is the callee's, whose stores are not followed; the stores
         * before the call completed no later than the callee's */
        if (!strncmp(ran[i]->disasm, "jal", 3)) continue;
        /* predecessors: the instruction before (unless it never falls
         * through) and every branch or jump to this one */
        if (i > 0 && !no_fall_through(ran[i - 1]->disasm) && ran[i]->pc - ran[i - 1]->pc <= 4 && !seen[i - 1]) {
            seen[i - 1] = 1;
            stack[top++] = i - 1;
        }
        for (size_t j = 0; j < n; j++)
            if (!seen[j] && to[j] == ran[i]->pc) {
                seen[j] = 1;
                stack[top++] = j;
            }
    }
    qsort(hit, found, sizeof *hit, by_warp_instructions);
    if (found > max) found = max;
    memcpy(out, hit, found * sizeof *hit);
done:
    free(to);
    free(ran);
    free(stack);
    free(seen);
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
