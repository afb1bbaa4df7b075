/* _Float16 in kernels: the conversions clang calls (__extendhfsf2,
 * __truncsfhf2, __truncdfhf2) in each rounding mode, with the flags each
 * raises, and a little arithmetic (test_half.c checks them). */
#include <warpscope/kernel.h>
#include <string.h>

static void set_frm(int rm) { __asm__ volatile("csrw frm, %0" : : "r"(rm)); }
static void clear_flags(void) { __asm__ volatile("csrw fflags, zero"); }
static unsigned read_flags(void)
{
    unsigned f;
    __asm__ volatile("csrr %0, fflags" : "=r"(f));
    return f;
}

WS_KERNEL void extend(const unsigned short *in, unsigned *out, unsigned *flags, int n)
{
    int i = (int)ws_global_id_x();
    if (i >= n) return;
    _Float16 h;
    memcpy(&h, &in[i], 2);
    clear_flags();
    float f = (float)h;
    flags[i] = read_flags();
    memcpy(&out[i], &f, 4);
}

WS_KERNEL void trunc_f(const float *in, unsigned short *out, unsigned *flags, int n, int rm)
{
    int i = (int)ws_global_id_x();
    if (i >= n) return;
    set_frm(rm);
    clear_flags();
    _Float16 h = (_Float16)in[i];
    flags[i] = read_flags();
    memcpy(&out[i], &h, 2);
}

WS_KERNEL void trunc_d(const double *in, unsigned short *out, unsigned *flags, int n, int rm)
{
    int i = (int)ws_global_id_x();
    if (i >= n) return;
    set_frm(rm);
    clear_flags();
    _Float16 h = (_Float16)in[i];
    flags[i] = read_flags();
    memcpy(&out[i], &h, 2);
}

/* y = a * a + b in _Float16, as CUDA code writes with __half */
WS_KERNEL void fma_half(const _Float16 *a, const _Float16 *b, _Float16 *y)
{
    unsigned t = threadIdx_x();
    y[t] = a[t] * a[t] + b[t];
}
