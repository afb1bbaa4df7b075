/* One of two modules with a kernel called `work` (two_modules_app.c). */
#include <warpscope/kernel.h>

WS_KERNEL void work(int *a)
{
    unsigned i = ws_global_id_x();
    a[i] = (int)i * 2;
}
