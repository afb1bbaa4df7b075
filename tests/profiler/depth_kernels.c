/* Kernels for the profiler's inline, sampling-hygiene and fault checks
 * (check_depth.sh). The checks find lines by the marker comments: keep one
 * marker per line. */
#include <math.h>
#include <warpscope/kernel.h>
/* kernel.h maps fmaf to the builtin; undo it to call picolibc's inline
 * fmaf from <machine/math.h>, a library function inlined into the kernel. */
#undef fmaf

/* A chain of dependent fmaf calls: the time sits in the inlined fmadd. */
WS_KERNEL void fma_chain(float *out, int n)
{
    float x = (float)threadIdx_x() * 0.25f, y = 1.0f;
    for (int k = 0; k < n; k++)
        y = fmaf(y, x, 0.5f);                          /* MARK_FMA */
    out[blockIdx_x() * blockDim_x() + threadIdx_x()] = y;
}

/* Warp 0 of each block works while the block's other warps wait at the
 * barrier: most warp-cycles are barrier, in the high warp slots. */
WS_KERNEL void barrier_heavy(int *out, int work)
{
    unsigned t = threadIdx_x(), acc = t;
    if (t < 32)
        for (int k = 0; k < work; k++) acc = (acc ^ (acc >> 3)) + (unsigned)k; /* MARK_HEAVY_WORK */
    __syncthreads();                                   /* MARK_HEAVY_BARRIER */
    out[blockIdx_x() * blockDim_x() + t] = (int)acc;
}

/* Thread 37 of block 2 stores through a bad address; the rest work. */
WS_KERNEL void fault_one(int *out, unsigned bad)
{
    unsigned t = threadIdx_x(), b = blockIdx_x();
    if (b == 2 && t == 37) *(volatile int *)(uintptr_t)bad = 1; /* MARK_FAULT */
    out[b * blockDim_x() + t] = (int)t;
}

/* A few cycles of work: the sample at cycle 0 would be a large share. */
WS_KERNEL void tiny(int *out)
{
    out[threadIdx_x()] = (int)threadIdx_x() * 3;      /* MARK_TINY */
}

/* Lanes `stride` words apart in shared memory: gcd(stride, 32) lanes at a
 * time hit one bank (stride 2: 2-way, stride 32: 32-way conflicts). */
WS_KERNEL void bank_stride(float *out, int stride)
{
    WS_SHARED float s[1024];
    unsigned t = threadIdx_x(), i = (t * (unsigned)stride) & 1023;
    s[i] = (float)t;                                   /* MARK_STRIDE_STORE */
    __syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = s[i];
}

/* A static function inlined into the kernel: some of its code (the loop
 * set-up) has no line of its own (line 0) and belongs to poly, not to
 * the kernel, with --inline callee. */
static inline float poly(float x, int n)
{
    float y = 1.0f;
    for (int i = 0; i < n; i++)
        y = __builtin_fmaf(y, x, 0.5f);
    return y;
}

WS_KERNEL void inl_poly(float *out, int n)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    out[i] = poly((float)i * 0.001f, n);
}

/* One line with two shared accesses of different degrees: the stride-2 load
 * takes 2 wavefronts, the contiguous store 1, so 3 per 2 requests: 1 of
 * every 3 wavefronts is a conflict. */
WS_KERNEL void bank_mixed(float *out)
{
    WS_SHARED float a[128];
    WS_SHARED float b[64];
    unsigned t = threadIdx_x();
    a[t * 2] = (float)t;
    __syncthreads();
    b[t] = a[t * 2];                                   /* MARK_MIXED */
    __syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = b[63 - t];
}

/* Warp 0 of each block loops while the others wait at the barrier; the
 * store's line then waits on the block-size CSR (short_scoreboard) and, in
 * fewer samples, on ALU results (wait): the line's "waiting on" names only
 * what its scoreboard samples wait for. */
WS_KERNEL void wait_mix(int *out, int n)
{
    unsigned t = threadIdx_x();
    int acc = 0;
    if (t < 32)
        for (int i = 0; i < n; i++) acc ^= acc * 31 + i;
    __syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = acc;        /* MARK_WAIT_MIX */
}

/* Every thread adds to one counter and uses the old value, n times: its
 * line waits on the atomic's result (the atomics rule, not loads in flight). */
