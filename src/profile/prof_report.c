/* The readable report: kernels hottest first, then each kernel's hot
 * source lines with their text, stall breakdown and the instruction a
 * scoreboard stall waits on (in the spirit of `perf annotate`), its hot
 * instructions, then the exact counters of every launch. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "profile/prof_internal.h"

#define HOT_LINES 10
#define HOT_PCS 10

/* "long_scoreboard 61.0%, selected 20.0%" for states with >= 1%, at most 4. */
static void breakdown(const uint64_t st[WS_STATE_COUNT], uint64_t total, char *buf, size_t len)
{
    int used[WS_STATE_COUNT] = { 0 };
    size_t n = 0;
    buf[0] = 0;
    for (int k = 0; k < 4; k++) {
        int best = -1;
        for (int s = 0; s < WS_STATE_COUNT; s++)
            if (!used[s] && st[s] && (best < 0 || st[s] > st[best])) best = s;
        if (best < 0 || (k && prof_pct(st[best], total) < 1.0)) break;
        used[best] = 1;
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s %.1f%%", k ? ", " : "",
                              prof_state_name((unsigned)best), prof_pct(st[best], total));
    }
}

uint64_t prof_atomic_turns(const prof_pc *p, size_t n)
{
    uint64_t turns = 0;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(prof_inst_kind(p[i].disasm), "atomic"))
            turns += p[i].exact.shared_wavefronts - p[i].exact.shared_requests;
    return turns;
}

/* "load", "store", "atomic", "CSR read", "shuffle", "vote" or
 * "instruction", from the mnemonic. */
const char *prof_inst_kind(const char *disasm)
{
    if (!strncmp(disasm, "amo", 3) || !strncmp(disasm, "lr.", 3) || !strncmp(disasm, "sc.", 3))
        return "atomic";
    if (!strncmp(disasm, "csrr", 4)) return "CSR read"; /* thread and block ids */
    if (!strncmp(disasm, "shfl", 4)) return "shuffle";
    if (!strncmp(disasm, "vote", 4)) return "vote";
    if (disasm[0] == 'l' || !strncmp(disasm, "fl", 2) || !strncmp(disasm, "c.l", 3) ||
        !strncmp(disasm, "c.fl", 4)) return "load";
    if (disasm[0] == 's' && disasm[1] != 'r' && disasm[1] != 'l' && disasm[1] != 'u' &&
        strncmp(disasm, "shfl", 4)) return "store";
    if (!strncmp(disasm, "fs", 2) && strncmp(disasm, "fsub", 4) && strncmp(disasm, "fsqrt", 5) &&
        strncmp(disasm, "fsgn", 4)) return "store";
    return "instruction";
}

/* Where a producer is, seen from code in file `from`: "line 40" in the
 * same file, "vfprintf.c:412" in another (a bare line number there would
 * point into the wrong file). */
static void producer_where(const char *from, const prof_src *prod, char *buf, size_t len)
{
    if (from && !strcmp(from, prod->file)) snprintf(buf, len, "line %u", prod->line);
    else snprintf(buf, len, "%s:%u", ws_path_base(prod->file), prod->line);
}

/* What a wait on a register the waiting instruction only overwrites
 * adds (write after write: it does not use the producer's result, which
 * nothing read before it), else "". */
static const char *overwrite_text(const prof_pc *p)
{
    return p->producer_waw ? ", only to overwrite its unused result (write after write)" : "";
}

/* The sentence the brief asks for: "61.0% long_scoreboard, waiting on the
 * load at line 40 (lw a5, 0(a4))" (or "at helper.c:7" in another file). */
