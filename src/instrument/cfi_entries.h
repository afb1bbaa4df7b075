/* Reading the entries of a call frame section (.debug_frame, .eh_frame):
 * CIEs, entry headers, the operands of CFA opcodes, and writing an
 * advance. Shared by the instrumentation rewriter, which moves every FDE's
 * rows (rewrite_cfi.c), and the epilogue pass of `warpscope cc`, which
 * adds rows (epilogue_cfi.c). The input may be untrusted: every read is
 * bounded, and a failure is described in the caller's buffer. */
#ifndef WS_INSTRUMENT_CFI_ENTRIES_H
#define WS_INSTRUMENT_CFI_ENTRIES_H
#include <stddef.h>
#include <stdint.h>
#include "instrument/rewrite_dwarf_io.h"

enum { CFA_ADVANCE = 0x40, CFA_OFFSET = 0x80, CFA_RESTORE = 0xc0 };
enum { CFA_NOP, CFA_SET_LOC, CFA_ADVANCE1, CFA_ADVANCE2, CFA_ADVANCE4 };
enum { CFA_REMEMBER_STATE = 0x0a, CFA_RESTORE_STATE = 0x0b, CFA_DEF_CFA = 0x0c, CFA_DEF_CFA_OFFSET = 0x0e };
enum { PE_ABS = 0x00, PE_UDATA4 = 0x03, PE_SDATA4 = 0x0b, PE_PCREL = 0x10, PE_OMIT = 0xff };

/* A CIE: what its FDEs need to be read and moved. */
typedef struct cfi_cie {
    uint32_t off;                 /* in its section                          */
    uint32_t caf;                 /* code alignment factor                   */
    uint8_t enc;                  /* .eh_frame: the FDEs' address encoding   */
    uint8_t z;                    /* FDEs carry augmentation data            */
    uint8_t plain;                /* augmentation "", "z" or "zR": expressible
                                     in .debug_frame                         */
    uint64_t ra;                  /* return address column                   */
    int64_t daf;                  /* data alignment factor                   */
    const uint8_t *init, *init_end; /* its initial instructions            */
    uint32_t moved_off;           /* the rewriter's: an .eh_frame CIE's copy in
                                     .debug_frame, or UINT32_MAX            */
} cfi_cie;

/* One call frame section being read. */
typedef struct cfi_text {
    const char *what;             /* the module, first in messages           */
    const char *name;             /* ".debug_frame" or ".eh_frame"           */
    const uint8_t *start;         /* its bytes                               */
    uint32_t size, addr;          /* .eh_frame: its address                  */
    int eh;
    char *err;                    /* where a failure is described            */
    size_t errlen;
} cfi_text;

/* "WHAT: NAME+0xOFF: why" into s->err; returns -1. */
int cfi_bad_at(const cfi_text *s, const uint8_t *p, const char *why);
/* An address in .eh_frame's encoding at r (for PC-relative ones, its own
 * original address is the base); .debug_frame's are 4-byte absolute. */
int cfi_read_ptr(const cfi_text *s, dw_reader *r, uint8_t enc, int is_range, uint32_t *out);
/* The CIE whose body (after its id) r holds, ending at end. */
int cfi_read_cie(const cfi_text *s, dw_reader *r, uint32_t off, const uint8_t *end, cfi_cie *out);
/* One entry's header: its length (r then holds the entry, after its id)
 * and its id. 1 at the end of the section (or a zero terminator). */
int cfi_entry(const cfi_text *s, dw_reader *whole, dw_reader *r, uint32_t *off, uint32_t *id);
/* Skip the operands of a CFA opcode other than an advance or set_loc:
 * 0, or -1 for an opcode not known here. */
int cfi_skip_operands(dw_reader *r, uint8_t op);
/* An advance of d code units, in the shortest form. */
int cfi_put_advance(dw_buf *b, uint32_t d);

#endif