WS_KERNEL void atomic_wait(int *counter, int n)
{
    int acc = 0;
    for (int i = 0; i < n; i++) acc += atomicAdd(counter, 1) & 1; /* MARK_ATOMIC_WAIT */
    counter[1 + threadIdx_x()] = acc;
}

/* Each thread adds to its own word and uses the old value, n times: the
 * line waits on the atomic's round trip, and its lanes (32 words in 4
 * sectors) need not take turns (check_depth.sh atomic_rule). */
WS_KERNEL void own_atomic(unsigned *out, int n)
{
    unsigned g = blockIdx_x() * blockDim_x() + threadIdx_x();
    unsigned s = 0;
    for (int i = 0; i < n; i++) s += atomicAdd(&out[g], s + 1u); /* MARK_OWN_ATOMIC */
    out[g + gridDim_x() * blockDim_x()] = s;
}

/* Lane t adds to shared word 2 t mod 64: two lanes on each even bank,
 * on different words, so each atomic takes 2 wavefronts, which an odd
 * stride would cure (check_depth.sh shared_atomic_rule). */
WS_KERNEL void shared_stride2_atomic(int *out, int n)
{
    WS_SHARED int bins[64];
    unsigned t = threadIdx_x();
    if (t < 64) bins[t] = 0;
    __syncthreads();
    for (int k = 0; k < n; k++)
        atomicAdd(&bins[(2u * t + 2u * (unsigned)k) % 64u], 1); /* MARK_SHARED_STRIDE2 */
    __syncthreads();
    if (t < 64) out[blockIdx_x() * 64 + t] = bins[t];
}

/* Every thread adds to one counter n times and never uses the old value
 * (`atomicAdd(c, 1);`): the next atomic waits for the last one's result
 * register only to overwrite it (write after write), so the advice is
 * fewer atomics, not "use the old value later" (check_depth.sh
 * atomic_rule, atomic_turns). */
WS_KERNEL void unused_atomic(int *counter, int n)
{
    for (int i = 0; i < n; i++)
        atomicAdd(counter, 1);                         /* MARK_UNUSED_ATOMIC */
}

/* The same with a word per thread: no lanes share a word. */
WS_KERNEL void unused_own_atomic(int *out, int n)
{
    unsigned g = blockIdx_x() * blockDim_x() + threadIdx_x();
    for (int i = 0; i < n; i++)
        atomicAdd(&out[g], 1);                         /* MARK_UNUSED_OWN_ATOMIC */
}

/* A shared-memory histogram whose every lane adds to one bin: the atomics
 * of a warp take turns (32 wavefronts per request), which is contention on
 * one word, not a stride that padding would fix (the shared_atomics rule). */
WS_KERNEL void shared_bin(int *out, int n)
{
    WS_SHARED int bins[32];
    unsigned t = threadIdx_x();
    if (t < 32) bins[t] = 0;
    __syncthreads();
    for (int k = 0; k < n; k++)
        atomicAdd(&bins[(unsigned)k & 1u], 1);        /* MARK_SHARED_BIN */
    __syncthreads();
    if (t < 32) out[blockIdx_x() * 32 + t] = bins[t];
}

/* A loop whose iterations take the same number of cycles in every warp
 * (20 with the default model): at fixed sampling points 2^N cycles apart a
 * warp is seen at every 4th cycle of it only, and with four warps per core
 * the FIFO's overflow rotation lines up with the schedule too. */
WS_KERNEL void lockstep(int *out, int n)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    int a = (int)i;
    for (int k = 0; k < n; k++) {
        a = a * 1103515245 + 12345;                    /* MARK_LOCKSTEP */
        a ^= a >> 7;
    }
    out[i] = a;
}

/* Thread 9 of block 1 fails an assert: the device stops the launch in the
 * library's __assert_func, and the report must still say which assertion,
 * at which line of the kernel. */
#include <assert.h>
WS_KERNEL void assert_one(int *out)
{
    unsigned t = threadIdx_x(), b = blockIdx_x();
    assert(b != 1 || t != 9);                          /* MARK_ASSERT */
    out[b * blockDim_x() + t] = (int)t;
}

/* An array indexed at run time lives on the lane's stack (local memory):
 * the loop waits on stack loads, which unrolling or occupancy would not
 * help as they help global loads (the local_memory rule). */
