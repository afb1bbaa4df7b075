/* The capture file container (include/warpscope/capture.h,
 * docs/capture-format.md). argv[1] picks the group, argv[2] is a scratch
 * directory of its own:
 *   roundtrip    sections of 0 B, 1 B, 1 MiB and many sizes read back equal
 *   determinism  the same sections give byte-identical files
 *   atomic       abort and a SIGKILL'd writer leave no file (or the old one)
 *   corrupt      every refusal, with the message that names file and place */
#include <dirent.h>
#include <signal.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>
#include "../test.h"
#include "capture/capture_file.h"
#include "warpscope/capture.h"

static char dir[1024];

static const char *at(const char *name)
{
    static char bufs[4][1200]; /* test-only: a few paths alive at once */
    static int k;
    k = (k + 1) % 4;
    snprintf(bufs[k], sizeof bufs[k], "%s/%s", dir, name);
    return bufs[k];
}

/* xorshift: the same "random" bytes in every run, so files compare. */
static void fill(uint8_t *p, size_t n, uint64_t seed)
{
    uint64_t x = seed * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p[i] = (uint8_t)x;
    }
}

/* Files in dir whose name starts with prefix. */
static int count_files(const char *prefix)
{
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (!strncmp(e->d_name, prefix, strlen(prefix))) n++;
    if (d) closedir(d);
    return n;
}

static int write_bytes(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(p, 1, n, f) == n;
    if (f && fclose(f)) ok = 0;
    return ok ? 0 : -1;
}

typedef struct spec {
    uint32_t type, flags;
    uint64_t id;
    size_t size;
} spec;

enum { NSPEC = 300 };

static void make_specs(spec *s)
{
    size_t sizes[] = { 0, 1, 1u << 20, 2, 3, 7, 24, 100, 4096, 65535, 65536, 65537, 200000 };
    for (int i = 0; i < NSPEC; i++) {
        s[i].type = i == 5 ? 1000 : (uint32_t)(i % 9) + 1; /* 1000: a type from the future, kept opaque */
        s[i].flags = (uint32_t)i * 7u;
        s[i].id = 0x100000000ull * (uint64_t)i + (uint64_t)i;
        s[i].size = i < (int)(sizeof sizes / sizeof *sizes) ? sizes[i] : (size_t)(i * 37 % 513);
    }
}

static ws_status write_specs(const char *path, const spec *s, int n, char *err, size_t errlen)
{
    ws_capture_writer *w = NULL;
    ws_status st = ws_capture_writer_open(path, &w, err, errlen);
    if (st) return st;
    uint8_t *buf = malloc(1u << 20);
    for (int i = 0; i < n && !st; i++) {
        fill(buf, s[i].size, (uint64_t)i);
        st = ws_capture_writer_add_flags(w, s[i].type, s[i].flags, s[i].id, buf, s[i].size);
    }
    free(buf);
    if (st) {
        ws_capture_writer_abort(w);
        return st;
    }
    return ws_capture_writer_close(w);
}

