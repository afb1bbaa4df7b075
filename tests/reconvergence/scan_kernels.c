/* Warp-shuffle idioms as CUDA programmers write them, built at -O0, -O1,
 * -O2, -O3 and -Os (CMakeLists.txt): clang places their blocks differently at
 * each level (a rotated loop's latch above its header, an `if` body below
 * the loop, a loop unrolled with the add's block copied), and every
 * shuffle must still see every lane (test_warp_scan.c). Until 2026-11-29
 * the scans came out wrong at -O1 and -O3: issue order and convergent code
 * (docs/device.md, docs/toolchain.md). */
#include <warpscope/kernel.h>

/* Inclusive scan, the branch form, over CUDA's 32-lane warps (a loop
 * clang unrolls at -O3; on narrower warps the steps past them add
 * nothing: no lane is that far from the warp's start). */
WS_KERNEL void scan_if(const int *in, int *out)
{
    unsigned lane = ws_lane_id();
    int v = in[ws_global_id_x()];
    for (unsigned d = 1; d < 32; d <<= 1) {
        int u = ws_shfl_up(v, d);
        if (lane >= d) v += u;
    }
    out[ws_global_id_x()] = v;
}

/* The same with a select, which clang turns back into a branch. */
WS_KERNEL void scan_select(const int *in, int *out)
{
    unsigned lane = ws_lane_id();
    int v = in[ws_global_id_x()];
    for (unsigned d = 1; d < 32; d <<= 1) {
        int u = ws_shfl_up(v, d);
        v += lane >= d ? u : 0;
    }
    out[ws_global_id_x()] = v;
}

/* The tree reduction with shfl_down, guarded by the lanes that have a
 * partner: lane 0 ends with the warp's sum. */
WS_KERNEL void reduce_if(const int *in, int *out)
{
    unsigned lane = ws_lane_id();
    int v = in[ws_global_id_x()];
    for (unsigned d = ws_warp_size() / 2; d; d >>= 1) {
        int u = ws_shfl_down(v, d);
        if (lane + d < ws_warp_size()) v += u;
    }
    out[ws_global_id_x()] = v;
}

/* A block scan: each warp scans, warp 0 scans the warps' totals in shared
 * memory, each warp adds the totals before it; n may end mid-block. */
WS_SHARED int warp_total[64];
WS_KERNEL void block_scan(const int *in, int *out, int n)
{
    unsigned g = ws_global_id_x(), lane = ws_lane_id(), w = ws_warp_in_block(), size = ws_warp_size();
    int v = g < (unsigned)n ? in[g] : 0;
    for (unsigned d = 1; d < size; d <<= 1) {
        int u = ws_shfl_up(v, d);
        if (lane >= d) v += u;
    }
    if (lane == size - 1) warp_total[w] = v;
    ws_syncthreads();
    unsigned nw = (blockDim_x() + size - 1) / size;
    if (w == 0) {
        int t = lane < nw ? warp_total[lane] : 0;
        for (unsigned d = 1; d < size; d <<= 1) {
            int u = ws_shfl_up(t, d);
            if (lane >= d) t += u;
        }
        if (lane < nw) warp_total[lane] = t;
    }
    ws_syncthreads();
    if (w > 0) v += warp_total[w - 1];
    if (g < (unsigned)n) out[g] = v;
}

/* Lane 0 of each warp loops 300 times, the others `lane` times, then a
 * warp sum: after 256 turns of lane 0 alone the starvation guard lets the
 * others go on, and the sum must still wait for lane 0 (until 2026-11-29
 * they summed without it). An LCG step clang cannot fold. */
WS_KERNEL void long_loop_sum(const int *in, int *out)
{
    unsigned lane = ws_lane_id();
    unsigned v = (unsigned)in[ws_global_id_x()], n = lane ? lane : 300;
    for (unsigned i = 0; i < n; i++) v = v * 1103515245u + 12345u;
    for (unsigned d = ws_warp_size() / 2; d; d >>= 1) v += (unsigned)ws_shfl_xor((int)v, d);
    out[ws_global_id_x()] = (int)v;
}

/* A work queue: every lane does `lane % 7 + 1` items, the warp loops
 * while any lane has work, and a lane without work takes the `continue`,
 * a second way back to the loop's header. Issue order holds those lanes
 * at the header until the lanes still in the body get there, so every
 * ballot sees the whole warp: each lane counts the warp's rounds (7 in a
 * warp of 7 or more lanes), then a warp sum of the work done. Until
 * 2026-11-29 the lanes that continued ran the next ballot without the
 * others (rounds 2 3 4 5 6 7 7 ...). */
WS_KERNEL void work_queue(const int *in, int *out)
{
    unsigned lane = ws_lane_id();
    int work = (int)(lane % 7) + 1, rounds = 0, done = 0;
    while (ws_ballot(work > 0)) {
        rounds++;
        if (work == 0) continue;
        done += in[ws_global_id_x()] + work;
        work--;
    }
    for (unsigned d = ws_warp_size() / 2; d; d >>= 1) done += ws_shfl_xor(done, d);
    out[ws_global_id_x()] = rounds * 1000000 + done;
}

