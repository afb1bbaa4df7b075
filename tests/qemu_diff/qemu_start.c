/* qemu-riscv32 side: read the state blocks from stdin, run the test
 * function on each, write them back to stdout, exit. Linux system calls. */
#include <stdint.h>
#include "diff_state.h"

void DIFF_FN(uint32_t *state);

static uint32_t states[DIFF_STATES * DIFF_WORDS];

static long sys(long n, long a, long b, long c)
{
    register long a0 __asm__("a0") = a;
    register long a1 __asm__("a1") = b;
    register long a2 __asm__("a2") = c;
    register long a7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
    return a0;
}

static int io(long call, char *p, long len)
{
    while (len > 0) {
        long r = sys(call, call == 63 ? 0 : 1, (long)p, len);
        if (r <= 0) return -1;
        p += r;
        len -= r;
    }
    return 0;
}

void qemu_main(void)
{
    int rc = io(63, (char *)states, sizeof states);
    for (int i = 0; rc == 0 && i < DIFF_STATES; i++) DIFF_FN(states + i * DIFF_WORDS);
    if (rc == 0) rc = io(64, (char *)states, sizeof states);
    sys(93, rc ? 1 : 0, 0, 0);
    for (;;) { }
}

/* The stack qemu provides is fine; align it and go. */
__asm__(".globl _start\n_start:\n  andi sp, sp, -16\n  call qemu_main\n");
