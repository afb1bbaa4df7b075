/* Pointers held in writable module data: a table of function pointers
 * (.data, since the kernel may rewrite it) and the address of a global.
 * The tracer's passes run a twin of the module whose code and data sit
 * elsewhere; these words must point into the twin there, or the calls run
 * the original's uninstrumented code (missing from the trace) and the
 * stores through the pointer land in the original's data. */
#include <warpscope/kernel.h>

__attribute__((noinline)) static int add3(int a) { return a + 3; }
__attribute__((noinline)) static int twice(int a) { return a * 2; }
int (*table[2])(int) = { add3, twice };
int hits;
int *hits_ptr = &hits;

WS_KERNEL void via_pointers(int *out, int swap)
{
    unsigned i = ws_global_id_x();
    if (swap && i == 0) {
        int (*f)(int) = table[0];
        table[0] = table[1];
        table[1] = f;
    }
    __syncthreads();
    out[i] = table[i & 1]((int)i);
    atomicAdd(hits_ptr, 1);
    __syncthreads();
    if (threadIdx_x() == 0) out[blockDim_x() * gridDim_x() + blockIdx_x()] = hits;
}
