/* Kernels whose parameters point to arrays and vectors
 * (test_pointer_params.c). */
#include <warpscope/kernel.h>

typedef float float4 __attribute__((ext_vector_type(4)));
typedef short short2 __attribute__((vector_size(4)));

/* each thread scales its row of 4 */
WS_KERNEL void scale_rows(float (*rows)[4], float s)
{
    unsigned t = threadIdx_x();
    for (int j = 0; j < 4; j++) rows[t][j] *= s;
}
WS_KERNEL void cube(int (*c)[3][4], int n) { c[threadIdx_x()][2][3] = n; }
WS_KERNEL void bytes(unsigned char (*r)[4]) { r[threadIdx_x()][0] += 200; }
WS_KERNEL void scale_vec(float4 *v, float s) { v[threadIdx_x()] *= s; }
WS_KERNEL void halves(short2 *v) { v[threadIdx_x()][1] = -1; }
WS_KERNEL void row_ptrs(float *(*p)[2], float x) { *p[threadIdx_x()][0] = x; }
WS_KERNEL void fn_ptrs(int (**f)(int), int *out) { out[threadIdx_x()] = f != 0; }
WS_KERNEL void const_rows(const float (*rows)[4], float * const * restrict out) { out[0][0] = rows[0][0]; }
