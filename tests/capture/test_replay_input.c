/* The replayer on captures written here, call by call, with the codec
 * (src/capture/capture_calls.h): a good compute frame replays with the
 * digest its data implies, in every pass; each kind of bad capture is
 * refused with a message that names the call or section.
 *   argv[1] = vecadd_kernel.elf, argv[2] = a scratch directory */
#include <stdint.h>
#include <sys/stat.h>
#include "../rss.h"
#include "../capture_builder.h"
#include "../test.h"
#include "capture/capture_calls.h"
#include "capture/capture_file.h"
#include "capture/replayer.h"
#include "warpscope/tool.h"

#define N 1000
#define BASE (WS_GLOBAL_BASE + 0x200000u)

static const char *dir;
static unsigned char *elf;
static size_t elf_size;

static void open_builder(builder *b, const char *path)
{
    memset(b, 0, sizeof *b);
    CHECK(ws_capture_writer_open(path, &b->w, b->err, sizeof b->err) == WS_OK);
    ws_config cfg;
    ws_config_default(&cfg);
    wscap_buf p = { 0 };
    wscap_put_config(&p, &cfg);
    ws_capture_writer_add(b->w, WS_CAPTURE_DEVICE_CONFIG, 0, p.data, p.len);
    wscap_buf_free(&p);
}

static void put_launch(builder *b, uint32_t kernel, int truncate, uint32_t out)
{
    wscap_buf p = call(WSCAP_LAUNCH);
    wscap_put_u32(&p, kernel);
    uint32_t shape[] = { (N + 127) / 128, 1, 1, 128, 1, 1, 0 };
    for (int i = 0; i < 7; i++) wscap_put_u32(&p, shape[i]);
    wscap_put_u32(&p, 4);
    uint32_t ptr[] = { BASE, BASE + 0x2000, out };
    for (int i = 0; i < 3; i++) { wscap_put_u32(&p, WS_TYPE_PTR); wscap_put_u64(&p, ptr[i]); }
    if (!truncate) { wscap_put_u32(&p, WS_TYPE_I32); wscap_put_u64(&p, N); }
    add_call(b, &p);
}

/* vecadd's frame: load, look up, three buffers, two uploads, a launch, a
 * read back. `bad` picks one defect. Returns the digest of a correct run. */
enum { GOOD, BAD_ELF, NEWER_CALL, TRUNCATED, UNKNOWN_KERNEL, COLLISION, FAULT_AT_DESTROY, HUGE_READ, BAD_TEXTURE,
       FAULT_RECORDED, FAILURE_NOT_MET, FAILURE_MISPLACED, FAILURE_LATER, HIGH_IDS, SHORT_FRAME_END, SHORT_MODULE };
static void add_failure(builder *b, int own, uint64_t id)
{
    wscap_buf p = { 0 };
    wscap_put_u32(&p, (uint32_t)own);
    wscap_put_u32(&p, WS_ERR_KERNEL_FAULT);
    wscap_put_str(&p, "ws_gfx_target_destroy");
    wscap_put_str(&p, "store access fault ...");
    add(b, WSCAP_FAILURE, id, &p);
}

