#include <warpscope/kernel.h>

/* Each thread adds one to its element: running the launch twice shows. */
WS_KERNEL void bump(int *v, int n)
{
    int i = (int)ws_global_id_x();
    if (i < n) v[i] += 1;
}
