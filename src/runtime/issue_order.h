/* The order in which a diverged warp issues its lanes' code
 * (docs/device.md, "SIMT execution and reconvergence"): the module's code
 * with each function's basic blocks in a topological order of its
 * control flow, loops kept together. Lanes that branched apart then meet
 * at the join, wherever the compiler placed the blocks. */
#ifndef WS_RUNTIME_ISSUE_ORDER_H
#define WS_RUNTIME_ISSUE_ORDER_H
#include <stddef.h>
#include <stdint.h>
#include "runtime/code_pointers.h"

/* Keys for the code text[0, size) that starts at address lo, given its
 * functions as [start, end) address pairs (ascending, inside the text)
 * and the code pointers in the module's read-only data, ptrs[0, nptrs)
 * (by address, ws_code_pointers): an indirect jump other than a return
 * goes to the entries of the jump table it reads (ws_jump_table_at), or
 * where none is found, to every code pointer into its function.
 * *keys gets one key per halfword, the position the instruction there
 * takes in the order, as an address in [lo, lo + size). *keys is NULL
 * when every key is its address (the blocks are in order already: the
 * usual case), and for code outside a function or a function whose
 * control flow is not understood (an indirect jump to an address no
 * read-only data holds, more than 2048 blocks): those keep address
 * order. An irreducible loop is ordered but not kept together, and has
 * no loop end.
 * *loop_ends gets, per halfword, at each loop header's first
 * instruction the key just past the loop's blocks (contiguous in the
 * order), else 0; NULL if no loop. Returns 0, or -1 out of host memory. */
int ws_issue_order(const uint8_t *text, uint32_t lo, uint32_t size, const uint32_t *funcs, size_t nfuncs,
                   const ws_code_pointer *ptrs, size_t nptrs, uint32_t **keys, uint32_t **loop_ends);

/* The functions (as for ws_issue_order) that hold a warp vote, shuffle
 * or barrier of their own but keep address order, their control flow not
 * followed: lanes that branch apart in them may vote or shuffle apart.
 * Their starts into out[0, max), how many there are in *n (all of them,
 * also past max). For `warpscope cc`'s warning. 0, or -1 out of host
 * memory. */
int ws_issue_unfollowed(const uint8_t *text, uint32_t lo, uint32_t size, const uint32_t *funcs, size_t nfuncs,
                        const ws_code_pointer *ptrs, size_t nptrs, uint32_t *out, size_t max, size_t *n);
#endif
