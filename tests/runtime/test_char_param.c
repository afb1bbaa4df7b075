/* A negative value for a plain char parameter: plain char is unsigned on
 * RISC-V, so the launch refuses it. Code ported from x86 CUDA expects it
 * signed; before 2026-11-27 the refusal said only "value -3 does not fit",
 * which names no reason. signed char takes it.
 * usage: test_char_param MODULE.elf */
#include <string.h>
#include "warpscope/warpscope.h"
#include "../test.h"

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    ws_device *dev;
    ws_module *m;
    ws_kernel *k;
    ws_addr out;
    int r[3] = { 0 };
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_module_load_file(dev, argv[1], &m) == WS_OK);
    CHECK(ws_kernel_get(m, "chars", &k) == WS_OK);
    CHECK(ws_malloc(dev, sizeof r, &out) == WS_OK);
    ws_arg a[] = { WS_ARG_I32(-3), WS_ARG_I32(-3), WS_ARG_U32(200), WS_ARG_PTR(out) };
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, a, 4) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "launch of 'chars': parameter 0 'c' has type 'char': value -3 is out of "
                       "range 0..255 (plain char is unsigned on RISC-V: declare it signed char)");
    a[2] = WS_ARG_I32(-1); /* unsigned char: no hint about plain char */
    a[0] = WS_ARG_I32(253);
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, a, 4) == WS_ERR_BAD_LAUNCH);
    CHECK_STR_CONTAINS(ws_last_error(dev), "parameter 2 'u' has type 'unsigned char': value -1 is out of range 0..255");
    CHECK(strstr(ws_last_error(dev), "plain char") == NULL);
    a[2] = WS_ARG_U32(200);
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, a, 4) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, r, out, sizeof r) == WS_OK);
    CHECK(r[0] == 253 && r[1] == -3 && r[2] == 200);
    CHECK(ws_device_close(dev) == WS_OK);
    return TEST_SUMMARY();
}
