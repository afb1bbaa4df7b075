/* The rows one function's epilogues need (epilogue_rows.c): clang's CFI
 * for RISC-V describes the prologue only, so from the first reload of a
 * saved register to the return it still names the stack slots and the
 * CFA the epilogue is taking down. */
#ifndef WS_INSTRUMENT_EPILOGUE_ROWS_H
#define WS_INSTRUMENT_EPILOGUE_ROWS_H
#include <stddef.h>
#include <stdint.h>
#include "instrument/cfi_entries.h"

typedef struct epi_fn {
    const cfi_cie *cie;
    const uint8_t *rows, *rows_end; /* the FDE's instructions               */
    uint32_t lo, hi;                /* the code it covers                   */
    const uint8_t *code;            /* the bytes of [lo, hi)                */
} epi_fn;

typedef struct epi_out {
    uint32_t keep;      /* bytes of the FDE's instructions to keep (its
                           trailing padding dropped); the rows follow them */
    unsigned epilogues; /* epilogues described                              */
    char why[160];      /* when left as it is: the first reason             */
} epi_out;

/* 0: add holds the rows to append after the first out->keep bytes (none
 * when the function needs none); 1: the function is left as it is (an
 * epilogue that is not the pattern, out->why says where); -1: host memory
 * ran out. */
int epi_rows(const epi_fn *f, dw_buf *add, epi_out *out);

#endif
