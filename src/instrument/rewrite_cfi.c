/* Call frame information of a rewritten module: the unwinder's rules for
 * each address (.debug_frame, .eh_frame), which the fault reports' and
 * gdb's backtraces read. A row changes at an address that an advance
 * opcode gives as an offset from the previous row. Those offsets are
 * small numbers (6 bits in the opcode itself, or 1, 2 or 4 bytes after
 * it) that the linker computed from SET/SUB relocation pairs, so moving
 * the code does not reach them: every FDE is decoded from the original
 * file and its rows encoded again at their new places (a row starting at
 * an instruction starts at the inserted code before it, as the line rows
 * do: the inserted code leaves sp and the saved registers alone).
 *
 * .debug_frame is not loaded, so it is rebuilt whole and may grow.
 * .eh_frame is loaded with the module and must keep its size: an FDE
 * whose moved rows still fit its bytes is rewritten there; one that does
 * not is moved into .debug_frame (which both libdw and gdb read) and left
 * in .eh_frame covering no address. Without a .debug_frame to move it
 * to, such an FDE is left covering no address: a backtrace stops there
 * rather than reading wrong rules. */
#include <stdlib.h>
#include <string.h>
#include "instrument/cfi_entries.h"
#include "instrument/rewrite_int.h"

typedef struct cfi_sec {
    cfi_text t;                   /* the original bytes, for the reader      */
    rw_ctx *c;
    cfi_cie *cies;
    uint32_t ncies;
} cfi_sec;

static int bad_at(cfi_sec *s, const uint8_t *p, const char *what) { return cfi_bad_at(&s->t, p, what); }

static cfi_cie *cie_at(cfi_sec *s, uint32_t off)
{
    for (uint32_t i = 0; i < s->ncies; i++)
        if (s->cies[i].off == off) return &s->cies[i];
    return NULL;
}

/* An original address's new place: an instruction's inserted code, or
 * inside an instruction the same byte of it. */
static int moved(cfi_sec *s, const uint8_t *at, uint32_t a, uint32_t *out)
{
    if (rw_map_byte(s->c, a, out)) return bad_at(s, at, "a row inside undecodable bytes");
    return 0;
}

/* One FDE's instructions (r, up to its end), with every row moved, into
 * out: `loc` the FDE's original start, `new_loc` its new one. Padding
 * nops are dropped (the caller pads). */
static int move_rows(cfi_sec *s, dw_reader *r, const cfi_cie *ci, uint32_t loc, uint32_t new_loc, dw_buf *out)
{
    while (r->p < r->end) {
        const uint8_t *at = r->p;
        const uint8_t op = (uint8_t)dw_get_n(r, 1);
        uint64_t delta = UINT64_MAX;
        uint32_t to = 0;
        if ((op & 0xc0) == CFA_ADVANCE) delta = op & 0x3f;
        else if (op == CFA_ADVANCE1) delta = dw_get_n(r, 1);
        else if (op == CFA_ADVANCE2) delta = dw_get_n(r, 2);
        else if (op == CFA_ADVANCE4) delta = dw_get_n(r, 4);
        else if (op == CFA_SET_LOC) {
            if (cfi_read_ptr(&s->t, r, s->t.eh ? ci->enc : PE_ABS, 0, &to)) return -1;
        } else if (op == CFA_NOP) {
            continue;
        } else {
            if (cfi_skip_operands(r, op)) return bad_at(s, at, "a call frame opcode the rewriter does not know");
            if (r->bad) break;
            if (dw_put(out, at, (size_t)(r->p - at))) return rw_fail(s->c, "out of host memory");
            continue;
        }
        if (r->bad) break;
        if (op != CFA_SET_LOC) to = loc + (uint32_t)(delta * ci->caf);
        if (to < loc) return bad_at(s, at, "a row before the one it follows");
        uint32_t new_to;
        if (moved(s, at, to, &new_to)) return -1;
        if (new_to < new_loc || (new_to - new_loc) % ci->caf)
            return bad_at(s, at, "a row that cannot be placed after the rewriting");
        if (cfi_put_advance(out, (new_to - new_loc) / ci->caf)) return rw_fail(s->c, "out of host memory");
        loc = to, new_loc = new_to;
    }
    return r->bad ? bad_at(s, r->p, "call frame instructions cut short") : 0;
}

static int pad_to(dw_buf *b, size_t from, uint32_t align)
{
    while ((b->n - from) % align)
        if (dw_put_u8(b, CFA_NOP)) return -1;
    return 0;
}

/* An FDE's moved range and rows into out, in .debug_frame's form (its
 * CIE at cie_off in the new section). */
