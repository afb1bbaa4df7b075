/* The trace file's writer and reader (src/instrument/trace_file.c): a
 * trace with every field set comes back field for field, byte-identical
 * when written twice; cut or lying files are refused with the file's name;
 * with --large, a trace whose payload passes 2 GiB is written and read
 * back (the writer compresses as it goes, the reader has no fixed cap);
 * with --stream, a trace of tens of MB compressed is read in a child
 * process whose memory is measured: the reader streams the file (it read
 * the whole compressed file into memory first until 2026-11-27). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "instrument/trace_file.h"
#include "../rss.h"

static int failures, checks;

#define CHECK(cond, ...) do { checks++; if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); \
                                                   printf(__VA_ARGS__); printf("\n"); } } while (0)

static uint32_t next_rand(uint32_t *s) { *s = *s * 1664525u + 1013904223u; return *s >> 7; }

static char *dup_str(const char *s) { char *d = malloc(strlen(s) + 1); if (d) strcpy(d, s); return d; }

/* A launch with every table filled: nmem accesses over nthreads threads. */
static void make_launch(ws_trace_launch *L, uint32_t seed, uint64_t nmem, uint32_t flags)
{
    memset(L, 0, sizeof *L);
    L->kernel = dup_str("kernel_k");
    L->module = dup_str("/some/module.elf");
    L->note = dup_str(seed & 1 ? "" : "a note");
    L->launch_id = seed;
    L->grid = (ws_dim3){ 3, 2, 1 };
    L->block = (ws_dim3){ 64, 1, 1 };
    L->flags = flags;
    L->lanes_per_warp = 32;
    L->device_thread_instructions = 1000u + seed;
    L->device_loads = 7; L->device_stores = 8; L->device_atomics = 9;
    L->results_checked = 4096;
    L->nblocks = 3;
    L->blocks = calloc(3, sizeof *L->blocks);
    L->nmem_insts = 4;
    L->mem_insts = calloc(4, sizeof *L->mem_insts);
    L->counts = calloc(3, sizeof *L->counts);
    for (uint32_t i = 0; i < 3; i++) {
        L->blocks[i] = (ws_trace_block){ 0x1000 + 16 * i, 4, i == 2 ? 2 : 1, i, i == 0 ? 1 : -1, i == 0 ? 2 : -1,
                                         0x100c + 16 * i };
        L->counts[i] = 100 * (i + 1) + seed;
    }
    for (uint32_t i = 0; i < 4; i++)
        /* (i = 2: an atomic of 8 bytes, amocas.d) */
        L->mem_insts[i] = (ws_trace_mem_inst){ 0x1004 + 8 * i, i < 2 ? i : 2, (uint8_t)(1 + i % 3), i == 2 ? 8 : 4 };
    L->nthreads = 2;
    L->threads = calloc(2, sizeof *L->threads);
    L->nbb = 1000;
    L->bb = calloc(L->nbb, sizeof *L->bb);
    L->nmem = nmem;
    L->mem = calloc(nmem ? nmem : 1, sizeof *L->mem);
    L->threads[0] = (ws_trace_thread){ 5, 600, 0, 0, (uint32_t)(nmem / 2) };
    L->threads[1] = (ws_trace_thread){ 6, 400, 0, 0, (uint32_t)(nmem - nmem / 2) };
    uint32_t s = seed;
    for (uint64_t i = 0; i < L->nbb; i++) L->bb[i] = next_rand(&s) % 3;
    if (flags & WS_TRACE_VALUES) L->values = calloc(nmem ? nmem : 1, sizeof *L->values);
    for (uint64_t i = 0; i < nmem && seed; i++) { /* seed 0: all zero (the large case) */
        L->mem[i] = (ws_trace_access){ next_rand(&s) % 4, 0x2000000u + 4 * (next_rand(&s) % 65536) };
        if (L->values) L->values[i] = next_rand(&s);
    }
    if (flags & WS_TRACE_WARPS) {
        L->warp_counts = calloc(3, sizeof *L->warp_counts);
        for (uint32_t i = 0; i < 3; i++) L->warp_counts[i] = 10 + i;
        L->nwarp = 33;
        L->warps = calloc(L->nwarp, sizeof *L->warps);
        for (uint64_t i = 0; i < L->nwarp; i++) L->warps[i] = (ws_trace_warp_exec){ (uint32_t)i, 0xffffffffu >> (i % 32), (uint32_t)i % 3 };
    }
}

