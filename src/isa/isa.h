/* RV32IMAFC + Zicsr + SIMT: decoded instruction form, decoder, disassembler.
 * Compressed instructions decode to the same ops as their 32-bit expansions
 * (len says 2 or 4). */
#ifndef WS_ISA_H
#define WS_ISA_H
#include <stddef.h>
#include <stdint.h>

typedef enum ws_op {
    OP_ILLEGAL = 0,
    /* RV32I */
    OP_LUI, OP_AUIPC, OP_JAL, OP_JALR,
    OP_BEQ, OP_BNE, OP_BLT, OP_BGE, OP_BLTU, OP_BGEU,
    OP_LB, OP_LH, OP_LW, OP_LBU, OP_LHU,
    OP_SB, OP_SH, OP_SW,
    OP_ADDI, OP_SLTI, OP_SLTIU, OP_XORI, OP_ORI, OP_ANDI, OP_SLLI, OP_SRLI, OP_SRAI,
    OP_ADD, OP_SUB, OP_SLL, OP_SLT, OP_SLTU, OP_XOR, OP_SRL, OP_SRA, OP_OR, OP_AND,
    OP_FENCE, OP_FENCE_I, OP_ECALL, OP_EBREAK,
    /* Zicsr: imm holds the CSR number; for the *I forms rs1 holds the uimm */
    OP_CSRRW, OP_CSRRS, OP_CSRRC, OP_CSRRWI, OP_CSRRSI, OP_CSRRCI,
    /* M */
    OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU, OP_DIV, OP_DIVU, OP_REM, OP_REMU,
    /* A (aq/rl bits are ignored: the device is sequentially consistent) */
    OP_LR_W, OP_SC_W, OP_AMOSWAP_W, OP_AMOADD_W, OP_AMOXOR_W, OP_AMOAND_W,
    OP_AMOOR_W, OP_AMOMIN_W, OP_AMOMAX_W, OP_AMOMINU_W, OP_AMOMAXU_W,
    /* Zacas: rd holds the value compared (and receives the old one), rs2
     * the value stored; .d names even register pairs (rd, rd + 1), low
     * word first, x0 as a pair of zeros that is never written */
    OP_AMOCAS_W, OP_AMOCAS_D,
    /* F: rm holds the rounding-mode field (7 = dynamic) */
    OP_FLW, OP_FSW,
    OP_FMADD_S, OP_FMSUB_S, OP_FNMSUB_S, OP_FNMADD_S,
    OP_FADD_S, OP_FSUB_S, OP_FMUL_S, OP_FDIV_S, OP_FSQRT_S,
    OP_FSGNJ_S, OP_FSGNJN_S, OP_FSGNJX_S, OP_FMIN_S, OP_FMAX_S,
    OP_FCVT_W_S, OP_FCVT_WU_S, OP_FMV_X_W, OP_FEQ_S, OP_FLT_S, OP_FLE_S,
    OP_FCLASS_S, OP_FCVT_S_W, OP_FCVT_S_WU, OP_FMV_W_X,
    /* SIMT (custom-0, see include/warpscope/abi.h) */
    OP_TMC, OP_WSPAWN, OP_SPLIT, OP_JOIN, OP_BAR, OP_PRED,
    OP_VOTE_ALL, OP_VOTE_ANY, OP_VOTE_UNI, OP_VOTE_BALLOT,
    OP_SHFL_UP, OP_SHFL_DOWN, OP_SHFL_BFLY, OP_SHFL_IDX,
    /* float and double atomic add (custom-0, funct7 = 2; atomics,
     * CLASS_ATOMIC): appended, so the numbers of the ops before them never
     * change */
    OP_AMOFADD_S, OP_AMOFADD_D,
    /* RV64A's doubleword AMOs (width 3), on register pairs as amocas.d:
     * the device's 64-bit integer atomics */
    OP_AMOSWAP_D, OP_AMOADD_D, OP_AMOXOR_D, OP_AMOAND_D, OP_AMOOR_D,
    OP_AMOMIN_D, OP_AMOMAX_D, OP_AMOMINU_D, OP_AMOMAXU_D,
    OP_COUNT
} ws_op;

/* Instruction classes, used by statistics, the profiler and the timing model. */
typedef enum ws_op_class {
    CLASS_INVALID, CLASS_INT, CLASS_MUL, CLASS_DIV, CLASS_BRANCH, CLASS_JUMP,
    CLASS_LOAD, CLASS_STORE, CLASS_ATOMIC, CLASS_FLOAT, CLASS_FDIV, CLASS_CSR,
    CLASS_SYSTEM, CLASS_SIMT, CLASS_BARRIER
} ws_op_class;

typedef struct ws_inst {
    uint16_t op;      /* ws_op */
    uint8_t  rd, rs1, rs2, rs3;
    uint8_t  len;     /* 2 (compressed) or 4; 0 only for OP_ILLEGAL of unknown length;
                         12 for the device's far branch (WS_HINT_FAR_BRANCH) */
    uint8_t  rm;      /* float rounding-mode field */
    int32_t  imm;     /* sign-extended immediate; CSR number for CSR ops */
    uint32_t raw;     /* the instruction bits as fetched (16 or 32 bits) */
} ws_inst;

