/* DWARF 5 location and range lists (.debug_loclists, .debug_rnglists).
 * Their offset pairs and lengths are ULEB128 numbers that no relocation
 * names, so moving the code does not reach them: each list is decoded
 * from the original file and encoded again with its ranges moved (a range
 * starting at an instruction now starts at the inserted code before it,
 * as the line rows do). Lengths may need more bytes than before, so the
 * sections change size; every offset into them is mapped old -> new, for
 * the units' offset tables here and .debug_info's references
 * (rewrite_dwarf.c). */
#include <stdlib.h>
#include <string.h>
#include "instrument/rewrite_dwarf_io.h"
#include "instrument/rewrite_int.h"

/* Entry kinds, numbered as in DWARF 5 (7.7.3, 7.25); the GNU view pair
 * (location views) is GCC's. */
enum { LLE_END, LLE_BASE_ADDRESSX, LLE_STARTX_ENDX, LLE_STARTX_LENGTH, LLE_OFFSET_PAIR, LLE_DEFAULT_LOCATION,
       LLE_BASE_ADDRESS, LLE_START_END, LLE_START_LENGTH, LLE_GNU_VIEW_PAIR };
enum { RLE_END, RLE_BASE_ADDRESSX, RLE_STARTX_ENDX, RLE_STARTX_LENGTH, RLE_OFFSET_PAIR, RLE_BASE_ADDRESS,
       RLE_START_END, RLE_START_LENGTH };

enum { UNIT_HEADER = 12 }; /* DWARF32: length, version, address size, selector size, offset count */

typedef struct list_unit {
    rw_ctx *c;
    const char *sec;             /* ".debug_loclists" or ".debug_rnglists" */
    int rng;
    const uint8_t *start;        /* the section's original bytes */
    const dw_list_owner *owner;  /* the compile unit the lists belong to, or NULL */
    const uint8_t *addr;         /* .debug_addr's original bytes, or NULL */
    uint32_t addr_size;
    dw_buf *out;
    dw_offset_map *map;
} list_unit;

static uint32_t off_of(const list_unit *u, const dw_reader *r) { return (uint32_t)(r->p - u->start); }

static int moved(list_unit *u, uint32_t at, uint32_t a, uint32_t *out)
{
    if (rw_map_byte(u->c, a, out))
        return rw_fail(u->c, "%s+0x%x: a range boundary 0x%08x lies in no instruction", u->sec, at, a);
    return 0;
}

/* [a, a + len) moved: its new length. */
static int moved_length(list_unit *u, uint32_t at, uint32_t a, uint64_t len, uint64_t *out)
{
    uint32_t na, ne;
    if (len > UINT32_MAX - a) return rw_fail(u->c, "%s+0x%x: a range runs past the end of the address space", u->sec, at);
    if (moved(u, at, a, &na) || moved(u, at, (uint32_t)(a + len), &ne)) return -1;
    if (ne < na) return rw_fail(u->c, "%s+0x%x: range 0x%08x+%llu moves backwards", u->sec, at, a, (unsigned long long)len);
    *out = ne - na;
    return 0;
}

static int address_at(list_unit *u, uint32_t at, uint64_t index, uint32_t *out)
{
    const dw_list_owner *o = u->owner;
    if (!o || !u->addr || o->addr_base > u->addr_size || index >= (u->addr_size - o->addr_base) / 4)
        return rw_fail(u->c, "%s+0x%x: address index %llu is outside .debug_addr", u->sec, at, (unsigned long long)index);
    const uint8_t *p = u->addr + o->addr_base + 4 * index;
    *out = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return 0;
}

static int copy_expression(list_unit *u, dw_reader *r)
{
    uint64_t n = dw_get_uleb(r);
    if (r->bad || n > (uint64_t)(r->end - r->p)) return rw_fail(u->c, "%s+0x%x: truncated location expression", u->sec, off_of(u, r));
    int bad = dw_put_uleb(u->out, n) || dw_put(u->out, r->p, (size_t)n);
    r->p += n;
    return bad ? rw_fail(u->c, "out of host memory") : 0;
}

/* The kinds the two sections share, in their own numbering. */
typedef struct kinds {
    int end, base_addressx, startx_endx, startx_length, offset_pair, base_address, start_end, start_length;
} kinds;
static const kinds loc_kinds = { LLE_END, LLE_BASE_ADDRESSX, LLE_STARTX_ENDX, LLE_STARTX_LENGTH, LLE_OFFSET_PAIR,
                                 LLE_BASE_ADDRESS, LLE_START_END, LLE_START_LENGTH };
