/* Writing the rewritten module: the same sections in the same order (so
 * symbol and relocation indices stay valid), loadable segments at their new
 * addresses, and one more NOBITS section and segment, `.ws_trace`, for the
 * control area the inserted code uses. */
#include <stdlib.h>
#include <string.h>
#include "instrument/rewrite_int.h"

static uint64_t align_up(uint64_t v, uint64_t a) { return a > 1 ? (v + a - 1) / a * a : v; }

/* The largest rewritten module written (the input's sizes bound it well
 * below this; a module that gets past them is refused, not allocated). */
#define RW_MAX_OUTPUT (1ull << 30)

static const char trace_name[] = ".ws_trace";

/* Which original segment holds section s (-1: none). */
static int segment_of(const rw_ctx *c, const rw_sec *s)
{
    if (!(s->sh.sh_flags & SHF_ALLOC)) return -1;
    for (uint32_t i = 0; i < c->nph; i++) {
        const Elf32_Phdr *p = &c->ph[i];
        if (p->p_type == PT_LOAD && s->sh.sh_addr >= p->p_vaddr && s->sh.sh_addr + s->sh.sh_size <= p->p_vaddr + p->p_memsz +
            ((s->sh.sh_flags & SHF_EXECINSTR) ? (c->new_text_hi - c->text_hi) : 0))
            return (int)i;
    }
    return -1;
}

