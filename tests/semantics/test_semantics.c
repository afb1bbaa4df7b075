/* SIMT semantics on real compiled kernels, each result computed on the
 * host from the documented rules (docs/device.md). Also runs under several
 * device shapes: results must not depend on the configuration. */
#include <stdlib.h>
#include <string.h>
#include "warpscope/warpscope.h"
#include "device/parallel.h"
#include "../test.h"

typedef struct ctx {
    ws_device *dev;
    ws_module *mod;
    uint32_t lanes;
    int one_thread;             /* the cores run on one host thread */
} ctx;

static ws_kernel *kern(ctx *c, const char *name)
{
    ws_kernel *k = NULL;
    if (ws_kernel_get(c->mod, name, &k)) fprintf(stderr, "%s\n", ws_last_error(c->dev));
    return k;
}

static ws_addr buf(ctx *c, size_t bytes, int fill)
{
    ws_addr a = 0;
    if (ws_malloc(c->dev, bytes, &a) == WS_OK) ws_memset(c->dev, a, fill, bytes);
    return a;
}

static int run(ctx *c, const char *name, ws_dim3 grid, ws_dim3 block, uint32_t dyn, const ws_arg *a, size_t n)
{
    ws_kernel *k = kern(c, name);
    if (!k) return -1;
    ws_status st = ws_launch(c->dev, k, grid, block, dyn, a, n);
    if (st == WS_OK) st = ws_synchronize(c->dev);
    if (st != WS_OK) fprintf(stderr, "%s: %s: %s\n", name, ws_status_name(st), ws_last_error(c->dev));
    return st == WS_OK ? 0 : -1;
}

static void nested_divergence(ctx *c)
{
    enum { B = 45, G = 3 }; /* partial warps */
    ws_addr o = buf(c, B * G * 4, 0);
    ws_arg a[] = { WS_ARG_PTR(o) };
    CHECK(run(c, "nested_divergence", WS_DIM3(G, 1, 1), WS_DIM3(B, 1, 1), 0, a, 1) == 0);
    int got[B * G], bad = 0;
    ws_memcpy_dtoh(c->dev, got, o, sizeof got);
    for (int b = 0; b < G; b++)
        for (int t = 0; t < B; t++) {
            int acc = 0;
            for (int i = 0; i < t % 7 + 1; i++) {
                if ((t + i) & 1) acc += i % 3 == 0 ? 100 : 10;
                else { acc -= 1; if (t > 16) continue; acc *= 2; }
            }
            bad += got[b * B + t] != acc;
        }
    CHECK_EQ_U(bad, 0);
    ws_launch_stats s;
    ws_last_launch_stats(c->dev, &s);
    CHECK(s.simt_efficiency < 0.9 && s.simt_efficiency > 0.1);
    CHECK_EQ_U(s.threads, B * G);
}

static void barriers(ctx *c)
{
    enum { B = 200 };
    ws_addr o = buf(c, B * 2 * 4, 0);
    ws_arg a[] = { WS_ARG_PTR(o) };
    CHECK(run(c, "barrier_after_divergence", WS_DIM3(2, 1, 1), WS_DIM3(B, 1, 1), 0, a, 1) == 0);
    int got[B * 2], bad = 0;
    ws_memcpy_dtoh(c->dev, got, o, sizeof got);
    for (int b = 0; b < 2; b++)
        for (int t = 0; t < B; t++) {
            int n = (t + 1) % B, v = 0;
            for (int i = 0; i < n % 5; i++) v += i * n;
            if (n % 3 == 0) v += 1000;
            bad += got[b * B + t] != v;
        }
    CHECK_EQ_U(bad, 0);

    /* early exit: 100 of 128 threads return before the barrier */
    ws_addr e = buf(c, 128 * 4, 0xFF);
    ws_arg ea[] = { WS_ARG_PTR(e), WS_ARG_I32(28) };
    CHECK(run(c, "early_exit", WS_DIM3(1, 1, 1), WS_DIM3(128, 1, 1), 0, ea, 2) == 0);
    int eg[128];
    ws_memcpy_dtoh(c->dev, eg, e, sizeof eg);
    bad = 0;
    for (int t = 0; t < 28; t++) bad += eg[t] != ((t + 1) % 28) * 3;
    for (int t = 28; t < 128; t++) bad += eg[t] != -1;
    CHECK_EQ_U(bad, 0);

    /* lanes waiting at different barriers: a deadlock, reported */
    ws_addr d = buf(c, 32 * 4, 0);
    ws_arg da[] = { WS_ARG_PTR(d) };
    ws_kernel *k = kern(c, "barrier_mismatch");
    CHECK(k && ws_launch(c->dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, da, 1) == WS_OK);
    CHECK(ws_synchronize(c->dev) == WS_ERR_DEADLOCK);
    CHECK_STR_CONTAINS(ws_last_error(c->dev), "16 lanes at barrier 0, 16 lanes at barrier 1");
    k = kern(c, "barrier_mismatch_one");
    CHECK(k && ws_launch(c->dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, da, 1) == WS_OK);
    CHECK(ws_synchronize(c->dev) == WS_ERR_DEADLOCK);
    CHECK_STR_CONTAINS(ws_last_error(c->dev), "16 lanes at barrier 0, 16 lanes at barrier 1");
}

