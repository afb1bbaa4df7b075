/* A host program that unloads its module before closing the device (as
 * hosts do): the tracer's report must still name the module's source lines
 * (it printed raw addresses, some not instruction starts, after an unload).
 * With a second argument N it does so on N devices, one after another:
 * `warpscope trace -o` must keep every device's launches (the last
 * device's file replaced the others').
 *   unload_app calls_kernel.elf [N] */
#include <stdio.h>
#include <stdlib.h>
#include "warpscope/warpscope.h"

static ws_status one_device(const char *elf, unsigned grid)
{
    ws_device *dev;
    ws_module *m;
    ws_kernel *k;
    ws_addr out = 0;
    ws_status st = ws_device_open(NULL, &dev);
    if (st) return st;
    st = ws_module_load_file(dev, elf, &m);
    if (!st) st = ws_kernel_get(m, "use_calls", &k);
    if (!st) st = ws_malloc(dev, grid * 64 * sizeof(int), &out);
    ws_arg a[] = { WS_ARG_PTR(out) };
    if (!st) st = ws_launch(dev, k, WS_DIM3(grid, 1, 1), WS_DIM3(64, 1, 1), 0, a, 1);
    if (!st) st = ws_synchronize(dev);
    if (!st) st = ws_module_unload(dev, m);
    if (st) fprintf(stderr, "unload_app: %s\n", ws_last_error(dev));
    ws_device_close(dev);
    return st;
}

int main(int argc, char **argv)
{
    if (argc < 2) return 2;
    const unsigned n = argc > 2 ? (unsigned)atoi(argv[2]) : 1;
    for (unsigned d = 0; d < n; d++)
        if (one_device(argv[1], 2 + d)) return 1;
    return 0;
}
