/* The timing model's results, pinned: for each kernel and device shape, the
 * simulated cycles, every launch counter, the per-PC instruction counters
 * and the trace-cell records must be exactly what the model produced when
 * the values below were recorded — from commit e4dc889's model, before the
 * cycle loop was made event-driven (issue 14); the dense trace-cell hashes
 * of eight multi-core entries were re-recorded when warps waiting at a
 * barrier that exiting lanes may have opened began to be looked at the
 * next cycle (docs/timing.md; no cycle count or counter changed), and the
 * multi-core ones again when the cycles skipped in one step began to move
 * trace records to the buffer cycle by cycle in core order, as stepping
 * does (the same records in every entry whose buffer did not fill; the
 * order of two cores' records drained in the same skip changed); and the
 * `mixed` kernel's entries when the SIMT starvation guard began to count
 * loop turns instead of instructions (docs/device.md: its loop no longer
 * reaches the guard, so its lanes reconverge as they arrive); and
 * `fault_late`'s cycles and counters when the cycle a launch faults in
 * began to count (one cycle more, and its faulting warp's cycle counted
 * as resident: test_timing's misc test); and the per-PC counters (pcc) of
 * the kernels with barriers when a warp's cycles waiting at a barrier went
 * to the barrier instead of the instruction after it (as samples do); and
 * the pcc of every entry (its PC span and per-PC index, not one cycle or
 * counter) when the device library's printf grew by a few instructions
 * (2026-11-27), which moves the code linked after it; and the GTO device's
 * trace hashes of mm_naive, mm_tiled and vecadd and counters and pcc of
 * reduce when GTO stopped giving the priority of the warp issued last to a
 * new block's warp that took its slot (the older eligible warp issues
 * first, as docs/timing.md's rule says; test_timing's gto_order; no cycle
 * count changed); and every reduce entry when an atomic with a destination
 * register began to hold its warp in `drain` until it completes, as a
 * store does (2026-11-27: the launch had ended while its last atomicAdd
 * was still in flight; test_timing_model's atomic_drain); and the pcc of
 * `mixed`, the kernel with a fence, when a warp's cycles in `membar` went
 * to the fence it issued instead of the instruction after it, as barrier
 * waits go to the barrier (2026-11-27; profiler.depth.membar); and the
 * reduce and mixed entries when a global atomic's lanes on one word began
 * to take turns at the LSU port (2026-11-28: reduce's 32 lanes add to one
 * word, mixed's histogram to 16 bins; test_timing_model's atomic_turns); and
 * the mixed and divergent entries when kernels began to be compiled with
 * convergent functions (2026-11-29, docs/toolchain.md: mixed's loop on
 * blockDim_x() is no longer rotated, 31225 -> 36087 cycles; the code
 * after it moved, so the pcc of divergent, bank_stride, chase and
 * deadlock, and deadlock's dense trace records, which hold pcs). Every way
 * of observing a launch (nothing, instruction counters, trace cells
 * sampling all warps or one warp round-robin) must also give the same
 * cycles and counters, and so must the cores on several host threads
 * (docs/parallel.md; for the faulting kernel the cycle count only).
 *
 * A change to the model that is meant to change timing updates the table:
 * run `test_timing_golden timing_kernels.elf golden_kernels.elf --print`
 * and paste its output. A change that is not meant to (a faster loop) must
 * leave it alone.
 * usage: test_timing_golden timing_kernels.elf golden_kernels.elf [--print] */
#include <stdint.h>
#include "timing_test.h"
#include "device/trace/pc_counters.h"
#include "device/trace/trace_cell.h"

/* Device shapes: the default, a GTO device with more schedulers, and one
 * scheduler over 16 warps with tight queues and a slow LSU port. */
static const char *const configs[] = {
    "mode=timing",
    "mode=timing, cores=2, timing=golden_gto.timing",
    "mode=timing, cores=1, warps_per_core=16, timing=golden_tight.timing",
};

