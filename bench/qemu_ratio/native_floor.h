/* The benchmark's work as host code: how fast this machine does it
 * natively, the floor under any simulator's time for it. */
#ifndef WS_BENCH_NATIVE_FLOOR_H
#define WS_BENCH_NATIVE_FLOOR_H

typedef struct native_times {
    double thread_order_ms; /* each thread's loop in turn, as the scalar program runs it */
    double warp_order_ms;   /* 32 threads' loops interleaved, in the order a warp's lanes touch memory */
} native_times;

/* Best of `reps` runs of workload `work` (1 matmul, 2 vecadd, 3 reduction,
 * as in work.h) on one host thread. Returns 0, or -1 if memory ran out. */
int native_floor(int work, int reps, native_times *out);
#endif
