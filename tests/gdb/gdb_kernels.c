/* Kernels debugged by the gdb end-to-end tests. Lines the gdb scripts
 * break on carry "MARK:" comments; run_gdb.sh turns @MARK_x@ into their
 * line numbers, so editing this file does not break the scripts. */
#include <warpscope/kernel.h>

static int square(int v)
{
    int r = v * v; /* MARK:square */
    return r;
}

WS_KERNEL void scale(int *out, const int *in, int n)
{
    int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    int local[4];
    for (int k = 0; k < 4; k++) local[k] = i * 10 + k;
    if (i < n) {
        int sq = square(in[i]); /* MARK:call */
        out[i] = sq + local[1]; /* MARK:store */
    }
    __syncthreads(); /* MARK:barrier */
    if (i < n) out[i] += 1; /* MARK:after */
}

WS_KERNEL void oob(int *out, int n)
{
    int i = (int)threadIdx_x();
    out[i + n - 4] = i; /* MARK:oob */
}

/* Shared memory per block: each block writes its own tile (after a spin,
 * so the blocks are in flight together), then reads it reversed. */
WS_KERNEL void tiles(int *out, int spin)
{
    WS_SHARED int tile[32];
    unsigned t = threadIdx_x();
    int acc = 0; /* MARK:tiles_start */
    for (int k = 0; k < spin; k++) acc += k;
    tile[t] = (int)(blockIdx_x() * 100 + t) + (acc & 0); /* MARK:tiles_write */
    ws_syncthreads();
    out[blockIdx_x() * 32 + t] = tile[31 - t];
}

/* Two warps per block meet at a barrier (gdb_app mode "meet"): gdb steps
 * one warp into the barrier while the other, still on its way, hits a
 * breakpoint. */
WS_KERNEL void meet(int *out, int spin)
{
    unsigned t = threadIdx_x();
    int acc = 0;
    for (int k = 0; k < spin; k++) acc += k;
    int v = (int)(blockIdx_x() * 1000 + t) + (acc & 0); /* MARK:meet_value */
    ws_syncthreads(); /* MARK:meet_barrier */
    out[blockIdx_x() * 64 + t] = v + 2;
}

WS_KERNEL void misaligned(int *out)
{
    int i = (int)threadIdx_x();
    if (i == 3) *(volatile int *)((char *)out + 2) = i; /* MARK:misaligned */
}

/* A failed assert and a ws_trap (gdb_app mode "abort"): each ends its
 * launch on purpose, in thread 3, which says so first. */
WS_KERNEL void asserts(int *out)
{
    int i = (int)threadIdx_x();
    if (i == 3) ws_printf("thread %d asserts\n", i); /* MARK:assert_print */
    assert(i != 3); /* MARK:assert */
    out[i] = i;
}

WS_KERNEL void traps(int *out)
{
    int i = (int)threadIdx_x();
    if (i == 3) ws_trap("thread 3 gives up"); /* MARK:trap */
    out[i] = i;
}

/* Stores into parts of a 64-bit value (gdb_app mode "wide"): its low
 * word, then only its high word, then one byte inside it, then the next
 * value. A watchpoint on v[0] sees the first three, not the fourth. */
WS_KERNEL void wide(long long *v)
{
    if (threadIdx_x() == 0) {
        v[0] += 1; /* MARK:wide_low */
        ((volatile int *)v)[1] = 7;
        ((volatile char *)v)[1] = 1;
        v[1] = 5;
    }
}

WS_KERNEL void spin(int *out, int iters)
{
    int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    int acc = 0; /* MARK:spin_start */
    for (int k = 0; k < iters; k++) acc += k ^ i; /* MARK:spin */
    out[i] = acc;
}

/* Many small blocks (gdb_app mode "many"): the server steps most warps
 * over a conditional breakpoint here while blocks come and go. */
WS_KERNEL void many(int *out, const int *in, int n)
{
    int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    if (i < n) out[i] = in[i] * 3 + 1; /* MARK:many */
} /* MARK:many_end */

/* A barrier deadlock (gdb_app mode "deadlock"): the two warps of the block
 * wait at different barriers. */
WS_KERNEL void split_barrier(int *out)
{
    unsigned t = threadIdx_x();
    if (t < 32) ws_barrier(0); /* MARK:split_first */
    else ws_barrier(1);
    out[t] = 1;
}

/* A spin lock every thread takes (gdb_app mode "spinlock"): the lanes
 * that did not get it spin at a lower PC than the holder, and only the
 * starvation guard lets the holder on. */
WS_KERNEL void spin_lock(int *lock, int *count)
{
    while (atomicCAS_i(lock, 0, 1) != 0) {
    }
    *(volatile int *)count += 1;
    atomicExch_i(lock, 0);
}