static uint64_t write_vecadd(const char *path, int bad)
{
    builder b;
    open_builder(&b, path);
    wscap_buf p = { 0 };
    const int records = bad == FAULT_RECORDED || bad == FAILURE_NOT_MET || bad == FAILURE_MISPLACED ||
                        bad == FAILURE_LATER;
    if (records) { /* a capture that records its failures (GFX_STATE says so) */
        wscap_gfx_state g;
        memset(&g, 0, sizeof g);
        g.records_failures = 1;
        wscap_put_gfx_state(&p, &g);
        add(&b, WS_CAPTURE_GFX_STATE, 0, &p);
    }
    if (bad == FAULT_RECORDED) bad = FAULT_AT_DESTROY;
    if (bad == BAD_TEXTURE) { /* initial state: a texture wider than any */
        for (uint32_t i = 0, v[] = { 16384, 8, 0 }; i < 3; i++) wscap_put_u32(&p, v[i]);
        add(&b, WS_CAPTURE_TEXTURE, 5, &p);
    }
    wscap_put_u64(&p, 0);
    wscap_put_u32(&p, WSCAP_FRAME_SYNC);
    add(&b, WS_CAPTURE_FRAME_BEGIN, 0, &p);
    /* ids count every object the program made: a frame late in a long
     * run names high ones (HIGH_IDS: near the limit of 2^20) */
    const uint32_t module = bad == HIGH_IDS ? 1000000 : 1, kernel = module + 1;
    p = call(WSCAP_MODULE_LOAD);
    wscap_put_u32(&p, module);
    wscap_put_str(&p, "vecadd_kernel.elf");
    wscap_put_u32(&p, BASE + 0x20000);
    unsigned char *img = malloc(elf_size);
    memcpy(img, elf, elf_size);
    if (bad == BAD_ELF) memcpy(img, "JUNK", 4);
    if (bad == SHORT_MODULE) wscap_put_u64(&p, elf_size); /* the image's length, not its bytes */
    else wscap_put_blob(&p, img, elf_size);
    free(img);
    add_call(&b, &p);
    p = call(WSCAP_KERNEL_GET);
    wscap_put_u32(&p, kernel);
    wscap_put_u32(&p, module);
    wscap_put_str(&p, "vecadd");
    add_call(&b, &p);
    float a[N], bb[N], c[N];
    for (int i = 0; i < N; i++) { a[i] = (float)i * 0.5f; bb[i] = 1000.0f - (float)i; c[i] = a[i] + bb[i]; }
    for (uint32_t k = 0; k < 3; k++) {
        p = call(WSCAP_MALLOC);
        wscap_put_u64(&p, sizeof a);
        wscap_put_u32(&p, bad == COLLISION && k == 2 ? BASE + 0x2000 : BASE + k * 0x2000);
        add_call(&b, &p);
    }
    p = call(WSCAP_HTOD);
    wscap_put_u32(&p, BASE);
    wscap_put_blob(&p, a, sizeof a);
    add_call(&b, &p);
    p = call(WSCAP_HTOD);
    wscap_put_u32(&p, BASE + 0x2000);
    wscap_put_blob(&p, bb, sizeof bb);
    add_call(&b, &p);
    if (bad == FAULT_AT_DESTROY) { /* a target made, the launch faults, the destroy waits for it */
        p = call(WSCAP_TARGET_CREATE);
        for (uint32_t i = 0, v[] = { 3, 4, 4, 0 }; i < 4; i++) wscap_put_u32(&p, v[i]);
        add_call(&b, &p);
    }
    put_launch(&b, bad == UNKNOWN_KERNEL ? 77 : kernel, bad == TRUNCATED,
               bad == FAULT_AT_DESTROY || bad == FAILURE_LATER ? 0x10 : BASE + 0x4000);
    if (bad == FAULT_AT_DESTROY) {
        p = call(WSCAP_TARGET_DESTROY);
        wscap_put_u32(&p, 3);
        add_call(&b, &p);
        if (records) add_failure(&b, 1, b.calls - 1); /* the program's destroy reported the fault */
    }
    if (bad == FAILURE_MISPLACED) add_failure(&b, 1, 2);
    if (bad == NEWER_CALL) {
        p = call(200);
        add_call(&b, &p);
    }
    p = call(WSCAP_DTOH);
    wscap_put_u32(&p, BASE + 0x4000);
    wscap_put_u64(&p, bad == HUGE_READ ? 1ull << 44 : sizeof c);
    add_call(&b, &p);
    if (bad == FAILURE_NOT_MET) add_failure(&b, 1, b.calls - 1);
    if (bad == FAILURE_LATER) { /* a failure recorded at a later wait than the read back */
        p = call(WSCAP_SYNCHRONIZE);
        add_call(&b, &p);
        add_failure(&b, 1, b.calls - 1);
    }
    uint64_t h = WSCAP_DIGEST_INIT;
    h = wscap_digest_alloc(h, BASE, sizeof a, a);
    h = wscap_digest_alloc(h, BASE + 0x2000, sizeof bb, bb);
    h = wscap_digest_alloc(h, BASE + 0x4000, sizeof c, c);
    wscap_put_u64(&p, 0);
    if (bad != SHORT_FRAME_END) wscap_put_u64(&p, h);
    add(&b, WS_CAPTURE_FRAME_END, 0, &p);
    CHECK(ws_capture_writer_close(b.w) == WS_OK);
    return h;
}