static void cause(const prof_line *l, char *buf, size_t len)
{
    int top = prof_top_stall(l->state);
    buf[0] = 0;
    if (top < 0) return;
    size_t n = (size_t)snprintf(buf, len, "%.1f%% %s", prof_pct(l->state[top], l->samples),
                                prof_state_name((unsigned)top));
    if (top != WS_STATE_LONG_SCOREBOARD && top != WS_STATE_SHORT_SCOREBOARD) return;
    /* The main producer, and a second one when it carries a fifth of the
     * line's waits or more (two loads feeding one statement). */
    const prof_pc *ps[2] = { l->top_producer_pc,
                             l->second_samples * 5 >= l->producer_samples ? l->second_producer_pc : NULL };
    for (int i = 0; i < 2 && ps[i] && n < len; i++) {
        const prof_pc *p = ps[i];
        const char *lead = i ? " and" : ", waiting on";
        char where[300];
        if (p->producer_src.file && p->producer_src.line) {
            producer_where(l->file, &p->producer_src, where, sizeof where);
            n += (size_t)snprintf(buf + n, len - n, "%s the %s at %s (%s)%s", lead,
                                  prof_inst_kind(p->producer_disasm), where, p->producer_disasm, overwrite_text(p));
        } else {
            n += (size_t)snprintf(buf + n, len - n, "%s the %s at 0x%08x (%s)%s", lead,
                                  prof_inst_kind(p->producer_disasm), p->producer_pc, p->producer_disasm,
                                  overwrite_text(p));
        }
    }
}

/* The instruction counters of a line or instruction, for example
 * "exact: 800 warp-instr, SIMT 12.5%; 4210 warp-cycles: long_scoreboard
 * 61.0%, selected 19.0%; shared 8 req, 32.00 wavefronts/req (31.00 extra:
 * bank conflicts); global 8 req, 32.00 sectors/req". A shared access of one
 * wavefront per request has no parenthesis: there is nothing extra. */
static void exact_text(const ws_pc_counter *e, uint64_t atomic_extra, uint32_t lanes, char *buf, size_t len)
{
    uint64_t cycles = prof_exact_cycles(e);
    buf[0] = 0;
    if (!e->warp_instructions && !cycles) return;
    char st[256];
    breakdown(e->stall_cycles, cycles, st, sizeof st);
    char issued[64] = "no instructions issued";
    if (e->warp_instructions)
        snprintf(issued, sizeof issued, "%llu warp-instr, SIMT %.1f%%", (unsigned long long)e->warp_instructions,
                 prof_pct(e->thread_instructions, e->warp_instructions * lanes));
    size_t n = (size_t)snprintf(buf, len, "exact: %s; %llu warp-cycles: %s", issued, (unsigned long long)cycles,
                                cycles ? st : "none");
    if (e->shared_requests && n < len) {
        /* extra wavefronts of shared atomics are their lanes taking turns
         * (even on one word), not bank conflicts (prof_rules.c) */
        double per = (double)e->shared_wavefronts / (double)e->shared_requests;
        double at = (double)atomic_extra / (double)e->shared_requests, bank = per - 1.0 - at;
        if (e->shared_wavefronts <= e->shared_requests) /* one pass each: nothing extra to explain */
            n += (size_t)snprintf(buf + n, len - n, "; shared %llu req, %.2f wavefronts/req",
                                  (unsigned long long)e->shared_requests, per);
        else if (!atomic_extra)
            n += (size_t)snprintf(buf + n, len - n, "; shared %llu req, %.2f wavefronts/req (%.2f extra: bank conflicts)",
                                  (unsigned long long)e->shared_requests, per, per - 1.0);
        else if (bank < 0.005)
            n += (size_t)snprintf(buf + n, len - n, "; shared %llu req, %.2f wavefronts/req (%.2f extra: atomics "
                                  "taking turns)", (unsigned long long)e->shared_requests, per, at);
        else
            n += (size_t)snprintf(buf + n, len - n, "; shared %llu req, %.2f wavefronts/req (%.2f extra: %.2f bank "
                                  "conflicts, %.2f atomics taking turns)", (unsigned long long)e->shared_requests, per,
                                  per - 1.0, bank, at);
    }
    if (e->gmem_requests && n < len) {
        /* stack traffic is counted with global memory (it lives there);
         * say how much of it there is, as the local_memory rule does */
        char local[64] = "";
        if (e->local_requests)
            snprintf(local, sizeof local, " (%llu local, to the lanes' stacks)", (unsigned long long)e->local_requests);
        snprintf(buf + n, len - n, "; global %llu req%s, %.2f sectors/req", (unsigned long long)e->gmem_requests, local,
                 (double)e->gmem_sectors / (double)e->gmem_requests);
    }
}

