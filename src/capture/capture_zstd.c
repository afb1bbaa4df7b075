/* Walking a zstd frame's parts (capture_zstd.h). Only the layout is read
 * here: decoding stays with libzstd. */
#include <stdio.h>
#include "capture/capture_zstd.h"

enum {
    ZSTD_FRAME_MAGIC = 0xFD2FB528u,
    ZBLOCK_HEADER = 3,
    ZBLOCK_MAX = 128 * 1024 /* RFC 8878: no block holds more */
};

static int refuse(char *why, size_t whylen, const char *text)
{
    if (why && whylen) snprintf(why, whylen, "%s", text);
    return -1;
}

/* Magic (4), descriptor (1), window (0-1), dictionary id (0-4), content
 * size (0-8). */
static int frame_header(const uint8_t *z, uint64_t n, wscap_zpart *out, char *why, size_t whylen)
{
    if (n < 5) return refuse(why, whylen, "the frame ends inside its header");
    uint32_t magic = (uint32_t)z[0] | (uint32_t)z[1] << 8 | (uint32_t)z[2] << 16 | (uint32_t)z[3] << 24;
    if (magic != ZSTD_FRAME_MAGIC) return refuse(why, whylen, "bytes 0-3 are not the zstd frame magic");
    uint8_t fhd = z[4];
    int single_segment = fhd >> 5 & 1;
    static const int dict_bytes[4] = { 0, 1, 2, 4 };
    static const int size_bytes[4] = { 0, 2, 4, 8 };
    int size_field = size_bytes[fhd >> 6];
    if (!size_field && single_segment) size_field = 1;
    *out = (wscap_zpart){ .kind = WSCAP_ZPART_HEADER, .at = 0, .checksum = fhd >> 2 & 1 };
    out->size = 5 + (uint64_t)!single_segment + (uint64_t)dict_bytes[fhd & 3] + (uint64_t)size_field;
    if (out->size > n) return refuse(why, whylen, "the frame ends inside its header");
    out->blocks_at = out->size;
    return 1;
}

int wscap_zpart_next(const uint8_t *z, uint64_t n, const wscap_zpart *prev, wscap_zpart *out, char *why,
                     size_t whylen)
{
    if (!prev) return frame_header(z, n, out, why, whylen);
    if (prev->kind == WSCAP_ZPART_CHECKSUM || (prev->kind == WSCAP_ZPART_BLOCK && prev->last && !prev->checksum))
        return 0;
    uint64_t at = prev->at + prev->size;
    *out = (wscap_zpart){ .at = at, .checksum = prev->checksum, .blocks_at = prev->blocks_at,
                          .block = prev->kind == WSCAP_ZPART_BLOCK ? prev->block + 1 : 0 };
    if (prev->kind == WSCAP_ZPART_BLOCK && prev->last) {
        out->kind = WSCAP_ZPART_CHECKSUM;
        out->size = 4;
        return n - at < 4 ? refuse(why, whylen, "the frame ends inside its content checksum") : 1;
    }
    out->kind = WSCAP_ZPART_BLOCK;
    if (n - at < ZBLOCK_HEADER) return refuse(why, whylen, "the frame ends inside a block header");
    uint32_t h = (uint32_t)z[at] | (uint32_t)z[at + 1] << 8 | (uint32_t)z[at + 2] << 16;
    out->last = (int)(h & 1);
    out->type = (int)(h >> 1 & 3);
    uint32_t size = h >> 3;
    if (out->type == 3) return refuse(why, whylen, "its block type is the reserved 3");
    if (size > ZBLOCK_MAX) return refuse(why, whylen, "its block size is over zstd's 128 KiB limit");
    out->size = ZBLOCK_HEADER + (out->type == 1 ? 1 : (uint64_t)size); /* RLE: one byte repeated */
    if (out->size > n - at) return refuse(why, whylen, "the block it announces runs past the frame's end");
    return 1;
}

const char *wscap_zpart_name(const wscap_zpart *p, char *buf, size_t len)
{
    static const char *const types[] = { "raw", "RLE", "compressed" };
    if (p->kind == WSCAP_ZPART_HEADER) snprintf(buf, len, "the zstd frame header");
    else if (p->kind == WSCAP_ZPART_CHECKSUM) snprintf(buf, len, "the zstd content checksum");
    else snprintf(buf, len, "zstd block %llu (%s)", (unsigned long long)p->block, types[p->type]);
    return buf;
}