WS_KERNEL void local_array(int *out, int n)
{
    int a[16];
    unsigned t = threadIdx_x();
    for (int k = 0; k < 16; k++) a[k] = k * (int)t + n;
    int acc = 0;
    for (int k = 0; k < n; k++) acc += a[((unsigned)k * 7u + t) & 15u]; /* MARK_LOCAL */
    out[blockIdx_x() * blockDim_x() + t] = acc;
}

/* Every warp does the same work between the barriers, so they arrive
 * together: the barrier_imbalance rule must not fire. */
WS_KERNEL void barrier_balanced(int *out, int work)
{
    WS_SHARED int s[1024];
    unsigned t = threadIdx_x(), n = blockDim_x(), acc = t;
    for (int r = 0; r < 4; r++) {
        for (int k = 0; k < work; k++) acc = (acc ^ (acc >> 3)) + (unsigned)k; /* MARK_BAL_WORK */
        s[t] = (int)acc;
        __syncthreads();                               /* MARK_BAL_BARRIER */
        acc += (unsigned)s[(t + 1) % n];
        __syncthreads();
    }
    out[blockIdx_x() * n + t] = (int)acc;
}

/* A shared-memory tree sum: at each level half as many threads add, so
 * from 32 threads down one warp works while the block's others wait at
 * the loop's barrier. */
WS_KERNEL void barrier_tree(const int *in, int *out, int work)
{
    WS_SHARED int s[1024];
    unsigned t = threadIdx_x(), n = blockDim_x();
    int v = in[blockIdx_x() * n + t];
    for (int k = 0; k < work; k++) v = (v ^ (v >> 3)) + k;
    s[t] = v;
    __syncthreads();
    for (unsigned h = n / 2; h > 0; h /= 2) {
        if (t < h)
            for (int k = 0; k < work; k++) s[t] = (s[t] ^ (s[t] >> 3)) + s[t + h] + k; /* MARK_TREE_ADD */
        __syncthreads();                               /* MARK_TREE_BARRIER */
    }
    if (t == 0) out[blockIdx_x()] = s[0];
}

/* A fence at the end of the loop body: its membar waits are the fence's
 * (its own line), not the loop line's that follows it. */
WS_KERNEL void fence_loop(int *out, int n)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    for (int k = 0; k < n; k++) {                      /* MARK_FENCE_LOOP */
        out[i] += k;
        ws_threadfence();                              /* MARK_FENCE */
    }
}

/* Odd and even lanes take the two arms of an if/else: each arm runs on
 * half of the lanes (SIMT exactly 50 %), the textbook divergence. */
WS_KERNEL void odd_even(int *out, int n)
{
    unsigned t = threadIdx_x();
    int acc = 0;
    if (t & 1)
        for (int i = 0; i < n; i++) acc ^= acc * 31 + i; /* MARK_ODD */
    else
        for (int i = 0; i < n; i++) acc ^= acc * 17 + i; /* MARK_EVEN */
    out[blockIdx_x() * blockDim_x() + t] = acc;
}

/* The first 8 lanes of a warp run 4n iterations, the others n: the lanes
 * enter the loop together, 24 leave it after n, 8 after 4n (SIMT 43.75 %
 * in the loop), a divergence that no branch around the loop causes. */
WS_KERNEL void trip_count(int *out, int n)
{
    unsigned t = threadIdx_x();
    int acc = 0, trips = t % 32u < 8u ? 4 * n : n;
    for (int i = 0; i < trips; i++) acc ^= acc * 29 + i; /* MARK_TRIPS */
    out[blockIdx_x() * blockDim_x() + t] = acc;
}

/* Every thread adds to one float: atomicAdd on a float is one
 * instruction (amofadd.s), no loop. */
WS_KERNEL void float_sum(float *sum, int n)
{
    for (int i = 0; i < n; i++) atomicAdd(sum, 1.0f);  /* MARK_FLOAT_SUM */
}

/* A float atomicMax written by hand (there is none): a compare-and-swap
 * loop, which the lanes of a warp leave one at a time as their swaps
 * succeed. nodebug, as kernel.h's helpers: its code is the caller's line. */
__attribute__((nodebug)) static inline void float_max_by_cas(float *p, float v)
{
    union { float f; unsigned u; } old, want = { v };
    old.f = *(volatile float *)p;
    while (old.f < v) {
        unsigned seen = atomicCAS((unsigned *)p, old.u, want.u);
        if (seen == old.u) break;
        old.u = seen;
    }
}

