#include <warpscope/kernel.h>

/* Each thread evaluates the math library at one input; results are
 * compared with the host's libm. */
WS_KERNEL void math_funcs(const float *x, float *out, int n)
{
    int i = (int)ws_global_id_x();
    if (i >= n) return;
    float v = x[i];
    float *o = out + 14 * i;
    o[0] = sinf(v);
    o[1] = cosf(v);
    o[2] = tanf(v);
    o[3] = expf(v * 0.1f);
    o[4] = logf(fabsf(v) + 1.0f);
    o[5] = powf(fabsf(v) + 0.5f, 1.7f);
    o[6] = floorf(v);
    o[7] = ceilf(v);
    o[8] = fabsf(v);
    o[9] = fminf(v, 0.25f);
    o[10] = fmaxf(v, 0.25f);
    o[11] = fmodf(v, 0.75f);
    o[12] = sqrtf(fabsf(v));
    o[13] = atan2f(v, 2.0f);
}

/* The rounding functions on doubles (and truncf): exact, so compared bit for
 * bit with the host's. picolibc 1.8's trunc, truncf, floor, ceil and
 * llround were wrong for large arguments (kernel/src/libm_fixes.c). */
WS_KERNEL void rounding(const double *x, double *out, long long *rounded, int n)
{
    int i = (int)ws_global_id_x();
    if (i >= n) return;
    double v = x[i];
    double *o = out + 4 * i;
    o[0] = trunc(v);
    o[1] = floor(v);
    o[2] = ceil(v);
    o[3] = truncf((float)v);
    rounded[i] = fabs(v) < 0x1p62 ? llround(v) : 0;
}

/* printf with several conversions, and snprintf into a buffer. */
WS_KERNEL void formats(char *out, int value, float f)
{
    if (threadIdx_x() == 0) {
        printf("int %d hex %x float %5.2f str %s\n", value, (unsigned)value, (double)f, "ok");
        snprintf(out, 64, "[%04d|%-3s|%.3e]", value % 10000, "ab", (double)f);
    }
    if (threadIdx_x() == 1) printf("second thread %u\n", threadIdx_x());
}

/* A line longer than a printf record (256 bytes): thread t prints 300
 * letters of 'a' + t, then a newline. */
WS_KERNEL void long_line(int n)
{
    char s[301];
    unsigned t = threadIdx_x();
    for (int i = 0; i < n && i < 300; i++) s[i] = (char)('a' + t);
    s[n < 300 ? n : 300] = 0;
    printf("%s\n", s);
}

WS_KERNEL void checks(int *p, int n)
{
    assert(n > 0);
    p[0] = n;
}
