/* Generates a random straight-line RV32IMAFC sequence, with short forward
 * branches, as an assembly function diff_body(uint32_t *state): it loads
 * every register from the state block, runs the sequence, and stores every
 * register back. The same object runs on the device and under qemu. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "diff_state.h"

static uint32_t rng;
static uint32_t rnd(void) { rng ^= rng << 13; rng ^= rng >> 17; rng ^= rng << 5; return rng; }
static uint32_t pick(uint32_t n) { return rnd() % n; }

/* Several random choices in one call's arguments: C leaves the order in
 * which they are evaluated open (gcc and clang differ), so each takes the
 * i-th number drawn for the line, drawn in index order: the same program
 * whichever compiler built the generator. LINE starts a line's draws. */
static uint32_t drawn[8];
static int ndrawn;
static uint32_t P(int i, uint32_t n)
{
    while (ndrawn <= i) drawn[ndrawn++] = rnd();
    return drawn[i] % n;
}
#define LINE(...) (ndrawn = 0, printf(__VA_ARGS__))

/* Destinations: anything but zero, sp, a0 (state pointer) and t6 (address scratch). */
static int XREG(int i)
{
    static const int ok[] = { 1, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                              21, 22, 23, 24, 25, 26, 27, 28, 29, 30 };
    return ok[P(i, sizeof ok / sizeof *ok)];
}
static int XSRC(int i) { int r = (int)P(i, 32); return r == 2 || r == 10 || r == 31 ? 0 : r; }
static const char *RM(int i)
{
    static const char *const m[] = { "rne", "rtz", "rdn", "rup", "rmm", "dyn", "dyn" };
    return m[P(i, 7)];
}

