/* libFuzzer target for the capture-file reader (src/capture/). Input byte
 * 0 chooses how the rest is used: odd, as a whole file; even, byte 1 is a
 * section count and the rest an uncompressed body, which this target
 * compresses and wraps in a valid header (correct CRCs) first, so
 * mutations reach the section walk instead of dying at a checksum.
 * A crash, a sanitizer report, a leak, a section outside the body, or an
 * error that does not name the file (abort) is a finding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "capture/capture_file.h"
#include "warpscope/capture.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(ws_capture_reader *r)
{
    uint64_t n = 0, seen = 0, sum = 0;
    if (ws_capture_reader_count(r, &n)) abort();
    ws_capture_section s;
    while (ws_capture_reader_next(r, &s) == WS_OK) {
        if (s.index != seen++ || !s.type) abort();
        const uint8_t *p = s.data;
        for (uint64_t i = 0; i < s.size; i++) sum += p[i]; /* ASan checks every byte is inside */
    }
    if (seen != n) abort();
    (void)sum;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    const uint8_t *file = data + 1;
    size_t n = size - 1;
    uint8_t *wrapped = NULL;
    if (!(data[0] & 1)) {
        const uint8_t *body = data + 2;
        size_t raw = size - 2, bound = ZSTD_compressBound(raw);
        wrapped = malloc(WSCAP_HEADER + bound);
        if (!wrapped) return 0;
        size_t z = ZSTD_compress(wrapped + WSCAP_HEADER, bound, body, raw, 1);
        if (ZSTD_isError(z)) { free(wrapped); return 0; }
        wscap_header h = { WS_CAPTURE_FORMAT_VERSION, 0, data[1], raw, z, wscap_crc32(0, body, raw) };
        wscap_header_encode(wrapped, &h);
        file = wrapped;
        n = WSCAP_HEADER + z;
    }
    ws_capture_reader *r = NULL;
    char err[512];
    ws_status st = ws_capture_reader_open_memory(file, n, "fuzz.wscap", &r, err, sizeof err);
    if (st == WS_OK) {
        check(r);
        ws_capture_reader_close(r);
    } else if (r || strncmp(err, "fuzz.wscap: ", 12)) {
        abort(); /* errors name the file and leave nothing behind */
    }
    free(wrapped);
    return 0;
}
