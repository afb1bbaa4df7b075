/* RV32IMAFC + Zicsr + SIMT decoder.
 *
 * Conventions of the decoded form (the executor relies on them):
 *  - Fields an instruction does not have are 0 (e.g. rd of stores and
 *    branches, rs2 of I-type), so a stale field never names a register.
 *  - imm is sign-extended; for LUI/AUIPC it is the final value (upper 20 bits
 *    in place); shifts hold the shift amount; CSR ops hold the CSR number
 *    (0..4095, not sign-extended) and the *I forms carry their 5-bit uimm in
 *    rs1.
 *  - rm is the funct3 rounding-mode field for float ops that round (7 =
 *    dynamic; 5/6 kept as is, rejected at run time); 0 for all other ops.
 *  - Compressed instructions decode to their 32-bit expansion with len = 2
 *    and raw = the 16-bit parcel. Every result has len 2 or 4, also when
 *    illegal. */
#include <string.h>

#include "isa/isa.h"
#include "warpscope/abi.h"

/* ---- field extraction ---- */

static inline uint32_t bits(uint32_t x, unsigned hi, unsigned lo)
{
    return (x >> lo) & ((1u << (hi - lo + 1)) - 1u);
}

static inline int32_t sext(uint32_t x, unsigned width)
{
    uint32_t m = 1u << (width - 1);
    return (int32_t)((x ^ m) - m);
}

static inline int32_t imm_i(uint32_t w) { return sext(bits(w, 31, 20), 12); }
static inline int32_t imm_s(uint32_t w) { return sext(bits(w, 31, 25) << 5 | bits(w, 11, 7), 12); }

static inline int32_t imm_b(uint32_t w)
{
    return sext(bits(w, 31, 31) << 12 | bits(w, 7, 7) << 11 | bits(w, 30, 25) << 5 |
                bits(w, 11, 8) << 1, 13);
}

static inline int32_t imm_j(uint32_t w)
{
    return sext(bits(w, 31, 31) << 20 | bits(w, 19, 12) << 12 | bits(w, 20, 20) << 11 |
                bits(w, 30, 21) << 1, 21);
}

/* Fill the common fields; returns 0 so callers can `return set(...)`. */
static int set(ws_inst *o, ws_op op, unsigned rd, unsigned rs1, unsigned rs2, int32_t imm)
{
    o->op = (uint16_t)op;
    o->rd = (uint8_t)rd;
    o->rs1 = (uint8_t)rs1;
    o->rs2 = (uint8_t)rs2;
    o->imm = imm;
    return 0;
}

static int illegal(ws_inst *o)
{
    o->op = OP_ILLEGAL;
    o->rd = o->rs1 = o->rs2 = o->rs3 = 0;
    o->rm = 0;
    o->imm = 0;
    return -1;
}

/* ---- 32-bit encodings, one function per major opcode ---- */

static int dec_branch(uint32_t w, ws_inst *o)
{
    static const uint8_t ops[8] = { OP_BEQ, OP_BNE, 0, 0, OP_BLT, OP_BGE, OP_BLTU, OP_BGEU };
    ws_op op = (ws_op)ops[bits(w, 14, 12)];
    if (op == OP_ILLEGAL) return illegal(o);
    return set(o, op, 0, bits(w, 19, 15), bits(w, 24, 20), imm_b(w));
}

static int dec_load(uint32_t w, ws_inst *o)
{
    static const uint8_t ops[8] = { OP_LB, OP_LH, OP_LW, 0, OP_LBU, OP_LHU, 0, 0 };
    ws_op op = (ws_op)ops[bits(w, 14, 12)];
    if (op == OP_ILLEGAL) return illegal(o);
    return set(o, op, bits(w, 11, 7), bits(w, 19, 15), 0, imm_i(w));
}

static int dec_store(uint32_t w, ws_inst *o)
{
    static const uint8_t ops[8] = { OP_SB, OP_SH, OP_SW, 0, 0, 0, 0, 0 };
    ws_op op = (ws_op)ops[bits(w, 14, 12)];
    if (op == OP_ILLEGAL) return illegal(o);
    return set(o, op, 0, bits(w, 19, 15), bits(w, 24, 20), imm_s(w));
}

