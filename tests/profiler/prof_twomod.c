/* Loads two modules that each have a kernel `scale` and launches both
 * (tests/profiler/check_twomod.sh). Usage: prof_twomod A.elf B.elf */
#include <stdio.h>
#include "warpscope/warpscope.h"

int main(int argc, char **argv)
{
    ws_device *dev;
    ws_module *m[2];
    ws_kernel *k[2];
    ws_addr in, out;
    if (argc != 3) { fprintf(stderr, "usage: prof_twomod A.elf B.elf\n"); return 2; }
    if (ws_device_open(NULL, &dev)) return 1;
    for (int i = 0; i < 2; i++)
        if (ws_module_load_file(dev, argv[1 + i], &m[i]) || ws_kernel_get(m[i], "scale", &k[i])) {
            fprintf(stderr, "prof_twomod: %s: %s\n", argv[1 + i], ws_last_error(dev));
            return 1;
        }
    if (ws_malloc(dev, 256 * 4, &in) || ws_malloc(dev, 256 * 4, &out)) return 1;
    ws_arg a[] = { WS_ARG_PTR(in), WS_ARG_PTR(out) };
    for (int i = 0; i < 2; i++)
        if (ws_launch(dev, k[i], WS_DIM3(4, 1, 1), WS_DIM3(64, 1, 1), 0, a, 2) || ws_synchronize(dev)) {
            fprintf(stderr, "prof_twomod: launch %d: %s\n", i + 1, ws_last_error(dev));
            return 1;
        }
    ws_device_close(dev);
    printf("prof_twomod: two launches of scale\n");
    return 0;
}
