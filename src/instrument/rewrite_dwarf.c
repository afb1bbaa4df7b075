/* DWARF that the move invalidates without a relocation to say so: the line
 * programs (rebuilt row by row, each original instruction keeping its file,
 * line and column, the inserted code before it sharing its row), the
 * compile units' offsets into .debug_line, and DW_AT_high_pc stored as a
 * length. Address words with relocations were moved by rewrite_relocs.c. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>
#include "instrument/rewrite_dwarf_io.h"
#include "instrument/rewrite_int.h"

typedef struct row {
    uint32_t addr, file, line, col, disc, isa;
    uint8_t stmt, prologue_end, epilogue_begin, end_seq;
} row;

typedef struct encoder {
    dw_buf *b;
    row cur;
    int in_seq;
    uint8_t default_stmt;
} encoder;

static void enc_reset(encoder *e)
{
    e->cur = (row){ .file = 1, .line = 1, .stmt = e->default_stmt };
    e->in_seq = 0;
}

static int emit_row(encoder *e, const row *r)
{
    dw_buf *b = e->b;
    int bad = 0;
    if (!e->in_seq) {
        uint8_t set[] = { 0, 5, DW_LNE_set_address };
        bad |= dw_put(b, set, 3) || dw_put(b, &r->addr, 4);
        e->cur.addr = r->addr;
        e->in_seq = 1;
    }
    if (r->addr != e->cur.addr) bad |= dw_put_u8(b, DW_LNS_advance_pc) || dw_put_uleb(b, r->addr - e->cur.addr);
    if (r->file != e->cur.file) bad |= dw_put_u8(b, DW_LNS_set_file) || dw_put_uleb(b, r->file);
    if (r->line != e->cur.line) bad |= dw_put_u8(b, DW_LNS_advance_line) || dw_put_sleb(b, (int64_t)r->line - e->cur.line);
    if (r->col != e->cur.col) bad |= dw_put_u8(b, DW_LNS_set_column) || dw_put_uleb(b, r->col);
    if (r->stmt != e->cur.stmt) bad |= dw_put_u8(b, DW_LNS_negate_stmt);
    if (r->isa != e->cur.isa) bad |= dw_put_u8(b, DW_LNS_set_isa) || dw_put_uleb(b, r->isa);
    if (r->disc) {
        dw_buf tmp = { 0 };
        bad |= dw_put_uleb(&tmp, r->disc);
        bad |= dw_put_u8(b, 0) || dw_put_uleb(b, tmp.n + 1) || dw_put_u8(b, DW_LNE_set_discriminator) || dw_put(b, tmp.p, tmp.n);
        free(tmp.p);
    }
    if (r->prologue_end) bad |= dw_put_u8(b, DW_LNS_set_prologue_end);
    if (r->epilogue_begin) bad |= dw_put_u8(b, DW_LNS_set_epilogue_begin);
    e->cur.addr = r->addr; e->cur.file = r->file; e->cur.line = r->line; e->cur.col = r->col;
    e->cur.stmt = r->stmt; e->cur.isa = r->isa;
    if (r->end_seq) {
        uint8_t end[] = { 0, 1, DW_LNE_end_sequence };
        bad |= dw_put(b, end, 3);
        enc_reset(e);
    } else {
        bad |= dw_put_u8(b, DW_LNS_copy);
    }
    return bad ? -1 : 0;
}

/* One line-number program: decode its rows, move them, encode them again. */
static int rebuild_unit(rw_ctx *c, dw_reader *r, const uint8_t *unit, dw_buf *out)
{
    uint64_t len = dw_get_n(r, 4);
    if (len >= 0xfffffff0u) return rw_fail(c, ".debug_line: 64-bit DWARF is not supported");
    const uint8_t *end = r->p + len;
    if (len > (size_t)(r->end - r->p)) return rw_fail(c, ".debug_line: unit at offset %zu runs past the section", (size_t)(unit - r->p));
    dw_reader u = { r->p, end, 0 };
    uint16_t version = (uint16_t)dw_get_n(&u, 2);
    if (version < 2 || version > 5) return rw_fail(c, ".debug_line: version %u is not supported", version);
    if (version >= 5) dw_get_n(&u, 2);
    uint64_t hlen = dw_get_n(&u, 4);
    const uint8_t *prog = u.p + hlen;
    uint8_t min_inst = (uint8_t)dw_get_n(&u, 1);
    if (version >= 4) dw_get_n(&u, 1);
    uint8_t default_stmt = (uint8_t)dw_get_n(&u, 1);
    int8_t line_base = (int8_t)dw_get_n(&u, 1);
    uint8_t line_range = (uint8_t)dw_get_n(&u, 1), opcode_base = (uint8_t)dw_get_n(&u, 1);
    uint8_t std_len[256] = { 0 };
    for (int i = 1; i < opcode_base; i++) std_len[i] = (uint8_t)dw_get_n(&u, 1);
    if (u.bad || prog > end || !line_range || !opcode_base || min_inst != 1)
        return rw_fail(c, ".debug_line: malformed program header (minimum instruction length %u)", min_inst);
    /* header copied as it is; the unit length is written at the end */
    size_t start = out->n;
    if (dw_put(out, unit, (size_t)(prog - unit))) return rw_fail(c, "out of host memory");
    encoder e = { out, { 0 }, 0, default_stmt };
    enc_reset(&e);
    row s = { .file = 1, .line = 1, .stmt = default_stmt };
    dw_reader p = { prog, end, 0 };
    while (p.p < p.end && !p.bad) {
        uint8_t op = *p.p++;
        int emit = 0;
        if (op >= opcode_base) {
            unsigned adj = op - opcode_base;
            s.addr += adj / line_range;
            s.line += line_base + (int)(adj % line_range);
            emit = 1;
        } else if (op == 0) {
            uint64_t n = dw_get_uleb(&p);
            if (!n || n > (uint64_t)(p.end - p.p)) { p.bad = 1; break; }
            const uint8_t *next = p.p + n;
            uint8_t sub = *p.p++;
            if (sub == DW_LNE_end_sequence) { s.end_seq = 1; emit = 1; }
            else if (sub == DW_LNE_set_address) s.addr = (uint32_t)dw_get_n(&p, (int)(n - 1) > 4 ? 4 : (int)(n - 1));
            else if (sub == DW_LNE_set_discriminator) s.disc = (uint32_t)dw_get_uleb(&p);
            else if (sub == DW_LNE_define_file) return rw_fail(c, ".debug_line: DW_LNE_define_file is not supported");
            p.p = next;
        } else if (op == DW_LNS_copy) emit = 1;
        else if (op == DW_LNS_advance_pc) s.addr += (uint32_t)dw_get_uleb(&p);
        else if (op == DW_LNS_advance_line) s.line = (uint32_t)((int64_t)s.line + dw_get_sleb(&p));
        else if (op == DW_LNS_set_file) s.file = (uint32_t)dw_get_uleb(&p);
        else if (op == DW_LNS_set_column) s.col = (uint32_t)dw_get_uleb(&p);
        else if (op == DW_LNS_negate_stmt) s.stmt = !s.stmt;
        else if (op == DW_LNS_set_basic_block) {}
        else if (op == DW_LNS_const_add_pc) s.addr += (255u - opcode_base) / line_range;
        else if (op == DW_LNS_fixed_advance_pc) s.addr += (uint32_t)dw_get_n(&p, 2);
        else if (op == DW_LNS_set_prologue_end) s.prologue_end = 1;
        else if (op == DW_LNS_set_epilogue_begin) s.epilogue_begin = 1;
        else if (op == DW_LNS_set_isa) s.isa = (uint32_t)dw_get_uleb(&p);
        else for (int i = 0; i < std_len[op]; i++) dw_get_uleb(&p);
        if (!emit) continue;
        row moved = s;
        if (rw_map(c, s.addr, &moved.addr))
            return rw_fail(c, ".debug_line: a row names 0x%08x, inside an instruction", s.addr);
        if (emit_row(&e, &moved)) return rw_fail(c, "out of host memory");
        if (s.end_seq) s = (row){ .file = 1, .line = 1, .stmt = default_stmt };
        s.disc = 0;
        s.prologue_end = s.epilogue_begin = 0;
    }
    if (p.bad) return rw_fail(c, ".debug_line: truncated line program");
    uint32_t ulen = (uint32_t)(out->n - start - 4);
    memcpy(out->p + start, &ulen, 4);
    r->p = end;
    return 0;
}

