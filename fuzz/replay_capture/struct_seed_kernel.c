/* Kernel of the struct seeds (make_seeds.sh): a struct by value in
 * registers and one passed as the address of each lane's copy, no library
 * calls, so the module stays a few kilobytes. */
#include <warpscope/kernel.h>

typedef struct pair {
    float x;
    int n;
} pair;
typedef struct big {
    int v[5];
    float f;
} big;

WS_KERNEL void seed_structs(int *out, pair p, big b)
{
    unsigned t = threadIdx_x();
    out[t] = (int)p.x + p.n + b.v[t % 5] + (int)b.f;
}
