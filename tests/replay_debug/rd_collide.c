/* Host program for watch_lanes.sh: runs rd_collide_kernel.c's kernel on
 * one warp and checks the result. Usage: rd_collide KERNEL.elf */
#include <stdio.h>
#include <string.h>
#include "warpscope/warpscope.h"

int main(int argc, char **argv)
{
    ws_device *dev;
    ws_module *mod;
    ws_kernel *k;
    ws_addr out;
    ws_status st;
    int h[35];
    if (argc != 2) return 2;
    if ((st = ws_device_open(NULL, &dev))) return 1;
    if ((st = ws_module_load_file(dev, argv[1], &mod)) || (st = ws_kernel_get(mod, "collide", &k)) ||
        (st = ws_malloc(dev, sizeof h, &out)) || (st = ws_memset(dev, out, 0, sizeof h))) {
        fprintf(stderr, "rd_collide: %s: %s\n", ws_status_name(st), ws_last_error(dev));
        return 1;
    }
    ws_arg a[] = { WS_ARG_PTR(out) };
    if ((st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, a, 1)) || (st = ws_synchronize(dev)) ||
        (st = ws_memcpy_dtoh(dev, h, out, sizeof h))) {
        fprintf(stderr, "rd_collide: %s: %s\n", ws_status_name(st), ws_last_error(dev));
        return 1;
    }
    float f;
    memcpy(&f, &h[34], 4);
    printf("out[0] %d out[1] %d float %g\n", h[0], h[1], f);
    ws_device_close(dev);
    return h[0] == 131 && h[1] == 32 && f == 16.0f ? 0 : 1;
}
