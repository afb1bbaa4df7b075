/* Exclusive prefix sum of 256K integers: each block scans 512 elements in
 * shared memory, the block sums are scanned by one block, then added back. */
#include <stdlib.h>
#include "../common/example.h"

int main(int argc, char **argv)
{
    (void)argc;
    enum { N = 1 << 18, PER_BLOCK = 512, BLOCKS = N / PER_BLOCK };
    example ex;
    if (example_open(&ex, "scan", argv[0], "scan_kernel.elf")) return 1;
    ws_kernel *scan = example_kernel(&ex, "scan_blocks");
    ws_kernel *add = scan ? example_kernel(&ex, "scan_add") : NULL;
    if (!add) return 1;

    int32_t *in = malloc(N * 4), *out = malloc(N * 4), *ref = malloc(N * 4);
    uint32_t seed = 5;
    int32_t run = 0;
    for (int i = 0; i < N; i++) {
        in[i] = (int32_t)(example_rand(&seed) % 100);
        ref[i] = run;
        run += in[i];
    }
    ws_addr din, dout, dsums, dsums_scanned;
    if (ws_malloc(ex.dev, N * 4, &din) || ws_malloc(ex.dev, N * 4, &dout) ||
        ws_malloc(ex.dev, BLOCKS * 4, &dsums) || ws_malloc(ex.dev, BLOCKS * 4, &dsums_scanned) ||
        ws_memcpy_htod(ex.dev, din, in, N * 4))
        return example_fail(&ex, "preparing buffers");
    ws_arg level1[] = { WS_ARG_PTR(din), WS_ARG_PTR(dout), WS_ARG_PTR(dsums), WS_ARG_I32(N) };
    ws_arg level2[] = { WS_ARG_PTR(dsums), WS_ARG_PTR(dsums_scanned), WS_ARG_PTR(0), WS_ARG_I32(BLOCKS) };
    ws_arg fixup[] = { WS_ARG_PTR(dout), WS_ARG_PTR(dsums_scanned), WS_ARG_I32(N) };
    if (example_launch(&ex, scan, WS_DIM3(BLOCKS, 1, 1), WS_DIM3(PER_BLOCK / 2, 1, 1), 0, level1, 4) ||
        example_launch(&ex, scan, WS_DIM3(1, 1, 1), WS_DIM3(PER_BLOCK / 2, 1, 1), 0, level2, 4) ||
        example_launch(&ex, add, WS_DIM3(BLOCKS, 1, 1), WS_DIM3(PER_BLOCK / 2, 1, 1), 0, fixup, 3) ||
        example_copy_back(&ex, out, dout, N * 4))
        return 1;
    int bad = 0;
    for (int i = 0; i < N; i++) bad += out[i] != ref[i];
    char detail[128];
    snprintf(detail, sizeof detail, "%d elements, last prefix %d (CPU: %d), %d mismatches", N, out[N - 1], ref[N - 1], bad);
    free(in); free(out); free(ref);
    return example_finish(&ex, bad == 0, detail);
}