static int put_debug_fde(cfi_sec *s, dw_reader *r, const cfi_cie *ci, uint32_t cie_off, uint32_t lo, uint32_t hi,
                         const uint8_t *at, dw_buf *out)
{
    uint32_t new_lo, new_hi;
    if (moved(s, at, lo, &new_lo) || moved(s, at, hi, &new_hi)) return -1;
    const size_t start = out->n;
    if (dw_put_u32(out, 0) || dw_put_u32(out, cie_off) || dw_put_u32(out, new_lo) || dw_put_u32(out, new_hi - new_lo))
        return rw_fail(s->c, "out of host memory");
    if (move_rows(s, r, ci, lo, new_lo, out)) return -1;
    if (pad_to(out, start, 4)) return rw_fail(s->c, "out of host memory");
    const uint32_t len = (uint32_t)(out->n - start - 4);
    memcpy(out->p + start, &len, 4);
    return 0;
}

static int add_cie(cfi_sec *s, dw_reader *r, uint32_t off)
{
    cfi_cie *grown = realloc(s->cies, (s->ncies + 1) * sizeof *grown);
    if (!grown) return rw_fail(s->c, "out of host memory");
    s->cies = grown;
    return cfi_read_cie(&s->t, r, off, r->end, &s->cies[s->ncies++]);
}

/* Rebuild .debug_frame into out: CIEs as they were, FDEs moved. */
static int rebuild_debug_frame(cfi_sec *s, dw_buf *out, dw_offset_map *cies)
{
    dw_reader whole = { s->t.start, s->t.start + s->t.size, 0 }, r;
    uint32_t off, id;
    const uint8_t *here = whole.p;
    int e;
    for (; (e = cfi_entry(&s->t, &whole, &r, &off, &id)) == 0; here = whole.p) {
        const uint8_t *body = s->t.start + off;
        if (id == UINT32_MAX) { /* a CIE: copied */
            if (dw_map_add(cies, off, (uint32_t)out->n) || dw_put(out, body, (size_t)(r.end - body)))
                return rw_fail(s->c, "out of host memory");
            if (add_cie(s, &r, off)) return -1;
            continue;
        }
        const cfi_cie *ci = cie_at(s, id);
        uint32_t new_cie;
        if (!ci || dw_map_find(cies, id, &new_cie)) return bad_at(s, body, "an FDE whose CIE is not before it");
        const uint32_t lo = (uint32_t)dw_get_n(&r, 4), len = (uint32_t)dw_get_n(&r, 4);
        if (r.bad) return bad_at(s, body, "an FDE cut short");
        if (ci->z) {
            const uint64_t n = dw_get_uleb(&r);
            if (r.bad || n) return bad_at(s, body, "an FDE with augmentation data");
        }
        if (put_debug_fde(s, &r, ci, new_cie, lo, lo + len, body, out)) return -1;
    }
    /* (what follows a zero length, no entry of .debug_frame's, is kept as it was) */
    if (e > 0 && dw_put(out, here, (size_t)(whole.end - here))) return rw_fail(s->c, "out of host memory");
    return e < 0 ? -1 : 0;
}

/* .eh_frame CIE ci as a .debug_frame CIE at the end of out (once). */
static int convert_cie(cfi_sec *s, cfi_cie *ci, dw_buf *out)
{
    if (ci->moved_off != UINT32_MAX) return 0;
    const size_t start = out->n;
    ci->moved_off = (uint32_t)start;
    if (dw_put_u32(out, 0) || dw_put_u32(out, UINT32_MAX) || dw_put_u8(out, 4) || dw_put_u8(out, 0) ||
        dw_put_u8(out, 4) || dw_put_u8(out, 0) || dw_put_uleb(out, ci->caf) || dw_put_sleb(out, ci->daf) ||
        dw_put_uleb(out, ci->ra) || dw_put(out, ci->init, (size_t)(ci->init_end - ci->init)) || pad_to(out, start, 4))
        return rw_fail(s->c, "out of host memory");
    const uint32_t len = (uint32_t)(out->n - start - 4);
    memcpy(out->p + start, &len, 4);
    return 0;
}

/* Write v at field p of the new .eh_frame (bytes) in encoding enc. */
static void put_ptr(cfi_sec *s, uint8_t *bytes, const uint8_t *p, uint8_t enc, uint32_t v, int is_range)
{
    const uint32_t off = (uint32_t)(p - s->t.start);
    if (!is_range && (enc & 0x70) == PE_PCREL) v -= rw_map_or_same(s->c, s->t.addr + off);
    memcpy(bytes + off, &v, 4);
}

/* .eh_frame in place (bytes: its new contents), FDEs that no longer fit
 * moved to the end of dbg (NULL: no .debug_frame). */
