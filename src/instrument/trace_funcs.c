/* The function symbols of a traced module, so that the reports can say in
 * which function code without line information lies (the device library's
 * 64-bit atomics, hand-written assembly): such an address alone names
 * nothing a user wrote. */
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include "instrument/tracer_int.h"

static int by_start(const void *a, const void *b)
{
    const tr_func *x = a, *y = b;
    if (x->lo != y->lo) return x->lo < y->lo ? -1 : 1;
    return strcmp(x->name, y->name);
}

static int add_func(tr_funcs *f, size_t *cap, uint32_t lo, uint32_t size, const char *name)
{
    if (f->n == *cap) {
        size_t ncap = *cap ? 2 * *cap : 64;
        tr_func *v = realloc(f->v, ncap * sizeof *v);
        if (!v) return -1;
        f->v = v;
        *cap = ncap;
    }
    char *copy = strdup(name);
    if (!copy) return -1;
    f->v[f->n++] = (tr_func){ lo, lo + size, copy };
    return 0;
}

/* Every named function symbol with a size, of every symbol table. */
static int read_symtabs(Elf *e, tr_funcs *out)
{
    size_t cap = 0;
    for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize) continue;
        Elf_Data *data = elf_getdata(scn, NULL);
        size_t n = data ? sh.sh_size / sh.sh_entsize : 0;
        for (size_t i = 1; i < n; i++) {
            GElf_Sym s;
            if (!gelf_getsym(data, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC || !s.st_size ||
                s.st_shndx == SHN_UNDEF)
                continue;
            const char *name = elf_strptr(e, sh.sh_link, s.st_name);
            if (name && *name && add_func(out, &cap, (uint32_t)s.st_value, (uint32_t)s.st_size, name)) return -1;
        }
    }
    return 0;
}

void tr_funcs_build(const void *elf, size_t size, tr_funcs *out)
{
    memset(out, 0, sizeof *out);
    if (!elf || elf_version(EV_CURRENT) == EV_NONE) return;
    Elf *e = elf_memory((char *)elf, size);
    if (!e) return;
    /* (out of host memory: the functions read so far, or none) */
    (void)read_symtabs(e, out);
    elf_end(e);
    if (out->n) qsort(out->v, out->n, sizeof *out->v, by_start);
}

const char *tr_funcs_lookup(const tr_funcs *f, uint32_t addr)
{
    const tr_func *best = NULL;
    for (size_t i = 0; i < f->n && f->v[i].lo <= addr; i++)
        if (addr < f->v[i].hi) best = &f->v[i]; /* the latest start: the innermost */
    return best ? best->name : NULL;
}

void tr_funcs_free(tr_funcs *f)
{
    for (size_t i = 0; i < f->n; i++) free(f->v[i].name);
    free(f->v);
    memset(f, 0, sizeof *f);
}
