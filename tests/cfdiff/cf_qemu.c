/* qemu-riscv32 side of the control-flow differential test: read the inputs
 * from stdin, run the generated phases once per thread id in the order the
 * device's barrier implies, write the outputs to stdout. Linux system calls,
 * no C library. */
#include <stddef.h>
#include <stdint.h>
#include "cf_body.h"
#include "../qemu_diff/qemu_sys.h"

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

void qemu_main(void)
{
    int rc = qemu_io(63, (char *)in, sizeof in);
    if (rc == 0) {
        for (uint32_t i = 0; i < CF_THREADS; i++)
            ended[i] = (uint8_t)cf_phase_a(i, in + i * CF_IN, out + i * CF_OUT, &xch[i]);
        for (uint32_t i = 0; i < CF_THREADS; i++) {
            if (ended[i]) continue;
            uint32_t b = i / CF_BLOCK, t = i % CF_BLOCK, o = b * CF_BLOCK + (t * 7 + 3) % CF_BLOCK;
            cf_phase_b(i, ended[o] ? 0 : xch[o], in + i * CF_IN, out + i * CF_OUT);
        }
        rc = qemu_io(64, (char *)out, sizeof out);
    }
    qemu_sys(93, rc ? 1 : 0, 0, 0);
    for (;;) { }
}

__asm__(".globl _start\n_start:\n  andi sp, sp, -16\n  call qemu_main\n");