static int hotter(const prof_pc *a, const prof_pc *b)
{
    if (a->samples != b->samples) return a->samples > b->samples;
    return prof_exact_cycles(&a->exact) > prof_exact_cycles(&b->exact);
}

/* "memset", or for a call that reached several functions (through a
 * pointer) each with its share of the site's samples: "op_a 75.0%, op_b
 * 25.0%". */
void prof_callees_text(const prof_pc *c, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = 0;
    const int one = c->ncallees <= 1 && !c->other_callee_samples;
    for (uint32_t i = 0; i < c->ncallees && n < len; i++) {
        const char *name = c->callees[i].name[0] ? c->callees[i].name : "?";
        if (one) n += (size_t)snprintf(buf + n, len - n, "%s", name);
        else n += (size_t)snprintf(buf + n, len - n, "%s%s %.1f%%", i ? ", " : "", name,
                                   prof_pct(c->callees[i].samples, c->samples));
    }
    if (c->other_callee_samples && n < len)
        n += (size_t)snprintf(buf + n, len - n, ", other functions %.1f%%", prof_pct(c->other_callee_samples, c->samples));
    if (!c->ncallees && n < len) snprintf(buf + n, len - n, "?");
}

/* The caller view: samples in code outside the kernel's compile unit, by
 * the call in the kernel's unit that led there, most first. */
static void call_sites_section(FILE *f, const prof_kernel *k)
{
    if (!k->ncalls) return;
    size_t *idx = malloc(k->ncalls * sizeof *idx);
    if (!idx) return;
    for (size_t i = 0; i < k->ncalls; i++) idx[i] = i;
    for (size_t i = 1; i < k->ncalls; i++) /* insertion sort: stable, deterministic */
        for (size_t j = i; j > 0 && hotter(&k->calls[idx[j]], &k->calls[idx[j - 1]]); j--) {
            size_t t = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = t;
        }
    char buf[512], text[256], callees[256];
    fprintf(f, "\n  Calls out of the kernel's source (samples in the called code, by call site)\n"
               "  %8s %6s  %s\n", "samples", "%", "call site -> callee");
    for (size_t i = 0; i < k->ncalls && i < HOT_LINES; i++) {
        const prof_pc *c = &k->calls[idx[i]];
        prof_callees_text(c, callees, sizeof callees);
        if (c->src.file)
            fprintf(f, "  %8llu %5.1f%%  %s:%u (%s) -> %s\n", (unsigned long long)c->samples,
                    prof_pct(c->samples, k->samples), ws_path_base(c->src.file), c->src.line,
                    c->src.function ? c->src.function : "?", callees);
        else {
            prof_no_line_text(c->src.function, text, sizeof text);
            fprintf(f, "  %8llu %5.1f%%  0x%08x (%s) -> %s\n", (unsigned long long)c->samples,
                    prof_pct(c->samples, k->samples), c->pc, text, callees);
        }
        if (c->src.file && !prof_source_line(c->src.file, c->src.line, text, sizeof text))
            fprintf(f, "  %15s |  %s\n", "", text);
        breakdown(c->state, c->samples, buf, sizeof buf);
        fprintf(f, "  %15s states: %s\n", "", buf);
    }
    free(idx);
}

/* The exit drain (warps whose lanes returned, waiting for their last
 * stores and atomics) is real time on no line of the kernel's source:
 * its share, said once, and that the rules weigh lines without it. Every
 * warp drains a cycle or so; a drain below PROF_DRAIN_NOTE of the kernel's
 * warp-cycles moves no rule's bar and is left to the kernel exit's row.
 * Then the stores it waits for, by line: each warp's store or atomic to
 * complete last (prof_drain_stores), with for how many warps, how often
 * it ran and its sectors per request, what the port spends on each. */
