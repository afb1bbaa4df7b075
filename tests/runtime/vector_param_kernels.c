/* Kernels that take a GCC/clang vector by value: DWARF describes the
 * parameter as an array type (DW_AT_GNU_vector), which a C parameter
 * never is otherwise. The module must be refused at load, as a struct by
 * value is, not taken for a pointer (test_vector_param.c). */
#include <warpscope/kernel.h>

typedef int v4i __attribute__((vector_size(16)));

WS_KERNEL void take_v4(v4i x, int *out) { out[threadIdx_x()] = x[1]; }
