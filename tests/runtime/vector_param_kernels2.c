/* A vector parameter without a typedef name (test_vector_param.c). */
#include <warpscope/kernel.h>

WS_KERNEL void take_v2(short __attribute__((vector_size(4))) x, int *out) { out[threadIdx_x()] = x[1]; }
