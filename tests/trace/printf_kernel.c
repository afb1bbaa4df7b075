/* Kernels linked with picolibc's formatting code, which calls libgcc's
 * __riscv_save_N / __riscv_restore_N millicode inside its prologues and
 * epilogues: the recording pass must not clobber the arguments and return
 * values those routines carry through (it did: "a race?", counts that did
 * not match the device, global memory different from the launch's). */
#include <warpscope/kernel.h>
#include <stdio.h>

WS_KERNEL void say(int *out)
{
    unsigned i = ws_global_id_x();
    if (i % 5 == 0) printf("thread %u says %d\n", i, out[i]);
    out[i] = (int)i;
}

WS_KERNEL void format(char *out)
{
    unsigned i = ws_global_id_x();
    snprintf(out + 16 * i, 16, "t%u=%d", i, (int)(i * 7));
}
