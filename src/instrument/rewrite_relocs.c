/* Everything that names an address, moved with it: absolute references in
 * the code (lui/addi pairs), pointer words in .rodata/.data (jump tables,
 * function pointers), address words in the DWARF sections, the symbol
 * table and the section headers; and the relocation sections the loader
 * reads, rewritten for the new places. */
#include <stdlib.h>
#include <string.h>
#include "instrument/rewrite_int.h"

static int is_absolute(uint32_t type) { return type == R_32 || type == R_HI20 || type == R_LO12_I || type == R_LO12_S; }

static int code_section(const rw_ctx *c, uint32_t s) { return (c->secs[s].sh.sh_flags & SHF_EXECINSTR) != 0; }

/* Add d to the `width`-byte word at p. */
static void add_word(uint8_t *p, int width, int64_t d)
{
    uint32_t v = 0;
    memcpy(&v, p, (size_t)width);
    v = (uint32_t)((int64_t)v + d);
    memcpy(p, &v, (size_t)width);
}

static int width_of(uint32_t type)
{
    switch (type) {
    case R_32: case R_ADD32: case R_SUB32: case R_32_PCREL: return 4;
    case R_ADD16: case R_SUB16: return 2;
    case R_ADD8: case R_SUB8: return 1;
    default: return 0;
    }
}

/* A word in a data or DWARF section: shift it by how far what it names moved. */
static void patch_word(rw_ctx *c, const rw_rel *r, uint8_t *p)
{
    int64_t moved = (int64_t)rw_map_or_same(c, r->value) - (int64_t)r->value;
    if (r->type == R_32_PCREL) moved -= (int64_t)rw_map_or_same(c, r->place) - (int64_t)r->place;
    if (r->type == R_SUB32 || r->type == R_SUB16 || r->type == R_SUB8) moved = -moved;
    add_word(p, width_of(r->type), moved);
}

int rw_patch_code_refs(rw_ctx *c, uint8_t *text)
{
    for (uint32_t k = 0; k < c->nrels; k++) {
        const rw_rel *r = &c->rels[k];
        if (!code_section(c, r->sec) || (r->type != R_HI20 && r->type != R_LO12_I && r->type != R_LO12_S)) continue;
        int32_t i = rw_inst_index(c, r->place);
        if (i < 0 || c->insts[i].in.len != 4) return rw_fail(c, "relocation at 0x%08x is not on a 32-bit instruction", r->place);
        uint32_t t = rw_map_or_same(c, r->value), raw;
        uint8_t *p = text + (c->insts[i].new_addr - c->text_lo);
        memcpy(&raw, p, 4);
        raw = r->type == R_HI20 ? rv_set_u_imm(raw, rv_hi20(t))
            : r->type == R_LO12_I ? rv_set_i_imm(raw, rv_lo12(t)) : rv_set_s_imm(raw, rv_lo12(t));
        memcpy(p, &raw, 4);
    }
    return 0;
}

/* Sections rebuilt whole from the original file (rewrite_dwarf.c,
 * rewrite_cfi.c): .eh_frame's relocations, besides, lie at other places
 * than the words they computed (the linker merged its input sections). */
static int skip_section(const rw_sec *s)
{
    return !strcmp(s->name, ".debug_line") || !strcmp(s->name, ".debug_frame") || !strcmp(s->name, ".eh_frame");
}

/* What relocation r adds to the word at its place, as the linker computed it. */
static uint32_t link_term(const rw_rel *r)
{
    if (r->type == R_SUB32 || r->type == R_SUB16 || r->type == R_SUB8) return 0u - r->value;
    return r->type == R_32_PCREL ? r->value - r->place : r->value;
}

static int by_place(const void *a, const void *b)
{
    const rw_rel *x = *(const rw_rel *const *)a, *y = *(const rw_rel *const *)b;
    if (x->sec != y->sec) return x->sec < y->sec ? -1 : 1;
    return x->place < y->place ? -1 : x->place > y->place;
}

/* A linked module holds each relocated DWARF word's final value:
 * the sum of what the relocations at its place compute (an ADD/SUB pair
 * is a length). A relocation that does not, in a damaged file, would
 * "move" a word that is no address (a DWARF type reference, say), so the
 * module is refused rather than rewritten into one that does not load.
 * Places with a relocation type the rewriter does not patch are left
 * unchecked, as they are left unpatched; so are allocated sections, whose
 * relocations a linker keeps from its inputs where it edited the contents
 * (.eh_frame's do not match in the modules clang and lld build). */
