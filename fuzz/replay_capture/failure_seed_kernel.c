/* Kernel of the failure seeds (make_failure_seeds.sh): one store per
 * thread, no library calls, so the module stays a few kilobytes. Given a
 * null pointer it faults. */
#include <warpscope/kernel.h>

WS_KERNEL void seed_fill(int *out, int v) { out[threadIdx_x()] = v + (int)threadIdx_x(); }
