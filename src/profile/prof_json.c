/* The JSON document of one device's profile (docs/profiling.md, "JSON
 * schema"). Key order and number formats are fixed, so the same run gives
 * the same bytes. */
#include <stdlib.h>
#include <string.h>
#include "profile/prof_internal.h"
#include "runtime/json_text.h"

/* A JSON string, in quotes (json_text.h: how bytes outside UTF-8 are
 * written); null for NULL. */
void prof_json_string(FILE *f, const char *s)
{
    if (!s) { fputs("null", f); return; }
    fputc('"', f);
    ws_json_chars(f, s);
    fputc('"', f);
}

static void states(FILE *f, const uint64_t st[WS_STATE_COUNT])
{
    fputs("{", f);
    int first = 1;
    for (int s = 0; s < WS_STATE_COUNT; s++) {
        if (!st[s]) continue;
        fprintf(f, "%s\"%s\": %llu", first ? "" : ", ", prof_state_name((unsigned)s), (unsigned long long)st[s]);
        first = 0;
    }
    fputs("}", f);
}

static void src_fields(FILE *f, const prof_src *s)
{
    fputs("\"file\": ", f);
    prof_json_string(f, s->file);
    fprintf(f, ", \"line\": %u, \"function\": ", s->line);
    prof_json_string(f, s->function);
}

/* An instruction entry's opening (the i-th of its list): its pc, samples,
 * disassembly and source place. */
static void pc_head(FILE *f, const prof_pc *p, size_t i)
{
    fprintf(f, "%s\n        {\"pc\": %u, \"samples\": %llu, \"instruction\": ", i ? "," : "", p->pc,
            (unsigned long long)p->samples);
    prof_json_string(f, p->disasm);
    fputs(", ", f);
    src_fields(f, &p->src);
}

static void producer(FILE *f, const prof_pc *p)
{
    if (!p || !p->producer_pc) { fputs("null", f); return; }
    fprintf(f, "{\"pc\": %u, \"samples\": %llu, \"instruction\": ", p->producer_pc,
            (unsigned long long)p->producer_samples);
    prof_json_string(f, p->producer_disasm);
    fputs(", ", f);
    src_fields(f, &p->producer_src);
    /* the waiting instruction only overwrites the producer's register
     * (an atomic's unused old value: the report's "write after write") */
    fprintf(f, ", \"write_after_write\": %s}", p->producer_waw ? "true" : "false");
}

/* The exit drain apart from the kernel's lines (the report's "exit drain"
 * line): its warp-cycles, all of the kernel's, those of its lines (what the
 * rules' shares are of), whether the report names it (2 % or more), and the
 * stores it waits for. */
static void exit_drain(FILE *f, const prof_kernel *k, const prof_line *l, size_t nl)
{
    uint64_t drain, all;
    prof_drain_figures(l, nl, &drain, &all);
    fprintf(f, "{\"warp_cycles\": %llu, \"kernel_warp_cycles\": %llu, \"lines_warp_cycles\": %llu, "
               "\"reported\": %s, \"last_stores\": [",
            (unsigned long long)drain, (unsigned long long)all, (unsigned long long)(all - drain),
            drain && (double)drain >= PROF_DRAIN_NOTE * (double)all ? "true" : "false");
    const prof_pc *st[16];
    size_t n = drain ? prof_drain_stores(k, st, 16) : 0;
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s{\"pc\": %u, \"instruction\": ", i ? ", " : "", st[i]->pc);
        prof_json_string(f, st[i]->disasm);
        fputs(", ", f);
        src_fields(f, &st[i]->src);
        fprintf(f, ", \"warps\": %llu, \"warp_instructions\": %llu, \"global_requests\": %llu, "
                   "\"global_sectors\": %llu}",
                (unsigned long long)st[i]->exact.exit_drains, (unsigned long long)st[i]->exact.warp_instructions,
                (unsigned long long)st[i]->exact.gmem_requests, (unsigned long long)st[i]->exact.gmem_sectors);
    }
    fputs("]}", f);
}

static void stall_name(FILE *f, const uint64_t st[WS_STATE_COUNT])
{
    int top = prof_top_stall(st);
    if (top < 0) fputs("null", f);
    else fprintf(f, "\"%s\"", prof_state_name((unsigned)top));
}

