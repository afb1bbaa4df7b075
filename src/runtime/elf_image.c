/* Module ELF reader: structure checks, the loadable span, kernels and the
 * relocations that depend on the load address. DWARF parameter types are
 * read in elf_dwarf.c. Input is untrusted: every offset is checked. */
#include <gelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/elf_image.h"
#include "runtime/elf_internal.h"
#include "warpscope/abi.h"

#define MAX_SPAN (256u << 20)
#ifndef EM_RISCV
#define EM_RISCV 243
#endif

enum { R_NONE = 0, R_32 = 1, R_HI20 = 26, R_LO12_I = 27, R_LO12_S = 28 };

int ws_elf_fail(ws_elf_ctx *cx, const char *fmt, ...)
{
    int n = snprintf(cx->err, cx->errlen, "%s: ", cx->what);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < cx->errlen) vsnprintf(cx->err + n, cx->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    return -1;
}

static int check_header(ws_elf_ctx *cx)
{
    if (cx->size < EI_NIDENT || memcmp(cx->data, ELFMAG, SELFMAG) != 0)
        return ws_elf_fail(cx, "not an ELF file (bad magic)");
    if (cx->data[EI_CLASS] != ELFCLASS32)
        return ws_elf_fail(cx, "ELF class %u is not 32-bit; kernels are riscv32", cx->data[EI_CLASS]);
    if (cx->data[EI_DATA] != ELFDATA2LSB) return ws_elf_fail(cx, "not little-endian");
    GElf_Ehdr eh;
    if (!gelf_getehdr(cx->elf, &eh)) return ws_elf_fail(cx, "unreadable ELF header: %s", elf_errmsg(-1));
    if (eh.e_machine != EM_RISCV) return ws_elf_fail(cx, "machine %u is not RISC-V (243)", eh.e_machine);
    if (eh.e_type != ET_EXEC)
        return ws_elf_fail(cx, "ELF type %u is not an executable; link kernels with 'warpscope cc'", eh.e_type);
    /* libelf quietly treats a header table outside the file as empty, which
     * would surface later as a misleading "no loadable segments" or "no
     * symbol table": say what is wrong. (Extended numbering keeps the real
     * counts elsewhere; libelf checks those.) */
    if (eh.e_phnum && eh.e_phnum != PN_XNUM &&
        (eh.e_phentsize != sizeof(Elf32_Phdr) || eh.e_phoff > cx->size ||
         (uint64_t)eh.e_phnum * sizeof(Elf32_Phdr) > cx->size - eh.e_phoff))
        return ws_elf_fail(cx, "program header table (%u entries of %u bytes at 0x%llx) does not fit in the file "
                           "(size 0x%zx)", eh.e_phnum, eh.e_phentsize, (unsigned long long)eh.e_phoff, cx->size);
    if (eh.e_shnum && (eh.e_shentsize != sizeof(Elf32_Shdr) || eh.e_shoff > cx->size ||
                       (uint64_t)eh.e_shnum * sizeof(Elf32_Shdr) > cx->size - eh.e_shoff))
        return ws_elf_fail(cx, "section header table (%u entries of %u bytes at 0x%llx) does not fit in the file "
                           "(size 0x%zx)", eh.e_shnum, eh.e_shentsize, (unsigned long long)eh.e_shoff, cx->size);
    return 0;
}

static int in_shared(uint64_t addr) { return addr >= WS_SHARED_BASE && addr < WS_SHARED_END; }

/* A loadable segment of the span, for the overlap check. */
typedef struct seg_range { uint64_t lo, hi; size_t idx; } seg_range;

static int cmp_seg(const void *a, const void *b)
{
    const seg_range *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo ? 1 : 0;
}

/* Segments must not overlap: a byte cannot be both code and data, and the
 * writable map would be ambiguous. Sorting keeps this O(n log n) for files
 * with many program headers. */