static void test_roundtrip(void)
{
    CHECK_EQ_U(wscap_crc32(0, "123456789", 9), 0xcbf43926u); /* the standard CRC-32 check value */
    spec s[NSPEC];
    make_specs(s);
    char err[512] = "";
    const char *path = at("many.wscap");
    CHECK_EQ_U(write_specs(path, s, NSPEC, err, sizeof err), WS_OK);
    CHECK_EQ_U(count_files("many.wscap.tmp"), 0);
    ws_capture_reader *r = NULL;
    CHECK_EQ_U(ws_capture_reader_open(path, &r, err, sizeof err), WS_OK);
    if (!r) { fprintf(stderr, "%s\n", err); return; }
    uint64_t n = 0;
    CHECK_EQ_U(ws_capture_reader_count(r, &n), WS_OK);
    CHECK_EQ_U(n, NSPEC);
    uint8_t *want = malloc(1u << 20);
    int bad = 0;
    uint64_t off = 0;
    ws_capture_section sec;
    for (int i = 0; i < NSPEC; i++) {
        if (ws_capture_reader_next(r, &sec) != WS_OK) { bad++; break; }
        fill(want, s[i].size, (uint64_t)i);
        if (sec.type != s[i].type || sec.flags != s[i].flags || sec.id != s[i].id || sec.size != s[i].size ||
            sec.index != (uint64_t)i || sec.offset != off || (s[i].size && memcmp(sec.data, want, s[i].size))) {
            if (!bad) fprintf(stderr, "section %d differs\n", i);
            bad++;
        }
        off += WSCAP_SECTION_HEADER + s[i].size;
    }
    CHECK_EQ_U(bad, 0);
    CHECK_EQ_U(ws_capture_reader_next(r, &sec), WS_ERR_NOT_FOUND);
    /* random access agrees with iteration */
    CHECK_EQ_U(ws_capture_reader_section(r, 2, &sec), WS_OK);
    CHECK_EQ_U(sec.size, 1u << 20);
    CHECK_EQ_U(ws_capture_reader_section(r, NSPEC, &sec), WS_ERR_NOT_FOUND);
    CHECK_EQ_U(ws_capture_reader_close(r), WS_OK);
    free(want);
    /* random payloads do not shrink, but the zstd frame adds little to
     * them: the file is about header + body */
    uint64_t body = 0;
    for (int i = 0; i < NSPEC; i++) body += WSCAP_SECTION_HEADER + s[i].size;
    struct stat st;
    CHECK(stat(path, &st) == 0 && (uint64_t)st.st_size > (1u << 20) && (uint64_t)st.st_size < body + body / 100);

    /* an empty capture is valid */
    const char *empty = at("empty.wscap");
    CHECK_EQ_U(write_specs(empty, s, 0, err, sizeof err), WS_OK);
    CHECK_EQ_U(ws_capture_reader_open(empty, &r, err, sizeof err), WS_OK);
    CHECK_EQ_U(r ? (ws_capture_reader_count(r, &n), n) : 99, 0);
    if (r) ws_capture_reader_close(r);

    /* writer refusals name the file */
    ws_capture_writer *w = NULL;
    CHECK_EQ_U(ws_capture_writer_open(at("nodir/x.wscap"), &w, err, sizeof err), WS_ERR_IO);
    CHECK(w == NULL);
    CHECK_STR_CONTAINS(err, "nodir/x.wscap: cannot create a temporary file");
    CHECK_EQ_U(ws_capture_writer_open(at("t0.wscap"), &w, err, sizeof err), WS_OK);
    CHECK_EQ_U(ws_capture_writer_add(w, 0, 1, "x", 1), WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "t0.wscap: section 0: type 0 is reserved");
    CHECK_EQ_U(ws_capture_writer_add(w, 1, 1, "x", 1), WS_ERR_INVALID_ARG); /* spent after a failure */
    CHECK_EQ_U(ws_capture_writer_close(w), WS_ERR_INVALID_ARG);
    CHECK(access(at("t0.wscap"), F_OK) != 0);
    CHECK_EQ_U(count_files("t0.wscap"), 0);
}

static void test_determinism(void)
{
    spec s[NSPEC];
    make_specs(s);
    char err[512] = "";
    const char *a = at("a.wscap"), *b = at("b.wscap");
    CHECK_EQ_U(write_specs(a, s, NSPEC, err, sizeof err), WS_OK);
    CHECK_EQ_U(write_specs(b, s, NSPEC, err, sizeof err), WS_OK);
    size_t na, nb;
    uint8_t *pa = ws_test_read_file(a, &na), *pb = ws_test_read_file(b, &nb);
    CHECK(pa && pb && na == nb && !memcmp(pa, pb, na));
    /* the header is exactly what the documentation says */
    CHECK(pa && !memcmp(pa, "WSCAPTUR\2\0\0\0\0\0\0\0", 16));
    CHECK_EQ_U(pa ? wscap_get64(pa + 16) : 0, NSPEC);
    /* the zstd frame, then a CRC per 128 KiB chunk of body and the table's CRC */
    CHECK_EQ_U(pa ? wscap_get64(pa + 32) : 0, na - WSCAP_HEADER - (pa ? wscap_table_bytes(2, wscap_get64(pa + 24)) : 0));
    free(pa);
    free(pb);
    /* a second write over an existing file replaces it whole */
    CHECK_EQ_U(write_specs(b, s, 3, err, sizeof err), WS_OK);
    ws_capture_reader *r = NULL;
    uint64_t n = 0;
    CHECK_EQ_U(ws_capture_reader_open(b, &r, err, sizeof err), WS_OK);
    if (r) ws_capture_reader_count(r, &n), ws_capture_reader_close(r);
    CHECK_EQ_U(n, 3);
}