/* Length in bytes of the instruction whose first 16 bits are `lo`. */
static inline unsigned ws_inst_length(uint16_t lo) { return (lo & 3) == 3 ? 4 : 2; }

/* Decode one instruction. `bits` holds 32 bits read at the PC (for a
 * compressed instruction only the low 16 are used). Never fails: unknown
 * encodings decode to OP_ILLEGAL with len set from the low bits. */
void ws_decode(uint32_t bits, ws_inst *out);

/* Class of an op (CLASS_INVALID for OP_ILLEGAL). */
ws_op_class ws_op_class_of(ws_op op);

/* The kinds an instruction mix is reported by (the tracer's and the
 * profiler's): classes folded as a kernel author reads them. */
typedef enum ws_mix_kind {
    MIX_INT, MIX_FLOAT, MIX_LOAD, MIX_STORE, MIX_ATOMIC, MIX_CONTROL, MIX_OTHER, MIX_KINDS
} ws_mix_kind;
ws_mix_kind ws_op_mix_kind(ws_op op);
/* "integer", "float", "loads", "stores", "atomics", "branches and jumps",
 * "other (CSR, SIMT, barriers, system)"; key (1) gives the JSON key
 * ("integer", "float", "load", "store", "atomic", "control", "other"). */
const char *ws_mix_kind_name(ws_mix_kind k, int key);

/* Bytes a lane's memory access moves (loads, stores, atomics; amocas.d 8);
 * 0 for an op that touches no memory. */
unsigned ws_op_mem_bytes(ws_op op);

/* Whether op is an atomic on register pairs whose store is unconditional
 * (amofadd.d, amoswap.d .. amomaxu.d; not amocas.d). */
static inline int ws_op_pair_rmw(ws_op op) { return op == OP_AMOFADD_D || (op >= OP_AMOSWAP_D && op <= OP_AMOMAXU_D); }
/* A warp vote or shuffle: its lanes exchange values with each other. */
static inline int ws_op_collective(ws_op op) { return op >= OP_VOTE_ALL && op <= OP_SHFL_IDX; }

/* Mnemonic of an op, e.g. "addi", "vote.any". */
const char *ws_op_name(ws_op op);

/* Disassemble to `buf` in GNU objdump style ("addi a0, a0, 1"; branch and jump
 * targets printed as absolute addresses computed from pc). Returns the
 * number of characters written (snprintf semantics). */
int ws_disasm(const ws_inst *in, uint32_t pc, char *buf, size_t size);
/* The <warpscope/shader.h> helper that reads graphics system-value CSR
 * csr (abi.h's WS_CSR_GFX_*), for messages. */
const char *ws_gfx_sysval_helper(uint32_t csr);

/* The far-branch hint: `slti zero, gp, 0x6b2`, a RISC-V HINT (SLTI with
 * rd = x0 is reserved for custom hints, a no-op anywhere else). The
 * tracer's rewriter puts it before a conditional branch that no longer
 * reaches its target, which it writes as an inverted branch over a jump:
 *     slti zero, gp, 0x6b2 ; b<inverse> rs1, rs2, +8 ; jal zero, TARGET
 * The device runs the three as the one branch they stand for (`b<cond>
 * rs1, rs2, TARGET`, 12 bytes long): lanes that branch go to TARGET, the
 * others to the instruction after the jump, and the SIMT scheduler sees
 * one branch, so it groups lanes as it would at the original branch
 * (docs/device.md). */
#define WS_HINT_FAR_BRANCH 0x6b21a013u
/* The branch a far-branch hint stands for, from the 32 bits of each of the
 * two instructions after the hint; 0 if they are not a 32-bit conditional
 * branch with offset +8 and a 32-bit `jal zero` (then the hint is a no-op). */
int ws_decode_far_branch(uint32_t branch, uint32_t jump, ws_inst *out);

/* The hold hint: `slti zero, tp, N` (N = 0..2047), another custom HINT. It
 * says that the N bytes after it are code inserted ahead of the
 * instruction they lead to (the tracer's rewriter puts it first in the
 * code it inserts at a block's head). A group that runs it above other
 * lanes of its warp (only one the starvation guard sent ahead can) makes
 * no scheduling decision until it has run that instruction: it does not
 * stop for reaching their PC, so when its guard turn has ended it still
 * runs the block's first original instruction before it yields, as it
 * does without the inserted code (docs/device.md). Below them, or alone,
 * the hint is a no-op: nothing in the inserted code stops such a group. */
static inline int ws_hint_hold(uint32_t raw)
{
    return (raw & 0x800FFFFFu) == 0x00022013u ? (int)(raw >> 20) : -1; /* bytes held, or -1 */
}
#define WS_HINT_HOLD(n) (0x00022013u | (uint32_t)(n) << 20)

/* ABI register names: ws_reg_name(10) == "a0", ws_freg_name(10) == "fa0". */
const char *ws_reg_name(unsigned r);
const char *ws_freg_name(unsigned r);

#endif