static void good(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/good.wscap", dir);
    uint64_t want = write_vecadd(path, GOOD), got = 0, captured = 0;
    ws_replay *r;
    char err[1024];
    CHECK(ws_replay_open(path, NULL, &r, err, sizeof err) == WS_OK);
    if (!r) { fprintf(stderr, "%s\n", err); return; }
    CHECK_EQ_U(ws_replay_call_count(r), 9);
    CHECK(ws_replay_captured_hash(r, &captured) == WS_OK);
    CHECK_EQ_U(captured, want);
    for (int pass = 0; pass < 3; pass++) {
        if (pass) CHECK(ws_replay_restore(r) == WS_OK);
        CHECK(ws_replay_run(r, 0, UINT64_MAX, NULL, NULL) == WS_OK);
        CHECK(ws_replay_hash(r, &got) == WS_OK);
        CHECK_EQ_U(got, want);
    }
    ws_replay_call_info info;
    CHECK(ws_replay_describe_call(r, 7, &info) == WS_OK);
    CHECK_STR_CONTAINS(info.text, "ws_launch(vecadd, grid (8,1,1), block (128,1,1), shared 0, 0x");
    CHECK(info.kind == WS_REPLAY_CALL_LAUNCH);
    CHECK(ws_replay_describe_call(r, 9, &info) == WS_ERR_NOT_FOUND);
    /* the restore frees what the frame allocated: the next pass can malloc_at again */
    size_t n = 99;
    CHECK(ws_replay_restore(r) == WS_OK);
    CHECK(ws_replay_buffers(r, NULL, NULL, 0, &n) == WS_OK);
    CHECK_EQ_U(n, 0);
    ws_replay_close(r);
    /* a bad setting given for the replay is named as the user's, not the capture's */
    ws_replay_options bad = { .config = "cores=0" };
    r = NULL;
    err[0] = 0;
    CHECK(ws_replay_open(path, &bad, &r, err, sizeof err) == WS_ERR_INVALID_ARG && !r);
    CHECK_STR_CONTAINS(err, "configuration \"cores=0\": cores=0: must be 1..256");
    if (strstr(err, "captured")) {
        fprintf(stderr, "FAIL: a --config setting blamed on the capture: %s\n", err);
        CHECK(0);
    }
}

/* A frame whose objects have ids near the limit replays as well, and the
 * replayer's table of ids costs a pointer per id, not an object: it cost
 * 912 bytes per id, so these two objects took 0.9 GB. */
static void high_ids(void)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/high_ids.wscap", dir);
    uint64_t want = write_vecadd(path, HIGH_IDS), got = 0;
    ws_replay *r = NULL;
    const long before = ws_rss_kib();
    CHECK(ws_replay_open(path, NULL, &r, err, sizeof err) == WS_OK);
    if (!r) { fprintf(stderr, "%s\n", err); return; }
    const long grew = ws_rss_kib() - before;
    if (grew > 64 * 1024) fprintf(stderr, "FAIL: opening a capture with ids near 10^6 grew the RSS by %ld KiB\n", grew);
    CHECK(grew <= 64 * 1024);
    CHECK(ws_replay_run(r, 0, UINT64_MAX, NULL, NULL) == WS_OK);
    CHECK(ws_replay_hash(r, &got) == WS_OK);
    CHECK_EQ_U(got, want);
    ws_replay_call_info info;
    CHECK(ws_replay_describe_call(r, 1, &info) == WS_OK);
    CHECK_STR_CONTAINS(info.text, "1000001");
    ws_replay_close(r);
}

