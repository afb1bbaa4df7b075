/* Disassembler in GNU objdump style, with ABI register names and ", " as the
 * operand separator.
 *
 * Choices (kept consistent everywhere):
 *  - Compressed instructions print as their 32-bit expansion, without a "c."
 *    marker, as objdump does; ws_inst.len tells them apart.
 *  - A few pseudo-instructions make code readable: nop, li, mv, not used
 *    otherwise; j / jal <target> (rd = zero / ra), jr, jalr <rs>, ret,
 *    beqz/bnez, csrr/csrw, fmv.s/fneg.s/fabs.s.
 *  - Branch and jump targets are absolute: "0x" + lowercase hex, no padding.
 *  - Float ops show the rounding mode only when it is static (not dyn):
 *    rne rtz rdn rup rmm, and rm5/rm6 for the reserved values.
 *  - aq/rl bits of atomics are not shown (the decoder drops them).
 *  - Illegal encodings print as ".2byte 0x...." / ".4byte 0x........". */
#include <stdarg.h>
#include <stdio.h>

#include "isa/isa.h"
#include "warpscope/abi.h"

static const char *const op_names[OP_COUNT] = {
    [OP_ILLEGAL] = "illegal",
    [OP_LUI] = "lui", [OP_AUIPC] = "auipc", [OP_JAL] = "jal", [OP_JALR] = "jalr",
    [OP_BEQ] = "beq", [OP_BNE] = "bne", [OP_BLT] = "blt", [OP_BGE] = "bge",
    [OP_BLTU] = "bltu", [OP_BGEU] = "bgeu",
    [OP_LB] = "lb", [OP_LH] = "lh", [OP_LW] = "lw", [OP_LBU] = "lbu", [OP_LHU] = "lhu",
    [OP_SB] = "sb", [OP_SH] = "sh", [OP_SW] = "sw",
    [OP_ADDI] = "addi", [OP_SLTI] = "slti", [OP_SLTIU] = "sltiu", [OP_XORI] = "xori",
    [OP_ORI] = "ori", [OP_ANDI] = "andi", [OP_SLLI] = "slli", [OP_SRLI] = "srli",
    [OP_SRAI] = "srai",
    [OP_ADD] = "add", [OP_SUB] = "sub", [OP_SLL] = "sll", [OP_SLT] = "slt",
    [OP_SLTU] = "sltu", [OP_XOR] = "xor", [OP_SRL] = "srl", [OP_SRA] = "sra",
    [OP_OR] = "or", [OP_AND] = "and",
    [OP_FENCE] = "fence", [OP_FENCE_I] = "fence.i", [OP_ECALL] = "ecall", [OP_EBREAK] = "ebreak",
    [OP_CSRRW] = "csrrw", [OP_CSRRS] = "csrrs", [OP_CSRRC] = "csrrc",
    [OP_CSRRWI] = "csrrwi", [OP_CSRRSI] = "csrrsi", [OP_CSRRCI] = "csrrci",
    [OP_MUL] = "mul", [OP_MULH] = "mulh", [OP_MULHSU] = "mulhsu", [OP_MULHU] = "mulhu",
    [OP_DIV] = "div", [OP_DIVU] = "divu", [OP_REM] = "rem", [OP_REMU] = "remu",
    [OP_LR_W] = "lr.w", [OP_SC_W] = "sc.w", [OP_AMOSWAP_W] = "amoswap.w",
    [OP_AMOADD_W] = "amoadd.w", [OP_AMOXOR_W] = "amoxor.w", [OP_AMOAND_W] = "amoand.w",
    [OP_AMOOR_W] = "amoor.w", [OP_AMOMIN_W] = "amomin.w", [OP_AMOMAX_W] = "amomax.w",
    [OP_AMOMINU_W] = "amominu.w", [OP_AMOMAXU_W] = "amomaxu.w", [OP_AMOCAS_W] = "amocas.w",
    [OP_AMOCAS_D] = "amocas.d",
    [OP_FLW] = "flw", [OP_FSW] = "fsw",
    [OP_FMADD_S] = "fmadd.s", [OP_FMSUB_S] = "fmsub.s", [OP_FNMSUB_S] = "fnmsub.s",
    [OP_FNMADD_S] = "fnmadd.s",
    [OP_FADD_S] = "fadd.s", [OP_FSUB_S] = "fsub.s", [OP_FMUL_S] = "fmul.s",
    [OP_FDIV_S] = "fdiv.s", [OP_FSQRT_S] = "fsqrt.s",
    [OP_FSGNJ_S] = "fsgnj.s", [OP_FSGNJN_S] = "fsgnjn.s", [OP_FSGNJX_S] = "fsgnjx.s",
    [OP_FMIN_S] = "fmin.s", [OP_FMAX_S] = "fmax.s",
    [OP_FCVT_W_S] = "fcvt.w.s", [OP_FCVT_WU_S] = "fcvt.wu.s", [OP_FMV_X_W] = "fmv.x.w",
    [OP_FEQ_S] = "feq.s", [OP_FLT_S] = "flt.s", [OP_FLE_S] = "fle.s",
    [OP_FCLASS_S] = "fclass.s", [OP_FCVT_S_W] = "fcvt.s.w", [OP_FCVT_S_WU] = "fcvt.s.wu",
    [OP_FMV_W_X] = "fmv.w.x",
    [OP_TMC] = "tmc", [OP_WSPAWN] = "wspawn", [OP_SPLIT] = "split", [OP_JOIN] = "join",
    [OP_BAR] = "bar", [OP_PRED] = "pred",
    [OP_VOTE_ALL] = "vote.all", [OP_VOTE_ANY] = "vote.any", [OP_VOTE_UNI] = "vote.uni",
    [OP_VOTE_BALLOT] = "vote.ballot",
    [OP_SHFL_UP] = "shfl.up", [OP_SHFL_DOWN] = "shfl.down", [OP_SHFL_BFLY] = "shfl.bfly",
    [OP_SHFL_IDX] = "shfl.idx", [OP_AMOFADD_S] = "amofadd.s", [OP_AMOFADD_D] = "amofadd.d",
    [OP_AMOSWAP_D] = "amoswap.d", [OP_AMOADD_D] = "amoadd.d", [OP_AMOXOR_D] = "amoxor.d", [OP_AMOAND_D] = "amoand.d",
    [OP_AMOOR_D] = "amoor.d", [OP_AMOMIN_D] = "amomin.d", [OP_AMOMAX_D] = "amomax.d", [OP_AMOMINU_D] = "amominu.d",
    [OP_AMOMAXU_D] = "amomaxu.d",
};

