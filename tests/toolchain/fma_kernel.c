#include <warpscope/kernel.h>

/* a*b+c: one fmadd.s under clang's default contraction, fmul.s + fadd.s
 * with -ffp-contract=off. */
WS_KERNEL void axpc(float *out, float a, float b, float c)
{
    out[threadIdx_x()] = a * b + c;
}