/* The same fault, in a capture that records it where the program met it
 * (a WSCAP_FAILURE section after the destroy): the replay meets it there,
 * lists it and goes on to the read back. */
static void recorded_fault(void)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/fault_recorded.wscap", dir);
    write_vecadd(path, FAULT_RECORDED);
    ws_replay *r = NULL;
    CHECK(ws_replay_open(path, NULL, &r, err, sizeof err) == WS_OK);
    if (!r) { fprintf(stderr, "%s\n", err); return; }
    CHECK(ws_replay_records_failures(r));
    for (int pass = 0; pass < 2; pass++) {
        if (pass) CHECK(ws_replay_restore(r) == WS_OK);
        CHECK(ws_replay_run(r, 0, UINT64_MAX, NULL, NULL) == WS_OK);
        const ws_replay_failure *m = NULL;
        size_t n = 0;
        CHECK(ws_replay_failures(r, &m, &n) == WS_OK);
        CHECK_EQ_U(n, 1);
        if (n == 1) {
            CHECK_EQ_U(m[0].call, 9);
            CHECK(m[0].own && m[0].status == WS_ERR_KERNEL_FAULT);
            CHECK_STR_CONTAINS(m[0].report, "null pointer");
            CHECK_STR_CONTAINS(m[0].report, "kernel 'vecadd'");
        }
    }
    ws_replay_close(r);
}

/* A tool waits after the launch and meets its fault; the capture records
 * a failure, but at a call after the read back, which would have reported
 * this one: the wait must not take it for the recorded one (and skip the
 * work up to there). */
static int wait_after_launch(void *user, ws_replay *r, uint64_t index)
{
    if (index == 7) *(ws_status *)user = ws_replay_wait(r);
    return 0;
}

static void failure_later(void)
{
    char path[1024], err[1024];
    snprintf(path, sizeof path, "%s/failure_later.wscap", dir);
    write_vecadd(path, FAILURE_LATER);
    ws_replay *r = NULL;
    CHECK(ws_replay_open(path, NULL, &r, err, sizeof err) == WS_OK);
    if (!r) { fprintf(stderr, "%s\n", err); return; }
    ws_status waited = WS_OK;
    CHECK(ws_replay_run(r, 0, UINT64_MAX, wait_after_launch, &waited) != WS_OK);
    CHECK(waited == WS_ERR_KERNEL_FAULT);
    ws_replay_close(r);
}

/* ws_tool_hand_back: a failure a tool met while waiting is the program's
 * again: its next wait reports it, and the work queued since is discarded
 * (the capture shim hands back a fault its read-back at the end of a range
 * of launches met). */
static void hand_back(void)
{
    ws_device *dev = NULL;
    ws_module *m = NULL;
    ws_kernel *k = NULL;
    ws_addr buf = 0;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    if (!dev) return;
    CHECK(ws_module_load_data(dev, elf, elf_size, "vecadd", &m) == WS_OK && ws_kernel_get(m, "vecadd", &k) == WS_OK);
    CHECK(ws_malloc(dev, 4096, &buf) == WS_OK);
    ws_arg args[] = { WS_ARG_PTR(buf), WS_ARG_PTR(buf), WS_ARG_PTR(0x10), WS_ARG_I32(N) };
    CHECK(ws_launch(dev, k, (ws_dim3){ 1, 1, 1 }, (ws_dim3){ 32, 1, 1 }, 0, args, 4) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_ERR_KERNEL_FAULT); /* the tool's wait */
    char report[1024];
    snprintf(report, sizeof report, "%s", ws_last_error(dev));
    CHECK(ws_tool_hand_back(dev, WS_ERR_KERNEL_FAULT, report) == WS_OK);
    CHECK(ws_memset(dev, buf, 7, 4096) == WS_OK); /* queued after the failure: discarded */
    CHECK(ws_synchronize(dev) == WS_ERR_KERNEL_FAULT);
    CHECK_STR_CONTAINS(ws_last_error(dev), "null pointer");
    CHECK(ws_synchronize(dev) == WS_OK); /* reported once */
    unsigned char b[4] = { 1, 1, 1, 1 };
    CHECK(ws_memcpy_dtoh(dev, b, buf, 4) == WS_OK);
    CHECK(b[0] == 0 && b[3] == 0);
    CHECK(ws_tool_hand_back(dev, WS_OK, "no") == WS_ERR_INVALID_ARG);
    /* a failure needs its report: refused without one, and nothing is
     * handed back (until 2026-11-29 it was taken, and the next wait
     * reported a fault whose whole message was "WS_ERR_KERNEL_FAULT") */
    CHECK(ws_tool_hand_back(dev, WS_ERR_KERNEL_FAULT, NULL) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_tool_hand_back(WS_ERR_KERNEL_FAULT): report is NULL; pass the "
                       "failure's message");
    CHECK(ws_tool_hand_back(dev, WS_ERR_DEADLOCK, "") == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "report is empty");
    CHECK(ws_synchronize(dev) == WS_OK);
    ws_device_close(dev);
}

