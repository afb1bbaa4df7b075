/* Device side of the control-flow differential test: every thread runs the
 * generated phases, with a shared-memory exchange between them. */
#include <warpscope/kernel.h>
#include "cf_body.h"

WS_KERNEL void cf_main(const uint32_t *in, uint32_t *out)
{
    WS_SHARED uint32_t xch[CF_BLOCK];
    uint32_t tid = ws_global_id_x(), t = threadIdx_x(), x = 0;
    if (cf_phase_a(tid, in + tid * CF_IN, out + tid * CF_OUT, &x)) return;
    xch[t] = x;
    /* barriers are thread-level: lanes may wait at different ones */
    if (x & 1) {
        __syncthreads();
        x = xch[(t * 7 + 3) % blockDim_x()];
    } else {
        /* barrier 16 is barrier 0 (ids are mod 16); the nop keeps clang from
         * merging the two barriers into one */
        __asm__ volatile(".insn r 0x0B, 4, 0, x0, %0, x0\n nop" : : "r"(16) : "memory");
        x = xch[(t * 7 + 3) % CF_BLOCK] + 0;
    }
    cf_phase_b(tid, x, in + tid * CF_IN, out + tid * CF_OUT);
}