static void vote_shuffle(ctx *c)
{
    const uint32_t W = c->lanes, active = W * 5 / 8 + 1;
    ws_addr o = buf(c, 8 * W * 4, 0xEE);
    ws_arg a[] = { WS_ARG_PTR(o), WS_ARG_U32(active) };
    CHECK(run(c, "vote_shuffle_partial", WS_DIM3(1, 1, 1), WS_DIM3(W, 1, 1), 0, a, 2) == 0);
    uint32_t *g = calloc(8 * W, 4);
    ws_memcpy_dtoh(c->dev, g, o, 8 * W * 4);
    uint32_t ballot = 0, bad = 0;
    for (uint32_t l = 0; l < active; l++) ballot |= (uint32_t)(l % 3 == 0) << l;
    for (uint32_t l = 0; l < W; l++) {
        if (l >= active) { /* inactive lanes wrote nothing */
            for (int r = 0; r < 8; r++) bad += g[r * W + l] != 0xEEEEEEEEu;
            continue;
        }
        uint32_t own = l * 10;
        bad += g[l] != ballot;
        bad += g[W + l] != 1;                               /* any(lane == active-1) */
        bad += g[2 * W + l] != 1;                           /* all(lane < active)    */
        bad += g[3 * W + l] != (active <= 4 ? 1u : 0u);     /* uni(lane < 4)         */
        bad += g[4 * W + l] != (l + 1 < active ? (l + 1) * 10 : own);
        bad += g[5 * W + l] != (l >= 2 ? (l - 2) * 10 : own);
        bad += g[6 * W + l] != ((l ^ 1) < active ? (l ^ 1) * 10 : own);
        bad += g[7 * W + l] != (3 < active ? 30u : own);
    }
    CHECK_EQ_U(bad, 0);
    free(g);
}

static void atomics(ctx *c)
{
    enum { B = 96, G = 5, N = B * G };
    ws_addr cnt = buf(c, 4, 0), seen = buf(c, N * 4, 0), mm = buf(c, 12, 0);
    int init[3] = { -1, 1000, 0 };
    ws_memcpy_htod(c->dev, mm, init, sizeof init);
    ws_arg a[] = { WS_ARG_PTR(cnt), WS_ARG_PTR(seen), WS_ARG_PTR(mm) };
    CHECK(run(c, "atomic_contention", WS_DIM3(G, 1, 1), WS_DIM3(B, 1, 1), 0, a, 3) == 0);
    uint32_t s[N], total, hit[N] = { 0 }, perm = 1, lane_order = 1;
    int res[3];
    ws_memcpy_dtoh(c->dev, s, seen, sizeof s);
    ws_memcpy_dtoh(c->dev, &total, cnt, 4);
    ws_memcpy_dtoh(c->dev, res, mm, sizeof res);
    CHECK_EQ_U(total, N);
    for (int i = 0; i < N; i++) {
        if (s[i] >= N || hit[s[i]]++) perm = 0;
        /* one warp-instruction applies its lanes in lane order */
        if (i % B % c->lanes && s[i] != s[i - 1] + 1) lane_order = 0;
    }
    CHECK(perm);
    /* (on several host threads another core's atomics may come between a
     * warp's lanes: only the permutation is promised, docs/parallel.md) */
    if (c->one_thread) CHECK(lane_order);
    int mx = -1, mn = 1000, orr = 0;
    for (int i = 0; i < N; i++) {
        int v = (int)((unsigned)i * 7919u % 1000u);
        mx = v > mx ? v : mx;
        mn = v - 500 < mn ? v - 500 : mn;
        orr |= 1 << (i % 31);
    }
    CHECK_EQ_U(res[0], mx);
    CHECK_EQ_U(res[1], mn);
    CHECK_EQ_U(res[2], orr);
}

