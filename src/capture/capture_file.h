/* The capture file's layout (docs/capture-format.md), shared by the writer
 * and the reader: header fields, CRC-32, little-endian helpers. */
#ifndef WS_CAPTURE_CAPTURE_FILE_H
#define WS_CAPTURE_CAPTURE_FILE_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

enum {
    WSCAP_HEADER = 48,         /* bytes before the compressed body          */
    WSCAP_HEADER_CRC_AT = 44,  /* the header CRC covers bytes 0..43         */
    WSCAP_SECTION_HEADER = 24, /* type u32, flags u32, id u64, length u64   */
    WSCAP_LEVEL = 3,           /* fixed zstd level: same input, same bytes  */
    WSCAP_CHUNK = 128 * 1024   /* version 2: body bytes per chunk CRC; the
                                  writer ends a zstd block at each chunk's
                                  end, so a chunk names the block(s) that
                                  decoded it                              */
};

/* Version 2's chunk CRC table after the zstd frame: a CRC-32 per chunk of
 * the uncompressed body (the last one may be short), then the CRC-32 of
 * those bytes. Version 1 files have none. */
static inline uint64_t wscap_chunks(uint64_t raw)
{
    return (raw + WSCAP_CHUNK - 1) / WSCAP_CHUNK;
}
static inline uint64_t wscap_table_bytes(uint32_t version, uint64_t raw)
{
    return version >= 2 ? 4 * wscap_chunks(raw) + 4 : 0;
}

extern const char wscap_magic[8];

typedef struct wscap_header {
    uint32_t version, flags;
    uint64_t count;     /* sections                                  */
    uint64_t raw;       /* uncompressed body bytes                   */
    uint64_t packed;    /* compressed body bytes (the zstd frame)    */
    uint32_t body_crc;  /* CRC-32 of the uncompressed body           */
} wscap_header;

/* CRC-32 (IEEE 802.3, reflected, as zlib's crc32): start with crc = 0. */
uint32_t wscap_crc32(uint32_t crc, const void *data, size_t n);
/* "NAME: message" into err (nothing when err is NULL or errlen 0). */
void wscap_verror(char *err, size_t errlen, const char *name, const char *fmt, va_list ap);
/* Write h as the 48 header bytes, magic and header CRC included. */
void wscap_header_encode(uint8_t out[WSCAP_HEADER], const wscap_header *h);
/* Read the fields (no checks: the reader checks them in its order). */
void wscap_header_decode(const uint8_t in[WSCAP_HEADER], wscap_header *h, uint32_t *header_crc);

static inline void wscap_put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void wscap_put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint32_t wscap_get32(const uint8_t *p)
{
    uint32_t v = 0;
    for (int i = 3; i >= 0; i--) v = v << 8 | p[i];
    return v;
}
static inline uint64_t wscap_get64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    return v;
}

#endif
