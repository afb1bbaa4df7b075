/* One kernel name in two modules built from this one file (the second
 * with -DHEAVY=1): `warpscope profile --baseline` must keep them apart,
 * lines included (check_twomod.sh). */
#include <warpscope/kernel.h>

WS_KERNEL void scale(const float *in, float *out)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    float v = in[i];
#if HEAVY
    for (int r = 0; r < 20; r++) v = v * 1.5f + in[(i + (unsigned)r) & 255];
#endif
    out[i] = v;
}
