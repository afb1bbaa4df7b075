/* clang's ext_vector_type by value: refused at load like vector_size
 * (test_pointer_params.c). */
#include <warpscope/kernel.h>

typedef float float4 __attribute__((ext_vector_type(4)));

WS_KERNEL void take_f4(float4 v, float *out) { out[threadIdx_x()] = v.y; }