/* Every lane of one warp takes a lock in one line (gdb_app mode
 * "lock_line"): lane 0's compare-and-swap wins, the others retry at a
 * lower pc than the holder, which only the starvation guard lets on to
 * release the lock, so the lanes leave the line one by one. Each lane
 * records its place in the order it got the lock. */
WS_KERNEL void lock_line(int *lock, int *count, int *order)
{
    int t = (int)threadIdx_x(); /* MARK:lock_start */
    while (atomicCAS_i(lock, 0, 1) != 0) continue; /* MARK:lock_take */
    order[t] = (*(volatile int *)count)++; /* MARK:lock_held */
    atomicExch_i(lock, 0); /* MARK:lock_release */
} /* MARK:lock_end */

/* A recursive device function, a struct passed by value with a local
 * array, a warp-shuffle sum and a vote (gdb_app mode "explore": one
 * block of 64 threads). */
__attribute__((noinline)) static int tri(int n)
{
    if (n <= 0) return 0; /* MARK:tri_base */
    return n + tri(n - 1); /* MARK:tri_rec */
}

typedef struct span { int lo, hi; short step; } span;
__attribute__((noinline)) static int span_sum(span s, const int *v)
{
    int parts[4] = { 0, 0, 0, 0 }; /* MARK:span_parts */
    for (int k = s.lo; k < s.hi; k += s.step) parts[k & 3] += v[k];
    return parts[0] + parts[1] + parts[2] + parts[3]; /* MARK:span_ret */
}

WS_KERNEL void explore(int *out, const int *in, int n)
{
    WS_SHARED int partial[2];
    int t = (int)threadIdx_x();
    int r = tri(t % 5); /* MARK:explore_tri */
    span s = { t, n, 16 };
    int part = span_sum(s, in); /* MARK:explore_span */
    int v = r + part;
    for (int d = 16; d > 0; d /= 2) v += ws_shfl_down(v, (unsigned)d); /* MARK:explore_shfl */
    unsigned odd = ws_ballot(t & 1); /* MARK:explore_vote */
    if ((t & 31) == 0) partial[t / 32] = v; /* MARK:explore_partial */
    __syncthreads();
    if (t == 0) out[0] = partial[0] + partial[1] + (odd == 0xaaaaaaaau); /* MARK:explore_out */
    out[1 + t] = r;
}

/* A 3x3 box blur on a 2-D grid of 2-D blocks, with a helper the compiler
 * inlines at -O2 (gdb_app mode "blur": 8x6 pixels, blocks of 4x3). */
static inline int clampi(int v, int lo, int hi)
{
    return v < lo ? lo : v > hi ? hi : v; /* MARK:clampi */
}

WS_KERNEL void blur2d(int *out, const int *in, int w, int h)
{
    int x = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    int y = (int)(blockIdx_y() * blockDim_y() + threadIdx_y());
    if (x >= w || y >= h) return;
    int acc = 0; /* MARK:blur_acc */
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++) acc += in[clampi(y + dy, 0, h - 1) * w + clampi(x + dx, 0, w - 1)]; /* MARK:blur_sum */
    out[y * w + x] = acc; /* MARK:blur_store */
}

/* One helper inlined twice into one kernel at -O2 (gdb_app mode "twins":
 * one warp of 32 threads): its loop line has rows in two copies, one per
 * call. Lanes with t & 3 == 0 skip the first copy's loop. */
static inline int twin_sum(const int *p, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) s += p[i] * (i + 1); /* MARK:twin_loop */
    return s;
}

WS_KERNEL void twins(int *out, const int *in)
{
    int t = (int)threadIdx_x();
    int a = twin_sum(in, t & 3); /* MARK:twin_first */
    int b = twin_sum(in + 4, t & 7); /* MARK:twin_second */
    out[t] = a - b; /* MARK:twin_store */
}

/* A warp waiting for a flag nobody sets (gdb_app mode "hang"): it spins
 * until gdb, having interrupted it, sets the flag. */
WS_KERNEL void wait_flag(volatile int *flag, int *out)
{
    int t = (int)threadIdx_x();
    while (*flag == 0) { /* MARK:hang_wait */
    }
    out[t] = *flag + t; /* MARK:hang_done */
}

/* Shaders of the graphics scenario (gdb_app gfx): breakpoints in a vertex
 * and a fragment shader with conditions on $vertex_id and $pixel_x/y. */
#include <warpscope/shader.h>
struct gv_in { float pos[2]; };
struct gv_out { ws_vec4 position; float shade; };

WS_VERTEX void gdb_vs(const struct gv_in *in, struct gv_out *out)
{
    out->position = ws_vec4_make(in->pos[0], in->pos[1], 0, 1);
    out->shade = (float)ws_vertex_id() / 4.0f; /* MARK:vertex */
}

