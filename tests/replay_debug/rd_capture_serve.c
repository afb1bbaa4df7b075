/* Test driver for the frame debugger: writes a capture of a two-launch
 * compute frame with the capture codec (the frame an application running
 * rd_kernels.c would have captured), checks that a replay reproduces the
 * host's computation of it, then serves gdb over the replay with
 * ws_replay_debug_serve — the function `warpscope replay --debug` calls —
 * and checks the frame once more after gdb leaves.
 *   rd_capture_serve KERNEL.elf CAPTURE-PATH SPEC */
#include <stdint.h>
#include "../test.h"
#include "capture/capture_calls.h"
#include "capture/replayer.h"
#include "capture/replay_debug.h"

#define N 256
#define BLOCK 64
#define BASE (WS_GLOBAL_BASE + 0x200000u)

/* The kernel's computation, on the host. */
static int mix(int a, int b)
{
    int m = (int)((unsigned)a * 31u + (unsigned)b);
    return m ^ (m >> 3);
}
static int frame_value(int in, int i)
{
    int acc = mix(in, i) + 7;
    for (int k = 0; k < 3; k++) acc = (int)((unsigned)acc * 3u + (unsigned)k);
    return acc;
}

static void add(ws_capture_writer *w, uint32_t type, uint64_t id, wscap_buf *p)
{
    CHECK(!p->failed);
    CHECK(ws_capture_writer_add(w, type, id, p->data, p->len) == WS_OK);
    wscap_buf_free(p);
}

static wscap_buf call(uint32_t which)
{
    wscap_buf p = { 0 };
    wscap_put_u32(&p, which);
    return p;
}

static void put_launch(ws_capture_writer *w, uint64_t *calls, uint32_t out, uint32_t in)
{
    wscap_buf p = call(WSCAP_LAUNCH);
    wscap_put_u32(&p, 2);
    uint32_t shape[] = { N / BLOCK, 1, 1, BLOCK, 1, 1, 0 };
    for (int i = 0; i < 7; i++) wscap_put_u32(&p, shape[i]);
    wscap_put_u32(&p, 3);
    wscap_put_u32(&p, WS_TYPE_PTR); wscap_put_u64(&p, out);
    wscap_put_u32(&p, WS_TYPE_PTR); wscap_put_u64(&p, in);
    wscap_put_u32(&p, WS_TYPE_I32); wscap_put_u64(&p, N);
    add(w, WS_CAPTURE_API_CALL, (*calls)++, &p);
}

static uint64_t write_capture(const char *path, const unsigned char *elf, size_t elf_size)
{
    ws_capture_writer *w = NULL;
    char err[512];
    uint64_t calls = 0;
    CHECK(ws_capture_writer_open(path, &w, err, sizeof err) == WS_OK);
    if (!w) { fprintf(stderr, "%s\n", err); return 0; }
    ws_config cfg;
    ws_config_default(&cfg);
    wscap_buf p = { 0 };
    wscap_put_config(&p, &cfg);
    add(w, WS_CAPTURE_DEVICE_CONFIG, 0, &p);
    /* the initial state: the module, its kernel, the input and two
     * zeroed buffers (the application loaded and uploaded before the frame) */
    p = (wscap_buf){ 0 };
    wscap_put_str(&p, "rd_kernels.elf");
    wscap_put_u32(&p, BASE + 0x20000);
    wscap_put_blob(&p, elf, elf_size);
    add(w, WS_CAPTURE_MODULE_IMAGE, 1, &p);
    p = (wscap_buf){ 0 };
    wscap_put_u32(&p, 1);
    wscap_put_str(&p, "frame");
    add(w, WSCAP_KERNEL, 2, &p);
    static int in[N], mid[N], out[N], zero[N];
    for (int i = 0; i < N; i++) {
        in[i] = i * 5 + 1;
        mid[i] = frame_value(in[i], i);
        out[i] = frame_value(mid[i], i);
    }
    const int *init[3] = { in, zero, zero };
    for (uint32_t k = 0; k < 3; k++) {
        p = (wscap_buf){ 0 };
        wscap_put_u32(&p, BASE + k * 0x2000);
        wscap_put_u64(&p, sizeof in);
        wscap_put_blob(&p, init[k], sizeof in);
        add(w, WS_CAPTURE_ALLOCATION, k, &p);
    }
    p = (wscap_buf){ 0 };
    wscap_put_u64(&p, 0);
    wscap_put_u32(&p, WSCAP_FRAME_SYNC);
    add(w, WS_CAPTURE_FRAME_BEGIN, 0, &p);
    put_launch(w, &calls, BASE + 0x2000, BASE);          /* launch 1: mid = f(in)  */
    put_launch(w, &calls, BASE + 0x4000, BASE + 0x2000); /* launch 2: out = f(mid) */
    p = call(WSCAP_DTOH);
    wscap_put_u32(&p, BASE + 0x4000);
    wscap_put_u64(&p, sizeof out);
    add(w, WS_CAPTURE_API_CALL, calls++, &p);
    uint64_t h = WSCAP_DIGEST_INIT;
    h = wscap_digest_alloc(h, BASE, sizeof in, in);
    h = wscap_digest_alloc(h, BASE + 0x2000, sizeof mid, mid);
    h = wscap_digest_alloc(h, BASE + 0x4000, sizeof out, out);
    wscap_put_u64(&p, 0);
    wscap_put_u64(&p, h);
    add(w, WS_CAPTURE_FRAME_END, 0, &p);
    CHECK(ws_capture_writer_close(w) == WS_OK);
    return h;
}

int main(int argc, char **argv)
{
    if (argc != 4) { fprintf(stderr, "usage: rd_capture_serve KERNEL.elf CAPTURE SPEC\n"); return 2; }
    size_t elf_size = 0;
    unsigned char *elf = ws_test_read_file(argv[1], &elf_size);
    CHECK(elf != NULL);
    if (!elf) return TEST_SUMMARY();
    uint64_t want = write_capture(argv[2], elf, elf_size), got = 0;
    free(elf);
    ws_replay *r = NULL;
    char err[1024];
    CHECK(ws_replay_open(argv[2], NULL, &r, err, sizeof err) == WS_OK);
    if (!r) { fprintf(stderr, "%s\n", err); return TEST_SUMMARY(); }
    CHECK(ws_replay_run(r, 0, UINT64_MAX, NULL, NULL) == WS_OK);
    CHECK(ws_replay_hash(r, &got) == WS_OK);
    CHECK_EQ_U(got, want);
    ws_status st = ws_replay_debug_serve(r, argv[3], err, sizeof err);
    if (st) fprintf(stderr, "serve: %s\n", err);
    CHECK(st == WS_OK);
    /* the frame still replays to the captured result after debugging */
    CHECK(ws_replay_restore(r) == WS_OK);
    CHECK(ws_replay_run(r, 0, UINT64_MAX, NULL, NULL) == WS_OK);
    CHECK(ws_replay_hash(r, &got) == WS_OK);
    CHECK_EQ_U(got, want);
    ws_replay_close(r);
    return TEST_SUMMARY();
}
