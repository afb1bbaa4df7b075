/* Line table: every row of every CU's DWARF line program, sorted by
 * address; functions and inline chains resolved at lookup time through
 * libdw scopes (kept open with the map). */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/line_map.h"
#include "runtime/dwarf_objects.h"
#include "runtime/func_symbols.h"

typedef struct row { uint32_t addr, line, column; const char *file; int end; } row;

struct ws_line_map {
    char *data;        /* private copy of the ELF (libdw keeps pointers into it) */
    Elf *elf;
    Dwarf *dw;
    ws_func_syms funcs; /* for code the DWARF does not cover */
    row *rows;
    size_t nrows, cap;
};

static int by_addr(const void *a, const void *b)
{
    const row *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return y->end - x->end; /* an end marker sorts before a row starting there */
}

static int push(ws_line_map *m, row r)
{
    if (m->nrows == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 1024;
        row *n = realloc(m->rows, cap * sizeof *n);
        if (!n) return -1;
        m->rows = n;
        m->cap = cap;
    }
    m->rows[m->nrows++] = r;
    return 0;
}

static int collect(ws_line_map *m)
{
    Dwarf_Off off = 0, next;
    size_t hsize;
    while (dwarf_nextcu(m->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu;
        Dwarf_Lines *lines;
        size_t n;
        if (dwarf_offdie(m->dw, off + hsize, &cu) && dwarf_getsrclines(&cu, &lines, &n) == 0) {
            for (size_t i = 0; i < n; i++) {
                Dwarf_Line *l = dwarf_onesrcline(lines, i);
                Dwarf_Addr a;
                int lineno = 0, col = 0;
                bool end = false;
                if (!l || dwarf_lineaddr(l, &a) || a > UINT32_MAX) continue;
                dwarf_lineno(l, &lineno);
                dwarf_linecol(l, &col);
                dwarf_lineendsequence(l, &end);
                row r = { (uint32_t)a, (uint32_t)lineno, (uint32_t)col, dwarf_linesrc(l, NULL, NULL), end };
                if (push(m, r)) return -1;
            }
        }
        off = next;
    }
    if (m->nrows > 1) qsort(m->rows, m->nrows, sizeof *m->rows, by_addr); /* (no rows: rows is NULL) */
    return 0;
}

int ws_line_map_build(const void *elf, size_t size, const char *what, ws_line_map **out,
                      char *err, size_t errlen)
{
    *out = NULL;
    ws_line_map *m = calloc(1, sizeof *m);
    if (!m || !(m->data = malloc(size ? size : 1))) {
        free(m);
        snprintf(err, errlen, "%s: out of memory", what);
        return -1;
    }
    memcpy(m->data, elf, size);
    elf_version(EV_CURRENT);
    m->elf = elf_memory(m->data, size);
    if (!m->elf || elf_kind(m->elf) != ELF_K_ELF) {
        snprintf(err, errlen, "%s: not an ELF file", what);
        ws_line_map_free(m);
        return -1;
    }
    ws_func_syms_build(&m->funcs, m->elf);
    m->dw = dwarf_begin_elf(m->elf, DWARF_C_READ, NULL);
    if (m->dw && collect(m)) {
        snprintf(err, errlen, "%s: out of memory reading line tables", what);
        ws_line_map_free(m);
        return -1;
    }
    *out = m;
    return 0;
}

/* The compile unit whose ranges cover addr. clang emits no
 * .debug_aranges, so dwarf_addrdie cannot be used; modules have few CUs. */
static int find_cu(const ws_line_map *m, uint32_t addr, Dwarf_Die *cu)
{
    Dwarf_Off off = 0, next;
    size_t hsize;
    while (m->dw && dwarf_nextcu(m->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        if (dwarf_offdie(m->dw, off + hsize, cu) && dwarf_haspc(cu, addr) == 1) return 0;
        off = next;
    }
    return -1;
}

/* The concrete scopes containing addr, outermost first: the subprogram,
 * then each inlined call inside it (lexical blocks are passed through). */
static void containing(Dwarf_Die *parent, uint32_t addr, Dwarf_Die *chain, int *n, int max, int depth)
{
    Dwarf_Die child;
    if (depth > 64 || dwarf_child(parent, &child) != 0) return;
    do {
        int tag = dwarf_tag(&child);
        if ((tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine || tag == DW_TAG_lexical_block) &&
            dwarf_haspc(&child, addr) == 1) {
            if (tag != DW_TAG_lexical_block && *n < max) chain[(*n)++] = child;
            containing(&child, addr, chain, n, max, depth + 1);
            return;
        }
    } while (dwarf_siblingof(&child, &child) == 0);
}

static const char *die_name(Dwarf_Die *d)
{
    Dwarf_Attribute at;
    return dwarf_formstring(dwarf_attr_integrate(d, DW_AT_name, &at));
}

/* Function names and the inline chain at addr. */
static void scopes(const ws_line_map *m, uint32_t addr, ws_line_info *out)
{
    Dwarf_Die cu, chain[WS_MAX_INLINE + 2];
    int n = 0;
    if (find_cu(m, addr, &cu)) return;
    containing(&cu, addr, chain, &n, WS_MAX_INLINE + 2, 0);
    if (!n) return;
    out->function = die_name(&chain[n - 1]);
    out->outer = die_name(&chain[0]);
    Dwarf_Files *files = NULL;
    size_t nfiles = 0;
    dwarf_getsrcfiles(&cu, &files, &nfiles);
    /* innermost first: each inlined frame with the call site in its caller */
    for (int i = n - 1; i > 0 && out->ninline < WS_MAX_INLINE; i--) {
        if (dwarf_tag(&chain[i]) != DW_TAG_inlined_subroutine) break;
        Dwarf_Attribute at;
        Dwarf_Word line = 0, file = 0;
        if (dwarf_attr(&chain[i], DW_AT_call_line, &at)) dwarf_formudata(&at, &line);
        if (dwarf_attr(&chain[i], DW_AT_call_file, &at)) dwarf_formudata(&at, &file);
        out->inlined[out->ninline].function = die_name(&chain[i]);
        out->inlined[out->ninline].call_file = files && file < nfiles ? dwarf_filesrc(files, file, NULL, NULL) : NULL;
        out->inlined[out->ninline].call_line = (uint32_t)line;
        out->ninline++;
    }
}

int ws_line_map_lookup(const ws_line_map *m, uint32_t addr, ws_line_info *out)
{
    if (ws_line_map_lookup_line(m, addr, out)) return -1;
    scopes(m, addr, out);
    return 0;
}

int ws_line_map_lookup_line(const ws_line_map *m, uint32_t addr, ws_line_info *out)
{
    memset(out, 0, sizeof *out);
    size_t lo = 0, hi = m->nrows;
    while (lo < hi) { /* last row with row.addr <= addr */
        size_t mid = (lo + hi) / 2;
        if (m->rows[mid].addr <= addr) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return -1;
    const row *r = &m->rows[lo - 1];
    if (r->end) return -1; /* addr lies after the end of a sequence */
    out->file = r->file;
    out->line = r->line;
    out->column = r->column;
    return 0;
}

size_t ws_line_map_line_ranges(const ws_line_map *m, const char *file, uint32_t line, uint32_t *lo, uint32_t *hi,
                               size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i + 1 < m->nrows; i++) {
        const row *r = &m->rows[i];
        if (r->end || r->line != line || !r->file || (r->file != file && strcmp(r->file, file)) ||
            m->rows[i + 1].addr <= r->addr)
            continue;
        if (n < max) lo[n] = r->addr, hi[n] = m->rows[i + 1].addr;
        n++;
    }
    return n;
}

size_t ws_line_map_rows(const ws_line_map *m) { return m->nrows; }

const char *ws_line_map_symbol(const ws_line_map *m, uint32_t addr)
{
    const char *name = NULL;
    if (!m || ws_func_syms_find(&m->funcs, addr, &name) == UINT32_MAX || !*name) return NULL;
    return name;
}

int ws_line_map_object(const ws_line_map *m, uint32_t addr, char *buf, size_t len)
{
    return m ? ws_dwarf_object_name(m->elf, m->dw, addr, buf, len) : -1;
}

void ws_line_map_free(ws_line_map *m)
{
    if (!m) return;
    ws_func_syms_free(&m->funcs);
    if (m->dw) dwarf_end(m->dw);
    if (m->elf) elf_end(m->elf);
    free(m->rows);
    free(m->data);
    free(m);
}
