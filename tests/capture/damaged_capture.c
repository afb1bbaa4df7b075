/* Damaged copies of real captures, table-driven: each refusal names the
 * file and the most precise place the format allows.
 *   1. One flipped bit in the zstd frame of a capture of the cube example
 *      (--frames all: several blocks): the frame header, a block header,
 *      a block's data, the content checksum. The blocks are found here by
 *      walking the frame as RFC 8878 lays it out, independently of the
 *      reader.
 *   2. A failure record that the replay does not meet: added to the cube
 *      capture (the replay meets no failure), or changed in a capture of
 *      tests/capture/fault_frames.c whose frame 1 faults. The expected
 *      body offsets come from the capture reader's section index.
 *   usage: capture_damaged CUBE.wscap FAULT.wscap WORKDIR */
#include <stdint.h>
#include <stdio.h>
#include "../test.h"
#include "capture/capture_calls.h"
#include "capture/capture_file.h"
#include "capture/replayer.h"
#include "warpscope/capture.h"

static const char *workdir;

/* ---- 1. flipped bits in the zstd frame ---- */

enum { MAX_BLOCKS = 64 };
typedef struct frame_map {
    uint64_t header_end;                       /* file offset of block 0      */
    uint64_t block_at[MAX_BLOCKS], block_end[MAX_BLOCKS]; /* file offsets, end exclusive */
    size_t nblocks;
    uint64_t checksum_at;
} frame_map;

static int map_frame(const uint8_t *f, size_t n, frame_map *m)
{
    memset(m, 0, sizeof *m);
    uint8_t fhd = f[WSCAP_HEADER + 4];
    static const int dict[4] = { 0, 1, 2, 4 }, fcs[4] = { 0, 2, 4, 8 };
    int single = fhd >> 5 & 1;
    uint64_t at = WSCAP_HEADER + 5 + (uint64_t)!single + (uint64_t)dict[fhd & 3] +
                  (uint64_t)(fhd >> 6 ? fcs[fhd >> 6] : single);
    m->header_end = at;
    for (int last = 0; !last && m->nblocks < MAX_BLOCKS && at + 3 <= n;) {
        uint32_t h = f[at] | (uint32_t)f[at + 1] << 8 | (uint32_t)f[at + 2] << 16;
        last = h & 1;
        m->block_at[m->nblocks] = at;
        at += 3 + ((h >> 1 & 3) == 1 ? 1 : h >> 3);
        m->block_end[m->nblocks++] = at;
    }
    m->checksum_at = at;
    /* version 2: the chunk CRC table follows the frame */
    return at + 4 + wscap_table_bytes(wscap_get32(f + 8), wscap_get64(f + 24)) == n && m->nblocks > 1;
}

typedef enum place { FRAME_MAGIC, BLOCK_HEADER, BLOCK_DATA, CHECKSUM, CHUNK_TABLE } place;
typedef enum want { NO_FRAME, DAMAGED_BLOCK_HEADER, ENDS_EARLY, BLOCK_FAILS, CHECKSUM_FAILS, TABLE_FAILS } want;

static const struct flip {
    const char *name;
    place where;
    int block;        /* BLOCK_*: which block                          */
    int byte, bit;    /* byte from the place's start, bit in it         */
    want expect;
} flips[] = {
    { "frame magic", FRAME_MAGIC, 0, 0, 0, NO_FRAME },
    { "block type becomes the reserved 3", BLOCK_HEADER, 0, 0, 1, DAMAGED_BLOCK_HEADER },
    { "block size over 128 KiB", BLOCK_HEADER, 1, 2, 7, DAMAGED_BLOCK_HEADER },
    { "last-block flag on the first block", BLOCK_HEADER, 0, 0, 0, ENDS_EARLY },
    { "block 0's literals header", BLOCK_DATA, 0, 0, 0, BLOCK_FAILS },
    { "block 1's literals header", BLOCK_DATA, 1, 0, 0, BLOCK_FAILS },
    { "block 2's literals header", BLOCK_DATA, 2, 0, 0, BLOCK_FAILS },
    { "the last block's literals header", BLOCK_DATA, -1, 0, 0, BLOCK_FAILS },
    { "content checksum", CHECKSUM, 0, 3, 6, CHECKSUM_FAILS },
    { "chunk 2's CRC in the table", CHUNK_TABLE, 0, 8, 3, TABLE_FAILS },
};

static uint64_t flip_offset(const struct flip *t, const frame_map *m)
{
    size_t b = t->block < 0 ? m->nblocks - 1 : (size_t)t->block;
    switch (t->where) {
    case FRAME_MAGIC: return WSCAP_HEADER + (uint64_t)t->byte;
    case BLOCK_HEADER: return m->block_at[b] + (uint64_t)t->byte;
    case BLOCK_DATA: return m->block_at[b] + 3 + (uint64_t)t->byte;
    case CHECKSUM: return m->checksum_at + (uint64_t)t->byte;
    default: return m->checksum_at + 4 + (uint64_t)t->byte;
    }
}