int rw_write_elf(rw_ctx *c, const uint8_t *text, uint32_t text_size, uint8_t **out_p, size_t *out_size)
{
    uint32_t nph = c->nph + 1, nsecs = c->nsecs + 1;
    Elf32_Phdr *ph = calloc(nph, sizeof *ph);
    Elf32_Shdr *sh = calloc(nsecs, sizeof *sh);
    uint32_t *seg_off = calloc(nph, sizeof *seg_off);
    uint8_t **seg_bytes = calloc(nph, sizeof *seg_bytes);
    rw_sec *shstr = c->eh.e_shstrndx < c->nsecs ? &c->secs[c->eh.e_shstrndx] : NULL;
    int rc = -1;
    if (!ph || !sh || !seg_off || !seg_bytes || !shstr || !shstr->bytes) {
        rw_fail(c, ph && sh && seg_off && seg_bytes ? "no section-name table" : "out of host memory");
        goto done;
    }
    /* loadable segments: new addresses and contents */
    uint64_t at = align_up(sizeof(Elf32_Ehdr) + nph * sizeof(Elf32_Phdr), 4096);
    for (uint32_t i = 0; i < c->nph; i++) {
        Elf32_Phdr p = c->ph[i];
        ph[i] = p;
        if (p.p_type != PT_LOAD) continue;
        if (i == c->text_ph) {
            ph[i].p_filesz = ph[i].p_memsz = text_size;
            seg_bytes[i] = malloc(text_size ? text_size : 1);
            if (!seg_bytes[i]) { rw_fail(c, "out of host memory"); goto done; }
            memcpy(seg_bytes[i], text, text_size);
        } else {
            ph[i].p_vaddr = ph[i].p_paddr = rw_map_or_same(c, p.p_vaddr);
            seg_bytes[i] = calloc(p.p_filesz ? p.p_filesz : 1, 1);
            if (!seg_bytes[i]) { rw_fail(c, "out of host memory"); goto done; }
            if (p.p_offset <= c->file_size && p.p_filesz <= c->file_size - p.p_offset)
                memcpy(seg_bytes[i], c->file + p.p_offset, p.p_filesz);
            for (uint32_t s = 1; s < c->nsecs; s++) { /* patched section contents */
                const rw_sec *sec = &c->secs[s];
                if (segment_of(c, sec) != (int)i || sec->sh.sh_type == SHT_NOBITS || !sec->bytes) continue;
                uint32_t off = sec->sh.sh_addr - p.p_vaddr;
                if (off <= p.p_filesz && sec->sh.sh_size <= p.p_filesz - off)
                    memcpy(seg_bytes[i] + off, sec->bytes, sec->sh.sh_size);
            }
        }
        at = align_up(at, 4096) + (ph[i].p_vaddr & 4095);
        seg_off[i] = ph[i].p_offset = (Elf32_Off)at;
        at += ph[i].p_filesz;
    }
    Elf32_Phdr *tp = &ph[c->nph]; /* the control area */
    *tp = (Elf32_Phdr){ .p_type = PT_LOAD, .p_offset = (Elf32_Off)align_up(at, 4096), .p_vaddr = c->ctl_addr,
                        .p_paddr = c->ctl_addr, .p_filesz = 0, .p_memsz = c->ctl_size, .p_flags = PF_R | PF_W,
                        .p_align = 4096 };
    /* sections: allocated ones inside their segment, the rest after */
    for (uint32_t s = 1; s < c->nsecs; s++) {
        rw_sec *sec = &c->secs[s];
        sh[s] = sec->sh;
        sh[s].sh_addr = sec->new_addr;
        int seg = segment_of(c, sec);
        if (seg >= 0) {
            sh[s].sh_offset = seg_off[seg] + (sec->new_addr - ph[seg].p_vaddr);
            /* an empty section in the segment's zero-filled tail: at the end of its file part */
            if (!sec->sh.sh_size && sh[s].sh_offset > seg_off[seg] + ph[seg].p_filesz)
                sh[s].sh_offset = seg_off[seg] + ph[seg].p_filesz;
        } else if (sec->sh.sh_flags & SHF_ALLOC) {
            sh[s].sh_offset = (Elf32_Off)at;
        }
    }
    at = align_up(at, 4096);
    uint32_t shstr_size = shstr->sh.sh_size + sizeof trace_name;
    for (uint32_t s = 1; s < c->nsecs; s++) {
        if (c->secs[s].sh.sh_flags & SHF_ALLOC) continue;
        at = align_up(at, c->secs[s].sh.sh_addralign ? c->secs[s].sh.sh_addralign : 1);
        sh[s].sh_offset = (Elf32_Off)at;
        if (s == c->eh.e_shstrndx) sh[s].sh_size = shstr_size;
        at += sh[s].sh_type == SHT_NOBITS ? 0 : sh[s].sh_size;
    }
    sh[c->nsecs] = (Elf32_Shdr){ .sh_name = shstr->sh.sh_size, .sh_type = SHT_NOBITS, .sh_flags = SHF_ALLOC | SHF_WRITE,
                                 .sh_addr = c->ctl_addr, .sh_offset = tp->p_offset, .sh_size = c->ctl_size,
                                 .sh_addralign = 64 };
    for (uint32_t i = 0; i < c->nph; i++) /* e.g. PT_RISCV_ATTRIBUTES: follow its section */
        if (ph[i].p_type != PT_LOAD)
            for (uint32_t s = 1; s < c->nsecs; s++)
                if (ph[i].p_filesz && c->secs[s].sh.sh_offset == c->ph[i].p_offset && !(c->secs[s].sh.sh_flags & SHF_ALLOC))
                    ph[i].p_offset = sh[s].sh_offset;
    const uint64_t shoff = align_up(at, 4), total = shoff + (uint64_t)nsecs * sizeof(Elf32_Shdr);
    if (total > RW_MAX_OUTPUT) {
        rw_fail(c, "the rewritten module would take %llu bytes", (unsigned long long)total);
        goto done;
    }
    uint8_t *o = calloc(total, 1);
    if (!o) { rw_fail(c, "out of host memory"); goto done; }
    Elf32_Ehdr eh = c->eh;
    eh.e_phoff = sizeof eh;
    eh.e_phnum = (Elf32_Half)nph;
    eh.e_shoff = (Elf32_Off)shoff;
    eh.e_shnum = (Elf32_Half)nsecs;
    eh.e_entry = rw_map_or_same(c, eh.e_entry);
    memcpy(o, &eh, sizeof eh);
    memcpy(o + sizeof eh, ph, nph * sizeof *ph);
    for (uint32_t i = 0; i < c->nph; i++)
        if (seg_bytes[i]) memcpy(o + ph[i].p_offset, seg_bytes[i], ph[i].p_filesz);
    for (uint32_t s = 1; s < c->nsecs; s++) {
        const rw_sec *sec = &c->secs[s];
        if ((sec->sh.sh_flags & SHF_ALLOC) || sec->sh.sh_type == SHT_NOBITS || !sec->bytes) continue;
        memcpy(o + sh[s].sh_offset, sec->bytes, sec->sh.sh_size);
        if (s == c->eh.e_shstrndx) memcpy(o + sh[s].sh_offset + sec->sh.sh_size, trace_name, sizeof trace_name);
    }
    memcpy(o + shoff, sh, nsecs * sizeof *sh);
    *out_p = o;
    *out_size = total;
    rc = 0;
done:
    for (uint32_t i = 0; seg_bytes && i < nph; i++) free(seg_bytes[i]);
    free(seg_bytes);
    free(seg_off);
    free(ph);
    free(sh);
    return rc;
}
