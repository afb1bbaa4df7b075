/* A struct holding a vector, by value: 16 bytes, 16-byte aligned, passed
 * as the address of a copy (test_pointer_params.c; refused at load until
 * 2026-11-29, as every struct by value was). */
#include <warpscope/kernel.h>

typedef float float4 __attribute__((ext_vector_type(4)));
struct boxed { float4 v; };

WS_KERNEL void take_boxed(struct boxed b, float *out) { out[threadIdx_x()] = b.v.z; }
