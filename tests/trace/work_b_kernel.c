/* The other module with a kernel called `work` (two_modules_app.c):
 * divergence inside a loop. */
#include <warpscope/kernel.h>

WS_KERNEL void work(int *a)
{
    unsigned i = ws_global_id_x();
    int s = 0;
    for (unsigned k = 0; k < i % 4; k++) s += (int)k;
    a[i] += s;
}
