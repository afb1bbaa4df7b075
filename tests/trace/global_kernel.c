/* A kernel that reads and writes its module's own data: a global array
 * and a constant table (trace.module_data_addresses). */
#include <warpscope/kernel.h>

unsigned table[64] = { 1, 2, 3 };
static const float scale[4] = { 0.5f, 1.5f, 2.5f, 3.5f };

WS_KERNEL void globals(unsigned *out)
{
    unsigned t = threadIdx_x();
    table[t] = t * 3 + (unsigned)scale[t & 3];
    out[t] = table[(t + 1) & 63];
}

/* Stores its own data's address as a value: the passes run the module's
 * twin, whose table is a copy elsewhere, so the results check says
 * DIFFERENT although the launch is right (trace.different_status). */
WS_KERNEL void addresses(unsigned *out)
{
    unsigned t = threadIdx_x();
    out[t] = (unsigned)(unsigned long)&table[t];
}
