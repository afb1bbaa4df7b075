/* Device side: every thread runs the test function on its own state block. */
#include <warpscope/kernel.h>
#include "diff_state.h"

void DIFF_FN(uint32_t *state);

WS_KERNEL void diff_main(uint32_t *states)
{
    DIFF_FN(states + DIFF_WORDS * ws_global_id_x());
}
