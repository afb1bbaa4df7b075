/* The order in which a diverged warp issues its lanes' code
 * (docs/device.md, "SIMT execution and reconvergence"): the module's code
 * with each function's basic blocks in a topological order of its
 * control flow, loops kept together. Lanes that branched apart then meet
 * at the join, wherever the compiler placed the blocks. */
#ifndef WS_RUNTIME_ISSUE_ORDER_H
#define WS_RUNTIME_ISSUE_ORDER_H
#include <stddef.h>
#include <stdint.h>

/* Keys for the code text[0, size) that starts at address lo, given its
 * functions as [start, end) address pairs (ascending, inside the text)
 * and the addresses an indirect jump may go to, targets[0, ntargets)
 * (ascending: the code addresses the module's read-only data holds,
 * ws_code_pointers; an indirect jump other than a return goes to each of
 * its function's, a switch's jump table among them):
 * *keys gets one key per halfword, the position the instruction there
 * takes in the order, as an address in [lo, lo + size). *keys is NULL
 * when every key is its address (the blocks are in order already: the
 * usual case), and for code outside a function or a function whose
 * control flow is not understood (an indirect jump whose targets are
 * not among targets, an irreducible loop): those keep address order. *loop_ends gets, per
 * halfword, at each loop header's first instruction the key just past
 * the loop's blocks (contiguous in the order), else 0; NULL if no loop.
 * Returns 0, or -1 out of host memory. */
int ws_issue_order(const uint8_t *text, uint32_t lo, uint32_t size, const uint32_t *funcs, size_t nfuncs,
                   const uint32_t *targets, size_t ntargets, uint32_t **keys, uint32_t **loop_ends);
#endif
