/* Operands and functional unit of each instruction, for the scoreboard. */
#include <string.h>
#include "device/timing.h"
#include "device/debug/debug_hooks.h"
#include "warpscope/abi.h"

#define F(r) ((uint8_t)(32 + (r)))   /* float register r */

void ws_op_timing_of(const ws_inst *in, ws_op_timing *o)
{
    memset(o, 0, sizeof *o);
    const uint8_t rd = in->rd, r1 = in->rs1, r2 = in->rs2, r3 = in->rs3;
    ws_op op = (ws_op)(in->op & ~WS_INST_TRAP); /* a debugger's execute trigger marks the op */
    o->unit = WS_UNIT_INT;
    switch (op) {
    case OP_LUI: case OP_AUIPC: o->dst = rd; break;
    case OP_ADDI: case OP_SLTI: case OP_SLTIU: case OP_XORI: case OP_ORI: case OP_ANDI:
    case OP_SLLI: case OP_SRLI: case OP_SRAI:
        o->src[0] = r1; o->dst = rd; break;
    case OP_ADD: case OP_SUB: case OP_SLL: case OP_SLT: case OP_SLTU: case OP_XOR:
    case OP_SRL: case OP_SRA: case OP_OR: case OP_AND:
        o->src[0] = r1; o->src[1] = r2; o->dst = rd; break;
    case OP_JAL: o->dst = rd; o->branch = 1; break;
    case OP_JALR: o->src[0] = r1; o->dst = rd; o->branch = 1; break;
    case OP_BEQ: case OP_BNE: case OP_BLT: case OP_BGE: case OP_BLTU: case OP_BGEU:
        o->src[0] = r1; o->src[1] = r2; o->branch = 1; break;
    case OP_LB: case OP_LH: case OP_LW: case OP_LBU: case OP_LHU:
        o->src[0] = r1; o->dst = rd; o->mem = 1; o->unit = WS_UNIT_LSU; break;
    case OP_FLW: o->src[0] = r1; o->dst = F(rd); o->mem = 1; o->unit = WS_UNIT_LSU; break;
    case OP_SB: case OP_SH: case OP_SW:
        o->src[0] = r1; o->src[1] = r2; o->mem = 1; o->unit = WS_UNIT_LSU; break;
    case OP_FSW: o->src[0] = r1; o->src[1] = F(r2); o->mem = 1; o->unit = WS_UNIT_LSU; break;
    case OP_LR_W: o->src[0] = r1; o->dst = rd; o->mem = 1; o->unit = WS_UNIT_LSU; break;
    case OP_SC_W: case OP_AMOSWAP_W: case OP_AMOADD_W: case OP_AMOXOR_W: case OP_AMOAND_W:
    case OP_AMOOR_W: case OP_AMOMIN_W: case OP_AMOMAX_W: case OP_AMOMINU_W: case OP_AMOMAXU_W: case OP_AMOFADD_S:
        o->src[0] = r1; o->src[1] = r2; o->dst = rd; o->mem = 1; o->unit = WS_UNIT_LSU; break;
    case OP_AMOCAS_W: case OP_AMOCAS_D: case OP_AMOFADD_D: case OP_AMOSWAP_D: case OP_AMOADD_D: case OP_AMOXOR_D:
    case OP_AMOAND_D: case OP_AMOOR_D: case OP_AMOMIN_D: case OP_AMOMAX_D: case OP_AMOMINU_D: case OP_AMOMAXU_D:
        /* (a compare-and-swap reads rd too) */
        o->src[0] = r1; o->src[1] = r2; o->src[2] = op == OP_AMOCAS_W || op == OP_AMOCAS_D ? rd : 0; o->dst = rd; o->mem = 1;
        o->unit = WS_UNIT_LSU;
        if (op != OP_AMOCAS_W) { /* register pairs; the pair x0 is x0 twice */
            o->more_src[0] = r2 ? (uint8_t)(r2 + 1) : 0;
            o->more_dst[0] = rd ? (uint8_t)(rd + 1) : 0;
            o->more = o->more_src[0] || o->more_dst[0];
        }
        break;
    case OP_FENCE: case OP_FENCE_I: case OP_EBREAK: case OP_SPLIT: case OP_JOIN: case OP_ILLEGAL:
        break;
    case OP_ECALL: /* write(a0, a1, a2) / exit: a7 selects (ws_op_timing_ecall refines it) */
        o->src[0] = 10; o->src[1] = 12; o->src[2] = 17; o->dst = 10; o->unit = WS_UNIT_MIO;
        o->more_src[0] = 11; o->more = 2; break;
    case OP_CSRRW: case OP_CSRRS: case OP_CSRRC:
        o->src[0] = r1; o->dst = rd; o->unit = WS_UNIT_MIO; break;
    case OP_CSRRWI: case OP_CSRRSI: case OP_CSRRCI: o->dst = rd; o->unit = WS_UNIT_MIO; break;
    case OP_MUL: case OP_MULH: case OP_MULHSU: case OP_MULHU:
        o->src[0] = r1; o->src[1] = r2; o->dst = rd; o->unit = WS_UNIT_MUL; break;
    case OP_DIV: case OP_DIVU: case OP_REM: case OP_REMU:
        o->src[0] = r1; o->src[1] = r2; o->dst = rd; o->unit = WS_UNIT_DIV; break;
    case OP_FMADD_S: case OP_FMSUB_S: case OP_FNMSUB_S: case OP_FNMADD_S:
        o->src[0] = F(r1); o->src[1] = F(r2); o->src[2] = F(r3); o->dst = F(rd); o->unit = WS_UNIT_FP; break;
    case OP_FDIV_S: o->src[0] = F(r1); o->src[1] = F(r2); o->dst = F(rd); o->unit = WS_UNIT_FDIV; break;
    case OP_FSQRT_S: o->src[0] = F(r1); o->dst = F(rd); o->unit = WS_UNIT_FDIV; break;
    case OP_FCVT_W_S: case OP_FCVT_WU_S: case OP_FMV_X_W: case OP_FCLASS_S:
        o->src[0] = F(r1); o->dst = rd; o->unit = WS_UNIT_FP; break;
    case OP_FEQ_S: case OP_FLT_S: case OP_FLE_S:
        o->src[0] = F(r1); o->src[1] = F(r2); o->dst = rd; o->unit = WS_UNIT_FP; break;
    case OP_FCVT_S_W: case OP_FCVT_S_WU: case OP_FMV_W_X:
        o->src[0] = r1; o->dst = F(rd); o->unit = WS_UNIT_FP; break;
    case OP_TMC: case OP_PRED: o->src[0] = r1; break;
    case OP_WSPAWN: case OP_BAR: o->src[0] = r1; o->src[1] = r2; break;
    case OP_VOTE_ALL: case OP_VOTE_ANY: case OP_VOTE_UNI: case OP_VOTE_BALLOT:
        o->src[0] = r1; o->dst = rd; break;
    case OP_SHFL_UP: case OP_SHFL_DOWN: case OP_SHFL_BFLY: case OP_SHFL_IDX:
        o->src[0] = r1; o->src[1] = r2; o->dst = rd; o->unit = WS_UNIT_MIO; break;
    case OP_FADD_S: case OP_FSUB_S: case OP_FMUL_S: case OP_FSGNJ_S: case OP_FSGNJN_S:
    case OP_FSGNJX_S: case OP_FMIN_S: case OP_FMAX_S:
        o->src[0] = F(r1); o->src[1] = F(r2); o->dst = F(rd); o->unit = WS_UNIT_FP; break;
    default: /* OP_COUNT and beyond: not an instruction */
        break;
    }
    if (o->mem && ws_op_class_of(op) == CLASS_ATOMIC) o->mem = 2;
    /* Integer, jump, branch, multiply, divide and float compute (no SIMT
     * control, vote, CSR, fence or memory access) touch nothing but the
     * warp's own registers: timing_ahead.h issues runs of them ahead. A reserved
     * static rounding mode faults. */
    o->solo = (op >= OP_LUI && op <= OP_BGEU) || (op >= OP_ADDI && op <= OP_AND) ||
              (op >= OP_MUL && op <= OP_REMU) ||
              (op >= OP_FMADD_S && op <= OP_FMV_W_X && in->rm != 5 && in->rm != 6);
    /* a write of sp faults when it leaves the lane's stack (lane_io.h) */
    if (o->dst == 2) o->solo = 0;
}

void ws_op_timing_ecall(uint32_t service, ws_op_timing *o)
{
    switch (service) {
    case WS_ECALL_TEX: case WS_ECALL_TEX_LOD: /* slot a0, u fa0, v fa1 (lod fa2) -> rgba fa0..fa3 */
        o->src[0] = 10; o->src[1] = F(10); o->src[2] = 17;
        o->more_src[0] = F(11); o->more_src[1] = service == WS_ECALL_TEX_LOD ? F(12) : 0;
        o->dst = F(10); o->more_dst[0] = F(11); o->more_dst[1] = F(12); o->more_dst[2] = F(13);
        break;
    case WS_ECALL_ASSERT: /* expr, file, line, function */
        o->more_src[1] = 13;
        break;
    default:
        break;
    }
}
