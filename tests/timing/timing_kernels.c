/* Kernels that stall in known ways, for the timing model's tests. The hot
 * loops are written in assembly (no compressed forms) so the instruction
 * each one stalls on is known exactly; each kernel stores the PC of its
 * key instruction (found with auipc) in out[0] for lane 0. */
#include <warpscope/kernel.h>

/* Pointer chase through global memory: every lw depends on the previous
 * one, so the warp waits on the load's result (long_scoreboard). */
WS_KERNEL void chase(unsigned *next, int steps, unsigned *out)
{
    unsigned t = ws_global_id_x(), pc, p = (unsigned)(uintptr_t)&next[t];
    __asm__ volatile(".option push\n.option norvc\n"
                     "auipc %[pc], 0\n"
                     "1: lw %[p], 0(%[p])\n"          /* at pc + 4 */
                     "addi %[n], %[n], -1\n"
                     "bnez %[n], 1b\n"
                     ".option pop\n"
                     : [pc] "=&r"(pc), [p] "+r"(p), [n] "+r"(steps) : : "memory");
    out[t + 1] = p;
    if (t == 0) out[0] = pc + 4;
}

/* Warp 0 of the block computes while the others wait at the barrier;
 * out[blockDim] = the PC of the barrier instruction. */
WS_KERNEL void imbalance(int *out, int work)
{
    unsigned t = threadIdx_x(), pc;
    int acc = (int)t;
    if (ws_warp_in_block() == 0)
        for (int i = 0; i < work; i++) acc = acc * 3 + i;
    __asm__ volatile(".option push\n.option norvc\n"
                     "auipc %[pc], 0\n"
                     ".insn r 0x0B, 4, 0, x0, x0, x0\n"   /* barrier 0, at pc + 4 */
                     ".option pop\n"
                     : [pc] "=&r"(pc) : : "memory");
    out[t] = acc;
    if (t == 0) out[blockDim_x()] = (int)(pc + 4);
}

/* Shared-memory accesses with a word stride: stride 32 puts every lane in
 * bank 0 (32 passes), stride 1 spreads them over the 32 banks (1 pass).
 * Each iteration does one store and one load of shared memory. */
WS_SHARED volatile unsigned banks[32 * 32];
WS_KERNEL void bank_stride(unsigned *out, unsigned stride, int iters)
{
    unsigned lane = threadIdx_x() & 31, pc;
    volatile unsigned *s = &banks[(lane * stride) & (32 * 32 - 1)];
    unsigned v = lane, acc = 0;
    __asm__ volatile(".option push\n.option norvc\n"
                     "auipc %[pc], 0\n"
                     "1: sw %[v], 0(%[s])\n"
                     "lw %[v], 0(%[s])\n"              /* at pc + 8 */
                     "add %[acc], %[acc], %[v]\n"
                     "addi %[n], %[n], -1\n"
                     "bnez %[n], 1b\n"
                     ".option pop\n"
                     : [pc] "=&r"(pc), [v] "+r"(v), [acc] "+r"(acc), [n] "+r"(iters)
                     : [s] "r"(s) : "memory");
    out[threadIdx_x() + 1] = acc;
    if (threadIdx_x() == 0) out[0] = pc + 8;
}

/* One lane in eight does the work: SIMT efficiency about 1/8. */
WS_KERNEL void divergent(int *out, int work)
{
    unsigned t = ws_global_id_x();
    int acc = (int)t;
    if (t % 8 == 0)
        for (int i = 0; i < work; i++) acc = (acc ^ i) * 7 + (acc >> 3);
    out[t] = acc;
}

/* A dependent chain of integer adds: each waits on the previous (wait). */
WS_KERNEL void alu_chain(unsigned *out, int iters)
{
    unsigned a = threadIdx_x(), b = 3, pc;
    __asm__ volatile(".option push\n.option norvc\n"
                     "auipc %[pc], 0\n"
                     "1: add %[a], %[a], %[b]\n"
                     "add %[a], %[a], %[b]\n" "add %[a], %[a], %[b]\n" "add %[a], %[a], %[b]\n"
                     "add %[a], %[a], %[b]\n" "add %[a], %[a], %[b]\n" "add %[a], %[a], %[b]\n"
                     "add %[a], %[a], %[b]\n" "add %[a], %[a], %[b]\n" "add %[a], %[a], %[b]\n"
                     "add %[a], %[a], %[b]\n" "add %[a], %[a], %[b]\n" "add %[a], %[a], %[b]\n"
                     "add %[a], %[a], %[b]\n" "add %[a], %[a], %[b]\n" "add %[a], %[a], %[b]\n"
                     "addi %[n], %[n], -1\n"
                     "bnez %[n], 1b\n"
                     ".option pop\n"
                     : [pc] "=&r"(pc), [a] "+r"(a), [n] "+r"(iters) : [b] "r"(b));
    out[threadIdx_x() + 1] = a;
    if (threadIdx_x() == 0) out[0] = pc + 4;
}

/* A mix of everything for determinism and functional/timing agreement:
 * shared tiles, barriers, divergence, float math, atomics. */
WS_SHARED float tile[256];
WS_KERNEL void mixed(float *data, unsigned *hist, int n)
{
    unsigned t = threadIdx_x(), g = ws_global_id_x();
    float v = g < (unsigned)n ? data[g] : 0.0f;
    tile[t] = v * 0.5f + 1.0f;
    ws_syncthreads();
    float s = 0;
    for (unsigned i = 0; i < blockDim_x(); i += 1 + t % 4) s += tile[(t + i) % blockDim_x()] / (1.0f + (float)i);
    if (t & 1) s = sqrtf(s + 1.0f);
    atomicAdd(&hist[(unsigned)s % 16], 1u);
    ws_threadfence();
    if (g < (unsigned)n) data[g] = s;
}

/* Warp 0 waits at barrier 1, the others at barrier 2: neither completes. */
WS_KERNEL void deadlock(int *out)
{
    if (ws_warp_in_block() == 0) ws_barrier(1);
    else ws_barrier(2);
    out[threadIdx_x()] = 1;
}
