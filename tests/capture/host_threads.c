/* One device used by four host threads at once, under `warpscope capture`:
 * each thread allocates, copies in, launches twice, reads back and frees,
 * 25 times, and checks its results. The capture must hold every call, in
 * the one order they took, and replay bit-identically (host_threads.sh).
 *   usage: host_threads KERNELS.elf   (hard_kernels.elf: add1) */
#include <pthread.h>
#include <stdio.h>
#include "warpscope/warpscope.h"

#define THREADS 4
#define ROUNDS 25
#define N 256

typedef struct worker {
    ws_device *dev;
    ws_kernel *k;
    int id, errors;
} worker;

static void *work(void *p)
{
    worker *w = p;
    int host[N];
    for (int r = 0; r < ROUNDS; r++) {
        ws_addr buf = 0;
        for (int i = 0; i < N; i++) host[i] = w->id * 100000 + r * 1000 + i;
        int ok = ws_malloc(w->dev, sizeof host, &buf) == WS_OK;
        ws_arg a[2] = { WS_ARG_PTR(buf), WS_ARG_I32(N) };
        ok = ok && ws_memcpy_htod(w->dev, buf, host, sizeof host) == WS_OK;
        for (int l = 0; l < 2; l++)
            ok = ok && ws_launch(w->dev, w->k, WS_DIM3(N / 64, 1, 1), WS_DIM3(64, 1, 1), 0, a, 2) == WS_OK;
        ok = ok && ws_memcpy_dtoh(w->dev, host, buf, sizeof host) == WS_OK;
        for (int i = 0; ok && i < N; i++) ok = host[i] == w->id * 100000 + r * 1000 + i + 2;
        ok = ok && ws_free(w->dev, buf) == WS_OK;
        if (!ok) w->errors++;
    }
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: %s hard_kernels.elf\n", argv[0]); return 2; }
    ws_device *dev = NULL;
    ws_module *m = NULL;
    ws_kernel *k = NULL;
    if (ws_device_open(NULL, &dev) != WS_OK || ws_module_load_file(dev, argv[1], &m) != WS_OK ||
        ws_kernel_get(m, "add1", &k) != WS_OK) {
        fprintf(stderr, "host_threads: %s\n", dev ? ws_last_error(dev) : "cannot open a device");
        return 1;
    }
    worker w[THREADS];
    pthread_t t[THREADS];
    int errors = 0, started = 0;
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker){ .dev = dev, .k = k, .id = i };
        if (pthread_create(&t[i], NULL, work, &w[i])) break;
        started++;
    }
    for (int i = 0; i < started; i++) {
        pthread_join(t[i], NULL);
        errors += w[i].errors;
    }
    if (ws_synchronize(dev) != WS_OK || ws_device_close(dev) != WS_OK) errors++;
    printf("host_threads: %d threads, %d rounds each, %d errors\n", started, ROUNDS, errors);
    return errors || started != THREADS;
}
