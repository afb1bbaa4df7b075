/* The kernel the OpenOCD end-to-end test drives: every thread waits at a
 * gate until a debugger writes *go (or `limit` spins pass), then writes
 * its result. MARK: lines are for gdb. */
#include <warpscope/kernel.h>

/* A device function gdb calls through OpenOCD (jtag.openocd.gdb). */
__attribute__((noinline)) int triple(int x) { return x * 3; }

WS_KERNEL void gate(int *out, volatile int *go, int *spins, int limit)
{
    int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    int k = 0;
    while (!*go && k < limit) k++; /* MARK:wait */
    out[i] = triple(i) + 1; /* MARK:result */
    if (i == 0) *spins = k;
}

/* Threads from `first_spinner` on wait at the gate, the others go straight
 * to the barrier (jtag.runctl: a step of a warp held at a barrier). */
WS_KERNEL void bar_gate(volatile int *go, int limit, int first_spinner)
{
    int k = 0;
    if ((int)threadIdx_x() >= first_spinner)
        while (!*go && k < limit) k++;
    __syncthreads();
}

/* Odd and even threads wait at the gate in two loops of their own, so a
 * warp's lanes sit at two PCs (jtag.stepdiverged: a step of a hart runs
 * that hart's lane, whichever loop it is in). */
WS_KERNEL void split_gate(volatile int *go, int *out, int limit)
{
    int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    int k = 0;
    if (threadIdx_x() & 1) {
        while (!*go && k < limit) k++;
    } else {
        while (!*go && k < limit) k += 2;
    }
    out[i] = 1; /* past the gate */
}
