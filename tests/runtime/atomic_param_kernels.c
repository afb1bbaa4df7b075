/* An _Atomic pointer and an _Atomic int by value (test_pointer_params.c). */
#include <warpscope/kernel.h>

WS_KERNEL void atomic_ptr(int * _Atomic p, _Atomic int n) { p[threadIdx_x()] = n; }
