/* Vector add: c[i] = a[i] + b[i] over a million elements. */
#include <stdlib.h>
#include "../common/example.h"

int main(int argc, char **argv)
{
    (void)argc;
    enum { N = 1 << 20, BLOCK = 256 };
    example ex;
    if (example_open(&ex, "vecadd", argv[0], "vecadd_kernel.elf")) return 1;
    ws_kernel *k = example_kernel(&ex, "vecadd");
    if (!k) return 1;

    float *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    uint32_t seed = 1;
    for (int i = 0; i < N; i++) {
        a[i] = (float)(example_rand(&seed) % 1000) / 8.0f;
        b[i] = (float)(example_rand(&seed) % 1000) / 16.0f;
    }
    ws_addr da, db, dc;
    if (ws_malloc(ex.dev, N * 4, &da) || ws_malloc(ex.dev, N * 4, &db) || ws_malloc(ex.dev, N * 4, &dc) ||
        ws_memcpy_htod(ex.dev, da, a, N * 4) || ws_memcpy_htod(ex.dev, db, b, N * 4))
        return example_fail(&ex, "preparing buffers");
    ws_arg args[] = { WS_ARG_PTR(da), WS_ARG_PTR(db), WS_ARG_PTR(dc), WS_ARG_I32(N) };
    if (example_launch(&ex, k, WS_DIM3((N + BLOCK - 1) / BLOCK, 1, 1), WS_DIM3(BLOCK, 1, 1), 0, args, 4) ||
        example_copy_back(&ex, c, dc, N * 4))
        return 1;
    int bad = 0;
    for (int i = 0; i < N; i++) bad += c[i] != a[i] + b[i];
    char detail[128];
    snprintf(detail, sizeof detail, "%d elements, %d mismatches against the CPU", N, bad);
    free(a); free(b); free(c);
    return example_finish(&ex, bad == 0, detail);
}
