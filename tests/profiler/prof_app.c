/* Host program for the profiler tests: runs one scenario (a kernel of
 * stall_kernels.c, or several launches on two devices; "none" launches
 * nothing, "unclosed" exits without closing its device), checks the results
 * against the CPU and prints them, so a test can compare runs with and
 * without the profiler. Usage: prof_app MODULE SCENARIO [fail] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/warpscope.h"

#define N 256

static int die(ws_device *dev, const char *what)
{
    fprintf(stderr, "prof_app: %s: %s\n", what, dev ? ws_last_error(dev) : "");
    return 1;
}

static unsigned ref(const char *k, unsigned t, unsigned blk, const int *next)
{
    if (!strcmp(k, "dep_load")) {
        int i = (int)(blk * 64 + t), acc = 0;
        for (int s = 0; s < 64; s++) acc = (acc ^ next[(i + s * 67) & 255]) + 1;
        return (unsigned)acc;
    }
    if (!strcmp(k, "barrier_wait")) {
        unsigned acc = t;
        if (t < 32) for (int j = 0; j < 200; j++) acc = (acc ^ (acc >> 3)) + (unsigned)j;
        return acc;
    }
    if (!strcmp(k, "bank_conflict")) {
        int acc = 0;
        for (int r = 0; r < 64; r++) {
            unsigned idx = (t * 32 + (unsigned)r) & 1023;
            acc += (int)(idx / 32 + idx % 32); /* tile[t*32+k] = t + k */
        }
        return (unsigned)acc;
    }
    unsigned x = t + 1;
    for (int j = 0; j < 100; j++) {
        x += x << 3; x ^= x >> 7; x += x << 5; x ^= x >> 11; x += x << 2; x ^= x >> 3;
    }
    return x;
}

/* Run kernel k on dev once; returns a checksum of the output, or -1. */
static long run(ws_device *dev, ws_module *mod, const char *k, unsigned *checksum)
{
    ws_kernel *kern;
    if (ws_kernel_get(mod, k, &kern)) return die(dev, "kernel"), -1;
    int next[N], out[N];
    for (int i = 0; i < N; i++) next[i] = (i * 97 + 31) % N;
    ws_addr dn, dout;
    if (ws_malloc(dev, sizeof next, &dn) || ws_malloc(dev, sizeof out, &dout) ||
        ws_memcpy_htod(dev, dn, next, sizeof next) || ws_memset(dev, dout, 0, sizeof out))
        return die(dev, "buffers"), -1;
    ws_arg a3[] = { WS_ARG_PTR(dn), WS_ARG_PTR(dout), WS_ARG_I32(64) };
    ws_arg a2[2] = { WS_ARG_PTR(dout), WS_ARG_I32(0) };
    ws_dim3 grid = WS_DIM3(4, 1, 1), block = WS_DIM3(64, 1, 1);
    ws_status st;
    if (!strcmp(k, "dep_load")) st = ws_launch(dev, kern, grid, block, 0, a3, 3);
    else {
        if (!strcmp(k, "barrier_wait")) { grid = WS_DIM3(1, 1, 1); block = WS_DIM3(256, 1, 1); a2[1] = WS_ARG_I32(200); }
        else if (!strcmp(k, "bank_conflict")) { grid = WS_DIM3(8, 1, 1); block = WS_DIM3(32, 1, 1); a2[1] = WS_ARG_I32(64); }
        else { grid = WS_DIM3(1, 1, 1); block = WS_DIM3(32, 1, 1); a2[1] = WS_ARG_I32(100); } /* one warp: nothing competes */
        st = ws_launch(dev, kern, grid, block, 0, a2, 2);
    }
    if (st || ws_memcpy_dtoh(dev, out, dout, sizeof out)) return die(dev, k), -1;
    uint32_t threads = grid.x * block.x, bad = 0;
    for (uint32_t i = 0; i < threads; i++) {
        unsigned want = ref(k, i % block.x, i / block.x, next);
        if ((unsigned)out[i] != want) bad++;
        *checksum = *checksum * 31u + (unsigned)out[i];
    }
    ws_free(dev, dn);
    ws_free(dev, dout);
    if (bad) { fprintf(stderr, "prof_app: %s: %u wrong results\n", k, bad); return -1; }
    return 0;
}

/* Two launches queued back to back, one wait: the profiler must run them
 * in order, each with its own passes. */
