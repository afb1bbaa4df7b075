/* Kernels for the engine comparison (test_engine.c): each runs on the
 * interpreter and on the fast engine, which must agree on memory, fault
 * reports and statistics. They cover what the fast engine runs itself
 * (integer, M, loads and stores of every size, float, CSR reads, branches
 * and jumps), what it hands back to the interpreter (divergence, atomics,
 * barriers, votes, ecalls), and what makes the schedule visible (races
 * between warps, instret, spinning lanes of one warp). */
#include <warpscope/kernel.h>

static inline unsigned gid(void) { return blockIdx_x() * blockDim_x() + threadIdx_x(); }
static inline unsigned rdinstret(void) { unsigned v; __asm__ volatile("csrr %0, instret" : "=r"(v)); return v; }

/* Divergence inside loops: per-lane trip counts, if/else and early exits
 * in the body, nested loops, and the M extension's edge cases. */
WS_KERNEL void diverge_loops(const int *in, int *out, int n)
{
    unsigned t = gid();
    if (t >= (unsigned)n) return;
    int v = in[t], acc = 0;
    for (int i = 0; i < (v & 15) + 1; i++) {
        if ((v + i) & 1) acc += i * v;
        else acc ^= (v << (i & 7)) >> 2;
        if (acc == 12345) break;
        for (int j = 0; j < (i & 3); j++) {
            int d = (j == 2) ? 0 : (j == 1 ? -1 : v | 1);
            acc += (v / (d ? d : 1)) + (d ? v % d : v);
            acc += (int)((unsigned)acc / (unsigned)(d + 3)) - (int)((unsigned)v % (unsigned)(d + 5));
            if (d == -1) acc += (-2147483647 - 1) / d + ((-2147483647 - 1) % d);
        }
        if (v < 0 && i > 3) break;
    }
    long long p = (long long)v * acc;
    unsigned long long q = (unsigned long long)(unsigned)v * (unsigned)acc;
    out[t] = acc ^ (int)(p >> 32) ^ (int)(q >> 32) ^ (int)rdinstret();
}

/* Every load and store width, sign extension, floats and CSR reads. */
WS_KERNEL void widths(const unsigned char *bytes, short *halves, float *f, int *out)
{
    unsigned t = gid();
    signed char sb = (signed char)bytes[t * 3 + 1];
    unsigned char ub = bytes[t * 3 + 2];
    short sh = halves[t];
    unsigned short uh = (unsigned short)halves[t + 1];
    halves[t] = (short)(sh + ub);
    ((unsigned char *)out)[t * 4 + 3] = (unsigned char)(sb + 1);
    float x = f[t], y = (float)(int)t * 0.5f - 3.0f;
    float z = fmaf(x, y, 1.25f) / (y == 0.0f ? 1.0f : y) + sqrtf(fabsf(x)) - fminf(x, y);
    int c = (int)z + (int)(z > x) + (int)(z == y) * 3 + (int)(unsigned)fabsf(z);
    f[t] = z * x - y;
    int a = sh * 77 + sb, u = (int)uh * 31 + ub; /* every shift and compare form */
    int e = (a >> (u & 31)) ^ (int)((unsigned)a >> (ub & 31)) ^ (a << (sb & 31)) ^ (a >> 3) ^ (int)((unsigned)a >> 5);
    e += (a < u) + ((unsigned)a < (unsigned)u) * 2 + (a < 100) * 4 + ((unsigned)u < 300u) * 8;
    e += (int)(((long long)a * (unsigned long long)(unsigned)u) >> 32) + (int)(((long long)a * u) >> 32);
    e ^= (a | 0x55) + (u & 0x3C) + (a ^ -7) + (a - u) + (a & u) + (a | u);
    out[t + 320] = e;
    out[t + 64] = c + sb * 7 + ub + sh + uh + (int)threadIdx_x() + (int)blockIdx_x() * 100 +
                  (int)ws_lane_id() + (int)ws_warp_id() * 1000 + (int)(rdinstret() & 0xFFFF);
}

/* Warps race on one counter without atomics: the values each thread saw
 * record the interleaving of warps (warp_quantum) exactly. */
WS_KERNEL void race(volatile int *counter, int *seen, int *tickets, int rounds)
{
    unsigned t = gid();
    for (int r = 0; r < rounds; r++) {
        int v = *counter;
        for (int k = 0; k < (int)(t & 3) + r % 3; k++) v += k & 1; /* short, per-lane busy work */
        *counter = v + 1;
        seen[t * rounds + r] = v;
    }
    tickets[t] = atomicAdd(&tickets[1024], 1) * 10000 + (int)(rdinstret() & 0xFFF);
}

/* Lanes of one warp wait for each other through memory: the starvation
 * guard lets the producer run; block barriers and votes in between. */
WS_KERNEL void spin(volatile int *flags, int *out)
{
    unsigned t = gid(), lane = threadIdx_x() & 31;
    int spins = 0;
    if (lane < 8) {
        while (flags[t + 24] == 0) spins++;
        out[t] = spins > 0 ? 1 : 0;
    } else {
        int s = 0;
        for (int i = 0; i < 40 + (int)lane; i++) s += i * (int)lane;
        if (lane >= 24) flags[t] = s | 1;
        out[t] = s;
    }
    __syncthreads();
    out[t + 256] = (int)ws_ballot(out[t] & 1) + ws_all(out[t] > 0);
}

