/* Instruction counters (src/device/trace/pc_counters.h): exact per-PC
 * metrics from the timing model. Their sums over all PCs must equal the
 * launch's own counters, and kernels with known costs must show them at one
 * instruction: 31 extra wavefronts per request for a 32-way bank conflict,
 * 4 of 32 lanes in a loop only every eighth lane runs, 32 sectors per request
 * for a stride-32 load. Disarmed, nothing is counted.
 * usage: test_pc_counters pcc_kernels.elf */
#include <stdio.h>
#include <string.h>
#include "../test.h"
#include "device/device.h"
#include "device/trace/pc_counters.h"
#include "isa/isa.h"
#include "warpscope/warpscope.h"

static ws_device *dev;
static ws_module *mod;

static int run(const char *name, ws_dim3 grid, ws_dim3 block, const ws_arg *args, size_t n)
{
    ws_kernel *k;
    if (ws_kernel_get(mod, name, &k) != WS_OK || ws_launch(dev, k, grid, block, 0, args, n) != WS_OK ||
        ws_synchronize(dev) != WS_OK) {
        printf("%s: %s\n", name, ws_last_error(dev));
        return -1;
    }
    return 0;
}

/* The counters summed over PCs against the launch's counters. */
static void check_sums(const char *name)
{
    const ws_pc_counters *p = ws_pc_counters_get(dev);
    ws_timing_counters c;
    CHECK(p != NULL && ws_last_launch_counters(dev, &c) == WS_OK);
    if (!p) return;
    ws_pc_counter sum;
    memset(&sum, 0, sizeof sum);
    for (size_t i = 0; i <= p->n; i++) {
        const ws_pc_counter *e = i < p->n ? &p->e[i] : &p->outside;
        sum.warp_instructions += e->warp_instructions;
        sum.thread_instructions += e->thread_instructions;
        sum.shared_requests += e->shared_requests;
        sum.shared_wavefronts += e->shared_wavefronts;
        sum.gmem_requests += e->gmem_requests;
        sum.gmem_sectors += e->gmem_sectors;
        for (int s = 0; s < WS_STATE_COUNT; s++) sum.stall_cycles[s] += e->stall_cycles[s];
    }
    printf("%s: %llu warp-instructions, %llu shared requests, %llu gmem sectors; launch counters %llu, %llu, %llu\n",
           name, (unsigned long long)sum.warp_instructions, (unsigned long long)sum.shared_requests,
           (unsigned long long)sum.gmem_sectors, (unsigned long long)c.warp_instructions,
           (unsigned long long)c.shared_requests, (unsigned long long)c.gmem_sectors);
    CHECK_EQ_U(sum.warp_instructions, c.warp_instructions);
    CHECK_EQ_U(sum.thread_instructions, c.thread_instructions);
    CHECK_EQ_U(sum.shared_requests, c.shared_requests);
    CHECK_EQ_U(sum.shared_wavefronts - sum.shared_requests, c.shared_bank_conflicts);
    CHECK_EQ_U(sum.gmem_requests, c.gmem_requests);
    CHECK_EQ_U(sum.gmem_sectors, c.gmem_sectors);
    for (int s = 0; s < WS_STATE_COUNT; s++) CHECK_EQ_U(sum.stall_cycles[s], c.state_cycles[s]);
    uint64_t out = 0, all = 0;
    for (int s = 0; s < WS_STATE_COUNT; s++) { out += p->outside.stall_cycles[s]; all += c.state_cycles[s]; }
    printf("%s: %llu of %llu warp-cycles outside the module (the exit stub)\n", name, (unsigned long long)out,
           (unsigned long long)all);
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s pcc_kernels.elf\n", argv[0]); return 2; }
    ws_config cfg;
    ws_config_default(&cfg);
    cfg.mode = WS_MODE_TIMING;
    if (ws_device_open(&cfg, &dev) != WS_OK || ws_module_load_file(dev, argv[1], &mod) != WS_OK) return 1;
    ws_addr in = 0, out = 0;
    CHECK(ws_malloc(dev, 4 * 256 * 32, &in) == WS_OK && ws_malloc(dev, 4 * 256, &out) == WS_OK);
    CHECK(ws_memset(dev, in, 0, 4 * 256 * 32) == WS_OK);

    /* disarmed: nothing is counted */
    ws_arg a1[] = { WS_ARG_PTR(out) };
    CHECK(run("conflict", WS_DIM3(4, 1, 1), WS_DIM3(64, 1, 1), a1, 1) == 0);
    CHECK(ws_pc_counters_get(dev) == NULL);
    CHECK(ws_pc_counters_arm(dev, 1) == WS_OK);

    /* 4 blocks x 2 warps: the store and the load each make 8 requests of 32 wavefronts */
    CHECK(run("conflict", WS_DIM3(4, 1, 1), WS_DIM3(64, 1, 1), a1, 1) == 0);
    check_sums("conflict");
    const ws_pc_counters *p = ws_pc_counters_get(dev);
    int conflicted = 0;
    for (size_t i = 0; p && i < p->n; i++)
        if (p->e[i].shared_requests) {
            CHECK_EQ_U(p->e[i].shared_requests, 8);
            CHECK_EQ_U(p->e[i].shared_wavefronts, 8 * 32);
            conflicted++;
        }
    CHECK(conflicted == 2);
    /* cycles waiting at the barrier are the barrier's (as samples are),
     * not the next instruction's */
    uint64_t at_bar = 0, elsewhere = 0;
    for (size_t i = 0; p && i < p->n; i++) {
        const uint64_t b = p->e[i].stall_cycles[WS_STATE_BARRIER];
        if (!b) continue;
        uint32_t bits = 0;
        ws_inst in;
        memcpy(&bits, ws_mem_global_ptr(&dev->mem, p->lo + 2 * (uint32_t)i), 4); /* (module code: not ws_memcpy_dtoh's) */
        ws_decode(bits, &in);
        if (in.op == OP_BAR) at_bar += b;
        else elsewhere += b;
    }
    printf("conflict: %llu barrier warp-cycles at the barrier, %llu elsewhere\n", (unsigned long long)at_bar,
           (unsigned long long)elsewhere);
    CHECK(at_bar > 0);
    CHECK_EQ_U(elsewhere, 0);

    /* one warp-wide loop body with 4 of 32 lanes: thread = 4 x warp instructions */
    ws_arg a2[] = { WS_ARG_PTR(out), WS_ARG_I32(100) };
    CHECK(run("diverge", WS_DIM3(2, 1, 1), WS_DIM3(64, 1, 1), a2, 2) == 0);
    check_sums("diverge");
    p = ws_pc_counters_get(dev);
    int loop_pcs = 0;
    for (size_t i = 0; p && i < p->n; i++)
        if (p->e[i].warp_instructions == 4 * 100) { /* 4 warps x 100 iterations */
            CHECK_EQ_U(p->e[i].thread_instructions, 4 * p->e[i].warp_instructions);
            loop_pcs++;
        }
    printf("diverge: %d instructions run 400 times at 4 lanes of 32\n", loop_pcs);
    CHECK(loop_pcs >= 2);

    /* stride 32 words: 32 sectors per load request, 4 per store request */
    ws_arg a3[] = { WS_ARG_PTR(in), WS_ARG_PTR(out) };
    CHECK(run("strided", WS_DIM3(4, 1, 1), WS_DIM3(64, 1, 1), a3, 2) == 0);
    check_sums("strided");
    p = ws_pc_counters_get(dev);
    int loads = 0, stores = 0;
    uint64_t drains = 0, drains_at_store = 0;
    for (size_t i = 0; p && i < p->n; i++) {
        if (p->e[i].gmem_requests == 8 && p->e[i].gmem_sectors == 8 * 32) loads++;
        if (p->e[i].gmem_requests == 8 && p->e[i].gmem_sectors == 8 * 4) stores++, drains_at_store = p->e[i].exit_drains;
        drains += p->e[i].exit_drains;
    }
    CHECK(loads == 1 && stores == 1);
    /* each of the 8 warps drains for its one store: the store counts 8 (exit_drains) */
    printf("strided: the store completed last for %llu warps, %llu counted in all\n",
           (unsigned long long)drains_at_store, (unsigned long long)drains);
    CHECK_EQ_U(drains_at_store, 8);
    CHECK_EQ_U(drains, 8);

    /* disarmed again: the last armed launch's table stays, new launches are not counted */
    CHECK(ws_pc_counters_arm(dev, 0) == WS_OK);
    ws_device_close(dev);
    return TEST_SUMMARY();
}
