/* Inside the rewriter: the input module as tables, the code model (one
 * entry per original instruction) and the address map old -> new. */
#ifndef WS_INSTRUMENT_REWRITE_INT_H
#define WS_INSTRUMENT_REWRITE_INT_H
#include <elf.h>
#include <stdarg.h>
#include "instrument/rewrite.h"
#include "isa/isa.h"

/* RISC-V relocation types the rewriter handles */
enum { R_32 = 1, R_BRANCH = 16, R_JAL = 17, R_CALL = 18, R_CALL_PLT = 19, R_PCREL_HI20 = 23,
       R_PCREL_LO12_I = 24, R_PCREL_LO12_S = 25, R_HI20 = 26, R_LO12_I = 27, R_LO12_S = 28,
       R_ADD8 = 33, R_ADD16 = 34, R_ADD32 = 35, R_SUB8 = 37, R_SUB16 = 38, R_SUB32 = 39,
       R_RVC_BRANCH = 44, R_RVC_JUMP = 45, R_RELAX = 51, R_32_PCREL = 57 };

typedef struct rw_sec {
    Elf32_Shdr sh;
    char name[64];
    uint8_t *bytes;        /* contents (owned copy; NULL for NOBITS)    */
    uint32_t new_addr;
} rw_sec;

typedef struct rw_rel {
    uint32_t sec;          /* section the relocation applies to          */
    uint32_t src;          /* the SHT_RELA section that holds it          */
    uint32_t place;        /* r_offset: an address for allocated sections,
                              a section offset for others               */
    uint32_t type, sym;
    int32_t addend;
    uint32_t value;        /* S + A at link time                         */
} rw_rel;

typedef struct rw_inst {
    uint32_t addr;         /* original address                            */
    ws_inst in;
    uint8_t leader;        /* a basic block starts here                    */
    uint8_t form;          /* control flow: 0 as is, 1 widened (RVC to 32-bit),
                              2 long (far-branch hint, inverted branch
                              over a jal: WS_HINT_FAR_BRANCH)             */
    uint8_t mem;           /* wsi_mem_kind or 0                            */
    uint8_t terminator;    /* ends its block                              */
    uint8_t ep;            /* entered from elsewhere: 1 a symbol or code pointer,
                              2 a kernel entry point                     */
    int32_t block;         /* block index, -1 for undecodable bytes        */
    int32_t pcrel;         /* PCREL_HI20/CALL relocation on this auipc, -1 */
    int32_t lo_of;         /* this instruction holds the low part of the pair
                              whose auipc is instruction lo_of, -1        */
    uint32_t target;       /* branch/jal target (original), or auipc pair target */
    uint32_t pre;          /* bytes inserted before it                    */
    uint32_t post;         /* bytes inserted after it (custom tools: after a load) */
    uint32_t start;        /* new address of the inserted code (= new_addr if none) */
    uint32_t new_addr;     /* new address of the instruction itself        */
} rw_inst;

typedef struct rw_ctx {
    const char *what;
    char *err;
    size_t errlen;
    wsi_mode mode;
    unsigned flags;               /* WSI_WARPS, WSI_CUSTOM */
    const wsi_custom *custom;     /* WSI_CUSTOM: the tool's function and points */
    uint32_t *bb_stub, *mem_stub; /* WSI_CUSTOM: each call site's stub         */
    uint32_t *mem_index;          /* WSI_CUSTOM: instruction -> memory-instruction id */
    uint32_t *after_stub, *branch_stub; /* WSI_CUSTOM: after a load / before a branch */
    uint32_t custom_common, custom_fn;
    const uint8_t *file;
    size_t file_size;
    Elf32_Ehdr eh;
    Elf32_Phdr *ph;
    uint32_t nph;
    rw_sec *secs;
    uint32_t nsecs;
    Elf32_Sym *syms;
    uint32_t nsyms, symtab;
    const char *strtab;
    uint32_t strtab_size;
    rw_rel *rels;
    uint32_t nrels;
    /* text: the executable segment, linearly decoded */
    uint32_t text_lo, text_hi;  /* original [lo, hi)                      */
    uint32_t text_ph;           /* its program header                     */
    rw_inst *insts;
    uint32_t ninsts;
    uint32_t new_text_hi;       /* end of the rewritten code, helpers included */
    uint32_t helper_addr;       /* first helper                           */
    uint32_t data_delta;        /* what every non-text loadable address moves by */
    uint32_t span_hi;           /* end of the original loadable span      */
    uint32_t ctl_addr, ctl_size;
    uint32_t code_end;          /* end of the moved original code         */
    uint32_t mem_helper[32];    /* RECORD mode: the helper for base register r */
    uint32_t bb_helper, gid_helper;
    struct value_helper {         /* WSI_VALUES: a helper per (base, value) pair */
        uint8_t base, value, fp;
        uint32_t addr;
    } *value_helpers;
    uint32_t nvalue_helpers;
    struct fast_mem_helper {      /* RECORD mode: a memory helper whose scratch */
        uint8_t base, t[3];       /* registers are dead at its call sites     */
        uint32_t addr;            /* (rewrite_scratch.c): nothing to save     */
    } *fast;
    uint32_t nfast;
    int32_t *inst_fast;           /* per instruction: its fast helper, or -1  */
    wsi_module_info *info;
} rw_ctx;

