/* Reading capture files (docs/capture-format.md). Open checks everything
 * in the order that gives the most useful message: magic, version, header
 * CRC, plausible sizes, file length, the chunk CRC table's own CRC
 * (version 2), the zstd frame (each chunk of body against its CRC as soon
 * as it is decoded, and the frame's XXH64), the body CRC, then every
 * section's bounds. The body grows only as real data
 * decompresses, so a crafted header cannot make the reader allocate more
 * than the file really expands to. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include <zstd_errors.h>
#include "capture/capture_file.h"
#include "capture/capture_zstd.h"
#include "warpscope/capture.h"

typedef struct entry {
    uint32_t type, flags;
    uint64_t id, offset, size; /* offset: of the section header in body */
} entry;

struct ws_capture_reader {
    uint8_t *body;
    uint64_t raw, count, next;
    entry *index;
};

typedef struct ctx {
    const char *name;
    char *err;
    size_t errlen;
} ctx;

static ws_status rfail(const ctx *c, ws_status st, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static ws_status rfail(const ctx *c, ws_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    wscap_verror(c->err, c->errlen, c->name, fmt, ap);
    va_end(ap);
    return st;
}

static ws_status check_header(const ctx *c, const uint8_t *d, size_t size, wscap_header *h)
{
    if (!size) return rfail(c, WS_ERR_BAD_MODULE, "empty file (0 bytes): not a warpscope capture file");
    if (memcmp(d, wscap_magic, size < 8 ? size : 8))
        return rfail(c, WS_ERR_BAD_MODULE, "not a warpscope capture file (bytes 0-7 are not \"WSCAPTUR\")");
    if (size < 12) /* the start of the magic: a capture file cut short */
        return rfail(c, WS_ERR_BAD_MODULE, "truncated: the file ends at offset %zu, inside the %d-byte header", size, WSCAP_HEADER);
    /* The version before the CRC: a newer version may lay out its header
     * differently, and "too new" is the message that helps. */
    uint32_t version = wscap_get32(d + 8);
    if (version > WS_CAPTURE_FORMAT_VERSION)
        return rfail(c, WS_ERR_UNSUPPORTED, "written by format version %u (offset 8); this library reads version %d", version,
                     WS_CAPTURE_FORMAT_VERSION);
    if (version < 1) return rfail(c, WS_ERR_BAD_MODULE, "format version 0 at offset 8 does not exist");
    if (size < WSCAP_HEADER)
        return rfail(c, WS_ERR_BAD_MODULE, "truncated: the file ends at offset %zu, inside the %d-byte header", size, WSCAP_HEADER);
    uint32_t stored;
    wscap_header_decode(d, h, &stored);
    uint32_t crc = wscap_crc32(0, d, WSCAP_HEADER_CRC_AT);
    if (crc != stored)
        return rfail(c, WS_ERR_BAD_MODULE, "header checksum mismatch (offset %d: stored 0x%08x, bytes 0-%d give 0x%08x): corrupt header",
                     WSCAP_HEADER_CRC_AT, stored, WSCAP_HEADER_CRC_AT - 1, crc);
    if (h->flags)
        return rfail(c, WS_ERR_UNSUPPORTED, "header flags 0x%x at offset 12 are not defined in format version %d", h->flags,
                     WS_CAPTURE_FORMAT_VERSION);
    if (h->raw > WS_CAPTURE_MAX_BODY)
        return rfail(c, WS_ERR_BAD_MODULE, "body size %llu at offset 24 exceeds the limit of %llu bytes",
                     (unsigned long long)h->raw, (unsigned long long)WS_CAPTURE_MAX_BODY);
    if (h->count > WS_CAPTURE_MAX_SECTIONS || h->count > h->raw / WSCAP_SECTION_HEADER)
        return rfail(c, WS_ERR_BAD_MODULE, "section count %llu at offset 16 is not plausible (limit %llu; a %llu-byte body holds at most %llu)",
                     (unsigned long long)h->count, (unsigned long long)WS_CAPTURE_MAX_SECTIONS, (unsigned long long)h->raw,
                     (unsigned long long)(h->raw / WSCAP_SECTION_HEADER));
    uint64_t have = size - WSCAP_HEADER, table = wscap_table_bytes(h->version, h->raw);
    const char *what = table ? "the body and its chunk CRC table end" : "the body ends";
    if (h->packed > have || table > have - h->packed)
        return rfail(c, WS_ERR_BAD_MODULE, "truncated: the file ends at offset %zu, the header says %s at offset %llu",
                     size, what, (unsigned long long)(WSCAP_HEADER + h->packed + table));
    if (h->packed + table < have)
        return rfail(c, WS_ERR_BAD_MODULE, "trailing garbage: %llu bytes after the end of %s at offset %llu",
                     (unsigned long long)(have - h->packed - table), table ? "the chunk CRC table" : "the body",
                     (unsigned long long)(WSCAP_HEADER + h->packed + table));
    return WS_OK;
}

/* Version 2: the chunk CRC table after the frame must match its own CRC
 * before any chunk is judged by it. */
static ws_status check_table(const ctx *c, const uint8_t *z, const wscap_header *h)
{
    const uint64_t n = wscap_chunks(h->raw), at = WSCAP_HEADER + h->packed;
    const uint8_t *t = z + h->packed;
    const uint32_t stored = wscap_get32(t + 4 * n), crc = wscap_crc32(0, t, (size_t)(4 * n));
    if (crc != stored)
        return rfail(c, WS_ERR_BAD_MODULE, "corrupt chunk CRC table: its %llu CRCs at file offsets %llu-%llu give CRC-32 "
                     "0x%08x, the table's own CRC (offset %llu) says 0x%08x", (unsigned long long)n, (unsigned long long)at,
                     (unsigned long long)(at + 4 * n) - (n ? 1 : 0), crc, (unsigned long long)(at + 4 * n), stored);
    return WS_OK;
}

/* Where body offset `at` falls: the section whose bytes (header
 * included) hold it, in the first `got` decoded bytes of the body. */
static int section_at(const uint8_t *body, uint64_t got, uint64_t at, uint64_t *index, uint64_t *start, uint32_t *type)
{
    uint64_t pos = 0;
    for (uint64_t i = 0; got - pos >= WSCAP_SECTION_HEADER; i++) {
        uint64_t size = wscap_get64(body + pos + 16);
        if (size > UINT64_MAX - pos - WSCAP_SECTION_HEADER) return 0;
        uint64_t end = pos + WSCAP_SECTION_HEADER + size;
        if (at < end) {
            *index = i;
            *start = pos;
            *type = wscap_get32(body + pos);
            return 1;
        }
        pos = end;
    }
    return 0;
}

/* zstd refused part p of the frame: name the part, its place in the file
 * and, for a block, where in the body its data would have gone. */
static ws_status part_refused(const ctx *c, const wscap_zpart *p, size_t zerr, const uint8_t *body, uint64_t got)
{
    char name[64], where[160] = "";
    wscap_zpart_name(p, name, sizeof name);
    unsigned long long first = WSCAP_HEADER + p->at, last = first + p->size - 1;
    const char *zname = ZSTD_getErrorName(zerr);
    if (p->kind == WSCAP_ZPART_CHECKSUM)
        return rfail(c, WS_ERR_BAD_MODULE, "corrupt body: the zstd content checksum (file offsets %llu-%llu) does not "
                     "match what the frame's %llu blocks decode to: zstd: %s (XXH64 checksum mismatch); every block "
                     "decoded, so the damage is in a block's literal or raw data (file offsets %llu-%llu) or in the "
                     "checksum itself: zstd cannot say which block", first, last, (unsigned long long)p->block, zname,
                     (unsigned long long)(WSCAP_HEADER + p->blocks_at), first - 1);
    uint64_t index, start;
    uint32_t type;
    if (p->kind == WSCAP_ZPART_BLOCK && section_at(body, got, got, &index, &start, &type))
        snprintf(where, sizeof where, "; its data starts at body offset %llu, in section %llu (type %u) at body offset %llu",
                 (unsigned long long)got, (unsigned long long)index, type, (unsigned long long)start);
    else if (p->kind == WSCAP_ZPART_BLOCK)
        snprintf(where, sizeof where, "; its data starts at body offset %llu", (unsigned long long)got);
    return rfail(c, WS_ERR_BAD_MODULE, "corrupt body: %s, %llu bytes at file offsets %llu-%llu, does not decode: zstd: %s%s%s",
                 name, (unsigned long long)p->size, first, last, zname, where,
                 p->kind == WSCAP_ZPART_BLOCK && p->block ? " (the first block that does not: the damage is in it, or "
                                                            "in a block before it that decoded to wrong data)" : "");
}

/* The bytes at the frame offset after part `prev` are not a part. */
static ws_status part_damaged(const ctx *c, const wscap_zpart *prev, const char *why)
{
    if (!prev)
        return rfail(c, WS_ERR_BAD_MODULE, "corrupt body: no zstd frame header at file offset %d: %s", WSCAP_HEADER, why);
    char name[64];
    unsigned long long at = WSCAP_HEADER + prev->at + prev->size;
    return rfail(c, WS_ERR_BAD_MODULE, "corrupt body: the zstd block header at file offset %llu is damaged: %s (or the "
                 "size of the part before it, %s at file offsets %llu-%llu, is)", at, why,
                 wscap_zpart_name(prev, name, sizeof name), (unsigned long long)(WSCAP_HEADER + prev->at), at - 1);
}

/* Walk the frame's layout before decoding it: a damaged block header
 * (a type, a size) is named as such, not as a block that does not
 * decode. *end: where the frame ends, by its last-block flag. */
static ws_status check_layout(const ctx *c, const uint8_t *z, uint64_t packed, uint64_t *end, wscap_zpart *last_block)
{
    char why[96];
    wscap_zpart part, prev;
    int more = wscap_zpart_next(z, packed, NULL, &part, why, sizeof why);
    if (more < 0) return part_damaged(c, NULL, why);
    while ((more = wscap_zpart_next(z, packed, (prev = part, &prev), &part, why, sizeof why)) > 0)
        if (part.kind == WSCAP_ZPART_BLOCK) *last_block = part;
    if (more < 0) return part_damaged(c, &prev, why);
    *end = prev.at + prev.size;
    return WS_OK;
}

/* The frame's checksum did not match and its layout ends before the
 * body does: more likely a last-block flag set by damage than garbage
 * after a good frame (which decodes with its checksum intact). */
static ws_status ends_early(const ctx *c, uint64_t end, uint64_t packed, const wscap_zpart *last_block)
{
    char name[64];
    return rfail(c, WS_ERR_BAD_MODULE, "corrupt body: the zstd frame ends at file offset %llu, %llu bytes before the "
                 "body's end at offset %llu, and its content checksum does not match: %s, at file offset %llu, is "
                 "marked the last: its header's last-block flag, or a block size before it, is damaged",
                 (unsigned long long)(WSCAP_HEADER + end), (unsigned long long)(packed - end),
                 (unsigned long long)(WSCAP_HEADER + packed), wscap_zpart_name(last_block, name, sizeof name),
                 (unsigned long long)(WSCAP_HEADER + last_block->at));
}

/* The blocks decoded so far: where each one's data starts in the body. */
typedef struct block_spans {
    wscap_zpart *part;
    uint64_t *from;
    size_t n, cap;
} block_spans;

static int spans_add(block_spans *b, const wscap_zpart *p, uint64_t from)
{
    if (b->n == b->cap) {
        size_t ncap = b->cap ? b->cap * 2 : 64;
        wscap_zpart *np = realloc(b->part, ncap * sizeof *np);
        if (np) b->part = np;
        uint64_t *nf = realloc(b->from, ncap * sizeof *nf);
        if (nf) b->from = nf;
        if (!np || !nf) return -1;
        b->cap = ncap;
    }
    b->part[b->n] = *p;
    b->from[b->n++] = from;
    return 0;
}

/* Chunk k (body bytes lo..hi-1, all decoded: got of them so far) does not
 * match its CRC: name the block(s) that decoded it. */
static ws_status chunk_refused(const ctx *c, const block_spans *b, const wscap_header *h, const uint8_t *body,
                               uint64_t got, uint64_t k, uint32_t crc, uint32_t stored)
{
    const uint64_t lo = k * WSCAP_CHUNK, hi = lo + WSCAP_CHUNK < h->raw ? lo + WSCAP_CHUNK : h->raw;
    size_t first = 0, last = 0;
    for (size_t i = 0; i < b->n; i++) {
        const uint64_t end = i + 1 < b->n ? b->from[i + 1] : got;
        if (end > lo && b->from[i] < hi) {
            if (!last) first = i;
            last = i + 1;
        }
    }
    char name[64], blocks[200] = "no zstd block";
    if (last) {
        const wscap_zpart *p = &b->part[first], *q = &b->part[last - 1];
        const unsigned long long at = WSCAP_HEADER + p->at, end = WSCAP_HEADER + q->at + q->size - 1;
        if (last - first == 1)
            snprintf(blocks, sizeof blocks, "%s, %llu bytes at file offsets %llu-%llu,", wscap_zpart_name(p, name, sizeof name),
                     (unsigned long long)p->size, at, end);
        else
            snprintf(blocks, sizeof blocks, "zstd blocks %llu-%llu, at file offsets %llu-%llu,", (unsigned long long)p->block,
                     (unsigned long long)q->block, at, end);
    }
    char where[160] = "";
    uint64_t index, start;
    uint32_t type;
    if (section_at(body, got, lo, &index, &start, &type))
        snprintf(where, sizeof where, "; the chunk starts in section %llu (type %u) at body offset %llu",
                 (unsigned long long)index, type, (unsigned long long)start);
    /* a raw or RLE block holds the bytes themselves; a compressed one may
     * also lean on the tables of the block before it */
    const int stored_bytes = last - first == 1 && b->part[first].type != 2;
    return rfail(c, WS_ERR_BAD_MODULE, "corrupt body: %s decoded body bytes %llu-%llu (chunk %llu) without a zstd error, "
                 "but to CRC-32 0x%08x where the chunk CRC table says 0x%08x (file offset %llu): %s%s", blocks,
                 (unsigned long long)lo, (unsigned long long)(hi - 1), (unsigned long long)k, crc, stored,
                 (unsigned long long)(WSCAP_HEADER + h->packed + 4 * k),
                 stored_bytes ? "the damage is in the block's data, the body bytes as stored"
                              : "the damage is in that data (literals, sequences), or in entropy tables reused from "
                                "the block before",
                 where);
}

/* Version 2: check every chunk that got bytes of body complete since
 * *checked (a chunk boundary); 0 if they match. */
static ws_status chunks_check(const ctx *c, const uint8_t *z, const wscap_header *h, const block_spans *b,
                              const uint8_t *body, uint64_t got, uint64_t *checked)
{
    const uint8_t *table = z + h->packed;
    while (*checked < got && (got - *checked >= WSCAP_CHUNK || got == h->raw)) {
        const uint64_t k = *checked / WSCAP_CHUNK, n = got - *checked < WSCAP_CHUNK ? got - *checked : WSCAP_CHUNK;
        const uint32_t crc = wscap_crc32(0, body + *checked, (size_t)n), stored = wscap_get32(table + 4 * k);
        if (crc != stored) return chunk_refused(c, b, h, body, got, k, crc, stored);
        *checked += n;
    }
    return WS_OK;
}

/* Decompress the one zstd frame into *out (exactly h->raw bytes). The
 * frame goes to zstd one part (header, block, checksum) at a time, so a
 * refusal names the part zstd was decoding; in version 2 each chunk of
 * body is checked against its CRC as soon as it is decoded, so a block
 * that decodes to wrong bytes is named too. */
static ws_status inflate(const ctx *c, const uint8_t *z, const wscap_header *h, uint8_t **out)
{
    *out = NULL;
    ZSTD_DCtx *dctx = ZSTD_createDCtx();
    /* Start small and double: memory follows what really decompresses. */
    size_t cap = h->raw < (1u << 16) ? (size_t)h->raw + 1 : 1u << 16;
    uint8_t *buf = malloc(cap);
    if (!dctx || !buf) {
        ZSTD_freeDCtx(dctx);
        free(buf);
        return rfail(c, WS_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    char why[96];
    wscap_zpart part;
    uint64_t frame_end = 0;
    wscap_zpart last_block = { 0 };
    block_spans spans = { 0 };
    uint64_t checked = 0; /* version 2: body bytes checked against their chunks' CRCs */
    ws_status st = h->version >= 2 ? check_table(c, z, h) : WS_OK;
    if (!st) st = check_layout(c, z, h->packed, &frame_end, &last_block);
    if (!st) wscap_zpart_next(z, h->packed, NULL, &part, why, sizeof why);
    else part = (wscap_zpart){ 0 };
    ZSTD_inBuffer in = { z, (size_t)(part.at + part.size), 0 };
    size_t got = 0, left = 1, part_out = 0; /* part_out: body offset where the part's data starts */
    while (!st && left) {
        if (got == cap) {
            if (cap > h->raw) { /* already one byte past what the header allows */
                st = rfail(c, WS_ERR_BAD_MODULE, "corrupt body: it decompresses to more than the %llu bytes the header says (offset 24)",
                           (unsigned long long)h->raw);
                break;
            }
            size_t ncap = cap * 2 > h->raw ? (size_t)h->raw + 1 : cap * 2;
            uint8_t *nb = realloc(buf, ncap);
            if (!nb) { st = rfail(c, WS_ERR_OUT_OF_MEMORY, "out of host memory"); break; }
            buf = nb;
            cap = ncap;
        }
        ZSTD_outBuffer o = { buf, cap, got };
        left = ZSTD_decompressStream(dctx, &o, &in);
        got = o.pos;
        if (ZSTD_isError(left)) {
            st = part.kind == WSCAP_ZPART_CHECKSUM && frame_end < h->packed
                     ? ends_early(c, frame_end, h->packed, &last_block)
                     : part_refused(c, &part, left, buf, part_out);
            break;
        }
        if (h->version >= 2 && got <= h->raw && (st = chunks_check(c, z, h, &spans, buf, got, &checked))) break;
        if (!left || in.pos < in.size || o.pos == cap) continue;
        /* the part is in and decoded: zstd wants the next one */
        wscap_zpart prev = part;
        int more = wscap_zpart_next(z, h->packed, &prev, &part, why, sizeof why);
        if (more < 0) st = part_damaged(c, &prev, why);
        else if (!more) /* zstd wants more than the frame's layout holds */
            st = rfail(c, WS_ERR_BAD_MODULE, "truncated: the compressed body ends at offset %llu inside its zstd frame",
                       (unsigned long long)(WSCAP_HEADER + h->packed));
        else in.size = (size_t)(part.at + part.size);
        part_out = got;
        if (!st && part.kind == WSCAP_ZPART_BLOCK && spans_add(&spans, &part, got))
            st = rfail(c, WS_ERR_OUT_OF_MEMORY, "out of host memory");
    }
    free(spans.part);
    free(spans.from);
    if (!st && in.pos != h->packed)
        st = rfail(c, WS_ERR_BAD_MODULE, "trailing garbage: %zu bytes after the zstd frame, which ends at offset %zu",
                   (size_t)h->packed - in.pos, WSCAP_HEADER + in.pos);
    if (!st && got != h->raw)
        st = rfail(c, WS_ERR_BAD_MODULE, "corrupt body: it decompresses to %zu bytes, the header says %llu (offset 24)", got,
                   (unsigned long long)h->raw);
    if (!st && wscap_crc32(0, buf, got) != h->body_crc)
        st = rfail(c, WS_ERR_BAD_MODULE, "body checksum mismatch: CRC-32 0x%08x, the header says 0x%08x (offset 40)",
                   wscap_crc32(0, buf, got), h->body_crc);
    ZSTD_freeDCtx(dctx);
    if (st) free(buf);
    else *out = buf;
    return st;
}

/* Walk the sections once, checking each fits in what remains. */
static ws_status index_sections(const ctx *c, ws_capture_reader *r)
{
    r->index = calloc(r->count ? r->count : 1, sizeof *r->index);
    if (!r->index) return rfail(c, WS_ERR_OUT_OF_MEMORY, "out of host memory");
    uint64_t at = 0;
    for (uint64_t i = 0; i < r->count; i++) {
        if (r->raw - at < WSCAP_SECTION_HEADER)
            return rfail(c, WS_ERR_BAD_MODULE, "section %llu at body offset %llu: truncated header (%llu bytes remain, %d needed)",
                         (unsigned long long)i, (unsigned long long)at, (unsigned long long)(r->raw - at), WSCAP_SECTION_HEADER);
        const uint8_t *p = r->body + at;
        entry *e = &r->index[i];
        e->type = wscap_get32(p);
        e->flags = wscap_get32(p + 4);
        e->id = wscap_get64(p + 8);
        e->size = wscap_get64(p + 16);
        e->offset = at;
        if (!e->type)
            return rfail(c, WS_ERR_BAD_MODULE, "section %llu at body offset %llu: type 0 is reserved", (unsigned long long)i,
                         (unsigned long long)at);
        at += WSCAP_SECTION_HEADER;
        if (e->size > r->raw - at)
            return rfail(c, WS_ERR_BAD_MODULE, "section %llu at body offset %llu: length %llu exceeds the %llu bytes that remain",
                         (unsigned long long)i, (unsigned long long)e->offset, (unsigned long long)e->size,
                         (unsigned long long)(r->raw - at));
        at += e->size;
    }
    if (at != r->raw)
        return rfail(c, WS_ERR_BAD_MODULE, "trailing garbage: %llu bytes in the body after the last of %llu sections (body offset %llu)",
                     (unsigned long long)(r->raw - at), (unsigned long long)r->count, (unsigned long long)at);
    return WS_OK;
}

ws_status ws_capture_reader_open_memory(const void *data, size_t size, const char *name, ws_capture_reader **out,
                                        char *err, size_t errlen)
{
    ctx c = { name ? name : "<memory>", err, errlen };
    if (!out) return rfail(&c, WS_ERR_INVALID_ARG, "ws_capture_reader_open_memory: out is NULL");
    *out = NULL;
    if (!data && size) return rfail(&c, WS_ERR_INVALID_ARG, "no data");
    wscap_header h;
    ws_status st = check_header(&c, data ? data : (const void *)"", size, &h);
    if (st) return st;
    ws_capture_reader *r = calloc(1, sizeof *r);
    if (!r) return rfail(&c, WS_ERR_OUT_OF_MEMORY, "out of host memory");
    r->raw = h.raw;
    r->count = h.count;
    st = inflate(&c, (const uint8_t *)data + WSCAP_HEADER, &h, &r->body);
    if (!st) st = index_sections(&c, r);
    if (st) {
        ws_capture_reader_close(r);
        return st;
    }
    *out = r;
    return WS_OK;
}

ws_status ws_capture_reader_open(const char *path, ws_capture_reader **out, char *err, size_t errlen)
{
    ctx c = { path ? path : "capture file", err, errlen };
    if (!out) return rfail(&c, WS_ERR_INVALID_ARG, "ws_capture_reader_open: out is NULL");
    *out = NULL;
    if (!path) return rfail(&c, WS_ERR_INVALID_ARG, "no path given");
    FILE *f = fopen(path, "rb");
    if (!f) return rfail(&c, errno == ENOENT ? WS_ERR_NOT_FOUND : WS_ERR_IO, "%s", strerror(errno));
    /* Read in growing chunks rather than trusting a size: the limit
     * stops a runaway file (a pipe, /dev/zero) early. */
    const size_t limit = (size_t)ZSTD_compressBound((size_t)WS_CAPTURE_MAX_BODY) + WSCAP_HEADER + 1;
    uint8_t *data = NULL;
    size_t n = 0, cap = 0, got;
    ws_status st = WS_OK;
    do {
        if (n == cap) {
            if (cap >= limit) {
                st = rfail(&c, WS_ERR_BAD_MODULE, "larger than any capture file can be (over %zu bytes)", limit - 1);
                break;
            }
            size_t ncap = cap ? (cap * 2 < limit ? cap * 2 : limit) : 1 << 16;
            uint8_t *q = realloc(data, ncap);
            if (!q) { st = rfail(&c, WS_ERR_OUT_OF_MEMORY, "out of host memory"); break; }
            data = q;
            cap = ncap;
        }
        got = fread(data + n, 1, cap - n, f);
        n += got;
        /* Not a capture file (a device, a large file given by mistake):
         * stop at its first bytes rather than reading up to the limit. */
        if (n >= 8 && memcmp(data, wscap_magic, 8)) break;
    } while (got);
    if (!st && ferror(f)) /* a directory, an I/O error */
        st = rfail(&c, WS_ERR_IO, "read error at offset %zu: %s", n, strerror(errno));
    fclose(f);
    if (!st) st = ws_capture_reader_open_memory(data, n, path, out, err, errlen);
    free(data);
    return st;
}

ws_status ws_capture_reader_count(const ws_capture_reader *r, uint64_t *count)
{
    if (!r || !count) return WS_ERR_INVALID_ARG;
    *count = r->count;
    return WS_OK;
}

ws_status ws_capture_reader_section(const ws_capture_reader *r, uint64_t index, ws_capture_section *out)
{
    if (!r || !out) return WS_ERR_INVALID_ARG;
    if (index >= r->count) return WS_ERR_NOT_FOUND;
    const entry *e = &r->index[index];
    out->type = e->type;
    out->flags = e->flags;
    out->id = e->id;
    out->data = r->body + e->offset + WSCAP_SECTION_HEADER;
    out->size = e->size;
    out->index = index;
    out->offset = e->offset;
    return WS_OK;
}

ws_status ws_capture_reader_next(ws_capture_reader *r, ws_capture_section *out)
{
    if (!r || !out) return WS_ERR_INVALID_ARG;
    ws_status st = ws_capture_reader_section(r, r->next, out);
    if (st == WS_OK) r->next++;
    return st;
}

ws_status ws_capture_reader_close(ws_capture_reader *r)
{
    if (!r) return WS_ERR_INVALID_ARG;
    free(r->index);
    free(r->body);
    free(r);
    return WS_OK;
}
