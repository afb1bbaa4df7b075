/* Kernels that pin down SIMT semantics: divergence, reconvergence,
 * barriers, early exit, vote/shuffle with inactive lanes, atomics, spin
 * locks and producer/consumer between lanes of one warp. */
#include <math.h>
#include <warpscope/kernel.h>

/* Nested divergence inside a loop whose trip count depends on the lane. */
WS_KERNEL void nested_divergence(int *out)
{
    int t = (int)threadIdx_x(), acc = 0;
    for (int i = 0; i < t % 7 + 1; i++) {
        if ((t + i) & 1) {
            if (i % 3 == 0) acc += 100;
            else acc += 10;
        } else {
            acc -= 1;
            if (t > 16) continue;
            acc *= 2;
        }
    }
    out[blockIdx_x() * blockDim_x() + (unsigned)t] = acc;
}

/* Uneven work before a barrier, then every thread reads its neighbour's
 * value written before the barrier. */
WS_SHARED int stage[256];
WS_KERNEL void barrier_after_divergence(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x();
    int v = 0;
    for (unsigned i = 0; i < t % 5; i++) v += (int)(i * t);
    if (t % 3 == 0) v += 1000;
    stage[t] = v;
    ws_syncthreads();
    out[blockIdx_x() * n + t] = stage[(t + 1) % n];
}

/* Threads that return early do not hold up the barrier the others wait at. */
WS_KERNEL void early_exit(int *out, int keep)
{
    unsigned t = threadIdx_x();
    if ((int)t >= keep) return;
    stage[t] = (int)t * 3;
    ws_syncthreads();
    out[t] = stage[((int)t + 1) % keep];
}

/* Vote and shuffle inside a branch: only lanes < active take part. */
WS_KERNEL void vote_shuffle_partial(unsigned *out, unsigned active)
{
    unsigned lane = ws_lane_id(), base = threadIdx_x() / ws_warp_size() * 8 * ws_warp_size();
    unsigned *o = out + base;
    if (lane < active) {
        o[lane] = ws_ballot(lane % 3 == 0);
        o[ws_warp_size() + lane] = ws_any(lane == active - 1);
        o[2 * ws_warp_size() + lane] = ws_all(lane < active);
        o[3 * ws_warp_size() + lane] = ws_uni(lane < 4);
        o[4 * ws_warp_size() + lane] = (unsigned)ws_shfl_down((int)(lane * 10), 1);
        o[5 * ws_warp_size() + lane] = (unsigned)ws_shfl_up((int)(lane * 10), 2);
        o[6 * ws_warp_size() + lane] = (unsigned)ws_shfl_xor((int)(lane * 10), 1);
        o[7 * ws_warp_size() + lane] = (unsigned)ws_shfl_idx((int)(lane * 10), 3);
    }
}

/* Atomic contention on one word: each thread records the value it saw. */
WS_KERNEL void atomic_contention(unsigned *counter, unsigned *seen, int *minmax)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    seen[i] = atomicAdd(counter, 1u);
    atomicMax(&minmax[0], (int)(i * 7919 % 1000));
    atomicMin(&minmax[1], (int)(i * 7919 % 1000) - 500);
    atomicOr((int *)&minmax[2], 1 << (i % 31));
}

/* 64-bit atomics (the device library's amocas.d loops): a counter whose
 * increments carry into the high word, signed min/max, a double sum, a
 * per-block counter in shared memory and one on each lane's own stack. */
WS_KERNEL void atomic64_contention(unsigned long long *counter, unsigned long long *seen, long long *minmax,
                                   double *sum, unsigned long long *per_block)
{
    WS_SHARED unsigned long long block_count;
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    if (threadIdx_x() == 0) block_count = 0;
    __syncthreads();
    seen[i] = atomicAdd(counter, 0x0000000180000001ull);
    atomicMax(&minmax[0], ((long long)(i * 7919 % 1000) - 500) * 0x10000000ll);
    atomicMin(&minmax[1], ((long long)(i * 7919 % 1000) - 500) * 0x10000000ll);
    atomicAdd(sum, (double)i * 0.5);
    atomicAdd(&block_count, 1ull << 32 | 1u);
    unsigned long long own = (unsigned long long)i << 32;
    __atomic_fetch_add(&own, 0xFFFFFFFFull, __ATOMIC_SEQ_CST);
    seen[i] ^= own ^ ((unsigned long long)i << 32 | 0xFFFFFFFFull); /* unchanged when the stack's add is right */
    __syncthreads();
    if (threadIdx_x() == 0) per_block[blockIdx_x()] = atomicCAS(&block_count, 0ull, 1ull);
}

