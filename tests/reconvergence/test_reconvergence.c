/* The SIMT reconvergence rule (docs/device.md): the group of lanes at the
 * lowest PC in issue order issues, and lanes meet again where their paths
 * join. On known
 * divergence patterns (reconv_kernels.c) the rule fixes exactly how many
 * warp-instructions issue and how many thread-instructions run; another
 * rule (highest PC first, say) issues the code after a join once per
 * group and fails these counts; without the call depth (lanes inside a
 * call issue before those back in its caller), the ballots after a call
 * in which lanes diverged see only some lanes. One warp of 32 threads per launch. */
#include "warpscope/warpscope.h"
#include "../test.h"

static ws_device *dev;
static ws_module *mod;

typedef struct expect {
    const char *kernel;
    uint64_t warp, thread;         /* of the body, without the wrapper */
    int (*value)(int x);           /* out[x] afterwards                */
} expect;

static int v_straight(int x) { return x; }
static int v_if_else(int x) { return x & 1 ? 11 : 25; }
static int v_nested(int x) { return (x & 3) == 3 ? 101 : x & 1 ? 1 : 0; }
static int v_loop(int x) { return (x & 3) + 1; }
static int v_early(int x) { return x < 8 ? -1 : x; }
static int v_all(int x) { (void)x; return -1; } /* a ballot of all 32 lanes */
static int v_scan(int x) { return x + 1; }

static ws_launch_stats run(const char *name, int *out)
{
    ws_launch_stats s = { 0 };
    ws_kernel *k = NULL;
    ws_addr buf = 0;
    int init[32];
    for (int i = 0; i < 32; i++) init[i] = -1;
    CHECK(ws_kernel_get(mod, name, &k) == WS_OK);
    CHECK(ws_malloc(dev, sizeof init, &buf) == WS_OK);
    CHECK(ws_memcpy_htod(dev, buf, init, sizeof init) == WS_OK);
    ws_arg a[1] = { WS_ARG_PTR(buf) };
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, a, 1) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, out, buf, sizeof init) == WS_OK);
    CHECK(ws_last_launch_stats(dev, &s) == WS_OK);
    CHECK(ws_free(dev, buf) == WS_OK);
    return s;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s reconv_kernels.elf\n", argv[0]); return 2; }
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_module_load_file(dev, argv[1], &mod) == WS_OK);
    int out[32];
    /* the wrapper's own instructions: straight's body is 5, for all lanes */
    ws_launch_stats s = run("straight", out);
    uint64_t wrap = s.warp_instructions - 5;
    CHECK(wrap >= 1 && wrap <= 4);
    CHECK_EQ_U(s.thread_instructions, 32 * s.warp_instructions);
    const expect cases[] = {
        { "straight", 5, 5 * 32, v_straight },
        /* 3 common + 3 odd (16 lanes) + 3 even (16) + 4 after the join (32) */
        { "if_else", 13, 3 * 32 + 3 * 16 + 3 * 16 + 4 * 32, v_if_else },
        /* 4 common + 2 odd + 1 inner (8) + 1 odd again (16) + 4 joined */
        { "nested_if", 12, 4 * 32 + 2 * 16 + 8 + 16 + 4 * 32, v_nested },
        /* 4 before the loop, 3 per iteration for 32, 24, 16, 8 lanes, 4 after */
        { "per_lane_loop", 4 + 4 * 3 + 4, 4 * 32 + 3 * (32 + 24 + 16 + 8) + 4 * 32, v_loop },
        /* 3 common, 4 for the 24 that stay, 1 ret for the 8 that leave */
        { "early_return", 8, 3 * 32 + 4 * 24 + 8, v_early },
        /* 4 common, 2 in the leaf, 2 odd (16), 3 even (16), 6 after the call */
        { "call_diverge", 17, 4 * 32 + 2 * 32 + 2 * 16 + 3 * 16 + 6 * 32, v_all },
        /* 5 common, the call and 2 in the leaf for 16, 6 at the join */
        { "skip_call", 14, 5 * 32 + 3 * 16 + 6 * 32, v_all },
        /* 5 before the loop; for d = 1, 2, 4, 8, 16 the header (2) and the
         * latch (2) for all 32 and the body (2) for 32 - d lanes, the body
         * first (issue order); 4 after */
        { "rotated_scan", 5 + 5 * 6 + 4, 5 * 32 + 5 * 4 * 32 + 2 * (31 + 30 + 28 + 24 + 16) + 4 * 32, v_scan },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const expect *e = &cases[i];
        s = run(e->kernel, out);
        uint64_t warp = e->warp + wrap, thread = e->thread + 32 * wrap;
        printf("%-14s warp-instructions %3llu (expected %3llu), thread-instructions %4llu (expected %4llu), "
               "SIMT efficiency %.3f\n", e->kernel, (unsigned long long)s.warp_instructions,
               (unsigned long long)warp, (unsigned long long)s.thread_instructions, (unsigned long long)thread,
               s.simt_efficiency);
        CHECK_EQ_U(s.warp_instructions, warp);
        CHECK_EQ_U(s.thread_instructions, thread);
        double eff = (double)thread / ((double)warp * 32);
        CHECK(s.simt_efficiency > eff - 1e-9 && s.simt_efficiency < eff + 1e-9);
        int bad = 0;
        for (int x = 0; x < 32; x++) bad += out[x] != e->value(x);
        CHECK_EQ_U(bad, 0);
    }
    ws_device_close(dev);
    return TEST_SUMMARY();
}
