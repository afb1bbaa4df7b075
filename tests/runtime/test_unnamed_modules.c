/* Modules loaded from memory without a name. Before 2026-11-27 every one
 * was named "<memory>", so the profiler merged two modules' kernels of one
 * name into one entry ("work (<memory>): 2 launches", the lines of both
 * under it), and messages could not say which module they meant. Now the
 * device's first is "<memory>", the next "<memory 2>", "<memory 3>", ...
 * in load order (an empty name counts as none; unloaded modules keep their
 * numbers), the same in every run.
 * usage: test_unnamed_modules A.elf B.elf          API checks
 *        test_unnamed_modules A.elf B.elf launch   load both unnamed, launch each
 *                                                  once (check_unnamed_modules.sh
 *                                                  profiles it) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/warpscope.h"
#include "../test.h"

/* The name a module goes by, as messages give it. */
static void name_of(ws_device *dev, ws_module *m, char *out, size_t len)
{
    ws_kernel *k;
    out[0] = 0;
    if (ws_kernel_get(m, "no such kernel", &k) != WS_ERR_NOT_FOUND) return;
    const char *e = ws_last_error(dev), *colon = strstr(e, ": no kernel named");
    if (colon) snprintf(out, len, "%.*s", (int)(colon - e), e);
}

static int expect_name(ws_device *dev, ws_module *m, const char *want)
{
    char got[128];
    name_of(dev, m, got, sizeof got);
    if (strcmp(got, want)) fprintf(stderr, "module named '%s', expected '%s'\n", got, want);
    return !strcmp(got, want);
}

static int launch_both(const unsigned char *a, size_t na, const unsigned char *b, size_t nb)
{
    ws_device *dev;
    ws_module *m[2];
    ws_kernel *k;
    ws_addr v;
    if (ws_device_open(NULL, &dev)) return 1;
    if (ws_module_load_data(dev, a, na, NULL, &m[0]) || ws_module_load_data(dev, b, nb, NULL, &m[1]) ||
        ws_malloc(dev, 1024 * sizeof(float), &v)) {
        fprintf(stderr, "test_unnamed_modules: %s\n", ws_last_error(dev));
        return 1;
    }
    for (int i = 0; i < 2; i++) {
        ws_arg args[] = { WS_ARG_PTR(v), WS_ARG_I32(1024) };
        if (ws_kernel_get(m[i], "work", &k) || ws_launch(dev, k, WS_DIM3(4, 1, 1), WS_DIM3(256, 1, 1), 0, args, 2) ||
            ws_synchronize(dev)) {
            fprintf(stderr, "test_unnamed_modules: %s\n", ws_last_error(dev));
            return 1;
        }
    }
    return ws_device_close(dev) == WS_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc != 3 && argc != 4) return 2;
    size_t na, nb;
    unsigned char *a = ws_test_read_file(argv[1], &na), *b = ws_test_read_file(argv[2], &nb);
    if (!a || !b) return 2;
    if (argc == 4) {
        int rc = launch_both(a, na, b, nb);
        free(a);
        free(b);
        return rc;
    }
    ws_device *dev, *dev2;
    ws_module *m1, *m2, *m3, *m4, *named, *bad;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_module_load_data(dev, a, na, NULL, &m1) == WS_OK);
    CHECK(ws_module_load_data(dev, b, nb, NULL, &m2) == WS_OK);
    CHECK(ws_module_load_data(dev, a, na, "kernels-a", &named) == WS_OK); /* named: not counted */
    CHECK(ws_module_load_data(dev, b, nb, "", &m3) == WS_OK);            /* empty: as unnamed */
    CHECK(expect_name(dev, m1, "<memory>"));
    CHECK(expect_name(dev, m2, "<memory 2>"));
    CHECK(expect_name(dev, named, "kernels-a"));
    CHECK(expect_name(dev, m3, "<memory 3>"));
    /* an unloaded module keeps its number: the next is not a second "<memory 2>" */
    CHECK(ws_module_unload(dev, m2) == WS_OK);
    CHECK(ws_module_unload(dev, m2) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "module '<memory 2>' was unloaded");
    CHECK(ws_module_load_data(dev, a, na, NULL, &m4) == WS_OK);
    CHECK(expect_name(dev, m4, "<memory 4>"));
    /* a refused image is named in the message by the number it would have had */
    static const unsigned char junk[64] = { 0x7f, 'E', 'L', 'F' };
    CHECK(ws_module_load_data(dev, junk, sizeof junk, NULL, &bad) == WS_ERR_BAD_MODULE);
    CHECK(!strncmp(ws_last_error(dev), "<memory 5>: ", 12));
    /* each device counts its own */
    CHECK(ws_device_open(NULL, &dev2) == WS_OK);
    CHECK(ws_module_load_data(dev2, b, nb, NULL, &m1) == WS_OK);
    CHECK(expect_name(dev2, m1, "<memory>"));
    CHECK(ws_device_close(dev2) == WS_OK);
    CHECK(ws_device_close(dev) == WS_OK);
    free(a);
    free(b);
    return TEST_SUMMARY();
}
