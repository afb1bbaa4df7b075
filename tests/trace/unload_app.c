/* A host program that unloads its module before closing the device (as
 * hosts do): the tracer's report must still name the module's source lines
 * (it printed raw addresses, some not instruction starts, after an unload).
 *   unload_app calls_kernel.elf */
#include <stdio.h>
#include "warpscope/warpscope.h"

int main(int argc, char **argv)
{
    ws_device *dev;
    ws_module *m;
    ws_kernel *k;
    ws_addr out;
    if (argc != 2 || ws_device_open(NULL, &dev) != WS_OK) return 2;
    ws_status st = ws_module_load_file(dev, argv[1], &m);
    if (!st) st = ws_kernel_get(m, "use_calls", &k);
    if (!st) st = ws_malloc(dev, 128 * sizeof(int), &out);
    ws_arg a[] = { WS_ARG_PTR(out) };
    if (!st) st = ws_launch(dev, k, WS_DIM3(2, 1, 1), WS_DIM3(64, 1, 1), 0, a, 1);
    if (!st) st = ws_synchronize(dev);
    if (!st) st = ws_module_unload(dev, m);
    if (st) fprintf(stderr, "unload_app: %s\n", ws_last_error(dev));
    ws_device_close(dev);
    return st ? 1 : 0;
}
