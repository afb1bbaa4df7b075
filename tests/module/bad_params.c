/* Modules the loader must reject with a clear message, one per build,
 * chosen with -D: kernels whose parameters cannot be passed, and code
 * that refers PC-relatively to static shared memory; and two it took for
 * such until 2026-11-29, a struct and a union by value (BAD_BYVAL_*). */
#include <warpscope/kernel.h>

struct pair { int a, b; };
union bits { float f; unsigned u; };

WS_KERNEL void good(int *out) { out[0] = 1; }

#if defined(BAD_BYVAL_STRUCT)
WS_KERNEL void takes_struct(int *out, struct pair p) { out[0] = p.a + p.b; }
#elif defined(BAD_BYVAL_UNION)
WS_KERNEL void takes_union(union bits b, unsigned *out) { out[0] = b.u; }
#elif defined(BAD_LONG_DOUBLE)
WS_KERNEL void takes_long_double(long double x, float *out) { out[0] = (float)x; }
#elif defined(BAD_COMPLEX)
WS_KERNEL void takes_complex(float *out, float _Complex z) { out[0] = __real__ z + __imag__ z; }
#elif defined(BAD_MEDANY)
/* built with -mcmodel=medany: shared memory is reached with auipc */
WS_SHARED int tile[8];
WS_KERNEL void uses_shared(int *out, int n) { tile[n & 7] = n; out[0] = tile[(n + 1) & 7]; }
#elif defined(BAD_VARIADIC)
WS_KERNEL void takes_varargs(int *out, ...) { out[0] = 2; }
#endif