static int move_eh_frame(cfi_sec *s, uint8_t *bytes, dw_buf *dbg)
{
    dw_reader whole = { s->t.start, s->t.start + s->t.size, 0 }, r;
    uint32_t off, id;
    int e;
    while ((e = cfi_entry(&s->t, &whole, &r, &off, &id)) == 0) {
        const uint8_t *body = s->t.start + off;
        if (!id) {
            if (add_cie(s, &r, off)) return -1;
            continue;
        }
        const uint32_t cie_off = off + 4 - id; /* (relative to the id field) */
        cfi_cie *ci = cie_at(s, cie_off);
        if (id > off + 4 || !ci) return bad_at(s, body, "an FDE whose CIE is not before it");
        const uint8_t *lo_at = r.p;
        uint32_t lo = 0, len = 0, new_lo, new_hi; /* (read_ptr sets them; gcc -O3 cannot tell) */
        if (cfi_read_ptr(&s->t, &r, ci->enc, 0, &lo)) return -1;
        const uint8_t *len_at = r.p;
        if (cfi_read_ptr(&s->t, &r, ci->enc, 1, &len)) return -1;
        if (ci->z) {
            const uint64_t n = dw_get_uleb(&r);
            if (r.bad || n > (uint64_t)(r.end - r.p)) return bad_at(s, body, "an FDE's augmentation data runs past it");
            r.p += n;
        }
        if (moved(s, body, lo, &new_lo) || moved(s, body, lo + len, &new_hi)) return -1;
        const uint8_t *rows = r.p;
        dw_buf b = { 0 };
        const int rc = move_rows(s, &r, ci, lo, new_lo, &b);
        const size_t room = (size_t)(r.end - rows);
        if (rc) {
            free(b.p);
            return -1;
        }
        if (b.n <= room) { /* in place, padded */
            put_ptr(s, bytes, lo_at, ci->enc, new_lo, 0);
            put_ptr(s, bytes, len_at, ci->enc, new_hi - new_lo, 1);
            if (b.n) memcpy(bytes + (rows - s->t.start), b.p, b.n); /* (no rows: b.p is NULL) */
            memset(bytes + (rows - s->t.start) + b.n, CFA_NOP, room - b.n);
        } else { /* covering nothing here; in .debug_frame if it can be */
            put_ptr(s, bytes, lo_at, ci->enc, new_lo, 0);
            put_ptr(s, bytes, len_at, ci->enc, 0, 1);
            memset(bytes + (rows - s->t.start), CFA_NOP, room);
            if (dbg && ci->plain) {
                dw_reader again = { rows, r.end, 0 };
                if (convert_cie(s, ci, dbg) || put_debug_fde(s, &again, ci, ci->moved_off, lo, lo + len, body, dbg)) {
                    free(b.p);
                    return -1;
                }
            }
        }
        free(b.p);
    }
    return e < 0 ? -1 : 0;
}

static rw_sec *section(rw_ctx *c, const char *name)
{
    for (uint32_t i = 1; i < c->nsecs; i++)
        if (!strcmp(c->secs[i].name, name) && c->secs[i].bytes && c->secs[i].sh.sh_type == SHT_PROGBITS)
            return &c->secs[i];
    return NULL;
}

int rw_move_cfi(rw_ctx *c)
{
    rw_sec *dbg = section(c, ".debug_frame"), *eh = section(c, ".eh_frame");
    if (dbg && (dbg->sh.sh_flags & SHF_ALLOC)) dbg = NULL; /* (not the unloaded section this expects) */
    if (eh && !(eh->sh.sh_flags & SHF_ALLOC)) eh = NULL;
    dw_buf out = { 0 };
    dw_offset_map cies = { 0 };
    cfi_sec d = { { c->what, ".debug_frame", dbg ? c->file + dbg->sh.sh_offset : NULL, dbg ? dbg->sh.sh_size : 0, 0, 0,
                    c->err, c->errlen }, c, NULL, 0 };
    cfi_sec h = { { c->what, ".eh_frame", eh ? c->file + eh->sh.sh_offset : NULL, eh ? eh->sh.sh_size : 0,
                    eh ? eh->sh.sh_addr : 0, 1, c->err, c->errlen }, c, NULL, 0 };
    int rc = (dbg && rebuild_debug_frame(&d, &out, &cies)) || (eh && move_eh_frame(&h, eh->bytes, dbg ? &out : NULL));
    if (!rc && dbg) {
        free(dbg->bytes);
        dbg->bytes = out.p;
        dbg->sh.sh_size = (uint32_t)out.n;
        out.p = NULL;
    }
    free(out.p);
    free(d.cies);
    free(h.cies);
    dw_map_free(&cies);
    return rc ? -1 : 0;
}
