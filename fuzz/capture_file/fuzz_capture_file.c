/* libFuzzer target for the capture-file reader (src/capture/). The input
 * becomes a file as fuzz/capture_wrap.h says, so mutations reach the
 * section walk instead of dying at a checksum.
 * A crash, a sanitizer report, a leak, a section outside the body, or an
 * error that does not name the file (abort) is a finding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "../capture_wrap.h"

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
    const uint8_t *file;
    size_t n;
    uint8_t *wrapped = fuzz_capture_file(data, size, &file, &n);
    if (!n) return 0;
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
