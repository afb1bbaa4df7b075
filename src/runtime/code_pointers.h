/* The code addresses a module's read-only data holds: what its indirect
 * jumps may reach. A `switch` compiled to a jump table loads a case's
 * address from .rodata and jumps to it (`jr a1`); the loader's issue
 * order (issue_order.h) follows such a jump to each of these that lies
 * in the jumping function. */
#ifndef WS_RUNTIME_CODE_POINTERS_H
#define WS_RUNTIME_CODE_POINTERS_H
#include <gelf.h>
#include <stddef.h>
#include <stdint.h>

/* Every aligned word of e's allocated, read-only, non-executable
 * sections that, moved by delta (the module's placement minus its link
 * base), is an even address in [lo, hi): into *out (ascending, each once,
 * malloc'd; NULL if none) and *n. Returns 0, or -1 out of host memory. */
int ws_code_pointers(Elf *e, uint32_t delta, uint32_t lo, uint32_t hi, uint32_t **out, size_t *n);
#endif
