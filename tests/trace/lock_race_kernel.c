/* Locks and flags within a block for `warpscope trace --tool racecheck`
 * (check_lock_race.sh, trace.racecheck_locks). Run with 64-thread blocks
 * (two 32-lane warps) and with 32-thread ones (one warp: a lock taken by
 * one lane while the others of its warp spin). The first kernels order
 * their accesses through a lock or a flag and must report nothing; the
 * others misuse them and must report the lines marked RACE:. Each writes
 * out[] so `warpscope run` has a buffer to fill. */
#include <warpscope/kernel.h>

WS_SHARED int slock, scount, sflag, sdata;

/* The planted spin lock (examples/planted): atomicCAS_i takes a global
 * lock, atomicExch_i gives it back, a plain read-modify-write between. */
WS_KERNEL void global_lock(int *out)
{
    while (atomicCAS_i(&out[0], 0, 1) != 0) {
    }
    *(volatile int *)&out[1] += 1;
    atomicExch_i(&out[0], 0);
}

/* The same lock in shared memory, its count read after a barrier. */
WS_KERNEL void shared_lock(int *out)
{
    while (atomicCAS_i(&slock, 0, 1) != 0) {
    }
    *(volatile int *)&scount += 1;
    atomicExch_i(&slock, 0);
    ws_syncthreads();
    if (threadIdx_x() == 0) out[blockIdx_x()] = scount;
}

/* C11 acquire and release: an acquiring exchange takes the lock, a
 * releasing store (fence, plain store) gives it back. */
WS_KERNEL void c11_lock(int *out)
{
    while (__atomic_exchange_n(&slock, 1, __ATOMIC_ACQUIRE)) {
    }
    scount += 2;
    __atomic_store_n(&slock, 0, __ATOMIC_RELEASE);
    ws_syncthreads();
    if (threadIdx_x() == 0) out[blockIdx_x()] = scount;
}

/* Message passing between two warps: thread 0 writes the data, a fence,
 * then the flag; thread 32 waits for the flag with an acquiring load and
 * reads the data. */
WS_KERNEL void publish(int *out)
{
    unsigned t = threadIdx_x();
    if (t == 0) {
        sdata = 42;
        ws_threadfence();
        *(volatile int *)&sflag = 1;
    } else if (t == blockDim_x() - 1) {
        while (__atomic_load_n(&sflag, __ATOMIC_ACQUIRE) == 0) {
        }
        out[blockIdx_x()] = sdata;
    }
}

/* Misuse 1: the lock guards one counter, the other is updated outside it. */
WS_KERNEL void unlocked_count(int *out)
{
    while (atomicCAS_i(&slock, 0, 1) != 0) {
    }
    scount += 1;
    atomicExch_i(&slock, 0);
    *(volatile int *)&sdata += 1;                          /* RACE:unlocked */
    ws_syncthreads();
    if (threadIdx_x() == 0) out[blockIdx_x()] = scount + sdata;
}

/* Misuse 2: the lock is given back before the update. */
WS_KERNEL void released_early(int *out)
{
    while (atomicCAS_i(&out[0], 0, 1) != 0) {
    }
    atomicExch_i(&out[0], 0);
    *(volatile int *)&out[1] += 1;                         /* RACE:early */
}

/* Misuse 3: the data is published without a fence (the flag is a plain
 * store), though the reader acquires the flag. */
WS_KERNEL void publish_no_fence(int *out)
{
    unsigned t = threadIdx_x();
    if (t == 0) {
        sdata = 42;                                        /* RACE:nofence_store */
        *(volatile int *)&sflag = 1;                       /* RACE:nofence_flag */
    } else if (t == blockDim_x() - 1) {
        while (__atomic_load_n(&sflag, __ATOMIC_ACQUIRE) == 0) {
        }
        out[blockIdx_x()] = sdata;                         /* RACE:nofence_load */
    }
}

/* Misuse 4: two locks for one counter, even threads take one, odd ones
 * the other. */
WS_KERNEL void two_locks(int *out)
{
    int *lock = &out[threadIdx_x() & 1];
    while (atomicCAS_i(lock, 0, 1) != 0) {
    }
    *(volatile int *)&out[2] += 1;                         /* RACE:two_locks */
    atomicExch_i(lock, 0);
}

