/* Two devices in one process, each launching the same kernel of the same
 * module once: the tracer's launch labels must tell the two launches 1
 * apart (they read alike: "launch 1 work (work_a_kernel.elf)" twice).
 *   two_devices_app MODULE.elf [reverse|forward [MODULE2.elf]]
 * Prints each device's sum; the devices close in the order they opened, or
 * with `reverse` the second first. With MODULE2, device 2 runs its `work`
 * (so a report tells the devices apart). */
#include <stdio.h>
#include <string.h>
#include "warpscope/warpscope.h"

static ws_status run_on(ws_device *dev, const char *path, long *sum)
{
    ws_module *m;
    ws_kernel *k;
    ws_addr out = 0;
    int h[64];
    ws_status st = ws_malloc(dev, sizeof h, &out);
    if (!st) st = ws_module_load_file(dev, path, &m);
    if (!st) st = ws_kernel_get(m, "work", &k);
    ws_arg a[] = { WS_ARG_PTR(out) };
    if (!st) st = ws_launch(dev, k, WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0, a, 1);
    if (!st) st = ws_synchronize(dev);
    if (!st) st = ws_memcpy_dtoh(dev, h, out, sizeof h);
    *sum = 0;
    for (int i = 0; !st && i < 64; i++) *sum += h[i];
    return st;
}

int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4 || (argc > 2 && strcmp(argv[2], "reverse") && strcmp(argv[2], "forward"))) return 2;
    const int reverse = argc > 2 && !strcmp(argv[2], "reverse");
    const char *module[2] = { argv[1], argc == 4 ? argv[3] : argv[1] };
    ws_device *dev[2] = { NULL, NULL };
    for (int d = 0; d < 2; d++)
        if (ws_device_open(NULL, &dev[d])) { fprintf(stderr, "two_devices_app: cannot open device %d\n", d + 1); return 1; }
    for (int d = 0; d < 2; d++) {
        long sum;
        if (run_on(dev[d], module[d], &sum)) {
            fprintf(stderr, "two_devices_app: device %d: %s\n", d + 1, ws_last_error(dev[d]));
            return 1;
        }
        printf("device %d: sum %ld\n", d + 1, sum);
    }
    for (int d = 0; d < 2; d++) ws_device_close(dev[reverse ? 1 - d : d]);
    return 0;
}