const char *ws_op_name(ws_op op)
{
    if ((unsigned)op >= OP_COUNT || !op_names[op]) return "illegal";
    return op_names[op];
}

const char *ws_reg_name(unsigned r)
{
    static const char *const names[32] = {
        "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2",
        "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9",
        "s10", "s11", "t3", "t4", "t5", "t6",
    };
    return r < 32 ? names[r] : "?";
}

const char *ws_freg_name(unsigned r)
{
    static const char *const names[32] = {
        "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1",
        "fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7",
        "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
    };
    return r < 32 ? names[r] : "?";
}

/* Output with snprintf semantics: n counts every character, stored or not. */
typedef struct out {
    char *buf;
    size_t size;
    int n;
} out;

static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out *o, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t at = (size_t)o->n;
    int k = vsnprintf(at < o->size ? o->buf + at : NULL, at < o->size ? o->size - at : 0, fmt, ap);
    va_end(ap);
    if (k > 0) o->n += k;
}

#define X(r) ws_reg_name(r)
#define F(r) ws_freg_name(r)

static const char *csr_name(int32_t csr, char tmp[8])
{
    switch (csr) {
    case 0x001: return "fflags";
    case 0x002: return "frm";
    case 0x003: return "fcsr";
    case 0xC00: return "cycle";
    case 0xC01: return "time";
    case 0xC02: return "instret";
    case 0xC80: return "cycleh";
    case 0xC81: return "timeh";
    case 0xC82: return "instreth";
    default: snprintf(tmp, 8, "0x%x", (unsigned)csr & 0xFFFu); return tmp;
    }
}