enum { K_MM, K_TILED, K_VECADD, K_REDUCE, K_SPILL, K_MIXED, K_DIVERGENT, K_BANKS, K_CHASE, K_DEADLOCK,
       K_FAULT, K_COUNT };
static const struct { const char *name; int elf; } kernels[K_COUNT] = {
    [K_MM] = { "mm_naive", 1 }, [K_TILED] = { "mm_tiled", 1 }, [K_VECADD] = { "vecadd", 1 },
    [K_REDUCE] = { "reduce", 1 }, [K_SPILL] = { "spill", 1 }, [K_MIXED] = { "mixed", 0 },
    [K_DIVERGENT] = { "divergent", 0 }, [K_BANKS] = { "bank_stride", 0 }, [K_CHASE] = { "chase", 0 },
    [K_DEADLOCK] = { "deadlock", 0 }, [K_FAULT] = { "fault_late", 1 },
};

typedef struct golden {
    uint64_t cycles, counters, pcc, trace_all, trace_rr;
} golden;

/* Recorded from commit e4dc889's model (see above): [kernel][config]. */
static const golden expected[K_COUNT][3] = {
    { /* mm_naive */
        { 13944, 0x43bfea339f567da8ull, 0x5ee9275ef0f7d146ull, 0x3a0c2f2043551a72ull, 0x2c0e2c8b22089679ull }, /* mode=timing */
        { 14254, 0xfc045e09affd27caull, 0x3307e6b88f51075aull, 0x21eb98c8ac9a1e50ull, 0x902889aa5ec55295ull }, /* mode=timing, cores=2, timing=golden_gto.timing */
        { 28638, 0x587b0c6190646a61ull, 0xbe6cfad68f2d31a5ull, 0xd8b6830ac3b638e2ull, 0x47605044c1d4f705ull }, /* mode=timing, cores=1, warps_per_core=16, timing=golden_tight.timing */
    },
    { /* mm_tiled */
        { 94400, 0x34fabae859d2342full, 0xfc41a940de860f7aull, 0x1c6a62ac9aa2ce8dull, 0x2d38e8bec666fc77ull }, /* mode=timing */
        { 105205, 0xd1e981902e071c00ull, 0x0881ddb33781ba1full, 0xa0f0109376ee9d62ull, 0x00adbb1e36e223fbull }, /* mode=timing, cores=2, timing=golden_gto.timing */
        { 257603, 0x14c6970f7ab95af6ull, 0x0c18d90cbdaa8aefull, 0xc792e654b4ac4ae9ull, 0x95862422b4769d99ull }, /* mode=timing, cores=1, warps_per_core=16, timing=golden_tight.timing */
    },
    { /* vecadd */
        { 7600, 0xda68bc135484573bull, 0xb2125509bacb4c4bull, 0x191ec558e5679969ull, 0x377df49d10d576faull }, /* mode=timing */
        { 8640, 0x80527625f7cf69b6ull, 0x12fccad816b18ea0ull, 0x5d210caaa1607a0dull, 0x4593d83ee39a45eeull }, /* mode=timing, cores=2, timing=golden_gto.timing */
        { 19262, 0x7ce263be2905cdb7ull, 0x56f069fea43a44e0ull, 0x355bd346e47c1b3full, 0x56c0d8056d0ab1beull }, /* mode=timing, cores=1, warps_per_core=16, timing=golden_tight.timing */
    },
    { /* reduce */
        { 29101, 0x4d753cd8d36a6a3cull, 0x9079e08801cf83ffull, 0xd6d3415fa061687full, 0x11e35ab9108aa161ull }, /* mode=timing */
        { 33808, 0xb1ff7b731616a8acull, 0x8bf93b993a43d1bcull, 0xbaccf59afbe5ab4bull, 0xea871454b4e6696dull }, /* mode=timing, cores=2, timing=golden_gto.timing */
        { 200209, 0x6ed2d4aacc51b2ffull, 0x113d15818ca865ddull, 0xd56becd84fae5840ull, 0xd21c4b3d229e256cull }, /* mode=timing, cores=1, warps_per_core=16, timing=golden_tight.timing */
    },
    { /* spill */
        { 10507, 0xcb22f889242db038ull, 0xaa67db5d835d6364ull, 0x4576aa3b400659f4ull, 0x051a95259adbb609ull }, /* mode=timing */
        { 6533, 0x60c83630eb770069ull, 0x1f6802d503b5156eull, 0x021ffa502f38bb3dull, 0x828eb12dc5208e90ull }, /* mode=timing, cores=2, timing=golden_gto.timing */
        { 16868, 0xeced5875a2fc5dfcull, 0xeb29734239c7b475ull, 0x61dd768e5a34015eull, 0xe056e203f6a07e75ull }, /* mode=timing, cores=1, warps_per_core=16, timing=golden_tight.timing */
    },
    { /* mixed */
        { 36087, 0x5b8def70de7e5c0dull, 0xa4834e35eb447aceull, 0xa818592b423b7aa8ull, 0x813317100d3cdbe3ull }, /* mode=timing */
        { 66897, 0x3f6a3d5f5cec409cull, 0x3ff7b0e3bdf411d9ull, 0x138247e538646ca6ull, 0x1f8e8ca234b63e85ull }, /* mode=timing, cores=2, timing=golden_gto.timing */
        { 119517, 0x62e285d44b34685dull, 0x282c40249c8bf65aull, 0x04502628fbbbfaf5ull, 0x126246e5964c1748ull }, /* mode=timing, cores=1, warps_per_core=16, timing=golden_tight.timing */
    },
    { /* divergent */
        { 1605, 0x51a7021e6249c147ull, 0xa6b6989939ca8cafull, 0x33d3e8ddf9cb6b69ull, 0x2bf337802c09a97dull }, /* mode=timing */
        { 1221, 0x57a298e8a0737c0full, 0x998cdddc4128450cull, 0x83bec9917056c8e2ull, 0x8e540807fd8e8899ull }, /* mode=timing, cores=2, timing=golden_gto.timing */
        { 6427, 0x7e3dc4ba3c73982full, 0xa3f733955f37b6e3ull, 0x4e8c63e4369c0a80ull, 0x44a34a020c060167ull }, /* mode=timing, cores=1, warps_per_core=16, timing=golden_tight.timing */
    },
    { /* bank_stride */
        { 2200, 0x4564dd18be2a4197ull, 0x5e72cd557f7c49faull, 0x52793cfb5313064eull, 0x629af402f9e8c1ddull }, /* mode=timing */
        { 1645, 0x11f8ff917122b5b4ull, 0xebfef4d9f2f35fdbull, 0x6a9aa2bec9157621ull, 0x395998928b6dc715ull }, /* mode=timing, cores=2, timing=golden_gto.timing */
        { 4021, 0xd5e3f36f9f5a2530ull, 0x185c526b05d957beull, 0x4f1f198c974b5b89ull, 0x4985fcaf31421c71ull }, /* mode=timing, cores=1, warps_per_core=16, timing=golden_tight.timing */
    },
    { /* chase */
        { 10592, 0x39ff6fc718c08b0aull, 0xdb5bf985fa8503cdull, 0x5b041b621bf1fe93ull, 0xea70f761c87e62d4ull }, /* mode=timing */
        { 5388, 0xa69ff62e41848d25ull, 0x0c6528ccd9204420ull, 0xf1f06dedbc8f47c2ull, 0x2d4cd65d4caa25fcull }, /* mode=timing, cores=2, timing=golden_gto.timing */
        { 10923, 0x6cdd1c0ffbd2a54aull, 0x463f1c86e30b15a9ull, 0x3a308b73ab5c072cull, 0xa3a3fee2c5527423ull }, /* mode=timing, cores=1, warps_per_core=16, timing=golden_tight.timing */
    },
    { /* deadlock */
        { 41, 0x5ac3bbfe2e2dcfe2ull, 0x59c3dbf761694cd3ull, 0xb01299df2fcca3a5ull, 0x81d23fd7003c2305ull }, /* mode=timing */
        { 36, 0x0943d68b9bb34e5eull, 0x9f507b4eede8de53ull, 0xb4386f627e5ad419ull, 0x81d23fd7003c2305ull }, /* mode=timing, cores=2, timing=golden_gto.timing */
        { 60, 0x61619538b433356cull, 0x6446fea35177312bull, 0x7676b3683283f673ull, 0x81d23fd7003c2305ull }, /* mode=timing, cores=1, warps_per_core=16, timing=golden_tight.timing */
    },
    { /* fault_late */
        { 135, 0x6769445889800cb1ull, 0xa3ed313b76094e88ull, 0xfe507e7afaf704dbull, 0x81d23fd7003c2305ull }, /* mode=timing */
        { 114, 0x26bc92dbb0c8967aull, 0x8d32b95837960110ull, 0x496edb8020ba85adull, 0x81d23fd7003c2305ull }, /* mode=timing, cores=2, timing=golden_gto.timing */
        { 382, 0xca5f6cadc9499da5ull, 0xee55adc373bd2a34ull, 0x5df999a7c1450c42ull, 0x7057cdf33dec3352ull }, /* mode=timing, cores=1, warps_per_core=16, timing=golden_tight.timing */
    },
};