/* The float and double atomics kernels' results, as doubles (exact for
 * these floats): every thread added 1 to *sum and got a distinct old
 * value (in lane order within a warp on one host thread), and every
 * block's shared-memory sum of 0.5 per thread is whole. */
static void check_fadd_results(const ctx *c, const double *seen, int n, int b, double total, const double *blocks)
{
    int *hit = calloc((size_t)n, sizeof *hit), perm = hit != NULL, lane_order = 1;
    CHECK(total == (double)n);
    for (int i = 0; i < n && hit; i++) {
        int v = (int)seen[i];
        if ((double)v != seen[i] || v < 0 || v >= n || hit[v]++) perm = 0;
        if (i % b % (int)c->lanes && seen[i] != seen[i - 1] + 1.0) lane_order = 0;
    }
    free(hit);
    CHECK(perm);
    if (c->one_thread) CHECK(lane_order);
    for (int k = 0; k < n / b; k++) CHECK(blocks[k] == 0.5 * b);
}

/* amofadd.s: sums and the values seen (a permutation, lane order in a
 * warp on one host thread), shared memory, round to nearest even in lane
 * order whatever frm says, no fflags, the canonical NaN, a misaligned
 * address. */
static void float_atomics(ctx *c)
{
    enum { B = 96, G = 5, N = B * G };
    ws_addr sum = buf(c, 4, 0), seen = buf(c, N * 4, 0), pb = buf(c, G * 4, 0);
    ws_arg a[] = { WS_ARG_PTR(sum), WS_ARG_PTR(seen), WS_ARG_PTR(pb) };
    CHECK(run(c, "float_atomic", WS_DIM3(G, 1, 1), WS_DIM3(B, 1, 1), 0, a, 3) == 0);
    float s[N], total, blocks[G];
    double ds[N], dblocks[G];
    ws_memcpy_dtoh(c->dev, s, seen, sizeof s);
    ws_memcpy_dtoh(c->dev, &total, sum, 4);
    ws_memcpy_dtoh(c->dev, blocks, pb, sizeof blocks);
    for (int i = 0; i < N; i++) ds[i] = s[i];
    for (int k = 0; k < G; k++) dblocks[k] = blocks[k];
    check_fadd_results(c, ds, N, B, total, dblocks);

    /* one warp: values whose running sum rounds at every step */
    enum { W = 32 };
    const uint32_t L = c->lanes < W ? c->lanes : W;
    float vals[W], start = 1.0f, want = start;
    for (uint32_t l = 0; l < W; l++) vals[l] = 1.0f + (float)(l * 37 % 11) * 0x1.8p-22f;
    for (uint32_t l = 0; l < L; l++) want = want + vals[l]; /* host: round to nearest even, lane order */
    ws_addr acc = buf(c, 4, 0), va = buf(c, sizeof vals, 0), fl = buf(c, W * 4, 0xff);
    ws_memcpy_htod(c->dev, acc, &start, 4);
    ws_memcpy_htod(c->dev, va, vals, sizeof vals);
    ws_arg r[] = { WS_ARG_PTR(acc), WS_ARG_PTR(va), WS_ARG_PTR(fl) };
    CHECK(run(c, "float_atomic_rounding", WS_DIM3(1, 1, 1), WS_DIM3(L, 1, 1), 0, r, 3) == 0);
    ws_launch_stats st;
    ws_last_launch_stats(c->dev, &st);
    CHECK_EQ_U(st.thread_atomics, L); /* one instruction a lane, not a compare-and-swap loop */
    float got;
    uint32_t flags[W];
    ws_memcpy_dtoh(c->dev, &got, acc, 4);
    ws_memcpy_dtoh(c->dev, flags, fl, sizeof flags);
    uint32_t gb, wb;
    memcpy(&gb, &got, 4);
    memcpy(&wb, &want, 4);
    CHECK_EQ_U(gb, wb);
    for (uint32_t l = 0; l < L; l++) CHECK_EQ_U(flags[l], 0);

    /* a NaN added with a payload leaves the canonical NaN */
    const uint32_t nan_payload = 0x7fa00001u, one = 0x3f800000u;
    ws_memcpy_htod(c->dev, acc, &one, 4);
    for (uint32_t l = 0; l < W; l++) memcpy(&vals[l], l ? &one : &nan_payload, 4);
    ws_memcpy_htod(c->dev, va, vals, sizeof vals);
    CHECK(run(c, "float_atomic_rounding", WS_DIM3(1, 1, 1), WS_DIM3(L, 1, 1), 0, r, 3) == 0);
    ws_memcpy_dtoh(c->dev, &gb, acc, 4);
    CHECK_EQ_U(gb, 0x7fc00000u);

    ws_arg m[] = { WS_ARG_PTR(sum) };
    CHECK(run(c, "float_atomic_misaligned", WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, m, 1) != 0);
    CHECK(strstr(ws_last_error(c->dev), "misaligned") != NULL);
}

