/* Shared state of one ws_elf_parse call (elf_image.c + elf_dwarf.c). */
#ifndef WS_RUNTIME_ELF_INTERNAL_H
#define WS_RUNTIME_ELF_INTERNAL_H
#include <libelf.h>
#include <stddef.h>
#include <stdint.h>
#include "runtime/elf_image.h"

typedef struct ws_elf_ctx {
    const char *what;          /* file name for messages */
    char *err;
    size_t errlen;
    uint8_t *data;             /* private copy of the file */
    size_t size;
    Elf *elf;
    size_t shstrndx;
    Elf_Scn *symtab;
    size_t strtab_idx, shared_idx, kernel_idx;
    size_t vertex_idx, fragment_idx;   /* shader sections (0: none) */
    int sysvals_mark;                  /* WS_SYSVALS_SECTION is present */
    uint64_t kernel_lo, kernel_hi;
    uint32_t kcap, rcap;
    /* absolute references into the shared window: where, and which bytes */
    struct ws_shared_ref { uint32_t place, lo, hi; } *shrefs;
    uint32_t nshrefs, shrefcap;
} ws_elf_ctx;

int ws_elf_fail(ws_elf_ctx *cx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Fill in each kernel's parameters from DWARF (has_params stays 0 for a
 * kernel DWARF does not describe). */
int ws_elf_read_params(ws_elf_ctx *cx, ws_elf_image *img);
/* Record a reference at `place` to shared address `value` (elf_shared_use.c). */
int ws_elf_note_shared_ref(ws_elf_ctx *cx, const ws_elf_image *img, uint32_t place, uint32_t value);
/* Set each kernel's shared_lo/shared_hi from the references its code reaches. */
int ws_elf_kernel_shared(ws_elf_ctx *cx, ws_elf_image *img);
#endif
