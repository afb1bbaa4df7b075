/* Kernels whose time is in library code called from two lines of their
 * own (check_depth.sh call_sites): picolibc's memset (assembly, no CFI: a
 * leaf) and the device library's printf (a chain of calls with CFI). The
 * check finds lines by the marker comments: keep one marker per line. */
#include <string.h>
#include <warpscope/kernel.h>
#include "calls_ops.h"

/* Each thread fills 5n words of its own: n from the first call, 4n from
 * the second, so the second call site has about 4 times the samples. */
WS_KERNEL void lib_memset(int *out, int n)
{
    unsigned t = blockIdx_x() * blockDim_x() + threadIdx_x();
    int *mine = out + t * 5u * (unsigned)n;
    memset(mine, (int)t, (unsigned)n * 4u);          /* MARK_MEMSET_SMALL */
    memset(mine + n, (int)t + 1, (unsigned)n * 16u); /* MARK_MEMSET_LARGE */
}

WS_KERNEL void lib_printf(int *out, int n)
{
    unsigned t = threadIdx_x();
    if (t == 0) printf("a %d\n", n);                 /* MARK_PRINTF_SHORT */
    if (t == 1) printf("b %d %d %d %d\n", n, n, n, n); /* MARK_PRINTF_LONG */
    out[t] = n;
}

/* One call through a pointer, two callees in calls_ops.c: even warps
 * call fill_words_thrice, odd ones fill_words, on n words each, so the
 * first has about 3 times the samples of the second. */
typedef void (*fill_fn)(int *, int, int);
static fill_fn const fills[2] = { fill_words_thrice, fill_words };

WS_KERNEL void lib_indirect(int *out, int n)
{
    unsigned t = blockIdx_x() * blockDim_x() + threadIdx_x();
    fill_fn fill = fills[(t / 32u) & 1u];
    fill(out + t * (unsigned)n, n, (int)t);          /* MARK_INDIRECT */
}

/* A 64-bit atomic nand: a compare-and-swap loop in the device library
 * (libwsatomic.a, built without -g), code without a line that the
 * profiler names by its symbol (check_depth.sh no_line_function). */
WS_KERNEL void lib_nand64(unsigned long long *out, int n)
{
    for (int i = 0; i < n; i++)
        __atomic_fetch_nand(&out[i & 3], 0x5555ull + threadIdx_x(), __ATOMIC_RELAXED); /* MARK_NAND64 */
}

/* Library code from two calls of two functions: most of the time in
 * memset, a little in printf (check_depth.sh call_sites): advice on
 * memset's lines names the memset call, not the printf one. */
WS_KERNEL void lib_mixed(int *out, int n)
{
    unsigned t = blockIdx_x() * blockDim_x() + threadIdx_x();
    memset(out + t * 4u * (unsigned)n, (int)t, (unsigned)n * 16u); /* MARK_MIXED_MEMSET */
    if (t == 0) printf("m %d\n", n);                              /* MARK_MIXED_PRINTF */
}

/* Library code one call deep: most of the time in memset, less in
 * fill_words, which the kernel reaches through fill_words_via (calls_ops.c)
 * on 4n words in lane 0 of a warp and n / 4 in the others, so that its
 * lanes leave its loop at different iterations (check_depth.sh
 * call_sites): advice on fill_words's lines names the fill_words_via call
 * that ran them, not the heavier memset one. */
WS_KERNEL void lib_deep(int *out, int n)
{
    unsigned t = blockIdx_x() * blockDim_x() + threadIdx_x();
    int *mine = out + t * 12u * (unsigned)n;
    memset(mine, (int)t, (unsigned)n * 32u);        /* MARK_DEEP_MEMSET */
    fill_words_via(mine + 8 * n, t & 31u ? n / 4 : 4 * n, (int)t); /* MARK_DEEP_VIA */
}