/* The 64-bit integer atomics, each one instruction a lane (nand a
 * compare-and-swap loop), in lane order, against the host. */
static void atomics64_each(ctx *c)
{
    enum { W = 32, OPS = 11 };
    const uint32_t L = c->lanes < W ? c->lanes : W;
    uint64_t init[OPS], w[OPS], r[OPS * W], want[OPS];
    for (int k = 0; k < OPS; k++) init[k] = 0x8000000000000001ull * (uint64_t)(k + 1) ^ 0x5555aaaa3333ccccull;
    memcpy(want, init, sizeof want);
    ws_addr wa = buf(c, sizeof w, 0), ra = buf(c, sizeof r, 0);
    ws_memcpy_htod(c->dev, wa, init, sizeof init);
    ws_arg a[] = { WS_ARG_PTR(wa), WS_ARG_PTR(ra) };
    CHECK(run(c, "atomic64_each", WS_DIM3(1, 1, 1), WS_DIM3(L, 1, 1), 0, a, 2) == 0);
    ws_launch_stats st;
    ws_last_launch_stats(c->dev, &st);
    ws_memcpy_dtoh(c->dev, w, wa, sizeof w);
    ws_memcpy_dtoh(c->dev, r, ra, sizeof r);
    int olds = 1;
    for (uint32_t l = 0; l < L; l++) {
        const uint64_t v = 0x0123456789abcdefull * (l + 1) ^ (uint64_t)l << 60;
        for (int k = 0; k < OPS; k++) olds &= r[k * W + l] == want[k];
        want[0] += v;
        want[1] -= v;
        want[2] &= ~v;
        want[3] |= v;
        want[4] ^= v;
        want[5] = (int64_t)want[5] < (int64_t)v ? want[5] : v;
        want[6] = (int64_t)want[6] > (int64_t)v ? want[6] : v;
        want[7] = want[7] < v ? want[7] : v;
        want[8] = want[8] > v ? want[8] : v;
        want[9] = v;
        want[10] = ~(want[10] & v);
    }
    CHECK(olds);
    for (int k = 0; k < OPS; k++) CHECK(w[k] == want[k]);
    /* one AMO a lane for each of ten, and the nand's loop: a first
     * compare-and-swap that reads, then rounds of L, L - 1, ..., 1 lanes
     * (one lane's swap succeeds per round). Before 2026-11-28 every op
     * was such a loop: 11 times as many. */
    CHECK_EQ_U(st.thread_atomics, 11ull * L + (uint64_t)L * (L + 1) / 2);
}

/* amofadd.d: the same for doubles (a lane's own stack too), rounding to
 * nearest even in lane order, the canonical NaN, a misaligned address. */
