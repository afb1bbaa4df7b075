#include <warpscope/kernel.h>

#define PER_BLOCK 512

WS_SHARED int temp[PER_BLOCK];

/* Exclusive scan of PER_BLOCK elements per block (work-efficient
 * up-sweep/down-sweep in shared memory, two elements per thread). Writes
 * each block's total to block_sums unless it is NULL. Thread t moves
 * elements t and t + PER_BLOCK / 2 in and out: neighbouring lanes touch
 * neighbouring words (2t and 2t + 1 would fetch every sector twice). */
WS_KERNEL void scan_blocks(const int *in, int *out, int *block_sums, int n)
{
    unsigned t = threadIdx_x(), base = blockIdx_x() * PER_BLOCK;
    unsigned i0 = t, i1 = t + PER_BLOCK / 2;
    temp[i0] = base + i0 < (unsigned)n ? in[base + i0] : 0;
    temp[i1] = base + i1 < (unsigned)n ? in[base + i1] : 0;

    unsigned offset = 1;
    for (unsigned d = PER_BLOCK / 2; d > 0; d /= 2) {   /* up-sweep */
        ws_syncthreads();
        if (t < d) {
            unsigned ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (t == 0) {
        if (block_sums) block_sums[blockIdx_x()] = temp[PER_BLOCK - 1];
        temp[PER_BLOCK - 1] = 0;
    }
    for (unsigned d = 1; d < PER_BLOCK; d *= 2) {        /* down-sweep */
        offset /= 2;
        ws_syncthreads();
        if (t < d) {
            unsigned ai = offset * (2 * t + 1) - 1, bi = offset * (2 * t + 2) - 1;
            int v = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += v;
        }
    }
    ws_syncthreads();
    if (base + i0 < (unsigned)n) out[base + i0] = temp[i0];
    if (base + i1 < (unsigned)n) out[base + i1] = temp[i1];
}

/* Add each block's scanned offset to its elements, t and t + PER_BLOCK / 2
 * (coalesced, as in scan_blocks). */
WS_KERNEL void scan_add(int *out, const int *block_offsets, int n)
{
    unsigned t = threadIdx_x(), base = blockIdx_x() * PER_BLOCK;
    int add = block_offsets[blockIdx_x()];
    if (base + t < (unsigned)n) out[base + t] += add;
    if (base + t + PER_BLOCK / 2 < (unsigned)n) out[base + t + PER_BLOCK / 2] += add;
}
