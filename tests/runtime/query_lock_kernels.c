/* A kernel for test_query_lock.c: one printf, so the test's printf handler
 * runs while the synchronising call holds the API lock. */
#include <warpscope/kernel.h>

WS_KERNEL void say(int n) { printf("n=%d\n", n); }
