/* Reading a kernel module: a RISC-V ELF executable linked by the kernel
 * toolchain (kernel/warpscope.ld) with --emit-relocs, so that it can be
 * placed anywhere in the device's global memory. Uses elfutils libelf for
 * the ELF structure and libdw for the kernels' parameter types (DWARF).
 * Untrusted input: every offset and size is checked; errors name the file
 * and what was wrong, never crash. */
#ifndef WS_ELF_IMAGE_H
#define WS_ELF_IMAGE_H
#include <stddef.h>
#include <stdint.h>

typedef enum ws_param_kind {
    WS_PARAM_I8, WS_PARAM_U8, WS_PARAM_I16, WS_PARAM_U16,
    WS_PARAM_I32, WS_PARAM_U32, WS_PARAM_I64, WS_PARAM_U64,
    WS_PARAM_F32, WS_PARAM_F64, WS_PARAM_PTR,
    WS_PARAM_AGG         /* a struct or union by value (ws_elf_agg)          */
} ws_param_kind;

/* How the ilp32f calling convention passes a struct or union by value
 * (elf_dwarf_agg.c). */
typedef struct ws_elf_agg {
    uint32_t size, align;  /* bytes; alignment (1 for a packed struct)      */
    /* fp: a struct of one float, two floats, or a float and an integer of
     * at most 4 bytes (nested structs and arrays flattened): passed as
     * those fields, the floats in fa registers and the integer in an a
     * register, while enough of both are left; otherwise, and for every
     * other aggregate, by the integer convention: up to 8 bytes in one or
     * two a registers (or on the stack), larger ones as the address of a
     * copy the caller makes */
    uint8_t fp, nfields;
    struct { uint8_t is_float, offset, size; } field[2];
} ws_elf_agg;

/* Passed as the address of each lane's own copy on its stack (more than
 * 8 bytes; a struct for fa registers is never larger). */
static inline int ws_elf_agg_by_reference(const ws_elf_agg *g) { return g->size > 8; }

typedef struct ws_elf_param {
    char *name;          /* parameter name from DWARF ("" if unnamed)       */
    char *type_name;     /* C spelling, e.g. "const float *", "int"         */
    ws_param_kind kind;
    int is_bool;         /* _Bool: a U8 that takes only 0 or 1               */
    uint32_t bits;       /* _BitInt(N): N, when DWARF or the declaration in
                            the source says it; 0: the kind's full width    */
    /* pointers: what they point to, typedefs and qualifiers peeled
     * (pointee_size 0 = void, a struct, or unknown) */
    int pointee_float;
    int pointee_unsigned;
    uint32_t pointee_size;
    /* pointers: bytes of what they point to, structs included (0: unknown
     * or void), and whether that is a struct of floats only (shaders) */
    uint32_t pointee_bytes;
    int pointee_all_float;
    ws_elf_agg agg;      /* WS_PARAM_AGG                                      */
} ws_elf_param;

/* What a function in the module is: a kernel, or a shader stage. */
typedef enum ws_func_kind { WS_FUNC_KERNEL = 0, WS_FUNC_VERTEX, WS_FUNC_FRAGMENT } ws_func_kind;

typedef struct ws_elf_kernel {
    char *name;
    ws_func_kind kind;   /* kernel, vertex or fragment shader (its section)  */
    uint32_t ret_bytes;  /* size of the returned type (0: void), from DWARF  */
    int ret_all_float;   /* ... and it is floats only                        */
    uint32_t entry;      /* link-time address of the function                */
    uint32_t body;       /* link-time address past the prologue (= entry if
                            the line table does not say)                    */
    uint32_t size;       /* st_size of the symbol                            */
    int has_params;      /* 1 if DWARF described the parameters             */
    uint32_t nparams;
    ws_elf_param *params;
    uint32_t shared_lo;  /* the static shared memory the kernel's code uses:  */
    uint32_t shared_hi;  /* window offsets [lo, hi), lo 16-aligned; 0,0 = none */
    uint32_t shared_all_pc; /* link address of the indirect jump or call for
                               which the kernel reserves the module's whole
                               static shared memory (0: none met)        */
    char *decl_file;     /* source file and line of the definition, if known */
    uint32_t decl_line;
    uint32_t foreign_csr; /* a shader: the first system value of the other
                             stage its code reads (a WS_CSR_GFX_* number;
                             0: none), and the link address of the read  */
    uint32_t foreign_pc;
    int foreign_always;   /* 1: that read is on every path from the entry
                             (pipelines refuse the shader); 0: on some
                             path only (it faults if it runs)             */
    uint32_t discard_pc;  /* a vertex shader: the link address of a
                             ws_discard() call on every path (refused); 0 */
} ws_elf_kernel;

/* The loadable image: one contiguous span [link_base, link_base + size)
 * covering every PT_LOAD segment except the shared-memory segment. */
typedef struct ws_elf_image {
    uint32_t link_base;          /* lowest address of the span                     */
    uint32_t size;               /* span size in bytes (page-rounded)              */
    uint8_t *bytes;              /* span contents at link addresses (bss zeroed)   */
    uint8_t *writable;           /* per 8-byte granule: 1 if a writable segment covers it,
                                    0 if read-only/executable; size/8 entries       */
    uint32_t text_start, text_end; /* span of executable segments                  */
    uint32_t tls_start, tls_size, tls_filesz; /* the PT_TLS template (errno): each lane
                                    gets a copy at the top of its stack; size 0: none */
    uint32_t shared_static_size; /* size of the .ws_shared section (0 if none)     */
    int legacy_sysvals;          /* shaders built before WS_SYSVALS_SECTION: a
                                    vertex shader reads its vertex index at
                                    WS_CSR_GFX_SYS0 and is not checked      */
    uint32_t nkernels;
    ws_elf_kernel *kernels;
    /* Absolute relocations still to apply when the image moves by delta:
     * for each, the link-time place and the relocation type. Only types whose
     * value depends on the load address are kept (R_RISCV_32, HI20, LO12_I,
     * LO12_S); PC-relative ones are position independent. Relocations against
     * the shared window or absolute symbols are dropped at parse time. */
    uint32_t nrelocs;
    struct ws_elf_reloc { uint32_t place; uint32_t type; uint32_t value; } *relocs;
                                 /* value = S + A at link time */
} ws_elf_image;

/* Parse an ELF module held in memory. `what` names it in error messages
 * (a file path, or "<memory>"). On failure returns -1 and writes a message
 * such as "kernel.elf: section header 7 extends past end of file (offset
 * 0x1234 + 0x80 > 0x1200)" into err. */
int ws_elf_parse(const void *data, size_t size, const char *what,
                 ws_elf_image *out, char *err, size_t errlen);

/* Rewrite img->bytes for placement at new_base (applies every kept
 * relocation with delta = new_base - link_base). Call at most once. Returns
 * 0, or -1 with a message if a relocated value no longer fits. */
int ws_elf_relocate(ws_elf_image *img, uint32_t new_base, char *err, size_t errlen);

void ws_elf_free(ws_elf_image *img);

/* Look a kernel up by name; NULL if absent. */
const ws_elf_kernel *ws_elf_find_kernel(const ws_elf_image *img, const char *name);

const char *ws_param_kind_name(ws_param_kind k);

#endif
