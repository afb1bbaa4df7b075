/* Device-side support: printf, assert, trap, and the few hooks picolibc
 * expects. Compiled for the device by kernel/CMakeLists.txt. */
#include <stdarg.h>
#include <warpscope/kernel.h>

#undef printf

static long ws_ecall3(long svc, long a0, long a1, long a2, long a3)
{
    register long r_a0 __asm__("a0") = a0;
    register long r_a1 __asm__("a1") = a1;
    register long r_a2 __asm__("a2") = a2;
    register long r_a3 __asm__("a3") = a3;
    register long r_a7 __asm__("a7") = svc;
    __asm__ volatile("ecall" : "+r"(r_a0) : "r"(r_a1), "r"(r_a2), "r"(r_a3), "r"(r_a7) : "memory");
    return r_a0;
}

/* One record of at most WS_PRINTF_MAX bytes per call. Longer output is cut
 * there; when the format ends a line, the cut record still ends with its
 * newline, so the next record does not run on into this line. */
#define WS_PRINTF_MAX 256
/* nodebug: printf is one operation to the kernel writer; without lines of
 * its own gdb's `step` steps over the call (docs/debugging.md). */
__attribute__((nodebug)) int ws_vprintf(const char *fmt, va_list ap)
{
    char buf[WS_PRINTF_MAX + 1];
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    if (n < 0) return n;
    size_t len = (size_t)n;
    if (len > WS_PRINTF_MAX) {
        size_t fl = __builtin_strlen(fmt);
        len = WS_PRINTF_MAX;
        if (fl && fmt[fl - 1] == '\n') buf[len - 1] = '\n';
    }
    ws_ecall3(WS_ECALL_WRITE, 1, (long)(uintptr_t)buf, (long)len, 0);
    return n;
}

__attribute__((nodebug)) int ws_printf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = ws_vprintf(fmt, ap);
    va_end(ap);
    return n;
}

void ws_assert_fail(const char *expr, const char *file, unsigned line, const char *func)
{
    ws_ecall3(WS_ECALL_ASSERT, (long)(uintptr_t)expr, (long)(uintptr_t)file, (long)line, (long)(uintptr_t)func);
    __builtin_unreachable();
}

void ws_trap(const char *message)
{
    ws_ecall3(WS_ECALL_TRAP, (long)(uintptr_t)message, 0, 0, 0);
    __builtin_unreachable();
}

/* picolibc hooks: nothing on the device exits a process or does I/O. */
void abort(void) { ws_trap("abort() called"); }
void _exit(int code) { (void)code; ws_trap("exit() called"); }
void __assert_func(const char *file, int line, const char *func, const char *expr)
{
    ws_assert_fail(expr, file, (unsigned)line, func);
}
