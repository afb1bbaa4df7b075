#include <warpscope/kernel.h>

#define TILE 16

WS_SHARED float tile_a[TILE][TILE];
WS_SHARED float tile_b[TILE][TILE];

/* C = A x B for n x n matrices (n a multiple of TILE): each block computes
 * one TILE x TILE tile of C, staging tiles of A and B in shared memory.
 * The inner loop is unrolled 4 times, not 16: fully unrolled, the compiler
 * kept 32 precomputed addresses of tile_a and tile_b live across the outer
 * loop, more than the registers, and reloaded them from the stack (local
 * memory) at every step — the profile's main stall. The test
 * profiler.example_matmul_no_spill checks the loops stay off the stack. */
WS_KERNEL void matmul_tiled(const float *a, const float *b, float *c, int n)
{
    unsigned tx = threadIdx_x(), ty = threadIdx_y();
    unsigned row = blockIdx_y() * TILE + ty, col = blockIdx_x() * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        tile_a[ty][tx] = a[row * n + t + tx];
        tile_b[ty][tx] = b[(t + ty) * n + col];
        ws_syncthreads();
#pragma clang loop unroll_count(4)
        for (int i = 0; i < TILE; i++) acc += tile_a[ty][i] * tile_b[i][tx];
        ws_syncthreads();
    }
    c[row * n + col] = acc;
}