static void test_atomic(void)
{
    char err[512] = "";
    /* abort: no file, no temporary file */
    ws_capture_writer *w = NULL;
    const char *path = at("ab.wscap");
    CHECK_EQ_U(ws_capture_writer_open(path, &w, err, sizeof err), WS_OK);
    CHECK_EQ_U(count_files("ab.wscap.tmp-"), 1);
    CHECK_EQ_U(ws_capture_writer_add(w, WS_CAPTURE_FRAME_BEGIN, 1, "abc", 3), WS_OK);
    CHECK_EQ_U(ws_capture_writer_abort(w), WS_OK);
    CHECK(access(path, F_OK) != 0);
    CHECK_EQ_U(count_files("ab.wscap"), 0);

    /* abort over an existing file leaves it byte for byte */
    spec s[NSPEC];
    make_specs(s);
    const char *old = at("old.wscap");
    CHECK_EQ_U(write_specs(old, s, 4, err, sizeof err), WS_OK);
    size_t n0, n1;
    uint8_t *before = ws_test_read_file(old, &n0);
    CHECK_EQ_U(ws_capture_writer_open(old, &w, err, sizeof err), WS_OK);
    CHECK_EQ_U(ws_capture_writer_add(w, WS_CAPTURE_API_CALL, 9, "zz", 2), WS_OK);
    CHECK_EQ_U(ws_capture_writer_abort(w), WS_OK);
    uint8_t *after = ws_test_read_file(old, &n1);
    CHECK(before && after && n0 == n1 && !memcmp(before, after, n0));
    free(after);

    /* a writer killed with SIGKILL in the middle: the target path holds
     * nothing (new file) or the old file (existing one) */
    for (int existing = 0; existing < 2; existing++) {
        const char *target = existing ? old : at("killed.wscap");
        int fds[2];
        CHECK(pipe(fds) == 0);
        pid_t pid = fork();
        if (pid == 0) {
            close(fds[0]);
            ws_capture_writer *cw = NULL;
            char cerr[256];
            uint8_t *buf = malloc(1 << 16);
            if (!buf || ws_capture_writer_open(target, &cw, cerr, sizeof cerr)) _exit(2);
            for (uint64_t i = 0;; i++) {
                fill(buf, 1 << 16, i);
                if (ws_capture_writer_add(cw, WS_CAPTURE_ALLOCATION, i, buf, 1 << 16)) _exit(3);
                if (i == 8 && write(fds[1], "x", 1) != 1) _exit(4); /* well inside the body now */
            }
        }
        close(fds[1]);
        char c = 0;
        CHECK(read(fds[0], &c, 1) == 1);
        close(fds[0]);
        kill(pid, SIGKILL);
        int status = 0;
        waitpid(pid, &status, 0);
        CHECK(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        if (existing) {
            after = ws_test_read_file(old, &n1);
            CHECK(before && after && n0 == n1 && !memcmp(before, after, n0));
            free(after);
        } else {
            CHECK(access(target, F_OK) != 0);
        }
        /* the stale temporary file is the only trace; a reader never opens it */
        CHECK_EQ_U(count_files(existing ? "old.wscap.tmp-" : "killed.wscap.tmp-"), 1);
    }
    free(before);
}

/* Write bytes to name, open them, expect status st and a message holding
 * the file name and want. */
static void expect_refusal(const char *name, const uint8_t *p, size_t n, ws_status st, const char *want)
{
    const char *path = at(name);
    CHECK(write_bytes(path, p, n) == 0);
    char err[512] = "";
    ws_capture_reader *r = (ws_capture_reader *)&err; /* must come back NULL */
    CHECK_EQ_U(ws_capture_reader_open(path, &r, err, sizeof err), st);
    CHECK(r == NULL);
    if (getenv("WS_TEST_VERBOSE")) printf("%s\n", err);
    CHECK_STR_CONTAINS(err, path);
    CHECK_STR_CONTAINS(err, want);
}

/* A file around a hand-made body, with correct header and body CRCs. */
static uint8_t *craft(const uint8_t *body, size_t n, uint64_t count, size_t *len)
{
    size_t bound = ZSTD_compressBound(n);
    uint8_t *f = malloc(WSCAP_HEADER + bound);
    size_t z = ZSTD_compress(f + WSCAP_HEADER, bound, body, n, 3);
    wscap_header h = { 1, 0, count, n, z, wscap_crc32(0, body, n) };
    wscap_header_encode(f, &h);
    *len = WSCAP_HEADER + z;
    return f;
}

static void test_corrupt(void)
{
    char err[512] = "";
    const char *good = at("good.wscap");
    ws_capture_writer *w = NULL;
    uint8_t payload[4096];
    fill(payload, sizeof payload, 42); /* random: zstd keeps it as a raw block */
    CHECK_EQ_U(ws_capture_writer_open(good, &w, err, sizeof err), WS_OK);
    CHECK_EQ_U(ws_capture_writer_add(w, WS_CAPTURE_DEVICE_CONFIG, 0, "cores=1", 7), WS_OK);
    CHECK_EQ_U(ws_capture_writer_add(w, WS_CAPTURE_ALLOCATION, 0x1000, payload, sizeof payload), WS_OK);
    CHECK_EQ_U(ws_capture_writer_close(w), WS_OK);
    size_t n;
    uint8_t *f = ws_test_read_file(good, &n);
    if (!f) { CHECK(0); return; }
    uint8_t *m = malloc(n + 64);

    /* not found */
    ws_capture_reader *r = NULL;
    CHECK_EQ_U(ws_capture_reader_open(at("missing.wscap"), &r, err, sizeof err), WS_ERR_NOT_FOUND);
    CHECK_STR_CONTAINS(err, "missing.wscap: No such file");

    /* truncated anywhere */
    expect_refusal("trunc10", f, 10, WS_ERR_BAD_MODULE, "truncated: the file ends at offset 10, inside the 48-byte header");
    expect_refusal("trunc47", f, 47, WS_ERR_BAD_MODULE, "truncated: the file ends at offset 47");
    expect_refusal("trunc48", f, 48, WS_ERR_BAD_MODULE, "truncated: the file ends at offset 48, the header says the body and its chunk CRC table end at offset");
    expect_refusal("trunc_last", f, n - 1, WS_ERR_BAD_MODULE, "truncated");
    expect_refusal("trunc_mid", f, n / 2, WS_ERR_BAD_MODULE, "truncated");

    /* a flipped payload byte in the raw block: zstd decodes it without a
     * complaint, the chunk's CRC names the block (in version 1 only the
     * frame's XXH64 caught it, at the end, naming no block) */
    memcpy(m, f, n);
    m[n - 200] ^= 0x10;
    expect_refusal("flip_body", m, n, WS_ERR_BAD_MODULE, "corrupt body: zstd block 0 (raw), ");
    expect_refusal("flip_body", m, n, WS_ERR_BAD_MODULE, "decoded body bytes 0-4150 (chunk 0) without a zstd error");
    /* a flipped header byte: caught by the header CRC */
    memcpy(m, f, n);
    m[17] ^= 1;
    expect_refusal("flip_header", m, n, WS_ERR_BAD_MODULE, "header checksum mismatch");
    /* a body that decompresses cleanly but disagrees with the body CRC */
    memcpy(m, f, n);
    wscap_header h;
    uint32_t hc;
    wscap_header_decode(m, &h, &hc);
    h.body_crc ^= 1;
    wscap_header_encode(m, &h);
    expect_refusal("body_crc", m, n, WS_ERR_BAD_MODULE, "body checksum mismatch");

    /* bad magic */
    memcpy(m, f, n);
    m[3] = 'X';
    expect_refusal("magic", m, n, WS_ERR_BAD_MODULE, "not a warpscope capture file");
    expect_refusal("zero", f, 0, WS_ERR_BAD_MODULE, "empty file (0 bytes): not a warpscope capture file");
    /* the start of the magic only: cut short, not some other kind of file */
    expect_refusal("trunc5", f, 5, WS_ERR_BAD_MODULE, "truncated: the file ends at offset 5, inside the 48-byte header");
    /* something endless that is not a capture: refused at its first bytes
     * (it was read up to the 1 GiB limit first: "larger than any ...") */
    CHECK_EQ_U(ws_capture_reader_open("/dev/zero", &r, err, sizeof err), WS_ERR_BAD_MODULE);
    CHECK_STR_CONTAINS(err, "/dev/zero: not a warpscope capture file");
    /* a directory: the reason, not only "read error" */
    CHECK_EQ_U(ws_capture_reader_open(at(""), &r, err, sizeof err), WS_ERR_IO);
    CHECK_STR_CONTAINS(err, "read error at offset 0: Is a directory");

    /* a newer version: named before any other check */
    memcpy(m, f, n);
    wscap_put32(m + 8, 3);
    expect_refusal("v3", m, n, WS_ERR_UNSUPPORTED, "written by format version 3 (offset 8); this library reads version 2");
    /* unknown header flags */
    memcpy(m, f, n);
    wscap_header_decode(m, &h, &hc);
    h.flags = 4;
    wscap_header_encode(m, &h);
    expect_refusal("flags", m, n, WS_ERR_UNSUPPORTED, "header flags 0x4 at offset 12");

    /* absurd counts and sizes, with valid CRCs so only the limits catch them */
    memcpy(m, f, n);
    wscap_header_decode(m, &h, &hc);
    h.count = 1ull << 40;
    wscap_header_encode(m, &h);
    expect_refusal("count", m, n, WS_ERR_BAD_MODULE, "section count 1099511627776 at offset 16 is not plausible");
    h.count = 2;
    h.raw = 1ull << 40;
    wscap_header_encode(m, &h);
    expect_refusal("raw", m, n, WS_ERR_BAD_MODULE, "body size 1099511627776 at offset 24 exceeds the limit");
    /* the header claims a larger body than the frame holds: the chunk CRC
     * table it implies does not fit (version 1: the body comes out short) */
    h.raw = 1 << 20;
    wscap_header_encode(m, &h);
    expect_refusal("raw_lie", m, n, WS_ERR_BAD_MODULE, "truncated: the file ends at offset");
    h.raw = 30;
    h.count = 0;
    wscap_header_encode(m, &h);
    expect_refusal("raw_small", m, n, WS_ERR_BAD_MODULE, "decompresses to more than the 30 bytes the header says (offset 24)");
    h.raw = 4;
    h.count = 2;
    wscap_header_encode(m, &h);
    expect_refusal("count_small", m, n, WS_ERR_BAD_MODULE, "section count 2 at offset 16 is not plausible");

    /* a section length past the end of the body */
    uint8_t body[64] = { 0 };
    wscap_put32(body, WS_CAPTURE_TEXTURE);
    wscap_put64(body + 16, 0xffffffffffffull);
    size_t cn;
    uint8_t *c = craft(body, 40, 1, &cn);
    expect_refusal("len", c, cn, WS_ERR_BAD_MODULE, "section 0 at body offset 0: length 281474976710655 exceeds the 16 bytes that remain");
    free(c);
    /* fewer section headers than the count says: section 0 holds 10
     * bytes, then 16 remain where section 1's 24-byte header should be */
    wscap_put64(body + 16, 10);
    c = craft(body, 50, 2, &cn);
    expect_refusal("short_section", c, cn, WS_ERR_BAD_MODULE, "section 1 at body offset 34: truncated header (16 bytes remain, 24 needed)");
    free(c);
    /* version 1 (no chunk CRC table): still read; a body size that lies is
     * found when it comes out short */
    wscap_put64(body + 16, 16);
    c = craft(body, 40, 1, &cn);
    CHECK_EQ_U(ws_capture_reader_open_memory(c, cn, "v1", &r, err, sizeof err), WS_OK);
    uint64_t count = 0;
    if (r) ws_capture_reader_count(r, &count), ws_capture_reader_close(r);
    CHECK_EQ_U(count, 1);
    wscap_header_decode(c, &h, &hc);
    h.raw = 64;
    wscap_header_encode(c, &h);
    expect_refusal("raw_lie_v1", c, cn, WS_ERR_BAD_MODULE, "decompresses to");
    free(c);
    /* a zero-typed section */
    wscap_put32(body, 0);
    c = craft(body, 34, 1, &cn);
    expect_refusal("type0", c, cn, WS_ERR_BAD_MODULE, "section 0 at body offset 0: type 0 is reserved");
    free(c);
    wscap_put32(body, WS_CAPTURE_TEXTURE);

    /* trailing garbage after the body, after the zstd frame, and after the
     * last section inside the body */
    memcpy(m, f, n);
    memcpy(m + n, "garbage!", 8);
    expect_refusal("trailing", m, n + 8, WS_ERR_BAD_MODULE, "trailing garbage: 8 bytes after the end of the chunk CRC table at offset");
    /* 8 bytes between the zstd frame and the table, the header's frame
     * size grown to cover them */
    wscap_header_decode(f, &h, &hc);
    const size_t frame_end = WSCAP_HEADER + (size_t)h.packed;
    memcpy(m, f, frame_end);
    memcpy(m + frame_end, "garbage!", 8);
    memcpy(m + frame_end + 8, f + frame_end, n - frame_end);
    h.packed += 8;
    wscap_header_encode(m, &h);
    expect_refusal("trailing_frame", m, n + 8, WS_ERR_BAD_MODULE, "trailing garbage: 8 bytes after the zstd frame");
    /* a damaged chunk CRC table: named before any chunk is judged by it */
    memcpy(m, f, n);
    m[frame_end + 1] ^= 4;
    expect_refusal("table", m, n, WS_ERR_BAD_MODULE, "corrupt chunk CRC table: its 1 CRCs at file offsets");
    wscap_put64(body + 16, 0);
    c = craft(body, 40, 1, &cn);
    expect_refusal("trailing_body", c, cn, WS_ERR_BAD_MODULE, "trailing garbage: 16 bytes in the body after the last of 1 sections (body offset 24)");
    free(c);
    free(m);
    free(f);
}

/* ---- version 2 names the block that decoded to wrong bytes ---- */
static void test_chunk_blame(void)
{
    /* 400 KB of random bytes: four chunks, each a raw zstd block, whose
     * bytes zstd copies out whatever they are */
    enum { N = 100 * 1024 };
    const char *path = at("chunks.wscap");
    char err[1024] = "";
    uint8_t *payload = malloc(N);
    ws_capture_writer *w = NULL;
    CHECK(payload && ws_capture_writer_open(path, &w, err, sizeof err) == WS_OK);
    if (!payload || !w) { free(payload); return; }
    for (uint64_t i = 0; i < 4; i++) {
        fill(payload, N, 7 + i);
        CHECK_EQ_U(ws_capture_writer_add(w, WS_CAPTURE_ALLOCATION, 0x1000 + i, payload, N), WS_OK);
    }
    CHECK_EQ_U(ws_capture_writer_close(w), WS_OK);
    free(payload);
    size_t n;
    uint8_t *f = ws_test_read_file(path, &n);
    if (!f) { CHECK(0); return; }
    /* the blocks, by walking the frame (RFC 8878): header, then 3-byte
     * block headers; the writer ends one at every chunk's end */
    uint64_t at_block[8] = { 0 }, size[8] = { 0 };
    size_t nb = 0;
    uint8_t fhd = f[WSCAP_HEADER + 4];
    uint64_t p = WSCAP_HEADER + 5 + !(fhd >> 5 & 1) + (uint64_t)((const int[]){ 0, 1, 2, 4 })[fhd & 3] +
                 (uint64_t)(fhd >> 6 ? ((const int[]){ 0, 2, 4, 8 })[fhd >> 6] : (fhd >> 5 & 1));
    for (int last = 0; !last && nb < 8 && p + 3 <= n; nb++) {
        uint32_t h = f[p] | (uint32_t)f[p + 1] << 8 | (uint32_t)f[p + 2] << 16;
        last = h & 1;
        CHECK_EQ_U(h >> 1 & 3, 0); /* raw */
        at_block[nb] = p;
        size[nb] = 3 + (h >> 3);
        p += size[nb];
    }
    CHECK_EQ_U(nb, 4);
    CHECK_EQ_U(size[0], 3 + WSCAP_CHUNK);
    /* flip a byte in the middle of block 1's data: chunk 1 */
    f[at_block[1] + 3 + 5000] ^= 0x40;
    char want[256];
    snprintf(want, sizeof want, "corrupt body: zstd block 1 (raw), %llu bytes at file offsets %llu-%llu, decoded body "
             "bytes 131072-262143 (chunk 1) without a zstd error", (unsigned long long)size[1],
             (unsigned long long)at_block[1], (unsigned long long)(at_block[1] + size[1] - 1));
    expect_refusal("chunk1", f, n, WS_ERR_BAD_MODULE, want);
    expect_refusal("chunk1", f, n, WS_ERR_BAD_MODULE, "; the chunk starts in section 1 (type 3) at body offset 102424");
    free(f);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: %s roundtrip|determinism|atomic|corrupt|chunk_blame SCRATCH_DIR\n", argv[0]);
        return 2;
    }
    snprintf(dir, sizeof dir, "%s", argv[2]);
    mkdir(dir, 0755);
    /* start from an empty scratch directory: file counts are asserted */
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') unlink(at(e->d_name));
    if (d) closedir(d);
    if (!strcmp(argv[1], "roundtrip")) test_roundtrip();
    else if (!strcmp(argv[1], "determinism")) test_determinism();
    else if (!strcmp(argv[1], "atomic")) test_atomic();
    else if (!strcmp(argv[1], "corrupt")) test_corrupt();
    else if (!strcmp(argv[1], "chunk_blame")) test_chunk_blame();
    else return 2;
    return TEST_SUMMARY();
}
