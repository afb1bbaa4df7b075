#include <warpscope/kernel.h>

/* A second module whose kernel has the same name as one in hard_kernels.c,
 * and does something else: running it by mistake would be visible. */
WS_KERNEL void add1(int *p, int n)
{
    int i = (int)ws_global_id_x();
    if (i < n) p[i] = -100;
}
