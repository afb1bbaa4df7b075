/* Kernels for the parallel-simulation tests (docs/parallel.md). */
#include <warpscope/kernel.h>

#define CORE_ID() ((int)WS__CSR(0xCC2))

/* Blocks of very different lengths: which core runs which block depends
 * on when slots free up, so this pins the work distributor's decisions. */
WS_KERNEL void uneven(int *where, int *sum, int *out)
{
    unsigned b = blockIdx_x(), t = threadIdx_x();
    int s = 0;
    for (unsigned i = 0; i < (b * 37u % 11u) * 40u + t % 3u; i++) s += (int)(i ^ b);
    out[b * blockDim_x() + t] = s;
    if (t == 0) where[b] = CORE_ID();
    if (t == 0) atomicAdd(sum, s); /* order-independent */
}

/* printf from every block, in block order within a core. */
WS_KERNEL void chatty(int *out)
{
    unsigned b = blockIdx_x(), t = threadIdx_x();
    int s = 0;
    for (unsigned i = 0; i < b % 5u * 50u; i++) s += (int)i;
    if (t % 16 == 0) printf("block %u thread %u sum %d\n", b, t, s);
    out[b * blockDim_x() + t] = s;
}

/* Block `bad` reads outside every allocation after some work. */
WS_KERNEL void faults_late(int *out, int bad)
{
    unsigned b = blockIdx_x(), t = threadIdx_x();
    int s = 0;
    for (unsigned i = 0; i < 200u + b % 3u * 30u; i++) s += (int)i;
    if ((int)b == bad && t == 5) s += *(volatile int *)(uintptr_t)0x10;
    out[b * blockDim_x() + t] = s;
}

/* Block `bad`'s first warp waits at another barrier: a deadlock. */
WS_KERNEL void stuck(int *out, int bad)
{
    unsigned b = blockIdx_x(), t = threadIdx_x();
    out[b * blockDim_x() + t] = (int)t;
    if ((int)b == bad && t < 32) ws_barrier(1);
    else ws_syncthreads();
}

/* Racing tickets: every thread takes a ticket from one counter. Which
 * thread gets which ticket depends on the order of the blocks. */
WS_KERNEL void tickets(unsigned *counter, unsigned *owner)
{
    unsigned g = ws_global_id_x();
    unsigned ticket = atomicAdd(counter, 1u);
    owner[ticket] = g;
}

/* Compare-and-swap and min/max from every block on shared words. */
WS_KERNEL void minmax(int *lo, int *hi, unsigned *cas_count)
{
    int v = (int)((ws_global_id_x() * 2654435761u) >> 8);
    atomicMin(lo, v);
    atomicMax(hi, v);
    unsigned old = *(volatile unsigned *)cas_count;
    while (atomicCAS(cas_count, old, old + 1) != old) old = *(volatile unsigned *)cas_count;
}

/* Blocks of a few instructions: cores wait for each other every round,
 * and the launch goes back to one thread part way (docs/parallel.md). */
WS_KERNEL void tiny(int *out)
{
    unsigned b = blockIdx_x(), t = threadIdx_x();
    out[b * blockDim_x() + t] = (int)(b * t + (unsigned)CORE_ID());
    if (t == 0 && b % 16 == 0) printf("tiny block %u on core %d\n", b, CORE_ID());
}

/* Blocks of tens of thousands of cycles (a chain of global loads): in
 * timing mode on the default threads the launch starts on one thread and
 * hands over to several part way (docs/parallel.md), with printf before
 * and after. Block `bad` faults at its end (-1: none). */
static int long_loop(volatile int *p, unsigned b)
{
    int s = 0;
    for (unsigned i = 0; i < 60u + b % 4u * 10u; i++) s += *p + (int)i;
    return s;
}

WS_KERNEL void long_blocks(int *out, int bad)
{
    unsigned b = blockIdx_x(), t = threadIdx_x();
    volatile int *p = out + b * blockDim_x() + t;
    if (t == 0 && b % 8 == 0) printf("long block %u starts on core %d\n", b, CORE_ID());
    int s = long_loop(p, b);
    if ((int)b == bad && t == 5) s += *(volatile int *)(uintptr_t)0x10;
    *p = s;
    if (t == 0 && b % 8 == 0) printf("long block %u ends with %d\n", b, s);
}

/* The same blocks; block `bad`'s first warp then waits at another barrier
 * than its second: a deadlock after the hand-over. */
WS_KERNEL void long_stuck(int *out, int bad)
{
    unsigned b = blockIdx_x(), t = threadIdx_x();
    volatile int *p = out + b * blockDim_x() + t;
    *p = long_loop(p, b);
    if ((int)b == bad && t < 32) ws_barrier(1);
    else ws_syncthreads();
}

/* Blocks of a few loads and no printf: one finishes every few hundred
 * cycles, so a timing-mode launch on the default threads stays on one. */
WS_KERNEL void short_blocks(int *out)
{
    volatile int *p = out + ws_global_id_x();
    int s = 0;
    for (int i = 0; i < 12; i++) s += *p + i;
    *p = s;
}

/* Spins until *flag is set, which nothing does: only the watchdog ends it. */
WS_KERNEL void spins(int *flag)
{
    while (*(volatile int *)flag == 0) { }
}

/* Prints, then waits for ever for a flag nothing sets (a hang being
 * debugged with printf): its lines must show before the watchdog. */
WS_KERNEL void prints_then_hangs(int *flag)
{
    if (threadIdx_x() == 0) printf("block %u reached the wait\n", blockIdx_x());
    while (*(volatile int *)flag == 0) { }
}

/* Two long blocks that print all along (block b on core b): while the
 * printf handler runs on the calling thread for a line of core 1, core 1
 * must go on, printing more (parallel.same_results, a slow handler). */
WS_KERNEL void prints_all_along(int *out)
{
    unsigned b = blockIdx_x(), t = threadIdx_x();
    int s = 0;
    for (int line = 0; line < 400; line++) {
        for (unsigned i = 0; i < 100u; i++) s = s * 1103515245 + (int)(i ^ b); /* (not folded away) */
        if (t == 0) printf("block %u line %d core %d\n", b, line, CORE_ID());
    }
    out[b * blockDim_x() + t] = s;
}
