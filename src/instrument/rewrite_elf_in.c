/* The rewriter's input: program headers, sections (with copies of their
 * bytes), the symbol table and every relocation, read with libelf. Sizes
 * and indices are checked: the module may be untrusted. */
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "instrument/rewrite_int.h"

int rw_fail(rw_ctx *c, const char *fmt, ...)
{
    int n = snprintf(c->err, c->errlen, "%s: ", c->what);
    if (n < 0 || (size_t)n >= c->errlen) return -1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

void rw_where(const rw_ctx *c, uint32_t addr, char *buf, size_t n)
{
    const Elf32_Sym *best = NULL;
    for (uint32_t i = 0; i < c->nsyms; i++) {
        const Elf32_Sym *s = &c->syms[i];
        if (ELF32_ST_TYPE(s->st_info) != STT_FUNC || s->st_value > addr) continue;
        if (addr < s->st_value + (s->st_size ? s->st_size : 1) && (!best || s->st_value > best->st_value)) best = s;
    }
    if (best && best->st_name < c->strtab_size)
        snprintf(buf, n, "0x%08x (%s+0x%x)", addr, c->strtab + best->st_name, addr - best->st_value);
    else
        snprintf(buf, n, "0x%08x", addr);
}

static int read_sections(rw_ctx *c, Elf *e)
{
    size_t shnum, shstrndx;
    if (elf_getshdrnum(e, &shnum) || elf_getshdrstrndx(e, &shstrndx) || shnum > 4096)
        return rw_fail(c, "cannot read the section table");
    c->nsecs = (uint32_t)shnum;
    c->secs = calloc(shnum ? shnum : 1, sizeof *c->secs);
    if (!c->secs) return rw_fail(c, "out of host memory");
    uint64_t contents = 0;
    for (size_t i = 1; i < shnum; i++) {
        Elf_Scn *scn = elf_getscn(e, i);
        /* (libelf hands out the file's own bytes, which a section table at
         * an odd offset leaves misaligned: copied, never dereferenced) */
        const void *raw = scn ? elf32_getshdr(scn) : NULL;
        if (!raw) return rw_fail(c, "section %zu: unreadable header", i);
        rw_sec *s = &c->secs[i];
        memcpy(&s->sh, raw, sizeof s->sh);
        const Elf32_Shdr *sh = &s->sh;
        const char *name = elf_strptr(e, shstrndx, sh->sh_name);
        snprintf(s->name, sizeof s->name, "%s", name ? name : "");
        /* (the output is laid out by these: an alignment of 2^31 or
         * sections that overlap would make it gigabytes) */
        if (sh->sh_addralign > 1 && ((sh->sh_addralign & (sh->sh_addralign - 1)) || sh->sh_addralign > 4096))
            return rw_fail(c, "section %zu (%s): alignment %u is not a power of two up to 4096", i, s->name,
                           sh->sh_addralign);
        if (sh->sh_type == SHT_NOBITS || !sh->sh_size) continue;
        if (sh->sh_offset > c->file_size || sh->sh_size > c->file_size - sh->sh_offset)
            return rw_fail(c, "section %s extends past the end of the file", s->name);
        if ((contents += sh->sh_size) > c->file_size)
            return rw_fail(c, "section %zu (%s): the sections' contents overlap (more bytes than the file has)", i,
                           s->name);
        if (!(s->bytes = malloc(sh->sh_size))) return rw_fail(c, "out of host memory");
        memcpy(s->bytes, c->file + sh->sh_offset, sh->sh_size);
    }
    return 0;
}

static int read_symbols(rw_ctx *c)
{
    for (uint32_t i = 1; i < c->nsecs; i++) {
        rw_sec *s = &c->secs[i];
        if (s->sh.sh_type != SHT_SYMTAB) continue;
        if (s->sh.sh_entsize != sizeof(Elf32_Sym) || s->sh.sh_link >= c->nsecs || !s->bytes)
            return rw_fail(c, "malformed symbol table");
        c->symtab = i;
        c->nsyms = s->sh.sh_size / sizeof(Elf32_Sym);
        c->syms = (Elf32_Sym *)(void *)s->bytes; /* edited in place, written back */
        rw_sec *str = &c->secs[s->sh.sh_link];
        c->strtab = (const char *)str->bytes;
        c->strtab_size = str->bytes ? str->sh.sh_size : 0;
        if (c->strtab_size && c->strtab[c->strtab_size - 1]) return rw_fail(c, "string table is not terminated");
        return 0;
    }
    return rw_fail(c, "no symbol table (was the module stripped?)");
}

static int read_relocations(rw_ctx *c)
{
    uint32_t total = 0;
    for (uint32_t i = 1; i < c->nsecs; i++)
        if (c->secs[i].sh.sh_type == SHT_RELA) total += c->secs[i].sh.sh_size / sizeof(Elf32_Rela);
        else if (c->secs[i].sh.sh_type == SHT_REL) return rw_fail(c, "SHT_REL section %s: not supported", c->secs[i].name);
    c->rels = calloc(total ? total : 1, sizeof *c->rels);
    if (!c->rels) return rw_fail(c, "out of host memory");
    for (uint32_t i = 1; i < c->nsecs; i++) {
        rw_sec *s = &c->secs[i];
        if (s->sh.sh_type != SHT_RELA || !s->bytes) continue;
        if (s->sh.sh_entsize != sizeof(Elf32_Rela) || s->sh.sh_info >= c->nsecs || !s->sh.sh_info)
            return rw_fail(c, "relocation section %s: bad entry size or target", s->name);
        uint32_t n = s->sh.sh_size / sizeof(Elf32_Rela);
        for (uint32_t k = 0; k < n; k++) {
            Elf32_Rela r;
            memcpy(&r, s->bytes + k * sizeof r, sizeof r);
            uint32_t sym = ELF32_R_SYM(r.r_info);
            if (sym >= c->nsyms) return rw_fail(c, "relocation %u of %s: symbol %u out of range", k, s->name, sym);
            c->rels[c->nrels++] = (rw_rel){ .sec = s->sh.sh_info, .src = i, .place = r.r_offset,
                                            .type = ELF32_R_TYPE(r.r_info), .sym = sym, .addend = r.r_addend,
                                            .value = c->syms[sym].st_value + (uint32_t)r.r_addend };
        }
    }
    return 0;
}

static int find_text(rw_ctx *c)
{
    int found = 0;
    c->span_hi = 0;
    for (uint32_t i = 0; i < c->nph; i++) { /* (the loader skips empty segments: the copy must not) */
        const Elf32_Phdr *p = &c->ph[i];
        if (p->p_type == PT_LOAD &&
            (p->p_filesz > p->p_memsz || p->p_offset > c->file_size || p->p_filesz > c->file_size - p->p_offset))
            return rw_fail(c, "segment %u: file range [0x%x,+0x%x) is past the end of the file or larger than "
                           "its memory size 0x%x", i, p->p_offset, p->p_filesz, p->p_memsz);
    }
    for (uint32_t i = 0; i < c->nph; i++) {
        const Elf32_Phdr *p = &c->ph[i];
        if (p->p_type != PT_LOAD || p->p_vaddr >= 0xD0000000u) continue;
        if (p->p_vaddr + p->p_memsz > c->span_hi) c->span_hi = p->p_vaddr + p->p_memsz;
        if (!(p->p_flags & PF_X)) continue;
        if (found++) return rw_fail(c, "more than one executable segment");
        if (p->p_offset > c->file_size || p->p_filesz > c->file_size - p->p_offset || p->p_filesz != p->p_memsz)
            return rw_fail(c, "executable segment: bad file range");
        c->text_ph = i;
        c->text_lo = p->p_vaddr;
        c->text_hi = p->p_vaddr + p->p_filesz;
    }
    if (!found) return rw_fail(c, "no executable segment");
    for (uint32_t i = 0; i < c->nph; i++) {
        const Elf32_Phdr *p = &c->ph[i];
        if (p->p_type == PT_LOAD && i != c->text_ph && p->p_vaddr < 0xD0000000u && p->p_vaddr < c->text_hi)
            return rw_fail(c, "a segment at 0x%08x lies below the end of the code; the rewriter needs the code first",
                           p->p_vaddr);
    }
    for (uint32_t i = 1; i < c->nsecs; i++)
        if (!strcmp(c->secs[i].name, ".ws_trace")) return rw_fail(c, "the module is already instrumented");
    return 0;
}

/* Every allocated section lies inside one loadable segment: the layout
 * moves a section with the segment that holds it (one hanging past the
 * end of the code got a negative size). */
static int check_sections(rw_ctx *c)
{
    for (uint32_t s = 1; s < c->nsecs; s++) {
        const Elf32_Shdr *sh = &c->secs[s].sh;
        if (!(sh->sh_flags & SHF_ALLOC) || !sh->sh_size) continue;
        /* (contents inside the part the file holds; NOBITS anywhere in it) */
        int inside = 0;
        for (uint32_t i = 0; i < c->nph && !inside; i++) {
            const Elf32_Phdr *p = &c->ph[i];
            const uint32_t part = sh->sh_type == SHT_NOBITS ? p->p_memsz : p->p_filesz;
            inside = p->p_type == PT_LOAD && sh->sh_addr >= p->p_vaddr &&
                     (uint64_t)sh->sh_addr + sh->sh_size <= (uint64_t)p->p_vaddr + part;
        }
        if (!inside)
            return rw_fail(c, "section %u (%s) at 0x%08x, 0x%x bytes, lies outside what every loadable segment holds", s,
                           c->secs[s].name, sh->sh_addr, sh->sh_size);
    }
    return 0;
}

int rw_read_elf(rw_ctx *c)
{
    elf_version(EV_CURRENT);
    Elf *e = elf_memory((char *)(uintptr_t)c->file, c->file_size);
    if (!e) return rw_fail(c, "not an ELF file: %s", elf_errmsg(-1));
    int rc = -1;
    Elf32_Ehdr *eh = elf32_getehdr(e);
    const void *ph = eh ? elf32_getphdr(e) : NULL; /* (maybe misaligned: copied below) */
    if (!eh || eh->e_machine != EM_RISCV || eh->e_type != ET_EXEC)
        rw_fail(c, "not a 32-bit RISC-V executable");
    else if (!ph || !eh->e_phnum || eh->e_phnum > 64)
        rw_fail(c, "no program headers");
    else {
        c->eh = *eh;
        c->nph = eh->e_phnum;
        if (!(c->ph = malloc(c->nph * sizeof *c->ph))) rw_fail(c, "out of host memory");
        else {
            memcpy(c->ph, ph, c->nph * sizeof *c->ph);
            rc = read_sections(c, e) || read_symbols(c) || read_relocations(c) || find_text(c) || check_sections(c)
                     ? -1 : 0;
        }
    }
    elf_end(e);
    return rc;
}