const char *ws_gfx_sysval_helper(uint32_t csr)
{
    switch (csr) {
    case WS_CSR_GFX_SYS0: return "ws_pixel_x()";
    case WS_CSR_GFX_SYS1: return "ws_pixel_y()";
    case WS_CSR_GFX_SYS2: return "ws_front_facing() or ws_is_helper()";
    case WS_CSR_GFX_SYS3: return "ws_primitive_id()";
    case WS_CSR_GFX_SYS4: return "ws_instance_id()";
    case WS_CSR_GFX_DRAW: return "ws_draw_id()";
    case WS_CSR_GFX_VERTEX: return "ws_vertex_id()";
    default: return "a system value";
    }
}

/* The device's identity CSRs (abi.h, docs/device.md), by PTX's names where
 * PTX has one. The disassembly keeps the number, which an assembler takes
 * back (isa_disasm_clang), and adds the name as a comment, so that a
 * profile's "on csrr a2, 0xcc4 # tid.x" reads. NULL: not one. */
static const char *device_csr_name(int32_t csr)
{
    switch (csr) {
    case 0xCC0: return "laneid";
    case 0xCC1: return "warpid";
    case 0xCC2: return "coreid";
    case 0xCC3: return "activemask";
    case 0xCC4: return "tid.x";
    case 0xCC5: return "tid.y";
    case 0xCC6: return "tid.z";
    case 0xCC7: return "ctaid.x";
    case 0xCC8: return "ctaid.y";
    case 0xCC9: return "ctaid.z";
    case 0xCCA: return "ntid.x";
    case 0xCCB: return "ntid.y";
    case 0xCCC: return "ntid.z";
    case 0xCCD: return "nctaid.x";
    case 0xCCE: return "nctaid.y";
    case 0xCCF: return "nctaid.z";
    case 0xCD0: return "launchid";
    case 0xCD1: return "dynshared";
    case 0xCD2: return "sharedsize";
    case 0xCD3: return "tid.linear";
    case 0xCD4: return "warpinblock";
    case 0xCD8: return "gfx.sys0";
    case 0xCD9: return "gfx.sys1";
    case 0xCDA: return "gfx.sys2";
    case 0xCDB: return "gfx.sys3";
    case 0xCDC: return "gfx.draw";
    case 0xCDD: return "gfx.instance";
    case 0xCDE: return "gfx.vertex";
    case 0xFC0: return "lanesperwarp";
    case 0xFC1: return "warpspercore";
    case 0xFC2: return "cores";
    default: return NULL;
    }
}

static void put_rm(out *o, unsigned rm)
{
    static const char *const names[8] = { "rne", "rtz", "rdn", "rup", "rmm", "rm5", "rm6", "dyn" };
    if (rm != 7) put(o, ", %s", names[rm & 7]);
}

static void fence_set(out *o, unsigned set)
{
    if (!set) { put(o, "0"); return; }
    const char *const letters = "iorw";
    for (int i = 0; i < 4; i++)
        if (set & (8u >> i)) put(o, "%c", letters[i]);
}

static void dis_jump(out *o, const ws_inst *in, uint32_t pc)
{
    uint32_t t = pc + (uint32_t)in->imm;
    if (in->op == OP_JAL) {
        if (in->rd == 0) put(o, "j 0x%x", t);
        else if (in->rd == 1) put(o, "jal 0x%x", t);
        else put(o, "jal %s, 0x%x", X(in->rd), t);
        return;
    }
    if (in->imm == 0 && in->rd == 0 && in->rs1 == 1) put(o, "ret");
    else if (in->imm == 0 && in->rd == 0) put(o, "jr %s", X(in->rs1));
    else if (in->imm == 0 && in->rd == 1) put(o, "jalr %s", X(in->rs1));
    else put(o, "jalr %s, %d(%s)", X(in->rd), in->imm, X(in->rs1));
}

static void dis_branch(out *o, const ws_inst *in, uint32_t pc)
{
    uint32_t t = pc + (uint32_t)in->imm;
    if (in->rs2 == 0 && (in->op == OP_BEQ || in->op == OP_BNE))
        put(o, "%sz %s, 0x%x", ws_op_name(in->op), X(in->rs1), t);
    else
        put(o, "%s %s, %s, 0x%x", ws_op_name(in->op), X(in->rs1), X(in->rs2), t);
}

