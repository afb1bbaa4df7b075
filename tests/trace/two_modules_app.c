/* Two modules that both have a kernel called `work`, loaded from memory
 * (ws_module_load_data), and one launch of each: the tracer's report and
 * `warpscope trace --read` must say which module each launch ran.
 *   two_modules_app memory|named A.elf B.elf
 * memory: loaded without names ("<memory>", "<memory 2>"); named: both
 * under the one name "work" (the report must still take each launch's
 * lines from its own module). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/warpscope.h"

static void *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    void *b = NULL;
    long len;
    if (f && !fseek(f, 0, SEEK_END) && (len = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) && (b = malloc((size_t)len)) &&
        fread(b, 1, (size_t)len, f) == (size_t)len)
        *n = (size_t)len;
    else {
        free(b);
        b = NULL;
    }
    if (f) fclose(f);
    return b;
}

int main(int argc, char **argv)
{
    if (argc != 4) return 2;
    const char *name = strcmp(argv[1], "named") ? NULL : "work";
    ws_device *dev;
    ws_addr out = 0;
    if (ws_device_open(NULL, &dev)) return 1;
    ws_status st = ws_malloc(dev, 64 * sizeof(int), &out);
    for (int i = 2; i < 4 && !st; i++) {
        size_t n = 0;
        void *img = slurp(argv[i], &n);
        ws_module *m;
        ws_kernel *k;
        if (!img) { fprintf(stderr, "two_modules_app: cannot read %s\n", argv[i]); return 1; }
        st = ws_module_load_data(dev, img, n, name, &m);
        free(img);
        ws_arg a[] = { WS_ARG_PTR(out) };
        if (!st) st = ws_kernel_get(m, "work", &k);
        if (!st) st = ws_launch(dev, k, WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0, a, 1);
        if (!st) st = ws_synchronize(dev);
    }
    int h[64];
    if (!st) st = ws_memcpy_dtoh(dev, h, out, sizeof h);
    if (st) { fprintf(stderr, "two_modules_app: %s\n", ws_last_error(dev)); return 1; }
    long sum = 0;
    for (int i = 0; i < 64; i++) sum += h[i];
    printf("sum %ld\n", sum);
    ws_device_close(dev);
    return 0;
}
