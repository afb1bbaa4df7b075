/* Shared helpers for the timing tests: a device opened from config text,
 * the test kernels loaded, launches with the counters read back. */
#ifndef WS_TIMING_TEST_H
#define WS_TIMING_TEST_H
#include "../test.h"
#include "device/warp_state.h"
#include "warpscope/warpscope.h"

typedef struct tdev {
    ws_device *dev;
    ws_module *mod;
} tdev;

static inline int tdev_open(tdev *t, const char *elf, const char *cfgtext)
{
    ws_config cfg;
    char err[512];
    ws_config_default(&cfg);
    t->dev = NULL;
    t->mod = NULL;
    if (ws_config_parse(&cfg, cfgtext, err, sizeof err) || ws_config_validate(&cfg, err, sizeof err)) {
        fprintf(stderr, "config '%s': %s\n", cfgtext, err);
        return -1;
    }
    if (ws_device_open(&cfg, &t->dev)) return -1;
    if (ws_module_load_file(t->dev, elf, &t->mod)) {
        fprintf(stderr, "load %s: %s\n", elf, ws_last_error(t->dev));
        return -1;
    }
    return 0;
}

static inline ws_status tdev_run(tdev *t, const char *name, ws_dim3 grid, ws_dim3 block,
                                 const ws_arg *args, size_t nargs)
{
    ws_kernel *k;
    ws_status st = ws_kernel_get(t->mod, name, &k);
    if (!st) st = ws_launch(t->dev, k, grid, block, 0, args, nargs);
    if (!st) st = ws_synchronize(t->dev);
    if (st) fprintf(stderr, "%s: %s: %s\n", name, ws_status_name(st), ws_last_error(t->dev));
    return st;
}

/* The state with the most warp-cycles. */
static inline unsigned dominant_state(const ws_timing_counters *c, unsigned skip_selected)
{
    unsigned best = 0;
    uint64_t n = 0;
    for (unsigned s = 0; s < WS_WARP_STATE_COUNT; s++) {
        if (skip_selected && (s == WS_STATE_SELECTED || s == WS_STATE_NOT_SELECTED)) continue;
        if (c->state_cycles[s] > n) n = c->state_cycles[s], best = s;
    }
    return best;
}

static inline uint64_t state_total(const ws_timing_counters *c)
{
    uint64_t n = 0;
    for (unsigned s = 0; s < WS_WARP_STATE_COUNT; s++) n += c->state_cycles[s];
    return n;
}

static inline void print_counters(const char *what, const ws_timing_counters *c)
{
    fprintf(stderr, "%s: %llu cycles, ipc %.3f, simt %.3f, occ %.3f, gmem %llu req %llu sectors, shared %llu req %llu conflicts\n  ",
            what, (unsigned long long)c->cycles, c->ipc, c->simt_efficiency, c->achieved_occupancy,
            (unsigned long long)c->gmem_requests, (unsigned long long)c->gmem_sectors,
            (unsigned long long)c->shared_requests, (unsigned long long)c->shared_bank_conflicts);
    for (unsigned s = 0; s < WS_WARP_STATE_COUNT; s++)
        if (c->state_cycles[s]) fprintf(stderr, "%s=%llu ", ws_warp_state_label(s), (unsigned long long)c->state_cycles[s]);
    fprintf(stderr, "\n");
}
#endif
