/* A kernel's instruction mix (Nsight Compute's executed instruction mix):
 * the timing model's exact per-PC counts over lanes, summed by kind and by
 * opcode. The tracer gives the same mix from its block counts
 * (src/instrument/trace_mix.c); profiler.instruction_mix checks that the
 * two agree. */
#include <stdlib.h>
#include <string.h>
#include "isa/isa.h"
#include "profile/prof_internal.h"

_Static_assert(MIX_KINDS <= sizeof ((prof_mix *)0)->kinds / sizeof ((prof_mix *)0)->kinds[0], "prof_mix.kinds");
_Static_assert(OP_COUNT <= PROF_MIX_OPS, "prof_mix.ops holds every op");

static int most_run(const void *a, const void *b)
{
    const prof_mix_op *x = a, *y = b;
    if (x->n != y->n) return x->n < y->n ? 1 : -1;
    return strcmp(ws_op_name((ws_op)x->op), ws_op_name((ws_op)y->op));
}

void prof_mix_build(const prof_kernel *k, prof_mix *m)
{
    memset(m, 0, sizeof *m);
    uint64_t by_op[OP_COUNT] = { 0 };
    for (size_t i = 0; i < k->npcs; i++) {
        const prof_pc *p = &k->pcs[i];
        if (p->pc == WS_RETIRE_ADDR || p->op >= OP_COUNT) continue; /* (the exit stub: warps drain there) */
        by_op[p->op] += p->exact.thread_instructions;
    }
    for (uint32_t op = 0; op < OP_COUNT; op++) {
        if (!by_op[op]) continue;
        m->total += by_op[op];
        m->kinds[ws_op_mix_kind((ws_op)op)] += by_op[op];
        m->ops[m->nops++] = (prof_mix_op){ (uint16_t)op, by_op[op] };
    }
    qsort(m->ops, m->nops, sizeof m->ops[0], most_run);
}

void prof_mix_text(FILE *f, const prof_mix *m)
{
    if (!m->total) return;
    fprintf(f, "  instruction mix (exact, over lanes):");
    for (int k = 0; k < MIX_KINDS; k++)
        fprintf(f, "%s %s %.1f%%", k ? "," : "", ws_mix_kind_name((ws_mix_kind)k, 0),
                prof_pct(m->kinds[k], m->total));
    fprintf(f, "; most run:");
    for (size_t i = 0; i < m->nops && i < 5; i++)
        fprintf(f, "%s %s %.1f%%", i ? "," : "", ws_op_name((ws_op)m->ops[i].op), prof_pct(m->ops[i].n, m->total));
    fprintf(f, "\n");
}

void prof_mix_json(FILE *f, const prof_mix *m)
{
    fprintf(f, "{\"lane_instructions\": %llu, \"kinds\": {", (unsigned long long)m->total);
    for (int k = 0; k < MIX_KINDS; k++)
        fprintf(f, "%s\"%s\": %llu", k ? ", " : "", ws_mix_kind_name((ws_mix_kind)k, 1), (unsigned long long)m->kinds[k]);
    fprintf(f, "}, \"opcodes\": [");
    for (size_t i = 0; i < m->nops; i++)
        fprintf(f, "%s{\"op\": \"%s\", \"lane_instructions\": %llu}", i ? ", " : "", ws_op_name((ws_op)m->ops[i].op),
                (unsigned long long)m->ops[i].n);
    fprintf(f, "]}");
}
