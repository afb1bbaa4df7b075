/* The epilogue pass over a linked module (epilogue_cfi.h).
 *
 * .debug_frame is rebuilt entry by entry: CIEs as they were, each FDE with
 * its function's epilogue rows appended after its own instructions (its
 * padding dropped, padded again), every FDE's CIE pointer set to where its
 * CIE now is. The section is not loaded, so it is written at the end of
 * the file, its header pointing there, and its old bytes zeroed: every
 * other section keeps its place and its bytes, but for the words that
 * point into .debug_frame: the offsets of its relocations (--emit-relocs
 * keeps them, and the instrumentation rewriter checks them against the
 * words) and the values of its section symbols (the CIEs of each input
 * object, which those relocations name). */
#include <elf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "instrument/epilogue_cfi.h"
#include "instrument/epilogue_rows.h"
#include "instrument/rewrite_int.h"

typedef struct pass {
    rw_ctx *c;
    cfi_text t;
    uint32_t sec;                 /* .debug_frame's index                  */
    const Elf32_Phdr *text;
    cfi_cie *cies;
    uint32_t ncies;
    uint32_t *old_at, *new_at;    /* each entry's old and new offset        */
    uint32_t nents;
    dw_buf out;
    wsi_cfi_report *rep;
} pass;

static int oom(pass *p) { return rw_fail(p->c, "out of host memory"); }

static int add_entry(pass *p, uint32_t old_off)
{
    uint32_t *a = realloc(p->old_at, (p->nents + 1) * sizeof *a);
    if (a) p->old_at = a;
    uint32_t *b = a ? realloc(p->new_at, (p->nents + 1) * sizeof *b) : NULL;
    if (b) p->new_at = b;
    if (!a || !b) return oom(p);
    p->old_at[p->nents] = old_off;
    p->new_at[p->nents++] = (uint32_t)p->out.n;
    return 0;
}

/* An old offset of .debug_frame at its new place (the end maps to the end). */
static uint32_t moved(const pass *p, uint32_t off)
{
    if (off >= p->t.size || !p->nents || off < p->old_at[0]) return off >= p->t.size ? (uint32_t)p->out.n : off;
    uint32_t lo = 0, hi = p->nents;
    while (hi - lo > 1) {
        const uint32_t mid = (lo + hi) / 2;
        if (p->old_at[mid] <= off) lo = mid;
        else hi = mid;
    }
    return p->new_at[lo] + (off - p->old_at[lo]);
}

/* A relocation of .debug_frame lies in [from, to). */
static int reloc_in(const pass *p, uint32_t from, uint32_t to)
{
    for (uint32_t k = 0; k < p->c->nrels; k++)
        if (p->c->rels[k].sec == p->sec && p->c->rels[k].place >= from && p->c->rels[k].place < to) return 1;
    return 0;
}

static const cfi_cie *cie_at(const pass *p, uint32_t off)
{
    for (uint32_t i = 0; i < p->ncies; i++)
        if (p->cies[i].off == off) return &p->cies[i];
    return NULL;
}

static void note_left(pass *p, uint32_t lo, const char *why)
{
    p->rep->left++;
    if (p->rep->first_left[0]) return;
    char where[160];
    rw_where(p->c, lo, where, sizeof where);
    snprintf(p->rep->first_left, sizeof p->rep->first_left, "%s: %s", where, why);
}

