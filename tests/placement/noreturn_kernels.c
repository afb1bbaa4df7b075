/* A kernel with an assert, then a kernel with a large shared array
 * (test_noreturn_shared.c). clang puts the call to ws_assert_fail() last
 * in `checked`, and nothing after it (the call does not return): the next
 * bytes are `big`'s code. */
#include <warpscope/kernel.h>

WS_SHARED int small_buf[64];  /* 256 B */
WS_SHARED int big_buf[8192];  /* 32 KiB */

WS_KERNEL void checked(int *out, int n)
{
    assert(n > 0);
    unsigned t = threadIdx_x();
    small_buf[t & 63] = n + (int)t;
    ws_syncthreads();
    out[t] = small_buf[(t + 1) & 63];
}

WS_KERNEL void big(int *out)
{
    unsigned t = threadIdx_x();
    big_buf[t] = (int)t;
    ws_syncthreads();
    out[t] = big_buf[(t + 1) % 8192];
}