static int same_launch(const ws_trace_launch *a, const ws_trace_launch *b)
{
    return !strcmp(a->kernel, b->kernel) && !strcmp(a->module, b->module) && !strcmp(a->note, b->note) &&
           a->device == b->device && a->launch_number == b->launch_number && a->stage == b->stage && a->draw == b->draw &&
           a->launch_id == b->launch_id && !memcmp(&a->grid, &b->grid, sizeof a->grid) &&
           !memcmp(&a->block, &b->block, sizeof a->block) && a->flags == b->flags &&
           a->lanes_per_warp == b->lanes_per_warp && a->device_thread_instructions == b->device_thread_instructions &&
           a->device_loads == b->device_loads && a->device_stores == b->device_stores &&
           a->device_atomics == b->device_atomics && a->results_checked == b->results_checked &&
           a->nblocks == b->nblocks && !memcmp(a->blocks, b->blocks, a->nblocks * sizeof *a->blocks) &&
           a->nmem_insts == b->nmem_insts &&
           !memcmp(a->mem_insts, b->mem_insts, a->nmem_insts * sizeof *a->mem_insts) &&
           !memcmp(a->counts, b->counts, a->nblocks * sizeof *a->counts) && a->nthreads == b->nthreads &&
           a->threads[1].first_mem == a->threads[0].nmem && b->threads[1].first_mem == b->threads[0].nmem &&
           a->threads[0].gid == b->threads[0].gid && a->threads[1].nmem == b->threads[1].nmem &&
           a->nbb == b->nbb && !memcmp(a->bb, b->bb, a->nbb * sizeof *a->bb) && a->nmem == b->nmem &&
           !memcmp(a->mem, b->mem, a->nmem * sizeof *a->mem) &&
           (!(a->flags & WS_TRACE_VALUES) || !memcmp(a->values, b->values, a->nmem * sizeof *a->values)) &&
           (!(a->flags & WS_TRACE_WARPS) ||
            (!memcmp(a->warp_counts, b->warp_counts, a->nblocks * sizeof *a->warp_counts) && a->nwarp == b->nwarp &&
             !memcmp(a->warps, b->warps, a->nwarp * sizeof *a->warps)));
}

static void set_first(ws_trace_launch *L)
{
    L->threads[1].first_block = L->threads[0].nblocks;
    L->threads[1].first_mem = L->threads[0].nmem;
}

static uint8_t *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *d = malloc(len > 0 ? (size_t)len : 1);
    *n = d && len > 0 ? fread(d, 1, (size_t)len, f) : 0;
    fclose(f);
    return d;
}