enum { V_PLAIN, V_PCC, V_TRACE_ALL, V_TRACE_RR, V_THREADS, V_COUNT };

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}
#define FNV0 0xcbf29ce484222325ull
#define MIX(h, v) do { uint64_t v_ = (v); h = fnv(h, &v_, sizeof v_); } while (0)

static uint64_t hash_counters(const ws_timing_counters *c)
{
    uint64_t h = FNV0;
    MIX(h, c->launch_id);
    MIX(h, c->cycles);
    MIX(h, c->warp_instructions);
    MIX(h, c->thread_instructions);
    MIX(h, c->resident_warp_cycles);
    MIX(h, c->gmem_requests);
    MIX(h, c->gmem_sectors);
    MIX(h, c->shared_requests);
    MIX(h, c->shared_bank_conflicts);
    for (int u = 0; u < WS_UNIT_COUNT; u++) {
        MIX(h, c->unit_busy[u]);
        MIX(h, c->unit_instances[u]);
    }
    for (int s = 0; s < WS_WARP_STATE_COUNT; s++) MIX(h, c->state_cycles[s]);
    /* the ratios are computed from the above; their bits must not move either */
    h = fnv(h, &c->ipc, sizeof c->ipc);
    h = fnv(h, &c->simt_efficiency, sizeof c->simt_efficiency);
    h = fnv(h, &c->achieved_occupancy, sizeof c->achieved_occupancy);
    h = fnv(h, &c->sectors_per_request, sizeof c->sectors_per_request);
    return h;
}