static int dec_op_imm(uint32_t w, ws_inst *o)
{
    static const uint8_t ops[8] = { OP_ADDI, OP_SLLI, OP_SLTI, OP_SLTIU, OP_XORI, OP_SRLI, OP_ORI, OP_ANDI };
    unsigned f3 = bits(w, 14, 12), f7 = bits(w, 31, 25);
    unsigned rd = bits(w, 11, 7), rs1 = bits(w, 19, 15);
    if (f3 == 1 || f3 == 5) {
        /* RV32 shifts: imm[11:5] selects logical/arithmetic; shamt[5] must be 0 */
        if (f3 == 1 && f7 != 0) return illegal(o);
        if (f3 == 5 && f7 != 0 && f7 != 0x20) return illegal(o);
        return set(o, f7 ? OP_SRAI : (ws_op)ops[f3], rd, rs1, 0, (int32_t)bits(w, 24, 20));
    }
    return set(o, (ws_op)ops[f3], rd, rs1, 0, imm_i(w));
}

static int dec_op(uint32_t w, ws_inst *o)
{
    static const uint8_t base[8] = { OP_ADD, OP_SLL, OP_SLT, OP_SLTU, OP_XOR, OP_SRL, OP_OR, OP_AND };
    static const uint8_t mext[8] = { OP_MUL, OP_MULH, OP_MULHSU, OP_MULHU, OP_DIV, OP_DIVU, OP_REM, OP_REMU };
    unsigned f3 = bits(w, 14, 12), f7 = bits(w, 31, 25);
    ws_op op;
    if (f7 == 0x00) op = (ws_op)base[f3];
    else if (f7 == 0x01) op = (ws_op)mext[f3];
    else if (f7 == 0x20 && f3 == 0) op = OP_SUB;
    else if (f7 == 0x20 && f3 == 5) op = OP_SRA;
    else return illegal(o);
    return set(o, op, bits(w, 11, 7), bits(w, 19, 15), bits(w, 24, 20), 0);
}

/* FENCE ignores fm/pred/succ/rs1/rd as base implementations must (reserved
 * fm values act as a normal fence); FENCE.I ignores imm/rs1/rd likewise. We
 * keep the fields so the disassembler can show them. */
static int dec_misc_mem(uint32_t w, ws_inst *o)
{
    unsigned f3 = bits(w, 14, 12);
    if (f3 == 0) return set(o, OP_FENCE, bits(w, 11, 7), bits(w, 19, 15), 0, (int32_t)bits(w, 31, 20));
    if (f3 == 1) return set(o, OP_FENCE_I, bits(w, 11, 7), bits(w, 19, 15), 0, (int32_t)bits(w, 31, 20));
    return illegal(o);
}

static int dec_system(uint32_t w, ws_inst *o)
{
    static const uint8_t csr_ops[8] = { 0, OP_CSRRW, OP_CSRRS, OP_CSRRC, 0, OP_CSRRWI, OP_CSRRSI, OP_CSRRCI };
    unsigned f3 = bits(w, 14, 12);
    if (f3 == 0) {
        /* Only ECALL and EBREAK exist in user mode; xRET, WFI, SFENCE etc. are illegal. */
        if (w == 0x00000073u) return set(o, OP_ECALL, 0, 0, 0, 0);
        if (w == 0x00100073u) return set(o, OP_EBREAK, 0, 0, 0, 0);
        return illegal(o);
    }
    if (csr_ops[f3] == 0) return illegal(o);
    return set(o, (ws_op)csr_ops[f3], bits(w, 11, 7), bits(w, 19, 15), 0, (int32_t)bits(w, 31, 20));
}

