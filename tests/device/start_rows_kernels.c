/* Kernels for test_start_rows.c. No instruction here writes a1-a7 or
 * fa0-fa7 (the registers are only read, by stores; addresses go through
 * t0 and t1), so only a warp start's own clearing can zero them. */
#include <warpscope/kernel.h>

/* Thread i's a1-a7, fa0-fa7 to o[16 i + 1 .. 16 i + 15], as it starts. */
#define STORE_ROWS                                                                                         \
    __asm__ volatile("csrr t0, 0xCC7\n csrr t1, 0xCCA\n mul t0, t0, t1\n csrr t1, 0xCC4\n add t0, t0, t1\n" \
                     "slli t0, t0, 6\n add t0, t0, a0\n"                                                     \
                     "sw a1, 4(t0)\n sw a2, 8(t0)\n sw a3, 12(t0)\n sw a4, 16(t0)\n sw a5, 20(t0)\n"           \
                     "sw a6, 24(t0)\n sw a7, 28(t0)\n fsw fa0, 32(t0)\n fsw fa1, 36(t0)\n fsw fa2, 40(t0)\n"   \
                     "fsw fa3, 44(t0)\n fsw fa4, 48(t0)\n fsw fa5, 52(t0)\n fsw fa6, 56(t0)\n fsw fa7, 60(t0)" \
                     ::: "t0", "t1", "memory")

WS_KERNEL void many_args(int *o, int a1, int a2, int a3, int a4, int a5, int a6, int a7, float f0, float f1,
                         float f2, float f3, float f4, float f5, float f6, float f7)
{
    STORE_ROWS;
    (void)o, (void)a1, (void)a2, (void)a3, (void)a4, (void)a5, (void)a6, (void)a7;
    (void)f0, (void)f1, (void)f2, (void)f3, (void)f4, (void)f5, (void)f6, (void)f7;
}

WS_KERNEL void one_arg(int *o)
{
    STORE_ROWS;
    (void)o;
}
