/* Two planted scheduling bugs for docs/events.md's walkthrough:
 *   planted deadlock   a block whose halves wait at different barriers
 *   planted spinlock   a global spin lock that starves the lock holder
 * The device is closed whatever happens, so an attached tool
 * (warpscope watch) writes what it saw. */
#include <libgen.h>
#include <stdio.h>
#include <string.h>
#include "warpscope/warpscope.h"

int main(int argc, char **argv)
{
    if (argc != 2 || (strcmp(argv[1], "deadlock") && strcmp(argv[1], "spinlock"))) {
        fprintf(stderr, "usage: planted deadlock|spinlock\n");
        return 2;
    }
    char path[4096], exe[4096];
    snprintf(exe, sizeof exe, "%s", argv[0]);
    snprintf(path, sizeof path, "%s/planted_kernel.elf", dirname(exe));
    ws_config cfg;
    ws_config_default(&cfg);
    ws_device *dev;
    ws_module *m;
    ws_kernel *k;
    ws_addr a = 0, b = 0;
    if (ws_device_open(&cfg, &dev) != WS_OK) { fprintf(stderr, "planted: cannot open a device\n"); return 1; }
    int deadlock = !strcmp(argv[1], "deadlock");
    ws_status st = ws_module_load_file(dev, path, &m);
    if (st == WS_OK) st = ws_kernel_get(m, deadlock ? "split_barrier" : "spin_lock", &k);
    if (st == WS_OK) st = ws_malloc(dev, 4096, &a);
    if (st == WS_OK) st = ws_malloc(dev, 4, &b);
    if (st == WS_OK) st = ws_memset(dev, a, 0, 4096);
    if (st == WS_OK) st = ws_memset(dev, b, 0, 4);
    ws_arg args[] = { WS_ARG_PTR(a), WS_ARG_PTR(b) };
    if (st == WS_OK)
        st = ws_launch(dev, k, (ws_dim3){ deadlock ? 4 : 2, 1, 1 }, (ws_dim3){ 64, 1, 1 }, 0, args, deadlock ? 1 : 2);
    if (st == WS_OK) st = ws_synchronize(dev);
    int count = 0;
    if (st == WS_OK && !deadlock) st = ws_memcpy_dtoh(dev, &count, b, 4);
    if (st != WS_OK) fprintf(stderr, "planted %s: %s\n", argv[1], ws_last_error(dev));
    else printf("planted %s: finished%s%d\n", argv[1], deadlock ? "" : ", lock taken ", deadlock ? 0 : count);
    ws_device_close(dev);
    return st == WS_OK ? 0 : 1;
}
