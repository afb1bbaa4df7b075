/* A custom tracer tool's device function (include/warpscope/trace.h): it
 * records the address each access is about to touch and a check word. It
 * is copied into the instrumented kernels, so it is self-contained. */
#include <stdint.h>

void record_address(uint32_t site, uint32_t addr, uint32_t *record, uint32_t gid)
{
    record[0] = addr;
    record[1] = site ^ (gid << 16);
}

/* Refused: it reads gp, which the instrumentation owns, as a second
 * source register (mv a4, gp is add a4, zero, gp: once let through). */
void reads_gp(uint32_t site, uint32_t addr, uint32_t *record, uint32_t gid)
{
    uint32_t g;
    __asm__ volatile("mv %0, gp" : "=r"(g));
    record[0] = addr ^ g;
    record[1] = site ^ gid;
}
