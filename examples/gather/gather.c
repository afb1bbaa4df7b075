/* Gather through an index array; the profiler walkthrough of
 * docs/profiling.md runs this program under `warpscope profile`. */
#include <stdlib.h>
#include "../common/example.h"

int main(int argc, char **argv)
{
    (void)argc;
    enum { N = 1024, ROUNDS = 16 };
    example ex;
    if (example_open(&ex, "gather", argv[0], "gather_kernel.elf")) return 1;
    ws_kernel *k = example_kernel(&ex, "gather");
    if (!k) return 1;
    static int idx[N];
    static float table[N], out[N], ref[N];
    uint32_t seed = 11;
    for (int i = 0; i < N; i++) {
        idx[i] = (int)(example_rand(&seed) % N);
        table[i] = (float)(example_rand(&seed) % 100) * 0.5f;
    }
    for (int i = 0; i < N; i++) {
        float acc = 0.0f;
        for (int r = 0; r < ROUNDS; r++) acc += table[idx[(i + r * 97) % N]];
        ref[i] = acc;
    }
    ws_addr di, dt, dout;
    if (ws_malloc(ex.dev, sizeof idx, &di) || ws_malloc(ex.dev, sizeof table, &dt) ||
        ws_malloc(ex.dev, sizeof out, &dout) || ws_memcpy_htod(ex.dev, di, idx, sizeof idx) ||
        ws_memcpy_htod(ex.dev, dt, table, sizeof table))
        return example_fail(&ex, "preparing buffers");
    ws_arg args[] = { WS_ARG_PTR(di), WS_ARG_PTR(dt), WS_ARG_PTR(dout), WS_ARG_I32(N), WS_ARG_I32(ROUNDS) };
    /* The plain kernel, then the one that keeps four loads in flight:
     * same results, fewer cycles in timing mode. */
    const char *names[] = { "gather", "gather_unrolled" };
    int bad = 0;
    for (int v = 0; v < 2; v++) {
        ws_kernel *kv = v ? example_kernel(&ex, names[v]) : k;
        if (!kv || ws_memset(ex.dev, dout, 0, sizeof out) ||
            example_launch(&ex, kv, WS_DIM3(N / 128, 1, 1), WS_DIM3(128, 1, 1), 0, args, 5) ||
            example_copy_back(&ex, out, dout, sizeof out))
            return 1;
        for (int i = 0; i < N; i++) bad += out[i] != ref[i];
    }
    char detail[128];
    snprintf(detail, sizeof detail, "%d elements, %d dependent gathers each, two kernels, %d mismatches", N,
             ROUNDS, bad);
    return example_finish(&ex, bad == 0, detail);
}
