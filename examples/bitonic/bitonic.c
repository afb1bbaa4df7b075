/* Bitonic sort of 64K keys: one launch per merge step. */
#include <stdlib.h>
#include "../common/example.h"

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
    (void)argc;
    enum { N = 1 << 16, BLOCK = 256 };
    example ex;
    if (example_open(&ex, "bitonic", argv[0], "bitonic_kernel.elf")) return 1;
    ws_kernel *k = example_kernel(&ex, "bitonic_step");
    if (!k) return 1;

    uint32_t *keys = malloc(N * 4), *ref = malloc(N * 4), seed = 9;
    for (int i = 0; i < N; i++) ref[i] = keys[i] = example_rand(&seed);
    qsort(ref, N, 4, cmp_u32);
    ws_addr dk;
    if (ws_malloc(ex.dev, N * 4, &dk) || ws_memcpy_htod(ex.dev, dk, keys, N * 4))
        return example_fail(&ex, "preparing buffers");
    for (uint32_t size = 2; size <= N; size <<= 1)
        for (uint32_t stride = size >> 1; stride > 0; stride >>= 1) {
            ws_arg args[] = { WS_ARG_PTR(dk), WS_ARG_U32(stride), WS_ARG_U32(size) };
            if (example_launch(&ex, k, WS_DIM3(N / BLOCK, 1, 1), WS_DIM3(BLOCK, 1, 1), 0, args, 3)) return 1;
        }
    if (ws_memcpy_dtoh(ex.dev, keys, dk, N * 4)) return example_fail(&ex, "reading keys");
    int bad = 0;
    for (int i = 0; i < N; i++) bad += keys[i] != ref[i];
    char detail[128];
    snprintf(detail, sizeof detail, "%d keys sorted, %d differ from qsort", N, bad);
    free(keys); free(ref);
    return example_finish(&ex, bad == 0, detail);
}
