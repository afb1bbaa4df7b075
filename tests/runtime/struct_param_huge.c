/* A struct by value larger than kernels take (1024 bytes): refused at load. */
#include <warpscope/kernel.h>

typedef struct { int v[300]; } s_huge;

WS_KERNEL void k_huge(s_huge p, int *out) { out[threadIdx_x()] = p.v[299]; }