static int dec_amo(uint32_t w, ws_inst *o)
{
    static const uint8_t ops[32] = {
        [0x00] = OP_AMOADD_W, [0x01] = OP_AMOSWAP_W, [0x02] = OP_LR_W, [0x03] = OP_SC_W,
        [0x04] = OP_AMOXOR_W, [0x08] = OP_AMOOR_W, [0x0C] = OP_AMOAND_W, [0x10] = OP_AMOMIN_W,
        [0x14] = OP_AMOMAX_W, [0x18] = OP_AMOMINU_W, [0x1C] = OP_AMOMAXU_W, [0x05] = OP_AMOCAS_W,
    };
    ws_op op = (ws_op)ops[bits(w, 31, 27)];
    unsigned rs2 = bits(w, 24, 20), rd = bits(w, 11, 7), width = bits(w, 14, 12);
    if (width == 3 && op != OP_ILLEGAL && op != OP_LR_W && op != OP_SC_W) {
        /* amocas.d and RV64A's doubleword AMOs: register pairs, so even registers only */
        static const uint8_t pair[OP_AMOCAS_W - OP_AMOSWAP_W + 1] = {
            [OP_AMOSWAP_W - OP_AMOSWAP_W] = OP_AMOSWAP_D, [OP_AMOADD_W - OP_AMOSWAP_W] = OP_AMOADD_D,
            [OP_AMOXOR_W - OP_AMOSWAP_W] = OP_AMOXOR_D, [OP_AMOAND_W - OP_AMOSWAP_W] = OP_AMOAND_D,
            [OP_AMOOR_W - OP_AMOSWAP_W] = OP_AMOOR_D, [OP_AMOMIN_W - OP_AMOSWAP_W] = OP_AMOMIN_D,
            [OP_AMOMAX_W - OP_AMOSWAP_W] = OP_AMOMAX_D, [OP_AMOMINU_W - OP_AMOSWAP_W] = OP_AMOMINU_D,
            [OP_AMOMAXU_W - OP_AMOSWAP_W] = OP_AMOMAXU_D, [OP_AMOCAS_W - OP_AMOSWAP_W] = OP_AMOCAS_D,
        };
        if ((rd | rs2) & 1) return illegal(o);
        op = (ws_op)pair[op - OP_AMOSWAP_W];
    } else if (width != 2 || op == OP_ILLEGAL) {
        return illegal(o);
    }
    if (op == OP_LR_W && rs2 != 0) return illegal(o);
    return set(o, op, rd, bits(w, 19, 15), rs2, 0);
}

static int dec_fma(uint32_t w, ws_inst *o)
{
    static const ws_op ops[4] = { OP_FMADD_S, OP_FMSUB_S, OP_FNMSUB_S, OP_FNMADD_S };
    if (bits(w, 26, 25) != 0) return illegal(o); /* fmt: only single precision */
    set(o, ops[bits(w, 3, 2)], bits(w, 11, 7), bits(w, 19, 15), bits(w, 24, 20), 0);
    o->rs3 = (uint8_t)bits(w, 31, 27);
    o->rm = (uint8_t)bits(w, 14, 12);
    return 0;
}

/* OP-FP ops that take no rounding mode, selected by funct7 and funct3. */
static ws_op op_fp_norm(unsigned f7, unsigned f3, unsigned rs2)
{
    switch (f7) {
    case 0x10: return f3 == 0 ? OP_FSGNJ_S : f3 == 1 ? OP_FSGNJN_S : f3 == 2 ? OP_FSGNJX_S : OP_ILLEGAL;
    case 0x14: return f3 == 0 ? OP_FMIN_S : f3 == 1 ? OP_FMAX_S : OP_ILLEGAL;
    case 0x50: return f3 == 2 ? OP_FEQ_S : f3 == 1 ? OP_FLT_S : f3 == 0 ? OP_FLE_S : OP_ILLEGAL;
    case 0x70:
        if (rs2 != 0) return OP_ILLEGAL;
        return f3 == 0 ? OP_FMV_X_W : f3 == 1 ? OP_FCLASS_S : OP_ILLEGAL;
    case 0x78: return rs2 == 0 && f3 == 0 ? OP_FMV_W_X : OP_ILLEGAL;
    default: return OP_ILLEGAL;
    }
}

/* OP-FP ops that round (funct3 is the rm field). */
static ws_op op_fp_rm(unsigned f7, unsigned rs2)
{
    switch (f7) {
    case 0x00: return OP_FADD_S;
    case 0x04: return OP_FSUB_S;
    case 0x08: return OP_FMUL_S;
    case 0x0C: return OP_FDIV_S;
    case 0x2C: return rs2 == 0 ? OP_FSQRT_S : OP_ILLEGAL;
    case 0x60: return rs2 == 0 ? OP_FCVT_W_S : rs2 == 1 ? OP_FCVT_WU_S : OP_ILLEGAL;
    case 0x68: return rs2 == 0 ? OP_FCVT_S_W : rs2 == 1 ? OP_FCVT_S_WU : OP_ILLEGAL;
    default: return OP_ILLEGAL;
    }
}

