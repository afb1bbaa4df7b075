/* A struct holding a vector, by value: refused at load as any struct
 * (test_pointer_params.c). */
#include <warpscope/kernel.h>

typedef float float4 __attribute__((ext_vector_type(4)));
struct boxed { float4 v; };

WS_KERNEL void take_boxed(struct boxed b, float *out) { out[threadIdx_x()] = b.v.z; }
