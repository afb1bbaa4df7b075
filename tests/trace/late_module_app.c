/* A host program that allocates MIB of device memory before it loads its
 * module, on a device of LIMIT MiB (default: the default limit, 256 MiB).
 * Under `warpscope trace` the arena is the whole global range: a module
 * that landed above the default 256 MiB, where the device's decoded-code
 * table (sized for the default) ended, crashed; the program still gets
 * only its own limit there.
 *   late_module_app calls_kernel.elf MIB [LIMIT] */
#include <stdio.h>
#include <stdlib.h>
#include "warpscope/warpscope.h"

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) { fprintf(stderr, "usage: late_module_app calls_kernel.elf MIB [LIMIT]\n"); return 2; }
    ws_device *dev;
    ws_module *m;
    ws_kernel *k;
    ws_addr big = 0, out = 0;
    ws_config cfg;
    ws_config_default(&cfg);
    if (argc == 4) cfg.global_mem_limit = (uint64_t)atoi(argv[3]) << 20;
    ws_status st = ws_device_open(&cfg, &dev);
    if (st) return 1;
    st = ws_malloc(dev, (size_t)atoi(argv[2]) << 20, &big);
    if (!st) st = ws_module_load_file(dev, argv[1], &m);
    if (!st) st = ws_kernel_get(m, "use_calls", &k);
    if (!st) st = ws_malloc(dev, 2 * 64 * sizeof(int), &out);
    ws_arg a[] = { WS_ARG_PTR(out) };
    if (!st) st = ws_launch(dev, k, WS_DIM3(2, 1, 1), WS_DIM3(64, 1, 1), 0, a, 1);
    if (!st) st = ws_synchronize(dev);
    if (st) fprintf(stderr, "late_module_app: %s\n", ws_last_error(dev));
    else printf("late_module_app: module above %s MiB ran\n", argv[2]);
    ws_device_close(dev);
    return st != WS_OK;
}
