/* Byte-level DWARF reading and writing for the rewriter (rewrite_dwarf_io.h). */
#include "instrument/rewrite_dwarf_io.h"
#include <stdlib.h>
#include <string.h>

int dw_put(dw_buf *b, const void *d, size_t n)
{
    if (!n) return 0; /* (an empty buffer has no bytes to copy into) */
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

int dw_put_u8(dw_buf *b, uint8_t v) { return dw_put(b, &v, 1); }

int dw_put_u32(dw_buf *b, uint32_t v)
{
    uint8_t le[4] = { (uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24) };
    return dw_put(b, le, 4);
}

int dw_put_uleb(dw_buf *b, uint64_t v)
{
    do {
        uint8_t byte = v & 0x7F;
        v >>= 7;
        if (v) byte |= 0x80;
        if (dw_put_u8(b, byte)) return -1;
    } while (v);
    return 0;
}

int dw_put_sleb(dw_buf *b, int64_t v)
{
    for (;;) {
        uint8_t byte = v & 0x7F;
        v >>= 7;
        int done = (v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40));
        if (dw_put_u8(b, done ? byte : byte | 0x80)) return -1;
        if (done) return 0;
    }
}

uint64_t dw_get_uleb(dw_reader *r)
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

int64_t dw_get_sleb(dw_reader *r)
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

uint64_t dw_get_n(dw_reader *r, int n)
{
    if (r->end - r->p < n) { r->bad = 1; r->p = r->end; return 0; }
    uint64_t v = 0;
    for (int i = 0; i < n; i++) v |= (uint64_t)r->p[i] << (8 * i);
    r->p += n;
    return v;
}

int dw_map_add(dw_offset_map *m, uint32_t old_off, uint32_t new_off)
{
    if (m->n && m->old_off[m->n - 1] == old_off) return 0; /* (an offset named twice: a list's end, the next's start) */
    if (m->n == m->cap) {
        uint32_t cap = m->cap ? m->cap * 2 : 64;
        uint32_t *a = realloc(m->old_off, cap * sizeof *a);
        if (!a) return -1;
        m->old_off = a;
        uint32_t *b = realloc(m->new_off, cap * sizeof *b);
        if (!b) return -1;
        m->new_off = b;
        m->cap = cap;
    }
    m->old_off[m->n] = old_off;
    m->new_off[m->n++] = new_off;
    return 0;
}

int dw_map_find(const dw_offset_map *m, uint32_t old_off, uint32_t *out)
{
    uint32_t lo = 0, hi = m->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (m->old_off[mid] < old_off) lo = mid + 1;
        else hi = mid;
    }
    if (lo == m->n || m->old_off[lo] != old_off) return -1;
    *out = m->new_off[lo];
    return 0;
}

void dw_map_free(dw_offset_map *m)
{
    free(m->old_off);
    free(m->new_off);
    *m = (dw_offset_map){ 0 };
}
