/* Divergence patterns with exactly known instruction counts: each body is
 * a naked function written in assembly, so the issued-instruction counts
 * that the reconvergence rule implies can be worked out by hand
 * (test_reconvergence.c). The kernels are C wrappers (the loader learns
 * their parameters from DWARF) that tail-call the body; `straight`, a body
 * without branches, measures what a wrapper adds. Each thread writes a
 * value to out[thread]. */
#include <warpscope/kernel.h>

#define BODY static __attribute__((naked, noinline, used))
#define KERNEL_FOR(name) WS_KERNEL void name(int *out) { name##_body(out); }

/* No branch: 5 instructions for every thread. */
BODY void straight_body(int *out)
{
    __asm__ volatile(
        "csrr t0, 0xCC4\n"
        "slli t3, t0, 2\n"
        "add t3, a0, t3\n"
        "sw t0, 0(t3)\n"
        "ret\n");
}
KERNEL_FOR(straight)

/* if/else: odd threads run 2 instructions and a jump, even threads 3,
 * then everyone stores at the join. */
BODY void if_else_body(int *out)
{
    __asm__ volatile(
        "csrr t0, 0xCC4\n"       /* thread x                                  */
        "andi t1, t0, 1\n"
        "beqz t1, 1f\n"
        "addi t2, zero, 10\n"    /* odd                                       */
        "addi t2, t2, 1\n"
        "j 2f\n"
        "1: addi t2, zero, 20\n" /* even                                      */
        "addi t2, t2, 2\n"
        "addi t2, t2, 3\n"
        "2: slli t3, t0, 2\n"    /* join: out[x] = t2                         */
        "add t3, a0, t3\n"
        "sw t2, 0(t3)\n"
        "ret\n");
}
KERNEL_FOR(if_else)

/* Nested if: odd threads enter; of those, threads with bit 1 set enter the
 * inner block. */
BODY void nested_if_body(int *out)
{
    __asm__ volatile(
        "csrr t0, 0xCC4\n"
        "addi t4, zero, 0\n"
        "andi t1, t0, 1\n"
        "beqz t1, 2f\n"
        "andi t2, t0, 2\n"
        "beqz t2, 1f\n"
        "addi t4, t4, 100\n"     /* inner: odd and bit 1                      */
        "1: addi t4, t4, 1\n"    /* outer tail: odd                           */
        "2: slli t3, t0, 2\n"
        "add t3, a0, t3\n"
        "sw t4, 0(t3)\n"
        "ret\n");
}
KERNEL_FOR(nested_if)

/* A loop whose trip count is per lane: (x & 3) + 1 iterations. */
BODY void per_lane_loop_body(int *out)
{
    __asm__ volatile(
        "csrr t0, 0xCC4\n"
        "andi t1, t0, 3\n"
        "addi t1, t1, 1\n"
        "addi t2, zero, 0\n"
        "1: addi t2, t2, 1\n"
        "addi t1, t1, -1\n"
        "bnez t1, 1b\n"
        "slli t3, t0, 2\n"
        "add t3, a0, t3\n"
        "sw t2, 0(t3)\n"
        "ret\n");
}
KERNEL_FOR(per_lane_loop)

/* Early return: threads 0-7 return at once (writing nothing). */
BODY void early_return_body(int *out)
{
    __asm__ volatile(
        "csrr t0, 0xCC4\n"
        "sltiu t1, t0, 8\n"
        "bnez t1, 1f\n"
        "slli t3, t0, 2\n"
        "add t3, a0, t3\n"
        "sw t0, 0(t3)\n"
        "ret\n"
        "1: ret\n");
}
KERNEL_FOR(early_return)

/* Divergence inside a call: the leaf (after the body, at higher addresses)
 * branches on the lane's parity; odd lanes return first. The deepest lanes
 * issue first, so the even lanes finish the leaf before anyone goes on, and
 * the ballot after the call sees all 32 lanes (under "lowest PC first"
 * alone the odd lanes, back in the caller at a lower PC, would vote alone). */
BODY void call_diverge_body(int *out)
{
    __asm__ volatile(
        "csrr t0, 0xCC4\n"
        "mv t5, ra\n"
        "li t6, 1\n"
        "jal ra, 5f\n"                      /* call the leaf                   */
        ".insn r 0x0B, 3, 1, t2, t6, x0\n"  /* vote.ballot t2, t6              */
        "slli t3, t0, 2\n"
        "add t3, a0, t3\n"
        "sw t2, 0(t3)\n"
        "mv ra, t5\n"
        "ret\n"
        "5: andi t1, t0, 1\n"               /* leaf                            */
        "beqz t1, 6f\n"
        "addi t4, zero, 1\n"                /* odd                             */
        "ret\n"
        "6: addi t4, zero, 2\n"             /* even                            */
        "addi t4, t4, 1\n"
        "ret\n");
}
KERNEL_FOR(call_diverge)

/* A call only some lanes make: odd lanes call a leaf, even lanes wait at
 * the join right after the call; the callers finish the leaf and return
 * to the join, and the ballot sees all 32. */
BODY void skip_call_body(int *out)
{
    __asm__ volatile(
        "csrr t0, 0xCC4\n"
        "li t6, 1\n"
        "mv t5, ra\n"
        "andi t1, t0, 1\n"
        "beqz t1, 2f\n"
        "jal ra, 5f\n"                      /* odd: call the leaf              */
        "2: .insn r 0x0B, 3, 1, t2, t6, x0\n"
        "slli t3, t0, 2\n"
        "add t3, a0, t3\n"
        "sw t2, 0(t3)\n"
        "mv ra, t5\n"
        "ret\n"
        "5: addi t4, zero, 1\n"
        "ret\n");
}
KERNEL_FOR(skip_call)

/* The warp-shuffle scan as clang -O1 lays it out: the loop rotated, its
 * latch above its header, and the `if (lane >= d) v += u` body below the
 * header, jumping back up to the latch. In address order the lanes that
 * skip the body (the latch is lower) ran the latch and the next shuffle
 * without the others, and the scan came out wrong; in issue order
 * (docs/device.md: the body before the latch) they wait at the latch for
 * the body's lanes, and every shuffle has all 32. out[x] = x + 1, the
 * inclusive scan of ones. */
BODY void rotated_scan_body(int *out)
{
    __asm__ volatile(
        "csrr t0, 0xCC0\n"                  /* lane                             */
        "addi t2, zero, 1\n"                /* v = 1                            */
        "addi t1, zero, 1\n"                /* d = 1                            */
        "addi t4, zero, 32\n"
        "j 2f\n"
        "1: slli t1, t1, 1\n"               /* latch: d <<= 1                   */
        "bgeu t1, t4, 3f\n"
        "2: .insn r 0x0B, 4, 1, t5, t2, t1\n" /* header: u = shfl.up(v, d)       */
        "bltu t0, t1, 1b\n"                 /* lane < d: no add                 */
        "add t2, t2, t5\n"                  /* body: v += u                     */
        "j 1b\n"
        "3: slli t3, t0, 2\n"
        "add t3, a0, t3\n"
        "sw t2, 0(t3)\n"
        "ret\n");
}
KERNEL_FOR(rotated_scan)
