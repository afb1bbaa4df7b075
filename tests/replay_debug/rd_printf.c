/* A program whose kernel prints one line (rd_printf_kernel.c), debugged
 * with `warpscope debug --record` by debug_record_printf.sh. */
#include <stdio.h>
#include <string.h>
#include "warpscope/warpscope.h"

int main(int argc, char **argv)
{
    if (argc != 2) return fprintf(stderr, "usage: rd_printf KERNEL.elf\n"), 2;
    ws_config cfg;
    ws_config_default(&cfg);
    ws_device *dev = NULL;
    ws_module *mod = NULL;
    ws_kernel *k = NULL;
    ws_addr out = 0;
    int host[64];
    ws_status st = ws_device_open(&cfg, &dev);
    if (!st) st = ws_module_load_file(dev, argv[1], &mod);
    if (!st) st = ws_kernel_get(mod, "greet", &k);
    if (!st) st = ws_malloc(dev, sizeof host, &out);
    ws_arg args[] = { WS_ARG_PTR(out), WS_ARG_I32(64) };
    if (!st) st = ws_launch(dev, k, WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0, args, 2);
    if (!st) st = ws_memcpy_dtoh(dev, host, out, sizeof host);
    if (st) {
        fprintf(stderr, "rd_printf: %s: %s\n", ws_status_name(st), dev ? ws_last_error(dev) : "no device");
        if (dev) ws_device_close(dev);
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < 64; i++) bad += host[i] != i * 2;
    printf("rd_printf %s\n", bad ? "BAD" : "ok");
    ws_device_close(dev);
    return bad != 0;
}
