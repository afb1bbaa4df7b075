/* Code without a line (DWARF line 0: code the compiler merged from
 * several lines, such as the common tail of two branches, or made for
 * none) named by the lines it is reached from: the branches and jumps
 * into it and the instruction it follows, traced back through other code
 * without a line. "code without a line" alone sends the reader to the
 * disassembly; "reached from lines 30 and 31" sends them to the source. */
#include "profile/prof_internal.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t prof_branch_target(const char *disasm, int with_jumps)
{
    const char *op = strncmp(disasm, "c.", 2) ? disasm : disasm + 2;
    const char *last = strrchr(disasm, ' ');
    if (!last || strncmp(last + 1, "0x", 2)) return 0;
    int branch = op[0] == 'b' && strncmp(op, "bar", 3);
    if (!branch && !(with_jumps && !strncmp(op, "j ", 2))) return 0;
    return (uint32_t)strtoul(last + 1, NULL, 16);
}

/* Whether control may go on to the next instruction after d. */
static int falls_through(const char *d)
{
    const char *op = strncmp(d, "c.", 2) ? d : d + 2;
    return strncmp(op, "j ", 2) && strncmp(op, "jr ", 3) && strcmp(op, "ret") && strncmp(op, "jalr zero,", 10);
}

static int no_line(const prof_pc *p)
{
    return p->src.file && !p->src.line;
}

static int same_function(const prof_pc *a, const prof_pc *b)
{
    return !strcmp(a->src.function ? a->src.function : "", b->src.function ? b->src.function : "");
}

static void add_line(uint32_t *lines, size_t *n, size_t max, int *more, uint32_t line)
{
    for (size_t i = 0; i < *n; i++)
        if (lines[i] == line) return;
    if (*n == max) {
        *more = 1;
        return;
    }
    size_t i = *n;
    while (i > 0 && lines[i - 1] > line) { /* ascending */
        lines[i] = lines[i - 1];
        i--;
    }
    lines[i] = line;
    (*n)++;
}

size_t prof_line0_origins(const prof_kernel *k, const uint32_t *from, size_t nfrom, uint32_t *lines, size_t max,
                          int *more)
{
    size_t n = 0;
    *more = 0;
    if (!k->npcs) return 0;
    uint8_t *seen = calloc(k->npcs, 1);
    size_t *todo = malloc(k->npcs * sizeof *todo), ntodo = 0;
    if (!seen || !todo) {
        free(seen);
        free(todo);
        return 0;
    }
    for (size_t i = 0; i < nfrom; i++) { /* the kernel's PCs are sorted by address */
        size_t lo = 0, hi = k->npcs;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (k->pcs[mid].pc < from[i]) lo = mid + 1;
            else hi = mid;
        }
        if (lo < k->npcs && k->pcs[lo].pc == from[i] && no_line(&k->pcs[lo]) && !seen[lo]) {
            seen[lo] = 1;
            todo[ntodo++] = lo;
        }
    }
    while (ntodo) {
        const size_t q = todo[--ntodo];
        const prof_pc *to = &k->pcs[q];
        for (size_t j = 0; j < k->npcs; j++) {
            const prof_pc *p = &k->pcs[j];
            /* the instruction before (2 or 4 bytes: only PCs that ran are
             * listed, so a wider gap is no neighbour), or one jumping here */
            int before = j + 1 == q && to->pc - p->pc <= 4 && falls_through(p->disasm);
            if (!before && prof_branch_target(p->disasm, 1) != to->pc) continue;
            if (!p->src.file || strcmp(p->src.file, to->src.file) || !same_function(p, to)) continue;
            if (p->src.line) add_line(lines, &n, max, more, p->src.line);
            else if (!seen[j]) {
                seen[j] = 1;
                todo[ntodo++] = j;
            }
        }
    }
    free(seen);
    free(todo);
    return n;
}

size_t prof_line0_line_origins(const prof_kernel *k, const prof_line *l, uint32_t *lines, size_t max, int *more)
{
    uint32_t *pcs = malloc((k->npcs + 1) * sizeof *pcs);
    size_t n = 0;
    *more = 0;
    if (!pcs) return 0;
    for (int sampled = 1; sampled >= 0 && !n; sampled--)
        for (size_t i = 0; i < k->npcs; i++) {
            const prof_pc *p = &k->pcs[i];
            if (prof_line_has(l, p) && (sampled ? p->samples > 0 : p->exact.warp_instructions > 0)) pcs[n++] = p->pc;
        }
    n = prof_line0_origins(k, pcs, n, lines, max, more);
    free(pcs);
    return n;
}

void prof_line0_format(const uint32_t *lines, size_t n, int more, char *buf, size_t len)
{
    buf[0] = 0;
    if (!n || !len) return;
    size_t o = (size_t)snprintf(buf, len, "reached from line%s ", n > 1 ? "s" : "");
    for (size_t i = 0; i < n && o < len; i++)
        o += (size_t)snprintf(buf + o, len - o, "%s%u", !i ? "" : i + 1 < n || more ? ", " : " and ", lines[i]);
    if (more && o < len) snprintf(buf + o, len - o, " and others");
}
