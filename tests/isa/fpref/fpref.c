/* Freestanding RV32 reference program for the qemu differential FP test.
 *
 * Runs every op of fpref_ops.h over tables of interesting operand bit
 * patterns plus pseudo-random ones, under every static rounding mode and
 * under the dynamic mode with frm = 0..4, and writes one binary record per
 * case to stdout (see FPREF_WORDS). Static-rm and non-rounding ops run with
 * an invalid frm (5/6) to show that frm is not consulted for them.
 *
 * Built with clang --target=riscv32-unknown-elf -march=rv32imafc -mabi=ilp32f
 * -nostdlib -ffreestanding; uses Linux system calls (write 64, exit 93). */
#include "fpref_ops.h"

typedef unsigned int u32;
typedef u32 (*fp_fn)(u32 a, u32 b, u32 c, u32 *fl);

/* ---- start-up and system calls ---- */

char fpref_stack[65536] __attribute__((aligned(16)));
int fpref_main(void);

__asm__(".section .text.start,\"ax\",@progbits\n"
        ".globl _start\n"
        "_start:\n"
        "  la sp, fpref_stack + 65536\n"
        "  call fpref_main\n"
        "  li a7, 93\n"
        "  ecall\n"
        "  j .\n"
        ".text\n");

static long sys_write(long fd, const void *p, unsigned long n)
{
    register long a0 __asm__("a0") = fd;
    register long a1 __asm__("a1") = (long)p;
    register long a2 __asm__("a2") = (long)n;
    register long a7 __asm__("a7") = 64;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a1), "r"(a2), "r"(a7) : "memory");
    return a0;
}

/* the compiler may emit calls to these even when freestanding */
void *memset(void *d, int v, unsigned long n)
{
    unsigned char *p = d;
    while (n--) *p++ = (unsigned char)v;
    return d;
}

void *memcpy(void *d, const void *s, unsigned long n)
{
    unsigned char *p = d;
    const unsigned char *q = s;
    while (n--) *p++ = *q++;
    return d;
}

/* ---- output buffer ---- */

#define BUF_WORDS 6144
static u32 out_buf[BUF_WORDS];
static unsigned out_n;

static void flush(void)
{
    const char *p = (const char *)out_buf;
    unsigned long left = out_n * 4ul;
    while (left) {
        long k = sys_write(1, p, left);
        if (k <= 0) break;
        p += k;
        left -= (unsigned long)k;
    }
    out_n = 0;
}

static void record(u32 hdr, u32 a, u32 b, u32 c, u32 r, u32 fl)
{
    if (out_n + FPREF_WORDS > BUF_WORDS) flush();
    u32 *w = out_buf + out_n;
    w[0] = hdr; w[1] = a; w[2] = b; w[3] = c; w[4] = r; w[5] = fl;
    out_n += FPREF_WORDS;
}

/* ---- one function per (op, rounding mode) ---- */

#define PRE2 "fmv.w.x ft0, %[a]\n\tfmv.w.x ft1, %[b]\n\tfmv.w.x ft3, %[c]\n\tfsflags zero\n\t"
#define ASM_R1(mn, rm) PRE2 mn " ft2, ft0" rm "\n\tfrflags %[fl]\n\tfmv.x.w %[r], ft2"
#define ASM_R2(mn, rm) PRE2 mn " ft2, ft0, ft1" rm "\n\tfrflags %[fl]\n\tfmv.x.w %[r], ft2"
#define ASM_R3(mn, rm) PRE2 mn " ft2, ft0, ft1, ft3" rm "\n\tfrflags %[fl]\n\tfmv.x.w %[r], ft2"
#define ASM_C2(mn, rm) PRE2 mn " %[r], ft0, ft1" rm "\n\tfrflags %[fl]"
#define ASM_F2X(mn, rm) PRE2 mn " %[r], ft0" rm "\n\tfrflags %[fl]"
#define ASM_X2F(mn, rm) PRE2 mn " ft2, %[a]" rm "\n\tfrflags %[fl]\n\tfmv.x.w %[r], ft2"