WS_KERNEL void float_max(float *m, int n)
{
    for (int i = 0; i < n; i++) float_max_by_cas(m, (float)(threadIdx_x() + i));  /* MARK_FLOAT_MAX */
}

/* Sixteen independent loads per turn, `spread` words apart per lane: with
 * spread 1 a warp's request is 4 sectors (coalesced) and 8 warps per core
 * ask for more sectors than the LSU port moves, so the loads wait for room
 * in its queue (lg_throttle): the kernel is bandwidth-bound. With spread
 * 32 every lane needs a sector of its own (32 per request): the queue is
 * full of wasted sectors, which the uncoalesced rule names. */
#define LOAD16(v, p, s) \
    int v##0 = p[0 * (s)], v##1 = p[1 * (s)], v##2 = p[2 * (s)], v##3 = p[3 * (s)], v##4 = p[4 * (s)], \
        v##5 = p[5 * (s)], v##6 = p[6 * (s)], v##7 = p[7 * (s)], v##8 = p[8 * (s)], v##9 = p[9 * (s)], \
        v##10 = p[10 * (s)], v##11 = p[11 * (s)], v##12 = p[12 * (s)], v##13 = p[13 * (s)], \
        v##14 = p[14 * (s)], v##15 = p[15 * (s)]
#define SUM16(v) \
    (v##0 + v##1 + v##2 + v##3 + v##4 + v##5 + v##6 + v##7 + v##8 + v##9 + v##10 + v##11 + v##12 + v##13 + \
     v##14 + v##15)
WS_KERNEL void stream_sum(const int *in, int *out, int turns, int spread)
{
    unsigned t = threadIdx_x(), n = gridDim_x() * blockDim_x(), i = blockIdx_x() * blockDim_x() + t;
    int acc = 0;
    for (int r = 0; r < turns; r++) {
        const int *p = in + ((unsigned)r * 16u * n) % 65536u + i * (unsigned)spread; /* < 2^18 words */
        LOAD16(v, p, n);                                     /* MARK_STREAM */
        acc += SUM16(v);                                     /* MARK_STREAM_SUM */
    }
    out[i] = acc;
}

#define STORE16(p, s, v) \
    (p[0 * (s)] = v, p[1 * (s)] = v + 1, p[2 * (s)] = v + 2, p[3 * (s)] = v + 3, p[4 * (s)] = v + 4, \
     p[5 * (s)] = v + 5, p[6 * (s)] = v + 6, p[7 * (s)] = v + 7, p[8 * (s)] = v + 8, p[9 * (s)] = v + 9, \
     p[10 * (s)] = v + 10, p[11 * (s)] = v + 11, p[12 * (s)] = v + 12, p[13 * (s)] = v + 13, \
     p[14 * (s)] = v + 14, p[15 * (s)] = v + 15)
WS_KERNEL void stream_fill(int *out, int turns, int spread)
{
    unsigned n = gridDim_x() * blockDim_x(), i = blockIdx_x() * blockDim_x() + threadIdx_x();
    for (int r = 0; r < turns; r++) {
        int *p = out + ((unsigned)r * 16u * n) % 65536u + i * (unsigned)spread; /* < 2^18 words */
        STORE16(p, n, r);                                    /* MARK_FILL */
    }
}

/* The same in shared memory: sixteen stores of one value a turn, `stride`
 * words apart per lane. Stride 1 has no bank conflicts, and two schedulers issue them
 * faster than the MIO takes one pass a cycle (mio_throttle); stride 32 is
 * a 32-way conflict, the bank-conflict rule's. */
#define SET16(p, s, v) \
    (p[0 * (s)] = p[1 * (s)] = p[2 * (s)] = p[3 * (s)] = p[4 * (s)] = p[5 * (s)] = p[6 * (s)] = p[7 * (s)] = \
     p[8 * (s)] = p[9 * (s)] = p[10 * (s)] = p[11 * (s)] = p[12 * (s)] = p[13 * (s)] = p[14 * (s)] = \
     p[15 * (s)] = v)
WS_KERNEL void shared_fill(int *out, int turns, int stride)
{
    WS_SHARED int s[2048];
    unsigned t = threadIdx_x();
    for (int r = 0; r < turns; r++) {
        int *p = s + ((unsigned)r * 7u + t * (unsigned)stride) % 1024u;
        SET16(p, 16, r);                                     /* MARK_SHARED_FILL */
    }
    __syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = s[t];
}

/* Lanes 1..31 spin on a shared flag that lane 0 sets after a loop whose
 * every turn starts with a fence behind its last store. The SIMT
 * starvation guard (simt.c) hands lane 0 a run of turns; when the run ends
 * at the fence the warp picks its groups again while it waits there, and
 * the group it picks is the spinning one. */
WS_KERNEL void fence_handoff(int *out, int n)
{
    WS_SHARED volatile int flag;
    unsigned t = threadIdx_x();
    if (t == 0) flag = 0;
    __syncthreads();
    if (t != 0) {
        while (!flag)                                        /* MARK_SPIN */
            ;
    } else {
        for (int k = 0; k < n; k++) {
            ws_threadfence();                                /* MARK_HANDOFF_FENCE */
            out[blockIdx_x() * n + k] += k;
        }
        flag = 1;
    }
}

/* Odd and even lanes reach the barrier by different __syncthreads() (each
 * arm has its own), while the block's second warp works first: the first
 * warp waits with its two groups at two barriers. */
WS_KERNEL void bar_split(int *out, int work)
{
    unsigned t = threadIdx_x(), acc = t;
    if (t >= 32)
        for (int k = 0; k < work; k++) acc = (acc ^ (acc >> 3)) + (unsigned)k;
    if (t & 1) {
        out[blockIdx_x() * blockDim_x() + t] = (int)acc;
        __syncthreads();                                     /* MARK_SPLIT_ODD */
    } else {
        __syncthreads();                                     /* MARK_SPLIT_EVEN */
        out[blockIdx_x() * blockDim_x() + t] = (int)acc * 3;
    }
}

/* Four independent chains of divisions: the float divide pipes, busy
 * eight cycles per instruction (fdiv_interval), cap the launch while the
 * schedulers issue at a fraction of their rate (math_pipe_throttle). */
WS_KERNEL void fdiv_pipe(float *out, int n)
{
    float x = (float)threadIdx_x() + 1.5f, a = 1.0f, b = 2.0f, c = 3.0f, d = 4.0f;
    for (int k = 0; k < n; k++) {
        a = x / a, b = x / b;                                /* MARK_FDIV_PIPE */
        c = x / c, d = x / d;
    }
    out[blockIdx_x() * blockDim_x() + threadIdx_x()] = a + b + c + d;
}

/* Four independent chains of integer divisions by a run-time divisor
 * fixed for the loop: the div pipes cap the launch. */
WS_KERNEL void div_pipe(unsigned *out, unsigned d, int n)
{
    unsigned t = blockIdx_x() * blockDim_x() + threadIdx_x();
    unsigned a = t + 1000003u, b = t * 7u + 99991u, c = t * 13u + 7u, e = t * 3u + 5u;
    for (int k = 0; k < n; k++) {
        a = a / d + 1000003u, b = b / d + 99991u;            /* MARK_DIV_PIPE */
        c = c / d + 77777u, e = e / d + 55555u;
    }
    out[t] = a + b + c + e;
}

/* Butterfly shuffles with independent values: the MIO, one pass a cycle,
 * is the limit without a single shared-memory access. */
WS_KERNEL void shuffle_storm(int *out, int n)
{
    unsigned t = threadIdx_x();
    int a = (int)t, b = a + 1, c = a + 2, d = a + 3;
    for (int k = 0; k < n; k++) {
        a = ws_shfl_xor(a, 1), b = ws_shfl_xor(b, 2), c = ws_shfl_xor(c, 4), d = ws_shfl_xor(d, 8); /* MARK_SHUFFLE */
    }
    out[blockIdx_x() * blockDim_x() + t] = a + b + c + d;
}

/* One store per lane, `stride` words apart, then the kernel returns: with
 * stride 32 every lane's store is a sector of its own, and the warps wait
 * longer at the exit for their stores (drain); --baseline must list that
 * row (check_depth.sh baseline_exit). */
WS_KERNEL void last_store(int *out, int stride)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    out[i * (unsigned)stride] = (int)i;                      /* MARK_LAST_STORE */
}

