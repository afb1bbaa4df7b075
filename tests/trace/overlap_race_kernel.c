/* Shared-memory hazards by accesses of different sizes, for
 * `warpscope trace --tool racecheck` (trace.racecheck_overlap), with near
 * misses that must not be reported. Each kernel writes out[global id].
 * Lines marked RACE: are the ones the report must name. */
#include <warpscope/kernel.h>

WS_SHARED unsigned long long wide[128];
WS_SHARED int words[256];

/* Thread t stores the 8 bytes of wide[t]; thread t - 32 (another warp)
 * loads wide[t]'s high word: 4 bytes in common, no barrier. */
WS_KERNEL void overlap(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x();
    wide[t] = 0x100000001ull * t;                            /* RACE:overlap_store */
    const int *w = (const int *)wide;
    out[blockIdx_x() * n + t] = w[2 * ((t + 32) % n) + 1];    /* RACE:overlap_load */
}

/* Near miss: thread t stores wide[t]'s low word, thread t - 32 loads its
 * high word: next to each other, no byte in common. */
WS_KERNEL void adjacent(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x();
    int *w = (int *)wide;
    w[2 * t] = (int)t;
    out[blockIdx_x() * n + t] = w[2 * ((t + 32) % n) + 1];
}

/* A byte store into a word that another warp's thread loads whole. */
WS_KERNEL void byte_into_word(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x();
    words[t] = 0;
    ws_syncthreads();
    ((volatile unsigned char *)words)[4 * ((t + 32) % n) + 3] = 1; /* RACE:byte_store */
    out[blockIdx_x() * n + t] = words[t];                    /* RACE:word_load */
}

/* Near miss: the barrier is in a function the kernel calls. */
__attribute__((noinline)) static void barrier_in_helper(void) { ws_syncthreads(); }
WS_KERNEL void helper_sync(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x();
    words[t] = (int)t;
    barrier_in_helper();
    out[blockIdx_x() * n + t] = words[(t + 33) % n];
}

/* Every thread adds to one word atomically while thread 63 loads it plainly
 * in the same epoch: atomics order each other, not a plain load (the
 * compiler gives the load no line of its own). */
WS_KERNEL void atomic_plain(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x();
    if (t == 0) words[5] = 0;
    ws_syncthreads();
    __atomic_fetch_add(&words[5], 1, __ATOMIC_RELAXED);      /* RACE:atomic */
    out[blockIdx_x() * n + t] = t == 63 ? words[5] : 0;
}

/* Near miss: each block's thread 0 writes words[0] and all read it after a
 * barrier; blocks have shared memory of their own at the same addresses. */
WS_KERNEL void per_block(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x();
    if (t == 0) words[0] = (int)blockIdx_x();
    ws_syncthreads();
    out[blockIdx_x() * n + t] = words[0];
}

/* A member of a struct in an array (a static local): the report names
 * the place as C does, cells[32].sum. */
typedef struct cell {
    int count;
    float sum;
} cell;
WS_KERNEL void member(int *out)
{
    WS_SHARED cell cells[64];
    unsigned t = threadIdx_x(), n = blockDim_x();
    cells[t % 64].sum = (float)t;                                 /* RACE:member_store */
    out[blockIdx_x() * n + t] = (int)cells[(t + 32) % 64].sum;    /* RACE:member_load */
}