static int rebuild_lines(rw_ctx *c, rw_sec *s, dw_offset_map *units)
{
    dw_buf out = { 0 };
    dw_reader r = { s->bytes, s->bytes + s->sh.sh_size, 0 };
    while (r.p < r.end) {
        if (dw_map_add(units, (uint32_t)(r.p - s->bytes), (uint32_t)out.n)) { free(out.p); return rw_fail(c, "out of host memory"); }
        if (rebuild_unit(c, &r, r.p, &out)) { free(out.p); return -1; }
    }
    free(s->bytes);
    s->bytes = out.p;
    s->sh.sh_size = (uint32_t)out.n;
    return 0;
}

static void write_form(uint8_t *p, unsigned form, uint64_t v)
{
    int n = form == DW_FORM_data1 ? 1 : form == DW_FORM_data2 ? 2 : form == DW_FORM_data8 ? 8 : 4;
    for (int i = 0; i < n; i++) p[i] = (uint8_t)(v >> (8 * i));
}

#ifndef DW_AT_GNU_locviews
#define DW_AT_GNU_locviews 0x2137
#endif

/* Which list section a DWARF 5 DW_FORM_sec_offset attribute points into:
 * 0 .debug_loclists, 1 .debug_rnglists, -1 another. */
static int list_section_of(unsigned at)
{
    switch (at) {
    case DW_AT_location: case DW_AT_string_length: case DW_AT_return_addr: case DW_AT_data_member_location:
    case DW_AT_frame_base: case DW_AT_segment: case DW_AT_static_link: case DW_AT_use_location:
    case DW_AT_vtable_elem_location: case DW_AT_loclists_base: case DW_AT_GNU_locviews:
        return 0;
    case DW_AT_ranges: case DW_AT_start_scope: case DW_AT_rnglists_base:
        return 1;
    default:
        return -1;
    }
}

