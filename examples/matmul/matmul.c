/* Tiled matrix multiply with shared memory and barriers: C = A x B, n x n. */
#include <stdlib.h>
#include "../common/example.h"

int main(int argc, char **argv)
{
    (void)argc;
    enum { N = 256, TILE = 16 };
    example ex;
    if (example_open(&ex, "matmul", argv[0], "matmul_kernel.elf")) return 1;
    ws_kernel *k = example_kernel(&ex, "matmul_tiled");
    if (!k) return 1;

    size_t bytes = (size_t)N * N * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes), *ref = malloc(bytes);
    uint32_t seed = 7;
    for (int i = 0; i < N * N; i++) {
        a[i] = (float)((int)(example_rand(&seed) % 17) - 8) * 0.25f;
        b[i] = (float)((int)(example_rand(&seed) % 13) - 6) * 0.5f;
    }
    /* CPU reference accumulates in the same order as the kernel, so results match exactly. */
    for (int r = 0; r < N; r++)
        for (int col = 0; col < N; col++) {
            float acc = 0.0f;
            for (int t = 0; t < N; t += TILE)
                for (int i = 0; i < TILE; i++) acc += a[r * N + t + i] * b[(t + i) * N + col];
            ref[r * N + col] = acc;
        }
    ws_addr da, db, dc;
    if (ws_malloc(ex.dev, bytes, &da) || ws_malloc(ex.dev, bytes, &db) || ws_malloc(ex.dev, bytes, &dc) ||
        ws_memcpy_htod(ex.dev, da, a, bytes) || ws_memcpy_htod(ex.dev, db, b, bytes))
        return example_fail(&ex, "preparing buffers");
    ws_arg args[] = { WS_ARG_PTR(da), WS_ARG_PTR(db), WS_ARG_PTR(dc), WS_ARG_I32(N) };
    if (example_launch(&ex, k, WS_DIM3(N / TILE, N / TILE, 1), WS_DIM3(TILE, TILE, 1), 0, args, 4) ||
        example_copy_back(&ex, c, dc, bytes))
        return 1;
    int bad = 0;
    for (int i = 0; i < N * N; i++) bad += c[i] != ref[i];
    char detail[128];
    snprintf(detail, sizeof detail, "%dx%d, %dx%d tiles in shared memory, %d mismatches", N, N, TILE, TILE, bad);
    free(a); free(b); free(c); free(ref);
    return example_finish(&ex, bad == 0, detail);
}