/* The instruction counters: "exact": {"warp_instructions": ..., "cycles": {"state": n, ...}} */
static void exact(FILE *f, const ws_pc_counter *e)
{
    fprintf(f, "{\"warp_instructions\": %llu, \"thread_instructions\": %llu, \"shared_requests\": %llu, "
               "\"shared_wavefronts\": %llu, \"global_requests\": %llu, \"global_sectors\": %llu, "
               "\"local_requests\": %llu, \"cycles\": {",
            (unsigned long long)e->warp_instructions, (unsigned long long)e->thread_instructions,
            (unsigned long long)e->shared_requests, (unsigned long long)e->shared_wavefronts,
            (unsigned long long)e->gmem_requests, (unsigned long long)e->gmem_sectors,
            (unsigned long long)e->local_requests);
    int first = 1;
    for (int s = 0; s < WS_STATE_COUNT; s++)
        if (e->stall_cycles[s]) {
            fprintf(f, "%s\"%s\": %llu", first ? "" : ", ", prof_state_name((unsigned)s),
                    (unsigned long long)e->stall_cycles[s]);
            first = 0;
        }
    fputs("}}", f);
}

/* Per sampled state, the standard error of its share of the samples,
 * with the sampling point as the unit (prof_share_error). */
static void state_errors(FILE *f, const prof_kernel *k)
{
    fputs("{", f);
    int first = 1;
    for (int s = 0; s < WS_STATE_COUNT; s++) {
        if (!k->state[s]) continue;
        fprintf(f, "%s\"%s\": %.6f", first ? "" : ", ", prof_state_name((unsigned)s),
                prof_share_error(&k->spread, (unsigned)s, k->state[s], k->samples));
        first = 0;
    }
    fputs("}", f);
}

/* Code without a line: the lines it is reached from (prof_line0.c),
 * "more_origins" when there are others beyond those listed. */
static void line0_origins(FILE *f, const prof_kernel *k, const prof_line *l)
{
    uint32_t lines[8];
    int more;
    size_t n = prof_line0_line_origins(k, l, lines, 8, &more);
    fputs(", \"reached_from\": [", f);
    for (size_t i = 0; i < n; i++) fprintf(f, "%s%u", i ? ", " : "", lines[i]);
    fprintf(f, "], \"more_origins\": %s", more ? "true" : "false");
}

/* A rule's lines, heaviest first (the first is the rule's "line"). */
static void rule_lines(FILE *f, const prof_rule *r)
{
    fputs(", \"lines\": [", f);
    for (size_t j = 0; j < r->nlines; j++) {
        fputs(j ? ", {\"file\": " : "{\"file\": ", f);
        prof_json_string(f, r->line_file[j]);
        fprintf(f, ", \"line\": %u, \"metric\": %.6f, \"warp_cycles\": %llu}", r->lines[j], r->line_metric[j],
                (unsigned long long)r->line_weight[j]);
    }
    fprintf(f, "], \"more_lines\": %zu, \"outside_kernel_source\": %s", r->more_lines,
            r->outside_unit ? "true" : "false");
}

