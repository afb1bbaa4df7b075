/* Thread-local storage in kernels: picolibc's errno (strtol sets it) and
 * _Thread_local variables with initializers. Each lane has its own copy,
 * fresh at every launch (docs/kernel-api.md). Before 2026-11-27 such a
 * module did not link (the linker script had no .tdata/.tbss), and tp was
 * zero. */
#include <warpscope/kernel.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>

_Thread_local int counter = 5;
_Thread_local long long wide[3] = { 1, 2, 3 };

WS_KERNEL void tls(int *out)
{
    unsigned t = threadIdx_x();
    counter += (int)t;
    wide[2] += t;
    errno = 0;
    long v = strtol(t & 1 ? "99999999999" : "-12", NULL, 10); /* odd lanes: ERANGE */
    out[t * 4] = counter;
    out[t * 4 + 1] = (int)wide[2];
    out[t * 4 + 2] = (int)(v == LONG_MAX ? 1 : v);
    out[t * 4 + 3] = errno;
}