WS_FRAGMENT ws_vec4 gdb_fs(const struct gv_out *in)
{
    float s = in->shade; /* MARK:fragment */
    return ws_vec4_make(s, 0.5f, 0, 1);
}

/* A function returning a struct too big for registers (through memory:
 * the caller's buffer): gdb's `finish` prints the value it returned. */
typedef struct quint { int a, b, c, d, e; } quint;
__attribute__((noinline)) static quint make_quint(int x)
{
    quint q = { x, x + 1, x + 2, x + 3, x + 4 }; /* MARK:quint */
    return q;
}

WS_KERNEL void quints(int *out)
{
    quint q = make_quint((int)threadIdx_x() * 10);
    out[threadIdx_x()] = q.a + q.b + q.c + q.d + q.e; /* MARK:quint_use */
}

/* Every lane of the warp stores to out[0], then lanes 8-11 to out[1]
 * (gdb_app mode "collide"): lanes store in ascending order, so memory
 * keeps lane 31's value and lane 11's. A watchpoint there must name the
 * lane whose value it shows. */
WS_KERNEL void collide(int *out, int base)
{
    int t = (int)threadIdx_x();
    int v = t + base; /* MARK:collide_start */
    out[0] = v; /* MARK:collide_all */
    if (t >= 8 && t < 12) out[1] = t; /* MARK:collide_some */
}

/* Atomics on one word by every lane (gdb_app mode "collide", after
 * collide): a compare-and-swap loop on a 64-bit sum, where in each round
 * only some lanes' swap succeeds, then a 32-bit add every lane makes. */
WS_KERNEL void cas_turns(long long *sum, int *count)
{
    int t = (int)threadIdx_x(); /* MARK:cas_start */
    atomicAdd_ll(sum, (long long)t << 33); /* MARK:cas_add */
    atomicAdd_i(count, 1); /* MARK:cas_count */
}

/* A double add by compare-and-swap, as kernel.h's atomicAdd on a double
 * was before amofadd.d: it calls the 64-bit CAS of the device library and
 * libgcc's soft-float add, and in each round only one lane's swap
 * succeeds. nodebug, as kernel.h's helpers: its code is the caller's line. */
__attribute__((nodebug)) static inline double double_add_by_cas(double *p, double v)
{
    union { double d; unsigned long long u; } old, upd;
    old.u = __atomic_load_n((unsigned long long *)p, __ATOMIC_SEQ_CST);
    for (;;) {
        upd.d = old.d + v;
        unsigned long long seen = atomicCAS_ull((unsigned long long *)p, old.u, upd.u);
        if (seen == old.u) return old.d;
        old.u = seen;
    }
}

/* Every lane adds its number to one float (one amofadd.s), then to one
 * double by compare-and-swap (gdb_app mode "float_turns"): the warp's
 * lanes leave the loop one by one. */
WS_KERNEL void float_turns(float *sum, int *count, double *dsum)
{
    float v = (float)threadIdx_x(); /* MARK:float_start */
    atomicAdd(sum, v); /* MARK:float_add */
    atomicAdd_i(count, 1); /* MARK:float_count */
    double_add_by_cas(dsum, (double)v); /* MARK:double_add */
    atomicAdd_i(count, 1); /* MARK:double_count */
}

/* Structs by value (gdb_app mode "byval"): a small one in fa and a
 * registers, a large one as each lane's own copy on its stack; gdb reads
 * both as the kernel's parameters, per lane. */
struct settings { float scale; int offset; };
struct table { int v[6]; double weight; };

WS_KERNEL void byval(struct settings s, struct table t, int *out)
{
    unsigned i = threadIdx_x();
    t.v[0] += (int)i; /* MARK:byval_own */
    out[i] = (int)(s.scale * (float)t.v[i % 6]) + s.offset + (int)t.weight; /* MARK:byval_use */
}

/* A call chain to unwind inside a function's epilogue (gdb_app mode
 * "chain": 8 threads of one warp): chain_mid returns after a call, or,
 * where a > 10 (threads 4..7), ends in a tail call at -O2. */
volatile int chain_sink;
__attribute__((noinline)) static int chain_leaf(int x)
{
    chain_sink = x; /* MARK:chain_leaf */
    return x * 3 + 1;
}

__attribute__((noinline)) static int chain_mid(int *p, int x)
{
    int a = chain_leaf(x); /* MARK:chain_mid */
    if (a > 10) return chain_leaf(a + x); /* MARK:chain_tail */
    p[x] = a;
    return a + chain_leaf(a); /* MARK:chain_ret */
}

WS_KERNEL void chain(int *out)
{
    int t = (int)threadIdx_x();
    int v = chain_mid(out, t); /* MARK:chain_call */
    out[t] = v; /* MARK:chain_store */
}