static void round_trip(const char *dir)
{
    ws_trace t = { 2, calloc(2, sizeof(ws_trace_launch)), 3 }; /* (three devices, one traced nothing) */
    /* 300 000 accesses: the array goes to zstd directly, the small fields
     * through the staging buffer */
    make_launch(&t.launches[0], 11, 300000, WS_TRACE_COMPLETE | WS_TRACE_VALUES | WS_TRACE_WARPS);
    make_launch(&t.launches[1], 12, 777, WS_TRACE_COMPLETE);
    for (int i = 0; i < 2; i++) set_first(&t.launches[i]);
    t.launches[0].device = 1;
    t.launches[1].device = 3;
    t.launches[0].launch_number = 0x123456789ull; /* (64 bits, written since version 3) */
    t.launches[1].launch_number = 2;
    t.launches[1].stage = WS_TRACE_STAGE_FRAGMENT; /* (written since version 4) */
    t.launches[1].draw = 0xfedcba98u;
    char a[512], b[512], err[512];
    snprintf(a, sizeof a, "%s/a.wstrace", dir);
    snprintf(b, sizeof b, "%s/b.wstrace", dir);
    CHECK(wst_write(a, &t, err, sizeof err) == 0, "write: %s", err);
    CHECK(wst_write(b, &t, err, sizeof err) == 0, "write: %s", err);
    size_t na = 0, nb = 0;
    uint8_t *da = slurp(a, &na), *db = slurp(b, &nb);
    CHECK(da && db && na > 32 && na == nb && !memcmp(da, db, na), "the same trace written twice differs");
    ws_trace *r = NULL;
    CHECK(ws_trace_read(a, &r, err, sizeof err) == WS_OK, "read: %s", err);
    CHECK(r && r->nlaunches == 2 && r->ndevices == 3, "launches and devices read back");
    for (uint32_t i = 0; r && i < 2 && i < r->nlaunches; i++)
        CHECK(same_launch(&t.launches[i], &r->launches[i]), "launch %u differs after the round trip", i);
    ws_trace_free(r);
    /* a launch of a device the file does not have is refused */
    t.ndevices = 2;
    CHECK(wst_write(a, &t, err, sizeof err) == 0, "write: %s", err);
    r = NULL;
    CHECK(ws_trace_read(a, &r, err, sizeof err) == WS_ERR_BAD_MODULE && !r && strstr(err, "device 3 of 2"),
          "a launch of device 3 in a file of 2 devices: %s", err);
    t.ndevices = 3;
    /* a stage the format does not define is refused, with the launch named */
    t.launches[1].stage = 7;
    CHECK(wst_write(a, &t, err, sizeof err) == 0, "write: %s", err);
    r = NULL;
    CHECK(ws_trace_read(a, &r, err, sizeof err) == WS_ERR_BAD_MODULE && !r && strstr(err, "launch 12: stage 7"),
          "a launch of stage 7: %s", err);
    t.launches[1].stage = WS_TRACE_STAGE_FRAGMENT;

    /* Long strings: a module named with 5000 characters and a 20 000-byte
     * note read back as written (the reader refused strings over 4096
     * bytes, which the writer wrote: the program's own trace could not be
     * read); a name over WST_STRING_MAX is cut there, still readable. */
    {
        ws_trace s = { 1, calloc(1, sizeof(ws_trace_launch)), 1 };
        make_launch(&s.launches[0], 31, 100, WS_TRACE_COMPLETE);
        set_first(&s.launches[0]);
        const size_t lens[][2] = { { 5000, 20000 }, { WST_STRING_MAX + 10, 10 } };
        for (size_t k = 0; k < 2; k++) {
            ws_trace_launch *L = &s.launches[0];
            free(L->module);
            free(L->note);
            L->module = malloc(lens[k][0] + 1);
            L->note = malloc(lens[k][1] + 1);
            if (!L->module || !L->note) { CHECK(0, "out of memory"); break; }
            memset(L->module, 'm', lens[k][0]);
            L->module[lens[k][0]] = 0;
            memset(L->note, 'n', lens[k][1]);
            L->note[lens[k][1]] = 0;
            char c[512];
            snprintf(c, sizeof c, "%s/long.wstrace", dir);
            CHECK(wst_write(c, &s, err, sizeof err) == 0, "write: %s", err);
            r = NULL;
            CHECK(ws_trace_read(c, &r, err, sizeof err) == WS_OK, "read a %zu-byte module name back: %s", lens[k][0], err);
            if (k == 0)
                CHECK(r && r->nlaunches == 1 && same_launch(L, &r->launches[0]), "long strings differ after the round trip");
            else
                CHECK(r && r->nlaunches == 1 && strlen(r->launches[0].module) == WST_STRING_MAX &&
                          !strncmp(r->launches[0].module, L->module, WST_STRING_MAX),
                      "a module name over WST_STRING_MAX is not cut there");
            ws_trace_free(r);
        }
        wst_launch_free(&s.launches[0]);
        free(s.launches);
    }

    /* Arrays of half a staging buffer up to a whole one (512 KiB to 1 MiB)
     * went to zstd ahead of the small fields staged before them: the file
     * could not be read back (the reduction example's branch trace). */
    const uint64_t mid[] = { 65536, 90000, 130000 };
    for (size_t k = 0; k < sizeof mid / sizeof *mid; k++) {
        ws_trace m = { 1, calloc(1, sizeof(ws_trace_launch)), 1 };
        make_launch(&m.launches[0], 21 + (uint32_t)k, mid[k], WS_TRACE_COMPLETE | WS_TRACE_WARPS);
        set_first(&m.launches[0]);
        char c[512];
        snprintf(c, sizeof c, "%s/mid.wstrace", dir);
        CHECK(wst_write(c, &m, err, sizeof err) == 0, "write: %s", err);
        r = NULL;
        CHECK(ws_trace_read(c, &r, err, sizeof err) == WS_OK, "read %llu accesses back: %s", (unsigned long long)mid[k], err);
        CHECK(r && r->nlaunches == 1 && same_launch(&m.launches[0], &r->launches[0]),
              "a launch of %llu accesses differs after the round trip", (unsigned long long)mid[k]);
        ws_trace_free(r);
        wst_launch_free(&m.launches[0]);
        free(m.launches);
        remove(c);
    }

    /* A directory is a read error, not a file without a header (it said
     * "not a warpscope trace file (no WSTRACE header)"). */
    r = NULL;
    CHECK(ws_trace_read(dir, &r, err, sizeof err) == WS_ERR_IO && !r && strstr(err, "cannot read: Is a directory"),
          "a directory: %s", err);

    /* Cut anywhere: refused, naming the file. */
    const size_t cuts[] = { 0, 7, 31, 32, 40, na / 2, na - 1 };
    for (size_t k = 0; da && k < sizeof cuts / sizeof *cuts; k++) {
        r = NULL;
        err[0] = 0;
        ws_status st = ws_trace_read_memory(da, cuts[k], "cut.wstrace", &r, err, sizeof err);
        CHECK(st != WS_OK && !r && strstr(err, "cut.wstrace"), "cut at %zu: status %d, '%s'", cuts[k], st, err);
    }
    /* Cut inside the header: said to be truncated (a file of the right
     * start that ends early), not "not a warpscope trace file"; through a
     * file as through memory. */
    const size_t short_cuts[] = { 1, 7, 8, 31 };
    for (size_t k = 0; da && k < sizeof short_cuts / sizeof *short_cuts; k++) {
        char want[96], c[512];
        snprintf(want, sizeof want, "truncated: the file ends at offset %zu, inside the 32-byte header", short_cuts[k]);
        r = NULL;
        err[0] = 0;
        CHECK(ws_trace_read_memory(da, short_cuts[k], "cut.wstrace", &r, err, sizeof err) == WS_ERR_BAD_MODULE &&
              !r && strstr(err, want) && strstr(err, "cut.wstrace"), "cut at %zu: '%s'", short_cuts[k], err);
        snprintf(c, sizeof c, "%s/short.wstrace", dir);
        FILE *f = fopen(c, "wb");
        CHECK(f && fwrite(da, 1, short_cuts[k], f) == short_cuts[k] && !fclose(f), "cannot write %s", c);
        r = NULL;
        err[0] = 0;
        CHECK(ws_trace_read(c, &r, err, sizeof err) == WS_ERR_BAD_MODULE && !r && strstr(err, want),
              "file cut at %zu: '%s'", short_cuts[k], err);
        remove(c);
    }
    r = NULL;
    CHECK(ws_trace_read_memory(da, 0, "cut.wstrace", &r, err, sizeof err) == WS_ERR_BAD_MODULE &&
          strstr(err, "cut.wstrace: empty file (0 bytes)"), "empty: '%s'", err);
    /* A header that lies about the payload's size: refused before any
     * allocation of that size. */
    if (da) {
        uint64_t raw;
        memcpy(&raw, da + 16, 8);
        const uint64_t lies[] = { raw + 1, raw - 1, (uint64_t)1 << 40, UINT64_MAX };
        for (size_t k = 0; k < sizeof lies / sizeof *lies; k++) {
            uint8_t *c = malloc(na);
            memcpy(c, da, na);
            memcpy(c + 16, &lies[k], 8);
            r = NULL;
            err[0] = 0;
            ws_status st = ws_trace_read_memory(c, na, "lie.wstrace", &r, err, sizeof err);
            CHECK(st == WS_ERR_BAD_MODULE && !r && strstr(err, "lie.wstrace: corrupt"), "payload size %llu: status %d, '%s'",
                  (unsigned long long)lies[k], st, err);
            free(c);
        }
    }
    /* Bytes after the frame (counted in the header), and flipped bytes
     * inside it: refused. */
    if (da) {
        uint8_t *c = malloc(na + 5);
        memcpy(c, da, na);
        memcpy(c + na, "extra", 5);
        uint64_t zs = na + 5 - 32;
        memcpy(c + 24, &zs, 8);
        r = NULL;
        err[0] = 0;
        ws_status st = ws_trace_read_memory(c, na + 5, "tail.wstrace", &r, err, sizeof err);
        CHECK(st == WS_ERR_BAD_MODULE && !r && strstr(err, "tail.wstrace:"), "bytes after the frame: status %d, '%s'", st, err);
        memcpy(c, da, na);
        for (size_t at = 64; at < na; at += na / 7) {
            c[at] ^= 0x5a;
            r = NULL;
            err[0] = 0;
            st = ws_trace_read_memory(c, na, "flip.wstrace", &r, err, sizeof err);
            CHECK(st == WS_ERR_BAD_MODULE && !r && strstr(err, "flip.wstrace:"), "byte %zu flipped: status %d, '%s'", at, st, err);
            c[at] ^= 0x5a;
        }
        free(c);
    }
    free(da);
    free(db);
    for (uint32_t i = 0; i < 2; i++) wst_launch_free(&t.launches[i]);
    free(t.launches);
    remove(a);
    remove(b);
}