static void dis_int(out *o, const ws_inst *in)
{
    const char *name = ws_op_name(in->op);
    if (in->op == OP_ADDI) {
        if (in->rd == 0 && in->rs1 == 0 && in->imm == 0) { put(o, "nop"); return; }
        if (in->rs1 == 0) { put(o, "li %s, %d", X(in->rd), in->imm); return; }
        if (in->imm == 0) { put(o, "mv %s, %s", X(in->rd), X(in->rs1)); return; }
    }
    if (in->op == OP_ADD && in->rs1 == 0) { put(o, "mv %s, %s", X(in->rd), X(in->rs2)); return; }
    if (in->op >= OP_ADDI && in->op <= OP_SRAI)
        put(o, "%s %s, %s, %d", name, X(in->rd), X(in->rs1), in->imm);
    else
        put(o, "%s %s, %s, %s", name, X(in->rd), X(in->rs1), X(in->rs2));
}

static void dis_system(out *o, const ws_inst *in)
{
    if (in->op == OP_FENCE) {
        unsigned f = (unsigned)in->imm, fm = f >> 8, pred = (f >> 4) & 15, succ = f & 15;
        if (fm == 8 && pred == 3 && succ == 3) { put(o, "fence.tso"); return; }
        put(o, "fence");
        if (pred == 15 && succ == 15) return;
        put(o, " ");
        fence_set(o, pred);
        put(o, ", ");
        fence_set(o, succ);
        return;
    }
    put(o, "%s", ws_op_name(in->op)); /* fence.i, ecall, ebreak */
}

static void dis_csr(out *o, const ws_inst *in)
{
    char tmp[8];
    const char *csr = csr_name(in->imm, tmp);
    if (in->op == OP_CSRRS && in->rs1 == 0) put(o, "csrr %s, %s", X(in->rd), csr);
    else if (in->op == OP_CSRRW && in->rd == 0) put(o, "csrw %s, %s", csr, X(in->rs1));
    else if (in->op >= OP_CSRRWI) put(o, "%s %s, %s, %u", ws_op_name(in->op), X(in->rd), csr, in->rs1);
    else put(o, "%s %s, %s, %s", ws_op_name(in->op), X(in->rd), csr, X(in->rs1));
    const char *dev = device_csr_name(in->imm);
    if (dev) put(o, " # %s", dev);
}

static void dis_amo(out *o, const ws_inst *in)
{
    if (in->op == OP_LR_W) put(o, "lr.w %s, (%s)", X(in->rd), X(in->rs1));
    else put(o, "%s %s, %s, (%s)", ws_op_name(in->op), X(in->rd), X(in->rs2), X(in->rs1));
}

static void dis_float(out *o, const ws_inst *in)
{
    const char *name = ws_op_name(in->op);
    switch (in->op) {
    case OP_FMADD_S: case OP_FMSUB_S: case OP_FNMSUB_S: case OP_FNMADD_S:
        put(o, "%s %s, %s, %s, %s", name, F(in->rd), F(in->rs1), F(in->rs2), F(in->rs3));
        put_rm(o, in->rm);
        return;
    case OP_FADD_S: case OP_FSUB_S: case OP_FMUL_S: case OP_FDIV_S:
        put(o, "%s %s, %s, %s", name, F(in->rd), F(in->rs1), F(in->rs2));
        put_rm(o, in->rm);
        return;
    case OP_FSQRT_S:
        put(o, "%s %s, %s", name, F(in->rd), F(in->rs1));
        put_rm(o, in->rm);
        return;
    case OP_FSGNJ_S: case OP_FSGNJN_S: case OP_FSGNJX_S:
        if (in->rs1 == in->rs2) {
            static const char *const alias[3] = { "fmv.s", "fneg.s", "fabs.s" };
            put(o, "%s %s, %s", alias[in->op - OP_FSGNJ_S], F(in->rd), F(in->rs1));
            return;
        }
        /* fall through */
    case OP_FMIN_S: case OP_FMAX_S:
        put(o, "%s %s, %s, %s", name, F(in->rd), F(in->rs1), F(in->rs2));
        return;
    case OP_FEQ_S: case OP_FLT_S: case OP_FLE_S:
        put(o, "%s %s, %s, %s", name, X(in->rd), F(in->rs1), F(in->rs2));
        return;
    case OP_FCVT_W_S: case OP_FCVT_WU_S:
        put(o, "%s %s, %s", name, X(in->rd), F(in->rs1));
        put_rm(o, in->rm);
        return;
    case OP_FCVT_S_W: case OP_FCVT_S_WU:
        put(o, "%s %s, %s", name, F(in->rd), X(in->rs1));
        put_rm(o, in->rm);
        return;
    case OP_FMV_X_W: case OP_FCLASS_S:
        put(o, "%s %s, %s", name, X(in->rd), F(in->rs1));
        return;
    default: /* OP_FMV_W_X */
        put(o, "%s %s, %s", name, F(in->rd), X(in->rs1));
        return;
    }
}