static void double_atomics(ctx *c)
{
    enum { B = 96, G = 5, N = B * G, W = 32 };
    ws_addr sum = buf(c, 8, 0), seen = buf(c, N * 8, 0), pb = buf(c, G * 8, 0);
    ws_arg a[] = { WS_ARG_PTR(sum), WS_ARG_PTR(seen), WS_ARG_PTR(pb) };
    CHECK(run(c, "double_atomic", WS_DIM3(G, 1, 1), WS_DIM3(B, 1, 1), 0, a, 3) == 0);
    double s[N], total, blocks[G];
    ws_memcpy_dtoh(c->dev, s, seen, sizeof s);
    ws_memcpy_dtoh(c->dev, &total, sum, 8);
    ws_memcpy_dtoh(c->dev, blocks, pb, sizeof blocks);
    check_fadd_results(c, s, N, B, total, blocks);

    const uint32_t L = c->lanes < W ? c->lanes : W;
    double vals[W], start = 1.0, want = start;
    for (uint32_t l = 0; l < W; l++) vals[l] = 1.0 + (double)(l * 37 % 11) * 0x1.8p-51;
    for (uint32_t l = 0; l < L; l++) want = want + vals[l];
    ws_addr acc = buf(c, 8, 0), va = buf(c, sizeof vals, 0);
    ws_memcpy_htod(c->dev, acc, &start, 8);
    ws_memcpy_htod(c->dev, va, vals, sizeof vals);
    ws_arg r[] = { WS_ARG_PTR(acc), WS_ARG_PTR(va) };
    CHECK(run(c, "double_atomic_rounding", WS_DIM3(1, 1, 1), WS_DIM3(L, 1, 1), 0, r, 2) == 0);
    ws_launch_stats st;
    ws_last_launch_stats(c->dev, &st);
    CHECK_EQ_U(st.thread_atomics, L); /* one instruction a lane, not a compare-and-swap loop */
    uint64_t gb, wb;
    ws_memcpy_dtoh(c->dev, &gb, acc, 8);
    memcpy(&wb, &want, 8);
    CHECK(gb == wb);

    const uint64_t nan_payload = 0x7ff4000000000001ull, one = 0x3ff0000000000000ull;
    ws_memcpy_htod(c->dev, acc, &one, 8);
    for (uint32_t l = 0; l < W; l++) memcpy(&vals[l], l ? &one : &nan_payload, 8);
    ws_memcpy_htod(c->dev, va, vals, sizeof vals);
    CHECK(run(c, "double_atomic_rounding", WS_DIM3(1, 1, 1), WS_DIM3(L, 1, 1), 0, r, 2) == 0);
    ws_memcpy_dtoh(c->dev, &gb, acc, 8);
    CHECK(gb == 0x7ff8000000000000ull);

    ws_arg m[] = { WS_ARG_PTR(sum) };
    CHECK(run(c, "double_atomic_misaligned", WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, m, 1) != 0);
    CHECK(strstr(ws_last_error(c->dev), "misaligned 8-byte") != NULL);
}

static void atomics64(ctx *c)
{
    enum { B = 96, G = 5, N = B * G };
    const uint64_t start = 0xFFFFFF00ull, inc = 0x0000000180000001ull;
    ws_addr cnt = buf(c, 8, 0), seen = buf(c, N * 8, 0), mm = buf(c, 16, 0), sum = buf(c, 8, 0),
            per = buf(c, G * 8, 0);
    int64_t init[2] = { INT64_MIN, INT64_MAX };
    ws_memcpy_htod(c->dev, cnt, &start, 8);
    ws_memcpy_htod(c->dev, mm, init, sizeof init);
    ws_arg a[] = { WS_ARG_PTR(cnt), WS_ARG_PTR(seen), WS_ARG_PTR(mm), WS_ARG_PTR(sum), WS_ARG_PTR(per) };
    CHECK(run(c, "atomic64_contention", WS_DIM3(G, 1, 1), WS_DIM3(B, 1, 1), 0, a, 5) == 0);
    uint64_t s[N], total, blocks[G];
    int64_t res[2];
    double d;
    uint8_t hit[N] = { 0 };
    int perm = 1;
    ws_memcpy_dtoh(c->dev, s, seen, sizeof s);
    ws_memcpy_dtoh(c->dev, &total, cnt, 8);
    ws_memcpy_dtoh(c->dev, res, mm, sizeof res);
    ws_memcpy_dtoh(c->dev, &d, sum, 8);
    ws_memcpy_dtoh(c->dev, blocks, per, sizeof blocks);
    CHECK(total == start + N * inc);
    for (int i = 0; i < N; i++) { /* each thread saw one of the N values, none twice */
        uint64_t k = (s[i] - start) / inc;
        if ((s[i] - start) % inc || k >= N || hit[k]++) perm = 0;
    }
    CHECK(perm);
    int64_t mx = INT64_MIN, mn = INT64_MAX;
    for (int i = 0; i < N; i++) {
        int64_t v = ((int64_t)((unsigned)i * 7919u % 1000u) - 500) * 0x10000000ll;
        mx = v > mx ? v : mx;
        mn = v < mn ? v : mn;
    }
    CHECK(res[0] == mx);
    CHECK(res[1] == mn);
    CHECK(d == 0.5 * N * (N - 1) / 2); /* halves of integers: exact in any order */
    for (int b = 0; b < G; b++) CHECK(blocks[b] == ((uint64_t)B << 32 | B));
    ws_arg m[] = { WS_ARG_PTR(cnt) };
    CHECK(run(c, "atomic64_misaligned", WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, m, 1) != 0);
    CHECK(strstr(ws_last_error(c->dev), "misaligned 8-byte") != NULL);
}

