/* qemu-riscv32 side of the control-flow differential test: read the inputs
 * from stdin, run the generated phases once per thread id in the order the
 * device's barrier implies, write the outputs to stdout. Linux system calls,
 * no C library. */
#include <stddef.h>
#include <stdint.h>
#include "cf_body.h"

static uint32_t in[CF_THREADS * CF_IN], out[CF_THREADS * CF_OUT], xch[CF_THREADS];
static uint8_t ended[CF_THREADS];

/* clang may call these for local arrays even when freestanding */
void *memset(void *d, int c, size_t n)
{
    unsigned char *p = d;
    while (n--) *p++ = (unsigned char)c;
    return d;
}
void *memcpy(void *d, const void *s, size_t n)
{
    unsigned char *p = d;
    const unsigned char *q = s;
    while (n--) *p++ = *q++;
    return d;
}

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
    int rc = io(63, (char *)in, sizeof in);
    if (rc == 0) {
        for (uint32_t i = 0; i < CF_THREADS; i++)
            ended[i] = (uint8_t)cf_phase_a(i, in + i * CF_IN, out + i * CF_OUT, &xch[i]);
        for (uint32_t i = 0; i < CF_THREADS; i++) {
            if (ended[i]) continue;
            uint32_t b = i / CF_BLOCK, t = i % CF_BLOCK, o = b * CF_BLOCK + (t * 7 + 3) % CF_BLOCK;
            cf_phase_b(i, ended[o] ? 0 : xch[o], in + i * CF_IN, out + i * CF_OUT);
        }
        rc = io(64, (char *)out, sizeof out);
    }
    sys(93, rc ? 1 : 0, 0, 0);
    for (;;) { }
}

__asm__(".globl _start\n_start:\n  andi sp, sp, -16\n  call qemu_main\n");