static const kinds rng_kinds = { RLE_END, RLE_BASE_ADDRESSX, RLE_STARTX_ENDX, RLE_STARTX_LENGTH, RLE_OFFSET_PAIR,
                                 RLE_BASE_ADDRESS, RLE_START_END, RLE_START_LENGTH };

/* One entry: decode, move, encode. *base is the list's base address
 * (original), *has_base whether it is known; *ended at end_of_list. */
static int move_entry(list_unit *u, dw_reader *r, uint32_t *base, int *has_base, int *ended)
{
    const kinds *k = u->rng ? &rng_kinds : &loc_kinds;
    const uint32_t at = off_of(u, r);
    const int kind = (int)dw_get_n(r, 1);
    dw_buf *o = u->out;
    int bad = r->bad || dw_put_u8(o, (uint8_t)kind), expression = !u->rng;
    *ended = 0;
    if (bad) return r->bad ? rw_fail(u->c, "%s+0x%x: truncated list", u->sec, at) : rw_fail(u->c, "out of host memory");
    if (kind == k->end) {
        *ended = 1;
        return 0;
    } else if (kind == k->base_addressx) {
        uint64_t i = dw_get_uleb(r);
        if (!r->bad && address_at(u, at, i, base)) return -1;
        *has_base = 1;
        bad = dw_put_uleb(o, i);
        expression = 0;
    } else if (kind == k->startx_endx) { /* both indices name .debug_addr words, moved there */
        uint64_t i = dw_get_uleb(r), j = dw_get_uleb(r);
        bad = dw_put_uleb(o, i) || dw_put_uleb(o, j);
    } else if (kind == k->startx_length) {
        uint64_t i = dw_get_uleb(r), len = dw_get_uleb(r), nlen = 0;
        uint32_t a = 0;
        if (!r->bad && (address_at(u, at, i, &a) || moved_length(u, at, a, len, &nlen))) return -1;
        bad = dw_put_uleb(o, i) || dw_put_uleb(o, nlen);
    } else if (kind == k->offset_pair) { /* from the base: new offsets from the moved base */
        uint64_t s = dw_get_uleb(r), e = dw_get_uleb(r), ns = 0, ne = 0;
        if (!*has_base) return rw_fail(u->c, "%s+0x%x: an offset pair with no base address", u->sec, at);
        if (!r->bad && (moved_length(u, at, *base, s, &ns) || moved_length(u, at, *base, e, &ne))) return -1;
        bad = dw_put_uleb(o, ns) || dw_put_uleb(o, ne);
    } else if (kind == k->base_address) {
        uint32_t a = (uint32_t)dw_get_n(r, 4), na = 0;
        if (!r->bad && moved(u, at, a, &na)) return -1;
        *base = a;
        *has_base = 1;
        bad = dw_put_u32(o, na);
        expression = 0;
    } else if (kind == k->start_end) {
        uint32_t a = (uint32_t)dw_get_n(r, 4), e = (uint32_t)dw_get_n(r, 4), na = 0, ne = 0;
        if (!r->bad && (moved(u, at, a, &na) || moved(u, at, e, &ne))) return -1;
        bad = dw_put_u32(o, na) || dw_put_u32(o, ne);
    } else if (kind == k->start_length) {
        uint32_t a = (uint32_t)dw_get_n(r, 4), na = 0;
        uint64_t len = dw_get_uleb(r), nlen = 0;
        if (!r->bad && (moved(u, at, a, &na) || moved_length(u, at, a, len, &nlen))) return -1;
        bad = dw_put_u32(o, na) || dw_put_uleb(o, nlen);
    } else if (!u->rng && kind == LLE_DEFAULT_LOCATION) {
    } else if (!u->rng && kind == LLE_GNU_VIEW_PAIR) { /* view numbers, not addresses */
        uint64_t v0 = dw_get_uleb(r), v1 = dw_get_uleb(r);
        bad = dw_put_uleb(o, v0) || dw_put_uleb(o, v1);
        expression = 0;
    } else {
        return rw_fail(u->c, "%s+0x%x: list entry kind %d is not supported", u->sec, at, kind);
    }
    if (r->bad) return rw_fail(u->c, "%s+0x%x: truncated list entry", u->sec, at);
    if (bad) return rw_fail(u->c, "out of host memory");
    return expression ? copy_expression(u, r) : 0;
}

static const dw_list_owner *owner_of(const dw_list_owner *owners, uint32_t n, int rng, uint32_t lo, uint32_t hi)
{
    for (uint32_t i = 0; i < n; i++)
        if (owners[i].table[rng] == lo + UNIT_HEADER) return &owners[i];
    for (uint32_t i = 0; i < n; i++)
        if (owners[i].first_ref[rng] >= lo && owners[i].first_ref[rng] < hi) return &owners[i];
    return NULL;
}

