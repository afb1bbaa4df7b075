/* libFuzzer target for the trace-file reader (src/instrument/trace_file.c).
 * Input byte 0 chooses how the rest is used: odd, as a whole file; even,
 * as the payload, which this target compresses and wraps in a valid header
 * first, so mutations reach the launch parser instead of dying in zstd
 * (the header says version 1 below 0x80, version 2 from 0x80, the current
 * version from 0xC0: the reader reads all three).
 * A crash, a sanitizer report, a leak, or a trace that reads back with an
 * index outside its tables (abort) is a finding. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "warpscope/trace.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const ws_trace *t)
{
    for (uint32_t i = 0; i < t->nlaunches; i++) {
        const ws_trace_launch *L = &t->launches[i];
        for (uint32_t k = 0; k < L->nthreads; k++) {
            const ws_trace_thread *th = &L->threads[k];
            if (th->first_block + th->nblocks > L->nbb || th->first_mem + th->nmem > L->nmem) abort();
        }
        for (uint64_t k = 0; k < L->nbb; k++)
            if (L->bb[k] >= L->nblocks) abort();
        for (uint64_t k = 0; k < L->nmem; k++)
            if (L->mem[k].inst >= L->nmem_insts) abort();
    }
}

#ifdef WS_FUZZ_SEEDS_READ
/* The corpus replay (trace.fuzz_corpus): some seed must read back whole.
 * When the file format grew (store values, warp records, checksums) the
 * seeds of the day stopped reading, and the fuzzer and the replay both
 * stopped in the first fields unnoticed. */
static unsigned seeds_read;
static void some_seed_read(void)
{
    if (!seeds_read) {
        fprintf(stderr, "FAIL: no seed of the corpus reads back as a trace: write new ones (fuzz/trace_file/CMakeLists.txt says how)\n");
        abort();
    }
}
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
#ifdef WS_FUZZ_SEEDS_READ
    static int registered;
    if (!registered++) atexit(some_seed_read);
#endif
    if (!size) return 0;
    const uint8_t *file = data + 1;
    size_t n = size - 1;
    uint8_t *wrapped = NULL;
    if (!(data[0] & 1)) {
        size_t bound = ZSTD_compressBound(n);
        wrapped = malloc(32 + bound);
        if (!wrapped) return 0;
        size_t z = ZSTD_compress(wrapped + 32, bound, file, n, 1);
        if (ZSTD_isError(z)) { free(wrapped); return 0; }
        /* below 0x80 version 1, 0x80 version 2, 0xC0 version 3, 0xE0 the current one */
        uint32_t version = !(data[0] & 0x80) ? 1 : !(data[0] & 0x40) ? 2 : !(data[0] & 0x20) ? 3 : WS_TRACE_FILE_VERSION,
                 reserved = 0;
        uint64_t raw = n, zs = z;
        memcpy(wrapped, "WSTRACE", 8);
        memcpy(wrapped + 8, &version, 4);
        memcpy(wrapped + 12, &reserved, 4);
        memcpy(wrapped + 16, &raw, 8);
        memcpy(wrapped + 24, &zs, 8);
        file = wrapped;
        n = 32 + z;
    }
    ws_trace *t = NULL;
    char err[512];
    ws_status st = ws_trace_read_memory(file, n, "fuzz.wst", &t, err, sizeof err);
    if (st == WS_OK) {
#ifdef WS_FUZZ_SEEDS_READ
        seeds_read++;
#endif
        check(t);
        ws_trace_free(t);
    } else if (t || strncmp(err, "fuzz.wst: ", 10)) {
        abort(); /* errors name the file and leave nothing behind */
    }
    free(wrapped);
    return 0;
}