static void kernel(FILE *f, const prof_kernel *k, uint32_t lanes)
{
    fputs("      {\"kernel\": ", f);
    prof_json_string(f, k->kernel);
    fputs(", \"module\": ", f);
    prof_json_string(f, k->module);
    fprintf(f, ", \"launches\": %u, \"samples\": %llu, \"cycles\": %llu, \"dropped\": %llu, \"overflowed\": %llu,\n       \"states\": ",
            k->launches, (unsigned long long)k->samples, (unsigned long long)k->cycles,
            (unsigned long long)k->dropped, (unsigned long long)k->overflowed);
    states(f, k->state);
    fputs(",\n       \"state_errors\": ", f);
    state_errors(f, k);
    prof_mix mix;
    prof_mix_build(k, &mix);
    fputs(",\n       \"instruction_mix\": ", f);
    prof_mix_json(f, &mix);
    fputs(",\n       \"lines\": [", f);
    prof_line *l = NULL;
    size_t nl = 0;
    if (prof_lines_build(k->pcs, k->npcs, &l, &nl)) nl = 0;
    for (size_t i = 0; i < nl; i++) {
        fprintf(f, "%s\n        {\"file\": ", i ? "," : "");
        prof_json_string(f, l[i].file);
        fprintf(f, ", \"line\": %u, \"function\": ", l[i].line);
        prof_json_string(f, l[i].function);
        fprintf(f, ", \"samples\": %llu, \"stall\": ", (unsigned long long)l[i].samples);
        stall_name(f, l[i].state);
        fputs(", \"states\": ", f);
        states(f, l[i].state);
        fputs(", \"waiting_on\": ", f);
        producer(f, l[i].top_producer_pc);
        fputs(", \"exact\": ", f);
        exact(f, &l[i].exact);
        if (l[i].file && !l[i].line) line0_origins(f, k, &l[i]);
        fputs("}", f);
    }
    fputs("],\n       \"exit_drain\": ", f);
    exit_drain(f, k, l, nl);
    free(l);
    fputs(",\n       \"rules\": [", f);
    prof_rule *r = NULL;
    size_t nr = 0;
    if (prof_rules_build(k, lanes, &r, &nr)) nr = 0;
    for (size_t i = 0; i < nr; i++) {
        fprintf(f, "%s\n        {\"rule\": \"%s\", \"file\": ", i ? "," : "", r[i].id);
        prof_json_string(f, r[i].file);
        fprintf(f, ", \"line\": %u, \"metric\": %.6f, \"warp_cycles\": %llu, \"text\": ", r[i].line, r[i].metric,
                (unsigned long long)r[i].weight);
        prof_json_string(f, r[i].text);
        rule_lines(f, &r[i]);
        fputs("}", f);
    }
    free(r);
    fputs("],\n       \"instructions\": [", f);
    for (size_t i = 0; i < k->npcs; i++) {
        const prof_pc *p = &k->pcs[i];
        pc_head(f, p, i);
        fputs(", \"inlined\": ", f);
        prof_json_string(f, p->src.inline_chain);
        fputs(", \"stall\": ", f);
        stall_name(f, p->state);
        fputs(", \"states\": ", f);
        states(f, p->state);
        fputs(", \"waiting_on\": ", f);
        producer(f, p);
        fputs(", \"exact\": ", f);
        exact(f, &p->exact);
        fputs("}", f);
    }
    fputs("],\n       \"call_sites\": [", f);
    for (size_t i = 0; i < k->ncalls; i++) {
        const prof_pc *c = &k->calls[i];
        pc_head(f, c, i);
        fputs(", \"callee\": ", f);
        prof_json_string(f, c->ncallees && c->callees[0].name[0] ? c->callees[0].name : NULL);
        fputs(", \"callees\": [", f);
        for (uint32_t j = 0; j < c->ncallees; j++) {
            fputs(j ? ", {\"name\": " : "{\"name\": ", f);
            prof_json_string(f, c->callees[j].name[0] ? c->callees[j].name : NULL);
            fprintf(f, ", \"samples\": %llu}", (unsigned long long)c->callees[j].samples);
        }
        fprintf(f, "], \"other_callee_samples\": %llu", (unsigned long long)c->other_callee_samples);
        fputs(", \"stall\": ", f);
        stall_name(f, c->state);
        fputs(", \"states\": ", f);
        states(f, c->state);
        fputs("}", f);
    }
    fputs("]}", f);
}

static void fault(FILE *f, const prof_fault *fl)
{
    if (!fl->kind) { fputs("null", f); return; }
    fputs("{\"kind\": ", f);
    prof_json_string(f, fl->kind);
    fputs(", \"detail\": ", f);
    prof_json_string(f, fl->detail);
    if (fl->has_lane)
        fprintf(f, ", \"address\": %u, \"size\": %u, \"block\": [%u, %u, %u], \"thread\": [%u, %u, %u], "
                   "\"core\": %u, \"warp\": %u, \"lane\": %u, \"pc\": %u, \"instruction\": ",
                fl->addr, fl->size, fl->block.x, fl->block.y, fl->block.z, fl->thread.x, fl->thread.y,
                fl->thread.z, fl->core, fl->warp, fl->lane, fl->pc);
    else
        fputs(", \"address\": null, \"size\": null, \"block\": null, \"thread\": null, \"core\": null, "
              "\"warp\": null, \"lane\": null, \"pc\": null, \"instruction\": ", f);
    prof_json_string(f, fl->has_lane && fl->disasm[0] ? fl->disasm : NULL);
    fputs(", ", f);
    src_fields(f, &fl->src);
    fputs(", \"inlined\": ", f);
    prof_json_string(f, fl->src.inline_chain);
    fputs("}", f);
}