static int queued(ws_device *dev, ws_module *mod, unsigned *checksum)
{
    ws_kernel *ka, *kb;
    int a[32], b[32];
    ws_addr da, db;
    if (ws_kernel_get(mod, "arith_chain", &ka) || ws_kernel_get(mod, "arith_chain", &kb) ||
        ws_malloc(dev, sizeof a, &da) || ws_malloc(dev, sizeof b, &db))
        return die(dev, "queued setup");
    ws_arg aa[] = { WS_ARG_PTR(da), WS_ARG_I32(100) }, ab[] = { WS_ARG_PTR(db), WS_ARG_I32(100) };
    if (ws_memset(dev, da, 0, sizeof a) || ws_launch(dev, ka, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, aa, 2) ||
        ws_memcpy_dtod(dev, db, da, sizeof a) || /* b = a before the second launch overwrites nothing */
        ws_launch(dev, kb, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, ab, 2) ||
        ws_memcpy_dtoh(dev, a, da, sizeof a) || ws_memcpy_dtoh(dev, b, db, sizeof b))
        return die(dev, "queued launches");
    for (unsigned t = 0; t < 32; t++) {
        if ((unsigned)a[t] != ref("arith_chain", t, 0, NULL) || a[t] != b[t]) {
            fprintf(stderr, "prof_app: queued: wrong result for thread %u\n", t);
            return 1;
        }
        *checksum = *checksum * 31u + (unsigned)a[t];
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: prof_app MODULE SCENARIO [fail]\n"); return 2; }
    const char *scen = argv[2];
    int ndev = !strcmp(scen, "multi") ? 2 : 1;
    unsigned sum = 0;
    for (int d = 0; d < ndev; d++) {
        ws_device *dev;
        ws_module *mod;
        if (ws_device_open(NULL, &dev)) return die(NULL, "device open");
        if (!strncmp(scen, "mem:", 4)) {
            /* A module loaded from memory: no file for the profiler to read. */
            FILE *f = fopen(argv[1], "rb");
            static char image[1 << 20];
            size_t n = f ? fread(image, 1, sizeof image, f) : 0;
            if (f) fclose(f);
            if (ws_module_load_data(dev, image, n, "<memory>", &mod)) return die(dev, "module");
            scen += 4;
        } else if (ws_module_load_file(dev, argv[1], &mod)) {
            return die(dev, "module");
        }
        if (!strcmp(scen, "none")) {
            /* A device and a module, but no launch. */
        } else if (!strcmp(scen, "unclosed")) {
            printf("unclosed: exiting with the device open\n");
            return 0;
        } else if (ndev == 2) {
            /* Several launches of two kernels on each device. */
            const char *ks[] = { "arith_chain", "dep_load", "arith_chain" };
            for (int i = 0; i < 3; i++)
                if (run(dev, mod, ks[i], &sum)) return 1;
        } else if (!strcmp(scen, "fault")) {
            /* dep_load reading through a null pointer: the launch faults. */
            ws_kernel *k;
            ws_addr out;
            ws_arg a[] = { WS_ARG_PTR(0), WS_ARG_PTR(0), WS_ARG_I32(64) };
            if (ws_kernel_get(mod, "dep_load", &k) || ws_malloc(dev, 1024, &out)) return die(dev, "fault setup");
            a[1] = WS_ARG_PTR(out);
            if (ws_launch(dev, k, WS_DIM3(4, 1, 1), WS_DIM3(64, 1, 1), 0, a, 3) == WS_OK &&
                ws_synchronize(dev) == WS_ERR_KERNEL_FAULT) {
                fprintf(stderr, "prof_app: fault as expected: %.60s...\n", ws_last_error(dev));
                ws_device_close(dev);
                return 4;
            }
            return die(dev, "no fault");
        } else if (!strcmp(scen, "printf")) {
            ws_kernel *k;
            ws_addr out;
            ws_arg a[] = { WS_ARG_PTR(0), WS_ARG_I32(7) };
            if (ws_kernel_get(mod, "hello", &k) || ws_malloc(dev, 256, &out)) return die(dev, "printf setup");
            a[0] = WS_ARG_PTR(out);
            if (ws_launch(dev, k, WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0, a, 2) || ws_synchronize(dev))
                return die(dev, "printf launch");
            sum = 7;
        } else if (!strcmp(scen, "queued")) {
            if (queued(dev, mod, &sum)) return 1;
        } else if (run(dev, mod, scen, &sum)) {
            return 1;
        }
        ws_device_close(dev);
    }
    printf("%s: results OK, checksum 0x%08x\n", scen, sum);
    return argc > 3 && !strcmp(argv[3], "fail") ? 3 : 0;
}