static void locks(ctx *c)
{
    ws_addr lock = buf(c, 4, 0), counter = buf(c, 4, 0);
    ws_arg a[] = { WS_ARG_PTR(lock), WS_ARG_PTR(counter) };
    CHECK(run(c, "spin_lock", WS_DIM3(3, 1, 1), WS_DIM3(64, 1, 1), 0, a, 2) == 0);
    int n = 0;
    ws_memcpy_dtoh(c->dev, &n, counter, 4);
    CHECK_EQ_U(n, 3 * 64);

    ws_addr flags = buf(c, 64 * 4, 0), out = buf(c, 64 * 4, 0);
    ws_arg pa[] = { WS_ARG_PTR(flags), WS_ARG_PTR(out) };
    CHECK(run(c, "producer_consumer", WS_DIM3(1, 1, 1), WS_DIM3(64, 1, 1), 0, pa, 2) == 0);
    int got[64], bad = 0;
    ws_memcpy_dtoh(c->dev, got, out, sizeof got);
    for (int t = 0; t < 64; t++) bad += got[t] != (t & 1 ? t * 2 : -1);
    CHECK_EQ_U(bad, 0);
}

/* Every lane of a butterfly sum ends with the warp's total, computed on
 * the host from the lanes' own values in the same order (IEEE adds,
 * round to nearest even, as the device's soft-float and float unit). */
/* The kernels' butterfly (each lane adds the lane `d` away, d from width/2
 * down to 1) over n lanes on the host, in acc's type; next is scratch. */
#define HOST_BUTTERFLY(acc, next, n, width)                                                       \
    for (uint32_t d_ = (width) / 2; d_; d_ >>= 1) {                                               \
        for (uint32_t t_ = 0; t_ < (n); t_++)                                                     \
            (next)[t_] = (acc)[t_] + (acc)[(t_ / (width)) * (width) + ((t_ % (width)) ^ d_)];     \
        memcpy((acc), (next), (n) * sizeof *(acc));                                               \
    }

static void shuffle_after_calls(ctx *c)
{
    const uint32_t W = c->lanes, N = 2 * W;
    ws_addr in = buf(c, N * 4, 0), lanes = buf(c, N * 8, 0), out = buf(c, N * 8, 0);
    int *iv = malloc(N * 4);
    for (uint32_t t = 0; t < N; t++) iv[t] = (int)(t * 7 % 23);
    ws_memcpy_htod(c->dev, in, iv, N * 4);
    ws_arg a[] = { WS_ARG_PTR(in), WS_ARG_PTR(lanes), WS_ARG_PTR(out) };
    double *ld = malloc(N * 8), *od = malloc(N * 8), *acc = malloc(N * 8), *nx = malloc(N * 8);
    CHECK(run(c, "warp_sum_double", WS_DIM3(1, 1, 1), WS_DIM3(N, 1, 1), 0, a, 3) == 0);
    ws_memcpy_dtoh(c->dev, ld, lanes, N * 8);
    ws_memcpy_dtoh(c->dev, od, out, N * 8);
    memcpy(acc, ld, N * 8);
    HOST_BUTTERFLY(acc, nx, N, W);
    int bad = 0;
    for (uint32_t t = 0; t < N; t++) bad += memcmp(&od[t], &acc[t], 8) != 0 || ld[t] != (double)iv[t] * 0.37 + 1e-3 * (t % 7);
    CHECK_EQ_U(bad, 0);

    float *lf = malloc(N * 4), *of = malloc(N * 4), *af = malloc(N * 4), *nf = malloc(N * 4);
    CHECK(run(c, "warp_sum_libm", WS_DIM3(1, 1, 1), WS_DIM3(N, 1, 1), 0, a, 3) == 0);
    ws_memcpy_dtoh(c->dev, lf, lanes, N * 4);
    ws_memcpy_dtoh(c->dev, of, out, N * 4);
    memcpy(af, lf, N * 4);
    HOST_BUTTERFLY(af, nf, N, W);
    bad = 0;
    for (uint32_t t = 0; t < N; t++) bad += memcmp(&of[t], &af[t], 4) != 0;
    CHECK_EQ_U(bad, 0);
    free(iv), free(ld), free(od), free(acc), free(nx), free(lf), free(of), free(af), free(nf);

    uint32_t *votes = malloc(N * 4);
    ws_addr vo = buf(c, N * 4, 0);
    ws_arg ba[] = { WS_ARG_PTR(in), WS_ARG_PTR(lanes), WS_ARG_PTR(vo) };
    CHECK(run(c, "barrier_after_call", WS_DIM3(1, 1, 1), WS_DIM3(N, 1, 1), 0, ba, 3) == 0);
    ws_memcpy_dtoh(c->dev, votes, vo, N * 4);
    bad = 0;
    for (uint32_t t = 0; t < N; t++) bad += votes[t] != (W == 32 ? UINT32_MAX : (1u << W) - 1);
    CHECK_EQ_U(bad, 0);
    free(votes);

    ws_addr lock = buf(c, 4, 0), counter = buf(c, 4, 0);
    ws_arg la[] = { WS_ARG_PTR(lock), WS_ARG_PTR(counter) };
    CHECK(run(c, "spin_lock_call", WS_DIM3(2, 1, 1), WS_DIM3(64, 1, 1), 0, la, 2) == 0);
    int n = 0;
    ws_memcpy_dtoh(c->dev, &n, counter, 4);
    CHECK_EQ_U(n, 2 * 64);
}

