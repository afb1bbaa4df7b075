/* Kernels for the runtime API tests (test_api_handles.c). */
#include <warpscope/kernel.h>

WS_KERNEL void fill(int *out, int n)
{
    int i = (int)threadIdx_x();
    if (i < n) out[i] = i;
}
