/* Functions whose block layout the loader's issue order must handle
 * (test_issue_order.c reads their keys): naked, in assembly, so the
 * layout is exactly as written. */
#include <warpscope/kernel.h>

#define BODY __attribute__((naked, noinline, used))

/* if/else with the join after both arms: address order is issue order */
BODY void in_order(void)
{
    __asm__ volatile("beqz a0, 1f\n"
                     "addi a1, a1, 1\n"
                     "j 2f\n"
                     "1: addi a1, a1, 2\n"
                     "2: ret\n");
}

/* A rotated loop: the latch above the header, the if body below both
 * (the -O1 warp scan, its header holding a vote). Issue order: entry,
 * header, body, latch, exit. */
BODY void rotated(void)
{
    __asm__ volatile(".option push\n.option norvc\n" /* 4-byte instructions: known offsets */
                     "addi t1, zero, 1\n"           /* entry               */
                     "j 2f\n"
                     "1: slli t1, t1, 1\n"          /* latch               */
                     "bgeu t1, a2, 3f\n"
                     "2: addi a3, a3, 1\n"          /* header, with a vote */
                     ".insn r 0x0B, 3, 1, t2, t6, x0\n"
                     "bltu a0, t1, 1b\n"
                     "add a4, a4, a3\n"             /* body                */
                     "j 1b\n"
                     "3: ret\n"                     /* exit                */
                     ".option pop\n");
}

/* A loop without a vote, shuffle or barrier: its lanes need not
 * wait for each other at its header, so it records no end. */
BODY void quiet_loop(void)
{
    __asm__ volatile("1: addi a0, a0, -1\n"
                     "bnez a0, 1b\n"
                     "ret\n");
}

/* A vote alone, and loops calling it (through `call`: auipc and jalr)
 * or calling a function without one (in_order): the first holds its
 * lanes at its header as if the vote were in it, the second does not. */
BODY void vote_only(void)
{
    __asm__ volatile(".insn r 0x0B, 3, 1, t2, t6, x0\n"
                     "ret\n");
}

BODY void calls_vote_loop(void)
{
    __asm__ volatile("1: call vote_only\n"
                     "addi a0, a0, -1\n"
                     "bnez a0, 1b\n"
                     "ret\n");
}

BODY void calls_quiet_loop(void)
{
    __asm__ volatile("1: call in_order\n"
                     "addi a0, a0, -1\n"
                     "bnez a0, 1b\n"
                     "ret\n");
}

/* A switch through a jump table in .rodata whose cases sit below their
 * join, as clang lays some out: the jump goes to each address in the
 * table, so issue order is entry, case 0, case 1, join. */
BODY void table_switch(void)
{
    __asm__ volatile(".option push\n.option norvc\n"   /* 4-byte instructions: known offsets */
                     "lui t0, %hi(.Ltsw_table)\n"       /* entry, 0  */
                     "addi t0, t0, %lo(.Ltsw_table)\n"
                     "slli a0, a0, 2\n"
                     "add t0, t0, a0\n"
                     "lw t0, 0(t0)\n"
                     "jr t0\n"
                     ".Ltsw_join: add a1, a1, a2\n"      /* join, 24  */
                     "ret\n"
                     ".Ltsw_case0: addi a2, a2, 1\n"     /* case 0, 32 */
                     "j .Ltsw_join\n"
                     ".Ltsw_case1: addi a2, a2, 2\n"     /* case 1, 40 */
                     "j .Ltsw_join\n"
                     ".option pop\n"
                     ".pushsection .rodata\n.p2align 2\n"
                     ".Ltsw_table: .word .Ltsw_case0, .Ltsw_case1\n"
                     ".popsection\n");
}

/* Two switches, each case jumping back up to its join, as clang lays out
 * an unrolled loop of switches: each jump goes to its own table's cases.
 * Were every table's cases the targets of both jumps, the second jump
 * would reach the first switch's cases and make a loop entered at two
 * places (irreducible): address order, as until 2026-11-29. Issue order:
 * entry, 1a, 1b, join 1, 2a, 2b, join 2. */
BODY void two_tables(void)
{
    __asm__ volatile(".option push\n.option norvc\n"
                     "lui t0, %hi(.Ltt_t1)\n"           /* entry, 0     */
                     "addi t0, t0, %lo(.Ltt_t1)\n"
                     "slli a0, a0, 2\n"
                     "add t0, t0, a0\n"
                     "lw t0, 0(t0)\n"
                     "jr t0\n"
                     ".Ltt_j1: addi a1, a1, 1\n"         /* join 1, 24   */
                     "lui t0, %hi(.Ltt_t2)\n"
                     "addi t0, t0, %lo(.Ltt_t2)\n"
                     "add t0, t0, a0\n"
                     "lw t0, 0(t0)\n"
                     "jr t0\n"
                     ".Ltt_j2: ret\n"                    /* join 2, 48   */
                     ".Ltt_1a: addi a2, a2, 1\n"         /* 1a, 52       */
                     "j .Ltt_j1\n"
                     ".Ltt_1b: addi a2, a2, 2\n"         /* 1b, 60       */
                     "j .Ltt_j1\n"
                     ".Ltt_2a: addi a2, a2, 3\n"         /* 2a, 68       */
                     "j .Ltt_j2\n"
                     ".Ltt_2b: addi a2, a2, 4\n"         /* 2b, 76       */
                     "j .Ltt_j2\n"
                     ".option pop\n"
                     ".pushsection .rodata\n.p2align 2\n"
                     ".Ltt_t1: .word .Ltt_1a, .Ltt_1b\n"
                     ".Ltt_t2: .word .Ltt_2a, .Ltt_2b\n"
                     ".popsection\n");
}

/* A jump through a register to a block no table holds (an address built
 * in code): not followed, so address order. */
BODY void indirect(void)
{
    __asm__ volatile("la t0, 1f\n"
                     "jr t0\n"
                     "addi a0, a0, 1\n"
                     "1: addi a0, a0, 2\n"
                     "j 2f\n"
                     "2: ret\n");
}

/* A loop entered at two places (irreducible): the entry's branch goes to
 * the loop's second block and its fall-through, by a jump, to the latch.
 * Not kept together and no header held, but still in topological order of
 * the edges the search did not find to go back: entry 0, jump 4, block 2
 * at 12, latch 16, block 1 at 8 (after the latch that jumps back to it),
 * exit 20 (until 2026-11-29 such a function kept address order). */
BODY void irreducible(void)
{
    __asm__ volatile(".option push\n.option norvc\n"
                     "beqz a0, 2f\n"
                     "j 3f\n"
                     "1: addi a1, a1, -1\n"
                     "2: addi a1, a1, -1\n"
                     "3: bnez a1, 1b\n"
                     "ret\n"
                     ".option pop\n");
}

WS_KERNEL void order_kernel(int *out)
{
    out[0] = 0;
}