#define DRAIN_LINES 3
static void exit_drain_text(FILE *f, const prof_kernel *k, const prof_line *lines, size_t nl)
{
    uint64_t all, drain;
    prof_drain_figures(lines, nl, &drain, &all);
    if (!drain || (double)drain < PROF_DRAIN_NOTE * (double)all) return;
    fprintf(f, "  exit drain: %.1f%% of its warp-cycles (%llu of %llu): warps that returned, waiting for their last "
               "stores and atomics (the kernel exit's row); on no source line, so the rules weigh lines against the "
               "other %llu\n",
            prof_pct(drain, all), (unsigned long long)drain, (unsigned long long)all,
            (unsigned long long)(all - drain));
    const prof_pc *st[16];
    size_t n = prof_drain_stores(k, st, 16), shown = 0, more = 0;
    if (!n) return;
    /* one entry per line, its instructions' requests and sectors summed */
    char buf[768];
    size_t at = (size_t)snprintf(buf, sizeof buf, "    the stores it waits for, each warp's store or atomic to "
                                 "complete last: ");
    for (size_t i = 0; i < n; i++) {
        int dup = 0;
        for (size_t j = 0; j < i; j++)
            dup |= st[j]->src.file && st[i]->src.file && st[j]->src.line == st[i]->src.line &&
                   !strcmp(st[j]->src.file, st[i]->src.file);
        if (dup) continue;
        if (shown == DRAIN_LINES) { more++; continue; }
        uint64_t req = 0, sec = 0, wi = 0, warps = 0;
        for (size_t j = i; j < n; j++)
            if (j == i || (st[i]->src.file && st[j]->src.file && st[j]->src.line == st[i]->src.line &&
                           !strcmp(st[j]->src.file, st[i]->src.file)))
                req += st[j]->exact.gmem_requests, sec += st[j]->exact.gmem_sectors,
                wi += st[j]->exact.warp_instructions, warps += st[j]->exact.exit_drains;
        char where[160];
        if (st[i]->src.file) snprintf(where, sizeof where, "%s:%u", ws_path_base(st[i]->src.file), st[i]->src.line);
        else snprintf(where, sizeof where, "0x%08x", st[i]->pc);
        char per[48] = ""; /* (a shared store goes to the MIO queue: no sectors) */
        if (req) snprintf(per, sizeof per, ", %.1f sectors per request", (double)sec / (double)req);
        if (at < sizeof buf)
            at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s (%.40s, last for %llu warp%s, %llu warp-instr%s)",
                                   shown ? ", " : "", where, st[i]->disasm, (unsigned long long)warps,
                                   warps == 1 ? "" : "s", (unsigned long long)wi, per);
        shown++;
    }
    if (more && at < sizeof buf)
        snprintf(buf + at, sizeof buf - at, " and %zu more line%s", more, more == 1 ? "" : "s");
    fprintf(f, "%s\n", buf);
}

