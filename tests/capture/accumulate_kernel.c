/* Kernels of the accumulate program: each frame adds to what the earlier
 * frames left, so a replay that did not restore the start would drift. */
#include <warpscope/kernel.h>
#include <warpscope/shader.h>

WS_KERNEL void accumulate(unsigned *acc, unsigned frame, int n)
{
    int i = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    if (i < n) acc[i] = acc[i] * 3u + (unsigned)i + frame;
}

typedef struct { float pos[2]; } VIn;
typedef struct { ws_vec4 position; } VOut;

WS_VERTEX void acc_vs(const VIn *in, VOut *out)
{
    out->position = ws_vec4_make(in->pos[0], in->pos[1], 0.5f, 1.0f);
}

/* A dim constant colour, added on top of the last frame's image. */
WS_FRAGMENT ws_vec4 acc_fs(const VOut *in)
{
    (void)in;
    return ws_vec4_make(0.1f, 0.05f, 0.02f, 1.0f);
}
