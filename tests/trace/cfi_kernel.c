/* A kernel that calls spill_many (cfi_frames.S), whose call frame rows
 * the rewriter must move with the code: trace.rewrite_roundtrip. */
#include <warpscope/kernel.h>

void spill_many(int a, int b, int c, int d);

WS_KERNEL void calls_spill_many(int *out)
{
    unsigned i = ws_global_id_x();
    spill_many((int)i, 1, 2, 3);
    out[i] = (int)i;
}
