/* racing: three launches of a kernel whose result depends on the order of
 * racing atomics between blocks, on a device opened with the default
 * threads. `warpscope capture` and `warpscope replay` must still agree bit
 * for bit (capture.racing_replay). argv[1]: racing_kernel.elf. */
#include <stdio.h>
#include "warpscope/warpscope.h"

enum { BLOCKS = 64, THREADS = 128, N = BLOCKS * THREADS };

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: racing KERNEL.elf\n"); return 2; }
    ws_device *dev;
    if (ws_device_open(NULL, &dev)) return 1;
    ws_module *mod;
    ws_kernel *k;
    ws_addr counter, owner;
    if (ws_module_load_file(dev, argv[1], &mod) || ws_kernel_get(mod, "claim", &k) ||
        ws_malloc(dev, 4, &counter) || ws_malloc(dev, N * 4, &owner)) {
        fprintf(stderr, "racing: %s\n", ws_last_error(dev));
        return 1;
    }
    for (int i = 0; i < 3; i++) {
        ws_arg a[2] = { WS_ARG_PTR(counter), WS_ARG_PTR(owner) };
        if (ws_memset(dev, counter, 0, 4) || ws_launch(dev, k, WS_DIM3(BLOCKS, 1, 1), WS_DIM3(THREADS, 1, 1), 0, a, 2) ||
            ws_synchronize(dev)) {
            fprintf(stderr, "racing: %s\n", ws_last_error(dev));
            return 1;
        }
    }
    ws_device_close(dev);
    return 0;
}
