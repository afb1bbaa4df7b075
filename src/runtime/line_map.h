/* PC -> source line, function and inline chain, from a module's DWARF line
 * tables (elfutils libdw). Built once per module; lookups are a binary
 * search, cheap enough for per-sample use by the profiler. */
#ifndef WS_RUNTIME_LINE_MAP_H
#define WS_RUNTIME_LINE_MAP_H
#include <stddef.h>
#include <stdint.h>

#define WS_MAX_INLINE 4

typedef struct ws_line_info {
    const char *file;        /* source file of the innermost frame, or NULL */
    uint32_t line, column;
    const char *function;    /* innermost function (inlined callee first)    */
    const char *outer;       /* the out-of-line function holding the PC     */
    uint32_t ninline;        /* frames the PC is inlined into, outermost last */
    struct { const char *function, *call_file; uint32_t call_line; } inlined[WS_MAX_INLINE];
} ws_line_info;

typedef struct ws_line_map ws_line_map;

/* Build from an ELF module image in memory. Returns 0, or -1 with a message
 * naming `what`. A module without DWARF gives an empty map (lookups fail). */
int ws_line_map_build(const void *elf, size_t size, const char *what, ws_line_map **out,
                      char *err, size_t errlen);
/* Look up a link-time address. Returns 0, or -1 if no line covers it. */
int ws_line_map_lookup(const ws_line_map *m, uint32_t addr, ws_line_info *out);
/* The same without the function and inline chain (file, line and column
 * only): a binary search, where the scopes walk the compile unit's DIEs. */
int ws_line_map_lookup_line(const ws_line_map *m, uint32_t addr, ws_line_info *out);
/* The address ranges of the rows of `line` in `file` (a file name as
 * lookups return it), in address order: each from its row's address to
 * the next row's. Fills at most max pairs of lo[i], hi[i] and returns how
 * many there are in all. */
size_t ws_line_map_line_ranges(const ws_line_map *m, const char *file, uint32_t line, uint32_t *lo, uint32_t *hi,
                               size_t max);
/* The function symbol holding link address addr (the ELF's symbol
 * tables, for code without DWARF such as a library built without -g), or
 * NULL. Valid while the map is. */
const char *ws_line_map_symbol(const ws_line_map *m, uint32_t addr);
/* The module's object holding link address addr as C names it,
 * "tile[2][1]" (runtime/dwarf_objects.h). Returns 0, or -1 if none. */
int ws_line_map_object(const ws_line_map *m, uint32_t addr, char *buf, size_t len);
/* Number of line rows (for tests and statistics). */
size_t ws_line_map_rows(const ws_line_map *m);
void ws_line_map_free(ws_line_map *m);
#endif
