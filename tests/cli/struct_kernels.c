/* Kernels whose pointer parameters point to elements that are no integer
 * or float scalar: warpscope run sizes their zeros:N buffers by the
 * element (check_struct_buffers.sh). */
#include <warpscope/kernel.h>

typedef struct { float x, y; } float2_t;
struct particle { float pos[3]; int id; char tag; };

WS_KERNEL void fill_f2(float2_t *o, int n)
{
    unsigned t = threadIdx_x();
    if (t < (unsigned)n) { o[t].x = (float)t; o[t].y = -0.5f * (float)t; }
}

WS_KERNEL void fill_particles(struct particle *p, int n)
{
    unsigned t = threadIdx_x();
    if (t < (unsigned)n) { p[t].pos[2] = 1.5f; p[t].id = (int)t; p[t].tag = (char)('a' + t); }
}

WS_KERNEL void fill_ld(long double *o, int n)
{
    unsigned t = threadIdx_x();
    if (t < (unsigned)n) o[t] = (long double)t;
}

WS_KERNEL void fill_half_bits(_Float16 *o, int n)
{
    unsigned t = threadIdx_x();
    unsigned short b = (unsigned short)(0x3c00 + t);
    if (t < (unsigned)n) __builtin_memcpy(&o[t], &b, 2);
}

WS_KERNEL void fill_cf(_Complex float *o, int n)
{
    unsigned t = threadIdx_x();
    if (t < (unsigned)n) { __real__ o[t] = (float)t; __imag__ o[t] = 0.25f; }
}

WS_KERNEL void touch_void(void *p) { ((int *)p)[threadIdx_x()] = 5; }