static int dec_op_fp(uint32_t w, ws_inst *o)
{
    unsigned f7 = bits(w, 31, 25), f3 = bits(w, 14, 12), rs2 = bits(w, 24, 20);
    ws_op op = op_fp_rm(f7, rs2);
    int rounds = op != OP_ILLEGAL;
    if (!rounds) op = op_fp_norm(f7, f3, rs2);
    if (op == OP_ILLEGAL) return illegal(o);
    /* unary ops use rs2 as a sub-opcode, not a register */
    int binary = f7 == 0x00 || f7 == 0x04 || f7 == 0x08 || f7 == 0x0C || f7 == 0x10 ||
                 f7 == 0x14 || f7 == 0x50;
    set(o, op, bits(w, 11, 7), bits(w, 19, 15), binary ? rs2 : 0, 0);
    o->rm = rounds ? (uint8_t)f3 : 0;
    return 0;
}

static int dec_custom0(uint32_t w, ws_inst *o)
{
    static const uint8_t simt0[8] = { OP_TMC, OP_WSPAWN, OP_SPLIT, OP_JOIN, OP_BAR, OP_PRED, 0, 0 };
    static const uint8_t simt1[8] = { OP_VOTE_ALL, OP_VOTE_ANY, OP_VOTE_UNI, OP_VOTE_BALLOT,
                                      OP_SHFL_UP, OP_SHFL_DOWN, OP_SHFL_BFLY, OP_SHFL_IDX };
    unsigned f7 = bits(w, 31, 25), f3 = bits(w, 14, 12);
    ws_op op = f7 == 0 ? (ws_op)simt0[f3] : f7 == 1 ? (ws_op)simt1[f3] : OP_ILLEGAL;
    if (f7 == WS_F7_FATOMIC) {
        op = f3 == WS_F3_AMOFADD_S ? OP_AMOFADD_S : f3 == WS_F3_AMOFADD_D ? OP_AMOFADD_D : OP_ILLEGAL;
        if (op == OP_AMOFADD_D && (bits(w, 11, 7) | bits(w, 24, 20)) & 1) return illegal(o); /* register pairs */
    }
    if (op == OP_ILLEGAL) return illegal(o);
    /* R-type fields are kept as encoded; which ones matter is up to the op */
    return set(o, op, bits(w, 11, 7), bits(w, 19, 15), bits(w, 24, 20), 0);
}

static int decode32(uint32_t w, ws_inst *o)
{
    unsigned rd = bits(w, 11, 7), rs1 = bits(w, 19, 15);
    switch (bits(w, 6, 0)) {
    case 0x37: return set(o, OP_LUI, rd, 0, 0, (int32_t)(w & 0xFFFFF000u));
    case 0x17: return set(o, OP_AUIPC, rd, 0, 0, (int32_t)(w & 0xFFFFF000u));
    case 0x6F: return set(o, OP_JAL, rd, 0, 0, imm_j(w));
    case 0x67:
        if (bits(w, 14, 12) != 0) return illegal(o);
        return set(o, OP_JALR, rd, rs1, 0, imm_i(w));
    case 0x63: return dec_branch(w, o);
    case 0x03: return dec_load(w, o);
    case 0x23: return dec_store(w, o);
    case 0x13: return dec_op_imm(w, o);
    case 0x33: return dec_op(w, o);
    case 0x0F: return dec_misc_mem(w, o);
    case 0x73: return dec_system(w, o);
    case 0x2F: return dec_amo(w, o);
    case 0x07:
        if (bits(w, 14, 12) != 2) return illegal(o);
        return set(o, OP_FLW, rd, rs1, 0, imm_i(w));
    case 0x27:
        if (bits(w, 14, 12) != 2) return illegal(o);
        return set(o, OP_FSW, 0, rs1, bits(w, 24, 20), imm_s(w));
    case 0x43: case 0x47: case 0x4B: case 0x4F: return dec_fma(w, o);
    case 0x53: return dec_op_fp(w, o);
    case WS_OPC_CUSTOM0: return dec_custom0(w, o);
    default: return illegal(o);
    }
}

/* ---- 16-bit (RVC) encodings ---- */

/* Registers x8..x15 named by 3-bit fields. */
static inline unsigned creg(uint32_t h, unsigned lo) { return 8 + bits(h, lo + 2, lo); }

/* 6-bit signed immediate imm[5] = bit 12, imm[4:0] = bits 6:2 (c.addi, c.li, c.andi) */
static inline int32_t cimm6(uint32_t h) { return sext(bits(h, 12, 12) << 5 | bits(h, 6, 2), 6); }