/* What the refusal must say, from the map (block b: the flip's). */
static void expected_text(const struct flip *t, const frame_map *m, char *buf, size_t len)
{
    size_t b = t->block < 0 ? m->nblocks - 1 : (size_t)t->block;
    unsigned long long at = m->block_at[b], end = m->block_end[b];
    switch (t->expect) {
    case NO_FRAME:
        snprintf(buf, len, "corrupt body: no zstd frame header at file offset %d", WSCAP_HEADER);
        break;
    case DAMAGED_BLOCK_HEADER:
        snprintf(buf, len, "corrupt body: the zstd block header at file offset %llu is damaged", at);
        break;
    case ENDS_EARLY: /* the block is the last, its checksum follows */
        snprintf(buf, len, "corrupt body: the zstd frame ends at file offset %llu", end + 4);
        break;
    case BLOCK_FAILS:
        snprintf(buf, len, "corrupt body: zstd block %zu (compressed), %llu bytes at file offsets %llu-%llu, does not decode",
                 b, end - at, at, end - 1);
        break;
    case CHECKSUM_FAILS:
        snprintf(buf, len, "corrupt body: the zstd content checksum (file offsets %llu-%llu) does not match what the "
                 "frame's %zu blocks decode to", (unsigned long long)m->checksum_at,
                 (unsigned long long)m->checksum_at + 3, m->nblocks);
        break;
    case TABLE_FAILS:
        snprintf(buf, len, "corrupt chunk CRC table: its %zu CRCs at file offsets %llu-", m->nblocks,
                 (unsigned long long)m->checksum_at + 4);
        break;
    }
}

static void test_flips(const char *cube)
{
    size_t n;
    uint8_t *good = ws_test_read_file(cube, &n);
    frame_map m;
    CHECK(good && map_frame(good, n, &m));
    if (!good) return;
    uint8_t *copy = malloc(n);
    char path[512], err[1024], want_text[512];
    snprintf(path, sizeof path, "%s/flipped.wscap", workdir);
    for (size_t i = 0; i < sizeof flips / sizeof *flips; i++) {
        const struct flip *t = &flips[i];
        memcpy(copy, good, n);
        copy[flip_offset(t, &m)] ^= (uint8_t)(1u << t->bit);
        FILE *f = fopen(path, "wb");
        CHECK(f && fwrite(copy, 1, n, f) == n);
        if (f) fclose(f);
        ws_capture_reader *r = NULL;
        err[0] = 0;
        ws_status st = ws_capture_reader_open(path, &r, err, sizeof err);
        printf("%s (offset %llu): %s\n", t->name, (unsigned long long)flip_offset(t, &m), err);
        CHECK_EQ_U(st, WS_ERR_BAD_MODULE);
        CHECK(!r);
        CHECK(!strncmp(err, path, strlen(path)) && !strncmp(err + strlen(path), ": ", 2));
        expected_text(t, &m, want_text, sizeof want_text);
        CHECK_STR_CONTAINS(err, want_text);
        if (t->expect == BLOCK_FAILS && t->block) /* where its data goes */
            CHECK_STR_CONTAINS(err, "; its data starts at body offset ");
    }
    free(copy);
    free(good);
}

/* ---- 2. failure records the replay does not meet ---- */

typedef enum edit { RECORD_AFTER_CALL, RECORD_BEFORE_CALL, CHANGE_STATUS } edit;

static const struct record_case {
    const char *name;
    int faulting;        /* 1: the fault_frames capture, 0: the cube's     */
    edit how;
    ws_status status;    /* the record's status after the edit             */
} records[] = {
    { "a present recorded as failed", 0, RECORD_AFTER_CALL, WS_ERR_KERNEL_FAULT },
    { "a failure recorded before a call", 0, RECORD_BEFORE_CALL, WS_ERR_DEADLOCK },
    { "a fault recorded as an assert", 1, CHANGE_STATUS, WS_ERR_KERNEL_ASSERT },
};

static void put_failure(ws_capture_writer *w, int own, ws_status status, uint64_t call)
{
    wscap_buf p = { 0 };
    wscap_put_u32(&p, (uint32_t)own);
    wscap_put_u32(&p, (uint32_t)status);
    wscap_put_str(&p, own ? "ws_gfx_present" : "ws_free");
    wscap_put_str(&p, "recorded by the test");
    CHECK(!p.failed && ws_capture_writer_add(w, WSCAP_FAILURE, call, p.data, p.len) == WS_OK);
    wscap_buf_free(&p);
}

/* The id of the last API_CALL that is a present (the cube capture's last
 * frame end). */
static uint64_t last_present(ws_capture_reader *rd)
{
    uint64_t count = 0, id = UINT64_MAX;
    ws_capture_reader_count(rd, &count);
    for (uint64_t i = 0; i < count; i++) {
        ws_capture_section s;
        ws_capture_reader_section(rd, i, &s);
        if (s.type == WS_CAPTURE_API_CALL && s.size >= 4 && wscap_get32(s.data) == WSCAP_PRESENT) id = s.id;
    }
    return id;
}

