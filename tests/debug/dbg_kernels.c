/* Kernels the debug-hardware tests stop, step and inspect. */
#include <warpscope/kernel.h>

WS_SHARED int tile[128];

/* Breakpoints and triggers go at this function's first instruction. */
__attribute__((noinline, used)) int bp_target(int x) { return x * 3 + 1; }

WS_KERNEL void with_bar(int *out);

/* Where things are, for the tool: o[0] = bp_target, o[1] = with_bar. */
WS_KERNEL void addrs(unsigned *o)
{
    o[0] = (unsigned)(uintptr_t)&bp_target;
    o[1] = (unsigned)(uintptr_t)&with_bar;
}

WS_KERNEL void compute(int *out)
{
    unsigned i = ws_global_id_x();
    out[i] = bp_target((int)i);
}

/* Spins until the tool sets flag[0] (through system bus access). */
WS_KERNEL void spin(volatile int *flag, int *out)
{
    unsigned i = ws_global_id_x();
    while (!flag[0]) {
    }
    out[i] = (int)i + 100;
}

WS_KERNEL void with_bar(int *out)
{
    unsigned t = threadIdx_x(), n = blockDim_x();
    tile[t] = (int)t * 7;
    ws_syncthreads();
    out[blockIdx_x() * n + t] = tile[(t + 1) % n] + bp_target(0);
}

WS_KERNEL void loads(const int *in, int *out)
{
    unsigned i = ws_global_id_x();
    out[i] = in[i] + 1;
}

WS_KERNEL void faulty(int *buf)
{
    if (blockIdx_x() == 1 && threadIdx_x() == 5) buf[100000] = 1;
    else buf[ws_global_id_x()] = 2;
}

/* ebreak in thread 0: a fault without a debugger, a halt with one. */
WS_KERNEL void brk(int *out)
{
    if (threadIdx_x() == 0) __asm__ volatile("ebreak");
    out[threadIdx_x()] = 1;
}

/* Stores s11 and ft9 of each thread as it starts, out[2t], out[2t + 1]:
 * no kernel here writes them, so they are non-zero only if a debugger's
 * write to an earlier warp in the slot survived (a naked body: nothing
 * runs before the stores but the wrapper's tail call, through t1). */
static __attribute__((naked, noinline, used)) void start_regs_body(int *out)
{
    __asm__ volatile(
        "csrr t0, 0xCC4\n"
        "slli t0, t0, 3\n"
        "add t0, a0, t0\n"
        "sw s11, 0(t0)\n"
        "fsw ft9, 4(t0)\n"
        "ret\n");
}
WS_KERNEL void start_regs(int *out) { start_regs_body(out); }

/* Every lane of the warp takes a lock; the lanes that lost retry at a
 * lower pc than the holder, which only the starvation guard lets on
 * (simt.c). The holder calls bp_target while it holds the lock:
 * out[t] = 3 * (its place in the order) + 1; out[32] counts the takes. */
WS_KERNEL void lock_turns(int *lock, volatile int *out)
{
    unsigned t = threadIdx_x();
    while (atomicCAS_i(lock, 0, 1) != 0) continue;
    out[t] = bp_target(out[32]++);
    atomicExch_i(lock, 0);
}
