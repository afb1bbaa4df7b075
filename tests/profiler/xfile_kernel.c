/* A kernel whose loop waits on a load in another source file of its
 * module (xfile_load.c): the report must name that file, not a bare line
 * number that points into this one (check_depth.sh, case xfile); and one
 * whose strided loads, half of them in a header's inlined function, are
 * one finding across both files (case rule_files). Keep one marker per
 * line. */
#include <warpscope/kernel.h>
#include "xfile_strided.h"

int fetch(const int *p, unsigned i);

WS_KERNEL void xfile(const int *in, int *out, int n)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    int acc = 0;
    for (int k = 0; k < n; k++)
        acc += fetch(in, (i * 33u + (unsigned)k) & 255u) * 3; /* MARK_XUSE */
    out[i] = acc;
}

/* Each lane reads words 32 apart, in strided_at (xfile_strided.h) and here. */
WS_KERNEL void xfile_strided(const int *in, int *out, int n)
{
    unsigned i = blockIdx_x() * blockDim_x() + threadIdx_x();
    int acc = 0;
    for (int k = 0; k < n; k++) {
        acc += strided_at(in, i, (unsigned)k);                  /* MARK_KCALL */
        acc ^= in[(i * 32u + (unsigned)k + 7u) & 65535u];       /* MARK_KLOAD */
    }
    out[i] = acc;
}