/* One load per thread and no loop, as in a one-element-per-thread
 * vecadd: the latency rule cannot say "unroll" (check_depth.sh
 * latency_no_loop). */
WS_KERNEL void load_once(const int *in, int *out)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    out[i] = in[i] * 3 + 1;                                     /* MARK_LOAD_ONCE */
}

/* A loop that reads the block's size (a CSR) in every iteration, as a
 * strided loop's `j += blockDim_x()` may: waits on ids read again
 * (check_depth.sh mio_latency_rule). */
WS_KERNEL void csr_loop(int *out, int n)
{
    unsigned t = threadIdx_x();
    int acc = 0;
    for (unsigned j = t; j < (unsigned)n * blockDim_x(); j += blockDim_x())
        acc += (int)(j * blockDim_x());                         /* MARK_CSR_LOOP */
    out[blockIdx_x() * blockDim_x() + t] = acc;
}

/* Odd lanes run a short loop, then every lane stores a word 32 words
 * from its neighbour's and returns: with a long global_latency most of
 * the kernel's warp-cycles are warps draining at the exit, and the
 * divergent loop's line is 1 % of them but 11 % of its lines' (check_depth.sh
 * exit_drain). */
WS_KERNEL void drain_heavy(int *out, int n)
{
    unsigned t = threadIdx_x(), i = blockIdx_x() * blockDim_x() + t;
    int acc = (int)i;
    if (t & 1)
        for (int k = 0; k < n; k++) acc = acc * 3 + k;         /* MARK_DRAIN_ODD */
    out[i * 32u] = acc;
}

