/* The helper of shared_a.c's kernel, reading the array it fills. */
#include <warpscope/kernel.h>
extern WS_SHARED_GLOBAL int buf[64];
int helper(int t) { return buf[63 - t] * 10; }
