/* Test module for tests/module: kernels with parameters of every supported
 * kind, a non-kernel helper, pointer tables in initialised data, address
 * arithmetic, static shared memory and picolibc's snprintf. The line
 * numbers of the WS_KERNEL definitions are read back from this file by
 * test_module.c, so each kernel's name is on the WS_KERNEL line. */
#include <stdbool.h>
#include <warpscope/kernel.h>
#include "mod_shared.h"

typedef unsigned int count_t;
typedef float *fbuf_t;
enum colour { RED, GREEN, BLUE };
enum delta { DOWN = -1, STAY = 0, UP = 1 };

/* Static shared memory: 64 floats + 32 ints = 384 bytes. */
WS_SHARED float tile[64];
WS_SHARED int counts[32];

/* Data with pointers (R_RISCV_32 relocations in .data and .rodata). */
static int table_a[4] = { 1, 2, 3, 4 };
static int table_b[4] = { 5, 6, 7, 8 };
int *ptr_table[3] = { table_a, table_b, &table_a[2] };
const char *const names[3] = { "red", "green", "blue" };
static const char *const *names_ref = names;
char scratch[100];          /* .bss */
int counter;                /* .bss */
volatile int data_word = 42; /* .data */

/* A helper that is not a kernel (global, but outside .ws_kernels). */
int helper_add(int a, int b) { return a + b + table_b[(unsigned)a & 3]; }

WS_KERNEL void k_int(int n, int *out) { out[0] = helper_add(n, n); }
WS_KERNEL void k_unsigned(unsigned u, unsigned short h, short s, unsigned *out) { out[0] = u + h + (unsigned)s; }
WS_KERNEL void k_float(float f, float *out) { out[0] = f * 2.0f; }
WS_KERNEL void k_pointers(float *dst, const float *src, const int *restrict idx, void *opaque, float **pp)
{
    dst[0] = src[idx[0]];
    pp[0] = dst;
    (void)opaque;
}
WS_KERNEL void k_typedefs(count_t n, fbuf_t buf, int64_t big, uint64_t ubig, uint8_t byte, int8_t sbyte)
{
    buf[0] = (float)n + (float)big + (float)ubig + byte + sbyte;
}
WS_KERNEL void k_wide(long long ll, double d, unsigned long long ull, long l, unsigned long ul, long *out)
{
    out[0] = (long)(ll + (long long)d + (long long)ull) + l + (long)ul;
}
WS_KERNEL void k_chars(char c, signed char sc, unsigned char uc, bool b, _Bool b2, char *out)
{
    out[0] = (char)(c + sc + uc + b + b2);
}
WS_KERNEL void k_enums(enum colour c, enum delta d, int *out) { out[0] = (int)c + (int)d; }
WS_KERNEL void k_noparams(void) { counter++; }

/* Address-taking code: HI20 + LO12_I (loads, addi) and LO12_S (stores). */
WS_KERNEL void k_addresses(int i, int *out)
{
    scratch[i & 63] = (char)i;                       /* store: LO12_S  */
    counter = i;                                     /* store: LO12_S  */
    out[0] = *ptr_table[i % 3] + data_word;          /* loads: LO12_I  */
    out[1] = (int)(uintptr_t)&scratch[3];            /* addi: LO12_I   */
    out[2] = names_ref[i % 3][0] + shared_lookup(i);
}

WS_KERNEL void k_shared(float *v)
{
    unsigned t = threadIdx_x();
    tile[t & 63] = v[t];
    counts[t & 31] += 1;
    __syncthreads();
    v[t] = tile[(t + 1) & 63] + (float)counts[t & 31];
}

WS_KERNEL void k_format(char *out, int value, float f)
{
    snprintf(out, 64, "%s=%d %.2f %x", names[value & 1 ? 1 : 0], value, (double)f, (unsigned)value);
}

/* Function pointers spell as C writes their type (they spelled "? *"). */
typedef int (*visit_fn)(int, float);
WS_KERNEL void k_funcptrs(int (*cb)(int, float), void (*done)(void), int (*fmt)(const char *, ...), visit_fn v, int *out)
{
    out[0] = (cb != 0) + (done != 0) + (fmt != 0) + (v != 0);
}