static void launch(FILE *f, const prof_launch *L)
{
    fprintf(f, "      {\"id\": %llu, \"kernel\": ", (unsigned long long)L->id);
    prof_json_string(f, L->kernel);
    fputs(", \"module\": ", f);
    prof_json_string(f, L->module);
    if (L->stage) fprintf(f, ", \"shader_stage\": \"%s\", \"draw\": %u", L->stage, L->draw);
    fprintf(f, ", \"grid\": [%u, %u, %u], \"block\": [%u, %u, %u], \"passes\": %u,\n"
               "       \"cycles\": %llu, \"samples\": %llu, \"sample_points\": %llu, \"dropped\": %llu, \"overflowed\": %llu, \"status\": \"%s\", \"error\": ",
            L->grid.x, L->grid.y, L->grid.z, L->block.x, L->block.y, L->block.z, L->passes,
            (unsigned long long)L->cycles, (unsigned long long)L->samples, (unsigned long long)L->sample_points,
            (unsigned long long)L->dropped, (unsigned long long)L->overflowed,
            ws_status_name(L->status));
    prof_json_string(f, L->error[0] ? L->error : NULL);
    fputs(", \"fault\": ", f);
    fault(f, &L->fault);
    fprintf(f, ",\n       \"stats\": {\"warp_instructions\": %llu, \"thread_instructions\": %llu, "
               "\"simt_efficiency\": %.4f, \"blocks\": %llu, \"threads\": %llu},\n       \"counters\": ",
            (unsigned long long)L->stats.warp_instructions, (unsigned long long)L->stats.thread_instructions,
            L->stats.simt_efficiency, (unsigned long long)L->stats.blocks, (unsigned long long)L->stats.threads);
    const prof_counters *c = &L->counters;
    if (!c->valid) fputs("null", f);
    else
    {
        fprintf(f, "{\"cycles\": %llu, \"ipc\": %.4f, \"warp_instructions\": %llu, \"thread_instructions\": %llu, "
                   "\"simt_efficiency\": %.4f, \"occupancy\": %.4f, \"memory_requests\": %llu, "
                   "\"memory_sectors\": %llu, \"sectors_per_request\": %.4f, \"shared_requests\": %llu, "
                   "\"bank_conflicts\": %llu, \"shared_atomic_turns\": %llu, \"unit_busy_cycles\": {",
                (unsigned long long)c->cycles, c->ipc, (unsigned long long)c->warp_instructions,
                (unsigned long long)c->thread_instructions, c->simt_efficiency, c->occupancy,
                (unsigned long long)c->mem_requests, (unsigned long long)c->mem_sectors, c->sectors_per_request,
                (unsigned long long)c->shared_requests, (unsigned long long)c->bank_conflicts,
                (unsigned long long)prof_atomic_turns(L->pcs, L->npcs));
        for (unsigned u = 0; u < PROF_UNITS; u++)
            fprintf(f, "%s\"%s\": %llu", u ? ", " : "", prof_unit_name(u), (unsigned long long)c->unit_busy[u]);
        fputs("}, \"unit_instances\": {", f);
        for (unsigned u = 0; u < PROF_UNITS; u++)
            fprintf(f, "%s\"%s\": %u", u ? ", " : "", prof_unit_name(u), c->unit_instances[u]);
        fputs("}, \"state_cycles\": ", f);
        states(f, c->state_cycles);
        fputs("}", f);
    }
    fputs(",\n       \"limits\": ", f);
    prof_limits_json(f, &L->limits);
    fputs("}", f);
}

/* One device object; the session wraps devices into
 * {"format": "warpscope-profile", "version": 1, "devices": [...]}. */
int prof_json_write(FILE *f, const prof_data *d)
{
    prof_kernel *k;
    size_t nk;
    if (prof_kernels_build(d, &k, &nk)) return -1;
    /* the device's number as it opened, when a counter numbers them
     * (devices=, as `warpscope profile` sets); the session puts the object
     * in the array by it */
    fputs("    {", f);
    if (d->opt->devices) fprintf(f, "\"device\": %u, ", d->device_index + 1);
    fprintf(f, "\"config\": {\"cores\": %u, \"warps_per_core\": %u, \"lanes_per_warp\": %u},\n"
               "     \"options\": {\"period_log2\": %u, \"period_cycles\": %llu, \"passes\": %u, \"mode\": \"%s\", \"inline\": \"%s\"},\n"
               "     \"launches\": [\n",
            d->cfg->cores, d->cfg->warps_per_core, d->cfg->lanes_per_warp, d->opt->period_log2,
            1ull << d->opt->period_log2, d->opt->passes, d->opt->mode == WS_TRACE_ROUND_ROBIN ? "rr" : "all",
            d->opt->inline_mode == PROF_INLINE_CALLEE ? "callee" : "caller");
    for (size_t i = 0; i < d->nlaunches; i++) {
        launch(f, &d->launches[i]);
        fputs(i + 1 < d->nlaunches ? ",\n" : "\n", f);
    }
    fputs("     ],\n     \"kernels\": [\n", f);
    for (size_t i = 0; i < nk; i++) {
        kernel(f, &k[i], d->cfg->lanes_per_warp);
        fputs(i + 1 < nk ? ",\n" : "\n", f);
    }
    fputs("     ]}", f);
    prof_kernels_free(k, nk);
    return ferror(f) ? -1 : 0;
}
