/* The code addresses a module's read-only data holds, and which of them
 * an indirect jump may reach. A `switch` compiled to a jump table loads a
 * case's address from .rodata and jumps to it (`jr a1`); the loader's
 * issue order (issue_order.h) follows such a jump to the entries of its
 * table. */
#ifndef WS_RUNTIME_CODE_POINTERS_H
#define WS_RUNTIME_CODE_POINTERS_H
#include <gelf.h>
#include <stddef.h>
#include <stdint.h>
#include "isa/isa.h"

/* A word at address `at` of read-only data that holds code address `to`. */
typedef struct ws_code_pointer {
    uint32_t at, to;
} ws_code_pointer;

/* Every aligned word of e's allocated, read-only, non-executable
 * sections that, moved by delta (the module's placement minus its link
 * base), is an even address in [lo, hi), with its own address (also
 * moved): into *out (by `at`, malloc'd; NULL if none) and *n. Returns 0,
 * or -1 out of host memory. */
int ws_code_pointers(Elf *e, uint32_t delta, uint32_t lo, uint32_t hi, ws_code_pointer **out, size_t *n);

/* The index in p[0, np) (by `at`) of the word at address a that points
 * into the function [fa, fe) past its entry, or np. */
size_t ws_code_pointer_into(const ws_code_pointer *p, size_t np, uint32_t a, uint32_t fa, uint32_t fe);

/* The jump table an indirect jump reads, from the instructions before it
 * in its function, in[0, n) with their addresses pc[] (oldest first): the
 * nearest `lui` (or `auipc`) and later `addi` of its register, or load
 * offset, whose sum is the address of a word pointing into the function
 * [fa, fe) past its entry (`lui a2, %hi(T); addi a2, a2, %lo(T)`, or the
 * %lo folded into the `lw`). That word's index in p, or np if none. */
size_t ws_jump_table_at(const ws_inst *in, const uint32_t *pc, size_t n, const ws_code_pointer *p, size_t np,
                        uint32_t fa, uint32_t fe);
#endif
