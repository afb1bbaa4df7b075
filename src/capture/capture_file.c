/* The capture file header and its checksum (docs/capture-format.md).
 * Fields are written byte by byte in little-endian order so the file is
 * the same on every host. */
#include <stdio.h>
#include "capture/capture_file.h"

const char wscap_magic[8] = { 'W', 'S', 'C', 'A', 'P', 'T', 'U', 'R' };

/* Half-byte table: small enough to keep const, fast enough for a 1 GiB
 * body (no table built at run time, so no mutable global). */
static const uint32_t crc_nibble[16] = {
    0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
    0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c, 0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t wscap_crc32(uint32_t crc, const void *data, size_t n)
{
    const uint8_t *p = data;
    crc = ~crc;
    for (size_t i = 0; i < n; i++) {
        crc ^= p[i];
        crc = crc >> 4 ^ crc_nibble[crc & 15];
        crc = crc >> 4 ^ crc_nibble[crc & 15];
    }
    return ~crc;
}

void wscap_header_encode(uint8_t out[WSCAP_HEADER], const wscap_header *h)
{
    for (int i = 0; i < 8; i++) out[i] = (uint8_t)wscap_magic[i];
    wscap_put32(out + 8, h->version);
    wscap_put32(out + 12, h->flags);
    wscap_put64(out + 16, h->count);
    wscap_put64(out + 24, h->raw);
    wscap_put64(out + 32, h->packed);
    wscap_put32(out + 40, h->body_crc);
    wscap_put32(out + WSCAP_HEADER_CRC_AT, wscap_crc32(0, out, WSCAP_HEADER_CRC_AT));
}

void wscap_header_decode(const uint8_t in[WSCAP_HEADER], wscap_header *h, uint32_t *header_crc)
{
    h->version = wscap_get32(in + 8);
    h->flags = wscap_get32(in + 12);
    h->count = wscap_get64(in + 16);
    h->raw = wscap_get64(in + 24);
    h->packed = wscap_get64(in + 32);
    h->body_crc = wscap_get32(in + 40);
    *header_crc = wscap_get32(in + WSCAP_HEADER_CRC_AT);
}

void wscap_verror(char *err, size_t errlen, const char *name, const char *fmt, va_list ap)
{
    if (!err || !errlen) return;
    int n = snprintf(err, errlen, "%s: ", name);
    if (n >= 0 && (size_t)n < errlen) vsnprintf(err + n, errlen - (size_t)n, fmt, ap);
}
