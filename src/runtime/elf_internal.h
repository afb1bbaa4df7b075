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
    uint64_t kernel_lo, kernel_hi;
    uint32_t kcap, rcap;
} ws_elf_ctx;

int ws_elf_fail(ws_elf_ctx *cx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Fill in each kernel's parameters from DWARF (has_params stays 0 for a
 * kernel DWARF does not describe). */
int ws_elf_read_params(ws_elf_ctx *cx, ws_elf_image *img);
#endif
