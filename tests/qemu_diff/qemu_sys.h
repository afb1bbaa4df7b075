/* The bare-metal side of the qemu-riscv32 programs the differential tests
 * build (qemu_start.c, tests/cfdiff/cf_qemu.c): Linux system calls through
 * ecall, and whole reads and writes of stdin/stdout on top of them. */
#ifndef WS_TEST_QEMU_SYS_H
#define WS_TEST_QEMU_SYS_H

static inline long qemu_sys(long n, long a, long b, long c)
{
    register long a0 __asm__("a0") = a;
    register long a1 __asm__("a1") = b;
    register long a2 __asm__("a2") = c;
    register long a7 __asm__("a7") = n;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
    return a0;
}

/* call 63 (read: stdin) or 64 (write: stdout) until len bytes moved; -1 on
 * an error or an early end. */
static inline int qemu_io(long call, char *p, long len)
{
    while (len > 0) {
        long r = qemu_sys(call, call == 63 ? 0 : 1, (long)p, len);
        if (r <= 0) return -1;
        p += r;
        len -= r;
    }
    return 0;
}
#endif
