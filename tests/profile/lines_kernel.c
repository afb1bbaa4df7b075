#include <warpscope/kernel.h>

static inline __attribute__((always_inline)) float square(float v)
{
    return v * v; /* LINE_SQUARE */
}

WS_KERNEL void lines(float *out, const float *in, int n)
{
    int i = (int)ws_global_id_x();
    if (i >= n) return;
    float acc = 0.0f;
    for (int k = 0; k < 8; k++)
        acc += square(in[(i + k) % n]); /* LINE_LOOP */
    out[i] = acc;
}
