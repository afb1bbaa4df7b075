/* The source line a range step (vCont;r) is on. gdb gives the range one
 * line-table row at a time, and at -O0 a line that holds a loop has a row
 * for each part of it: gdb then hears a stop, and sends the next row,
 * every few instructions. gdb itself keeps stepping at a stop in another
 * row of the same line (same file and line number: it stops only at the
 * start of a row of another line, or in another frame), so the server may
 * step through those rows without telling it, as if gdb had given the
 * whole line. The line comes from the module's DWARF line table
 * (runtime/line_map.h), built once per module the first time a step
 * starts in it. */
#include "gdbstub/target_dbg.h"
#include <stdlib.h>
#include <string.h>
#include "runtime/line_map.h"

/* The resident module holding pc, copied to *out; 0 if one does. */
static int module_at(ws_gdb_dbg *t, uint32_t pc, ws_dbg_module *out)
{
    size_t n = 0, cap = 64;
    for (;;) {
        ws_dbg_module *mods = malloc(cap * sizeof *mods);
        if (!mods) return -1;
        if (ws_debug_modules(t->dbg, mods, cap, &n)) n = 0;
        if (n > cap) { /* the list grew: take it again, whole */
            free(mods);
            cap = n + 64;
            continue;
        }
        int found = -1;
        for (size_t i = 0; i < n && found; i++)
            if (pc >= mods[i].base && pc - mods[i].base < mods[i].size) {
                *out = mods[i];
                found = 0;
            }
        free(mods);
        return found;
    }
}

/* The line map of module m, built and cached on first use (a module id is
 * never reused, so a cached map never goes stale). */
static const ws_line_map *map_of(ws_gdb_dbg *t, const ws_dbg_module *m)
{
    for (int i = 0; i < WS_GDB_LINE_MAPS; i++)
        if (t->line_maps[i].map && t->line_maps[i].id == m->id) return t->line_maps[i].map;
    if (!m->image || !m->image_size) return NULL;
    ws_line_map *map = NULL;
    char err[256];
    if (ws_line_map_build(m->image, m->image_size, m->name, &map, err, sizeof err)) return NULL;
    int slot = (int)(t->line_next++ % WS_GDB_LINE_MAPS); /* the oldest goes */
    ws_line_map_free(t->line_maps[slot].map);
    t->line_maps[slot].id = m->id;
    t->line_maps[slot].map = map;
    return map;
}

void ws_gdb_step_line_begin(ws_gdb_dbg *t, uint32_t lo)
{
    ws_gdb_step_line *s = &t->step_line;
    memset(s, 0, sizeof *s);
    ws_dbg_module m;
    if (module_at(t, lo, &m)) return;
    const ws_line_map *map = map_of(t, &m);
    ws_line_info li;
    if (!map || ws_line_map_lookup_line(map, m.link_base + (lo - m.base), &li) || !li.file || !li.line) return;
    s->map = map;
    s->base = m.base;
    s->size = m.size;
    s->link_base = m.link_base;
    s->file = li.file;
    s->line = li.line;
}

int ws_gdb_on_step_line(const ws_gdb_dbg *t, uint32_t pc)
{
    const ws_gdb_step_line *s = &t->step_line;
    ws_line_info li;
    if (!s->map || pc < s->base || pc - s->base >= s->size) return 0;
    if (ws_line_map_lookup_line(s->map, s->link_base + (pc - s->base), &li)) return 0;
    return li.line == s->line && li.file && (li.file == s->file || !strcmp(li.file, s->file));
}

uint32_t ws_gdb_step_line_ranges(const ws_gdb_dbg *t, ws_dbg_step_range *r)
{
    const ws_gdb_step_line *s = &t->step_line;
    uint32_t lo[WS_DBG_STEP_RANGES], hi[WS_DBG_STEP_RANGES], n = 0;
    if (!s->map) return 0;
    size_t all = ws_line_map_line_ranges(s->map, s->file, s->line, lo, hi, WS_DBG_STEP_RANGES);
    for (size_t i = 0; i < all && i < WS_DBG_STEP_RANGES; i++) {
        if (lo[i] < s->link_base || hi[i] - s->link_base > s->size) continue; /* not in the loaded image */
        r->ranges[n].lo = s->base + (lo[i] - s->link_base);
        r->ranges[n].hi = s->base + (hi[i] - s->link_base);
        n++;
    }
    return n;
}

void ws_gdb_lines_free(ws_gdb_dbg *t)
{
    for (int i = 0; i < WS_GDB_LINE_MAPS; i++) {
        ws_line_map_free(t->line_maps[i].map);
        t->line_maps[i].map = NULL;
    }
    memset(&t->step_line, 0, sizeof t->step_line);
}