static void kernel_section(FILE *f, const prof_kernel *k, uint32_t lanes)
{
    char buf[512], text[256];
    breakdown(k->state, k->samples, buf, sizeof buf);
    fprintf(f, "\nKernel %s (%s): %llu samples in %u launch%s, %llu cycles\n  states: %s\n",
            k->kernel, k->module, (unsigned long long)k->samples, k->launches, k->launches == 1 ? "" : "es",
            (unsigned long long)k->cycles, k->samples ? buf : "no samples");
    prof_mix mix;
    prof_mix_build(k, &mix);
    prof_mix_text(f, &mix);
    prof_line *lines;
    size_t nl;
    if (prof_lines_build(k->pcs, k->npcs, &lines, &nl)) return;
    exit_drain_text(f, k, lines, nl);
    prof_rule *rules;
    size_t nr;
    if (prof_rules_build(k, lanes, &rules, &nr) == 0 && nr) {
        fprintf(f, "\n  Rules (exact metrics, heaviest line first)\n");
        for (size_t i = 0; i < nr && i < HOT_LINES; i++) fprintf(f, "  - %s\n", rules[i].text);
    }
    if (!nr) fprintf(f, "  rules: none fired\n");
    free(rules);
    /* (a kernel without samples still shows its lines' exact metrics) */
    fprintf(f, "\n  Hot source lines\n  %8s %6s  %s\n", "samples", "%", "line");
    for (size_t i = 0; i < nl && i < HOT_LINES; i++) {
        const prof_line *l = &lines[i];
        if (l->file && !l->line) {
            char from[80];
            uint32_t origins[4];
            int more;
            size_t no = prof_line0_line_origins(k, l, origins, 4, &more);
            prof_line0_format(origins, no, more, from, sizeof from);
            fprintf(f, "  %8llu %5.1f%%  %s (%s), compiler-generated code without a line%s%s\n",
                    (unsigned long long)l->samples, prof_pct(l->samples, k->samples), ws_path_base(l->file),
                    l->function ? l->function : "?", from[0] ? ", " : "", from);
        }
        else if (l->file)
            fprintf(f, "  %8llu %5.1f%%  %s:%u (%s)\n", (unsigned long long)l->samples,
                    prof_pct(l->samples, k->samples), ws_path_base(l->file), l->line,
                    l->function ? l->function : "?");
        else {
            if (l->line == WS_RETIRE_ADDR) snprintf(text, sizeof text, "kernel exit: retired warps draining");
            else prof_no_line_text(l->function, text, sizeof text);
            fprintf(f, "  %8llu %5.1f%%  0x%08x (%s)\n", (unsigned long long)l->samples,
                    prof_pct(l->samples, k->samples), l->line, text);
        }
        if (l->file && !prof_source_line(l->file, l->line, text, sizeof text))
            fprintf(f, "  %15s |  %s\n", "", text);
        breakdown(l->state, l->samples, buf, sizeof buf);
        fprintf(f, "  %15s states: %s\n", "", l->samples ? buf : "no samples");
        uint64_t at = 0; /* the extra wavefronts of the line's shared atomics */
        for (size_t j = 0; j < k->npcs && l->exact.shared_wavefronts > l->exact.shared_requests; j++)
            if (k->pcs[j].exact.shared_requests && !strcmp(prof_inst_kind(k->pcs[j].disasm), "atomic") &&
                prof_line_has(l, &k->pcs[j]))
                at += k->pcs[j].exact.shared_wavefronts - k->pcs[j].exact.shared_requests;
        exact_text(&l->exact, at, lanes, buf, sizeof buf);
        if (buf[0]) fprintf(f, "  %15s %s\n", "", buf);
        cause(l, buf, sizeof buf);
        if (buf[0] && l->file && l->line) fprintf(f, "  %15s line %u: %s\n", "", l->line, buf);
        else if (buf[0]) fprintf(f, "  %15s %s\n", "", buf);
    }
    free(lines);
    call_sites_section(f, k);
    /* Hottest instructions: indices sorted by samples, then exact
     * warp-cycles, then address. */
    size_t *idx = malloc((k->npcs + 1) * sizeof *idx);
    if (!idx) return;
    for (size_t i = 0; i < k->npcs; i++) idx[i] = i;
    for (size_t i = 1; i < k->npcs; i++) /* insertion sort: stable, deterministic */
        for (size_t j = i; j > 0 && hotter(&k->pcs[idx[j]], &k->pcs[idx[j - 1]]); j--) {
            size_t t = idx[j]; idx[j] = idx[j - 1]; idx[j - 1] = t;
        }
    fprintf(f, "\n  Hot instructions\n  %-10s %8s %6s  %-28s %s\n", "pc", "samples", "%", "instruction", "line, states");
    for (size_t i = 0; i < k->npcs && i < HOT_PCS; i++) {
        const prof_pc *p = &k->pcs[idx[i]];
        breakdown(p->state, p->samples, buf, sizeof buf);
        char where[300];
        if (p->src.file)
            snprintf(where, sizeof where, "%s:%u", ws_path_base(p->src.file), p->src.line);
        else if (p->pc == WS_RETIRE_ADDR) /* as the lines section says it, not "?:0" */
            snprintf(where, sizeof where, "(kernel exit: retired warps draining)");
        else {
            char text[96];
            prof_no_line_text(p->src.function, text, sizeof text);
            snprintf(where, sizeof where, "(%s)", text);
        }
        fprintf(f, "  0x%08x %8llu %5.1f%%  %-28s %s  %s", p->pc, (unsigned long long)p->samples,
                prof_pct(p->samples, k->samples), p->disasm, where, buf);
        if (p->producer_pc && p->producer_src.file && p->producer_src.line) {
            producer_where(p->src.file, &p->producer_src, where, sizeof where);
            fprintf(f, "; waits on %s (%s)%s", where, p->producer_disasm, overwrite_text(p));
        }
        else if (p->producer_pc)
            fprintf(f, "; waits on 0x%08x (%s)%s", p->producer_pc, p->producer_disasm, overwrite_text(p));
        fputc('\n', f);
        exact_text(&p->exact, strcmp(prof_inst_kind(p->disasm), "atomic") ? 0
                              : p->exact.shared_wavefronts - p->exact.shared_requests, lanes, buf, sizeof buf);
        if (buf[0]) fprintf(f, "  %10s %s\n", "", buf);
    }
    free(idx);
}

