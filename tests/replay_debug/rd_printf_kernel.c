/* A kernel that prints (rd_printf.c): the replays of the frame debugger
 * must not print it again at every stop. */
#include <warpscope/kernel.h>
#include <stdio.h>

WS_KERNEL void greet(int *out, int n)
{
    int i = (int)ws_global_id_x();
    if (i >= n) return;
    out[i] = i * 2;                                  /* MARK:greet_store */
    if (i == 0) printf("greetings from the device\n"); /* MARK:greet_print */
}
