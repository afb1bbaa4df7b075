/* Source of the fuzz seeds (make_seeds.sh): two small kernels whose
 * parameters cover the DWARF type walk (pointer, const, typedef, enum,
 * float, 64-bit), data with a pointer (R_RISCV_32), address arithmetic
 * (HI20/LO12), static shared memory and a switch compiled to a jump
 * table (issue order and the shared-memory walk follow it). No library
 * calls, so the modules stay a few kilobytes. */
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

WS_KERNEL void seed_c(int *out, int k)
{
    int v = out[0];
    switch (k) {
    case 0: v = v * 3; break;
    case 1: v = v + 7; break;
    case 2: v = v ^ 5; break;
    case 3: v = v - 2; break;
    case 4: v = v << 1; break;
    case 5: tile[v & 7] = k; break;
    default: break;
    }
    out[1] = v;
}