/* The work queue with its ballot in a function of its own, as every
 * helper is at -O0: a loop that calls a function holding a vote,
 * shuffle or barrier holds its lanes at its header as if the call were
 * inlined (until 2026-11-29 only an inlined one did, and at -O0 the
 * rounds came out 2 3 4 5 6 7 7 ...). */
__attribute__((noinline)) static unsigned any_left(int work)
{
    return ws_ballot(work > 0);
}

WS_KERNEL void call_queue(const int *in, int *out)
{
    unsigned lane = ws_lane_id();
    int work = (int)(lane % 7) + 1, rounds = 0, done = 0;
    while (any_left(work)) {
        rounds++;
        if (work == 0) continue;
        done += in[ws_global_id_x()] + work;
        work--;
    }
    for (unsigned d = ws_warp_size() / 2; d; d >>= 1) done += ws_shfl_xor(done, d);
    out[ws_global_id_x()] = rounds * 1000000 + done;
}

/* A switch on each lane's value, with cases enough for clang to jump
 * through a table (at -O1 and -O2; at -O3 and -Os it may pick otherwise),
 * then the scan. Until 2026-11-29 the loader did not follow the jump to
 * the cases, so the whole function kept address order and the scan was
 * wrong at -O1 and -O2, as without issue order. */
WS_KERNEL void switch_scan(const int *in, int *out)
{
    unsigned lane = ws_lane_id();
    int v = in[ws_global_id_x()];
    switch (lane % 8) {
    case 0: v = v * 3; break;
    case 1: v = v + 7; break;
    case 2: v = v ^ 5; break;
    case 3: v = v - 2; break;
    case 4: v = v << 1; break;
    case 5: v = v * v; break;
    case 6: v = v + 100; break;
    default: break;
    }
    for (unsigned d = 1; d < 32; d <<= 1) {
        int u = ws_shfl_up(v, d);
        if (lane >= d) v += u;
    }
    out[ws_global_id_x()] = v;
}

/* A switch and a scan in a loop of three turns, which clang unrolls at
 * -O3 with each copy's cases below, jumping back up to its scan: each
 * switch's jump goes to its own table's cases (until 2026-11-29 every
 * table's, which looked like a loop entered at two places, so address
 * order, and wrong sums at -O1 and -O3; a tester's kernel). */
WS_KERNEL void switch_loop_scan(const int *in, int *out)
{
    int v = in[ws_global_id_x()], acc = 0;
    for (int k = 0; k < 3; k++) {
        int r;
        switch ((unsigned)(v + k) % 7u) {
        case 0: r = 1; break;
        case 1: r = v + 2; break;
        case 2: r = v * 3; break;
        case 3: r = v - 4; break;
        case 4: r = v >> 1; break;
        case 5: r = 55; break;
        default: r = k; break;
        }
        for (unsigned d = 1; d < 32; d <<= 1) {
            int u = ws_shfl_up(r, d);
            if (ws_lane_id() >= d) r += u;
        }
        acc += r;
    }
    out[ws_global_id_x()] = acc;
}

/* Lane 0 of each warp has two work items of 400 steps; the warp loops
 * while any lane has work, a block barrier in the loop: every lane loops
 * twice. After 256 turns of lane 0 alone the starvation guard gives the
 * others a turn, and back at the loop's header they must wait for lane 0
 * again, not run the loop's next vote without it (until 2026-11-29 they
 * did at -O0, left the loop, and the block deadlocked at the barriers). */
WS_KERNEL void guard_barrier_loop(const int *in, int *out)
{
    unsigned lane = ws_lane_id(), acc = (unsigned)in[ws_global_id_x()];
    int work = lane == 0 ? 2 : 0, iters = 0;
    while (ws_any(work > 0)) {
        iters++;
        ws_syncthreads();
        if (work > 0) {
            for (unsigned i = 0; i < 400; i++) acc = acc * 3u + i;
            work--;
        }
    }
    out[ws_global_id_x()] = iters * 100000 + (int)(acc & 0xffffu);
}

/* A loop the odd lanes enter in its middle (a `goto` into it: an
 * irreducible loop), then the scan. The loader cannot keep such a loop's
 * blocks together, but still orders them topologically, so the lanes that
 * left it wait for those still in it (until 2026-11-29 the function kept
 * address order, and at -O1 the scan came out wrong). */
WS_KERNEL void irreducible_scan(const int *in, int *out)
{
    int lane = (int)ws_lane_id(), i = (lane & 1) ? 3 : 0, acc = in[ws_global_id_x()];
    if (lane & 1) goto mid;
top:
    acc += i;
mid:
    acc ^= i * 5;
    i++;
    if (i < 6) goto top;
    for (int d = 1; d < 32; d <<= 1) {
        int u = ws_shfl_up(acc, d);
        if (lane >= d) acc += u;
    }
    out[ws_global_id_x()] = acc;
}
