/* The binary rewriter: reads a kernel module (ELF from `warpscope cc`, with
 * its --emit-relocs relocations and DWARF) and writes a new module in which
 * instrumentation is ordinary RV32 code. The device does not know. See
 * docs/tracing.md for the inserted sequences and what is remapped.
 *
 * Registers: the instrumentation owns gp (x3) and tp (x4), which the ABI
 * reserves and no module the toolchain builds uses (no linker relaxation,
 * no TLS); a module that reads or writes them is refused. */
#ifndef WS_INSTRUMENT_REWRITE_H
#define WS_INSTRUMENT_REWRITE_H
#include <stddef.h>
#include <stdint.h>

/* What the inserted code does. */
typedef enum wsi_mode {
    WSI_COUNT,   /* pass 1: per block, count lane executions (3 instructions) */
    WSI_RECORD   /* pass 2: block-entry and memory records through helpers    */
} wsi_mode;

/* What else the inserted code records (both modes must agree). */
enum {
    WSI_WARPS = 1,   /* per-warp records: COUNT counts warp entries per block too,
                        RECORD writes {warp, active mask, site} at each block entry */
    WSI_CUSTOM = 2,  /* RECORD: only a custom tool's calls (wsi_custom), no
                        block or memory records */
    WSI_NO_BLOCKS = 4, /* RECORD: memory records only (memtrace) */
    WSI_WIDE_COUNTS = 16, /* COUNT: counters carry into their high words
                            (two more instructions per block entry and a
                            branch: used when a launch may wrap 32 bits) */
    WSI_VALUES = 8     /* RECORD: stores and atomics also record the value
                          register (word 3 of the memory record) */
};

/* A custom tool (include/warpscope/trace.h, ws_trace_tool): where to call
 * its device function, and the function's code (self-contained: checked). */
typedef struct wsi_custom {
    unsigned where;           /* WS_TRACE_AT_BLOCK_ENTRY | WS_TRACE_BEFORE_*   */
    const uint8_t *code;      /* the function's bytes                          */
    uint32_t size;
    uint32_t link_addr;       /* where it was linked (for messages)           */
    int uses_fp;              /* it has float instructions: save FP registers */
    uint32_t slot_shift;      /* log2 of a record slot: 8-byte header + payload */
    uint32_t loop_at;         /* its first branch or jump backwards (a loop), 0: none */
    uint32_t branch_at;       /* its first conditional branch forwards, 0: none */
} wsi_custom;

typedef enum wsi_mem_kind { WSI_LOAD = 1, WSI_STORE = 2, WSI_ATOMIC = 3 } wsi_mem_kind;

/* A basic block of the original module (addresses are link-time, original). */
typedef struct wsi_block {
    uint32_t addr;        /* first instruction                      */
    uint32_t end;         /* one past the last                      */
    uint32_t last;        /* address of its last instruction        */
    uint32_t ninst;       /* original instructions in it            */
    uint32_t first_mem;   /* index of its first memory instruction  */
    uint32_t ncustom;     /* WSI_CUSTOM: calls of the tool per execution   */
    uint32_t nmem;        /* memory instructions in it              */
    int32_t taken, fall;  /* a conditional branch ends it: the blocks it goes to
                             when taken and when not (-1: none)     */
} wsi_block;

typedef struct wsi_mem_inst {
    uint32_t addr;        /* original address                        */
    uint32_t block;
    uint8_t kind;         /* wsi_mem_kind                            */
    uint8_t size;         /* bytes accessed per lane                 */
    uint8_t base;         /* rs1                                     */
    int32_t imm;          /* the record holds rs1; address = rs1 + imm */
} wsi_mem_inst;

/* The control area the inserted code uses (in a NOBITS section `.ws_trace`
 * of the rewritten module, written by the host before each pass). All
 * fields are 32-bit words at these byte offsets. */
enum {
    WSI_CTL_BB_NEXT = 0,   /* block records reserved so far (atomic bump);
                              more than the capacity: the buffer overflowed */
    WSI_CTL_BB_CAP = 4,    /* capacity in records                          */
    WSI_CTL_BB_BASE = 8,   /* device address of the block-record buffer    */
    WSI_CTL_MEM_NEXT = 12,
    WSI_CTL_MEM_CAP = 16,
    WSI_CTL_MEM_BASE = 20,
    WSI_CTL_RESERVED = 24,
    WSI_CTL_NCTA_X = 28,   /* grid width, and width*height (host-written)  */
    WSI_CTL_NCTA_XY = 32,
    WSI_CTL_TPB = 36,      /* threads per block                            */
    WSI_CTL_WARP_NEXT = 40,
    WSI_CTL_WARP_CAP = 44,
    WSI_CTL_WARP_BASE = 48,
    WSI_CTL_WPB = 52,      /* warps per block                              */
    WSI_CTL_CUSTOM_NEXT = 80, /* a custom tool's records                   */
    WSI_CTL_CUSTOM_CAP = 84,
    WSI_CTL_CUSTOM_BASE = 88,
    WSI_CTL_HEADER = 256,  /* pass-1 counters follow: per block, lane
                              executions and warp executions, each 64-bit
                              (low word first; the high words stay 0
                              without WSI_WIDE_COUNTS)                     */
    WSI_CTL_COUNTER_SIZE = 16
};

