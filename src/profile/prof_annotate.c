/* The source view of one kernel (`--source KERNEL`, like Nsight Compute's
 * source page): every line of code the kernel ran or was sampled at, in
 * file and line order, with its samples and exact metrics, and under it its
 * instructions in address order with theirs. Not only the hottest ten. */
#include <stdlib.h>
#include <string.h>
#include "profile/prof_internal.h"

/* The state with the most exact warp-cycles other than selected, or "-". */
static const char *top_state(const ws_pc_counter *e)
{
    int top = prof_top_stall(e->stall_cycles);
    return top < 0 ? "-" : prof_state_name((unsigned)top);
}

/* The metric columns shared by lines and instructions. */
static void metrics(FILE *f, const ws_pc_counter *e, uint64_t samples, uint32_t lanes)
{
    char simt[16] = "-", wf[16] = "-", sec[16] = "-";
    if (e->warp_instructions)
        snprintf(simt, sizeof simt, "%.1f%%", prof_pct(e->thread_instructions, e->warp_instructions * lanes));
    if (e->shared_requests) snprintf(wf, sizeof wf, "%.2f", (double)e->shared_wavefronts / (double)e->shared_requests);
    if (e->gmem_requests) snprintf(sec, sizeof sec, "%.2f", (double)e->gmem_sectors / (double)e->gmem_requests);
    fprintf(f, "%8llu %10llu %7s %10llu %-18s %7s %8s", (unsigned long long)samples,
            (unsigned long long)e->warp_instructions, simt, (unsigned long long)prof_exact_cycles(e), top_state(e),
            wf, sec);
}

static int by_file_line(const void *a, const void *b)
{
    const prof_line *x = a, *y = b;
    int c = strcmp(x->file ? x->file : "\x7f", y->file ? y->file : "\x7f"); /* no file: last */
    if (c || x->line != y->line) return c ? c : x->line < y->line ? -1 : 1;
    return strcmp(x->function ? x->function : "", y->function ? y->function : ""); /* line 0 */
}

/* Under a line, its calls that led out of the kernel's source: the
 * samples of the code each called ("Calls out of the kernel's source"),
 * which the line's own samples do not count. */
static void call_rows(FILE *f, const prof_kernel *k, const prof_line *l)
{
    char callees[256], where[64];
    for (size_t j = 0; j < k->ncalls; j++) { /* by address */
        const prof_pc *c = &k->calls[j];
        if (!prof_line_has(l, c)) continue;
        prof_callees_text(c, callees, sizeof callees);
        snprintf(where, sizeof where, "  0x%08x call", c->pc);
        fprintf(f, "  %-24s %8llu samples (%.1f%%) in the code it called -> %s\n", where,
                (unsigned long long)c->samples, prof_pct(c->samples, k->samples), callees);
    }
}

static void kernel_source(FILE *f, const prof_kernel *k, uint32_t lanes)
{
    prof_line *lines;
    size_t nl;
    if (prof_lines_build(k->pcs, k->npcs, &lines, &nl)) return;
    qsort(lines, nl, sizeof *lines, by_file_line);
    fprintf(f, "\nSource of kernel %s (%s): %llu samples in %u launch%s; exact metrics from the instruction counters\n",
            k->kernel, k->module, (unsigned long long)k->samples, k->launches, k->launches == 1 ? "" : "es");
    fprintf(f, "  %-24s %8s %10s %7s %10s %-18s %7s %8s  %s\n", "line", "samples", "warp-inst", "SIMT", "cycles",
            "top stall (cycles)", "wf/req", "sect/req", "source / instruction");
    char text[256], where[64];
    for (size_t i = 0; i < nl; i++) {
        const prof_line *l = &lines[i];
        if (l->file && !l->line) /* code without a line: whose */
            snprintf(where, sizeof where, "%s:0 (%s)", ws_path_base(l->file), l->function ? l->function : "?");
        else if (l->file) {
            snprintf(where, sizeof where, "%s:%u", ws_path_base(l->file), l->line);
        } else {
            snprintf(where, sizeof where, "0x%08x", l->line);
        }
        fprintf(f, "  %-24s ", where);
        metrics(f, &l->exact, l->samples, lanes);
        if (l->file && l->line && !prof_source_line(l->file, l->line, text, sizeof text)) fprintf(f, "  | %s", text);
        else if (!l->file && l->line == WS_RETIRE_ADDR) fputs("  (kernel exit: retired warps draining)", f);
        else if (!l->file) {
            prof_no_line_text(l->function, text, sizeof text);
            fprintf(f, "  (%s)", text);
        }
        fputc('\n', f);
        for (size_t j = 0; j < k->npcs; j++) { /* PCs are sorted by address */
            const prof_pc *p = &k->pcs[j];
            if (!prof_line_has(l, p) || !p->disasm[0]) continue;
            snprintf(where, sizeof where, "  0x%08x", p->pc);
            fprintf(f, "  %-24s ", where);
            metrics(f, &p->exact, p->samples, lanes);
            fprintf(f, "    %s\n", p->disasm);
        }
        call_rows(f, k, l);
    }
    free(lines);
}

int prof_annotate_write(FILE *f, const prof_data *d)
{
    if (!d->opt->source) return 0;
    prof_kernel *k;
    size_t nk;
    if (prof_kernels_build(d, &k, &nk)) return -1;
    int found = 0;
    for (size_t i = 0; i < nk; i++)
        if (!strcmp(k[i].kernel, d->opt->source)) {
            kernel_source(f, &k[i], d->cfg->lanes_per_warp);
            found = 1;
        }
    if (!found) {
        fprintf(f, "\nSource of kernel %s: no launch of a kernel by that name on this device (kernels:", d->opt->source);
        for (size_t i = 0; i < nk; i++) fprintf(f, " %s", k[i].kernel);
        fprintf(f, "%s)\n", nk ? "" : " none");
    }
    prof_kernels_free(k, nk);
    return ferror(f) ? -1 : 0;
}