/* Open (and run) a bad capture: the message must contain `expect`. */
static void refused(int bad, const char *name, const char *expect)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s.wscap", dir, name);
    write_vecadd(path, bad);
    ws_replay *r = NULL;
    char err[1024] = "";
    ws_status st = ws_replay_open(path, NULL, &r, err, sizeof err);
    if (st == WS_OK) {
        st = ws_replay_run(r, 0, UINT64_MAX, NULL, NULL);
        snprintf(err, sizeof err, "%s", ws_replay_error(r));
        ws_replay_close(r);
    }
    CHECK(st != WS_OK);
    CHECK_STR_CONTAINS(err, expect);
    CHECK_STR_CONTAINS(err, path);
    if (bad == FAULT_AT_DESTROY && strstr(err, "restoring the initial state")) {
        fprintf(stderr, "FAIL: a call's error given as the restore's: %s\n", err);
        CHECK(0);
    }
}

/* Where section (type, id) of a capture lies: body offset of its header,
 * and of its payload's end. */
static uint64_t section_at(const char *path, uint32_t type, uint64_t id, uint64_t *payload_end)
{
    ws_capture_reader *rd = NULL;
    char err[512];
    CHECK(ws_capture_reader_open(path, &rd, err, sizeof err) == WS_OK);
    ws_capture_section sec;
    uint64_t at = UINT64_MAX;
    while (rd && ws_capture_reader_next(rd, &sec) == WS_OK)
        if (sec.type == type && sec.id == id) {
            at = sec.offset;
            *payload_end = sec.offset + 24 + sec.size;
            break;
        }
    if (rd) ws_capture_reader_close(rd);
    CHECK(at != UINT64_MAX);
    return at;
}

/* Every refusal of a damaged capture names where the damage is: the body
 * offset of the section at fault, or of the field that runs past its
 * section's end. The offsets come from the reader, not from this table. */
static void refusals_name_offsets(void)
{
    enum { SECTION, FIELD_AT_END };
    static const struct {
        int bad;
        const char *name;
        uint32_t type;
        uint64_t id;
        int where;
    } cases[] = {
        { BAD_ELF, "off_bad_elf", WS_CAPTURE_API_CALL, 0, SECTION },
        { NEWER_CALL, "off_newer_call", WS_CAPTURE_API_CALL, 8, SECTION },
        { TRUNCATED, "off_truncated", WS_CAPTURE_API_CALL, 7, FIELD_AT_END },
        { UNKNOWN_KERNEL, "off_unknown_kernel", WS_CAPTURE_API_CALL, 7, SECTION },
        { COLLISION, "off_collision", WS_CAPTURE_API_CALL, 4, SECTION },
        { HUGE_READ, "off_huge_read", WS_CAPTURE_API_CALL, 8, SECTION },
        { FAILURE_MISPLACED, "off_failure_misplaced", WSCAP_FAILURE, 2, SECTION },
        { FAILURE_NOT_MET, "off_failure_not_met", WS_CAPTURE_API_CALL, 8, SECTION },
        { BAD_TEXTURE, "off_bad_texture", WS_CAPTURE_TEXTURE, 5, SECTION },
        { SHORT_FRAME_END, "off_short_frame_end", WS_CAPTURE_FRAME_END, 0, FIELD_AT_END },
        { SHORT_MODULE, "off_short_module", WS_CAPTURE_API_CALL, 0, FIELD_AT_END },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[1024], expect[96];
        snprintf(path, sizeof path, "%s/%s.wscap", dir, cases[i].name);
        write_vecadd(path, cases[i].bad);
        uint64_t end = 0, at = section_at(path, cases[i].type, cases[i].id, &end);
        snprintf(expect, sizeof expect, cases[i].where == SECTION ? "body offset %llu" : "field at body offset %llu",
                 (unsigned long long)(cases[i].where == SECTION ? at : end));
        refused(cases[i].bad, cases[i].name, expect);
    }
}

