/* The device's table of loaded code (device.h, ws_code_region): what the
 * command processor knows of each resident module, in load order. The
 * debug hardware reads it (module list, original bytes for a debugger)
 * without knowing the runtime's module objects. */
#include <stdlib.h>
#include <string.h>
#include "device/device.h"

int ws_code_table_add(ws_device *dev, const ws_code_region *r)
{
    if (dev->ncode == dev->codecap) {
        size_t cap = dev->codecap ? dev->codecap * 2 : 8;
        ws_code_region *n = realloc(dev->code, cap * sizeof *n);
        if (!n) return -1;
        dev->code = n;
        dev->codecap = cap;
    }
    dev->code[dev->ncode++] = *r;
    return 0;
}

void ws_code_table_remove(ws_device *dev, const void *key)
{
    for (size_t i = 0; i < dev->ncode; i++)
        if (dev->code[i].key == key) {
            memmove(&dev->code[i], &dev->code[i + 1], (dev->ncode - i - 1) * sizeof *dev->code);
            dev->ncode--;
            return;
        }
}
