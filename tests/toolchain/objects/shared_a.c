/* Two-file module built in pieces (tests/toolchain/check_objects.sh): the
 * kernel; the helper and the shared array's other half are in shared_b.c. */
#include <warpscope/kernel.h>
WS_SHARED_GLOBAL int buf[64];
int helper(int);
WS_KERNEL void ka(int *o) { unsigned t = threadIdx_x(); buf[t] = (int)t; __syncthreads(); o[t] = helper((int)t); }
