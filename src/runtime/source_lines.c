/* Source lines for device PCs, from the DWARF of the module that holds the
 * PC: "vecadd.c:13", and for code inlined into the kernel the chain of call
 * sites, innermost first. Fault reports use it (the device calls it through
 * dev->describe_pc, set at device open) so a kernel built with -g names the
 * faulting line, as compute-sanitizer users expect. */
#include <dwarf.h>
#include <stdarg.h>
#include <elfutils/libdw.h>
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

__attribute__((format(printf, 4, 5)))
static size_t put(char *buf, size_t len, size_t n, const char *fmt, ...)
{
    if (n >= len) return n;
    va_list ap;
    va_start(ap, fmt);
    int w = vsnprintf(buf + n, len - n, fmt, ap);
    va_end(ap);
    return w < 0 ? n : n + (size_t)w;
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

/* Write " at FILE:LINE[ in F, inlined from FILE:LINE in G...]" for pc. */
static void describe(Dwarf *dw, uint32_t link_pc, char *buf, size_t len)
{
    Dwarf_Die cu;
    if (!find_cu(dw, link_pc, &cu)) return;
    Dwarf_Line *line = dwarf_getsrc_die(&cu, link_pc);
    int lineno = 0;
    const char *file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
    if (!file || dwarf_lineno(line, &lineno) != 0) return;
    size_t n = put(buf, len, 0, " at %s:%d", file, lineno);
    Dwarf_Die *scopes = NULL;
    int ns = dwarf_getscopes(&cu, link_pc, &scopes);
    for (int i = 0; i < ns; i++) {
        int tag = dwarf_tag(&scopes[i]);
        if (tag != DW_TAG_inlined_subroutine && tag != DW_TAG_subprogram) continue;
        n = put(buf, len, n, " in %s", scope_name(&scopes[i]));
        if (tag == DW_TAG_subprogram) break;
        Dwarf_Attribute a;
        Dwarf_Word f = 0, l = 0;
        dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_file, &a), &f);
        dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &a), &l);
        n = put(buf, len, n, ", inlined at %s:%ld", cu_file(&cu, f), (long)l);
    }
    free(scopes);
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
