/* Custom tool device functions (test_custom_grouping.c): one without
 * branches, one that loops, one whose lanes may split. */
#include <stdint.h>

void straight(uint32_t site, uint32_t addr, uint32_t *record, uint32_t gid)
{
    record[0] = site ^ addr ^ (gid << 12);
}

void loops(uint32_t site, uint32_t addr, uint32_t *record, uint32_t gid)
{
    uint32_t n = 3;
    __asm__ volatile("1: addi %0, %0, -1\n\tbnez %0, 1b" : "+r"(n));
    record[0] = site ^ addr ^ gid ^ n;
}

void splits(uint32_t site, uint32_t addr, uint32_t *record, uint32_t gid)
{
    uint32_t v = site ^ addr;
    __asm__ volatile("beqz %1, 1f\n\taddi %0, %0, 3\n1:" : "+r"(v) : "r"(gid & 1));
    record[0] = v;
}
