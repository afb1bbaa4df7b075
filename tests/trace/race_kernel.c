/* Shared-memory hazards for `warpscope trace --tool racecheck`
 * (tests/trace/CMakeLists.txt, trace.racecheck): each kernel writes
 * out[global id] so `warpscope run` has a buffer to fill. Lines marked
 * RACE: are the ones the report must name. */
#include <warpscope/kernel.h>

WS_SHARED int buf[256];
WS_SHARED unsigned char bytes[256];

/* A missing barrier: thread t reads the word thread t + 1 writes. */
WS_KERNEL void racy(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x();
    buf[t] = (int)t;                                       /* RACE:racy_store */
    out[blockIdx_x() * n + t] = buf[(t + 1) % n];          /* RACE:racy_load */
}

/* The same with its barriers: no hazard, also not for the write after the
 * second barrier. */
WS_KERNEL void synced(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x();
    buf[t] = (int)t;
    ws_syncthreads();
    out[blockIdx_x() * n + t] = buf[(t + 1) % n];
    ws_syncthreads();
    buf[t] = 0;
}

/* Every thread stores to one word: write-write. */
WS_KERNEL void same_word(int *out)
{
    unsigned t = threadIdx_x();
    buf[0] = (int)t;                                       /* RACE:same_store */
    ws_syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = buf[0];
}

/* Atomics on one word, then a read after a barrier: no hazard; neighbouring
 * bytes written by different threads: none either. */
WS_KERNEL void atomics_bytes(int *out)
{
    unsigned t = threadIdx_x();
    __atomic_fetch_add(&buf[0], 1, __ATOMIC_RELAXED);
    bytes[t] = (unsigned char)t;
    ws_syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = buf[0] + bytes[(t + 1) % blockDim_x()];
}

/* 80 barriers in one basic block (a fully unrolled loop): each round
 * writes then reads a neighbour's word between two barriers; no hazard
 * (the tool once kept 64 barriers per block, and counted epochs wrong
 * past them). */
WS_KERNEL void many_barriers(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x();
    int acc = 0;
#pragma clang loop unroll(full)
    for (int i = 0; i < 40; i++) {
        buf[t] = (int)t + i;
        ws_syncthreads();
        acc += buf[(t + 1) % n];
        ws_syncthreads();
    }
    out[blockIdx_x() * n + t] = acc;
}

/* Global memory within a block: every thread adds into its block's word
 * with a plain load and store (read-write and write-write); the atomic
 * version beside it is fine. */
WS_KERNEL void global_sum(int *out)
{
    unsigned t = threadIdx_x();
    out[blockIdx_x()] += (int)t;                           /* RACE:global_sum */
    __atomic_fetch_add(&out[64 + blockIdx_x()], (int)t, __ATOMIC_RELAXED);
}

/* Between blocks: each block reads the words the next block writes, with
 * nothing ordering the two (read-write between blocks). */
WS_KERNEL void halo(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x(), b = blockIdx_x();
    out[b * n + t] = (int)t;                               /* RACE:halo_store */
    int next = out[((b + 1) % gridDim_x()) * n + t];       /* RACE:halo_load */
    out[b * n + t] += next;
}

/* Every block's thread 0 adds into one word with a plain load and store:
 * write-write and read-write between blocks. */
WS_KERNEL void blocks_sum(int *out)
{
    if (threadIdx_x() == 0) out[0] += (int)blockIdx_x() + 1; /* RACE:blocks_sum */
}

/* The last-block reduction: partial sums stored, a fence, a counter
 * incremented; the block that sees the last count reads them all after a
 * barrier. Ordered by the handshake: no hazard. */
WS_SHARED int am_last;
WS_KERNEL void last_block(int *out)
{
    unsigned t = threadIdx_x(), b = blockIdx_x(), nb = gridDim_x();
    if (t == 0) {
        out[b] = (int)b + 1;
        ws_threadfence();
        am_last = __atomic_fetch_add(&out[100], 1, __ATOMIC_RELAXED) == (int)nb - 1;
    }
    ws_syncthreads();
    if (am_last && t < nb) out[110 + t] = out[t];
}

/* A global lock taken and given back with atomics around a plain
 * read-modify-write: no hazard. */
WS_KERNEL void locked(int *out)
{
    if (threadIdx_x() == 0) {
        while (__atomic_exchange_n(&out[120], 1, __ATOMIC_ACQUIRE)) {}
        out[121] += 1;
        ws_threadfence();
        __atomic_store_n(&out[120], 0, __ATOMIC_RELEASE);
    }
}

/* A warp-synchronous tail, its loop unrolled: every copy of the line is
 * its own load and store instruction, and the report names the pair of
 * lines once (it listed it once per pair of copies). */
WS_KERNEL void unrolled(int *out)
{
    unsigned t = threadIdx_x();
    buf[t] = (int)t;
    ws_syncthreads();
#pragma clang loop unroll(full)
    for (unsigned s = 16; s > 0; s >>= 1) if (t < s) buf[t] += buf[t + s]; /* RACE:unrolled */
    ws_syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = buf[0];
}
