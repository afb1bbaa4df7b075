/* Source of the fuzz seeds (make_seeds.sh): two small kernels whose
 * parameters cover the DWARF type walk (pointer, const, typedef, enum,
 * float, 64-bit), data with a pointer (R_RISCV_32), address arithmetic
 * (HI20/LO12) and static shared memory. No library calls, so the modules
 * stay a few kilobytes. */
#include <warpscope/kernel.h>

typedef unsigned short half_t;
enum mode { MODE_A, MODE_B = -2 };
static int values[2] = { 7, 9 };
int *value_ptr = &values[1];
int hits;
WS_SHARED int tile[8];

WS_KERNEL void seed_a(int *out, int n) { out[n] = *value_ptr + values[n & 1]; }
WS_KERNEL void seed_b(const float *in, float s, half_t h, long long w, enum mode m)
{
    tile[h & 7] = (int)(in[0] * s) + (int)w + (int)m;
    hits += tile[(h + 1) & 7];
}
