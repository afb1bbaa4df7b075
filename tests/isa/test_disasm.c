/* Disassembler tests: text of representative instructions of every class,
 * compressed forms (printed as their expansion), pseudo-instructions,
 * rounding modes, SIMT ops, illegal words and snprintf semantics.
 * Encodings come from the LLVM assembler; objdump's own rendering is noted
 * for comparison. */
#include <stdint.h>
#include <string.h>

#include "isa/isa.h"
#include "test.h"

typedef struct tcase {
    uint32_t word, pc;
    const char *text;
} tcase;

static const tcase cases[] = {
    { 0x00150513, 0, "addi a0, a0, 1" }, /* objdump: add a0,a0,1 */
    { 0xfff00513, 0, "li a0, -1" }, /* objdump: li a0,-1 */
    { 0x00058513, 0, "mv a0, a1" }, /* objdump: mv a0,a1 */
    { 0x00000013, 0, "nop" }, /* objdump: nop */
    { 0x80010113, 0, "addi sp, sp, -2048" }, /* objdump: add sp,sp,-2048 */
    { 0xffb5a513, 0, "slti a0, a1, -5" }, /* objdump: slti a0,a1,-5 */
    { 0x0015b513, 0, "sltiu a0, a1, 1" }, /* objdump: seqz a0,a1 */
    { 0xfff5c513, 0, "xori a0, a1, -1" }, /* objdump: not a0,a1 */
    { 0x00359513, 0, "slli a0, a1, 3" }, /* objdump: sll a0,a1,0x3 */
    { 0x41f35293, 0, "srai t0, t1, 31" }, /* objdump: sra t0,t1,0x1f */
    { 0x00c12783, 0, "lw a5, 12(sp)" }, /* objdump: lw a5,12(sp) */
    { 0x80024283, 0, "lbu t0, -2048(tp)" }, /* objdump: lbu t0,-2048(tp) # 0xfffff800 */
    { 0xfe112e23, 0, "sw ra, -4(sp)" }, /* objdump: sw ra,-4(sp) */
    { 0x7ea48fa3, 0, "sb a0, 2047(s1)" }, /* objdump: sb a0,2047(s1) */
    { 0x02b50063, 0x1000000, "beq a0, a1, 0x1000020" }, /* objdump: beq a0,a1,0x58 */
    { 0x80941063, 0x1001000, "bne s0, s1, 0x1000000" }, /* objdump: bne s0,s1,0xfffff03c */
    { 0xffc3dfe3, 0x100, "bge t2, t3, 0xfe" }, /* objdump: bge t2,t3,0x3e */
    { 0x00050463, 0x1000, "beqz a0, 0x1008" }, /* objdump: beqz a0,0x4c */
    { 0x00a01463, 0x1000, "bne zero, a0, 0x1008" }, /* objdump: bne zero,a0,0x50 */
    { 0x00f761e3, 0, "bltu a4, a5, 0x802" }, /* objdump: bltu a4,a5,0x84e */
    { 0x0100006f, 0x1000, "j 0x1010" }, /* objdump: j 0x60 */
    { 0xff1ff0ef, 0x1000, "jal 0xff0" }, /* objdump: jal 0x44 */
    { 0x7ffff56f, 0, "jal a0, 0xffffe" }, /* objdump: jal a0,0x100056 */
    { 0xffdff06f, 0, "j 0xfffffffc" }, /* objdump: j 0x58 */
    { 0x00008067, 0, "ret" }, /* objdump: ret */
    { 0x00078067, 0, "jr a5" }, /* objdump: jr a5 */
    { 0x000780e7, 0, "jalr a5" }, /* objdump: jalr a5 */
    { 0x004582e7, 0, "jalr t0, 4(a1)" }, /* objdump: jalr t0,4(a1) */
    { 0xff808067, 0, "jalr zero, -8(ra)" }, /* objdump: jr -8(ra) */
    { 0x12345537, 0, "lui a0, 0x12345" }, /* objdump: lui a0,0x12345 */
    { 0xffffffb7, 0, "lui t6, 0xfffff" }, /* objdump: lui t6,0xfffff */
    { 0x00000097, 0, "auipc ra, 0x0" }, /* objdump: auipc ra,0x0 */
    { 0x00c58533, 0, "add a0, a1, a2" }, /* objdump: add a0,a1,a2 */
    { 0x00c00533, 0, "mv a0, a2" }, /* objdump: add a0,zero,a2 */
    { 0x41ee8e33, 0, "sub t3, t4, t5" }, /* objdump: sub t3,t4,t5 */
    { 0x40c5d533, 0, "sra a0, a1, a2" }, /* objdump: sra a0,a1,a2 */
    { 0x02c5a533, 0, "mulhsu a0, a1, a2" }, /* objdump: mulhsu a0,a1,a2 */
    { 0x02147fb3, 0, "remu t6, s0, ra" }, /* objdump: remu t6,s0,ra */
    { 0x0ff0000f, 0, "fence" }, /* objdump: fence */
    { 0x0310000f, 0, "fence rw, w" }, /* objdump: fence rw,w */
    { 0x0840000f, 0, "fence i, o" }, /* objdump: fence i,o */
    { 0x8330000f, 0, "fence.tso" }, /* objdump: fence.tso */
    { 0x0000100f, 0, "fence.i" }, /* objdump: fence.i */
    { 0x00000073, 0, "ecall" }, /* objdump: ecall */
    { 0x00100073, 0, "ebreak" }, /* objdump: ebreak */
    { 0xcc002573, 0, "csrr a0, 0xcc0 # laneid" }, /* objdump: csrr a0,0xcc0; the device's names (docs/device.md) */
    { 0xcc402673, 0, "csrr a2, 0xcc4 # tid.x" },  /* threadIdx_x() */
    { 0xcdd025f3, 0, "csrr a1, 0xcdd # gfx.instance" },
    { 0xcde025f3, 0, "csrr a1, 0xcde # gfx.vertex" },
    { 0xfc2025f3, 0, "csrr a1, 0xfc2 # cores" },
    { 0xcd5025f3, 0, "csrr a1, 0xcd5" }, /* no such CSR: its number alone */
    { 0x00359073, 0, "csrw fcsr, a1" }, /* objdump: fscsr a1 */
    { 0x00259573, 0, "csrrw a0, frm, a1" }, /* objdump: fsrm a0,a1 */
    { 0x0015a573, 0, "csrrs a0, fflags, a1" }, /* objdump: csrrs a0,fflags,a1 */
    { 0x8002b073, 0, "csrrc zero, 0x800, t0" }, /* objdump: csrc 0x800,t0 */
    { 0x0012d573, 0, "csrrwi a0, fflags, 5" }, /* objdump: fsflagsi a0,5 */
    { 0x002fe073, 0, "csrrsi zero, frm, 31" }, /* objdump: csrs frm,31 */
    { 0xc000f573, 0, "csrrci a0, cycle, 1" }, /* objdump: csrrc a0,cycle,1 */
    { 0xc8202573, 0, "csrr a0, instreth" }, /* objdump: rdinstreth a0 */
    { 0x1005a52f, 0, "lr.w a0, (a1)" }, /* objdump: lr.w a0,(a1) */
    { 0x1605a52f, 0, "lr.w a0, (a1)" }, /* objdump: lr.w.aqrl a0,(a1) */
    { 0x18c5a52f, 0, "sc.w a0, a2, (a1)" }, /* objdump: sc.w a0,a2,(a1) */
    { 0x00c5a52f, 0, "amoadd.w a0, a2, (a1)" }, /* objdump: amoadd.w a0,a2,(a1) */
    { 0xe463a2af, 0, "amomaxu.w t0, t1, (t2)" }, /* objdump: amomaxu.w.aq t0,t1,(t2) */
    { 0x2f05372f, 0, "amocas.d a4, a6, (a0)" }, /* Zacas; clang 14 has no mnemonic */
    { 0x00852507, 0, "flw fa0, 8(a0)" }, /* objdump: flw fa0,8(a0) # 0x12345008 */
    { 0xfeb12c27, 0, "fsw fa1, -8(sp)" }, /* objdump: fsw fa1,-8(sp) */
    { 0x00c59553, 0, "fadd.s fa0, fa1, fa2, rtz" }, /* objdump: fadd.s fa0,fa1,fa2,rtz */
    { 0x00c5f553, 0, "fadd.s fa0, fa1, fa2" }, /* objdump: fadd.s fa0,fa1,fa2 */
    { 0x08208053, 0, "fsub.s ft0, ft1, ft2, rne" }, /* objdump: fsub.s ft0,ft1,ft2,rne */
    { 0x1124a453, 0, "fmul.s fs0, fs1, fs2, rdn" }, /* objdump: fmul.s fs0,fs1,fs2,rdn */
    { 0x19eebe53, 0, "fdiv.s ft8, ft9, ft10, rup" }, /* objdump: fdiv.s ft8,ft9,ft10,rup */
    { 0x5805c553, 0, "fsqrt.s fa0, fa1, rmm" }, /* objdump: fsqrt.s fa0,fa1,rmm */
    { 0x5805f553, 0, "fsqrt.s fa0, fa1" }, /* objdump: fsqrt.s fa0,fa1 */
    { 0x68c5f543, 0, "fmadd.s fa0, fa1, fa2, fa3" }, /* objdump: fmadd.s fa0,fa1,fa2,fa3 */
    { 0x68c5c54b, 0, "fnmsub.s fa0, fa1, fa2, fa3, rmm" }, /* objdump: fnmsub.s fa0,fa1,fa2,fa3,rmm */
    { 0xf99d1dc7, 0, "fmsub.s fs11, fs10, fs9, ft11, rtz" }, /* objdump: fmsub.s fs11,fs10,fs9,ft11,rtz */
    { 0x1820f04f, 0, "fnmadd.s ft0, ft1, ft2, ft3" }, /* objdump: fnmadd.s ft0,ft1,ft2,ft3 */
    { 0x20c58553, 0, "fsgnj.s fa0, fa1, fa2" }, /* objdump: fsgnj.s fa0,fa1,fa2 */
    { 0x20b58553, 0, "fmv.s fa0, fa1" }, /* objdump: fmv.s fa0,fa1 */
    { 0x20b59553, 0, "fneg.s fa0, fa1" }, /* objdump: fneg.s fa0,fa1 */
    { 0x20b5a553, 0, "fabs.s fa0, fa1" }, /* objdump: fabs.s fa0,fa1 */
    { 0x20c5a553, 0, "fsgnjx.s fa0, fa1, fa2" }, /* objdump: fsgnjx.s fa0,fa1,fa2 */
    { 0x28c58553, 0, "fmin.s fa0, fa1, fa2" }, /* objdump: fmin.s fa0,fa1,fa2 */
    { 0x28c59553, 0, "fmax.s fa0, fa1, fa2" }, /* objdump: fmax.s fa0,fa1,fa2 */
    { 0xc0051553, 0, "fcvt.w.s a0, fa0, rtz" }, /* objdump: fcvt.w.s a0,fa0,rtz */
    { 0xc0157553, 0, "fcvt.wu.s a0, fa0" }, /* objdump: fcvt.wu.s a0,fa0 */
    { 0xd0057553, 0, "fcvt.s.w fa0, a0" }, /* objdump: fcvt.s.w fa0,a0 */
    { 0xd0153553, 0, "fcvt.s.wu fa0, a0, rup" }, /* objdump: fcvt.s.wu fa0,a0,rup */
    { 0xe0058553, 0, "fmv.x.w a0, fa1" }, /* objdump: fmv.x.w a0,fa1 */
    { 0xf0058553, 0, "fmv.w.x fa0, a1" }, /* objdump: fmv.w.x fa0,a1 */
    { 0xa0c5a553, 0, "feq.s a0, fa1, fa2" }, /* objdump: feq.s a0,fa1,fa2 */
    { 0xa0c59553, 0, "flt.s a0, fa1, fa2" }, /* objdump: flt.s a0,fa1,fa2 */
    { 0xa01002d3, 0, "fle.s t0, ft0, ft1" }, /* objdump: fle.s t0,ft0,ft1 */
    { 0xe0059553, 0, "fclass.s a0, fa1" }, /* objdump: fclass.s a0,fa1 */
    { 0x0005000b, 0, "tmc a0" }, /* objdump: .4byte 0x5000b */
    { 0x00b5100b, 0, "wspawn a0, a1" }, /* objdump: .4byte 0xb5100b */
    { 0x0005200b, 0, "split a0" }, /* objdump: .4byte 0x5200b */
    { 0x0005258b, 0, "split a1, a0" }, /* objdump: .4byte 0x5258b */
    { 0x0000300b, 0, "join" }, /* objdump: .4byte 0x300b */
    { 0x0005300b, 0, "join a0" }, /* objdump: .4byte 0x5300b */
    { 0x00b5400b, 0, "bar a0, a1" }, /* objdump: .4byte 0xb5400b */
    { 0x00b5500b, 0, "pred a0, a1" }, /* objdump: .4byte 0xb5500b */
    { 0x0205850b, 0, "vote.all a0, a1" }, /* objdump: .4byte 0x205850b */
    { 0x0205950b, 0, "vote.any a0, a1" }, /* objdump: .4byte 0x205950b */
    { 0x0205a50b, 0, "vote.uni a0, a1" }, /* objdump: .4byte 0x205a50b */
    { 0x0203328b, 0, "vote.ballot t0, t1" }, /* objdump: .4byte 0x203328b */
    { 0x02c5c50b, 0, "shfl.up a0, a1, a2" }, /* objdump: .4byte 0x2c5c50b */
    { 0x02c5d50b, 0, "shfl.down a0, a1, a2" }, /* objdump: .4byte 0x2c5d50b */
    { 0x02c5e50b, 0, "shfl.bfly a0, a1, a2" }, /* objdump: .4byte 0x2c5e50b */
    { 0x03b47f8b, 0, "shfl.idx t6, s0, s11" }, /* objdump: .4byte 0x3b47f8b */
    { 0x04c5a50b, 0, "amofadd.s a0, a2, (a1)" }, /* .insn r 0x0B, 2, 2, a0, a1, a2 */
    { 0x0505370b, 0, "amofadd.d a4, a6, (a0)" }, /* .insn r 0x0B, 3, 2, a4, a0, a6 */
    { 0x0f05372f, 0, "amoswap.d a4, a6, (a0)" }, /* RV64A encoding, register pairs */
    { 0x0705372f, 0, "amoadd.d a4, a6, (a0)" }, /* RV64A encoding, register pairs */
    { 0x2705372f, 0, "amoxor.d a4, a6, (a0)" }, /* RV64A encoding, register pairs */
    { 0x6705372f, 0, "amoand.d a4, a6, (a0)" }, /* RV64A encoding, register pairs */
    { 0x4705372f, 0, "amoor.d a4, a6, (a0)" }, /* RV64A encoding, register pairs */
    { 0x8705372f, 0, "amomin.d a4, a6, (a0)" }, /* RV64A encoding, register pairs */
    { 0xa705372f, 0, "amomax.d a4, a6, (a0)" }, /* RV64A encoding, register pairs */
    { 0xc705372f, 0, "amominu.d a4, a6, (a0)" }, /* RV64A encoding, register pairs */
    { 0xe705372f, 0, "amomaxu.d a4, a6, (a0)" }, /* RV64A encoding, register pairs */
    { 0x7139, 0, "addi sp, sp, -64" }, /* objdump: add sp,sp,-64 */
    { 0x0808, 0, "addi a0, sp, 16" }, /* objdump: add a0,sp,16 */
    { 0x47b2, 0, "lw a5, 12(sp)" }, /* objdump: lw a5,12(sp) */
    { 0xdf86, 0, "sw ra, 252(sp)" }, /* objdump: sw ra,252(sp) */
    { 0x4140, 0, "lw s0, 4(a0)" }, /* objdump: lw s0,4(a0) */
    { 0x61a8, 0, "flw fa0, 64(a1)" }, /* objdump: flw fa0,64(a1) */
    { 0xff64, 0, "fsw fs1, 124(a4)" }, /* objdump: fsw fs1,124(a4) */
    { 0x6512, 0, "flw fa0, 4(sp)" }, /* objdump: flw fa0,4(sp) */
    { 0xff7e, 0, "fsw ft11, 188(sp)" }, /* objdump: fsw ft11,188(sp) */
    { 0xbffd, 0x1000, "j 0xffe" }, /* objdump: j 0x1b4 */
    { 0x2ffd, 0x1000, "jal 0x17fe" }, /* objdump: jal 0x9b6 */
    { 0xcd7d, 0x1000, "beqz a0, 0x10fe" }, /* objdump: beqz a0,0x2b8 */
    { 0xf081, 0x1000, "bnez s1, 0xf00" }, /* objdump: bnez s1,0xbc */
    { 0x9002, 0, "ebreak" }, /* objdump: ebreak */
    { 0x8082, 0, "ret" }, /* objdump: ret */
    { 0x8782, 0, "jr a5" }, /* objdump: jr a5 */
    { 0x9782, 0, "jalr a5" }, /* objdump: jalr a5 */
    { 0x852e, 0, "mv a0, a1" }, /* objdump: mv a0,a1 */
    { 0x947e, 0, "add s0, s0, t6" }, /* objdump: add s0,s0,t6 */
    { 0x557d, 0, "li a0, -1" }, /* objdump: li a0,-1 */
    { 0x7781, 0, "lui a5, 0xfffe0" }, /* objdump: lui a5,0xfffe0 */
    { 0x0001, 0, "nop" }, /* objdump: nop */
    { 0x1501, 0, "addi a0, a0, -32" }, /* objdump: add a0,a0,-32 */
    { 0x817d, 0, "srli a0, a0, 31" }, /* objdump: srl a0,a0,0x1f */
    { 0x8485, 0, "srai s1, s1, 1" }, /* objdump: sra s1,s1,0x1 */
    { 0x9bfd, 0, "andi a5, a5, -1" }, /* objdump: and a5,a5,-1 */
    { 0x0f86, 0, "slli t6, t6, 1" }, /* objdump: sll t6,t6,0x1 */
    { 0x8d0d, 0, "sub a0, a0, a1" }, /* objdump: sub a0,a0,a1 */
    { 0x8c3d, 0, "xor s0, s0, a5" }, /* objdump: xor s0,s0,a5 */
    { 0x8e55, 0, "or a2, a2, a3" }, /* objdump: or a2,a2,a3 */
    { 0x8f65, 0, "and a4, a4, s1" }, /* objdump: and a4,a4,s1 */
    /* reserved rounding modes are shown, not hidden */
    { 0x00c5d553, 0, "fadd.s fa0, fa1, fa2, rm5" },
    { 0xc005e553, 0, "fcvt.w.s a0, fa1, rm6" },
    /* compressed hints print as their expansion */
    { 0x4015, 0, "li zero, 5" },
    /* illegal words */
    { 0x0000, 0, ".2byte 0x0000" },
    { 0x8002, 0, ".2byte 0x8002" },
    { 0xffffffff, 0, ".4byte 0xffffffff" },
    { 0x30200073, 0, ".4byte 0x30200073" },
};

