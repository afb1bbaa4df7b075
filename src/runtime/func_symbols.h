/* A module's function symbols (ELF symbol tables, libelf): which function
 * holds an address, for code the DWARF does not describe (a library built
 * without -g, hand-written assembly) and for the unwinder's frame starts.
 * One table serves the line map (profiler, tracer) and the fault reports'
 * unwinder (source_lines.c). */
#ifndef WS_RUNTIME_FUNC_SYMBOLS_H
#define WS_RUNTIME_FUNC_SYMBOLS_H
#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

/* A function symbol: [lo, lo + size), its place in the symbol tables. */
typedef struct ws_func_sym {
    uint32_t lo, size, order;
    const char *name;            /* in the ELF's string table ("" if none) */
} ws_func_sym;

typedef struct ws_func_syms {
    Elf *e;                      /* the ELF the names point into           */
    ws_func_sym *v;              /* by lo, then order; NULL: scan e instead */
    size_t n;
} ws_func_syms;

/* Read every function symbol with a size of e, which must outlive s.
 * Out of host memory, lookups scan e's tables (the same answers, slower). */
void ws_func_syms_build(ws_func_syms *s, Elf *e);
/* The function holding link address a: its start, or UINT32_MAX; *name
 * (if name is not NULL) its name, "" if none. The latest start wins (a
 * symbol nested in another is the inner one); aliases share a start, and
 * the first in the tables wins. */
uint32_t ws_func_syms_find(const ws_func_syms *s, uint32_t a, const char **name);
/* The functions as [start, end) address pairs, moved by delta, into
 * pairs[0, 2 * s->n) (the caller's), ascending and not overlapping: a
 * symbol that starts inside the one before (nested, or an alias) is left
 * out. Returns how many pairs (0 when the table could not be built). */
size_t ws_func_syms_ranges(const ws_func_syms *s, uint32_t delta, uint32_t *pairs);
/* The index of the pair of pairs[0, 2 * n) (as above) holding a, or n. */
size_t ws_func_range_at(const uint32_t *pairs, size_t n, uint32_t a);
void ws_func_syms_free(ws_func_syms *s);
#endif