/* c.lw / c.sw / c.flw / c.fsw offset: uimm[5:3] = 12:10, uimm[2] = 6, uimm[6] = 5 */
static inline int32_t cimm_lw(uint32_t h)
{
    return (int32_t)(bits(h, 12, 10) << 3 | bits(h, 6, 6) << 2 | bits(h, 5, 5) << 6);
}

/* c.j / c.jal offset[11|4|9:8|10|6|7|3:1|5] = bits 12|11|10:9|8|7|6|5:3|2 */
static inline int32_t cimm_j(uint32_t h)
{
    return sext(bits(h, 12, 12) << 11 | bits(h, 11, 11) << 4 | bits(h, 10, 9) << 8 |
                bits(h, 8, 8) << 10 | bits(h, 7, 7) << 6 | bits(h, 6, 6) << 7 |
                bits(h, 5, 3) << 1 | bits(h, 2, 2) << 5, 12);
}

/* c.beqz / c.bnez offset[8|4:3] = 12:10, offset[7:6|2:1|5] = 6:2 */
static inline int32_t cimm_b(uint32_t h)
{
    return sext(bits(h, 12, 12) << 8 | bits(h, 11, 10) << 3 | bits(h, 6, 5) << 6 |
                bits(h, 4, 3) << 1 | bits(h, 2, 2) << 5, 9);
}

static int dec_c0(uint32_t h, ws_inst *o)
{
    unsigned rdp = creg(h, 2), rs1p = creg(h, 7);
    switch (bits(h, 15, 13)) {
    case 0: { /* c.addi4spn: nzuimm[5:4|9:6|2|3] = 12:11|10:7|6|5; zero is reserved */
        int32_t imm = (int32_t)(bits(h, 12, 11) << 4 | bits(h, 10, 7) << 6 |
                                bits(h, 6, 6) << 2 | bits(h, 5, 5) << 3);
        if (imm == 0) return illegal(o);
        return set(o, OP_ADDI, rdp, 2, 0, imm);
    }
    case 2: return set(o, OP_LW, rdp, rs1p, 0, cimm_lw(h));
    case 3: return set(o, OP_FLW, rdp, rs1p, 0, cimm_lw(h));
    case 6: return set(o, OP_SW, 0, rs1p, rdp, cimm_lw(h));
    case 7: return set(o, OP_FSW, 0, rs1p, rdp, cimm_lw(h));
    default: return illegal(o); /* c.fld/c.fsd (no D) and the reserved slot */
    }
}

static int dec_c1_alu(uint32_t h, ws_inst *o)
{
    static const uint8_t ops[4] = { OP_SUB, OP_XOR, OP_OR, OP_AND };
    unsigned r = creg(h, 7);
    switch (bits(h, 11, 10)) {
    case 0: case 1: /* c.srli / c.srai: shamt[5] = 1 is reserved on RV32 */
        if (bits(h, 12, 12)) return illegal(o);
        return set(o, bits(h, 11, 10) ? OP_SRAI : OP_SRLI, r, r, 0, (int32_t)bits(h, 6, 2));
    case 2: return set(o, OP_ANDI, r, r, 0, cimm6(h));
    default: /* bit 12 = 1 holds RV64 c.subw/c.addw: reserved here */
        if (bits(h, 12, 12)) return illegal(o);
        return set(o, (ws_op)ops[bits(h, 6, 5)], r, r, creg(h, 2), 0);
    }
}

static int dec_c1(uint32_t h, ws_inst *o)
{
    unsigned rd = bits(h, 11, 7);
    switch (bits(h, 15, 13)) {
    case 0: return set(o, OP_ADDI, rd, rd, 0, cimm6(h));  /* c.addi, c.nop (hints kept) */
    case 1: return set(o, OP_JAL, 1, 0, 0, cimm_j(h));    /* c.jal (RV32 only) */
    case 2: return set(o, OP_ADDI, rd, 0, 0, cimm6(h));   /* c.li */
    case 3:
        if (rd == 2) { /* c.addi16sp: nzimm[9] = 12, nzimm[4|6|8:7|5] = 6|5|4:3|2 */
            int32_t imm = sext(bits(h, 12, 12) << 9 | bits(h, 6, 6) << 4 | bits(h, 5, 5) << 6 |
                               bits(h, 4, 3) << 7 | bits(h, 2, 2) << 5, 10);
            if (imm == 0) return illegal(o);
            return set(o, OP_ADDI, 2, 2, 0, imm);
        } else { /* c.lui: nzimm[17] = 12, nzimm[16:12] = 6:2 */
            int32_t imm = sext(bits(h, 12, 12) << 17 | bits(h, 6, 2) << 12, 18);
            if (imm == 0) return illegal(o);
            return set(o, OP_LUI, rd, 0, 0, imm);
        }
    case 4: return dec_c1_alu(h, o);
    case 5: return set(o, OP_JAL, 0, 0, 0, cimm_j(h));    /* c.j */
    case 6: return set(o, OP_BEQ, 0, creg(h, 7), 0, cimm_b(h));
    default: return set(o, OP_BNE, 0, creg(h, 7), 0, cimm_b(h));
    }
}

