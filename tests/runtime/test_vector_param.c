/* A kernel taking a vector (vector_size) by value: before 2026-11-27 the
 * loader took its DWARF array type for a pointer, so ws_launch accepted
 * WS_ARG_PTR for it and the kernel read the vector's elements from
 * registers holding an address (garbage, or a fault at a small address).
 * The module is now refused at load like one with a struct by value.
 * usage: test_vector_param MODULE1.elf MODULE2.elf */
#include <string.h>
#include "warpscope/warpscope.h"
#include "../test.h"

int main(int argc, char **argv)
{
    if (argc != 3) return 2;
    ws_device *dev;
    ws_module *m = NULL;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_module_load_file(dev, argv[1], &m) == WS_ERR_BAD_MODULE);
    CHECK_STR_CONTAINS(ws_last_error(dev), "kernel 'take_v4' parameter 0 'x' has type 'v4i' passed by value");
    CHECK(ws_module_load_file(dev, argv[2], &m) == WS_ERR_BAD_MODULE);
    CHECK_STR_CONTAINS(ws_last_error(dev), "kernel 'take_v2' parameter 0 'x' has type "
                       "'short __attribute__((vector_size(4)))' passed by value");
    ws_device_close(dev);
    return TEST_SUMMARY();
}