/* Every 64-bit atomic (one doubleword AMO each but nand) by one warp on
 * words of its own, old values kept: r[op * 32 + lane]. */
WS_KERNEL void atomic64_each(unsigned long long *w, unsigned long long *r)
{
    unsigned l = threadIdx_x();
    unsigned long long v = 0x0123456789abcdefull * (l + 1) ^ (unsigned long long)l << 60;
    r[0 * 32 + l] = atomicAdd(&w[0], v);
    r[1 * 32 + l] = atomicSub(&w[1], v);
    r[2 * 32 + l] = atomicAnd(&w[2], ~v);
    r[3 * 32 + l] = atomicOr(&w[3], v);
    r[4 * 32 + l] = atomicXor(&w[4], v);
    r[5 * 32 + l] = (unsigned long long)atomicMin((long long *)&w[5], (long long)v);
    r[6 * 32 + l] = (unsigned long long)atomicMax((long long *)&w[6], (long long)v);
    r[7 * 32 + l] = atomicMin(&w[7], v);
    r[8 * 32 + l] = atomicMax(&w[8], v);
    r[9 * 32 + l] = atomicExch(&w[9], v);
    r[10 * 32 + l] = __atomic_fetch_nand(&w[10], v, __ATOMIC_SEQ_CST);
}

/* A 64-bit atomic at an address that is not 8-byte aligned faults. */
WS_KERNEL void atomic64_misaligned(unsigned *p)
{
    atomicAdd((unsigned long long *)(void *)(p + 1), 1ull);
}

/* A spin lock taken by every thread of the grid, lanes of one warp included. */
WS_KERNEL void spin_lock(int *lock, int *counter)
{
    while (atomicCAS(lock, 0, 1) != 0) { }
    int v = *(volatile int *)counter;
    *(volatile int *)counter = v + 1;
    atomicExch(lock, 0);
}

/* Producer/consumer between lanes of one warp: odd lanes wait for the
 * value their even neighbour publishes. */
WS_KERNEL void producer_consumer(volatile int *flags, int *out)
{
    unsigned t = threadIdx_x();
    if (t & 1) {
        while (flags[t - 1] == 0) { }
        out[t] = flags[t - 1] * 2;
    } else {
        for (volatile int spin = 0; spin < 50; spin++) { }
        flags[t] = (int)t + 1;
        out[t] = -1;
    }
}

/* Lanes waiting at different barriers can never proceed: a deadlock. */
WS_KERNEL void barrier_mismatch(int *out)
{
    if (threadIdx_x() < 16) ws_barrier(0);
    else ws_barrier(1);
    out[threadIdx_x()] = 1;
}

/* The same from one barrier instruction whose lanes name different ids
 * (it completed: the whole warp arrived at the first lane's id). */
WS_KERNEL void barrier_mismatch_one(int *out)
{
    ws_barrier(threadIdx_x() < 16 ? 0 : 1);
    out[threadIdx_x()] = 1;
}

/* Per-thread printf, in order per thread. */
WS_KERNEL void hello(int n)
{
    if ((int)threadIdx_x() < n) printf("hello from block %u thread %u\n", blockIdx_x(), threadIdx_x());
}

/* 2-D blocks in a 2-D grid: each thread records its coordinates. */
WS_KERNEL void coords(unsigned *out)
{
    unsigned x = blockIdx_x() * blockDim_x() + threadIdx_x();
    unsigned y = blockIdx_y() * blockDim_y() + threadIdx_y();
    unsigned w = gridDim_x() * blockDim_x();
    out[y * w + x] = (threadIdx_z() << 24) | (blockIdx_y() << 16) | (threadIdx_y() << 8) | threadIdx_x();
}

