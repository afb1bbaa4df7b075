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
    dev->nmarked += r->orig != NULL;
    dev->nordered += r->order || r->loop_end;
    return 0;
}

int ws_code_inserted(const ws_device *dev, uint32_t pc)
{
    for (size_t i = 0; i < dev->ncode; i++) {
        const ws_code_region *r = &dev->code[i];
        if (!r->orig || pc < r->text_lo || pc >= r->text_hi) continue;
        uint32_t lo = 0, hi = r->norig; /* the last range starting at or below pc */
        while (lo < hi) {
            const uint32_t mid = (lo + hi) / 2;
            if (r->orig[2 * mid] <= pc) lo = mid + 1;
            else hi = mid;
        }
        return !lo || pc >= r->orig[2 * lo - 1];
    }
    return 0;
}

void ws_code_table_remove(ws_device *dev, const void *key)
{
    for (size_t i = 0; i < dev->ncode; i++)
        if (dev->code[i].key == key) {
            dev->nmarked -= dev->code[i].orig != NULL;
            dev->nordered -= dev->code[i].order || dev->code[i].loop_end;
            free(dev->code[i].orig);
            free(dev->code[i].order);
            free(dev->code[i].loop_end);
            memmove(&dev->code[i], &dev->code[i + 1], (dev->ncode - i - 1) * sizeof *dev->code);
            dev->ncode--;
            return;
        }
}