/* Long divergent loops (hundreds of turns while other lanes wait, past
 * the starvation guard's limit) whose bodies take forward branches and
 * call a function (placed above: its return, a jump back that does not
 * link, counts as a turn): the guard counts only turns, and instret and
 * the active mask record where each lane was when the groups changed. */
static __attribute__((noinline)) int long_mix(int a, int i) { return (a ^ (int)((unsigned)i * 2654435761u)) >> 3; }

WS_KERNEL void long_diverge(const int *in, int *out)
{
    unsigned t = gid(), lane = threadIdx_x() & 31;
    int trips = (in[t] & 255) + (int)lane * 12, acc = 0, i = 0;
    while (i < trips) {
        if (i & 1) acc += long_mix(acc, i);
        else if (i % 3 == 0) acc ^= i;
        else acc -= (int)lane;
        if ((i & 63) == 63) out[t * 16 + ((i >> 6) & 15)] = (int)rdinstret() ^ (int)ws_active_mask();
        i++;
    }
    out[4096 + t] = acc ^ (int)rdinstret() ^ (int)(ws_core_id() * 7 + ws_warp_in_block() * 3 + ws_warp_id());
}

/* A load faults in the middle of a block of straight-line code, in one
 * lane of one warp, after many loop iterations. */
WS_KERNEL void fault_load(const int *in, int *out, unsigned bad_thread, int bad_iter)
{
    unsigned t = gid();
    int s = 0;
    for (int i = 0; i < 64; i++) {
        unsigned idx = (t + (unsigned)i * 7u) & 255u;
        idx ^= (unsigned)i << 1;
        idx &= 255u;
        if (t == bad_thread && i == bad_iter) idx += 0x4000000u; /* far past the end */
        s += in[idx] * (i + 1);
        s ^= (int)idx;
    }
    out[t] = s;
}

/* A misaligned store in the middle of a block. */
WS_KERNEL void fault_store(int *out, unsigned bad_thread, int bad_iter)
{
    unsigned t = gid();
    for (int i = 0; i < 32; i++) {
        unsigned off = (t * 4u + (unsigned)i * 128u) & 0xFFFu;
        off += (t == bad_thread && i == bad_iter) ? 2u : 0u;
        *(int *)((char *)out + off) = (int)(t * 31u + (unsigned)i);
    }
}

/* The bench workloads (bench/qemu_ratio/work.h). */
WS_KERNEL void mm(const float *a, const float *b, float *c, int n)
{
    unsigned row = blockIdx_y() * blockDim_y() + threadIdx_y(), col = blockIdx_x() * blockDim_x() + threadIdx_x();
    float acc = 0.0f;
    for (int k = 0; k < n; k++) acc += a[row * n + k] * b[k * n + col];
    c[row * n + col] = acc;
}

WS_KERNEL void vecadd(const float *a, const float *b, float *c)
{
    unsigned i = gid();
    c[i] = a[i] + b[i];
}

WS_KERNEL void reduce(const int *in, int *out, int chunk)
{
    unsigned t = gid();
    int s = 0;
    for (unsigned i = t * chunk; i < (t + 1) * chunk; i++) s += in[i];
    __atomic_fetch_add(out, s, __ATOMIC_RELAXED);
}

/* Loads and stores at negative offsets from a lane's pointer, into global
 * and shared memory (`sw a0, -4(a1)`; k = 1 keeps the compiler from
 * folding them): the interpreter's whole-region path once added the
 * offset's 32 bits to a 64-bit host pointer, 4 GiB off. */
WS_KERNEL void neighbours(const int *in, int *out, unsigned k)
{
    WS_SHARED int tile[129];
    const unsigned t = threadIdx_x(), i = blockIdx_x() * blockDim_x() + t;
    const int *src = in + i + k;
    int *dst = out + i + k, *own = tile + t + k;
    own[-1] = src[-1];
    __syncthreads();
    dst[-1] = own[-1] * 2 + (t ? own[-2] : 0);
}

/* Full-warp word gathers, which the wide engine hands to the host's gather
 * instructions: a pointer chase whose load overwrites the register its
 * addresses came from (`lw a0, 0(a0)`), one word read by every lane, and
 * a backward walk that ends on the allocation's last word. Each block
 * links its own threads, so no block reads another's links. */
WS_KERNEL void gathers(int *links, int *out, int steps)
{
    const unsigned t = threadIdx_x(), n = blockDim_x(), base = blockIdx_x() * n, i = base + t;
    links[i] = (int)&links[base + (t * 7 + 3) % n];
    __syncthreads();
    int *p = &links[i];
    for (int k = 0; k < steps; k++) p = (int *)*p;
    const unsigned last = gridDim_x() * n - 1;
    out[i] = (int)p - (int)links + links[0] + links[last - i];
}
