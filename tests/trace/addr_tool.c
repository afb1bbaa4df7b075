/* A custom tracer tool's device function (include/warpscope/trace.h): it
 * records the address each access is about to touch and a check word. It
 * is copied into the instrumented kernels, so it is self-contained. */
#include <stdint.h>

void record_address(uint32_t site, uint32_t addr, uint32_t *record, uint32_t gid)
{
    record[0] = addr;
    record[1] = site ^ (gid << 16);
}