#define FN(name, mn, kind, sfx, rm)                                                     \
    static u32 f_##name##sfx(u32 a, u32 b, u32 c, u32 *fl)                             \
    {                                                                                    \
        u32 r, f;                                                                        \
        __asm__ volatile(ASM_##kind(mn, rm)                                              \
                         : [r] "=&r"(r), [fl] "=&r"(f)                                   \
                         : [a] "r"(a), [b] "r"(b), [c] "r"(c)                            \
                         : "ft0", "ft1", "ft2", "ft3");                                  \
        *fl = f;                                                                         \
        return r;                                                                        \
    }

#define GEN_1(name, mn, kind)                                                           \
    FN(name, mn, kind, _rne, ", rne") FN(name, mn, kind, _rtz, ", rtz")                 \
    FN(name, mn, kind, _rdn, ", rdn") FN(name, mn, kind, _rup, ", rup")                 \
    FN(name, mn, kind, _rmm, ", rmm") FN(name, mn, kind, _dyn, "")
#define GEN_0(name, mn, kind) FN(name, mn, kind, _dyn, "")
#define GEN(name, mn, kind, rounds) GEN_##rounds(name, mn, kind)
FPREF_OPS(GEN)

enum { K_R1, K_R2, K_R3, K_C2, K_F2X, K_X2F };

typedef struct variant {
    unsigned char id, kind, rm, rounds;
    fp_fn fn;
} variant;

