/* Function symbols of a module image, sorted once for lookups by address. */
#include <stdlib.h>
#include <string.h>
#include "runtime/func_symbols.h"

/* Visit every defined function symbol with a size, in table order; stop
 * when visit returns non-zero. */
static void each_func(Elf *e, int (*visit)(void *, const ws_func_sym *), void *arg)
{
    uint32_t order = 0;
    for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize) continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        const size_t n = data ? sh.sh_size / sh.sh_entsize : 0;
        for (size_t i = 1; i < n; i++) {
            GElf_Sym sym;
            if (!gelf_getsym(data, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_size ||
                sym.st_shndx == SHN_UNDEF || sym.st_value > UINT32_MAX)
                continue;
            const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
            const ws_func_sym f = { (uint32_t)sym.st_value, (uint32_t)sym.st_size, order++, name ? name : "" };
            if (visit(arg, &f)) return;
        }
    }
}

static int count_func(void *arg, const ws_func_sym *f)
{
    (void)f;
    ++*(size_t *)arg;
    return 0;
}

static int add_func(void *arg, const ws_func_sym *f)
{
    ws_func_syms *s = arg;
    s->v[s->n++] = *f;
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const ws_func_sym *x = a, *y = b;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    return (x->order > y->order) - (x->order < y->order);
}

void ws_func_syms_build(ws_func_syms *s, Elf *e)
{
    memset(s, 0, sizeof *s);
    s->e = e;
    if (!e) return;
    size_t n = 0;
    each_func(e, count_func, &n);
    if (!n || !(s->v = malloc(n * sizeof *s->v))) return;
    each_func(e, add_func, s);
    qsort(s->v, s->n, sizeof *s->v, by_start);
}

/* Without the sorted table: the same rule over the tables as they are. */
typedef struct {
    uint32_t a;
    ws_func_sym best;
    int found;
} func_scan;

static int scan_func(void *arg, const ws_func_sym *f)
{
    func_scan *sc = arg;
    if (sc->a - f->lo < f->size && (!sc->found || f->lo > sc->best.lo)) sc->best = *f, sc->found = 1;
    return 0;
}

uint32_t ws_func_syms_find(const ws_func_syms *s, uint32_t a, const char **name)
{
    const ws_func_sym *best = NULL;
    func_scan sc = { a, { 0, 0, 0, "" }, 0 };
    if (s->v) {
        size_t lo = 0, hi = s->n; /* the entries starting at or below a: [0, lo) */
        while (lo < hi) {
            const size_t mid = lo + (hi - lo) / 2;
            if (s->v[mid].lo <= a) lo = mid + 1;
            else hi = mid;
        }
        for (size_t i = lo; i-- > 0;) { /* latest start first; of equal starts, the first in the tables */
            if (best && s->v[i].lo != best->lo) break;
            if (a - s->v[i].lo < s->v[i].size) best = &s->v[i];
        }
    } else if (s->e) {
        each_func(s->e, scan_func, &sc);
        if (sc.found) best = &sc.best;
    }
    if (name) *name = best ? best->name : "";
    return best ? best->lo : UINT32_MAX;
}

size_t ws_func_syms_ranges(const ws_func_syms *s, uint32_t delta, uint32_t *pairs)
{
    size_t n = 0;
    for (size_t i = 0; s->v && i < s->n; i++) { /* by start: nested and aliased symbols after the first go */
        const uint32_t lo = s->v[i].lo + delta;
        if (n && lo < pairs[2 * n - 1]) continue;
        pairs[2 * n] = lo, pairs[2 * n + 1] = lo + s->v[i].size, n++;
    }
    return n;
}

size_t ws_func_range_at(const uint32_t *pairs, size_t n, uint32_t a)
{
    size_t l = 0, h = n;
    while (l < h) {
        const size_t m = (l + h) / 2;
        if (a < pairs[2 * m]) h = m;
        else if (a >= pairs[2 * m + 1]) l = m + 1;
        else return m;
    }
    return n;
}

void ws_func_syms_free(ws_func_syms *s)
{
    free(s->v);
    memset(s, 0, sizeof *s);
}