/* "load access fault at address 0x00000000 (4 bytes), block (0,0,0)
 * thread (3,0,0), pc 0x01c00224 (lw a3, 0(a3)) at k.c:11 (dep_load)";
 * a fault without an address says what the device said ("device assert:
 * assertion 'i < n' failed at k.c:8 in scale(), block ...": the assert's
 * own line, where the pc is in the library's __assert_func). */
static void fault_sentence(const prof_fault *fl, char *buf, size_t len)
{
    const int says_kind = !strncmp(fl->detail, fl->kind, strlen(fl->kind)); /* a detail that starts with the kind */
    size_t n = (size_t)snprintf(buf, len, "%s", fl->has_lane && !fl->size && says_kind ? "" : fl->kind);
    if (fl->has_lane) {
        if (fl->size)
            n += (size_t)snprintf(buf + n, n < len ? len - n : 0, " at address 0x%08x (%u bytes)", fl->addr, fl->size);
        else if (fl->detail[0])
            n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%s", says_kind ? "" : ": ", fl->detail);
        n += (size_t)snprintf(buf + n, n < len ? len - n : 0, ", block (%u,%u,%u) thread (%u,%u,%u), pc 0x%08x%s%s%s",
                              fl->block.x, fl->block.y, fl->block.z, fl->thread.x, fl->thread.y, fl->thread.z,
                              fl->pc, fl->disasm[0] ? " (" : "", fl->disasm, fl->disasm[0] ? ")" : "");
        if (fl->src.file)
            snprintf(buf + n, n < len ? len - n : 0, " at %s:%u (%s)", ws_path_base(fl->src.file), fl->src.line,
                     fl->src.function ? fl->src.function : "?");
    } else {
        snprintf(buf + n, n < len ? len - n : 0, ": %s", fl->detail);
    }
}