static int check_linked_values(rw_ctx *c)
{
    const rw_rel **v = malloc((c->nrels ? c->nrels : 1) * sizeof *v);
    uint32_t n = 0;
    if (!v) return rw_fail(c, "out of host memory");
    for (uint32_t k = 0; k < c->nrels; k++) {
        const rw_rel *r = &c->rels[k];
        const rw_sec *s = &c->secs[r->sec];
        if (!(s->sh.sh_flags & SHF_ALLOC) && s->bytes && !skip_section(s)) v[n++] = r;
    }
    qsort(v, n, sizeof *v, by_place);
    int rc = 0;
    for (uint32_t i = 0, j; i < n && !rc; i = j) {
        const rw_rel *r = v[i];
        const rw_sec *s = &c->secs[r->sec];
        const int width = width_of(r->type);
        int known = width != 0;
        uint32_t sum = 0;
        for (j = i; j < n && v[j]->sec == r->sec && v[j]->place == r->place; j++) {
            known &= width_of(v[j]->type) == width;
            sum += link_term(v[j]);
        }
        const uint32_t off = r->place;
        if (!known || off > s->sh.sh_size || (uint32_t)width > s->sh.sh_size - off) continue; /* (rw_patch_data's) */
        uint32_t word = 0;
        memcpy(&word, s->bytes + off, (size_t)width);
        const uint32_t mask = width == 4 ? UINT32_MAX : (1u << (8 * width)) - 1;
        if ((word & mask) != (sum & mask))
            rc = rw_fail(c, "%s+0x%x: the relocations there compute 0x%x but the word holds 0x%x (a damaged file)",
                         s->name, off, sum & mask, word & mask);
    }
    free(v);
    return rc;
}

int rw_patch_data(rw_ctx *c)
{
    if (check_linked_values(c)) return -1;
    for (uint32_t k = 0; k < c->nrels; k++) {
        const rw_rel *r = &c->rels[k];
        rw_sec *s = &c->secs[r->sec];
        int w = width_of(r->type);
        if (code_section(c, r->sec) || !w || !s->bytes || skip_section(s)) continue;
        uint32_t off = s->sh.sh_flags & SHF_ALLOC ? r->place - s->sh.sh_addr : r->place;
        if (off > s->sh.sh_size || (uint32_t)w > s->sh.sh_size - off)
            return rw_fail(c, "relocation at 0x%08x lies outside section %s", r->place, s->name);
        patch_word(c, r, s->bytes + off);
    }
    return 0;
}

/* New symbol values, section addresses and sizes. */
int rw_move_symbols(rw_ctx *c)
{
    for (uint32_t i = 1; i < c->nsyms; i++) {
        Elf32_Sym *s = &c->syms[i];
        if (s->st_shndx == SHN_UNDEF || s->st_shndx >= c->nsecs || !(c->secs[s->st_shndx].sh.sh_flags & SHF_ALLOC))
            continue;
        uint32_t v = s->st_value, nv, ne;
        if (rw_map(c, v, &nv)) continue;
        if (s->st_size && !rw_map(c, v + s->st_size, &ne) && ne >= nv) s->st_size = ne - nv;
        s->st_value = nv;
    }
    for (uint32_t i = 1; i < c->nsecs; i++) {
        rw_sec *s = &c->secs[i];
        s->new_addr = s->sh.sh_addr;
        if (!(s->sh.sh_flags & SHF_ALLOC)) continue;
        uint32_t end = s->sh.sh_addr + s->sh.sh_size, na, ne;
        if (rw_map(c, s->sh.sh_addr, &na) || rw_map(c, end, &ne)) continue;
        if (s->sh.sh_flags & SHF_EXECINSTR) s->sh.sh_addralign = 2; /* RVC code may start anywhere even */
        s->new_addr = na;
        s->sh.sh_size = ne - na;
    }
    return 0;
}

/* The loader's relocations (absolute types in loadable sections) at their
 * new places; the PC-relative ones are dropped (the module moves as one
 * block) and so are the DWARF ones (the words now hold final values). */
int rw_rewrite_rela(rw_ctx *c)
{
    for (uint32_t i = 1; i < c->nsecs; i++) {
        rw_sec *s = &c->secs[i];
        if (s->sh.sh_type != SHT_RELA) continue;
        uint32_t target = s->sh.sh_info, n = 0;
        int loaded = target < c->nsecs && (c->secs[target].sh.sh_flags & SHF_ALLOC);
        Elf32_Rela *out = (Elf32_Rela *)(void *)s->bytes;
        for (uint32_t k = 0; loaded && k < c->nrels; k++) {
            const rw_rel *r = &c->rels[k];
            /* (its own entries only: two sections may relocate one target,
             * and this one has room for its own) */
            if (r->src != i || !is_absolute(r->type)) continue;
            uint32_t place;
            if (code_section(c, target)) {
                int32_t x = rw_inst_index(c, r->place);
                if (x < 0) return rw_fail(c, "relocation at 0x%08x is not on an instruction", r->place);
                place = c->insts[x].new_addr;
            } else {
                place = rw_map_or_same(c, r->place);
            }
            const Elf32_Sym *sym = &c->syms[r->sym]; /* already moved */
            uint32_t t = rw_map_or_same(c, r->value);
            out[n].r_offset = place;
            out[n].r_info = ELF32_R_INFO(r->sym, r->type);
            out[n].r_addend = (int32_t)(t - sym->st_value);
            n++;
        }
        s->sh.sh_size = n * sizeof(Elf32_Rela);
    }
    return 0;
}