static uint64_t hash_pcc(const ws_pc_counters *p)
{
    uint64_t h = FNV0;
    if (!p) return 0;
    MIX(h, p->lo);
    MIX(h, p->hi);
    for (size_t i = 0; i <= p->n; i++) {
        const ws_pc_counter *e = i < p->n ? &p->e[i] : &p->outside;
        MIX(h, i);
        MIX(h, e->warp_instructions);
        MIX(h, e->thread_instructions);
        MIX(h, e->shared_requests);
        MIX(h, e->shared_wavefronts);
        MIX(h, e->gmem_requests);
        MIX(h, e->gmem_sectors);
        for (int s = 0; s < WS_STATE_COUNT; s++) MIX(h, e->stall_cycles[s]);
    }
    return h;
}

static uint64_t hash_trace(const ws_trace_header *hd, const ws_trace_record *r, uint64_t n)
{
    uint64_t h = FNV0;
    MIX(h, hd->written);
    MIX(h, hd->dropped);
    MIX(h, hd->overflowed);
    for (uint64_t i = 0; i < n; i++) {
        MIX(h, r[i].cycle);
        MIX(h, r[i].launch_id);
        MIX(h, r[i].block);
        MIX(h, r[i].pc);
        MIX(h, r[i].producer_pc);
        MIX(h, r[i].core);
        MIX(h, r[i].warp);
        MIX(h, r[i].state);
        MIX(h, r[i].active_mask);
    }
    return h;
}