static int check_overlap(ws_elf_ctx *cx, seg_range *segs, size_t n)
{
    qsort(segs, n, sizeof *segs, cmp_seg);
    for (size_t i = 1; i < n; i++)
        if (segs[i].lo < segs[i - 1].hi)
            return ws_elf_fail(cx, "program headers %zu and %zu: loadable segments overlap at 0x%08llx",
                               segs[i - 1].idx, segs[i].idx, (unsigned long long)segs[i].lo);
    return 0;
}

/* The span of the loadable segments (the shared-memory window excluded). */
static int scan_segments(ws_elf_ctx *cx, ws_elf_image *img)
{
    size_t n;
    if (elf_getphdrnum(cx->elf, &n)) return ws_elf_fail(cx, "unreadable program headers: %s", elf_errmsg(-1));
    uint64_t lo = UINT64_MAX, hi = 0;
    img->text_start = UINT32_MAX;
    seg_range *segs = malloc((n ? n : 1) * sizeof *segs);
    size_t nsegs = 0;
    int r = -1;
    if (!segs) return ws_elf_fail(cx, "out of memory");
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(cx->elf, (int)i, &ph)) { ws_elf_fail(cx, "program header %zu unreadable", i); goto out; }
        if (ph.p_type == PT_TLS && ph.p_memsz && ph.p_memsz <= UINT32_MAX && ph.p_vaddr <= UINT32_MAX) {
            img->tls_start = (uint32_t)ph.p_vaddr; /* checked against the data segments below */
            img->tls_size = (uint32_t)ph.p_memsz;
            img->tls_filesz = (uint32_t)(ph.p_filesz < ph.p_memsz ? ph.p_filesz : ph.p_memsz);
        }
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0) continue;
        if (ph.p_filesz > ph.p_memsz) {
            ws_elf_fail(cx, "program header %zu: file size 0x%llx exceeds memory size 0x%llx", i,
                        (unsigned long long)ph.p_filesz, (unsigned long long)ph.p_memsz);
            goto out;
        }
        if (ph.p_offset > cx->size || ph.p_filesz > cx->size - ph.p_offset) {
            ws_elf_fail(cx, "program header %zu: segment [0x%llx,+0x%llx) extends past end of file (size 0x%zx)",
                        i, (unsigned long long)ph.p_offset, (unsigned long long)ph.p_filesz, cx->size);
            goto out;
        }
        if (in_shared(ph.p_vaddr)) continue;
        if (ph.p_vaddr < WS_GLOBAL_BASE || ph.p_vaddr >= WS_GLOBAL_MAX_END || ph.p_memsz > WS_GLOBAL_MAX_END - ph.p_vaddr) {
            ws_elf_fail(cx, "program header %zu: segment at 0x%llx+0x%llx is outside the module area "
                        "[0x%08x, 0x%08x)", i, (unsigned long long)ph.p_vaddr,
                        (unsigned long long)ph.p_memsz, WS_GLOBAL_BASE, WS_GLOBAL_MAX_END);
            goto out;
        }
        if (ph.p_vaddr < lo) lo = ph.p_vaddr;
        if (ph.p_vaddr + ph.p_memsz > hi) hi = ph.p_vaddr + ph.p_memsz;
        segs[nsegs++] = (seg_range){ ph.p_vaddr, ph.p_vaddr + ph.p_memsz, i };
        if (ph.p_flags & PF_X) {
            if (ph.p_vaddr < img->text_start) img->text_start = (uint32_t)ph.p_vaddr;
            if (ph.p_vaddr + ph.p_memsz > img->text_end) img->text_end = (uint32_t)(ph.p_vaddr + ph.p_memsz);
        }
    }
    if (lo == UINT64_MAX) { ws_elf_fail(cx, "no loadable segments"); goto out; }
    lo &= ~4095ull;
    hi = (hi + 4095) & ~4095ull;
    if (hi - lo > MAX_SPAN) {
        ws_elf_fail(cx, "loadable span 0x%llx..0x%llx is larger than 256 MiB", (unsigned long long)lo,
                    (unsigned long long)hi);
        goto out;
    }
    if (img->text_start == UINT32_MAX) { ws_elf_fail(cx, "no executable segment"); goto out; }
    if (check_overlap(cx, segs, nsegs)) goto out;
    if (img->tls_size) { /* the template the lanes' copies start from */
        int inside = 0;
        for (size_t i = 0; i < nsegs; i++) {
            GElf_Phdr ph;
            if (gelf_getphdr(cx->elf, (int)segs[i].idx, &ph) && (ph.p_flags & PF_W) && img->tls_start >= segs[i].lo &&
                (uint64_t)img->tls_start + img->tls_size <= segs[i].hi)
                inside = 1;
        }
        if (!inside) {
            ws_elf_fail(cx, "the thread-local block [0x%08x, +0x%x) is not inside a writable loadable segment "
                        "(link with kernel/warpscope.ld, as warpscope cc does)", img->tls_start, img->tls_size);
            goto out;
        }
    }
    img->link_base = (uint32_t)lo;
    img->size = (uint32_t)(hi - lo);
    img->bytes = calloc(1, img->size);
    img->writable = calloc(1, img->size / 8);
    if (!img->bytes || !img->writable) {
        ws_elf_fail(cx, "out of memory for a %u-byte image", img->size);
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(cx->elf, (int)i, &ph)) { ws_elf_fail(cx, "program header %zu unreadable", i); goto out; }
        if (ph.p_type != PT_LOAD || ph.p_memsz == 0 || in_shared(ph.p_vaddr)) continue;
        uint32_t off = (uint32_t)(ph.p_vaddr - lo);
        /* every granule the segment touches, including partial ones at either end */
        if (ph.p_flags & PF_W)
            memset(img->writable + off / 8, 1, (off + ph.p_memsz - 1) / 8 - off / 8 + 1);
        memcpy(img->bytes + off, cx->data + ph.p_offset, ph.p_filesz);
    }
    r = 0;
