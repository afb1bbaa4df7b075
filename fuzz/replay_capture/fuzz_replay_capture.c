/* libFuzzer target for the replayer (src/capture/replay_*.c): a capture
 * file (made from the input as fuzz/capture_wrap.h says) is opened and,
 * if it opens, its frame is replayed. Every payload decoder, the restore
 * and every call's replay see hostile fields. The device is kept small and
 * has a watchdog so that a hostile launch ends. A crash, a sanitizer
 * report, a leak, or an error that does not name the file is a finding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../capture_wrap.h"
#include "capture/replayer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2) return 0;
    const uint8_t *file;
    size_t n;
    uint8_t *wrapped = fuzz_capture_file(data, size, &file, &n);
    if (!n) return 0;
    ws_replay_options opt = { .config = "cores=2,warps_per_core=4,max_threads_per_block=128,global_mem_limit=64M,watchdog_ms=2000" };
    ws_replay *r = NULL;
    char err[1024];
    ws_status st = ws_replay_open_memory(file, n, "fuzz.wscap", &opt, &r, err, sizeof err);
    if (st == WS_OK) {
        if (ws_replay_run(r, 0, UINT64_MAX, NULL, NULL) != WS_OK && strncmp(ws_replay_error(r), "fuzz.wscap: ", 12))
            abort();
        ws_replay_close(r);
    } else if (r || strncmp(err, "fuzz.wscap: ", 12)) {
        abort();
    }
    free(wrapped);
    return 0;
}