/* Many arguments: more than fit in registers, of every width. */
WS_KERNEL void many_args(long long *out, int a0, float f0, int a1, float f1, int a2, float f2, int a3,
                         float f3, int a4, float f4, int a5, float f5, int a6, float f6, int a7,
                         float f7, int a8, float f8, float f9, long long big, double d, int last)
{
    if (threadIdx_x() != 0) return;
    out[0] = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8;
    out[1] = (long long)((f0 + f1 + f2 + f3 + f4 + f5 + f6 + f7 + f8 + f9) * 1000.0f);
    out[2] = big;
    out[3] = (long long)(d * 1000.0);
    out[4] = last;
}

/* Dynamic shared memory after static shared memory. */
WS_KERNEL void dyn_shared(int *out, int n)
{
    int *dyn = (int *)ws_dynamic_shared();
    unsigned t = threadIdx_x();
    stage[t] = (int)t;
    dyn[t] = (int)t * 10;
    if ((int)t + 1 < n) dyn[n - 1 - (int)t] += 0; /* touch the far end */
    ws_syncthreads();
    out[t] = stage[(t + 1) % blockDim_x()] + dyn[(t + 2) % blockDim_x()];
}

/* A big grid: one store per thread. */
WS_KERNEL void big_grid(unsigned *out, unsigned n)
{
    unsigned i = ws_global_id_x();
    if (i < n) out[i] = i * 2654435761u;
}

/* Registers start at zero in every warp (docs/device.md, Launch ABI), also
 * in a slot whose previous warp left values behind: dirty_registers writes
 * every register it can and leaves them so (a naked body; its wrapper
 * saves nothing), read_registers stores x0-x31 and f0-f31 of each thread
 * as the body finds them. */
static __attribute__((naked, noinline, used)) void dirty_registers_body(void)
{
    __asm__ volatile(
        "li gp, 4096\n"
        "li tp, 4103\n"
        "li t0, 4110\n"
        "li t1, 4117\n"
        "li t2, 4124\n"
        "li s0, 4131\n"
        "li s1, 4138\n"
        "li a1, 4145\n"
        "li a2, 4152\n"
        "li a3, 4159\n"
        "li a4, 4166\n"
        "li a5, 4173\n"
        "li a6, 4180\n"
        "li a7, 4187\n"
        "li s2, 4194\n"
        "li s3, 4201\n"
        "li s4, 4208\n"
        "li s5, 4215\n"
        "li s6, 4222\n"
        "li s7, 4229\n"
        "li s8, 4236\n"
        "li s9, 4243\n"
        "li s10, 4250\n"
        "li s11, 4257\n"
        "li t3, 4264\n"
        "li t4, 4271\n"
        "li t5, 4278\n"
        "li t6, 4285\n"
        "fmv.w.x f0, t0\n"
        "fmv.w.x f1, t0\n"
        "fmv.w.x f2, t0\n"
        "fmv.w.x f3, t0\n"
        "fmv.w.x f4, t0\n"
        "fmv.w.x f5, t0\n"
        "fmv.w.x f6, t0\n"
        "fmv.w.x f7, t0\n"
        "fmv.w.x f8, t0\n"
        "fmv.w.x f9, t0\n"
        "fmv.w.x f10, t0\n"
        "fmv.w.x f11, t0\n"
        "fmv.w.x f12, t0\n"
        "fmv.w.x f13, t0\n"
        "fmv.w.x f14, t0\n"
        "fmv.w.x f15, t0\n"
        "fmv.w.x f16, t0\n"
        "fmv.w.x f17, t0\n"
        "fmv.w.x f18, t0\n"
        "fmv.w.x f19, t0\n"
        "fmv.w.x f20, t0\n"
        "fmv.w.x f21, t0\n"
        "fmv.w.x f22, t0\n"
        "fmv.w.x f23, t0\n"
        "fmv.w.x f24, t0\n"
        "fmv.w.x f25, t0\n"
        "fmv.w.x f26, t0\n"
        "fmv.w.x f27, t0\n"
        "fmv.w.x f28, t0\n"
        "fmv.w.x f29, t0\n"
        "fmv.w.x f30, t0\n"
        "fmv.w.x f31, t0\n"
        "ret\n");
}
WS_KERNEL void dirty_registers(void) { dirty_registers_body(); }