static const char *const list_section_name[2] = { ".debug_loclists", ".debug_rnglists" };

/* Two walks over every DIE: the first finds each compile unit's lists
 * (owners), the second, after the sections are rebuilt, patches what
 * moved: DW_AT_high_pc lengths, DW_AT_stmt_list, and the offsets into the
 * list sections. */
typedef struct die_walk {
    rw_ctx *c;
    uint8_t *info;              /* our copy of .debug_info (NULL: first walk) */
    const uint8_t *orig;        /* libdw's view of it                         */
    size_t size;
    const dw_offset_map *lines; /* .debug_line units                          */
    const dw_offset_map *lists[2]; /* list offsets, NULL where not rebuilt */
    dw_list_owner *owner;       /* the compile unit's (first walk)            */
    int dwarf5, depth, failed;
} die_walk;

static int in_info(const die_walk *w, const Dwarf_Attribute *a, size_t n)
{
    return a->valp >= w->orig && (size_t)(a->valp - w->orig) <= w->size - n && w->size >= n;
}

static void fix_high_pc(die_walk *w, Dwarf_Die *die)
{
    Dwarf_Attribute a;
    if (!dwarf_attr(die, DW_AT_high_pc, &a)) return;
    unsigned form = dwarf_whatform(&a);
    Dwarf_Addr low;
    Dwarf_Word len;
    if ((form == DW_FORM_data1 || form == DW_FORM_data2 || form == DW_FORM_data4 || form == DW_FORM_data8) &&
        dwarf_lowpc(die, &low) == 0 && dwarf_formudata(&a, &len) == 0 && in_info(w, &a, 1)) {
        uint32_t nl, ne;
        if (!rw_map(w->c, (uint32_t)low, &nl) && !rw_map(w->c, (uint32_t)(low + len), &ne) && ne >= nl)
            write_form(w->info + (a.valp - w->orig), form, ne - nl);
    }
}

/* An offset into .debug_line or a list section (DW_FORM_sec_offset). */
static int visit_offset(Dwarf_Attribute *a, void *arg)
{
    die_walk *w = arg;
    Dwarf_Word off;
    const unsigned at = dwarf_whatattr(a);
    if (dwarf_whatform(a) != DW_FORM_sec_offset || !in_info(w, a, 4) || dwarf_formudata(a, &off) != 0 ||
        off > UINT32_MAX)
        return DWARF_CB_OK;
    uint32_t now;
    if (at == DW_AT_stmt_list) {
        if (w->info && !dw_map_find(w->lines, (uint32_t)off, &now)) write_form(w->info + (a->valp - w->orig), DW_FORM_data4, now);
        return DWARF_CB_OK;
    }
    const int k = w->dwarf5 ? list_section_of(at) : -1; /* (DWARF 4's lists are in .debug_loc/.debug_ranges) */
    if (k < 0) return DWARF_CB_OK;
    if (!w->info) { /* first walk: whose lists */
        if (at == DW_AT_loclists_base || at == DW_AT_rnglists_base) w->owner->table[k] = (uint32_t)off;
        else if (off < w->owner->first_ref[k]) w->owner->first_ref[k] = (uint32_t)off;
        return DWARF_CB_OK;
    }
    if (!w->lists[k]) return DWARF_CB_OK;
    if (dw_map_find(w->lists[k], (uint32_t)off, &now)) {
        rw_fail(w->c, ".debug_info+0x%zx: attribute 0x%x names %s+0x%x, where no list starts",
                (size_t)(a->valp - w->orig), at, list_section_name[k], (unsigned)off);
        w->failed = 1;
        return DWARF_CB_ABORT;
    }
    write_form(w->info + (a->valp - w->orig), DW_FORM_data4, now);
    return DWARF_CB_OK;
}

