#include <warpscope/kernel.h>

/* Each thread adds one to its element. */
WS_KERNEL void add1(int *p, int n)
{
    int i = (int)ws_global_id_x();
    if (i < n) p[i] += 1;
}

/* Thread 3 of block 0 writes through a null pointer. */
WS_KERNEL void fault_null(int *p)
{
    if (ws_global_id_x() == 3) *(volatile int *)0 = 1;
    else p[ws_global_id_x()] = 7;
}

/* One line of device printf per block. */
WS_KERNEL void say(int x)
{
    if (threadIdx_x() == 0) printf("block %u says %d\n", blockIdx_x(), x);
}