static void emit_one(int *label)
{
    static const char *const rr[] = { "add", "sub", "sll", "slt", "sltu", "xor", "srl", "sra", "or", "and",
                                      "mul", "mulh", "mulhsu", "mulhu", "div", "divu", "rem", "remu" };
    static const char *const ri[] = { "addi", "slti", "sltiu", "xori", "ori", "andi" };
    static const char *const sh[] = { "slli", "srli", "srai" };
    static const char *const fr[] = { "fadd.s", "fsub.s", "fmul.s", "fdiv.s" };
    static const char *const f3[] = { "fmadd.s", "fmsub.s", "fnmsub.s", "fnmadd.s" };
    static const char *const f2[] = { "fmin.s", "fmax.s", "fsgnj.s", "fsgnjn.s", "fsgnjx.s" };
    static const char *const fc[] = { "feq.s", "flt.s", "fle.s" };
    static const char *const amo[] = { "amoswap.w", "amoadd.w", "amoxor.w", "amoand.w", "amoor.w",
                                       "amomin.w", "amomax.w", "amominu.w", "amomaxu.w" };
    static const char *const br[] = { "beq", "bne", "blt", "bge", "bltu", "bgeu" };
    int mem = DIFF_MEM * 4;
    switch (pick(20)) {
    case 0: case 1: case 2: case 3:
        LINE("  %s x%d, x%d, x%d\n", rr[P(0, 18)], XREG(1), XSRC(2), XSRC(3));
        break;
    case 4: case 5:
        LINE("  %s x%d, x%d, %d\n", ri[P(0, 6)], XREG(1), XSRC(2), (int)P(3, 4096) - 2048);
        break;
    case 6:
        LINE("  %s x%d, x%d, %u\n", sh[P(0, 3)], XREG(1), XSRC(2), P(3, 32));
        break;
    case 7:
        LINE("  lui x%d, %u\n", XREG(0), P(1, 1u << 20));
        break;
    case 8: { /* loads of every width from the scratch area */
        static const char *const ld[] = { "lb", "lbu", "lh", "lhu", "lw" };
        static const int al[] = { 1, 1, 2, 2, 4 };
        int k = (int)pick(5);
        LINE("  %s x%d, %d(a0)\n", ld[k], XREG(0), mem + (int)(P(1, DIFF_MEM_WORDS * 4 / al[k]) * al[k]));
        break;
    }
    case 9: {
        static const char *const st[] = { "sb", "sh", "sw" };
        static const int al[] = { 1, 2, 4 };
        int k = (int)pick(3);
        LINE("  %s x%d, %d(a0)\n", st[k], XSRC(0), mem + (int)(P(1, DIFF_MEM_WORDS * 4 / al[k]) * al[k]));
        break;
    }
    case 10:
        if (pick(2)) LINE("  flw f%u, %d(a0)\n", P(0, 32), mem + (int)P(1, DIFF_MEM_WORDS) * 4);
        else LINE("  fsw f%u, %d(a0)\n", P(0, 32), mem + (int)P(1, DIFF_MEM_WORDS) * 4);
        break;
    case 11: /* atomics on a scratch word */
        printf("  addi x31, a0, %d\n", mem + (int)pick(DIFF_MEM_WORDS) * 4);
        if (pick(4) == 0) LINE("  lr.w x%d, (x31)\n  sc.w x%d, x%d, (x31)\n", XREG(0), XREG(1), XSRC(2));
        else LINE("  %s x%d, x%d, (x31)\n", amo[P(0, 9)], XREG(1), XSRC(2));
        break;
    case 12: case 13:
        LINE("  %s f%u, f%u, f%u, %s\n", fr[P(0, 4)], P(1, 32), P(2, 32), P(3, 32), RM(4));
        break;
    case 14:
        LINE("  %s f%u, f%u, f%u, f%u, %s\n", f3[P(0, 4)], P(1, 32), P(2, 32), P(3, 32), P(4, 32), RM(5));
        break;
    case 15:
        if (pick(3) == 0) LINE("  fsqrt.s f%u, f%u, %s\n", P(0, 32), P(1, 32), RM(2));
        else LINE("  %s f%u, f%u, f%u\n", f2[P(0, 5)], P(1, 32), P(2, 32), P(3, 32));
        break;
    case 16:
        switch (pick(7)) {
        case 0: LINE("  fcvt.w.s x%d, f%u, %s\n", XREG(0), P(1, 32), RM(2)); break;
        case 1: LINE("  fcvt.wu.s x%d, f%u, %s\n", XREG(0), P(1, 32), RM(2)); break;
        case 2: LINE("  fcvt.s.w f%u, x%d, %s\n", P(0, 32), XSRC(1), RM(2)); break;
        case 3: LINE("  fcvt.s.wu f%u, x%d, %s\n", P(0, 32), XSRC(1), RM(2)); break;
        case 4: LINE("  fmv.x.w x%d, f%u\n", XREG(0), P(1, 32)); break;
        case 5: LINE("  fmv.w.x f%u, x%d\n", P(0, 32), XSRC(1)); break;
        default: LINE("  fclass.s x%d, f%u\n", XREG(0), P(1, 32)); break;
        }
        break;
    case 17:
        if (pick(4) == 0) LINE("  fsrmi x%d, %u\n", XREG(0), P(1, 5));
        else LINE("  %s x%d, f%u, f%u\n", fc[P(0, 3)], XREG(1), P(2, 32), P(3, 32));
        break;
    default: { /* a short forward branch: lanes diverge on data */
        int l = (*label)++;
        LINE("  %s x%d, x%d, .Lskip%d\n", br[P(0, 6)], XSRC(1), XSRC(2), l);
        for (uint32_t i = 0, n = 1 + pick(3); i < n; i++)
            LINE("  %s x%d, x%d, x%d\n", rr[P(0, 10)], XREG(1), XSRC(2), XSRC(3));
        printf(".Lskip%d:\n", l);
        break;
    }
    }
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: gen_diff SEED COUNT\n"); return 2; }
    rng = (uint32_t)strtoul(argv[1], NULL, 0) * 2654435761u + 12345u;
    int count = atoi(argv[2]), label = 0;
    static const int saved_x[] = { 1, 3, 4, 8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27 };
    static const int saved_f[] = { 8, 9, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27 };
    printf("# generated by gen_diff %s %s\n  .text\n  .globl diff_body\n  .type diff_body, @function\n"
           "diff_body:\n  addi sp, sp, -128\n", argv[1], argv[2]);
    for (int i = 0; i < 15; i++) printf("  sw x%d, %d(sp)\n", saved_x[i], 4 * i);
    for (int i = 0; i < 12; i++) printf("  fsw f%d, %d(sp)\n", saved_f[i], 60 + 4 * i);
    for (int r = 1; r < 32; r++)
        if (r != 2 && r != 10) printf("  lw x%d, %d(a0)\n", r, 4 * (DIFF_X + r));
    for (int r = 0; r < 32; r++) printf("  flw f%d, %d(a0)\n", r, 4 * (DIFF_F + r));
    printf("  lw x31, %d(a0)\n  fscsr x31\n  lw x31, %d(a0)\n", 4 * DIFF_FCSR, 4 * (DIFF_X + 31));
    for (int i = 0; i < count; i++) emit_one(&label);
    printf("  li x31, 0\n"); /* it held scratch addresses, which differ between the two builds */
    for (int r = 1; r < 32; r++)
        if (r != 2 && r != 10) printf("  sw x%d, %d(a0)\n", r, 4 * (DIFF_X + r));
    for (int r = 0; r < 32; r++) printf("  fsw f%d, %d(a0)\n", r, 4 * (DIFF_F + r));
    printf("  frcsr x31\n  sw x31, %d(a0)\n", 4 * DIFF_FCSR);
    for (int i = 0; i < 15; i++) printf("  lw x%d, %d(sp)\n", saved_x[i], 4 * i);
    for (int i = 0; i < 12; i++) printf("  flw f%d, %d(sp)\n", saved_f[i], 60 + 4 * i);
    printf("  addi sp, sp, 128\n  ret\n  .size diff_body, .-diff_body\n");
    return 0;
}