static void walk_die(die_walk *w, Dwarf_Die *die)
{
    if (w->info) fix_high_pc(w, die);
    if (dwarf_getattrs(die, visit_offset, w, 0) != 1 || w->failed) return;
    Dwarf_Die child;
    if (w->depth < 64 && dwarf_child(die, &child) == 0) {
        w->depth++;
        do walk_die(w, &child);
        while (!w->failed && dwarf_siblingof(&child, &child) == 0);
        w->depth--;
    }
}

/* Every compile unit, with w->owner its entry of owners (first walk). */
static int walk_units(Dwarf *dw, die_walk *w, dw_list_owner **owners, uint32_t *n)
{
    Dwarf_Off off = 0, next;
    size_t hsize;
    Dwarf_Half version;
    uint32_t cap = 0;
    while (!w->failed && dwarf_next_unit(dw, off, &next, &hsize, &version, NULL, NULL, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu;
        w->dwarf5 = version >= 5;
        if (owners && *n == cap) {
            cap = cap ? cap * 2 : 16;
            dw_list_owner *o = realloc(*owners, cap * sizeof *o);
            if (!o) return rw_fail(w->c, "out of host memory");
            *owners = o;
        }
        if (dwarf_offdie(dw, off + hsize, &cu)) {
            if (owners) {
                dw_list_owner *o = &(*owners)[(*n)++];
                Dwarf_Addr low = 0;
                Dwarf_Attribute a;
                Dwarf_Word base;
                *o = (dw_list_owner){ 0, UINT32_MAX, { UINT32_MAX, UINT32_MAX }, { UINT32_MAX, UINT32_MAX } };
                if (dwarf_attr(&cu, DW_AT_low_pc, &a) && dwarf_lowpc(&cu, &low) == 0) o->base_addr = (uint32_t)low;
                if (dwarf_attr(&cu, DW_AT_addr_base, &a) && dwarf_formudata(&a, &base) == 0 && base <= UINT32_MAX)
                    o->addr_base = (uint32_t)base;
                w->owner = o;
            }
            walk_die(w, &cu);
        }
        off = next;
    }
    return w->failed ? -1 : 0;
}

int rw_patch_dwarf(rw_ctx *c)
{
    rw_sec *line = NULL, *info = NULL, *lists[2] = { NULL, NULL };
    for (uint32_t i = 1; i < c->nsecs; i++) {
        rw_sec *s = &c->secs[i];
        if (!s->bytes) continue;
        if (!strcmp(s->name, ".debug_line")) line = s;
        if (!strcmp(s->name, ".debug_info")) info = s;
        if (!strcmp(s->name, ".debug_loclists")) lists[0] = s;
        if (!strcmp(s->name, ".debug_rnglists")) lists[1] = s;
    }
    dw_offset_map units = { 0 }, moved_lists[2] = { { 0 }, { 0 } };
    if (line && rebuild_lines(c, line, &units)) return dw_map_free(&units), -1;
    if (!info) return dw_map_free(&units), 0;
    Elf *e = elf_memory((char *)(uintptr_t)c->file, c->file_size);
    Dwarf *dw = e ? dwarf_begin_elf(e, DWARF_C_READ, NULL) : NULL;
    if (!dw) {
        if (e) elf_end(e);
        dw_map_free(&units);
        return rw_fail(c, "cannot read the DWARF: %s", dwarf_errmsg(-1));
    }
    die_walk w = { c, NULL, c->file + info->sh.sh_offset, info->sh.sh_size, &units, { NULL, NULL }, NULL, 0, 0, 0 };
    dw_list_owner *owners = NULL;
    uint32_t nowners = 0;
    int rc = 0;
    if (lists[0] || lists[1]) {
        rc = walk_units(dw, &w, &owners, &nowners);
        for (int k = 0; k < 2 && !rc; k++)
            if (lists[k]) {
                rc = rw_rebuild_lists(c, lists[k], k, owners, nowners, &moved_lists[k]);
                w.lists[k] = &moved_lists[k];
            }
    }
    if (!rc) {
        w.info = info->bytes;
        rc = walk_units(dw, &w, NULL, NULL);
    }
    free(owners);
    dwarf_end(dw);
    elf_end(e);
    dw_map_free(&units);
    dw_map_free(&moved_lists[0]);
    dw_map_free(&moved_lists[1]);
    return rc;
}