static int dec_c2_jr_mv(uint32_t h, ws_inst *o)
{
    unsigned rd = bits(h, 11, 7), rs2 = bits(h, 6, 2);
    if (!bits(h, 12, 12)) {
        if (rs2 != 0) return set(o, OP_ADD, rd, 0, rs2, 0);   /* c.mv */
        if (rd == 0) return illegal(o);                       /* c.jr x0 is reserved */
        return set(o, OP_JALR, 0, rd, 0, 0);                  /* c.jr */
    }
    if (rs2 != 0) return set(o, OP_ADD, rd, rd, rs2, 0);      /* c.add */
    if (rd == 0) return set(o, OP_EBREAK, 0, 0, 0, 0);        /* c.ebreak */
    return set(o, OP_JALR, 1, rd, 0, 0);                      /* c.jalr */
}

static int dec_c2(uint32_t h, ws_inst *o)
{
    unsigned rd = bits(h, 11, 7), rs2 = bits(h, 6, 2);
    /* c.lwsp offset uimm[5] = 12, uimm[4:2] = 6:4, uimm[7:6] = 3:2 */
    int32_t lsp = (int32_t)(bits(h, 12, 12) << 5 | bits(h, 6, 4) << 2 | bits(h, 3, 2) << 6);
    /* c.swsp offset uimm[5:2] = 12:9, uimm[7:6] = 8:7 */
    int32_t ssp = (int32_t)(bits(h, 12, 9) << 2 | bits(h, 8, 7) << 6);
    switch (bits(h, 15, 13)) {
    case 0: /* c.slli: shamt[5] = 1 is reserved on RV32 */
        if (bits(h, 12, 12)) return illegal(o);
        return set(o, OP_SLLI, rd, rd, 0, (int32_t)rs2);
    case 2:
        if (rd == 0) return illegal(o);
        return set(o, OP_LW, rd, 2, 0, lsp);
    case 3: return set(o, OP_FLW, rd, 2, 0, lsp);
    case 4: return dec_c2_jr_mv(h, o);
    case 6: return set(o, OP_SW, 0, 2, rs2, ssp);
    case 7: return set(o, OP_FSW, 0, 2, rs2, ssp);
    default: return illegal(o); /* c.fldsp / c.fsdsp: no D */
    }
}

void ws_decode(uint32_t w, ws_inst *out)
{
    memset(out, 0, sizeof *out);
    if ((w & 3) != 3) {
        uint32_t h = w & 0xFFFFu;
        out->len = 2;
        out->raw = h;
        switch (h & 3) {
        case 0: dec_c0(h, out); break;
        case 1: dec_c1(h, out); break;
        default: dec_c2(h, out); break;
        }
        return;
    }
    out->len = 4;
    out->raw = w;
    if ((w & 0x1C) == 0x1C) { illegal(out); return; } /* 48-bit and longer formats */
    decode32(w, out);
}

/* The class table below walks the ws_op enum in ranges; these catch a
 * reordering of isa.h that would silently break it. */
_Static_assert(OP_AUIPC + 1 == OP_JAL && OP_JALR + 1 == OP_BEQ && OP_BGEU + 1 == OP_LB &&
               OP_LHU + 1 == OP_SB && OP_SW + 1 == OP_ADDI && OP_AND + 1 == OP_FENCE &&
               OP_EBREAK + 1 == OP_CSRRW && OP_CSRRCI + 1 == OP_MUL && OP_MULHU + 1 == OP_DIV &&
               OP_REMU + 1 == OP_LR_W && OP_AMOCAS_D + 1 == OP_FLW && OP_FSW + 1 == OP_FMADD_S &&
               OP_AMOMAXU_W + 1 == OP_AMOCAS_W && OP_FMV_W_X + 1 == OP_TMC && OP_SHFL_IDX + 1 == OP_AMOFADD_S &&
               OP_AMOFADD_D + 1 == OP_AMOSWAP_D && OP_AMOMAXU_D + 1 == OP_COUNT, "ws_op order");

