/* Epilogue CFI for a linked module (epilogue_cfi.c): clang 14 (and 19)
 * describe a RISC-V function's prologue only, so at a `ret` (after the
 * epilogue's reloads and `addi sp, sp, N`) the CFI still says CFA = sp+N
 * and ra at CFA-4, and gdb unwinds to a wrong caller. `warpscope cc` runs
 * this pass on every module it links: each FDE of .debug_frame gets the
 * rows of its function's epilogues, found by decoding the code. Only
 * .debug_frame and what points into it change (its relocations and
 * section symbols); no code moves. A function whose epilogue is not the
 * pattern is left as it was (docs/toolchain.md). */
#ifndef WS_INSTRUMENT_EPILOGUE_CFI_H
#define WS_INSTRUMENT_EPILOGUE_CFI_H
#include <stddef.h>
#include <stdint.h>

typedef struct wsi_cfi_report {
    unsigned functions;   /* FDEs of .debug_frame read                    */
    unsigned described;   /* functions given epilogue rows                */
    unsigned epilogues;   /* epilogues described                          */
    unsigned left;        /* functions left as they were                  */
    char first_left[384]; /* the first of those and why                   */
} wsi_cfi_report;

/* The module (size bytes of a RISC-V ELF executable, named what in
 * messages) with its epilogues described, in *out (malloc'd; the same
 * bytes when no function needed rows). 0, or -1 with a message in err
 * for a module that cannot be read. */
int wsi_epilogue_cfi(const void *elf, size_t size, const char *what, uint8_t **out, size_t *out_size,
                     wsi_cfi_report *rep, char *err, size_t errlen);

#endif