/* Each thread owns two neighbouring elements (2i and 2i + 1), as
 * examples/scan's scan_add did: a warp's accesses span twice the sectors
 * its 32 elements need (8 for words, 2 for bytes). pair_words with
 * pair = 0 touches element i: coalesced. */
WS_KERNEL void pair_words(int *out, int add, int pair)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x(), at = pair ? 2 * i : i;
    out[at] += add;                                    /* MARK_PAIR_WORDS */
}

/* Lane i copies double i: coalesced as written, but the device moves each
 * double as two 32-bit words 4 bytes apart, so each half's request spans
 * the sectors of both (8 for 32 lanes, where 32 words need 4). */
WS_KERNEL void copy_doubles(const double *in, double *out)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    out[i] = in[i];                                    /* MARK_DOUBLE_COPY */
}

WS_KERNEL void pair_bytes(unsigned char *out, int add)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    out[2 * i] = (unsigned char)(out[2 * i] + add);    /* MARK_PAIR_BYTES */
}

/* Lane i reads the low bit of int element i: the compiler loads only its
 * low byte (lbu), so 32 lanes' bytes lie 4 bytes apart, in 4 sectors
 * where packed bytes would take 1. Uncoalesced by its width, but not by
 * the indexing (check_depth.sh stride2). */
WS_KERNEL void int_low_bit(const int *in, int *out)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    if (in[i] & 1)                                     /* MARK_INT_LOW_BIT */
        out[i] = 7;
}

/* A xorshift generator: six dependent integer operations per turn, each
 * waiting for the one before (check_depth.sh dependency_rule). With one
 * warp per core nothing hides their latency; with four per scheduler the
 * others issue meanwhile. */
WS_KERNEL void alu_chain(unsigned *out, int n)
{
    unsigned x = threadIdx_x() + 1u;
    for (int k = 0; k < n; k++) {                      /* MARK_XS_LOOP */
        x ^= x << 13;                                  /* MARK_XS_A */
        x ^= x >> 17;                                  /* MARK_XS_B */
        x ^= x << 5;                                   /* MARK_XS_C */
    }
    out[blockIdx_x() * blockDim_x() + threadIdx_x()] = x;
}

/* Warp 0 of each block runs a loop the others skip, then all meet at a
 * barrier (check_depth.sh small_waits): the test on the thread id is
 * 2-3 % of the kernel's warp-cycles and mostly waits for the id's CSR
 * read (short_scoreboard), under 2 % of the kernel in all; the barrier is
 * the kernel's problem. */
WS_KERNEL void warp0_work(unsigned *out, int n)
{
    WS_SHARED unsigned acc[256];
    unsigned t = threadIdx_x();
    unsigned x = t;
    if (t < 32)                                        /* MARK_WARP0_TEST */
        for (int i = 0; i < n; i++) x = x * 1664525u + 1013904223u;
    acc[t] = x;
    __syncthreads();                                   /* MARK_WARP0_BAR */
    out[blockIdx_x() * blockDim_x() + t] = acc[(t + 1) & 255u];
}