typedef struct lines { char text[4096]; size_t len; int records; int ordered; uint32_t last[4]; } lines;
static void on_print(void *u, uint64_t launch, ws_dim3 b, ws_dim3 t, const char *s, size_t n)
{
    (void)launch;
    lines *l = u;
    char want[64];
    snprintf(want, sizeof want, "hello from block %u thread %u\n", b.x, t.x);
    if (strlen(want) != n || memcmp(want, s, n)) l->ordered = 0;
    if (l->len + n < sizeof l->text) { memcpy(l->text + l->len, s, n); l->len += n; }
    l->records++;
}

static void printf_order(ctx *c)
{
    lines l = { "", 0, 0, 1, { 0 } };
    ws_set_printf_handler(c->dev, on_print, &l);
    ws_arg a[] = { WS_ARG_I32(5) };
    CHECK(run(c, "hello", WS_DIM3(2, 1, 1), WS_DIM3(8, 1, 1), 0, a, 1) == 0);
    ws_set_printf_handler(c->dev, NULL, NULL);
    CHECK_EQ_U(l.records, 10);
    CHECK(l.ordered);
    CHECK_STR_CONTAINS(l.text, "hello from block 1 thread 4\n");
}

static void shapes(ctx *c)
{
    /* 2-D grid of 2-D blocks */
    enum { BX = 8, BY = 4, GX = 3, GY = 2, W = BX * GX, H = BY * GY };
    ws_addr o = buf(c, W * H * 4, 0);
    ws_arg a[] = { WS_ARG_PTR(o) };
    CHECK(run(c, "coords", WS_DIM3(GX, GY, 1), WS_DIM3(BX, BY, 1), 0, a, 1) == 0);
    uint32_t g[W * H], bad = 0;
    ws_memcpy_dtoh(c->dev, g, o, sizeof g);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            bad += g[y * W + x] != ((uint32_t)(y / BY) << 16 | (uint32_t)(y % BY) << 8 | (uint32_t)(x % BX));
    CHECK_EQ_U(bad, 0);

    /* arguments beyond the registers (ilp32f) */
    ws_addr r = buf(c, 5 * 8, 0);
    ws_arg m[23] = { WS_ARG_PTR(r) };
    for (int i = 0; i < 8; i++) { m[1 + 2 * i] = WS_ARG_I32(i + 1); m[2 + 2 * i] = WS_ARG_F32(0.5f * (float)(i + 1)); }
    m[17] = WS_ARG_I32(100);
    m[18] = WS_ARG_F32(4.5f);
    m[19] = WS_ARG_F32(5.5f);
    m[20] = WS_ARG_I64(-1234567890123LL);
    m[21] = WS_ARG_F64(2.75);
    m[22] = WS_ARG_I32(-77);
    CHECK(run(c, "many_args", WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, m, 23) == 0);
    long long v[5];
    ws_memcpy_dtoh(c->dev, v, r, sizeof v);
    CHECK_EQ_U(v[0], 136);            /* 1..8 + 100 */
    CHECK_EQ_U(v[1], 28000);          /* 0.5*(1..8) = 18, + 4.5 + 5.5 */
    CHECK(v[2] == -1234567890123LL);
    CHECK_EQ_U(v[3], 2750);
    CHECK(v[4] == -77);

    /* dynamic shared memory after static shared memory */
    enum { T = 64 };
    ws_addr d = buf(c, T * 4, 0);
    ws_arg da[] = { WS_ARG_PTR(d), WS_ARG_I32(T) };
    CHECK(run(c, "dyn_shared", WS_DIM3(1, 1, 1), WS_DIM3(T, 1, 1), T * 4, da, 2) == 0);
    int dg[T];
    bad = 0;
    ws_memcpy_dtoh(c->dev, dg, d, sizeof dg);
    for (int t = 0; t < T; t++) bad += dg[t] != (t + 1) % T + ((t + 2) % T) * 10;
    CHECK_EQ_U(bad, 0);

    /* a grid far larger than the device */
    const uint32_t N = 1u << 20;
    ws_addr big = buf(c, N * 4, 0);
    ws_arg ba[] = { WS_ARG_PTR(big), WS_ARG_U32(N) };
    CHECK(run(c, "big_grid", WS_DIM3(N / 128, 1, 1), WS_DIM3(128, 1, 1), 0, ba, 2) == 0);
    uint32_t *h = malloc(N * 4);
    ws_memcpy_dtoh(c->dev, h, big, N * 4);
    bad = 0;
    for (uint32_t i = 0; i < N; i++) bad += h[i] != i * 2654435761u;
    CHECK_EQ_U(bad, 0);
    free(h);
}