/* 300 M accesses, 2.4 GB of payload: more than the 2 GiB the writer
 * refused before it compressed as it went. */
static void large(const char *dir)
{
    ws_trace t = { 1, calloc(1, sizeof(ws_trace_launch)), 1 };
    const uint64_t n = 300000000;
    make_launch(&t.launches[0], 0, n, WS_TRACE_COMPLETE);
    set_first(&t.launches[0]);
    char a[512], err[512];
    snprintf(a, sizeof a, "%s/large.wstrace", dir);
    CHECK(wst_write(a, &t, err, sizeof err) == 0, "write: %s", err);
    ws_trace *r = NULL;
    CHECK(ws_trace_read(a, &r, err, sizeof err) == WS_OK, "read: %s", err);
    CHECK(r && r->nlaunches == 1 && r->launches[0].nmem == n && same_launch(&t.launches[0], &r->launches[0]),
          "the large launch differs after the round trip");
    ws_trace_free(r);
    wst_launch_free(&t.launches[0]);
    free(t.launches);
    remove(a);
}

/* Read `path` in a child: 0 when the records are t's and the reader's
 * memory grew by less than the records plus half the compressed file. */
static int read_in_child(const char *path, const ws_trace *t, uint64_t raw_kib, uint64_t z_kib)
{
    pid_t pid = fork();
    if (pid == 0) {
        long before = ws_rss_kib();
        ws_trace *r = NULL;
        char err[512];
        int ok = ws_trace_read(path, &r, err, sizeof err) == WS_OK && r && r->nlaunches == 1 &&
                 same_launch(&t->launches[0], &r->launches[0]);
        if (!ok) printf("FAIL: the streamed trace does not read back as written: %s\n", err);
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        long grew = ru.ru_maxrss - before;
        printf("reading %llu KiB compressed into %llu KiB of records: the reader grew by %ld KiB\n",
               (unsigned long long)z_kib, (unsigned long long)raw_kib, grew);
        if ((uint64_t)grew > raw_kib + z_kib / 2) {
            printf("FAIL: the reader holds the compressed file in memory (grew by %ld KiB)\n", grew);
            ok = 0;
        }
        ws_trace_free(r);
        fflush(stdout);
        _exit(ok ? 0 : 1);
    }
    int status = 0;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

/* Many accesses with store values, little of them compressible: tens of
 * MB of compressed file, far more than the reader's input buffer. */
static void stream(const char *dir)
{
    ws_trace t = { 1, calloc(1, sizeof(ws_trace_launch)), 1 };
    const uint64_t n = 6000000;
    make_launch(&t.launches[0], 77, n, WS_TRACE_COMPLETE | WS_TRACE_VALUES);
    set_first(&t.launches[0]);
    char a[512], err[512];
    snprintf(a, sizeof a, "%s/stream.wstrace", dir);
    CHECK(wst_write(a, &t, err, sizeof err) == 0, "write: %s", err);
    struct stat sb;
    CHECK(stat(a, &sb) == 0 && sb.st_size > (8 << 20), "the compressed trace is only %lld bytes", (long long)sb.st_size);
    uint64_t raw_kib = n * (sizeof(ws_trace_access) + sizeof(uint32_t)) / 1024;
    fflush(stdout);
    CHECK(read_in_child(a, &t, raw_kib, (uint64_t)sb.st_size / 1024) == 0, "streaming read");
    /* through a pipe (no size known first): read as it comes, and a cut
     * one refused as truncated */
    char fifo[512];
    snprintf(fifo, sizeof fifo, "%s/stream.fifo", dir);
    for (int cut = 0; cut < 2; cut++) {
        remove(fifo);
        CHECK(mkfifo(fifo, 0600) == 0, "mkfifo");
        fflush(stdout);
        pid_t w = fork();
        if (w == 0) {
            FILE *in = fopen(a, "rb"), *out = fopen(fifo, "wb");
            static char buf[1 << 16];
            size_t k, left = cut ? (size_t)sb.st_size - 1000 : (size_t)sb.st_size;
            while (in && out && left && (k = fread(buf, 1, left < sizeof buf ? left : sizeof buf, in)) > 0) {
                fwrite(buf, 1, k, out);
                left -= k;
            }
            if (out) fclose(out);
            if (in) fclose(in);
            _exit(0);
        }
        ws_trace *r = NULL;
        ws_status st = ws_trace_read(fifo, &r, err, sizeof err);
        if (!cut)
            CHECK(st == WS_OK && r && same_launch(&t.launches[0], &r->launches[0]), "read from a pipe: %s", err);
        else
            CHECK(st == WS_ERR_BAD_MODULE && !r && strstr(err, "stream.fifo: truncated"), "a cut pipe: %d '%s'", st, err);
        ws_trace_free(r);
        int status;
        waitpid(w, &status, 0);
    }
    remove(fifo);
    wst_launch_free(&t.launches[0]);
    free(t.launches);
    remove(a);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_trace_file DIR [--large]\n");
        return 2;
    }
    mkdir(argv[1], 0777);
    round_trip(argv[1]);
    for (int i = 2; i < argc; i++) {
        if (!strcmp(argv[i], "--large")) large(argv[1]);
        if (!strcmp(argv[i], "--stream")) stream(argv[1]);
    }
    printf("%d passed, %d failed\n", checks - failures, failures);
    return failures ? 1 : 0;
}