/* One FDE (body: its first byte; r: after its CIE pointer) into p->out. */
static int put_fde(pass *p, const uint8_t *body, dw_reader *r, const cfi_cie *ci)
{
    const uint8_t *entry_end = r->end, *head = r->p;
    const uint32_t lo = (uint32_t)dw_get_n(r, 4), len = (uint32_t)dw_get_n(r, 4);
    if (r->bad) return cfi_bad_at(&p->t, body, "an FDE cut short");
    const size_t start = p->out.n;
    dw_buf add = { 0 };
    epi_out eo = { 0 };
    p->rep->functions++;
    const Elf32_Phdr *tx = p->text;
    int rc = 1;
    if (ci->z || ci->caf == 0) {
        rc = 1; /* (augmentation data: not clang's .debug_frame; left) */
    } else if (len && lo >= tx->p_vaddr && len <= tx->p_filesz && lo - tx->p_vaddr <= tx->p_filesz - len) {
        const epi_fn f = { ci, r->p, entry_end, lo, lo + len, p->c->file + tx->p_offset + (lo - tx->p_vaddr) };
        rc = epi_rows(&f, &add, &eo);
        if (rc < 0) {
            free(add.p);
            return oom(p);
        }
        const uint32_t kept_end = (uint32_t)(r->p - p->t.start) + eo.keep;
        if (!rc && add.n && reloc_in(p, kept_end, (uint32_t)(entry_end - p->t.start)))
            rc = 1, snprintf(eo.why, sizeof eo.why, "relocations in its padding");
        if (rc) note_left(p, lo, eo.why);
    }
    const uint32_t cie_new = moved(p, ci->off);
    int bad = dw_put_u32(&p->out, 0) || dw_put_u32(&p->out, cie_new);
    if (!rc && add.n) {
        bad |= dw_put(&p->out, head, (size_t)(r->p - head) + eo.keep) || dw_put(&p->out, add.p, add.n);
        while (!bad && (p->out.n - start) % 4) bad |= dw_put_u8(&p->out, CFA_NOP);
        p->rep->described++;
        p->rep->epilogues += eo.epilogues;
    } else {
        bad |= dw_put(&p->out, head, (size_t)(entry_end - head));
    }
    free(add.p);
    if (bad) return oom(p);
    const uint32_t n = (uint32_t)(p->out.n - start - 4);
    memcpy(p->out.p + start, &n, 4);
    return 0;
}

static int rebuild(pass *p)
{
    dw_reader whole = { p->t.start, p->t.start + p->t.size, 0 }, r;
    uint32_t off, id;
    const uint8_t *here = whole.p;
    int e;
    for (; (e = cfi_entry(&p->t, &whole, &r, &off, &id)) == 0; here = whole.p) {
        const uint8_t *body = p->t.start + off;
        if (add_entry(p, off)) return -1;
        if (id == UINT32_MAX) { /* a CIE: as it was */
            cfi_cie *grown = realloc(p->cies, (p->ncies + 1) * sizeof *grown);
            if (!grown) return oom(p);
            p->cies = grown;
            if (cfi_read_cie(&p->t, &r, off, r.end, &p->cies[p->ncies++])) return -1;
            if (dw_put(&p->out, body, (size_t)(r.end - body))) return oom(p);
            continue;
        }
        const cfi_cie *ci = cie_at(p, id);
        if (!ci) return cfi_bad_at(&p->t, body, "an FDE whose CIE is not before it");
        if (put_fde(p, body, &r, ci)) return -1;
    }
    /* (what follows a zero terminator stays as it was) */
    if (e > 0 && (add_entry(p, (uint32_t)(here - p->t.start)) || dw_put(&p->out, here, (size_t)(whole.end - here))))
        return oom(p);
    return e < 0 ? -1 : 0;
}

/* The new file: the old one with .debug_frame's old bytes zeroed, its new
 * bytes at the end, and the words that point into it moved. */
