#include <warpscope/kernel.h>

typedef float real;
typedef real *vec;
typedef unsigned long long u64;

/* Every scalar kind, through typedefs too; writes what it got. */
WS_KERNEL void kinds(vec out, real r, u64 big, short s, unsigned char c, double d, int i)
{
    if (threadIdx_x() == 0) {
        out[0] = r;
        out[1] = (float)(big >> 40);
        out[2] = (float)s;
        out[3] = (float)c;
        out[4] = (float)d;
        out[5] = (float)i;
        out[6] = (float)(big & 0xffff);
    }
}

/* 40 parameters: past the old hidden 32-argument limit. */
WS_KERNEL void forty(int *out, int a1, int a2, int a3, int a4, int a5, int a6, int a7, int a8, int a9,
                     int a10, int a11, int a12, int a13, int a14, int a15, int a16, int a17, int a18, int a19,
                     int a20, int a21, int a22, int a23, int a24, int a25, int a26, int a27, int a28, int a29,
                     int a30, int a31, int a32, int a33, int a34, int a35, int a36, int a37, int a38, int a39)
{
    if (threadIdx_x() == 0)
        out[0] = a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15 + a16 + a17 +
                 a18 + a19 + a20 + a21 + a22 + a23 + a24 + a25 + a26 + a27 + a28 + a29 + a30 + a31 + a32 +
                 a33 + a34 + a35 + a36 + a37 + a38 + a39;
}

/* 64-bit elements through iota. */
WS_KERNEL void doubles(double *v, long long *w)
{
    unsigned t = threadIdx_x();
    if (t < 4) { v[t] = v[t] * 2.0; w[t] = w[t] - 1; }
}

/* Unsigned elements print as unsigned (they printed as -1 -2 ... and -56). */
WS_KERNEL void unsigned_out(unsigned *u, unsigned char *c, char *plain)
{
    unsigned i = threadIdx_x();
    u[i] = 0xffffffffu - i;
    c[i] = (unsigned char)(200 + i);
    plain[i] = (char)(250 + i); /* plain char is unsigned on RISC-V */
}

/* A static function of its own: disasm labels it (it appeared inside the
 * kernel before it, unnamed). */
__attribute__((noinline)) static unsigned twice_plus_one(unsigned v) { return v * 2 + 1; }
WS_KERNEL void calls_helper(unsigned *o) { o[threadIdx_x()] = twice_plus_one(threadIdx_x()); }

/* 40 64-bit parameters: 72 words on the stack (the stack area held 64, so
 * the launch was refused although the module loaded). */
WS_KERNEL void wide(long long *out,
          long long a1, long long a2, long long a3, long long a4, long long a5, long long a6,
          long long a7, long long a8, long long a9, long long a10, long long a11, long long a12,
          long long a13, long long a14, long long a15, long long a16, long long a17, long long a18,
          long long a19, long long a20, long long a21, long long a22, long long a23, long long a24,
          long long a25, long long a26, long long a27, long long a28, long long a29, long long a30,
          long long a31, long long a32, long long a33, long long a34, long long a35, long long a36,
          long long a37, long long a38, long long a39, long long a40)
{
    if (threadIdx_x() == 0)
        out[0] = a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 +
                 a11 + a12 + a13 + a14 + a15 + a16 + a17 + a18 + a19 + a20 +
                 a21 + a22 + a23 + a24 + a25 + a26 + a27 + a28 + a29 + a30 +
                 a31 + a32 + a33 + a34 + a35 + a36 + a37 + a38 + a39 + a40;
}

/* A plain char (unsigned on RISC-V) beside a signed one: a negative value
 * for the first is refused with the reason. */
WS_KERNEL void chars(char c, signed char s, int *out) { out[0] = c + s; }
