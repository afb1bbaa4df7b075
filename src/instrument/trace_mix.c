/* bbcount's instruction mix (NVBit's opcode histogram, Nsight Compute's
 * instruction statistics): every instruction of every basic block that
 * ran, weighted by the block's lane executions, summed by kind and by
 * opcode. The memory kinds are checked against the device's own load,
 * store and atomic counters, as memtrace checks its accesses. */
#include <stdlib.h>
#include <string.h>
#include "instrument/tracer.h"
#include "instrument/tracer_int.h"
#include "isa/isa.h"

typedef struct op_count { uint64_t n; uint16_t op; } op_count;

static int by_count(const void *a, const void *b)
{
    const op_count *x = a, *y = b;
    if (x->n != y->n) return x->n < y->n ? 1 : -1;
    return strcmp(ws_op_name((ws_op)x->op), ws_op_name((ws_op)y->op));
}

void tr_report_mix(const tr_twin *tw, const ws_trace_launch *L, FILE *f)
{
    op_count ops[OP_COUNT];
    for (uint32_t i = 0; i < OP_COUNT; i++) ops[i] = (op_count){ 0, (uint16_t)i };
    uint64_t kinds[MIX_KINDS] = { 0 }, total = 0;
    for (uint32_t b = 0; b < L->nblocks; b++) {
        if (!L->counts[b]) continue;
        uint32_t at = L->blocks[b].addr;
        for (uint32_t k = 0; k < L->blocks[b].ninst; k++) {
            const uint16_t lo = tr_twin_halfword(tw, at);
            ws_inst in;
            ws_decode(lo | (uint32_t)tr_twin_halfword(tw, at + 2) << 16, &in);
            ops[in.op].n += L->counts[b];
            kinds[ws_op_mix_kind((ws_op)in.op)] += L->counts[b];
            total += L->counts[b];
            at += lo ? ws_inst_length(lo) : 4;
        }
    }
    if (!total) return;
    fprintf(f, "  instruction mix (over lanes):");
    for (int k = 0; k < MIX_KINDS; k++)
        fprintf(f, "%s %s %.1f%%", k ? "," : "", ws_mix_kind_name((ws_mix_kind)k, 0), 100.0 * (double)kinds[k] / (double)total);
    const int same = kinds[MIX_LOAD] == L->device_loads && kinds[MIX_STORE] == L->device_stores &&
                     kinds[MIX_ATOMIC] == L->device_atomics;
    fprintf(f, "\n  memory instructions (over lanes): %llu loads, %llu stores, %llu atomics; device counters: %llu, %llu, %llu (%s)\n",
            (unsigned long long)kinds[MIX_LOAD], (unsigned long long)kinds[MIX_STORE], (unsigned long long)kinds[MIX_ATOMIC],
            (unsigned long long)L->device_loads, (unsigned long long)L->device_stores, (unsigned long long)L->device_atomics,
            tr_check(L, same, 1));
    qsort(ops, OP_COUNT, sizeof *ops, by_count);
    fprintf(f, "  opcodes by instructions executed:\n");
    for (uint32_t i = 0; i < 10 && ops[i].n; i++)
        fprintf(f, "    %-14s %12llu  %5.1f%%\n", ws_op_name((ws_op)ops[i].op), (unsigned long long)ops[i].n,
                100.0 * (double)ops[i].n / (double)total);
}