/* One unit: its header as it is, its offset table mapped, its lists moved. */
static int move_unit(list_unit *u, dw_reader *r, const dw_list_owner *owners, uint32_t nowners)
{
    const uint32_t lo = off_of(u, r);
    uint64_t len = dw_get_n(r, 4);
    if (len >= 0xfffffff0u) return rw_fail(u->c, "%s+0x%x: 64-bit DWARF is not supported", u->sec, lo);
    if (r->bad || len > (uint64_t)(r->end - r->p) || len < UNIT_HEADER - 4)
        return rw_fail(u->c, "%s+0x%x: the unit runs past the section", u->sec, lo);
    dw_reader body = { r->p, r->p + len, 0 };
    uint32_t version = (uint32_t)dw_get_n(&body, 2), asize = (uint32_t)dw_get_n(&body, 1),
             ssize = (uint32_t)dw_get_n(&body, 1), count = (uint32_t)dw_get_n(&body, 4);
    if (version != 5 || asize != 4 || ssize != 0)
        return rw_fail(u->c, "%s+0x%x: version %u, address size %u, selector size %u (5, 4, 0 supported)", u->sec, lo,
                       version, asize, ssize);
    if (count > (len - (UNIT_HEADER - 4)) / 4)
        return rw_fail(u->c, "%s+0x%x: %u offsets do not fit the unit", u->sec, lo, count);
    const uint32_t hi = lo + 4 + (uint32_t)len, table = lo + UNIT_HEADER;
    const uint32_t new_lo = (uint32_t)u->out->n, new_table = new_lo + UNIT_HEADER;
    const uint8_t *offsets = body.p;
    u->owner = owner_of(owners, nowners, u->rng, lo, hi);
    if (dw_map_add(u->map, lo, new_lo) || dw_map_add(u->map, table, new_table) ||
        dw_put(u->out, u->start + lo, UNIT_HEADER) || dw_put(u->out, offsets, (size_t)count * 4))
        return rw_fail(u->c, "out of host memory");
    body.p += (size_t)count * 4;
    uint32_t base = u->owner ? u->owner->base_addr : 0;
    int has_base = u->owner != NULL, ended = 1;
    while (body.p < body.end) {
        if (ended) { /* a list starts: its base is the compile unit's */
            base = u->owner ? u->owner->base_addr : 0;
            has_base = u->owner != NULL;
        }
        if (dw_map_add(u->map, off_of(u, &body), (uint32_t)u->out->n)) return rw_fail(u->c, "out of host memory");
        if (move_entry(u, &body, &base, &has_base, &ended)) return -1;
    }
    if (!ended) return rw_fail(u->c, "%s+0x%x: the unit's last list has no end", u->sec, lo);
    if (dw_map_add(u->map, hi, (uint32_t)u->out->n)) return rw_fail(u->c, "out of host memory");
    for (uint32_t i = 0; i < count; i++) {
        dw_reader t = { offsets + 4 * i, offsets + 4 * i + 4, 0 };
        uint32_t old = table + (uint32_t)dw_get_n(&t, 4), now;
        if (dw_map_find(u->map, old, &now) || now < new_table)
            return rw_fail(u->c, "%s+0x%x: offset %u names 0x%x, where no list starts", u->sec, lo, i, old);
        uint32_t rel = now - new_table;
        memcpy(u->out->p + new_table + 4 * i, &rel, 4);
    }
    uint32_t new_len = (uint32_t)(u->out->n - new_lo - 4);
    memcpy(u->out->p + new_lo, &new_len, 4);
    r->p = body.end;
    return 0;
}

static const rw_sec *section_named(const rw_ctx *c, const char *name)
{
    for (uint32_t i = 1; i < c->nsecs; i++)
        if (!strcmp(c->secs[i].name, name) && c->secs[i].bytes) return &c->secs[i];
    return NULL;
}

int rw_rebuild_lists(rw_ctx *c, rw_sec *s, int rng, const dw_list_owner *owners, uint32_t nowners, dw_offset_map *map)
{
    const rw_sec *addr = section_named(c, ".debug_addr");
    dw_buf out = { 0 };
    list_unit u = { c, rng ? ".debug_rnglists" : ".debug_loclists", rng, c->file + s->sh.sh_offset, NULL,
                    addr ? c->file + addr->sh.sh_offset : NULL, addr ? addr->sh.sh_size : 0, &out, map };
    dw_reader r = { u.start, u.start + s->sh.sh_size, 0 };
    while (r.p < r.end)
        if (move_unit(&u, &r, owners, nowners)) {
            free(out.p);
            return -1;
        }
    free(s->bytes);
    s->bytes = out.p;
    s->sh.sh_size = (uint32_t)out.n;
    return 0;
}