unsigned ws_op_mem_bytes(ws_op op)
{
    switch (op) {
    case OP_LB: case OP_LBU: case OP_SB: return 1;
    case OP_LH: case OP_LHU: case OP_SH: return 2;
    case OP_AMOCAS_D: return 8;
    default: {
        if (ws_op_pair_rmw(op)) return 8;
        const ws_op_class c = ws_op_class_of(op);
        return c == CLASS_LOAD || c == CLASS_STORE || c == CLASS_ATOMIC ? 4 : 0;
    }
    }
}

ws_op_class ws_op_class_of(ws_op op)
{
    if (op <= OP_ILLEGAL || op >= OP_COUNT) return CLASS_INVALID;
    if (op >= OP_AMOFADD_S) return CLASS_ATOMIC;
    if (op <= OP_AUIPC) return CLASS_INT;
    if (op <= OP_JALR) return CLASS_JUMP;
    if (op <= OP_BGEU) return CLASS_BRANCH;
    if (op <= OP_LHU) return CLASS_LOAD;
    if (op <= OP_SW) return CLASS_STORE;
    if (op <= OP_AND) return CLASS_INT;
    if (op <= OP_EBREAK) return CLASS_SYSTEM;
    if (op <= OP_CSRRCI) return CLASS_CSR;
    if (op <= OP_MULHU) return CLASS_MUL;
    if (op <= OP_REMU) return CLASS_DIV;
    if (op <= OP_AMOCAS_D) return CLASS_ATOMIC;
    if (op == OP_FLW) return CLASS_LOAD;
    if (op == OP_FSW) return CLASS_STORE;
    if (op == OP_FDIV_S || op == OP_FSQRT_S) return CLASS_FDIV;
    if (op <= OP_FMV_W_X) return CLASS_FLOAT;
    if (op == OP_BAR) return CLASS_BARRIER;
    return CLASS_SIMT;
}

ws_mix_kind ws_op_mix_kind(ws_op op)
{
    switch (ws_op_class_of(op)) {
    case CLASS_INT: case CLASS_MUL: case CLASS_DIV: return MIX_INT;
    case CLASS_FLOAT: case CLASS_FDIV: return MIX_FLOAT;
    case CLASS_LOAD: return MIX_LOAD;
    case CLASS_STORE: return MIX_STORE;
    case CLASS_ATOMIC: return MIX_ATOMIC;
    case CLASS_BRANCH: case CLASS_JUMP: return MIX_CONTROL;
    default: return MIX_OTHER;
    }
}

const char *ws_mix_kind_name(ws_mix_kind k, int key)
{
    static const char *const names[MIX_KINDS] = { "integer", "float", "loads", "stores", "atomics",
                                                  "branches and jumps", "other (CSR, SIMT, barriers, system)" };
    static const char *const keys[MIX_KINDS] = { "integer", "float", "load", "store", "atomic", "control", "other" };
    return k < MIX_KINDS ? (key ? keys : names)[k] : "?";
}

int ws_decode_far_branch(uint32_t branch, uint32_t jump, ws_inst *out)
{
    ws_inst b, j;
    ws_decode(branch, &b);
    ws_decode(jump, &j);
    if (b.len != 4 || b.op < OP_BEQ || b.op > OP_BGEU || b.imm != 8 || j.len != 4 || j.op != OP_JAL || j.rd != 0)
        return 0;
    static const uint16_t inverse[] = { [OP_BEQ - OP_BEQ] = OP_BNE, [OP_BNE - OP_BEQ] = OP_BEQ,
                                        [OP_BLT - OP_BEQ] = OP_BGE, [OP_BGE - OP_BEQ] = OP_BLT,
                                        [OP_BLTU - OP_BEQ] = OP_BGEU, [OP_BGEU - OP_BEQ] = OP_BLTU };
    memset(out, 0, sizeof *out);
    out->op = inverse[b.op - OP_BEQ];
    out->rs1 = b.rs1;
    out->rs2 = b.rs2;
    out->imm = 8 + j.imm; /* from the hint: the jump sits 8 bytes after it */
    out->len = 12;
    out->raw = WS_HINT_FAR_BRANCH;
    return 1;
}
