/* A minimal module: two kernels, a pointer in data, address arithmetic,
 * one shared array, no library calls. Linked alone (no device library or
 * picolibc) into the tiny modules of the malformed-input tests and the
 * seeds of the fuzz corpus (fuzz/module/corpus). */
#include <warpscope/kernel.h>

typedef unsigned short half_t;
static int values[2] = { 7, 9 };
int *value_ptr = &values[1];
int hits;
WS_SHARED int tile[8];

WS_KERNEL void small(int *out, int n) { out[n] = *value_ptr + values[n & 1]; }
WS_KERNEL void small2(const float *in, float s, half_t h, long long w, char c)
{
    tile[h & 7] = (int)(in[0] * s) + (int)w + c;
    hits += tile[(h + 1) & 7];
}
