/* Runtime API misuse that needs no kernel: configuration, allocation,
 * copies, frees, bad modules. Every error must be a status plus a message
 * with context, and the device must keep working afterwards. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "warpscope/warpscope.h"
#include "../test.h"

static void config_checks(void)
{
    ws_config c;
    char err[256];
    ws_config_default(&c);
    CHECK(ws_config_validate(&c, err, sizeof err) == WS_OK);
    CHECK(ws_config_parse(&c, "cores=2, lanes_per_warp=16 global_mem_limit=8M", err, sizeof err) == WS_OK);
    CHECK_EQ_U(c.cores, 2);
    CHECK_EQ_U(c.lanes_per_warp, 16);
    CHECK_EQ_U(c.global_mem_limit, 8u << 20);
    CHECK(ws_config_parse(&c, "cores=two", err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "cores=two");
    CHECK(ws_config_parse(&c, "bogus=1", err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "unknown setting 'bogus'");
    CHECK(ws_config_parse(&c, "cores", err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "'cores': expected key=value");
    /* spaces around '=' (as timing files write their lines) are named */
    CHECK(ws_config_parse(&c, "cores = 8", err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "'cores': expected key=value with no spaces around '=' (a space or comma separates settings)");
    /* the smaller core lowered the block limit it no longer holds (the
     * documented example was refused: "max_threads_per_block=256") */
    CHECK_EQ_U(c.max_threads_per_block, 128);
    CHECK(ws_config_validate(&c, err, sizeof err) == WS_OK);
    ws_config_default(&c);
    /* given: kept, and refused (by the parser since 2026-11-27; before, only validate did) */
    CHECK(ws_config_parse(&c, "lanes_per_warp=16,max_threads_per_block=256", err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "max_threads_per_block=256: must be 1..warps_per_core*lanes_per_warp (warps_per_core=8 "
                       "x lanes_per_warp=16 = 128)");
    ws_config_default(&c);
    c.lanes_per_warp = 16;
    CHECK(ws_config_validate(&c, err, sizeof err) == WS_ERR_INVALID_ARG);
    /* signs, overflow and wrapping suffixes are refused, not wrapped */
    const char *bad[] = { "cores=-5", "threads=-1", "global_mem_limit=17179869185G", "global_mem_limit=99999999999999999999",
                          "cores=+4" };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ws_config_default(&c);
        CHECK(ws_config_parse(&c, bad[i], err, sizeof err) == WS_ERR_INVALID_ARG);
        CHECK_STR_CONTAINS(err, bad[i]);
    }
    /* decimal or 0x hex: a leading zero is not octal ("cores=010" was 8
     * cores and "cores=08" refused); "i" only after K, M or G */
    ws_config_default(&c);
    CHECK(ws_config_parse(&c, "cores=010,warp_quantum=08,global_mem_limit=0x200000", err, sizeof err) == WS_OK);
    CHECK_EQ_U(c.cores, 10);
    CHECK_EQ_U(c.warp_quantum, 8);
    CHECK_EQ_U(c.global_mem_limit, 2u << 20);
    CHECK(ws_config_parse(&c, "stack_per_lane=2KiB,max_shared_per_block=1024B", err, sizeof err) == WS_OK);
    CHECK_EQ_U(c.stack_per_lane, 2048);
    CHECK_EQ_U(c.max_shared_per_block, 1024);
    /* a timing file path up to the 255 bytes timing_file holds (one of
     * 128 to 255 bytes was refused as "setting too long") */
    char longpath[300];
    snprintf(longpath, sizeof longpath, "timing=/%0250d", 0);
    CHECK(ws_config_parse(&c, longpath, err, sizeof err) == WS_OK);
    CHECK_EQ_U(strlen(c.timing_file), 251);
    snprintf(longpath, sizeof longpath, "timing=/%0260d", 0);
    CHECK(ws_config_parse(&c, longpath, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "path longer than 255 bytes");
    const char *bad2[] = { "cores=4i", "cores=0x", "cores=0x1q" };
    for (size_t i = 0; i < sizeof bad2 / sizeof *bad2; i++) {
        CHECK(ws_config_parse(&c, bad2[i], err, sizeof err) == WS_ERR_INVALID_ARG);
        CHECK_STR_CONTAINS(err, bad2[i]);
    }
    ws_config_default(&c);
    CHECK(ws_config_parse(&c, "global_mem_limit=16G", err, sizeof err) == WS_ERR_INVALID_ARG); /* not wrapped */
    CHECK_STR_CONTAINS(err, "global_mem_limit=16G: must be a multiple of 4096 between 1 MiB and 3040 MiB");
    CHECK_EQ_U(c.global_mem_limit, 256u << 20); /* a refused setting changes nothing */
    ws_config_default(&c);
    c.lanes_per_warp = 33;
    CHECK(ws_config_validate(&c, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "lanes_per_warp=33");
    ws_device *dev = (ws_device *)1;
    CHECK(ws_device_open(&c, &dev) == WS_ERR_INVALID_ARG);
    CHECK(dev == NULL);
    ws_config_default(&c);
    c.stack_per_lane = 3000;
    CHECK(ws_config_validate(&c, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "power of two");
    /* each message names the setting that is wrong, as the user gave it */
    ws_config_default(&c);
    CHECK(ws_config_parse(&c, "shared_per_core=300M", err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "shared_per_core=300M: must be at most 256 MiB");
    c.shared_per_core = 300u << 20;
    CHECK(ws_config_validate(&c, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "shared_per_core=314572800: must be at most 256 MiB");
    ws_config_default(&c);
    c.max_shared_per_block = 128 * 1024;
    CHECK(ws_config_validate(&c, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "max_shared_per_block=131072: must not exceed shared_per_core=65536");
    ws_config_default(&c);
    c.stack_per_lane = 512 * 1024; /* 1024 lanes x 512 KiB > 256 MiB */
    CHECK(ws_config_validate(&c, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "stack_per_lane=524288: 1024 lanes");
    ws_config_default(&c);
    c.warp_quantum = 0;
    CHECK(ws_config_validate(&c, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "warp_quantum=0: must be at least 1");
    /* a NULL argument is reported in err too */
    err[0] = 0;
    CHECK(ws_config_parse(&c, NULL, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "ws_config_parse: text is NULL");
    CHECK(ws_config_parse(NULL, "cores=2", err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "ws_config_parse: cfg is NULL");
    err[0] = 0;
    CHECK(ws_config_validate(NULL, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "ws_config_validate: cfg is NULL");
}

/* ws_device_config reports the host threads resolved at open (until
 * 2026-11-29 it gave back threads=0 for the environment's or the host's
 * number, which a program could not learn). */
static void device_threads(void)
{
    const char *env = getenv("WARPSCOPE_THREADS");
    char saved[64] = "";
    if (env) snprintf(saved, sizeof saved, "%s", env);
    ws_config c, got;
    ws_device *dev;
    ws_config_default(&c); /* threads=0, cores=4 */
    setenv("WARPSCOPE_THREADS", "3", 1);
    CHECK(ws_device_open(&c, &dev) == WS_OK);
    CHECK(ws_device_config(dev, &got) == WS_OK);
    CHECK_EQ_U(got.threads, 3);
    CHECK_EQ_U(got.cores, 4);
    CHECK(ws_device_close(dev) == WS_OK);
    setenv("WARPSCOPE_THREADS", "64", 1); /* never more than the cores */
    CHECK(ws_device_open(&c, &dev) == WS_OK);
    CHECK(ws_device_config(dev, &got) == WS_OK);
    CHECK_EQ_U(got.threads, 4);
    CHECK(ws_device_close(dev) == WS_OK);
    unsetenv("WARPSCOPE_THREADS"); /* one per host core, at most the cores */
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    CHECK(ws_device_open(&c, &dev) == WS_OK);
    CHECK(ws_device_config(dev, &got) == WS_OK);
    CHECK_EQ_U(got.threads, cpus < 1 ? 1 : cpus > 4 ? 4 : cpus);
    CHECK(ws_device_close(dev) == WS_OK);
    c.threads = 2; /* given: as given */
    setenv("WARPSCOPE_THREADS", "3", 1);
    CHECK(ws_device_open(&c, &dev) == WS_OK);
    CHECK(ws_device_config(dev, &got) == WS_OK);
    CHECK_EQ_U(got.threads, 2);
    CHECK(ws_device_close(dev) == WS_OK);
    if (saved[0]) setenv("WARPSCOPE_THREADS", saved, 1);
    else unsetenv("WARPSCOPE_THREADS");
}

int main(void)
{
    config_checks();

    ws_config c;
    ws_config_default(&c);
    c.global_mem_limit = 4u << 20;
    ws_device *dev;
    CHECK(ws_device_open(&c, &dev) == WS_OK);

    ws_addr a, b;
    CHECK(ws_malloc(dev, 1000, &a) == WS_OK);
    CHECK(ws_malloc(dev, 0, &b) == WS_ERR_INVALID_ARG);
    /* more than the whole arena: freeing would not help, and the message
     * says so (it read "device memory exhausted (1000 of 4194304 bytes in
     * use)"; for 5 GiB "raise global_mem_limit", which cannot go there) */
    CHECK(ws_malloc(dev, 64u << 20, &b) == WS_ERR_OUT_OF_MEMORY);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_malloc(67108864): device memory exhausted (1000 of 4194304 bytes "
                       "in use; larger than the whole global memory: raise global_mem_limit, at most 3040 MiB)");
    CHECK(ws_malloc(dev, (size_t)5 << 30, &b) == WS_ERR_OUT_OF_MEMORY);
    CHECK_STR_CONTAINS(ws_last_error(dev), "in use; larger than the whole global memory, and than any device's: "
                       "global_mem_limit is at most 3040 MiB)");
    CHECK(ws_malloc(dev, SIZE_MAX, &b) == WS_ERR_OUT_OF_MEMORY);
    CHECK_STR_CONTAINS(ws_last_error(dev), "and than any device's");
    /* the whole limit: never fits, since every allocation has a red zone
     * after it; the message says so and what does fit (until 2026-11-29:
     * "device memory exhausted (1000 of 4194304 bytes in use; raise
     * global_mem_limit)", as if the 1000 bytes were in the way) */
    CHECK(ws_malloc(dev, 4u << 20, &b) == WS_ERR_OUT_OF_MEMORY);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_malloc(4194304): device memory exhausted (1000 of 4194304 bytes in "
                       "use): with the red zone every allocation has after it (at least 256 bytes, the whole rounded "
                       "up to 256) it takes 4194560 bytes, more than the whole global memory; the largest allocation "
                       "this device holds is 4194048 bytes (or raise global_mem_limit)");
    /* fits an empty device, not beside the first: the largest that fits now */
    CHECK(ws_malloc(dev, (4u << 20) - 512, &b) == WS_ERR_OUT_OF_MEMORY);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_malloc(4193792): device memory exhausted (1000 of 4194304 bytes in "
                       "use; the largest free range holds an allocation of at most 4192768 bytes, each taking a red "
                       "zone of at least 256 bytes after it; free some or raise global_mem_limit)");
    CHECK(ws_malloc(dev, 4192768, &b) == WS_OK); /* which it does */
    CHECK(ws_free(dev, b) == WS_OK);

    uint8_t buf[2000] = { 0 };
    for (int i = 0; i < 2000; i++) buf[i] = (uint8_t)i;
    CHECK(ws_memcpy_htod(dev, a, buf, 1000) == WS_OK);
    CHECK(ws_memcpy_htod(dev, a, buf, 1001) == WS_ERR_BAD_ADDRESS);
    CHECK_STR_CONTAINS(ws_last_error(dev), "1 byte past the end of the 1000-byte allocation");
    CHECK(ws_memcpy_htod(dev, a + 1000, buf, 4) == WS_ERR_BAD_ADDRESS);
    CHECK(ws_memcpy_dtoh(dev, buf, 0x100, 4) == WS_ERR_BAD_ADDRESS);
    CHECK_STR_CONTAINS(ws_last_error(dev), "null pointer");
    CHECK(ws_memset(dev, a + 10, 0xAB, 10) == WS_OK);
    CHECK(ws_memcpy_dtod(dev, a + 500, a, 100) == WS_OK);
    uint8_t back[1000];
    CHECK(ws_memcpy_dtoh(dev, back, a, 1000) == WS_OK);
    CHECK_EQ_U(back[9], 9);
    CHECK_EQ_U(back[10], 0xAB);
    CHECK_EQ_U(back[519], 0xAB);
    CHECK_EQ_U(back[999], (uint8_t)999);

    /* frees */
    CHECK(ws_free(dev, a + 8) == WS_ERR_BAD_ADDRESS);
    CHECK_STR_CONTAINS(ws_last_error(dev), "not the start of a live allocation");
    CHECK(ws_free(dev, a) == WS_OK);
    CHECK(ws_free(dev, a) == WS_ERR_BAD_ADDRESS);
    CHECK_STR_CONTAINS(ws_last_error(dev), "double free");
    CHECK(ws_memcpy_dtoh(dev, back, a, 4) == WS_ERR_BAD_ADDRESS);
    CHECK_STR_CONTAINS(ws_last_error(dev), "use after free");

    /* bad modules from memory */
    ws_module *mod = (ws_module *)1;
    CHECK(ws_module_load_data(dev, "not an elf", 10, "junk.bin", &mod) == WS_ERR_BAD_MODULE);
    CHECK(mod == NULL);
    CHECK_STR_CONTAINS(ws_last_error(dev), "junk.bin");
    CHECK(ws_module_load_file(dev, "/nonexistent/k.elf", &mod) == WS_ERR_NOT_FOUND);
    CHECK_STR_CONTAINS(ws_last_error(dev), "/nonexistent/k.elf");

    /* fences and NULLs */
    uint64_t f;
    CHECK(ws_fence(dev, &f) == WS_OK);
    CHECK(ws_fence_wait(dev, f) == WS_OK);
    CHECK(ws_fence_wait(dev, f + 5) == WS_ERR_INVALID_ARG);
    CHECK(ws_malloc(NULL, 4, &b) == WS_ERR_INVALID_ARG);
    CHECK(ws_memcpy_htod(dev, b, NULL, 4) == WS_ERR_INVALID_ARG);
    ws_launch_stats st;
    CHECK(ws_last_launch_stats(dev, &st) == WS_ERR_NOT_FOUND);

    /* still usable, and the limit is reusable after frees */
    int ok = 1;
    for (int i = 0; i < 50; i++) {
        ws_addr x;
        ok &= ws_malloc(dev, 3u << 20, &x) == WS_OK;
        ok &= ws_free(dev, x) == WS_OK;
    }
    CHECK(ok);
    uint64_t used, limit;
    CHECK(ws_mem_info(dev, &used, &limit) == WS_OK);
    CHECK_EQ_U(used, 0);
    CHECK_EQ_U(limit, 4u << 20);
    CHECK(ws_device_close(dev) == WS_OK);

    /* the default 256 MiB device: 256 MiB is refused for the red zone,
     * 256 MiB - 256 fits */
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_malloc(dev, (size_t)256 << 20, &b) == WS_ERR_OUT_OF_MEMORY);
    CHECK_STR_CONTAINS(ws_last_error(dev), "(0 of 268435456 bytes in use): with the red zone every allocation has "
                       "after it");
    CHECK_STR_CONTAINS(ws_last_error(dev), "the largest allocation this device holds is 268435200 bytes");
    CHECK(ws_malloc(dev, ((size_t)256 << 20) - 256, &b) == WS_OK);
    CHECK(ws_free(dev, b) == WS_OK);
    CHECK(ws_device_close(dev) == WS_OK);

    device_threads();
    return TEST_SUMMARY();
}