/* Index of the instruction starting at addr, or -1 (rewrite_scan.c). */
int32_t rw_inst_index(const rw_ctx *c, uint32_t addr);
/* Integer registers an instruction names (-1: that field is not one). */
void rw_int_regs(const ws_inst *in, int r[3]);
int rw_fail(rw_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Name of the function holding addr, for messages ("matmul+0x1c"). */
void rw_where(const rw_ctx *c, uint32_t addr, char *buf, size_t n);

int rw_read_elf(rw_ctx *c);                /* rewrite_elf_in.c   */
int rw_scan(rw_ctx *c);                    /* rewrite_scan.c     */
int rw_layout(rw_ctx *c);                  /* rewrite_layout.c   */
/* RECORD mode: memory helpers that need not save their scratch registers,
 * for the memory instructions of functions that leave three unnamed. */
int rw_plan_scratch(rw_ctx *c);            /* rewrite_scratch.c  */
/* The new address of an original address: instruction starts map to the
 * inserted code before them (so a branch there runs it), the text end to
 * the end of the rewritten code, other loadable addresses move with their
 * segment, the rest stays. -1 when addr is inside an instruction. */
int rw_map(const rw_ctx *c, uint32_t addr, uint32_t *out);
uint32_t rw_map_or_same(const rw_ctx *c, uint32_t addr);
/* rw_map, and for an address inside an instruction the same byte of the
 * moved instruction (GCC ends a variable's location range at a call's
 * last byte, one before the return address). */
int rw_map_byte(const rw_ctx *c, uint32_t addr, uint32_t *out);
int rw_emit_text(rw_ctx *c, uint8_t **text, uint32_t *size);   /* rewrite_emit.c */
/* rewrite_relocs.c: absolute references in the code, words in loadable
 * data and DWARF, symbols and section headers, the loader's relocations */
int rw_patch_code_refs(rw_ctx *c, uint8_t *text);
int rw_patch_data(rw_ctx *c);
int rw_move_symbols(rw_ctx *c);
int rw_rewrite_rela(rw_ctx *c);
int rw_patch_dwarf(rw_ctx *c);             /* rewrite_dwarf.c: line tables, lengths, list offsets */
int rw_move_cfi(rw_ctx *c);               /* rewrite_cfi.c: .debug_frame and .eh_frame rows */
/* What a compile unit's location or range lists need to be moved. */
typedef struct dw_list_owner {
    uint32_t base_addr;    /* the unit's base address (DW_AT_low_pc, else 0)        */
    uint32_t addr_base;    /* DW_AT_addr_base: its first .debug_addr word, or UINT32_MAX */
    uint32_t table[2];     /* DW_AT_loclists_base, DW_AT_rnglists_base, or UINT32_MAX */
    uint32_t first_ref[2]; /* its lowest offset into each section, or UINT32_MAX     */
} dw_list_owner;
struct dw_offset_map;
/* rewrite_dwarf_lists.c: rebuild .debug_loclists (rng 0) or .debug_rnglists
 * (rng 1) with moved ranges; *map gets each list's old and new offset. */
int rw_rebuild_lists(rw_ctx *c, rw_sec *s, int rng, const dw_list_owner *owners, uint32_t nowners,
                     struct dw_offset_map *map);
int rw_write_elf(rw_ctx *c, const uint8_t *text, uint32_t text_size, uint8_t **out, size_t *out_size);

/* Does the custom tool call its function at this block entry / memory
 * instruction? */
int rw_custom_at_block(const rw_ctx *c, const rw_inst *x);
int rw_custom_at_mem(const rw_ctx *c, const rw_inst *x);
int rw_custom_after_mem(const rw_ctx *c, const rw_inst *x);
int rw_custom_at_branch(const rw_ctx *c, const rw_inst *x);

/* Length of the inline warp-count sequence (COUNT mode with WSI_WARPS) */
enum { RW_COUNT_WARPS_LEN = 12, RW_COUNT_WARPS_WIDE_LEN = 18 };
/* Set the helpers' addresses as if written at `at`; returns their end. */
uint32_t rw_helpers_place(rw_ctx *c, uint32_t at);
/* Bytes an original instruction takes in the new code (widened or long). */
uint32_t rw_inst_size(const rw_inst *x);
/* The parts of the code inserted before x (WSI_INSERT_* bits, without
 * WSI_INSERT_AFTER): what decides its size. */
unsigned rw_inserted_parts(const rw_ctx *c, const rw_inst *x);
/* The same with WSI_INSERT_HOLD_HINT when the code starts with the hint. */
unsigned rw_inserted_what(const rw_ctx *c, const rw_inst *x);

/* RISC-V encoders */
uint32_t rv_i(uint32_t opc, uint32_t f3, uint32_t rd, uint32_t rs1, int32_t imm);
uint32_t rv_s(uint32_t opc, uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t imm);
uint32_t rv_u(uint32_t opc, uint32_t rd, uint32_t imm20);
uint32_t rv_b_imm(uint32_t raw, int32_t off);   /* replace a B-type offset */
uint32_t rv_j_imm(uint32_t raw, int32_t off);   /* replace a J-type offset */
uint16_t rv_cj_imm(uint16_t raw, int32_t off);  /* c.j / c.jal            */
uint16_t rv_cb_imm(uint16_t raw, int32_t off);  /* c.beqz / c.bnez        */
/* hi20/lo12 split of a PC-relative or absolute value */
static inline uint32_t rv_hi20(uint32_t v) { return (v + 0x800) >> 12; }
static inline int32_t rv_lo12(uint32_t v) { return (int32_t)(v - (rv_hi20(v) << 12)); }
uint32_t rv_set_i_imm(uint32_t raw, int32_t imm);
uint32_t rv_set_s_imm(uint32_t raw, int32_t imm);
uint32_t rv_set_u_imm(uint32_t raw, uint32_t imm20);

#endif