#define VAR_1(name, kind)                                                               \
    { FPREF_##name, K_##kind, 0, 1, f_##name##_rne }, { FPREF_##name, K_##kind, 1, 1, f_##name##_rtz }, \
    { FPREF_##name, K_##kind, 2, 1, f_##name##_rdn }, { FPREF_##name, K_##kind, 3, 1, f_##name##_rup }, \
    { FPREF_##name, K_##kind, 4, 1, f_##name##_rmm }, { FPREF_##name, K_##kind, 7, 1, f_##name##_dyn },
#define VAR_0(name, kind) { FPREF_##name, K_##kind, 0, 0, f_##name##_dyn },
#define VAR(name, mn, kind, rounds) VAR_##rounds(name, kind)
static const variant variants[] = { FPREF_OPS(VAR) };

/* ---- operands ---- */

static const u32 fvals[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x00000002, 0x007FFFFF, 0x807FFFFF,
    0x00400000, 0x00800000, 0x80800000, 0x00800001, 0x00C00000, 0x01000000, 0x7F7FFFFF,
    0xFF7FFFFF, 0x7F000000, 0x7EFFFFFF, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001,
    0x7F800001, 0xFFA00000, 0x7FBFFFFF, 0x3F800000, 0xBF800000, 0x3F800001, 0x3F7FFFFF,
    0x3FC00000, 0x40000000, 0x40400000, 0x3EAAAAAB, 0x3F000000, 0xBF000000, 0x3FE00000,
    0x40200000, 0xC0200000, 0x3FA00000, 0xBFA00000, 0x4B000000, 0x4B000001, 0xCB7FFFFF,
    0x4B800000, 0x33800000, 0x34000000, 0xB3800000, 0x4EFFFFFF, 0x4F000000, 0xCF000000,
    0xCF000001, 0x4F7FFFFF, 0x4F800000, 0xBF7FFFFF, 0x5F800000, 0x1F800000, 0x40490FDB,
    0xC0490FDB, 0x3DCCCCCD, 0x20000000, 0x60000000,
};
#define NF (sizeof fvals / sizeof fvals[0])

/* a smaller set for the three-operand FMAs */
static const u32 gvals[] = {
    0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF,
    0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001, 0x3F800000, 0xBF800000, 0x3F800001,
    0x33800000, 0x40400000, 0xC0200000, 0x1F800000, 0x20000000, 0x3EAAAAAB,
};
#define NG (sizeof gvals / sizeof gvals[0])

static const u32 ivals[] = {
    0, 1, 2, 3, 0xFFFFFFFF, 0xFFFFFFFE, 0x7FFFFFFF, 0x80000000, 0x80000001, 0x00FFFFFF,
    0x01000000, 0x01000001, 0x01000002, 0x01000003, 0xFEFFFFFF, 0xFF000001, 0x7FFFFFC0,
    0x7FFFFF80, 0x7FFFFF7F, 0xFFFFFF80, 0x12345678, 0x87654321, 0x00FFFFFE, 0x02000005,
    0x02000006, 0x02000002, 0xFDFFFFFB, 0x40000040, 0x40000041, 0xC0000040,
};
#define NI (sizeof ivals / sizeof ivals[0])

static u32 xorshift(u32 *s)
{
    u32 x = *s;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return *s = x;
}

/* Random float, biased towards values whose operations round. */
static u32 rnd_float(u32 *s)
{
    u32 r = xorshift(s), m = xorshift(s) & 0x7FFFFF, sign = r & 0x80000000u;
    switch ((r >> 8) & 7) {
    case 0: return xorshift(s);                                             /* anything */
    case 1: return sign | ((r >> 12) % 4) << 23 | m;                        /* tiny */
    case 2: return sign | (250 + (r >> 12) % 5) << 23 | m;                  /* huge */
    case 3: return sign | (120 + (r >> 12) % 40) << 23 | m;                 /* integers */
    default: return sign | (107 + (r >> 12) % 40) << 23 | m;                /* moderate */
    }
}

/* Random float with an exponent near that of x (cancellation, ties). */
static u32 rnd_near(u32 *s, u32 x)
{
    u32 r = xorshift(s);
    int e = (int)((x >> 23) & 0xFF) + (int)(r % 51) - 25;
    if (e < 0) e = 0;
    if (e > 254) e = 254;
    u32 m = (r & 0x100) ? (x & 0x7FFFFF) ^ (xorshift(s) & 0x7F) : xorshift(s) & 0x7FFFFF;
    return (r & 0x80000000u) | (u32)e << 23 | m;
}

static u32 rnd_int(u32 *s)
{
    u32 r = xorshift(s);
    return r >> (xorshift(s) % 32);
}

/* ---- driver ---- */

static void set_frm(u32 frm) { __asm__ volatile("fsrm %0" : : "r"(frm)); }

#define NRAND 700

static void run(const variant *v, u32 frm, u32 *seed)
{
    u32 hdr = v->id | (u32)v->rm << 8 | frm << 12, fl, r;
    switch (v->kind) {
    case K_R1: case K_F2X:
        for (unsigned i = 0; i < NF + NRAND; i++) {
            u32 a = i < NF ? fvals[i] : rnd_float(seed);
            r = v->fn(a, 0, 0, &fl);
            record(hdr, a, 0, 0, r, fl);
        }
        break;
    case K_X2F:
        for (unsigned i = 0; i < NI + NRAND; i++) {
            u32 a = i < NI ? ivals[i] : rnd_int(seed);
            r = v->fn(a, 0, 0, &fl);
            record(hdr, a, 0, 0, r, fl);
        }
        break;
    case K_R2: case K_C2:
        for (unsigned i = 0; i < NF * NF + NRAND; i++) {
            u32 a, b;
            if (i < NF * NF) { a = fvals[i / NF]; b = fvals[i % NF]; }
            else { a = rnd_float(seed); b = (i & 1) ? rnd_near(seed, a) : rnd_float(seed); }
            r = v->fn(a, b, 0, &fl);
            record(hdr, a, b, 0, r, fl);
        }
        break;
    default: /* K_R3 */
        for (unsigned i = 0; i < NG * NG * NG + NRAND; i++) {
            u32 a, b, c;
            if (i < NG * NG * NG) { a = gvals[i / (NG * NG)]; b = gvals[i / NG % NG]; c = gvals[i % NG]; }
            else {
                a = rnd_float(seed);
                b = rnd_float(seed);
                c = (i & 1) ? rnd_near(seed, (a & 0x7FFFFFFF) > (b & 0x7FFFFFFF) ? a : b) : rnd_float(seed);
            }
            r = v->fn(a, b, c, &fl);
            record(hdr, a, b, c, r, fl);
        }
        break;
    }
}

int fpref_main(void)
{
    u32 seed = 0x2545F491u;
    for (unsigned k = 0; k < sizeof variants / sizeof variants[0]; k++) {
        const variant *v = &variants[k];
        if (v->rounds && v->rm == 7) {
            for (u32 frm = 0; frm <= 4; frm++) {
                set_frm(frm);
                run(v, frm, &seed);
            }
        } else {
            u32 frm = 5 + (k & 1); /* reserved: must not matter here */
            set_frm(frm);
            run(v, frm, &seed);
        }
    }
    flush();
    return 0;
}
