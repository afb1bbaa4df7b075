/* Loads one kernel file N times (N modules, each at its own place) and runs
 * `frame` of the last one over 32 ints: a frame with more modules than a
 * fixed-size list of them would hold.
 *   usage: many_modules RD_KERNELS.elf N */
#include <stdio.h>
#include <stdlib.h>
#include <warpscope/warpscope.h>

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: many_modules RD_KERNELS.elf N\n");
        return 2;
    }
    ws_config cfg;
    ws_config_default(&cfg);
    ws_device *dev;
    if (ws_device_open(&cfg, &dev) != WS_OK) return 1;
    ws_module *m = NULL;
    ws_kernel *k;
    ws_addr in, out;
    int n = atoi(argv[2]), ok = 1;
    for (int i = 0; ok && i < n; i++) ok = ws_module_load_file(dev, argv[1], &m) == WS_OK;
    ok = ok && ws_kernel_get(m, "frame", &k) == WS_OK && ws_malloc(dev, 128, &in) == WS_OK &&
         ws_malloc(dev, 128, &out) == WS_OK && ws_memset(dev, in, 0, 128) == WS_OK;
    if (ok) {
        const ws_arg args[] = { WS_ARG_PTR(out), WS_ARG_PTR(in), WS_ARG_I32(32) };
        ok = ws_launch(dev, k, (ws_dim3){ 1, 1, 1 }, (ws_dim3){ 32, 1, 1 }, 0, args, 3) == WS_OK &&
             ws_synchronize(dev) == WS_OK;
    }
    if (!ok) fprintf(stderr, "many_modules: %s\n", ws_last_error(dev));
    return ws_device_close(dev) == WS_OK && ok ? 0 : 1;
}
