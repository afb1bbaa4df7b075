/* The code addresses a module's read-only data holds (code_pointers.h).
 * Every such word counts, not only the relocated ones: a module linked
 * without --emit-relocs has no relocations to tell them by, and a word
 * that only looks like an address adds an edge the jump does not take,
 * which can only keep a function in address order, never misorder it. */
#include <stdlib.h>
#include "runtime/code_pointers.h"

static int ascending(const void *a, const void *b)
{
    const uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int ws_code_pointers(Elf *e, uint32_t delta, uint32_t lo, uint32_t hi, uint32_t **out, size_t *n)
{
    *out = NULL, *n = 0;
    uint32_t *v = NULL;
    size_t nv = 0, cap = 0;
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        Elf_Data *d;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_ALLOC) ||
            (sh.sh_flags & (SHF_EXECINSTR | SHF_WRITE)) || !(d = elf_getdata(scn, NULL)) || !d->d_buf)
            continue;
        const uint8_t *p = d->d_buf;
        for (size_t off = (4 - sh.sh_addr % 4) % 4; off + 4 <= d->d_size; off += 4) {
            const uint32_t a = ((uint32_t)p[off] | (uint32_t)p[off + 1] << 8 | (uint32_t)p[off + 2] << 16 |
                                (uint32_t)p[off + 3] << 24) + delta;
            if (a < lo || a >= hi || a % 2) continue;
            if (nv == cap) {
                uint32_t *w = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v);
                if (!w) { free(v); return -1; }
                v = w;
            }
            v[nv++] = a;
        }
    }
    if (!nv) { free(v); return 0; }
    qsort(v, nv, sizeof *v, ascending);
    size_t u = 1;
    for (size_t i = 1; i < nv; i++)
        if (v[i] != v[u - 1]) v[u++] = v[i];
    *out = v, *n = u;
    return 0;
}