/* The instruction waited on sits on the line before the one that waits:
 * an atomic's old value, and the block's size read in every iteration,
 * each used on the next line (check_depth.sh producer_line: the rules
 * charged to the using line name the line of the atomic and of the read). */
WS_KERNEL void atomic_next_line(int *counter, int n)
{
    int acc = 0;
    for (int i = 0; i < n; i++) {
        int old = atomicAdd(&counter[threadIdx_x() & 7u], 1); /* MARK_ATOMIC_READ */
        acc += (old & 1) * 3 + i;                      /* MARK_ATOMIC_USE */
    }
    counter[8 + threadIdx_x()] = acc;
}

WS_KERNEL void csr_next_line(int *out, int n)
{
    unsigned acc = threadIdx_x();
    for (int i = 0; i < n; i++) {
        unsigned s = blockDim_x();                     /* MARK_CSR_READ */
        acc = acc * s + (unsigned)i;                   /* MARK_CSR_USE */
    }
    out[blockIdx_x() * blockDim_x() + threadIdx_x()] = (int)acc;
}

/* Every thread stores, then half the warps store once more and the other
 * half add atomically, 32 words apart, and return: the exit drain waits
 * for the last of each path, the branch's two lines, not the first store
 * (check_depth.sh drain_stores). */
WS_KERNEL void drain_branches(int *out, int n)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    out[(unsigned)n + i] = 1;                          /* MARK_DRAIN_FIRST */
    if (i & 32u)
        out[i] = n;                                    /* MARK_DRAIN_STORE */
    else
        atomicAdd(&out[i * 32u], 1);                   /* MARK_DRAIN_ATOMIC */
}

/* The kernel's last store is in a function it calls (not inlined): a
 * warp's last store is the callee's, not the kernel's own store before
 * the call, which the drain's stores must not name (check_depth.sh
 * drain_stores). */
__attribute__((noinline)) static void store_far(int *p, unsigned i, int v)
{
    p[i * 32u] = v;                                    /* MARK_DRAIN_CALLEE */
}

WS_KERNEL void drain_call(int *out, int n)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    out[(unsigned)n + i] = 1;                          /* MARK_DRAIN_BEFORE_CALL */
    store_far(out, i, n);
}

/* A 5-point stencil on 16x16 tiles: the threads on a tile's edges load its
 * halo, so the edge warps come late to the barrier. At -O2 clang merges
 * the halo loads' common tail into code without a line, which the
 * barrier rule names by the lines it is reached from (check_depth.sh
 * line0_origins). */
WS_SHARED float halo_tile[18][18];
WS_KERNEL void halo_stencil(const float *in, float *out, int w, int h)
{
    int tx = (int)threadIdx_x(), ty = (int)threadIdx_y();
    int x = (int)blockIdx_x() * 16 + tx, y = (int)blockIdx_y() * 16 + ty;
    int cx = x < w ? x : w - 1, cy = y < h ? y : h - 1;
    halo_tile[ty + 1][tx + 1] = in[cy * w + cx];
    if (tx == 0) halo_tile[ty + 1][0] = in[cy * w + (cx > 0 ? cx - 1 : 0)];                /* MARK_HALO_LEFT */
    if (tx == 15) halo_tile[ty + 1][17] = in[cy * w + (cx < w - 1 ? cx + 1 : cx)];          /* MARK_HALO_RIGHT */
    if (ty == 0) halo_tile[0][tx + 1] = in[(cy > 0 ? cy - 1 : 0) * w + cx];                /* MARK_HALO_TOP */
    if (ty == 15) halo_tile[17][tx + 1] = in[(cy < h - 1 ? cy + 1 : cy) * w + cx];          /* MARK_HALO_BOTTOM */
    __syncthreads();                                                                        /* MARK_HALO_BARRIER */
    if (x < w && y < h)
        out[y * w + x] = 0.5f * halo_tile[ty + 1][tx + 1] +
                         0.125f * (halo_tile[ty][tx + 1] + halo_tile[ty + 2][tx + 1] + halo_tile[ty + 1][tx] +
                                   halo_tile[ty + 1][tx + 2]);
}
