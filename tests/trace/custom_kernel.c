#include <warpscope/kernel.h>

/* Each thread doubles its element: one load and one store per thread. */
WS_KERNEL void twice(float *v, int n)
{
    int i = (int)ws_global_id_x();
    if (i < n) v[i] = v[i] * 2.0f;
}