static void dis_simt(out *o, const ws_inst *in)
{
    const char *name = ws_op_name(in->op);
    switch (in->op) {
    case OP_TMC: put(o, "%s %s", name, X(in->rs1)); return;
    case OP_SPLIT:
        if (in->rd) put(o, "%s %s, %s", name, X(in->rd), X(in->rs1));
        else put(o, "%s %s", name, X(in->rs1));
        return;
    case OP_JOIN:
        if (in->rs1) put(o, "%s %s", name, X(in->rs1));
        else put(o, "%s", name);
        return;
    case OP_WSPAWN: case OP_BAR: case OP_PRED:
        put(o, "%s %s, %s", name, X(in->rs1), X(in->rs2));
        return;
    case OP_VOTE_ALL: case OP_VOTE_ANY: case OP_VOTE_UNI: case OP_VOTE_BALLOT:
        put(o, "%s %s, %s", name, X(in->rd), X(in->rs1));
        return;
    default: /* shuffles */
        put(o, "%s %s, %s, %s", name, X(in->rd), X(in->rs1), X(in->rs2));
        return;
    }
}

static void dis_one(out *o, const ws_inst *in, uint32_t pc)
{
    const char *name = ws_op_name(in->op);
    switch (ws_op_class_of((ws_op)in->op)) {
    case CLASS_INVALID:
        if (in->len == 2) put(o, ".2byte 0x%04x", in->raw & 0xFFFFu);
        else put(o, ".4byte 0x%08x", in->raw);
        return;
    case CLASS_JUMP: dis_jump(o, in, pc); return;
    case CLASS_BRANCH: dis_branch(o, in, pc); return;
    case CLASS_LOAD:
        put(o, "%s %s, %d(%s)", name, in->op == OP_FLW ? F(in->rd) : X(in->rd), in->imm, X(in->rs1));
        return;
    case CLASS_STORE:
        put(o, "%s %s, %d(%s)", name, in->op == OP_FSW ? F(in->rs2) : X(in->rs2), in->imm, X(in->rs1));
        return;
    case CLASS_INT:
        if (in->op == OP_LUI || in->op == OP_AUIPC)
            put(o, "%s %s, 0x%x", name, X(in->rd), (uint32_t)in->imm >> 12);
        else
            dis_int(o, in);
        return;
    case CLASS_MUL: case CLASS_DIV:
        put(o, "%s %s, %s, %s", name, X(in->rd), X(in->rs1), X(in->rs2));
        return;
    case CLASS_SYSTEM: dis_system(o, in); return;
    case CLASS_CSR: dis_csr(o, in); return;
    case CLASS_ATOMIC: dis_amo(o, in); return;
    case CLASS_FLOAT: case CLASS_FDIV: dis_float(o, in); return;
    case CLASS_SIMT: case CLASS_BARRIER: dis_simt(o, in); return;
    }
}

int ws_disasm(const ws_inst *in, uint32_t pc, char *buf, size_t size)
{
    out o = { buf, size, 0 };
    if (buf && size) buf[0] = '\0';
    dis_one(&o, in, pc);
    return o.n;
}
