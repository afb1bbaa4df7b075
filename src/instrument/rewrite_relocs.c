/* Everything that names an address, moved with it: absolute references in
 * the code (lui/addi pairs), pointer words in .rodata/.data (jump tables,
 * function pointers), address words in the DWARF sections, the symbol
 * table and the section headers; and the relocation sections the loader
 * reads, rewritten for the new places. */
#include <stdlib.h>
#include <string.h>
#include "instrument/rewrite_int.h"

static int is_absolute(uint32_t type) { return type == R_32 || type == R_HI20 || type == R_LO12_I || type == R_LO12_S; }

static int32_t find_inst(const rw_ctx *c, uint32_t addr)
{
    uint32_t lo = 0, hi = c->ninsts;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (c->insts[mid].addr < addr) lo = mid + 1;
        else hi = mid;
    }
    return lo < c->ninsts && c->insts[lo].addr == addr ? (int32_t)lo : -1;
}

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
        int32_t i = find_inst(c, r->place);
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

static int skip_section(const rw_sec *s) { return !strcmp(s->name, ".debug_line"); } /* rebuilt whole */

int rw_patch_data(rw_ctx *c)
{
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
                int32_t x = find_inst(c, r->place);
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
