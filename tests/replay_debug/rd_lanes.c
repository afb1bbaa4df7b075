/* Host program for the record/ scenarios (record_gdb.sh):
 *   rd_lanes KERNEL.elf lanes BLOCK_SIZE BLOCKS   one launch of `lanes`
 *   rd_lanes KERNEL.elf fault BAD [TIMES]         `nullload` faulting at
 *       thread BAD, TIMES times (the program goes on after each fault and
 *       reads results back after the last: the capture records the
 *       failures and a read-back after the last frame end) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/warpscope.h"

int main(int argc, char **argv)
{
    ws_device *dev;
    ws_module *mod;
    ws_kernel *k;
    ws_addr in, out;
    ws_status st;
    enum { MAXN = 256 };
    int h[MAXN];
    if (argc < 4) return 2;
    const int fault = !strcmp(argv[2], "fault");
    const int bs = fault ? 32 : atoi(argv[3]), nb = fault ? 1 : argc > 4 ? atoi(argv[4]) : 1;
    const int bad = fault ? atoi(argv[3]) : 0, times = fault && argc > 4 ? atoi(argv[4]) : 1;
    const int n = bs * nb;
    if (bs < 1 || bs > 64 || nb < 1 || n > MAXN) return 2;
    for (int i = 0; i < n; i++) h[i] = (i * 37) % 50;
    if ((st = ws_device_open(NULL, &dev))) return 1;
    if ((st = ws_module_load_file(dev, argv[1], &mod)) || (st = ws_kernel_get(mod, fault ? "nullload" : "lanes", &k)) ||
        (st = ws_malloc(dev, sizeof h, &in)) || (st = ws_malloc(dev, sizeof h, &out)) ||
        (st = ws_memcpy_htod(dev, in, h, sizeof h)) || (st = ws_memset(dev, out, 0, sizeof h))) {
        fprintf(stderr, "rd_lanes: %s: %s\n", ws_status_name(st), ws_last_error(dev));
        return 1;
    }
    ws_arg a[] = { WS_ARG_PTR(in), WS_ARG_PTR(out), WS_ARG_I32(fault ? bad : 3) };
    for (int i = 0; i < times; i++) {
        st = ws_launch(dev, k, WS_DIM3((unsigned)nb, 1, 1), WS_DIM3((unsigned)bs, 1, 1), 0, a, 3);
        if (!st) st = ws_synchronize(dev);
        if (st && !(fault && st == WS_ERR_KERNEL_FAULT)) {
            fprintf(stderr, "rd_lanes: %s: %s\n", ws_status_name(st), ws_last_error(dev));
            return 1;
        }
        if (st) printf("rd_lanes: launch %d faulted as meant\n", i + 1);
    }
    if ((st = ws_memcpy_dtoh(dev, h, out, sizeof h))) {
        fprintf(stderr, "rd_lanes: %s: %s\n", ws_status_name(st), ws_last_error(dev));
        return 1;
    }
    printf("rd_lanes ok: out[0] %d out[%d] %d\n", h[0], n - 1, h[n - 1]);
    ws_device_close(dev);
    return 0;
}