out:
    free(segs);
    return r;
}

static const char *section_name(ws_elf_ctx *cx, const GElf_Shdr *sh)
{
    const char *s = elf_strptr(cx->elf, cx->shstrndx, sh->sh_name);
    return s ? s : "";
}

static int check_section(ws_elf_ctx *cx, size_t idx, const GElf_Shdr *sh)
{
    if (sh->sh_type != SHT_NOBITS && (sh->sh_offset > cx->size || sh->sh_size > cx->size - sh->sh_offset))
        return ws_elf_fail(cx, "section header %zu: data [0x%llx,+0x%llx) extends past end of file (size 0x%zx)",
                           idx, (unsigned long long)sh->sh_offset, (unsigned long long)sh->sh_size, cx->size);
    return 0;
}

/* Find .ws_shared, .ws_kernels and the symbol table. */
static int scan_sections(ws_elf_ctx *cx, ws_elf_image *img)
{
    if (elf_getshdrstrndx(cx->elf, &cx->shstrndx))
        return ws_elf_fail(cx, "no section name table: %s", elf_errmsg(-1));
    /* A bad e_shstrndx would make every section nameless: the module would
     * load with no kernels and no shared memory instead of being rejected. */
    GElf_Shdr strsh;
    Elf_Scn *strscn = elf_getscn(cx->elf, cx->shstrndx);
    if (cx->shstrndx == SHN_UNDEF || !strscn || !gelf_getshdr(strscn, &strsh) || strsh.sh_type != SHT_STRTAB)
        return ws_elf_fail(cx, "e_shstrndx %zu does not name a string table section", cx->shstrndx);
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(cx->elf, scn))) {
        GElf_Shdr sh;
        size_t idx = elf_ndxscn(scn);
        if (!gelf_getshdr(scn, &sh)) return ws_elf_fail(cx, "section header %zu unreadable", idx);
        if (check_section(cx, idx, &sh)) return -1;
        const char *name = section_name(cx, &sh);
        if (!strcmp(name, WS_SHARED_SECTION)) {
            cx->shared_idx = idx;
            if (sh.sh_size > WS_SHARED_END - WS_SHARED_BASE)
                return ws_elf_fail(cx, "section %s is too large (0x%llx bytes)", name, (unsigned long long)sh.sh_size);
            img->shared_static_size = (uint32_t)sh.sh_size;
        } else if (!strcmp(name, WS_KERNEL_SECTION)) {
            cx->kernel_idx = idx;
            cx->kernel_lo = sh.sh_addr;
            cx->kernel_hi = sh.sh_addr + sh.sh_size;
        } else if (!strcmp(name, WS_VERTEX_SECTION)) {
            cx->vertex_idx = idx;
        } else if (!strcmp(name, WS_FRAGMENT_SECTION)) {
            cx->fragment_idx = idx;
        } else if (!strcmp(name, WS_SYSVALS_SECTION)) {
            cx->sysvals_mark = 1;
        } else if (sh.sh_type == SHT_SYMTAB && !cx->symtab) {
            cx->symtab = scn;
            cx->strtab_idx = sh.sh_link;
            if (sh.sh_entsize != sizeof(Elf32_Sym) || sh.sh_size % sizeof(Elf32_Sym))
                return ws_elf_fail(cx, "section header %zu: malformed symbol table", idx);
        }
    }
    if (!cx->symtab) return ws_elf_fail(cx, "no symbol table (was the module stripped?)");
    img->legacy_sysvals = (cx->vertex_idx || cx->fragment_idx) && !cx->sysvals_mark;
    return 0;
}

