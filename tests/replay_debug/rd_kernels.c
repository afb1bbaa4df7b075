/* The frame the replay-debugger tests capture: two launches of `frame`
 * (the second reads the first's output). Lines marked MARK:name are
 * found by the scenarios (run_rd_gdb.sh); rd_capture_serve.c computes the
 * same values on the host. Compiled -O0 -g, as for debugging. */
#include <warpscope/kernel.h>

__attribute__((noinline)) static int mix(int a, int b)
{
    int m = a * 31 + b; /* MARK:mix */
    return m ^ (m >> 3); /* MARK:mix_ret */
}

WS_KERNEL void frame(int *out, const int *in, int n)
{
    int i = (int)ws_global_id_x();
    if (i >= n) return;
    int acc = in[i];               /* MARK:start */
    acc = mix(acc, i);             /* MARK:call */
    acc += 7;                      /* MARK:add */
    for (int k = 0; k < 3; k++)    /* MARK:loop */
        acc = acc * 3 + k;         /* MARK:body */
    out[i] = acc;                  /* MARK:store */
}