/* A real capture file damaged by truncation or a changed byte: the
 * reader's refusal names the file offset of the damage. */
static void damaged_file_names_offsets(void)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/good.wscap", dir);
    size_t n;
    unsigned char *file = ws_test_read_file(path, &n);
    CHECK(file && n > 64);
    if (!file || n <= 64) { free(file); return; }
    unsigned char *bad = malloc(n + 1);
    static const struct { const char *how; size_t at; int value; const char *expect; } cases[] = {
        { "cut", 30, 0, "offset 30" },          /* inside the header        */
        { "cut", 0, -1, "offset %zu" },         /* body cut by one byte     */
        { "set", 8, 9, "offset 8" },            /* a newer format version   */
        { "set", 12, 4, "offset 12" },          /* a flag (header CRC too)  */
        { "set", 20, 0x40, "offset 44" },       /* the count: the header CRC */
        { "set", 0, -1, "file offsets " },      /* a byte of the zstd frame */
        { "add", 0, 0, "offset %zu" },          /* one byte after the body  */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        memcpy(bad, file, n);
        size_t len = n, at = cases[i].at;
        char expect[64];
        if (!strcmp(cases[i].how, "cut")) {
            len = cases[i].value < 0 ? n - 1 : at;
            snprintf(expect, sizeof expect, cases[i].expect, len);
        } else if (!strcmp(cases[i].how, "add")) {
            bad[len++] = 0;
            snprintf(expect, sizeof expect, cases[i].expect, n);
        } else {
            if (cases[i].value < 0) bad[n - 10] ^= 0x10;
            else bad[at] = (unsigned char)cases[i].value;
            if (at == 12) { /* a valid header CRC over the flag: the flag itself is refused */
                uint32_t crc = wscap_crc32(0, bad, 44);
                for (int k = 0; k < 4; k++) bad[44 + k] = (unsigned char)(crc >> (8 * k));
            }
            snprintf(expect, sizeof expect, "%s", cases[i].expect);
        }
        ws_replay *r = NULL;
        char err[1024] = "";
        CHECK(ws_replay_open_memory(bad, len, "damaged.wscap", NULL, &r, err, sizeof err) != WS_OK && !r);
        CHECK_STR_CONTAINS(err, "damaged.wscap: ");
        CHECK_STR_CONTAINS(err, expect);
    }
    free(bad);
    free(file);
}

/* The fuzz seed (fuzz/replay_capture/corpus): a one-launch frame of the
 * compact module fuzz/module/corpus/seed_g (kernel seed_a(int *out, int n)),
 * behind the byte that makes the fuzz target read it as a whole file. */