static int add_kernel(ws_elf_ctx *cx, ws_elf_image *img, const char *name, const GElf_Sym *sym,
                      ws_func_kind kind)
{
    if (img->nkernels == cx->kcap) {
        uint32_t cap = cx->kcap ? cx->kcap * 2 : 8;
        ws_elf_kernel *k = realloc(img->kernels, cap * sizeof *k);
        if (!k) return ws_elf_fail(cx, "out of memory");
        img->kernels = k;
        cx->kcap = cap;
    }
    ws_elf_kernel *k = &img->kernels[img->nkernels];
    memset(k, 0, sizeof *k);
    if (!(k->name = strdup(name))) return ws_elf_fail(cx, "out of memory");
    img->nkernels++;
    k->kind = kind;
    k->entry = (uint32_t)sym->st_value;
    k->body = k->entry; /* DWARF may move it past the prologue (elf_dwarf.c) */
    k->size = (uint32_t)sym->st_size;
    if (k->entry < img->text_start || k->entry >= img->text_end)
        return ws_elf_fail(cx, "kernel '%s' entry 0x%08x is outside the code segment", name, k->entry);
    return 0;
}

typedef struct kernel_ref { const char *name; uint32_t pos; } kernel_ref;

static int cmp_kernel_ref(const void *a, const void *b)
{
    const kernel_ref *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* A name listed twice (a global and a weak symbol, say) keeps its first
 * entry in symbol-table order. Sorting keeps this O(n log n): a crafted
 * symbol table with 10^5 kernels must not stall the loader. */
static int dedupe_kernels(ws_elf_ctx *cx, ws_elf_image *img)
{
    uint32_t n = img->nkernels, kept = 0;
    if (n < 2) return 0;
    kernel_ref *v = malloc(n * sizeof *v);
    uint8_t *drop = calloc(n, 1);
    if (!v || !drop) {
        free(v);
        free(drop);
        return ws_elf_fail(cx, "out of memory");
    }
    for (uint32_t i = 0; i < n; i++) v[i] = (kernel_ref){ img->kernels[i].name, i };
    qsort(v, n, sizeof *v, cmp_kernel_ref);
    for (uint32_t i = 1; i < n; i++)
        if (!strcmp(v[i].name, v[i - 1].name)) drop[v[i].pos] = 1;
    for (uint32_t i = 0; i < n; i++) {
        if (drop[i]) free(img->kernels[i].name);
        else img->kernels[kept++] = img->kernels[i];
    }
    img->nkernels = kept;
    free(v);
    free(drop);
    return 0;
}

/* Kernels: global functions inside the .ws_kernels section; shaders: those
 * inside .ws_vertex and .ws_fragment. */
static int scan_kernels(ws_elf_ctx *cx, ws_elf_image *img)
{
    Elf_Data *d = elf_getdata(cx->symtab, NULL);
    if (!d) return ws_elf_fail(cx, "symbol table unreadable: %s", elf_errmsg(-1));
    size_t n = d->d_size / sizeof(Elf32_Sym);
    for (size_t i = 1; i < n && (cx->kernel_idx || cx->vertex_idx || cx->fragment_idx); i++) {
        GElf_Sym sym;
        if (!gelf_getsym(d, (int)i, &sym)) return ws_elf_fail(cx, "symbol %zu unreadable", i);
        if (GELF_ST_TYPE(sym.st_info) != STT_FUNC) continue;
        if (GELF_ST_BIND(sym.st_info) != STB_GLOBAL && GELF_ST_BIND(sym.st_info) != STB_WEAK) continue;
        ws_func_kind kind;
        if (!sym.st_shndx) continue;
        if (sym.st_shndx == cx->kernel_idx) kind = WS_FUNC_KERNEL;
        else if (sym.st_shndx == cx->vertex_idx) kind = WS_FUNC_VERTEX;
        else if (sym.st_shndx == cx->fragment_idx) kind = WS_FUNC_FRAGMENT;
        else continue;
        const char *name = elf_strptr(cx->elf, cx->strtab_idx, sym.st_name);
        if (!name || !*name) return ws_elf_fail(cx, "symbol %zu: bad name", i);
        if (add_kernel(cx, img, name, &sym, kind)) return -1;
    }
    return dedupe_kernels(cx, img);
}

static int keep_reloc(ws_elf_ctx *cx, uint32_t type, uint64_t place)
{
    switch (type) {
    case R_32: case R_HI20: case R_LO12_I: case R_LO12_S: return 1;
    case R_NONE: case 16: case 17: case 18: case 19: /* branch, jal, call, call_plt */
    case 23: case 24: case 25:                       /* pcrel hi20/lo12 */
    case 33: case 34: case 35: case 36: case 37: case 38: case 39: case 40: /* add/sub */
    case 43: case 44: case 45: case 51:              /* align, rvc branch/jump, relax */
    case 52: case 53: case 54: case 55: case 56: case 57: /* sub6, set*, 32_pcrel */
    case 29: case 30: case 31: case 32:              /* tprel hi20/lo12_i/lo12_s/add: offsets
                                                        in the TLS block, which tp locates */
        return 0;
    default:
        ws_elf_fail(cx, "unsupported relocation type %u at 0x%08llx", type, (unsigned long long)place);
        return -1;
    }
}

/* Relocation types that name a target reached PC-relatively (the LO12
 * halves of PCREL pairs name the auipc instead). */
static int pc_relative_target(uint32_t type)
{
    switch (type) {
    case 16: case 17: case 18: case 19: /* branch, jal, call, call_plt */
    case 23:                            /* pcrel_hi20 */
    case 44: case 45:                   /* rvc branch/jump */
    case 57:                            /* 32_pcrel */
        return 1;
    default:
        return 0;
    }
}

static int push_reloc(ws_elf_ctx *cx, ws_elf_image *img, uint32_t place, uint32_t type, uint32_t value)
{
    if (img->nrelocs == cx->rcap) {
        uint32_t cap = cx->rcap ? cx->rcap * 2 : 256;
        struct ws_elf_reloc *r = realloc(img->relocs, cap * sizeof *r);
        if (!r) return ws_elf_fail(cx, "out of memory");
        img->relocs = r;
        cx->rcap = cap;
    }
    img->relocs[img->nrelocs++] = (struct ws_elf_reloc){ place, type, value };
    return 0;
}

static int scan_rela(ws_elf_ctx *cx, ws_elf_image *img, Elf_Scn *scn, size_t idx, const GElf_Shdr *sh)
{
    Elf_Scn *target = elf_getscn(cx->elf, sh->sh_info);
    GElf_Shdr tsh;
    if (!target || !gelf_getshdr(target, &tsh))
        return ws_elf_fail(cx, "relocation section %zu targets bad section %u", idx, (unsigned)sh->sh_info);
    if (!(tsh.sh_flags & SHF_ALLOC) || sh->sh_info == cx->shared_idx) return 0;
    Elf_Data *rd = elf_getdata(scn, NULL), *sd = elf_getdata(cx->symtab, NULL);
    if (!rd || !sd) return ws_elf_fail(cx, "relocation section %zu unreadable", idx);
    size_t n = rd->d_size / sizeof(Elf32_Rela), nsyms = sd->d_size / sizeof(Elf32_Sym);
    for (size_t i = 0; i < n; i++) {
        GElf_Rela r;
        if (!gelf_getrela(rd, (int)i, &r)) return ws_elf_fail(cx, "relocation %zu of section %zu unreadable", i, idx);
        uint32_t type = (uint32_t)GELF_R_TYPE(r.r_info);
        size_t si = GELF_R_SYM(r.r_info);
        int keep = keep_reloc(cx, type, r.r_offset);
        if (keep < 0) return -1;
        if (!keep && !pc_relative_target(type)) continue;
        GElf_Sym sym;
        if (si >= nsyms || !gelf_getsym(sd, (int)si, &sym))
            return ws_elf_fail(cx, "relocation %zu of section %zu: bad symbol index %zu", i, idx, si);
        /* absolute and shared-window addresses do not move with the module */
        int fixed = sym.st_shndx == SHN_ABS || (sym.st_shndx != SHN_UNDEF && sym.st_shndx == cx->shared_idx) ||
                    in_shared(sym.st_value);
        if (!keep) {
            /* A PC-relative reference stays right only if its target moves
             * too: one to a fixed address (static shared memory reached with
             * auipc, as -mcmodel=medany compiles it) would break silently. */
            if (fixed && sym.st_shndx != SHN_UNDEF) {
                const char *sn = elf_strptr(cx->elf, cx->strtab_idx, sym.st_name);
                return ws_elf_fail(cx, "relocation %zu of section %zu: PC-relative reference at 0x%08llx to '%s' "
                                   "(0x%08llx), an address that does not move with the module; compile with the "
                                   "default -mcmodel=medlow", i, idx, (unsigned long long)r.r_offset,
                                   sn && *sn ? sn : "?", (unsigned long long)sym.st_value);
            }
            continue;
        }
        uint32_t target = (uint32_t)(sym.st_value + (uint64_t)r.r_addend);
        if (in_shared(target) && ws_elf_note_shared_ref(cx, img, (uint32_t)r.r_offset, target)) return -1;
        if (fixed || sym.st_shndx == SHN_UNDEF) continue;
        if (r.r_offset < img->link_base || r.r_offset + 4 > (uint64_t)img->link_base + img->size)
            return ws_elf_fail(cx, "relocation %zu of section %zu: place 0x%08llx is outside the image", i, idx,
                               (unsigned long long)r.r_offset);
        if (push_reloc(cx, img, (uint32_t)r.r_offset, type, (uint32_t)(sym.st_value + (uint64_t)r.r_addend)))
            return -1;
    }
    return 0;
}

static int scan_relocs(ws_elf_ctx *cx, ws_elf_image *img)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(cx->elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) return ws_elf_fail(cx, "section header %zu unreadable", elf_ndxscn(scn));
        if (sh.sh_type == SHT_REL) return ws_elf_fail(cx, "REL relocations are not supported (RISC-V uses RELA)");
        if (sh.sh_type != SHT_RELA) continue;
        if (sh.sh_entsize != sizeof(Elf32_Rela))
            return ws_elf_fail(cx, "section header %zu: bad relocation entry size %llu", elf_ndxscn(scn),
                               (unsigned long long)sh.sh_entsize);
        if (sh.sh_size % sizeof(Elf32_Rela))
            return ws_elf_fail(cx, "section header %zu: relocation section size %llu is not a multiple of "
                               "the entry size %zu", elf_ndxscn(scn), (unsigned long long)sh.sh_size,
                               sizeof(Elf32_Rela));
        if (scan_rela(cx, img, scn, elf_ndxscn(scn), &sh)) return -1;
    }
    return 0;
}

