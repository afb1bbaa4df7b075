/* Runs the naive matrix multiply once (bench/trace/run.sh traces it).
 * Usage: naive_app KERNEL.elf [N] */
#include <stdio.h>
#include <stdlib.h>
#include "warpscope/warpscope.h"

int main(int argc, char **argv)
{
    int n = argc > 2 ? atoi(argv[2]) : 128;
    if (argc < 2 || n < 16 || n % 16) { fprintf(stderr, "usage: naive_app KERNEL.elf [N, a multiple of 16]\n"); return 2; }
    ws_config cfg;
    ws_config_default(&cfg);
    ws_device *dev;
    ws_module *m;
    ws_kernel *k;
    if (ws_device_open(&cfg, &dev) != WS_OK) { fprintf(stderr, "cannot open a device\n"); return 1; }
    size_t bytes = (size_t)n * (size_t)n * sizeof(float);
    float *a = malloc(bytes), *b = malloc(bytes), *c = malloc(bytes);
    ws_addr da = 0, db = 0, dc = 0;
    for (int i = 0; i < n * n; i++) { a[i] = (float)(i % 7); b[i] = (float)(i % 5); }
    ws_status st = ws_module_load_file(dev, argv[1], &m);
    if (st == WS_OK) st = ws_kernel_get(m, "matmul_naive", &k);
    if (st == WS_OK) st = ws_malloc(dev, bytes, &da);
    if (st == WS_OK) st = ws_malloc(dev, bytes, &db);
    if (st == WS_OK) st = ws_malloc(dev, bytes, &dc);
    if (st == WS_OK) st = ws_memcpy_htod(dev, da, a, bytes);
    if (st == WS_OK) st = ws_memcpy_htod(dev, db, b, bytes);
    ws_arg args[] = { WS_ARG_PTR(da), WS_ARG_PTR(db), WS_ARG_PTR(dc), WS_ARG_I32(n) };
    if (st == WS_OK)
        st = ws_launch(dev, k, (ws_dim3){ (uint32_t)n / 16, (uint32_t)n / 16, 1 }, (ws_dim3){ 16, 16, 1 }, 0, args, 4);
    if (st == WS_OK) st = ws_synchronize(dev);
    if (st == WS_OK) st = ws_memcpy_dtoh(dev, c, dc, bytes);
    int wrong = 0;
    for (int i = 0; st == WS_OK && i < n; i++)
        for (int j = 0; j < n; j++) {
            float want = 0;
            for (int x = 0; x < n; x++) want += a[i * n + x] * b[x * n + j];
            wrong += c[i * n + j] != want;
        }
    if (st != WS_OK) fprintf(stderr, "naive_app: %s\n", ws_last_error(dev));
    else printf("matmul_naive %dx%d: %d mismatches\n", n, n, wrong);
    ws_device_close(dev);
    free(a); free(b); free(c);
    return st != WS_OK || wrong;
}
