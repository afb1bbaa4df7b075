/* A program that launches a kernel and ends without ws_device_close: by
 * returning from main ("return"), or by _exit ("_exit"), which runs no
 * exit handler. Linked with libwarpscope.so, as programs usually are.
 * usage: unclosed_app cli_kernels.elf return|_exit */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "warpscope/warpscope.h"

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: unclosed_app cli_kernels.elf return|_exit\n"); return 2; }
    ws_device *dev;
    ws_module *mod;
    ws_kernel *k;
    ws_addr out;
    if (ws_device_open(NULL, &dev) || ws_module_load_file(dev, argv[1], &mod) ||
        ws_kernel_get(mod, "calls_helper", &k) || ws_malloc(dev, 64 * 4, &out)) {
        fprintf(stderr, "unclosed_app: set-up failed\n");
        return 1;
    }
    ws_arg a[] = { WS_ARG_PTR(out) };
    if (ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(64, 1, 1), 0, a, 1) || ws_synchronize(dev)) {
        fprintf(stderr, "unclosed_app: launch failed: %s\n", ws_last_error(dev));
        return 1;
    }
    printf("unclosed_app: launched, ending by %s with the device open\n", argv[2]);
    fflush(stdout);
    if (!strcmp(argv[2], "_exit")) _exit(0);
    return 0;
}