int ws_elf_parse(const void *data, size_t size, const char *what, ws_elf_image *out, char *err, size_t errlen)
{
    char tmp[8];
    ws_elf_ctx cx = { .what = what ? what : "<memory>", .err = err ? err : tmp,
                      .errlen = err ? errlen : sizeof tmp, .size = size };
    memset(out, 0, sizeof *out);
    if (!data && size) return ws_elf_fail(&cx, "no data");
    elf_version(EV_CURRENT);
    /* libelf wants a mutable buffer; work on a private copy. */
    cx.data = malloc(size ? size : 1);
    if (!cx.data) return ws_elf_fail(&cx, "out of memory");
    if (size) memcpy(cx.data, data, size);
    int r = -1;
    if (size < EI_NIDENT || memcmp(cx.data, ELFMAG, SELFMAG) != 0) {
        ws_elf_fail(&cx, size < EI_NIDENT ? "truncated: %zu bytes is too short for an ELF header"
                                          : "not an ELF file (bad magic)", size);
        goto done;
    }
    cx.elf = elf_memory((char *)cx.data, size);
    if (!cx.elf) { ws_elf_fail(&cx, "not a readable ELF file: %s", elf_errmsg(-1)); goto done; }
    if (check_header(&cx) || scan_segments(&cx, out) || scan_sections(&cx, out) || scan_kernels(&cx, out) ||
        scan_relocs(&cx, out) || ws_elf_kernel_shared(&cx, out) || ws_elf_read_params(&cx, out))
        goto done;
    r = 0;
done:
    free(cx.shrefs);
    if (cx.elf) elf_end(cx.elf);
    free(cx.data);
    if (r) ws_elf_free(out);
    return r;
}