static void fill(ws_device *dev, ws_addr a, unsigned words, unsigned mod, int as_float)
{
    uint32_t *h = malloc(words * 4u);
    for (unsigned i = 0; i < words; i++) {
        float f = (float)(i % mod) * 0.25f;
        if (as_float) memcpy(&h[i], &f, 4);
        else h[i] = i % mod;
    }
    ws_memcpy_htod(dev, a, h, words * 4u);
    free(h);
}

/* One launch of kernel k on config cfg, observed as variant v. Returns the
 * cycles (0 on failure); *counters and *observed get the hashes. */
static uint64_t run_one(const char *const elfs[2], int k, int cfg, int v, uint64_t *counters, uint64_t *observed)
{
    tdev t;
    *counters = *observed = 0;
    char text[256]; /* one host thread pins the model; V_THREADS runs the cores on four */
    snprintf(text, sizeof text, "%s, threads=%d", configs[cfg], v == V_THREADS ? 4 : 1);
    if (tdev_open(&t, elfs[kernels[k].elf], text)) {
        if (t.dev) ws_device_close(t.dev);
        return 0;
    }
    ws_device *dev = t.dev;
    ws_addr a = 0, b = 0, c = 0, buf = 0;
    const uint32_t cap = 1u << 15;
    ws_arg args[4];
    size_t na = 0;
    ws_dim3 grid = WS_DIM3(1, 1, 1), block = WS_DIM3(1, 1, 1);
    switch (k) {
    case K_MM: case K_TILED: {
        const int n = k == K_MM ? 32 : 64;
        ws_malloc(dev, (size_t)n * n * 4, &a);
        ws_malloc(dev, (size_t)n * n * 4, &b);
        ws_malloc(dev, (size_t)n * n * 4, &c);
        fill(dev, a, (unsigned)(n * n), 17, 1);
        fill(dev, b, (unsigned)(n * n), 13, 1);
        args[0] = WS_ARG_PTR(a), args[1] = WS_ARG_PTR(b), args[2] = WS_ARG_PTR(c), args[3] = WS_ARG_I32(n);
        na = 4;
        grid = WS_DIM3((unsigned)n / 16, (unsigned)n / 16, 1), block = WS_DIM3(16, 16, 1);
        break;
    }
    case K_VECADD:
        ws_malloc(dev, 8192 * 4, &a);
        ws_malloc(dev, 8192 * 4, &b);
        ws_malloc(dev, 8192 * 4, &c);
        fill(dev, a, 8192, 101, 1);
        fill(dev, b, 8192, 7, 1);
        args[0] = WS_ARG_PTR(a), args[1] = WS_ARG_PTR(b), args[2] = WS_ARG_PTR(c);
        na = 3;
        grid = WS_DIM3(32, 1, 1), block = WS_DIM3(256, 1, 1);
        break;
    case K_REDUCE:
        ws_malloc(dev, 65536 * 4, &a);
        ws_malloc(dev, 4, &b);
        fill(dev, a, 65536, 1000, 0);
        ws_memset(dev, b, 0, 4);
        args[0] = WS_ARG_PTR(a), args[1] = WS_ARG_PTR(b), args[2] = WS_ARG_I32(64);
        na = 3;
        grid = WS_DIM3(8, 1, 1), block = WS_DIM3(128, 1, 1);
        break;
    case K_SPILL:
        ws_malloc(dev, 512 * 4, &a);
        args[0] = WS_ARG_PTR(a), args[1] = WS_ARG_I32(20);
        na = 2;
        grid = WS_DIM3(4, 1, 1), block = WS_DIM3(128, 1, 1);
        break;
    case K_MIXED:
        ws_malloc(dev, 1000 * 4, &a);
        ws_malloc(dev, 16 * 4, &b);
        fill(dev, a, 1000, 37, 1);
        ws_memset(dev, b, 0, 16 * 4);
        args[0] = WS_ARG_PTR(a), args[1] = WS_ARG_PTR(b), args[2] = WS_ARG_I32(1000);
        na = 3;
        grid = WS_DIM3(4, 1, 1), block = WS_DIM3(256, 1, 1);
        break;
    case K_DIVERGENT:
        ws_malloc(dev, 512 * 4, &a);
        args[0] = WS_ARG_PTR(a), args[1] = WS_ARG_I32(50);
        na = 2;
        grid = WS_DIM3(4, 1, 1), block = WS_DIM3(128, 1, 1);
        break;
    case K_BANKS:
        ws_malloc(dev, 257 * 4, &a);
        args[0] = WS_ARG_PTR(a), args[1] = WS_ARG_I32(3), args[2] = WS_ARG_I32(40);
        na = 3;
        grid = WS_DIM3(2, 1, 1), block = WS_DIM3(256, 1, 1);
        break;
    case K_DEADLOCK: /* ends in WS_ERR_DEADLOCK; the counters still count */
        ws_malloc(dev, 256 * 4, &a);
        args[0] = WS_ARG_PTR(a);
        na = 1;
        grid = WS_DIM3(2, 1, 1), block = WS_DIM3(128, 1, 1);
        break;
    case K_FAULT: /* one lane faults mid-launch */
        ws_malloc(dev, 1024 * 4, &a);
        args[0] = WS_ARG_PTR(a), args[1] = WS_ARG_I32(30);
        na = 2;
        grid = WS_DIM3(8, 1, 1), block = WS_DIM3(128, 1, 1);
        break;
    default: { /* K_CHASE: lane l follows l, l + 32, ... through 8 rows */
        const unsigned n = 32 * 8;
        ws_malloc(dev, n * 4, &a);
        ws_malloc(dev, (n + 1) * 4, &b);
        uint32_t host[32 * 8];
        for (unsigned i = 0; i < n; i++) host[i] = a + ((i + 32 * 3) % n) * 4;
        ws_memcpy_htod(dev, a, host, sizeof host);
        args[0] = WS_ARG_PTR(a), args[1] = WS_ARG_I32(25), args[2] = WS_ARG_PTR(b);
        na = 3;
        grid = WS_DIM3(2, 1, 1), block = WS_DIM3(128, 1, 1);
        break;
    }
    }
    if (v == V_PCC) CHECK(ws_pc_counters_arm(dev, 1) == WS_OK);
    if (v == V_TRACE_ALL || v == V_TRACE_RR) {
        ws_malloc(dev, sizeof(ws_trace_header) + cap * sizeof(ws_trace_record), &buf);
        ws_trace_config tc;
        memset(&tc, 0, sizeof tc);
        tc.enabled = 1;
        tc.core_mask = ~0ull;
        tc.buffer = buf;
        tc.capacity = cap;
        if (v == V_TRACE_ALL) { /* dense: FIFOs overflow on busy cores */
            tc.trigger = WS_TRACE_ON_CYCLES;
            tc.period_log2 = 3;
            tc.phase = 5;
            tc.mode = WS_TRACE_ALL_WARPS;
        } else {
            tc.trigger = WS_TRACE_ON_GMEM_REQ;
            tc.event_count = 2;
            tc.mode = WS_TRACE_ROUND_ROBIN;
        }
        CHECK(ws_trace_configure(dev, &tc) == WS_OK);
    }
    uint64_t cycles = 0;
    ws_timing_counters tcn;
    ws_status st = tdev_run(&t, kernels[k].name, grid, block, args, na);
    if ((st == WS_OK) == (k != K_DEADLOCK && k != K_FAULT) && ws_last_launch_counters(dev, &tcn) == WS_OK) {
        cycles = tcn.cycles;
        *counters = hash_counters(&tcn);
        if (v == V_PCC) *observed = hash_pcc(ws_pc_counters_get(dev));
        if (buf) {
            ws_trace_header hd;
            ws_memcpy_dtoh(dev, &hd, buf, sizeof hd);
            uint64_t n = hd.written < cap ? hd.written : cap;
            ws_trace_record *r = calloc(n ? n : 1, sizeof *r);
            ws_memcpy_dtoh(dev, r, buf + sizeof hd, n * sizeof *r);
            *observed = hash_trace(&hd, r, n);
            free(r);
        }
    }
    ws_device_close(dev);
    return cycles;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) { fputs(text, f); fclose(f); }
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: %s timing_kernels.elf golden_kernels.elf [--print]\n", argv[0]); return 2; }
    const char *const elfs[2] = { argv[1], argv[2] };
    const int print = argc > 3 && !strcmp(argv[3], "--print");
    write_file("golden_gto.timing", "scheduler = gto\nschedulers = 4\nfetch_latency = 0\nglobal_latency = 200\n");
    write_file("golden_tight.timing", "schedulers = 1\nmio_queue = 2\nlg_queue = 8\nsector_cycles = 3\n"
                                      "branch_latency = 0\nshared_latency = 30\ndiv_interval = 3\n");
    for (int k = 0; k < K_COUNT; k++) {
        if (print) printf("    { /* %s */\n", kernels[k].name);
        for (int cfg = 0; cfg < 3; cfg++) {
            golden got;
            uint64_t cyc[V_COUNT], ctr[V_COUNT], obs[V_COUNT];
            for (int v = 0; v < V_COUNT; v++) cyc[v] = run_one(elfs, k, cfg, v, &ctr[v], &obs[v]);
            got.cycles = cyc[V_PLAIN];
            got.counters = ctr[V_PLAIN];
            got.pcc = obs[V_PCC];
            got.trace_all = obs[V_TRACE_ALL];
            got.trace_rr = obs[V_TRACE_RR];
            CHECK(got.cycles != 0);
            for (int v = 1; v < V_COUNT; v++) { /* observing changes nothing, nor do host threads */
                CHECK_EQ_U(cyc[v], cyc[V_PLAIN]);
                if (v != V_THREADS || k != K_FAULT) CHECK_EQ_U(ctr[v], ctr[V_PLAIN]); /* parallel.md: failed launches */
            }
            if (print) {
                printf("        { %llu, 0x%016llxull, 0x%016llxull, 0x%016llxull, 0x%016llxull }, /* %s */\n",
                       (unsigned long long)got.cycles, (unsigned long long)got.counters,
                       (unsigned long long)got.pcc, (unsigned long long)got.trace_all,
                       (unsigned long long)got.trace_rr, configs[cfg]);
                continue;
            }
            const golden *e = &expected[k][cfg];
            fprintf(stderr, "%s on '%s': %llu cycles (expected %llu)\n", kernels[k].name, configs[cfg],
                    (unsigned long long)got.cycles, (unsigned long long)e->cycles);
            CHECK_EQ_U(got.cycles, e->cycles);
            CHECK_EQ_U(got.counters, e->counters);
            CHECK_EQ_U(got.pcc, e->pcc);
            CHECK_EQ_U(got.trace_all, e->trace_all);
            CHECK_EQ_U(got.trace_rr, e->trace_rr);
        }
        if (print) printf("    },\n");
    }
    return TEST_SUMMARY();
}