static __attribute__((naked, noinline, used)) void read_registers_body(unsigned *out)
{
    __asm__ volatile(
        "sw t0, -4(sp)\n"
        "csrr t0, 0xCC4\n"       /* thread x in the block (blocks of 64 threads, one block) */
        "slli t0, t0, 8\n"       /* 64 words per thread */
        "add t0, a0, t0\n"
        "sw x0, 0(t0)\n"
        "sw x1, 4(t0)\n"
        "sw x2, 8(t0)\n"
        "sw x3, 12(t0)\n"
        "sw x4, 16(t0)\n"
        "sw x6, 24(t0)\n"
        "sw x7, 28(t0)\n"
        "sw x8, 32(t0)\n"
        "sw x9, 36(t0)\n"
        "sw x10, 40(t0)\n"
        "sw x11, 44(t0)\n"
        "sw x12, 48(t0)\n"
        "sw x13, 52(t0)\n"
        "sw x14, 56(t0)\n"
        "sw x15, 60(t0)\n"
        "sw x16, 64(t0)\n"
        "sw x17, 68(t0)\n"
        "sw x18, 72(t0)\n"
        "sw x19, 76(t0)\n"
        "sw x20, 80(t0)\n"
        "sw x21, 84(t0)\n"
        "sw x22, 88(t0)\n"
        "sw x23, 92(t0)\n"
        "sw x24, 96(t0)\n"
        "sw x25, 100(t0)\n"
        "sw x26, 104(t0)\n"
        "sw x27, 108(t0)\n"
        "sw x28, 112(t0)\n"
        "sw x29, 116(t0)\n"
        "sw x30, 120(t0)\n"
        "sw x31, 124(t0)\n"
        "fsw f0, 128(t0)\n"
        "fsw f1, 132(t0)\n"
        "fsw f2, 136(t0)\n"
        "fsw f3, 140(t0)\n"
        "fsw f4, 144(t0)\n"
        "fsw f5, 148(t0)\n"
        "fsw f6, 152(t0)\n"
        "fsw f7, 156(t0)\n"
        "fsw f8, 160(t0)\n"
        "fsw f9, 164(t0)\n"
        "fsw f10, 168(t0)\n"
        "fsw f11, 172(t0)\n"
        "fsw f12, 176(t0)\n"
        "fsw f13, 180(t0)\n"
        "fsw f14, 184(t0)\n"
        "fsw f15, 188(t0)\n"
        "fsw f16, 192(t0)\n"
        "fsw f17, 196(t0)\n"
        "fsw f18, 200(t0)\n"
        "fsw f19, 204(t0)\n"
        "fsw f20, 208(t0)\n"
        "fsw f21, 212(t0)\n"
        "fsw f22, 216(t0)\n"
        "fsw f23, 220(t0)\n"
        "fsw f24, 224(t0)\n"
        "fsw f25, 228(t0)\n"
        "fsw f26, 232(t0)\n"
        "fsw f27, 236(t0)\n"
        "fsw f28, 240(t0)\n"
        "fsw f29, 244(t0)\n"
        "fsw f30, 248(t0)\n"
        "fsw f31, 252(t0)\n"
        "lw t1, -4(sp)\n"
        "sw t1, 20(t0)\n"
        "ret\n");
}
WS_KERNEL void read_registers(unsigned *out) { read_registers_body(out); }

/* Warp shuffles after calls in which lanes diverge (test_semantics's
 * shuffle_after_calls): a butterfly sum of doubles (each add a libgcc
 * soft-float call that branches on its operands) and of floats from
 * picolibc's expf/sinf. Every lane must end with the whole warp's sum;
 * lanes[] keeps each lane's own value for the host to add up the same
 * way. */
static double shfl_xor_d(double v, unsigned m)
{
    union { double d; unsigned u[2]; } x = { v };
    x.u[0] = (unsigned)ws_shfl_xor((int)x.u[0], m);
    x.u[1] = (unsigned)ws_shfl_xor((int)x.u[1], m);
    return x.d;
}
WS_KERNEL void warp_sum_double(const int *in, double *lanes, double *out)
{
    unsigned t = blockIdx_x() * blockDim_x() + threadIdx_x();
    double acc = (double)in[t] * 0.37 + 1e-3 * (double)(t % 7);
    lanes[t] = acc;
    for (unsigned d = ws_warp_size() / 2; d; d >>= 1) acc += shfl_xor_d(acc, d);
    out[t] = acc;
}
WS_KERNEL void warp_sum_libm(const int *in, float *lanes, float *out)
{
    unsigned t = blockIdx_x() * blockDim_x() + threadIdx_x();
    float acc = expf((float)in[t] * 0.1f) + sinf((float)in[t]);
    lanes[t] = acc;
    for (unsigned d = ws_warp_size() / 2; d; d >>= 1) acc += ws_shfl_xor_f(acc, d);
    out[t] = acc;
}