static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static void put32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

int ws_elf_relocate(ws_elf_image *img, uint32_t new_base, char *err, size_t errlen)
{
    uint32_t delta = new_base - img->link_base;
    for (uint32_t i = 0; i < img->nrelocs; i++) {
        const struct ws_elf_reloc *r = &img->relocs[i];
        uint8_t *p = img->bytes + (r->place - img->link_base);
        uint32_t v = r->value + delta, insn = get32(p);
        uint32_t hi = (v + 0x800u) & 0xFFFFF000u, lo = v - hi;
        switch (r->type) {
        case R_32: put32(p, v); break;
        case R_HI20: put32(p, (insn & 0xFFFu) | hi); break;
        case R_LO12_I: put32(p, (insn & 0x000FFFFFu) | (lo << 20)); break;
        case R_LO12_S: put32(p, (insn & 0x01FFF07Fu) | ((lo & 0xFE0u) << 20) | ((lo & 0x1Fu) << 7)); break;
        default:
            if (err) snprintf(err, errlen, "relocation type %u at 0x%08x cannot be applied", r->type, r->place);
            return -1;
        }
    }
    for (uint32_t i = 0; i < img->nkernels; i++) { /* both move: users take body - entry */
        img->kernels[i].entry += delta;
        img->kernels[i].body += delta;
    }
    img->text_start += delta;
    img->text_end += delta;
    if (img->tls_size) img->tls_start += delta;
    img->link_base = new_base;
    return 0;
}

void ws_elf_free(ws_elf_image *img)
{
    for (uint32_t i = 0; i < img->nkernels; i++) {
        ws_elf_kernel *k = &img->kernels[i];
        for (uint32_t p = 0; p < k->nparams; p++) {
            free(k->params[p].name);
            free(k->params[p].type_name);
        }
        free(k->params);
        free(k->name);
        free(k->decl_file);
    }
    free(img->kernels);
    free(img->relocs);
    free(img->bytes);
    free(img->writable);
    memset(img, 0, sizeof *img);
}

const ws_elf_kernel *ws_elf_find_kernel(const ws_elf_image *img, const char *name)
{
    for (uint32_t i = 0; i < img->nkernels; i++)
        if (!strcmp(img->kernels[i].name, name)) return &img->kernels[i];
    return NULL;
}

const char *ws_param_kind_name(ws_param_kind k)
{
    static const char *const n[] = { "i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64", "f32", "f64", "ptr" };
    return (unsigned)k < sizeof n / sizeof *n ? n[k] : "?";
}
