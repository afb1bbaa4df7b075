/* Source lines for device PCs, from the DWARF of the module that holds the
 * PC: "vecadd.c:13", and for code inlined into the kernel the chain of call
 * sites, innermost first. Fault reports use it (the device calls it through
 * dev->describe_pc, set at device open) so a kernel built with -g names the
 * faulting line, as compute-sanitizer users expect. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/runtime.h"
#include "runtime/source_lines.h"

/* The loaded code holding pc: the device's code table, which has the
 * program's modules and also the tracer's instrumented twins (whose line
 * tables are rebuilt), so a fault inside a twin names its source line. */
static const ws_code_region *code_at(const ws_device *dev, uint32_t pc)
{
    for (size_t i = 0; i < dev->ncode; i++) {
        const ws_code_region *r = &dev->code[i];
        if (pc - r->base < r->size) return r;
    }
    return NULL;
}

/* The name of a CU's file number (DW_AT_call_file). */
static const char *cu_file(Dwarf_Die *cu, Dwarf_Word idx)
{
    Dwarf_Files *files;
    size_t n;
    if (dwarf_getsrcfiles(cu, &files, &n) != 0 || idx >= n) return "?";
    const char *s = dwarf_filesrc(files, idx, NULL, NULL);
    return s ? s : "?";
}

static const char *scope_name(Dwarf_Die *d)
{
    Dwarf_Attribute a;
    const char *s = dwarf_formstring(dwarf_attr_integrate(d, DW_AT_name, &a));
    return s ? s : "?";
}

/* The CU whose ranges hold pc. Not dwarf_addrdie: it trusts .debug_aranges,
 * which the device library's CUs have and clang's do not. */
static int find_cu(Dwarf *dw, Dwarf_Addr pc, Dwarf_Die *out)
{
    Dwarf_Off off = 0, next;
    size_t hsize;
    while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        if (dwarf_offdie(dw, off + hsize, out) && dwarf_haspc(out, pc) == 1) return 1;
        off = next;
    }
    return 0;
}

/* One level of the inline chain: a source line and the function it is in
 * (NULL when DWARF has no scope for it). */
typedef struct { const char *file; long line; const char *func; } src_frame;

enum { MAX_FRAMES = 64 };

/* The chain for pc, innermost first; the last frame is the kernel's own
 * line. Returns the number of frames (0: no line information). */
static int collect(Dwarf_Die *cu, uint32_t link_pc, src_frame *fr)
{
    Dwarf_Line *line = dwarf_getsrc_die(cu, link_pc);
    int lineno = 0;
    const char *file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
    if (!file || dwarf_lineno(line, &lineno) != 0) return 0;
    int nf = 1;
    fr[0] = (src_frame){ file, lineno, NULL };
    /* dwarf_getscopes continues from an inlined function to the scopes of
     * its abstract definition, which ends the chain after one level; the
     * innermost scope's parents in the concrete tree give the whole chain. */
    Dwarf_Die *scopes = NULL, inner;
    int ns = dwarf_getscopes(cu, link_pc, &scopes);
    if (ns > 0) {
        inner = scopes[0];
        free(scopes);
        scopes = NULL;
        ns = dwarf_getscopes_die(&inner, &scopes);
    }
    for (int i = 0; i < ns; i++) {
        int tag = dwarf_tag(&scopes[i]);
        if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram) continue;
        fr[nf - 1].func = scope_name(&scopes[i]);
        if (tag == DW_TAG_subprogram || nf == MAX_FRAMES) break;
        Dwarf_Attribute a;
        Dwarf_Word f = 0, l = 0;
        dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &a), &f);
        dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &a), &l);
        fr[nf++] = (src_frame){ cu_file(cu, f), (long)l, NULL };
    }
    free(scopes);
    return nf;
}

/* Appends like snprintf at buf + n; returns the length the text needs. */
static size_t put_frame(char *buf, size_t len, size_t n, int first, const src_frame *f, int base_only)
{
    const char *file = f->file, *slash = strrchr(file, '/');
    if (base_only && slash) file = slash + 1;
    int w = snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0, "%s%s:%ld%s%s",
                     first ? " at " : ", inlined at ", file, f->line, f->func ? " in " : "", f->func ? f->func : "");
    return w < 0 ? n : n + (size_t)w;
}

/* The chain as text: full paths; file names only; or the innermost and the
 * kernel's line with the levels between left out. */
static size_t render(const src_frame *fr, int nf, int shorten, char *buf, size_t len)
{
    size_t n = 0;
    for (int i = 0; i < nf; i++) {
        if (shorten == 2 && i == 1 && nf > 2) {
            int w = snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0, ", ... (%d more)", nf - 2);
            n += w < 0 ? 0 : (size_t)w;
            i = nf - 2;
            continue;
        }
        n = put_frame(buf, len, n, i == 0, &fr[i], shorten > 0);
    }
    return n;
}

/* Write " at FILE:LINE[ in F, inlined at FILE:LINE in G...]" for pc, in at
 * most len bytes. A chain too long for them is shortened (file names
 * without directories, then inner levels left out) rather than cut, so the
 * kernel's own line, the one the user needs, is always there. */
static void describe(Dwarf *dw, uint32_t link_pc, char *buf, size_t len)
{
    Dwarf_Die cu;
    src_frame fr[MAX_FRAMES];
    if (!find_cu(dw, link_pc, &cu)) return;
    int nf = collect(&cu, link_pc, fr);
    if (!nf) return;
    for (int shorten = 0; shorten < 3; shorten++)
        if (render(fr, nf, shorten, buf, len) < len) return;
    if (len > 4) memcpy(buf + len - 4, "...", 4); /* even that is too long: cut, and say so */
}

void ws_source_describe_pc(const ws_device *dev, uint32_t pc, char *buf, size_t len)
{
    if (!len) return;
    buf[0] = 0;
    const ws_code_region *m = code_at(dev, pc);
    if (!m || !m->image) return;
    Elf *e = elf_memory((char *)(uintptr_t)m->image, m->image_size); /* libelf only reads it */
    Dwarf *dw = e ? dwarf_begin_elf(e, DWARF_C_READ, NULL) : NULL;
    if (dw) describe(dw, pc - m->base + m->link_base, buf, len);
    if (dw) dwarf_end(dw);
    if (e) elf_end(e);
}
