/* The code addresses a module's read-only data holds (code_pointers.h).
 * Every such word counts, not only the relocated ones: a module linked
 * without --emit-relocs has no relocations to tell them by, and a word
 * that only looks like an address can at worst add an edge the code does
 * not take, which keeps a function in address order, never misorders it. */
#include <stdlib.h>
#include "runtime/code_pointers.h"

static int by_at(const void *a, const void *b)
{
    const uint32_t x = ((const ws_code_pointer *)a)->at, y = ((const ws_code_pointer *)b)->at;
    return (x > y) - (x < y);
}

int ws_code_pointers(Elf *e, uint32_t delta, uint32_t lo, uint32_t hi, ws_code_pointer **out, size_t *n)
{
    *out = NULL, *n = 0;
    ws_code_pointer *v = NULL;
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
                ws_code_pointer *w = realloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v);
                if (!w) { free(v); return -1; }
                v = w;
            }
            v[nv++] = (ws_code_pointer){ (uint32_t)(sh.sh_addr + off) + delta, a };
        }
    }
    if (!nv) { free(v); return 0; }
    qsort(v, nv, sizeof *v, by_at);
    *out = v, *n = nv;
    return 0;
}

size_t ws_code_pointer_into(const ws_code_pointer *p, size_t np, uint32_t a, uint32_t fa, uint32_t fe)
{
    size_t l = 0, h = np;
    while (l < h) {
        const size_t m = (l + h) / 2;
        if (p[m].at < a) l = m + 1;
        else h = m;
    }
    return l < np && p[l].at == a && p[l].to > fa && p[l].to < fe ? l : np;
}

size_t ws_jump_table_at(const ws_inst *in, const uint32_t *pc, size_t n, const ws_code_pointer *p, size_t np,
                        uint32_t fa, uint32_t fe)
{
    for (size_t j = n; j-- > 0;) { /* the low part, nearest first */
        const ws_inst *l = &in[j];
        const int is_addi = l->op == OP_ADDI, is_load = l->op >= OP_LB && l->op <= OP_LHU;
        const int is_high = l->op == OP_LUI || l->op == OP_AUIPC;
        if (!is_addi && !is_load && !is_high) continue;
        if (is_high) { /* a %lo of 0 needs no addi */
            const uint32_t a = (uint32_t)l->imm + (l->op == OP_AUIPC ? pc[j] : 0);
            const size_t at = ws_code_pointer_into(p, np, a, fa, fe);
            if (at < np) return at;
            continue;
        }
        for (size_t i = j; i-- > 0;) { /* its high part */
            const ws_inst *h = &in[i];
            if ((h->op != OP_LUI && h->op != OP_AUIPC) || (is_addi && h->rd != l->rs1)) continue;
            const uint32_t a = (uint32_t)h->imm + (h->op == OP_AUIPC ? pc[i] : 0) + (uint32_t)l->imm;
            const size_t at = ws_code_pointer_into(p, np, a, fa, fe);
            if (at < np) return at;
            if (is_addi) break; /* the latest write of its register only */
        }
    }
    return np;
}