static void test_text(void)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ws_inst in;
        char buf[96];
        ws_decode(cases[i].word, &in);
        int n = ws_disasm(&in, cases[i].pc, buf, sizeof buf);
        int ok = !strcmp(buf, cases[i].text) && n == (int)strlen(buf);
        CHECK(ok);
        if (!ok) fprintf(stderr, "  0x%08x: got \"%s\" (%d), want \"%s\"\n", cases[i].word, buf, n,
                         cases[i].text);
    }
}

static void test_snprintf_semantics(void)
{
    ws_inst in;
    ws_decode(0x00c59553, &in); /* fadd.s fa0, fa1, fa2, rtz */
    const char *full = "fadd.s fa0, fa1, fa2, rtz";
    char buf[64];
    memset(buf, 'x', sizeof buf);
    CHECK_EQ_U(ws_disasm(&in, 0, buf, 8), strlen(full));
    CHECK(!strcmp(buf, "fadd.s "));           /* truncated, terminated */
    CHECK(buf[8] == 'x');                     /* nothing written past size */
    CHECK_EQ_U(ws_disasm(&in, 0, NULL, 0), strlen(full));
    CHECK_EQ_U(ws_disasm(&in, 0, buf, 1), strlen(full));
    CHECK(buf[0] == '\0');
    CHECK_EQ_U(ws_disasm(&in, 0, buf, sizeof buf), strlen(full));
    CHECK(!strcmp(buf, full));
}

/* Every 16-bit parcel and many 32-bit words disassemble without overflow. */
static void test_no_overflow(void)
{
    char buf[64];
    int bad = 0;
    uint32_t s = 0x9E3779B9u;
    for (uint32_t i = 0; i < 0x30000; i++) {
        uint32_t w = i < 0x10000 ? i : (s ^= s << 13, s ^= s >> 17, s ^= s << 5, s | 3);
        ws_inst in;
        ws_decode(w, &in);
        int n = ws_disasm(&in, 0x01000000u, buf, sizeof buf);
        if (n <= 0 || n >= (int)sizeof buf || (int)strlen(buf) != n) bad++;
    }
    CHECK_EQ_U(bad, 0);
}

int main(void)
{
    test_text();
    test_snprintf_semantics();
    test_no_overflow();
    return TEST_SUMMARY();
}
