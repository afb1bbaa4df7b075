/* Kernels of test_timing that timing.golden does not pin (timing_kernels.c
 * is pinned PC for PC: a kernel added there moves the hashes).
 *
 * The GTO scheduler's order (test_timing's gto_order). Block 0 (A) counts
 * a loop down and exits, block 1 (B) waits for a global load and then
 * issues a stream of independent adds, block 2 (C), which takes A's warp
 * slot, issues a stream of its own. Over a range of A's work (k turns of
 * its loop, m extra adds) C's first instruction and B's stream become
 * eligible in the same cycle: GTO must issue B, the older warp. */
#include <warpscope/kernel.h>

WS_KERNEL void gto_probe(unsigned *p, int k, int m)
{
    register unsigned a0_ __asm__("a0") = (unsigned)(uintptr_t)p;
    register int a1_ __asm__("a1") = k;
    register int a2_ __asm__("a2") = m;
    __asm__ volatile(".option push\n.option norvc\n"
        "csrr t0, 0xCC7\n"                      /* block index */
        "beqz t0, 10f\n"
        "li t1, 1\n"
        "beq t0, t1, 20f\n"
        "add a3, a4, a4\nadd a3, a4, a4\nadd a3, a4, a4\nadd a3, a4, a4\n"   /* C */
        "add a3, a4, a4\nadd a3, a4, a4\nadd a3, a4, a4\nadd a3, a4, a4\n"
        "j 99f\n"
        "10: beqz a1, 12f\n"                    /* A */
        "11: addi a1, a1, -1\nbnez a1, 11b\n"
        "12: beqz a2, 99f\n"
        "13: add a3, a4, a4\naddi a2, a2, -1\nbnez a2, 13b\n"
        "j 99f\n"
        "20: lw a5, 0(a0)\nadd a5, a5, a5\n"    /* B */
        "add a3, a4, a4\nadd a3, a4, a4\nadd a3, a4, a4\nadd a3, a4, a4\n"
        "add a3, a4, a4\nadd a3, a4, a4\nadd a3, a4, a4\nadd a3, a4, a4\n"
        "add a3, a4, a4\nadd a3, a4, a4\nadd a3, a4, a4\nadd a3, a4, a4\n"
        "99:\n"
        ".option pop\n"
        : "+r"(a0_), "+r"(a1_), "+r"(a2_) : : "a3", "a4", "a5", "t0", "t1", "memory");
}

/* A taken branch, timed by hand in docs/timing.md ("A taken branch, cycle
 * by cycle"): 14 cycles for one warp with the default parameters. */
WS_KERNEL __attribute__((naked)) void taken_branch(void)
{
    __asm__ volatile(".option push\n.option norvc\n"
                     "beq x0, x0, 1f\n"
                     "nop\n"
                     "1: add a1, a1, a1\n"
                     "ret\n"
                     ".option pop\n");
}

/* Shared-memory atomics, iters each: every lane on one word (spread = 0)
 * or each on its own bank's word (spread = 1). */
WS_SHARED unsigned shared_counts[32];
WS_KERNEL void shared_atomics(unsigned *out, unsigned spread, int iters)
{
    unsigned lane = threadIdx_x() & 31;
    shared_counts[lane] = 0;
    ws_syncthreads();
    for (int i = 0; i < iters; i++) atomicAdd(&shared_counts[lane * spread], 1u);
    ws_syncthreads();
    out[lane] = shared_counts[lane];
}

/* amocas.d's register pairs on the scoreboard (test_timing's cas_pairs):
 * the instruction after it reads rd's first or second register, or a load
 * before it writes rs2's first or second register; each pair of kernels
 * must take the same cycles (both registers of a pair land, or are read,
 * together), and more than cas_none, whose add depends on neither.
 * amocas.d.aqrl a4, a6, (a0) is 0x2f05372f (clang has no mnemonic). */
#define CAS_D ".word 0x2f05372f\n"
#define CAS_KERNEL(name, body)                                                                 \
    WS_KERNEL void name(unsigned long long *p)                                                 \
    {                                                                                          \
        register unsigned long long *a0_ __asm__("a0") = p;                                    \
        __asm__ volatile(".option push\n.option norvc\n" body ".option pop\n"                \
                         : : "r"(a0_) : "a1", "a2", "a4", "a5", "a6", "a7", "memory");         \
    }
CAS_KERNEL(cas_rd_lo, CAS_D "add a1, a4, a4\n")
CAS_KERNEL(cas_rd_hi, CAS_D "add a1, a5, a5\n")
CAS_KERNEL(cas_rs2_lo, "lw a6, 8(a0)\n" CAS_D)
CAS_KERNEL(cas_rs2_hi, "lw a7, 8(a0)\n" CAS_D)
CAS_KERNEL(cas_none, CAS_D "add a1, a2, a2\n")

/* An ecall reads its service's registers (test_timing's ecall_operands):
 * write(1, buf, 0) with buf (a1) just loaded must wait for the load. */
WS_KERNEL void ecall_waits_a1(unsigned *p)
{
    register unsigned *a0_ __asm__("a0") = p;
    __asm__ volatile(".option push\n.option norvc\n"
                     "mv a3, a0\nlw a1, 0(a3)\nli a0, 1\nli a2, 0\nli a7, 64\necall\n"
                     ".option pop\n"
                     : "+r"(a0_) : : "a1", "a2", "a3", "a7", "memory");
}

/* A warp's last memory write drains before the launch ends (test_timing's
 * atomic_drain): an atomic whose old value goes unused (rd a1 is never
 * read) writes memory as a store does. */
#define LAST_WRITE_KERNEL(name, body)                                                          \
    WS_KERNEL void name(unsigned *p)                                                           \
    {                                                                                          \
        register unsigned *a0_ __asm__("a0") = p;                                              \
        __asm__ volatile(".option push\n.option norvc\nli a2, 1\n" body ".option pop\n"        \
                         : : "r"(a0_) : "a1", "a2", "memory");                                 \
    }
LAST_WRITE_KERNEL(last_store, "sw a2, 0(a0)\n")
LAST_WRITE_KERNEL(last_atomic, "amoadd.w a1, a2, (a0)\n")

/* Global atomics on one word or a word each (test_timing's atomic_turns):
 * lanes naming one word take turns at the LSU port. */
WS_KERNEL void atomic_words(unsigned *p, unsigned spread)
{
    atomicAdd(&p[threadIdx_x() * spread], 1u);
}
