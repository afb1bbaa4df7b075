/* Host program of the debugger scale benchmark (bench/debug_scale/run.sh):
 *   scale_app grid BLOCKS THREADS KERNELS.elf
 *       BLOCKS x THREADS threads run grid_work once (result checked)
 *   scale_app resident CORES WARPS KERNELS.elf
 *       CORES x WARPS warps of 32 lanes, all resident at once, run
 *       resident_work (result checked)
 * Prints "result ok" and exits 0 when the results are right. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/warpscope.h"

static int fail(ws_device *dev, const char *what, ws_status st)
{
    fprintf(stderr, "scale_app: %s: %s: %s\n", what, ws_status_name(st), dev ? ws_last_error(dev) : "");
    return 1;
}

static int run_grid(ws_device *dev, ws_module *mod, uint32_t blocks, uint32_t threads)
{
    int n = (int)(blocks * threads);
    int *in = malloc(sizeof *in * (size_t)n), *out = malloc(sizeof *out * (size_t)n);
    ws_kernel *k;
    ws_addr din, dout;
    ws_status st;
    if (!in || !out) return 1;
    for (int i = 0; i < n; i++) in[i] = i;
    if ((st = ws_kernel_get(mod, "grid_work", &k)) || (st = ws_malloc(dev, sizeof *in * (size_t)n, &din)) ||
        (st = ws_malloc(dev, sizeof *out * (size_t)n, &dout)) ||
        (st = ws_memcpy_htod(dev, din, in, sizeof *in * (size_t)n)))
        return fail(dev, "preparing grid_work", st);
    ws_arg args[] = { WS_ARG_PTR(dout), WS_ARG_PTR(din), WS_ARG_I32(n) };
    if ((st = ws_launch(dev, k, WS_DIM3(blocks, 1, 1), WS_DIM3(threads, 1, 1), 0, args, 3)) ||
        (st = ws_synchronize(dev)) || (st = ws_memcpy_dtoh(dev, out, dout, sizeof *out * (size_t)n)))
        return fail(dev, "running grid_work", st);
    for (int i = 0; i < n; i++)
        if (out[i] != 3 * i + 1) return printf("result BAD at %d: %d\n", i, out[i]), 1;
    free(in);
    free(out);
    return 0;
}

static int run_resident(ws_device *dev, ws_module *mod, uint32_t cores, uint32_t warps)
{
    enum { ITERS = 20000 };
    uint32_t n = cores * warps * 32;
    int *out = malloc(sizeof *out * n);
    ws_kernel *k;
    ws_addr dout;
    ws_status st;
    if (!out) return 1;
    if ((st = ws_kernel_get(mod, "resident_work", &k)) || (st = ws_malloc(dev, sizeof *out * n, &dout)))
        return fail(dev, "preparing resident_work", st);
    ws_arg args[] = { WS_ARG_PTR(dout), WS_ARG_I32(ITERS) };
    /* one block per core, filling its warp slots: every lane is resident */
    if ((st = ws_launch(dev, k, WS_DIM3(cores, 1, 1), WS_DIM3(warps * 32, 1, 1), 0, args, 2)) ||
        (st = ws_synchronize(dev)) || (st = ws_memcpy_dtoh(dev, out, dout, sizeof *out * n)))
        return fail(dev, "running resident_work", st);
    for (uint32_t i = 0; i < n; i++) {
        int acc = 0;
        for (int j = 0; j < ITERS; j++) acc += j ^ (int)i;
        if (out[i] != acc) return printf("result BAD at %u: %d\n", i, out[i]), 1;
    }
    free(out);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5 || (strcmp(argv[1], "grid") && strcmp(argv[1], "resident"))) {
        fprintf(stderr, "usage: scale_app grid BLOCKS THREADS KERNELS.elf | resident CORES WARPS KERNELS.elf\n");
        return 2;
    }
    uint32_t a = (uint32_t)strtoul(argv[2], NULL, 10), b = (uint32_t)strtoul(argv[3], NULL, 10);
    ws_config cfg;
    ws_config_default(&cfg);
    if (!strcmp(argv[1], "resident")) {
        cfg.cores = a;
        cfg.warps_per_core = b;
        cfg.max_threads_per_block = b * 32;
    }
    ws_device *dev;
    ws_module *mod;
    ws_status st = ws_device_open(&cfg, &dev);
    if (st) return fail(NULL, "opening the device", st);
    if ((st = ws_module_load_file(dev, argv[4], &mod))) return fail(dev, "loading the kernels", st);
    int bad = !strcmp(argv[1], "grid") ? run_grid(dev, mod, a, b) : run_resident(dev, mod, a, b);
    if (!bad) printf("result ok\n");
    ws_device_close(dev);
    return bad;
}