/* The spin lock of spin_lock, taken inside a call: lanes spinning in the
 * callee are deeper than the holder back in the kernel, and the
 * starvation guard must still let the holder release it. */
static __attribute__((noinline)) void take_lock(int *lock)
{
    while (atomicCAS(lock, 0, 1) != 0) { }
}
WS_KERNEL void spin_lock_call(int *lock, int *counter)
{
    take_lock(lock);
    int v = *(volatile int *)counter;
    *(volatile int *)counter = v + 1;
    atomicExch(lock, 0);
}

/* Odd lanes call expf while even lanes already wait at the barrier (their
 * depths differ while they are apart); after it every lane votes. */
WS_KERNEL void barrier_after_call(const int *in, float *vals, unsigned *votes)
{
    unsigned t = blockIdx_x() * blockDim_x() + threadIdx_x();
    float v = (float)in[t];
    if (t & 1) v = expf(v * 0.1f);
    ws_syncthreads();
    vals[t] = v;
    votes[t] = ws_ballot(1);
}

/* Float atomics (amofadd.s, docs/device.md): every thread adds 1 to one
 * float in global memory, recording the value it saw, and 0.5 to its
 * block's float in shared memory. */
WS_KERNEL void float_atomic(float *sum, float *seen, float *per_block)
{
    WS_SHARED float block_sum;
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    if (threadIdx_x() == 0) block_sum = 0.0f;
    __syncthreads();
    seen[i] = atomicAdd(sum, 1.0f);
    atomicAdd(&block_sum, 0.5f);
    __syncthreads();
    if (threadIdx_x() == 0) per_block[blockIdx_x()] = block_sum;
}

/* One warp's adds of vals[lane] to *acc, with frm set to round up and
 * fflags cleared first: the sum must round to nearest even in lane order
 * and raise no flag (flags[lane] gets fflags after the add). */
WS_KERNEL void float_atomic_rounding(float *acc, const float *vals, unsigned *flags)
{
    unsigned l = threadIdx_x();
    __asm__ volatile("csrwi frm, 3\n\tcsrwi fflags, 0" ::: "memory");
    atomicAdd(acc, vals[l]);
    unsigned f;
    __asm__ volatile("csrr %0, fflags" : "=r"(f));
    flags[l] = f;
}

/* A float atomic at an address that is not 4-byte aligned faults, a
 * double one at an address that is not 8-byte aligned. */
WS_KERNEL void float_atomic_misaligned(float *p)
{
    atomicAdd((float *)(void *)((char *)p + 2), 1.0f);
}

WS_KERNEL void double_atomic_misaligned(double *p)
{
    atomicAdd((double *)(void *)((char *)p + 4), 1.0);
}

/* Double atomics (amofadd.d): every thread adds 1 to one double in
 * global memory, recording the value it saw, 0.5 to its block's double in
 * shared memory, and 0.25 to one on its own stack. */
WS_KERNEL void double_atomic(double *sum, double *seen, double *per_block)
{
    WS_SHARED double block_sum;
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    double own = i;
    if (threadIdx_x() == 0) block_sum = 0.0;
    __syncthreads();
    seen[i] = atomicAdd(sum, 1.0) + (atomicAdd(&own, 0.25) - i); /* (own: i, then i + 0.25) */
    atomicAdd(&block_sum, 0.5);
    __syncthreads();
    if (threadIdx_x() == 0) per_block[blockIdx_x()] = block_sum;
    if (own != i + 0.25) seen[i] = -1.0;
}

/* One warp's adds of vals[lane] to *acc, in lane order. */
WS_KERNEL void double_atomic_rounding(double *acc, const double *vals)
{
    atomicAdd(acc, vals[threadIdx_x()]);
}
