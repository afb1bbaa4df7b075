/* A program that launches kernels with structs by value (linked with the
 * shared library, so `warpscope capture` interposes on it): k_fi (in fa
 * and a registers) and k_big (each lane's own copy on its stack), and
 * prints what the first lane read. struct_args.sh captures and replays it.
 *   usage: struct_args struct_param_kernels.elf */
#include <stdio.h>
#include <string.h>
#include "warpscope/warpscope.h"
#include "../runtime/struct_param_types.h"

int main(int argc, char **argv)
{
    ws_device *dev;
    ws_module *m;
    ws_kernel *kfi, *kbig;
    ws_addr out;
    int got[4 * 16];
    if (argc != 2 || ws_device_open(NULL, &dev) || ws_module_load_file(dev, argv[1], &m) ||
        ws_kernel_get(m, "k_fi", &kfi) || ws_kernel_get(m, "k_big", &kbig) || ws_malloc(dev, sizeof got, &out))
        return 1;
    s_fi fi = { 2.5f, -17 };
    s_big big = { { 3, 1, 4, 1, 5 }, 9.0f, 2.0 };
    ws_arg a1[] = { WS_ARG_PTR(out), WS_ARG_STRUCT(&fi, sizeof fi) };
    ws_arg a2[] = { WS_ARG_STRUCT(&big, sizeof big), WS_ARG_PTR(out) };
    if (ws_launch(dev, kfi, WS_DIM3(1, 1, 1), WS_DIM3(4, 1, 1), 0, a1, 2))
        return fprintf(stderr, "%s\n", ws_last_error(dev)), 1;
    fi.n = 0; /* ws_launch copied the bytes: the launch still sees -17 */
    if (ws_synchronize(dev) || ws_memcpy_dtoh(dev, got, out, sizeof got))
        return fprintf(stderr, "%s\n", ws_last_error(dev)), 1;
    float x;
    memcpy(&x, &got[0], 4);
    printf("k_fi: x %g n %d\n", (double)x, got[1]);
    if (ws_launch(dev, kbig, WS_DIM3(1, 1, 1), WS_DIM3(4, 1, 1), 0, a2, 2) || ws_synchronize(dev) ||
        ws_memcpy_dtoh(dev, got, out, sizeof got))
        return fprintf(stderr, "%s\n", ws_last_error(dev)), 1;
    printf("k_big: lane 3 v0 %d v4 %d\n", got[3 * 16], got[3 * 16 + 4]);
    ws_device_close(dev);
    return 0;
}
