/* DWARF that the move invalidates without a relocation to say so: the line
 * programs (rebuilt row by row, each original instruction keeping its file,
 * line and column, the inserted code before it sharing its row), the
 * compile units' offsets into .debug_line, and DW_AT_high_pc stored as a
 * length. Address words with relocations were moved by rewrite_relocs.c. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include <string.h>
#include "instrument/rewrite_int.h"

typedef struct buf {
    uint8_t *p;
    size_t n, cap;
} buf;

static int put(buf *b, const void *d, size_t n)
{
    if (b->n + n > b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 4096;
        while (cap < b->n + n) cap *= 2;
        uint8_t *p = realloc(b->p, cap);
        if (!p) return -1;
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->n, d, n);
    b->n += n;
    return 0;
}

static int put_u8(buf *b, uint8_t v) { return put(b, &v, 1); }

static int put_uleb(buf *b, uint64_t v)
{
    do {
        uint8_t byte = v & 0x7F;
        v >>= 7;
        if (v) byte |= 0x80;
        if (put_u8(b, byte)) return -1;
    } while (v);
    return 0;
}

static int put_sleb(buf *b, int64_t v)
{
    for (;;) {
        uint8_t byte = v & 0x7F;
        v >>= 7;
        int done = (v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40));
        if (put_u8(b, done ? byte : byte | 0x80)) return -1;
        if (done) return 0;
    }
}

typedef struct reader {
    const uint8_t *p, *end;
    int bad;
} reader;

static uint64_t get_uleb(reader *r)
{
    uint64_t v = 0;
    for (int sh = 0; r->p < r->end; sh += 7) {
        uint8_t b = *r->p++;
        if (sh < 64) v |= (uint64_t)(b & 0x7F) << sh;
        if (!(b & 0x80)) return v;
    }
    r->bad = 1;
    return 0;
}

static int64_t get_sleb(reader *r)
{
    int64_t v = 0;
    int sh = 0;
    for (; r->p < r->end; sh += 7) {
        uint8_t b = *r->p++;
        if (sh < 64) v |= (int64_t)(b & 0x7F) << sh;
        if (!(b & 0x80)) {
            if (sh + 7 < 64 && (b & 0x40)) v |= -((int64_t)1 << (sh + 7));
            return v;
        }
    }
    r->bad = 1;
    return 0;
}

static uint64_t get_n(reader *r, int n)
{
    if (r->end - r->p < n) { r->bad = 1; r->p = r->end; return 0; }
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v |= (uint64_t)r->p[i] << (8 * i);
    r->p += n;
    return v;
}

typedef struct row {
    uint32_t addr, file, line, col, disc, isa;
    uint8_t stmt, prologue_end, epilogue_begin, end_seq;
} row;

typedef struct encoder {
    buf *b;
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
    buf *b = e->b;
    int bad = 0;
    if (!e->in_seq) {
        uint8_t set[] = { 0, 5, DW_LNE_set_address };
        bad |= put(b, set, 3) || put(b, &r->addr, 4);
        e->cur.addr = r->addr;
        e->in_seq = 1;
    }
    if (r->addr != e->cur.addr) bad |= put_u8(b, DW_LNS_advance_pc) || put_uleb(b, r->addr - e->cur.addr);
    if (r->file != e->cur.file) bad |= put_u8(b, DW_LNS_set_file) || put_uleb(b, r->file);
    if (r->line != e->cur.line) bad |= put_u8(b, DW_LNS_advance_line) || put_sleb(b, (int64_t)r->line - e->cur.line);
    if (r->col != e->cur.col) bad |= put_u8(b, DW_LNS_set_column) || put_uleb(b, r->col);
    if (r->stmt != e->cur.stmt) bad |= put_u8(b, DW_LNS_negate_stmt);
    if (r->isa != e->cur.isa) bad |= put_u8(b, DW_LNS_set_isa) || put_uleb(b, r->isa);
    if (r->disc) {
        buf tmp = { 0 };
        bad |= put_uleb(&tmp, r->disc);
        bad |= put_u8(b, 0) || put_uleb(b, tmp.n + 1) || put_u8(b, DW_LNE_set_discriminator) || put(b, tmp.p, tmp.n);
        free(tmp.p);
    }
    if (r->prologue_end) bad |= put_u8(b, DW_LNS_set_prologue_end);
    if (r->epilogue_begin) bad |= put_u8(b, DW_LNS_set_epilogue_begin);
    e->cur.addr = r->addr; e->cur.file = r->file; e->cur.line = r->line; e->cur.col = r->col;
    e->cur.stmt = r->stmt; e->cur.isa = r->isa;
    if (r->end_seq) {
        uint8_t end[] = { 0, 1, DW_LNE_end_sequence };
        bad |= put(b, end, 3);
        enc_reset(e);
    } else {
        bad |= put_u8(b, DW_LNS_copy);
    }
    return bad ? -1 : 0;
}

/* One line-number program: decode its rows, move them, encode them again. */
static int rebuild_unit(rw_ctx *c, reader *r, const uint8_t *unit, buf *out)
{
    uint64_t len = get_n(r, 4);
    if (len >= 0xfffffff0u) return rw_fail(c, ".debug_line: 64-bit DWARF is not supported");
    const uint8_t *end = r->p + len;
    if (len > (size_t)(r->end - r->p)) return rw_fail(c, ".debug_line: unit at offset %zu runs past the section", (size_t)(unit - r->p));
    reader u = { r->p, end, 0 };
    uint16_t version = (uint16_t)get_n(&u, 2);
    if (version < 2 || version > 5) return rw_fail(c, ".debug_line: version %u is not supported", version);
    if (version >= 5) get_n(&u, 2);
    uint64_t hlen = get_n(&u, 4);
    const uint8_t *prog = u.p + hlen;
    uint8_t min_inst = (uint8_t)get_n(&u, 1);
    if (version >= 4) get_n(&u, 1);
    uint8_t default_stmt = (uint8_t)get_n(&u, 1);
    int8_t line_base = (int8_t)get_n(&u, 1);
    uint8_t line_range = (uint8_t)get_n(&u, 1), opcode_base = (uint8_t)get_n(&u, 1);
    uint8_t std_len[256] = { 0 };
    for (int i = 1; i < opcode_base; i++) std_len[i] = (uint8_t)get_n(&u, 1);
    if (u.bad || prog > end || !line_range || !opcode_base || min_inst != 1)
        return rw_fail(c, ".debug_line: malformed program header (minimum instruction length %u)", min_inst);
    /* header copied as it is; the unit length is written at the end */
    size_t start = out->n;
    if (put(out, unit, (size_t)(prog - unit))) return rw_fail(c, "out of host memory");
    encoder e = { out, { 0 }, 0, default_stmt };
    enc_reset(&e);
    row s = { .file = 1, .line = 1, .stmt = default_stmt };
    reader p = { prog, end, 0 };
    while (p.p < p.end && !p.bad) {
        uint8_t op = *p.p++;
        int emit = 0;
        if (op >= opcode_base) {
            unsigned adj = op - opcode_base;
            s.addr += adj / line_range;
            s.line += line_base + (int)(adj % line_range);
            emit = 1;
        } else if (op == 0) {
            uint64_t n = get_uleb(&p);
            if (!n || n > (uint64_t)(p.end - p.p)) { p.bad = 1; break; }
            const uint8_t *next = p.p + n;
            uint8_t sub = *p.p++;
            if (sub == DW_LNE_end_sequence) { s.end_seq = 1; emit = 1; }
            else if (sub == DW_LNE_set_address) s.addr = (uint32_t)get_n(&p, (int)(n - 1) > 4 ? 4 : (int)(n - 1));
            else if (sub == DW_LNE_set_discriminator) s.disc = (uint32_t)get_uleb(&p);
            else if (sub == DW_LNE_define_file) return rw_fail(c, ".debug_line: DW_LNE_define_file is not supported");
            p.p = next;
        } else if (op == DW_LNS_copy) emit = 1;
        else if (op == DW_LNS_advance_pc) s.addr += (uint32_t)get_uleb(&p);
        else if (op == DW_LNS_advance_line) s.line = (uint32_t)((int64_t)s.line + get_sleb(&p));
        else if (op == DW_LNS_set_file) s.file = (uint32_t)get_uleb(&p);
        else if (op == DW_LNS_set_column) s.col = (uint32_t)get_uleb(&p);
        else if (op == DW_LNS_negate_stmt) s.stmt = !s.stmt;
        else if (op == DW_LNS_set_basic_block) {}
        else if (op == DW_LNS_const_add_pc) s.addr += (255u - opcode_base) / line_range;
        else if (op == DW_LNS_fixed_advance_pc) s.addr += (uint32_t)get_n(&p, 2);
        else if (op == DW_LNS_set_prologue_end) s.prologue_end = 1;
        else if (op == DW_LNS_set_epilogue_begin) s.epilogue_begin = 1;
        else if (op == DW_LNS_set_isa) s.isa = (uint32_t)get_uleb(&p);
        else for (int i = 0; i < std_len[op]; i++) get_uleb(&p);
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

typedef struct unit_map {
    uint32_t *old_off, *new_off;
    uint32_t n;
} unit_map;

static int rebuild_lines(rw_ctx *c, rw_sec *s, unit_map *um)
{
    buf out = { 0 };
    reader r = { s->bytes, s->bytes + s->sh.sh_size, 0 };
    uint32_t cap = 16;
    um->old_off = malloc(cap * sizeof *um->old_off);
    um->new_off = malloc(cap * sizeof *um->new_off);
    while (r.p < r.end) {
        if (um->n == cap) {
            cap *= 2;
            uint32_t *a = realloc(um->old_off, cap * sizeof *a), *b = a ? realloc(um->new_off, cap * sizeof *b) : NULL;
            if (a) um->old_off = a;
            if (b) um->new_off = b;
            if (!a || !b) break;
        }
        if (!um->old_off || !um->new_off) break;
        um->old_off[um->n] = (uint32_t)(r.p - s->bytes);
        um->new_off[um->n++] = (uint32_t)out.n;
        if (rebuild_unit(c, &r, r.p, &out)) { free(out.p); return -1; }
    }
    if (r.p < r.end) { free(out.p); return rw_fail(c, "out of host memory"); }
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

typedef struct die_walk {
    rw_ctx *c;
    uint8_t *info;          /* our copy of .debug_info */
    const uint8_t *orig;    /* libdw's view of it       */
    size_t size;
    const unit_map *um;
    int depth;
} die_walk;

static void fix_die(die_walk *w, Dwarf_Die *die)
{
    Dwarf_Attribute a;
    if (dwarf_attr(die, DW_AT_high_pc, &a)) {
        unsigned form = dwarf_whatform(&a);
        Dwarf_Addr low;
        Dwarf_Word len;
        if ((form == DW_FORM_data1 || form == DW_FORM_data2 || form == DW_FORM_data4 || form == DW_FORM_data8) &&
            dwarf_lowpc(die, &low) == 0 && dwarf_formudata(&a, &len) == 0 && a.valp >= w->orig &&
            a.valp < w->orig + w->size) {
            uint32_t nl, ne;
            if (!rw_map(w->c, (uint32_t)low, &nl) && !rw_map(w->c, (uint32_t)(low + len), &ne) && ne >= nl)
                write_form(w->info + (a.valp - w->orig), form, ne - nl);
        }
    }
    if (dwarf_attr(die, DW_AT_stmt_list, &a) && a.valp >= w->orig && a.valp + 4 <= w->orig + w->size &&
        dwarf_whatform(&a) == DW_FORM_sec_offset) {
        Dwarf_Word off;
        if (dwarf_formudata(&a, &off) == 0)
            for (uint32_t i = 0; i < w->um->n; i++)
                if (w->um->old_off[i] == off) write_form(w->info + (a.valp - w->orig), DW_FORM_data4, w->um->new_off[i]);
    }
    Dwarf_Die child;
    if (w->depth < 64 && dwarf_child(die, &child) == 0) {
        w->depth++;
        do fix_die(w, &child);
        while (dwarf_siblingof(&child, &child) == 0);
        w->depth--;
    }
}

static int fix_info(rw_ctx *c, rw_sec *info, const unit_map *um)
{
    Elf *e = elf_memory((char *)(uintptr_t)c->file, c->file_size);
    Dwarf *dw = e ? dwarf_begin_elf(e, DWARF_C_READ, NULL) : NULL;
    if (!dw) {
        if (e) elf_end(e);
        return rw_fail(c, "cannot read the DWARF: %s", dwarf_errmsg(-1));
    }
    die_walk w = { c, info->bytes, c->file + info->sh.sh_offset, info->sh.sh_size, um, 0 };
    Dwarf_Off off = 0, next;
    size_t hsize;
    while (dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        Dwarf_Die cu;
        if (dwarf_offdie(dw, off + hsize, &cu)) fix_die(&w, &cu);
        off = next;
    }
    dwarf_end(dw);
    elf_end(e);
    return 0;
}

int rw_patch_dwarf(rw_ctx *c)
{
    rw_sec *line = NULL, *info = NULL;
    for (uint32_t i = 1; i < c->nsecs; i++) {
        if (!strcmp(c->secs[i].name, ".debug_line") && c->secs[i].bytes) line = &c->secs[i];
        if (!strcmp(c->secs[i].name, ".debug_info") && c->secs[i].bytes) info = &c->secs[i];
    }
    unit_map um = { 0 };
    int rc = 0;
    if (line) rc = rebuild_lines(c, line, &um);
    if (!rc && info) rc = fix_info(c, info, &um);
    free(um.old_off);
    free(um.new_off);
    return rc;
}