static int write_file(pass *p, uint8_t **out, size_t *out_size)
{
    rw_ctx *c = p->c;
    const rw_sec *df = &c->secs[p->sec];
    const uint32_t align = df->sh.sh_addralign > 1 ? df->sh.sh_addralign : 1;
    const size_t at = (c->file_size + align - 1) / align * align, total = at + p->out.n;
    if (total > UINT32_MAX || c->eh.e_shentsize != sizeof(Elf32_Shdr)) return rw_fail(c, "the module is too large");
    uint8_t *o = calloc(total, 1);
    if (!o) return oom(p);
    memcpy(o, c->file, c->file_size);
    memset(o + df->sh.sh_offset, 0, df->sh.sh_size);
    memcpy(o + at, p->out.p, p->out.n);
    Elf32_Shdr sh = df->sh;
    sh.sh_offset = (Elf32_Off)at;
    sh.sh_size = (Elf32_Word)p->out.n;
    memcpy(o + c->eh.e_shoff + p->sec * sizeof sh, &sh, sizeof sh);
    const rw_sec *symtab = &c->secs[c->symtab];
    for (uint32_t i = 1; i < c->nsyms; i++) { /* the input objects' section symbols */
        Elf32_Sym s = c->syms[i];
        if (s.st_shndx != p->sec) continue;
        s.st_value = moved(p, s.st_value);
        memcpy(o + symtab->sh.sh_offset + i * sizeof s, &s, sizeof s);
    }
    for (uint32_t i = 1; i < c->nsecs; i++) {
        const rw_sec *rs = &c->secs[i];
        if (rs->sh.sh_type != SHT_RELA || !rs->bytes) continue;
        for (uint32_t k = 0; k < rs->sh.sh_size / sizeof(Elf32_Rela); k++) {
            Elf32_Rela rel;
            memcpy(&rel, rs->bytes + k * sizeof rel, sizeof rel);
            const Elf32_Sym *s = &c->syms[ELF32_R_SYM(rel.r_info)];
            if (rs->sh.sh_info == p->sec) rel.r_offset = moved(p, rel.r_offset);
            if (s->st_shndx == p->sec) /* (into .debug_frame: a CIE) */
                rel.r_addend = (Elf32_Sword)(moved(p, s->st_value + (uint32_t)rel.r_addend) - moved(p, s->st_value));
            memcpy(o + rs->sh.sh_offset + k * sizeof rel, &rel, sizeof rel);
        }
    }
    *out = o;
    *out_size = total;
    return 0;
}

static void ctx_free(rw_ctx *c)
{
    for (uint32_t i = 0; i < c->nsecs; i++) free(c->secs[i].bytes);
    free(c->secs);
    free(c->ph);
    free(c->rels);
}

int wsi_epilogue_cfi(const void *elf, size_t size, const char *what, uint8_t **out, size_t *out_size,
                     wsi_cfi_report *rep, char *err, size_t errlen)
{
    if (!elf || !out || !out_size || !rep || !err || !errlen) return -1;
    err[0] = 0;
    *out = NULL;
    *out_size = 0;
    memset(rep, 0, sizeof *rep);
    rw_ctx c = { .what = what ? what : "<module>", .err = err, .errlen = errlen, .file = elf, .file_size = size };
    pass p = { .c = &c, .rep = rep };
    int rc = -1;
    if (rw_read_elf(&c)) goto done;
    for (uint32_t i = 1; i < c.nsecs && !p.sec; i++)
        if (!strcmp(c.secs[i].name, ".debug_frame") && c.secs[i].sh.sh_type == SHT_PROGBITS &&
            !(c.secs[i].sh.sh_flags & SHF_ALLOC) && c.secs[i].bytes)
            p.sec = i;
    p.text = &c.ph[c.text_ph];
    if (p.sec) {
        p.t = (cfi_text){ c.what, ".debug_frame", c.file + c.secs[p.sec].sh.sh_offset, c.secs[p.sec].sh.sh_size, 0, 0,
                          err, errlen };
        if (rebuild(&p)) goto done;
    }
    if (!rep->epilogues) { /* nothing to add: the module as it was */
        if (!(*out = malloc(size ? size : 1))) {
            oom(&p);
            goto done;
        }
        memcpy(*out, elf, size);
        *out_size = size;
    } else if (write_file(&p, out, out_size)) {
        goto done;
    }
    rc = 0;
done:
    free(p.cies);
    free(p.old_at);
    free(p.new_at);
    free(p.out.p);
    ctx_free(&c);
    return rc;
}
