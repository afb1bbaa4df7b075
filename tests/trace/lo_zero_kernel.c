/* A kernel that reads a word through an auipc/addi pair whose low part is
 * 0 (lo_zero.S): the rewriter recomputes the pair for its new place,
 * and the instrumented passes must read the same word (trace.lo_zero_pair). */
#include <warpscope/kernel.h>

int load_page_word(void);

WS_KERNEL void page_word_of(int *out)
{
    out[ws_global_id_x()] = load_page_word();
}
