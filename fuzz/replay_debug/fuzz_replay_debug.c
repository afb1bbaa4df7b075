/* libFuzzer target for the frame debugger (src/capture/replay_debug*.c,
 * `warpscope replay --debug`): the input is a byte stream from "gdb" to a
 * session over the replayer's debug target, on a small real capture (the
 * replayer fuzz target's seed_a_frame: a module, a buffer and a launch of
 * one thread). Every resume replays the frame, so breakpoints hit, the
 * shadow copy answers register and memory reads, reverse execution moves
 * backwards and the monitor commands run. Each input starts afresh at the
 * frame start. A crash, a sanitizer report, a leak, a hang or a malformed
 * reply is a finding. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../capture_wrap.h"
#include "../gdb_reply_check.h"
#include "capture/replay_debug_int.h"
#include "gdbstub/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The capture, read once (WS_FUZZ_RD_CAPTURE: a replayer seed). */
static const uint8_t *capture(size_t *n)
{
    static uint8_t *seed, *wrapped;
    static const uint8_t *file;
    static size_t seed_n, file_n;
    if (!seed) {
        FILE *f = fopen(WS_FUZZ_RD_CAPTURE, "rb");
        if (!f || fseek(f, 0, SEEK_END) || (seed_n = (size_t)ftell(f)) < 2 || fseek(f, 0, SEEK_SET) ||
            !(seed = malloc(seed_n)) || fread(seed, 1, seed_n, f) != seed_n)
            abort();
        fclose(f);
        wrapped = fuzz_capture_file(seed, seed_n, &file, &file_n);
        (void)wrapped; /* kept for the process's life, as the seed */
    }
    *n = file_n;
    return file;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t n;
    const uint8_t *file = capture(&n);
    ws_replay_options opt = { .config = "cores=2,warps_per_core=4,max_threads_per_block=128,global_mem_limit=64M,watchdog_ms=2000" };
    ws_replay *r = NULL;
    char err[1024];
    if (ws_replay_open_memory(file, n, "fuzz.wscap", &opt, &r, err, sizeof err) != WS_OK) abort();
    rd_target *t = calloc(1, sizeof *t);
    if (!t || rd_init(t, r) != WS_OK) abort();
    ws_gdb_session *s;
    if (ws_gdb_session_new(&rd_ops, t, fuzz_check_gdb_reply, NULL, &s) != WS_OK) abort();
    size_t half = size / 2; /* packets split across reads too */
    ws_gdb_session_input(s, data, half);
    while (ws_gdb_session_poll(s, 0)) {}
    ws_gdb_session_input(s, data + half, size - half);
    while (ws_gdb_session_poll(s, 0)) {}
    ws_gdb_session_free(s);
    rd_fini(t);
    free(t);
    ws_replay_close(r);
    return 0;
}