static void counters_section(FILE *f, const prof_data *d)
{
    fprintf(f, "\nCounters per launch\n");
    for (size_t i = 0; i < d->nlaunches; i++) {
        const prof_launch *L = &d->launches[i];
        char what[64] = "", ovf[64] = "";
        if (L->stage) snprintf(what, sizeof what, " (%s shader of draw %u)", L->stage, L->draw);
        if (L->overflowed)
            snprintf(ovf, sizeof ovf, ", %llu of them by the FIFO overflow policy", (unsigned long long)L->overflowed);
        fprintf(f, "  launch %llu %s%s grid (%u,%u,%u) block (%u,%u,%u): %llu samples (%llu dropped%s), %u pass%s, "
                   "%llu sampling points",
                (unsigned long long)L->id, L->kernel, what, L->grid.x, L->grid.y, L->grid.z, L->block.x, L->block.y,
                L->block.z, (unsigned long long)L->samples, (unsigned long long)L->dropped,
                ovf, L->passes,
                L->passes == 1 ? "" : "es", (unsigned long long)L->sample_points);
        if (L->status != WS_OK) fprintf(f, ", failed: %s", ws_status_name(L->status));
        fprintf(f, "\n");
        if (L->error[0]) fprintf(f, "    error: %s\n", L->error);
        if (L->fault.kind) {
            char fs[768];
            fault_sentence(&L->fault, fs, sizeof fs);
            fprintf(f, "    fault: %s\n", fs);
        }
        const prof_counters *c = &L->counters;
        fprintf(f, "    cycles %llu, warp instructions %llu, thread instructions %llu, SIMT efficiency %.1f%%\n",
                (unsigned long long)L->cycles, (unsigned long long)L->stats.warp_instructions,
                (unsigned long long)L->stats.thread_instructions, L->stats.simt_efficiency * 100.0);
        prof_limits_text(f, &L->limits);
        if (!c->valid) {
            fprintf(f, "    (the timing model's exact counters are not available in this build)\n");
            continue;
        }
        fprintf(f, "    IPC %.3f, occupancy %.1f%%, global memory requests %llu, sectors/request %.2f, "
                   "shared requests %llu, shared bank conflicts %llu", c->ipc, c->occupancy * 100.0,
                (unsigned long long)c->mem_requests, c->sectors_per_request,
                (unsigned long long)c->shared_requests, (unsigned long long)c->bank_conflicts);
        /* the device counts every extra wavefront; the lines and rules
         * call an atomic's extra ones turns, not conflicts */
        const uint64_t turns = prof_atomic_turns(L->pcs, L->npcs);
        if (turns) fprintf(f, " (%llu of them shared atomics taking turns)", (unsigned long long)turns);
        fputc('\n', f);
        /* Utilisation: busy cycles over cycles x instances of the unit. */
        fprintf(f, "    unit busy:");
        for (unsigned u = 0; u < PROF_UNITS; u++)
            fprintf(f, "%s %s %.1f%%", u ? "," : "", prof_unit_name(u),
                    prof_pct(c->unit_busy[u],
                             c->cycles * (c->unit_instances[u] ? c->unit_instances[u] : d->cfg->cores)));
        uint64_t wc = 0;
        for (int s = 0; s < WS_STATE_COUNT; s++) wc += c->state_cycles[s];
        char buf[512];
        breakdown(c->state_cycles, wc, buf, sizeof buf);
        fprintf(f, "\n    exact warp states (all %llu warp-cycles): %s\n", (unsigned long long)wc, wc ? buf : "none");
    }
}

/* A kernel whose state shares have a standard error above this (5
 * points: 100 independent samples at worst) gets the low-sample warning. */
#define UNCERTAIN_SHARE 0.05

/* "coal", or "coal (k2.elf)" when another module has a kernel of that
 * name too: a warning about one of them must say which. */
static const char *kernel_label(const prof_kernel *k, size_t nk, size_t i, char *buf, size_t len)
{
    for (size_t j = 0; j < nk; j++)
        if (j != i && !strcmp(k[j].kernel, k[i].kernel)) {
            snprintf(buf, len, "%s (%s)", k[i].kernel, ws_path_base(k[i].module));
            return buf;
        }
    return k[i].kernel;
}