/* Misuse 5: even threads update inside the lock, odd ones after giving it
 * back: an odd thread's update may meet an even thread's section. */
WS_KERNEL void half_locked(int *out)
{
    unsigned t = threadIdx_x();
    while (atomicCAS_i(&slock, 0, 1) != 0) {
    }
    if (t & 1) atomicExch_i(&slock, 0);
    *(volatile int *)&scount += 1;                         /* RACE:half */
    if (!(t & 1)) atomicExch_i(&slock, 0);
    ws_syncthreads();
    if (t == 0) out[blockIdx_x()] = scount;
}

/* Between blocks. A lock for the whole block: thread 0 takes it, a
 * barrier, every thread updates its word, a barrier, thread 0 gives it
 * back; the blocks' updates are ordered by it. */
WS_KERNEL void block_lock(int *out)
{
    unsigned t = threadIdx_x();
    if (t == 0)
        while (atomicCAS_i(&out[0], 0, 1) != 0) {
        }
    ws_syncthreads();
    out[1 + t] += 1;
    ws_syncthreads();
    if (t == 0) atomicExch_i(&out[0], 0);
}

/* Misuse between blocks: each block reads the words the next one writes,
 * with nothing ordering them; every thread also takes a ticket from a
 * counter, before and after, which orders nothing. */
WS_KERNEL void halo_ticket(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x() / 2, b = blockIdx_x();
    atomicAdd_i(&out[0], 1);
    if (t < n) {
        out[1 + b * n + t] = (int)t;                       /* RACE:ticket_store */
        out[1 + b * n + t] += out[1 + ((b + 1) % gridDim_x()) * n + t]; /* RACE:ticket_load */
    }
    atomicAdd_i(&out[0], 1);
}

/* Misuse between blocks: a plain read of a counter the other blocks add
 * to atomically. */
WS_KERNEL void peek_counter(int *out)
{
    if (threadIdx_x() == 0) {
        atomicAdd_i(&out[0], 1);
        out[1 + blockIdx_x()] = out[0];                    /* RACE:peek */
    }
}

/* Misuse within a block: an atomic addition before and after a plain
 * update is a ticket, not a lock. */
WS_KERNEL void shared_ticket(int *out)
{
    atomicAdd_i(&slock, 1);
    *(volatile int *)&scount += 1;                         /* RACE:shared_ticket */
    atomicAdd_i(&slock, 1);
    ws_syncthreads();
    if (threadIdx_x() == 0) out[blockIdx_x()] = scount;
}

/* A float maximum through a compare-and-swap loop (the CUDA programming
 * guide's pattern): the first read is a relaxed atomic load, which is a
 * plain lw, and the loop checks it; no hazard. A plain store of the word
 * by thread 0 of block 1 is one, with the read and with the swap. */
WS_SHARED float smax;
WS_KERNEL void cas_max(float *out)
{
    unsigned t = threadIdx_x();
    if (t == 0) smax = 0;
    ws_syncthreads();
    float v = (float)((t * 37) % 101);
    int *p = (int *)&smax;
    int old = __atomic_load_n(p, __ATOMIC_RELAXED);        /* RACE:relaxed */
    while (__builtin_bit_cast(float, old) < v) {
        int assumed = old;
        old = atomicCAS_i(p, assumed, __builtin_bit_cast(int, v));
        if (old == assumed) break;
    }
    if (t == 0 && blockIdx_x() == 1) smax = 0;             /* RACE:cas_store */
    ws_syncthreads();
    if (t == 0) out[blockIdx_x()] = smax;
}

/* A test-and-test-and-set lock: spin on a relaxed load of the lock word,
 * then try the compare-and-swap; no hazard. */
WS_KERNEL void ttas_lock(int *out)
{
    for (;;) {
        while (__atomic_load_n(&slock, __ATOMIC_RELAXED) != 0) {
        }
        if (atomicCAS_i(&slock, 0, 1) == 0) break;
    }
    scount += 1;
    atomicExch_i(&slock, 0);
    ws_syncthreads();
    if (threadIdx_x() == 0) out[blockIdx_x()] = scount;
}
