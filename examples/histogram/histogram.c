/* 256-bin byte histogram: atomics on per-block shared bins, then on global bins. */
#include <stdlib.h>
#include <string.h>
#include "../common/example.h"

int main(int argc, char **argv)
{
    (void)argc;
    enum { N = 1 << 20, BLOCK = 256, BLOCKS = 64, BINS = 256 };
    example ex;
    if (example_open(&ex, "histogram", argv[0], "histogram_kernel.elf")) return 1;
    ws_kernel *k = example_kernel(&ex, "histogram");
    if (!k) return 1;

    uint8_t *data = malloc(N);
    uint32_t seed = 11, ref[BINS] = { 0 }, bins[BINS];
    for (int i = 0; i < N; i++) {
        /* skewed distribution: heavy contention on a few bins */
        uint32_t r = example_rand(&seed);
        data[i] = (uint8_t)((r & 3) == 0 ? (r >> 8) % 8 : (r >> 8));
        ref[data[i]]++;
    }
    ws_addr dd, db;
    if (ws_malloc(ex.dev, N, &dd) || ws_malloc(ex.dev, sizeof bins, &db) ||
        ws_memcpy_htod(ex.dev, dd, data, N) || ws_memset(ex.dev, db, 0, sizeof bins))
        return example_fail(&ex, "preparing buffers");
    ws_arg args[] = { WS_ARG_PTR(dd), WS_ARG_PTR(db), WS_ARG_I32(N) };
    if (example_launch(&ex, k, WS_DIM3(BLOCKS, 1, 1), WS_DIM3(BLOCK, 1, 1), 0, args, 3) ||
        example_copy_back(&ex, bins, db, sizeof bins))
        return 1;
    int bad = memcmp(bins, ref, sizeof bins) != 0;
    char detail[128];
    snprintf(detail, sizeof detail, "%d bytes into %d bins, bin 0 = %u (CPU: %u)", N, BINS, bins[0], ref[0]);
    free(data);
    return example_finish(&ex, !bad, detail);
}
