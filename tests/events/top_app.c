/* A program that uses the top of its global memory: allocations at the
 * arena's highest addresses, a kernel writing them, and faults just past
 * them. It prints every address, result and fault message, so that its
 * output run alone and run under the event watcher (WARPSCOPE_WATCH,
 * `warpscope watch`) can be compared byte for byte: a tool must not move,
 * take or change anything the program has (events.watch_no_perturb).
 * Usage: top_app KERNELS.elf CONFIG */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <warpscope/abi.h>
#include <warpscope/warpscope.h>

static void say(ws_device *dev, const char *what, ws_status st)
{
    printf("%s: %s%s%s\n", what, ws_status_name(st), st == WS_OK ? "" : ": ", st == WS_OK ? "" : ws_last_error(dev));
}

static void run_fill(ws_device *dev, ws_kernel *k, ws_addr at, int n, int v)
{
    ws_arg a[] = { WS_ARG_PTR(at), WS_ARG_I32(n), WS_ARG_I32(v) };
    char what[64];
    snprintf(what, sizeof what, "fill 0x%08x", at);
    say(dev, what, ws_launch(dev, k, WS_DIM3((unsigned)(n + 63) / 64, 1, 1), WS_DIM3(64, 1, 1), 0, a, 3));
    say(dev, "  synchronize", ws_synchronize(dev));
    ws_launch_stats ls;
    if (ws_last_launch_stats(dev, &ls) == WS_OK) /* (cycles: timing mode) */
        printf("  %llu warp instructions, %llu cycles, %llu blocks\n", (unsigned long long)ls.warp_instructions,
               (unsigned long long)ls.cycles, (unsigned long long)ls.blocks);
    static int host[1 << 16];
    ws_status st = ws_memcpy_dtoh(dev, host, at, (size_t)n * 4);
    unsigned long long h = 1469598103934665603ull;
    for (int i = 0; st == WS_OK && i < n; i++) h = (h ^ (uint32_t)host[i]) * 1099511628211ull;
    printf("  read back: %s, hash %016llx, out[%d] = %d\n", ws_status_name(st), h, n - 1, st == WS_OK ? host[n - 1] : 0);
}

static void run_poke(ws_device *dev, ws_kernel *k, ws_addr p)
{
    ws_arg a[] = { WS_ARG_PTR(p) };
    char what[64];
    snprintf(what, sizeof what, "poke 0x%08x", p);
    say(dev, what, ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, a, 1));
    say(dev, "  synchronize", ws_synchronize(dev));
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: top_app KERNELS.elf CONFIG\n");
        return 2;
    }
    ws_config cfg;
    ws_config_default(&cfg);
    char err[256];
    if (ws_config_parse(&cfg, argv[2], err, sizeof err) != WS_OK) {
        fprintf(stderr, "top_app: %s\n", err);
        return 2;
    }
    ws_device *dev = NULL;
    if (ws_device_open(&cfg, &dev) != WS_OK) {
        fprintf(stderr, "top_app: cannot open the device\n");
        return 1;
    }
    uint64_t used = 0, limit = 0;
    ws_mem_info(dev, &used, &limit);
    printf("limit %llu, used %llu\n", (unsigned long long)limit, (unsigned long long)used);
    const ws_addr end = WS_GLOBAL_BASE + (ws_addr)limit;
    ws_module *mod = NULL;
    ws_kernel *fill = NULL, *poke = NULL;
    say(dev, "load", ws_module_load_file(dev, argv[1], &mod));
    if (!mod || ws_kernel_get(mod, "fill", &fill) != WS_OK || ws_kernel_get(mod, "poke", &poke) != WS_OK) return 1;
    ws_addr low = 0, mid = 0;
    say(dev, "malloc 4096", ws_malloc(dev, 4096, &low));
    printf("  at 0x%08x\n", low);
    /* the top 4 KiB page but one (its red zone follows), and 256 KiB below */
    const ws_addr top = end - 8192, below = end - (256u << 10) - 8192;
    char what[64];
    snprintf(what, sizeof what, "malloc_at 0x%08x 4096", top);
    say(dev, what, ws_malloc_at(dev, top, 4096));
    snprintf(what, sizeof what, "malloc_at 0x%08x 65536", below);
    say(dev, what, ws_malloc_at(dev, below, 65536));
    say(dev, "malloc 1048576", ws_malloc(dev, 1u << 20, &mid));
    printf("  at 0x%08x\n", mid);
    ws_mem_info(dev, &used, &limit);
    printf("limit %llu, used %llu\n", (unsigned long long)limit, (unsigned long long)used);
    run_fill(dev, fill, top, 1024, 3);
    run_fill(dev, fill, below, 16384, 7);
    run_fill(dev, fill, low, 1024, 5);
    run_poke(dev, poke, top + 4096 + 16); /* its red zone */
    run_poke(dev, poke, end - 64);        /* the last bytes of the arena, never allocated */
    run_poke(dev, poke, end + 64);        /* just past global_mem_limit */
    run_fill(dev, fill, top, 1024, 11);   /* the device goes on after the faults */
    say(dev, "free top", ws_free(dev, top));
    snprintf(what, sizeof what, "malloc_at 0x%08x 4096 again", end - 4096 - 256);
    say(dev, what, ws_malloc_at(dev, end - 4096 - 256, 4096));
    ws_mem_info(dev, &used, &limit);
    printf("limit %llu, used %llu\n", (unsigned long long)limit, (unsigned long long)used);
    ws_device_close(dev);
    return 0;
}
