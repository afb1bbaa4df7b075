/* Hazards of shapes the first racecheck kernels lack, and near misses
 * that must stay quiet (check_atomics_race.sh, trace.atomics_race). Run
 * with 64-thread blocks: two 32-lane warps. Lines marked RACE: are the
 * ones the report must name. */
#include <warpscope/kernel.h>

WS_SHARED int sdata[64];
WS_SHARED long long wide[32];
WS_SHARED int ping[2][64];

/* A tree reduction whose steps below 64 lanes skip the barrier, as
 * warp-synchronous code does: from s = 16 on, each step reads words the
 * step before wrote, within warp 0 (31 words a block). */
WS_KERNEL void reduce_tail(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x();
    sdata[t] = (int)t;
    ws_syncthreads();
    for (unsigned s = n / 2; s > 0; s >>= 1) {
        if (t < s) sdata[t] += sdata[t + s];        /* RACE:tail */
        if (s > 32) ws_syncthreads();
    }
    if (t == 0) out[blockIdx_x()] = sdata[0];
}

/* Near miss: two threads write the two 4-byte halves of each 8-byte word
 * (different bytes), then read whole words after a barrier. */
WS_KERNEL void halves(long long *out)
{
    unsigned t = threadIdx_x();
    ((int *)wide)[t] = (int)t;
    ws_syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = wide[t / 2];
}

/* Two threads store each 8-byte word (write-write within a warp), and
 * another thread reads a 4-byte half of it (read-write between warps for
 * the threads that read across the warp boundary). */
WS_KERNEL void wide_narrow(int *out)
{
    unsigned t = threadIdx_x();
    wide[t / 2] = (long long)t << 32 | t;                                   /* RACE:wide_store */
    out[blockIdx_x() * blockDim_x() + t] = ((int *)wide)[(t + 3) % blockDim_x()]; /* RACE:narrow_load */
}

/* Near miss: double buffering, one barrier a round. */
WS_KERNEL void pingpong(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x();
    ping[0][t] = (int)t;
    ws_syncthreads();
    for (int r = 0; r < 4; r++) {
        int *src = ping[r & 1], *dst = ping[(r + 1) & 1];
        dst[t] = src[t] + src[(t + 1) % n];
        ws_syncthreads();
    }
    out[blockIdx_x() * n + t] = ping[0][t];
}

/* A 64-bit atomic in shared memory (the library's __atomic_fetch_add_8,
 * no line information) and a plain read of its high half by the other
 * threads with no barrier between: read-write. */
WS_KERNEL void wide_peek(int *out)
{
    unsigned t = threadIdx_x();
    if (t == 0) wide[0] = 0;
    ws_syncthreads();
    atomicAdd((unsigned long long *)&wide[0], 0x100000001ull);
    out[blockIdx_x() * blockDim_x() + t] = ((volatile int *)wide)[1];     /* RACE:peek */
}

/* Near miss: 64-bit atomics and 32-bit atomics on the high half of the
 * same word are all atomics; read after a barrier. */
WS_KERNEL void wide_atomics(int *out)
{
    unsigned t = threadIdx_x();
    if (t == 0) wide[1] = 0;
    ws_syncthreads();
    if (t & 1) atomicAdd((unsigned long long *)&wide[1], 1ull);
    else atomicAdd((int *)&wide[1] + 1, 1);
    ws_syncthreads();
    out[blockIdx_x() * blockDim_x() + t] = (int)(wide[1] >> 32);
}