/* Every warp starts with zeroed registers, even in a slot whose previous
 * warp (here: of another kernel) left all of them non-zero; x1 (ra), x2
 * (sp), x10 (the argument) and x6 (the wrapper's tail call goes through t1)
 * are set by the launch or the wrapper. */
static void registers_start_zero(ctx *c)
{
    enum { B = 64, G = 96 }; /* more warps than the device has slots */
    CHECK(run(c, "dirty_registers", WS_DIM3(G, 1, 1), WS_DIM3(B, 1, 1), 0, NULL, 0) == 0);
    ws_addr o = buf(c, B * 64 * 4, 0xEE);
    ws_arg a[] = { WS_ARG_PTR(o) };
    CHECK(run(c, "read_registers", WS_DIM3(1, 1, 1), WS_DIM3(B, 1, 1), 0, a, 1) == 0);
    uint32_t h[B * 64];
    ws_memcpy_dtoh(c->dev, h, o, sizeof h);
    unsigned bad = 0;
    for (int t = 0; t < B; t++)
        for (int r = 0; r < 64; r++) {
            if (r == 1 || r == 2 || r == 6 || r == 10) continue;
            if (h[t * 64 + r] && bad++ < 4)
                fprintf(stderr, "thread %d: %s%d = 0x%08x at kernel start\n", t, r < 32 ? "x" : "f", r % 32, h[t * 64 + r]);
        }
    CHECK_EQ_U(bad, 0);
}

static void run_all(const char *module, const char *config)
{
    ctx c;
    ws_config cfg;
    char err[256];
    ws_config_default(&cfg);
    if (config) CHECK(ws_config_parse(&cfg, config, err, sizeof err) == WS_OK);
    if (ws_device_open(&cfg, &c.dev) != WS_OK) { CHECK(!"device open"); return; }
    c.lanes = cfg.lanes_per_warp;
    int asked;
    c.one_thread = cfg.cores == 1 || ws_par_threads_for(&cfg, &asked) == 1;
    CHECK(ws_module_load_file(c.dev, module, &c.mod) == WS_OK);
    nested_divergence(&c);
    barriers(&c);
    vote_shuffle(&c);
    atomics(&c);
    atomics64(&c);
    float_atomics(&c);
    double_atomics(&c);
    atomics64_each(&c);
    locks(&c);
    shuffle_after_calls(&c);
    printf_order(&c);
    shapes(&c);
    registers_start_zero(&c);
    ws_device_close(c.dev);
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: test_semantics MODULE\n"); return 2; }
    run_all(argv[1], NULL);
    run_all(argv[1], "cores=1,warps_per_core=32,lanes_per_warp=8,max_threads_per_block=256");
    run_all(argv[1], "cores=3,warps_per_core=16,lanes_per_warp=16,warp_quantum=7");
    run_all(argv[1], "mode=timing,cores=2"); /* the atomics issue at their cycles: same results */
    run_all(argv[1], "engine=interp,cores=2,warp_quantum=5");
    return TEST_SUMMARY();
}
