/* Writes the fuzz seeds for fuzz/capture_file into a directory: small
 * valid captures written by the real writer (prefix byte 1: a whole file)
 * and one raw body (prefix byte 0, then the section count). Run it again
 * only when the format changes:  capture_make_seeds fuzz/capture_file/corpus */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/capture_file.h"
#include "warpscope/capture.h"

static int seed(const char *dir, const char *name, const uint8_t *prefix, size_t np, const uint8_t *p, size_t n)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(prefix, 1, np, f) == np && fwrite(p, 1, n, f) == n;
    if (f && fclose(f)) ok = 0;
    if (!ok) fprintf(stderr, "%s: cannot write\n", path);
    return ok ? 0 : 1;
}

/* Write a capture with nsec sections to tmp, then store it as a seed. */
static int capture_seed(const char *dir, const char *name, int nsec)
{
    char tmp[1024], err[512];
    snprintf(tmp, sizeof tmp, "%s/.seed.wscap", dir);
    ws_capture_writer *w = NULL;
    if (ws_capture_writer_open(tmp, &w, err, sizeof err)) { fprintf(stderr, "%s\n", err); return 1; }
    uint8_t payload[300];
    for (int i = 0; i < (int)sizeof payload; i++) payload[i] = (uint8_t)(i * 31 + 7);
    for (int i = 0; i < nsec; i++) {
        if (ws_capture_writer_add_flags(w, (uint32_t)(i % 9) + 1, (uint32_t)i, (uint64_t)i * 3, payload, (size_t)(i * 41) % 300)) {
            ws_capture_writer_abort(w);
            fprintf(stderr, "%s\n", err);
            return 1;
        }
    }
    if (ws_capture_writer_close(w)) { fprintf(stderr, "%s\n", err); return 1; }
    FILE *f = fopen(tmp, "rb");
    uint8_t buf[8192];
    size_t n = f ? fread(buf, 1, sizeof buf, f) : 0;
    if (f) fclose(f);
    remove(tmp);
    const uint8_t one = 1;
    return n ? seed(dir, name, &one, 1, buf, n) : 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
        return 2;
    }
    int bad = capture_seed(argv[1], "file_empty", 0);
    bad |= capture_seed(argv[1], "file_frame", 3);
    bad |= capture_seed(argv[1], "file_all_types", 12);
    /* a raw body: two sections (type 7 id 1 "call", type 9 id 2 empty) */
    uint8_t body[2 * WSCAP_SECTION_HEADER + 4] = { 0 };
    wscap_put32(body, WS_CAPTURE_API_CALL);
    wscap_put64(body + 8, 1);
    wscap_put64(body + 16, 4);
    memcpy(body + WSCAP_SECTION_HEADER, "call", 4);
    wscap_put32(body + WSCAP_SECTION_HEADER + 4, WS_CAPTURE_FRAME_END);
    wscap_put64(body + WSCAP_SECTION_HEADER + 4 + 8, 2);
    const uint8_t prefix[2] = { 0, 2 };
    bad |= seed(argv[1], "body_two_sections", prefix, 2, body, sizeof body);
    return bad;
}
