/* Shared by the capture fuzz targets: input byte 0 chooses how the rest is
 * used. Odd: as a whole capture file. Even: byte 1 is a section count and
 * the rest an uncompressed body, which is compressed and wrapped in a valid
 * version 2 file (header, chunk CRC table and their CRCs correct), so mutations reach what lies past the checksums. */
#ifndef WS_FUZZ_CAPTURE_WRAP_H
#define WS_FUZZ_CAPTURE_WRAP_H
#include <stdint.h>
#include <stdlib.h>
#include <zstd.h>
#include "capture/capture_file.h"
#include "warpscope/capture.h"

/* The file to feed the reader: *file, *n; returns a buffer to free (or NULL). */
static inline uint8_t *fuzz_capture_file(const uint8_t *data, size_t size, const uint8_t **file, size_t *n)
{
    *file = data + 1;
    *n = size - 1;
    if (data[0] & 1) return NULL;
    const uint8_t *body = data + 2;
    size_t raw = size - 2, bound = ZSTD_compressBound(raw), table = (size_t)wscap_table_bytes(2, raw);
    uint8_t *wrapped = malloc(WSCAP_HEADER + bound + table);
    if (!wrapped) { *n = 0; return NULL; }
    size_t z = ZSTD_compress(wrapped + WSCAP_HEADER, bound, body, raw, 1);
    if (ZSTD_isError(z)) { free(wrapped); *n = 0; return NULL; }
    wscap_header h = { 2, 0, data[1], raw, z, wscap_crc32(0, body, raw) };
    wscap_header_encode(wrapped, &h);
    /* version 2's chunk CRC table, then its own CRC */
    uint8_t *t = wrapped + WSCAP_HEADER + z;
    for (size_t at = 0; at < raw; at += WSCAP_CHUNK, t += 4)
        wscap_put32(t, wscap_crc32(0, body + at, raw - at < WSCAP_CHUNK ? raw - at : WSCAP_CHUNK));
    wscap_put32(t, wscap_crc32(0, wrapped + WSCAP_HEADER + z, table - 4));
    *file = wrapped;
    *n = WSCAP_HEADER + z + table;
    return wrapped;
}
#endif