enum { WSI_BB_RECORD_SIZE = 8, WSI_MEM_RECORD_SIZE = 16, WSI_WARP_RECORD_SIZE = 16 };

/* What a stretch of the rewritten module's code is (wsi_inserted.what):
 * inserted code, by the parts it holds, or one of the module's own
 * branches in a longer form. */
enum {
    WSI_INSERT_HELPERS = 1,  /* the helpers, below all other code             */
    WSI_INSERT_HOLD_HINT = 256, /* at a block's head, first: the hold hint     */
    WSI_INSERT_ENTRY = 2,    /* at a function entry: COUNT sets tp = 1; RECORD, at a
                                kernel entry, computes the thread's global id */
    WSI_INSERT_BLOCK = 4,    /* at a block's head, after the hold hint: COUNT its
                                counters; RECORD its block (and warp) record */
    WSI_INSERT_MEMORY = 8,   /* before a load, store or atomic: its record     */
    WSI_INSERT_BRANCH = 16,  /* custom tools: before a conditional branch      */
    WSI_INSERT_AFTER = 32,   /* custom tools: after a load (it sits after it)  */
    WSI_REWRITTEN_WIDE = 64, /* the module's own branch or jump, RVC widened   */
    WSI_REWRITTEN_FAR = 128  /* the module's own branch in its far form: hint,
                                inverted branch, jal (run as the one branch)  */
};

typedef struct wsi_inserted {
    uint32_t lo, hi;         /* link addresses in the rewritten module, [lo, hi) */
    uint32_t orig;           /* the original instruction it is inserted before
                                (after: WSI_INSERT_AFTER; is: WSI_REWRITTEN_*);
                                0 for the helpers                             */
    uint32_t orig_new;       /* where that instruction is in the rewritten module */
    unsigned what;           /* WSI_INSERT_* | WSI_REWRITTEN_* bits            */
} wsi_inserted;

/* The static description of a module, the same for both modes. */
typedef struct wsi_module_info {
    wsi_block *blocks;
    uint32_t nblocks;
    wsi_mem_inst *mems;
    uint32_t nmems;
    uint32_t ninsts;          /* original instructions decoded            */
    uint32_t link_base;       /* the original module's link base          */
    uint32_t ctl_addr;        /* link address of the control area in the
                                 rewritten module                         */
    uint32_t ctl_size;
    uint32_t old_text_end, new_text_end;
    uint32_t data_delta;      /* what every non-code address moved by      */
    /* WSI_RECORD: a record names its call site by the return address the
     * helper was called with (link address in the rewritten module): */
    uint32_t *bb_site;        /* per block                                */
    uint32_t *mem_site;       /* per memory instruction                   */
    /* Where the original instructions lie in the rewritten module's code
     * (link addresses, [lo, hi) pairs, ascending, adjacent ones merged):
     * everything else of its text is inserted code. The tracer hands it to
     * the device, which leaves inserted instructions out of a warp's
     * quantum (device.md, Scheduling). */
    uint32_t *orig_ranges;    /* 2 * norig words                           */
    uint32_t norig;
    /* Every stretch of inserted code and every original branch that
     * changed form, in address order (`warpscope instrument --list`). */
    wsi_inserted *inserted;
    uint32_t ninserted;
} wsi_module_info;

/* Rewrite `elf` (size bytes, named `what` in messages). On success *out is
 * a malloc'd ELF image and *info is filled (free with wsi_info_free).
 * Returns 0, or -1 with a message naming the function and address. */
int wsi_rewrite(const void *elf, size_t size, const char *what, wsi_mode mode, unsigned flags, uint8_t **out,
                size_t *out_size, wsi_module_info *info, char *err, size_t errlen);
/* The same, for a custom tool's recording twin (flags include WSI_CUSTOM). */
int wsi_rewrite_custom(const void *elf, size_t size, const char *what, unsigned flags, const wsi_custom *custom,
                       uint8_t **out, size_t *out_size, wsi_module_info *info, char *err, size_t errlen);
/* Find `name` in a module built by warpscope cc and check that it can be
 * copied into other modules: all its control flow stays inside it, it
 * names no data, and it leaves gp and tp alone. Fills *out (code points
 * into elf). Returns 0, or -1 with a message naming what it found. */
int wsi_custom_function(const void *elf, size_t size, const char *what, const char *name, wsi_custom *out,
                        char *err, size_t errlen);
void wsi_info_free(wsi_module_info *info);

#endif
