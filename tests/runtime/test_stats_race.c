/* ws_last_launch_stats from one thread while another launches on the same
 * device (docs/api.md, "Threads": every call that reads device state holds
 * the API lock). Before 2026-11-27 it read the statistics without the
 * lock while the draining thread overwrote them, so a reader could get the
 * launch id of one launch with the block counts of another. Every launch
 * here has launch_id % 7 + 1 blocks, which a consistent snapshot shows.
 * The same for ws_last_launch_counters on a timing-mode device, which read
 * the timing model's counters without the lock until later that day: a
 * consistent copy's instruction counts are its blocks times one block's.
 * usage: test_stats_race MODULE.elf */
#include <pthread.h>
#include <stdatomic.h>
#include "warpscope/warpscope.h"
#include "../test.h"

enum { LAUNCHES = 10000, BLOCK = 32 };

typedef struct reader { ws_device *dev; atomic_int stop; long reads, torn; } reader;

static void *read_stats(void *p)
{
    reader *r = p;
    while (!atomic_load(&r->stop)) {
        ws_launch_stats st;
        if (ws_last_launch_stats(r->dev, &st) != WS_OK) continue;
        uint64_t sum = 0;
        for (uint32_t c = 0; c < st.cores && c < WS_STATS_MAX_CORES; c++) sum += st.core_blocks[c];
        r->reads++;
        if (st.blocks != st.launch_id % 7 + 1 || sum != st.blocks || st.threads != st.blocks * BLOCK) r->torn++;
    }
    return NULL;
}

typedef struct counter_reader { ws_device *dev; atomic_int stop; long reads, torn; uint64_t per_block; } counter_reader;

static void *read_counters(void *p)
{
    counter_reader *r = p;
    while (!atomic_load(&r->stop)) {
        ws_timing_counters c;
        if (ws_last_launch_counters(r->dev, &c) != WS_OK) continue;
        const uint64_t blocks = c.launch_id % 7 + 1;
        r->reads++;
        if (!r->per_block && c.thread_instructions % blocks == 0) r->per_block = c.thread_instructions / blocks;
        if (c.thread_instructions != r->per_block * blocks || c.warp_instructions * BLOCK != c.thread_instructions)
            r->torn++;
    }
    return NULL;
}

/* A device (cfg NULL: the default one) with the module's `touch` kernel
 * and an output for up to 7 blocks; NULL if any step failed. */
static ws_device *open_touch(const ws_config *cfg, const char *module, ws_kernel **k, ws_addr *out)
{
    ws_device *dev = NULL;
    ws_module *m;
    CHECK(ws_device_open(cfg, &dev) == WS_OK);
    if (!dev) return NULL;
    if (ws_module_load_file(dev, module, &m) != WS_OK || ws_kernel_get(m, "touch", k) != WS_OK ||
        ws_malloc(dev, 7 * BLOCK * sizeof(int), out) != WS_OK) {
        CHECK(0);
        ws_device_close(dev);
        return NULL;
    }
    return dev;
}

/* n launches, each of launch_id % 7 + 1 blocks, each waited for. */
static void launch_all(ws_device *dev, ws_kernel *k, ws_addr out, int n)
{
    ws_arg a[] = { WS_ARG_PTR(out) };
    for (int i = 0; i < n; i++) {
        uint64_t id = 0;
        CHECK(ws_next_launch_id(dev, &id) == WS_OK);
        if (ws_launch(dev, k, WS_DIM3((uint32_t)(id % 7 + 1), 1, 1), WS_DIM3(BLOCK, 1, 1), 0, a, 1) != WS_OK ||
            ws_synchronize(dev) != WS_OK) {
            CHECK(0);
            break;
        }
    }
}

/* Launches on a timing-mode device while a thread reads the counters. */
static void counters_race(const char *module)
{
    ws_config cfg;
    ws_config_default(&cfg);
    cfg.mode = WS_MODE_TIMING;
    ws_kernel *k;
    ws_addr out;
    ws_device *dev = open_touch(&cfg, module, &k, &out);
    if (!dev) return;
    counter_reader r = { .dev = dev };
    pthread_t t;
    CHECK(pthread_create(&t, NULL, read_counters, &r) == 0);
    launch_all(dev, k, out, LAUNCHES / 2);
    atomic_store(&r.stop, 1);
    pthread_join(t, NULL);
    printf("counters: %ld reads, %ld inconsistent\n", r.reads, r.torn);
    CHECK(r.per_block > 0);
    CHECK(r.torn == 0);
    CHECK(ws_device_close(dev) == WS_OK);
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    ws_kernel *k;
    ws_addr out;
    ws_device *dev = open_touch(NULL, argv[1], &k, &out);
    if (!dev) return TEST_SUMMARY();
    reader r = { .dev = dev };
    pthread_t t;
    CHECK(pthread_create(&t, NULL, read_stats, &r) == 0);
    launch_all(dev, k, out, LAUNCHES);
    atomic_store(&r.stop, 1);
    pthread_join(t, NULL);
    printf("%ld reads, %ld inconsistent\n", r.reads, r.torn);
    CHECK(r.torn == 0);
    CHECK(ws_device_close(dev) == WS_OK);
    counters_race(argv[1]);
    return TEST_SUMMARY();
}