/* Copy `in` to `out` with the case's edit; *call: the call it is about. */
static int write_edited(const char *in, const char *out, const struct record_case *c, uint64_t *call)
{
    char err[512];
    ws_capture_reader *rd = NULL;
    ws_capture_writer *w = NULL;
    if (ws_capture_reader_open(in, &rd, err, sizeof err) != WS_OK) { fprintf(stderr, "%s\n", err); return 0; }
    *call = c->faulting ? UINT64_MAX : last_present(rd);
    CHECK(ws_capture_writer_open(out, &w, err, sizeof err) == WS_OK);
    uint64_t count = 0;
    ws_capture_reader_count(rd, &count);
    int edited = 0;
    for (uint64_t i = 0; i < count && w; i++) {
        ws_capture_section s;
        ws_capture_reader_section(rd, i, &s);
        if (c->how == RECORD_BEFORE_CALL && s.type == WS_CAPTURE_API_CALL && s.id == *call) {
            put_failure(w, 0, c->status, *call);
            edited = 1;
        }
        if (c->how == CHANGE_STATUS && s.type == WSCAP_FAILURE && !edited) {
            uint8_t *p = malloc(s.size);
            memcpy(p, s.data, s.size);
            wscap_put32(p + 4, (uint32_t)c->status);
            CHECK(ws_capture_writer_add(w, s.type, s.id, p, s.size) == WS_OK);
            free(p);
            *call = s.id;
            edited = 1;
            continue;
        }
        CHECK(ws_capture_writer_add(w, s.type, s.id, s.data, s.size) == WS_OK);
        if (c->how == RECORD_AFTER_CALL && s.type == WS_CAPTURE_API_CALL && s.id == *call) {
            put_failure(w, 1, c->status, *call);
            edited = 1;
        }
    }
    CHECK(w && ws_capture_writer_close(w) == WS_OK);
    ws_capture_reader_close(rd);
    return edited;
}

/* Body offsets of call `call`'s section and of the failure record. */
static void offsets(const char *path, uint64_t call, uint64_t *call_at, uint64_t *record_at)
{
    char err[512];
    ws_capture_reader *rd = NULL;
    *call_at = *record_at = UINT64_MAX;
    if (ws_capture_reader_open(path, &rd, err, sizeof err) != WS_OK) return;
    ws_capture_section s;
    while (ws_capture_reader_next(rd, &s) == WS_OK) {
        if (s.type == WS_CAPTURE_API_CALL && s.id == call) *call_at = s.offset;
        if (s.type == WSCAP_FAILURE && *record_at == UINT64_MAX) *record_at = s.offset;
    }
    ws_capture_reader_close(rd);
}

static void test_records(const char *cube, const char *faulting)
{
    for (size_t i = 0; i < sizeof records / sizeof *records; i++) {
        const struct record_case *c = &records[i];
        char path[512], err[1024], want_text[512];
        snprintf(path, sizeof path, "%s/record%zu.wscap", workdir, i);
        uint64_t call = 0, call_at, record_at;
        CHECK(write_edited(c->faulting ? faulting : cube, path, c, &call));
        offsets(path, call, &call_at, &record_at);
        CHECK(call_at != UINT64_MAX && record_at != UINT64_MAX);
        ws_replay *r = NULL;
        CHECK(ws_replay_open(path, NULL, &r, err, sizeof err) == WS_OK);
        if (!r) { fprintf(stderr, "%s\n", err); continue; }
        ws_status st = ws_replay_run(r, 0, UINT64_MAX, NULL, NULL);
        const char *msg = ws_replay_error(r);
        printf("%s: %s\n", c->name, msg);
        CHECK(st != WS_OK);
        CHECK(!strncmp(msg, path, strlen(path)));
        snprintf(want_text, sizeof want_text, "expected: %s (the failure record at body offset %llu); found: %s)",
                 ws_status_name(c->status), (unsigned long long)record_at,
                 c->how == CHANGE_STATUS ? "WS_ERR_KERNEL_FAULT" : "WS_OK");
        CHECK_STR_CONTAINS(msg, want_text);
        char place[128];
        if (c->how == RECORD_BEFORE_CALL)
            snprintf(place, sizeof place, "before call %llu: ", (unsigned long long)call);
        else
            snprintf(place, sizeof place, "call %llu ws_gfx_present (body offset %llu): ",
                     (unsigned long long)call, (unsigned long long)call_at);
        CHECK_STR_CONTAINS(msg, place);
        ws_replay_close(r);
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s CUBE.wscap FAULT.wscap WORKDIR\n", argv[0]);
        return 2;
    }
    workdir = argv[3];
    test_flips(argv[1]);
    test_records(argv[1], argv[2]);
    return TEST_SUMMARY();
}
