/* The launch logger linked into a program instead of loaded from the
 * environment: attach it after opening the device. Runs vecadd's kernel
 * (path given) on 1000 elements and checks the result. */
#include <stdio.h>
#include "warpscope/warpscope.h"
#include "launch_logger.h"

int main(int argc, char **argv)
{
    enum { N = 1000 };
    ws_device *dev = NULL;
    ws_module *mod;
    ws_kernel *k;
    ws_addr da, db, dc;
    float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) a[i] = (float)i, b[i] = 0.5f;
    if (argc < 2 || ws_device_open(NULL, &dev) || launch_logger_attach(dev, NULL) ||
        ws_module_load_file(dev, argv[1], &mod) || ws_kernel_get(mod, "vecadd", &k) ||
        ws_malloc(dev, sizeof a, &da) || ws_malloc(dev, sizeof b, &db) || ws_malloc(dev, sizeof c, &dc) ||
        ws_memcpy_htod(dev, da, a, sizeof a) || ws_memcpy_htod(dev, db, b, sizeof b)) {
        fprintf(stderr, "linked: %s\n", dev ? ws_last_error(dev) : "usage: linked vecadd_kernel.elf");
        return 1;
    }
    ws_arg args[] = { WS_ARG_PTR(da), WS_ARG_PTR(db), WS_ARG_PTR(dc), WS_ARG_I32(N) };
    if (ws_launch(dev, k, WS_DIM3(4, 1, 1), WS_DIM3(256, 1, 1), 0, args, 4) || ws_memcpy_dtoh(dev, c, dc, sizeof c)) {
        fprintf(stderr, "linked: %s\n", ws_last_error(dev));
        return 1;
    }
    int bad = 0;
    for (int i = 0; i < N; i++) bad += c[i] != a[i] + b[i];
    ws_device_close(dev);
    printf("linked: %s\n", bad ? "BAD" : "PASS");
    return bad != 0;
}
