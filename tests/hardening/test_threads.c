/* Issue 8 item 5: one device used from several host threads at once. Each
 * thread allocates, copies, launches, synchronises, reads back and frees in
 * a loop; every result must be exact and every call must succeed. Run under
 * ASan (and TSan by hand) this also shows the calls do not race. */
#include <pthread.h>
#include "warpscope/warpscope.h"
#include "../test.h"

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
        ws_arg a[2] = { WS_ARG_PTR(0), WS_ARG_I32(N) };
        int ok = ws_malloc(w->dev, sizeof host, &buf) == WS_OK;
        a[0] = WS_ARG_PTR(buf);
        ok = ok && ws_memcpy_htod(w->dev, buf, host, sizeof host) == WS_OK;
        ok = ok && ws_launch(w->dev, w->k, WS_DIM3(N / 64, 1, 1), WS_DIM3(64, 1, 1), 0, a, 2) == WS_OK;
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
    if (argc < 2) { fprintf(stderr, "usage: %s hard_kernels.elf\n", argv[0]); return 2; }
    ws_device *dev = NULL;
    ws_module *m = NULL;
    ws_kernel *k = NULL;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_module_load_file(dev, argv[1], &m) == WS_OK);
    CHECK(ws_kernel_get(m, "add1", &k) == WS_OK);
    worker w[THREADS];
    pthread_t t[THREADS];
    for (int i = 0; i < THREADS; i++) {
        w[i] = (worker){ .dev = dev, .k = k, .id = i };
        CHECK(pthread_create(&t[i], NULL, work, &w[i]) == 0);
    }
    for (int i = 0; i < THREADS; i++) {
        pthread_join(t[i], NULL);
        CHECK_EQ_U(w[i].errors, 0);
    }
    uint64_t used = 1;
    CHECK(ws_mem_info(dev, &used, NULL) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_OK);
    CHECK(ws_device_close(dev) == WS_OK);
    return TEST_SUMMARY();
}