static int write_seed(const char *module, const char *out)
{
    size_t n;
    unsigned char *img = ws_test_read_file(module, &n);
    char tmp[1200];
    snprintf(tmp, sizeof tmp, "%s.tmp", out);
    builder b;
    open_builder(&b, tmp);
    wscap_buf p = call(WSCAP_MODULE_LOAD);
    wscap_put_u32(&p, 1);
    wscap_put_str(&p, "seed_g");
    wscap_put_u32(&p, BASE + 0x20000);
    wscap_put_blob(&p, img, n);
    add_call(&b, &p);
    p = call(WSCAP_KERNEL_GET);
    wscap_put_u32(&p, 2);
    wscap_put_u32(&p, 1);
    wscap_put_str(&p, "seed_a");
    add_call(&b, &p);
    p = call(WSCAP_MALLOC);
    wscap_put_u64(&p, 64);
    wscap_put_u32(&p, BASE);
    add_call(&b, &p);
    p = call(WSCAP_LAUNCH);
    uint32_t f[] = { 2, 1, 1, 1, 1, 1, 1, 0, 2, WS_TYPE_PTR };
    for (int i = 0; i < 10; i++) wscap_put_u32(&p, f[i]);
    wscap_put_u64(&p, BASE);
    wscap_put_u32(&p, WS_TYPE_I32);
    wscap_put_u64(&p, 3);
    add_call(&b, &p);
    p = call(WSCAP_SYNCHRONIZE);
    add_call(&b, &p);
    CHECK(ws_capture_writer_close(b.w) == WS_OK);
    free(img);
    size_t len;
    unsigned char *file = ws_test_read_file(tmp, &len);
    FILE *f2 = fopen(out, "wb");
    CHECK(file && f2 && fputc(1, f2) == 1 && fwrite(file, 1, len, f2) == len);
    if (f2) fclose(f2);
    free(file);
    remove(tmp);
    return TEST_SUMMARY();
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "seed")) return write_seed(argv[2], argv[3]);
    if (argc != 3) { fprintf(stderr, "usage: test_replay_input KERNEL.elf DIR | seed MODULE OUT\n"); return 2; }
    dir = argv[2];
    mkdir(dir, 0777);
    elf = ws_test_read_file(argv[1], &elf_size);
    CHECK(elf != NULL);
    if (!elf) return TEST_SUMMARY();
    good();
    high_ids();
    refused(BAD_ELF, "bad_elf", "call 0 ws_module_load");
    refused(NEWER_CALL, "newer_call", "newer Warpscope");
    refused(TRUNCATED, "truncated", "call 7 ws_launch");
    refused(UNKNOWN_KERNEL, "unknown_kernel", "kernel 77");
    refused(COLLISION, "collision", "call 4 ws_malloc (body offset ");
    refused(COLLISION, "collision", "ws_malloc_at(0x");
    /* a recorded destroy reports the fault it waited for in its own name
     * (it said "restoring the initial state: destroying an object the
     * frame created", as if the restore had failed) */
    refused(FAULT_AT_DESTROY, "fault_at_destroy", "call 9 ws_gfx_target_destroy (body offset ");
    refused(FAULT_AT_DESTROY, "fault_at_destroy", "fault");
    /* that capture does not record its failures (written before they
     * were): the replay cannot go past the fault, and says why */
    refused(FAULT_AT_DESTROY, "fault_at_destroy", "the capture predates recorded failures");
    recorded_fault();
    failure_later();
    hand_back();
    /* a recorded failure the replay does not meet; a record out of place */
    refused(FAILURE_NOT_MET, "failure_not_met", "ws_memcpy_dtoh (body offset ");
    refused(FAILURE_NOT_MET, "failure_not_met", "the captured call failed, the replay's did not (expected: "
            "WS_ERR_KERNEL_FAULT (the failure record at body offset ");
    refused(FAILURE_MISPLACED, "failure_misplaced", "a failure record for call 2 (status");
    /* a read back larger than any device memory: refused before a host
     * buffer of that size is asked for (it was asked for, and the error
     * was the device's last, unrelated message, or none) */
    /* an object of the initial state the device refuses: named by kind and
     * id (it was "creating an object") */
    refused(BAD_TEXTURE, "bad_texture", "restoring the initial state: creating texture 5 (section at body offset ");
    refused(HUGE_READ, "huge_read", "it reads 17592186044416 bytes, more than the device's");
    refusals_name_offsets();
    damaged_file_names_offsets();
    free(elf);
    return TEST_SUMMARY();
}
