/* Sum of a million integers: warp shuffles within warps, shared memory
 * across the warps of a block, one atomic add per block. */
#include <stdlib.h>
#include "../common/example.h"

int main(int argc, char **argv)
{
    (void)argc;
    enum { N = 1 << 20, BLOCK = 256, BLOCKS = 128 };
    example ex;
    if (example_open(&ex, "reduction", argv[0], "reduction_kernel.elf")) return 1;
    ws_kernel *k = example_kernel(&ex, "reduce_sum");
    if (!k) return 1;

    int32_t *in = malloc(N * sizeof *in);
    uint32_t seed = 3;
    int64_t ref = 0;
    for (int i = 0; i < N; i++) {
        in[i] = (int32_t)(example_rand(&seed) % 2001) - 1000;
        ref += in[i];
    }
    ws_addr din, dout;
    if (ws_malloc(ex.dev, N * 4, &din) || ws_malloc(ex.dev, 4, &dout) ||
        ws_memcpy_htod(ex.dev, din, in, N * 4) || ws_memset(ex.dev, dout, 0, 4))
        return example_fail(&ex, "preparing buffers");
    ws_arg args[] = { WS_ARG_PTR(din), WS_ARG_PTR(dout), WS_ARG_I32(N) };
    int32_t sum = 0;
    if (example_launch(&ex, k, WS_DIM3(BLOCKS, 1, 1), WS_DIM3(BLOCK, 1, 1), 0, args, 3) ||
        example_copy_back(&ex, &sum, dout, 4))
        return 1;
    char detail[128];
    snprintf(detail, sizeof detail, "sum of %d ints = %d (CPU: %lld)", N, sum, (long long)ref);
    free(in);
    return example_finish(&ex, sum == ref, detail);
}