/* Lost samples, what the FIFO's overflow policy did, thin kernels. */
static void warnings(FILE *f, const prof_data *d, const prof_kernel *k, size_t nk)
{
    char name[512];
    uint64_t dropped = 0, overflowed = 0, kept = 0;
    for (size_t i = 0; i < nk; i++) {
        dropped += k[i].dropped;
        overflowed += k[i].overflowed;
        kept += k[i].samples;
    }
    if (dropped > overflowed)
        fprintf(f, "warning: %llu samples were dropped because the event buffer was full; raise --buffer (buffer=)\n",
                (unsigned long long)(dropped - overflowed));
    if (overflowed)
        fprintf(f, "warning: %llu of %llu warp samples were left out: a sample every %llu cycles asked for more "
                   "records than the trace cells' %u-entry FIFOs drain (one a cycle); each sample kept the warps "
                   "that fit in round-robin order, so the kept ones are an unbiased subset; "
                   "for more samples use --passes\n",
                (unsigned long long)overflowed, (unsigned long long)(kept + dropped),
                1ull << d->opt->period_log2, WS_TRACE_FIFO_DEPTH);
    for (size_t i = 0; i < nk; i++)
        if (!k[i].samples && !k[i].dropped) /* one point a period per pass, at a dithered cycle of it */
            fprintf(f, "warning: kernel %s has no samples: %s %llu cycles and none of the sampling points (one "
                       "every %llu cycles%s, at a pseudo-random cycle of each period) fell in them; lower --period or "
                       "add --passes (its lines show exact metrics only)\n",
                    kernel_label(k, nk, i, name, sizeof name), k[i].launches == 1 ? "it ran" : "its launches ran",
                    (unsigned long long)k[i].cycles, 1ull << d->opt->period_log2,
                    d->opt->passes > 1 ? " per pass" : "");
        else if (prof_kernel_share_error(&k[i]) > UNCERTAIN_SHARE)
            /* (samples the full buffer dropped: more sampling would drop more) */
            fprintf(f, "warning: kernel %s has only %llu sample%s at %llu sampling point%s: its percentages are "
                       "uncertain by up to %.0f points (one standard error, the sampling point as the unit); %s\n",
                    kernel_label(k, nk, i, name, sizeof name), (unsigned long long)k[i].samples,
                    k[i].samples == 1 ? "" : "s", (unsigned long long)k[i].spread.points,
                    k[i].spread.points == 1 ? "" : "s", 100.0 * prof_kernel_share_error(&k[i]),
                    k[i].dropped > k[i].overflowed ? "the event buffer was full: raise --buffer"
                                                   : "lower --period or add --passes");
}

int prof_report_write(FILE *f, const prof_data *d)
{
    prof_kernel *k;
    size_t nk;
    if (prof_kernels_build(d, &k, &nk)) return -1;
    uint64_t total = 0;
    for (size_t i = 0; i < nk; i++) total += k[i].samples;
    fprintf(f, "== warpscope profile, device %u: %zu launch%s, %zu kernel%s; a sample every %llu cycles, %u pass%s, %s ==\n",
            d->device_index + 1, d->nlaunches, d->nlaunches == 1 ? "" : "es", nk, nk == 1 ? "" : "s",
            1ull << d->opt->period_log2, d->opt->passes, d->opt->passes == 1 ? "" : "es",
            d->opt->mode == WS_TRACE_ROUND_ROBIN ? "one warp per sample (round-robin)" : "all warps per sample");
    warnings(f, d, k, nk);
    for (size_t i = 0; i < d->nlaunches; i++) {
        char fs[768];
        if (!d->launches[i].fault.kind) continue;
        fault_sentence(&d->launches[i].fault, fs, sizeof fs);
        fprintf(f, "error: launch %llu (%s) failed: %s\n", (unsigned long long)d->launches[i].id,
                d->launches[i].kernel, fs);
    }
    if (!d->nlaunches)
        fprintf(f, "note: no kernel was launched on this device: nothing was sampled\n");
    fprintf(f, "\nKernels (hottest first)\n  %8s %6s %12s %8s  %s\n", "samples", "%", "cycles", "launches", "kernel");
    for (size_t i = 0; i < nk; i++)
        fprintf(f, "  %8llu %5.1f%% %12llu %8u  %s (%s)\n", (unsigned long long)k[i].samples,
                prof_pct(k[i].samples, total), (unsigned long long)k[i].cycles, k[i].launches, k[i].kernel,
                ws_path_base(k[i].module));
    for (size_t i = 0; i < nk; i++) kernel_section(f, &k[i], d->cfg->lanes_per_warp);
    counters_section(f, d);
    prof_kernels_free(k, nk);
    if (prof_annotate_write(f, d)) return -1;
    return ferror(f) ? -1 : 0;
}
