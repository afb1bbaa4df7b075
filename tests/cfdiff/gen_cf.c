/* gen_cf SEED: write a random C program with structured control flow for
 * the control-flow differential test (cf_body.h says what it defines).
 *
 * The program is free of undefined behaviour, so every compiler and
 * optimisation level must give the same results: unsigned arithmetic,
 * shift amounts masked, divisors made odd, signed division away from
 * INT_MIN / -1, floats range-checked before they become integers, loops
 * with bounded (data-dependent, often zero) trip counts.
 *
 * What it emits: nested if/else on per-thread data, for/while/do-while
 * loops with break and continue, long loops in some lanes (the starvation
 * guard), switch statements dense enough for jump tables, early returns,
 * an irreducible loop (goto), noinline helpers, recursion, calls through a
 * table of function pointers, a local array passed by pointer, 64-bit
 * integer and float/double arithmetic, warp votes and shuffles (device
 * only: VOTE) and fault sites (FAULT, taken only when the input asks).
 * Every branch arm folds a tag into a path hash, so a lane that took a
 * wrong turn shows in the output. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint64_t rng;
static uint32_t rnd(void)
{
    rng = rng * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(rng >> 33);
}
static uint32_t pick(uint32_t n) { return rnd() % n; }

static int indent, tag, loopvar, in_loop;
static void line(const char *fmt, ...)
{
    va_list ap;
    printf("%*s", indent * 4, "");
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
}

#define NV 6 /* v0..v5: u32 working variables */

static void expr(int d);
static void var(void) { printf("v%u", pick(NV)); }
static void leaf(void)
{
    switch (pick(8)) {
    case 0: printf("0x%xu", rnd()); break;
    case 1: printf("%uu", pick(40)); break;
    case 2: printf("tid"); break;
    case 3: printf("in[%u]", pick(16)); break;
    case 4: printf("arr[v%u & 7]", pick(NV)); break;
    case 5: printf("(uint32_t)w"); break;
    default: var(); break;
    }
}

/* a u32 expression */
static void expr(int d)
{
    if (d <= 0) { leaf(); return; }
    static const char *const ops[] = { "+", "-", "*", "^", "&", "|" };
    switch (pick(16)) {
    case 0: case 1: case 2: case 3: case 4:
        printf("(");
        expr(d - 1);
        printf(" %s ", ops[pick(6)]);
        expr(d - 1);
        printf(")");
        break;
    case 5:
        printf("(");
        expr(d - 1);
        printf(pick(2) ? " << (" : " >> (");
        expr(d - 1);
        printf(" & 31))");
        break;
    case 6:
        printf("(");
        expr(d - 1);
        printf(pick(2) ? " / (" : " %% (");
        expr(d - 1);
        printf(" | 1))");
        break;
    case 7: /* signed: arithmetic shift, division, comparison */
        switch (pick(3)) {
        case 0: printf("(uint32_t)((int32_t)"); expr(d - 1); printf(" >> (%u))", pick(32)); break;
        case 1:
            printf("(uint32_t)((int32_t)");
            expr(d - 1);
            printf(" / (int32_t)((");
            expr(d - 1);
            printf(" & 0x7fff) | 1))");
            break;
        default: printf("(uint32_t)((int32_t)"); expr(d - 1); printf(" < (int32_t)"); expr(d - 1); printf(")"); break;
        }
        break;
    case 8: printf("h%u(", pick(4)); expr(d - 1); printf(", "); expr(d - 1); printf(")"); break;
    case 9: printf("FP[("); expr(d - 1); printf(") & 3]("); expr(d - 1); printf(", "); expr(d - 1); printf(")"); break;
    case 10: printf("rec(("); expr(d - 1); printf(") %% 7, "); expr(d - 1); printf(")"); break;
    case 11: printf("(uint32_t)mix64(w, "); expr(d - 1); printf(")"); break;
    case 12: printf("("); expr(d - 1); printf(" ? "); expr(d - 1); printf(" : "); expr(d - 1); printf(")"); break;
    case 13: printf("f2u(f * %d.25f)", (int)pick(9) - 4); break;
    case 14: printf("K[("); expr(d - 1); printf(") & 15]"); break;
    default: printf("("); expr(d - 1); printf(pick(2) ? " < " : " == "); expr(d - 1); printf(")"); break;
    }
}

/* a lane-dependent condition */
static void cond(void)
{
    switch (pick(7)) {
    case 0: printf("(tid & %u) == %u", 1u << pick(3), 0); break;
    case 1: printf("("); expr(1); printf(" & %u) == %u", 3u, pick(4)); break;
    case 2: expr(1); printf(" < "); expr(1); break;
    case 3: printf("f %s %d.5f", pick(2) ? ">" : "<=", (int)pick(7) - 3); break;
    case 4: printf("w > 0x%x%08xull", pick(1u << 31), rnd()); break;
    case 5: printf("(arr[v%u & 7] & %u) != 0", pick(NV), 1u << pick(8)); break;
    default: printf("(v%u %% %u) == 0", pick(NV), 2 + pick(4)); break;
    }
}

static void block(int d, int n);
static const char *RET_A = " (int)(v0 & 1)", *RET_B = "";
static const char *RET;

static void stmt(int d)
{
    int k = (int)pick(d > 0 ? 15 : 7);
    if (d > 0 && pick(12) == 0) k = 20 + (int)pick(3);
    if (pick(10) == 0) k = 23;
    switch (k) {
    case 23: /* warp vote and shuffle (device only) */
        printf("%*sVOTE(", indent * 4, "");
        expr(1);
        printf(");\n");
        break;
    case 20: { /* a long loop in some lanes: the scheduler's starvation guard */
        int i = loopvar++;
        printf("%*sfor (uint32_t i%d = 0; i%d < (", indent * 4, "", i, i);
        expr(1);
        printf(") %% %u; i%d++) {\n", 300 + pick(500), i);
        indent++;
        line("P(%d);", ++tag);
        block(0, 1 + (int)pick(2));
        indent--;
        line("}");
        break;
    }
    case 21: /* linear recursion, up to 120 frames */
        printf("%*sv%u = deep((", indent * 4, "", pick(NV));
        expr(1);
        printf(") %% 120, ");
        expr(1);
        printf(");\n");
        break;
    case 22: { /* an irreducible loop: two ways in */
        int i = loopvar++;
        line("{");
        indent++;
        printf("%*suint32_t g%d = (", indent * 4, "", i);
        expr(1);
        printf(") %% 6;\n");
        printf("%*sif (", indent * 4, "");
        cond();
        printf(") goto lb%d;\n", i);
        line("la%d: P(%d);", i, ++tag);
        block(0, 1);
        line("if (g%d == 0) goto le%d;", i, i);
        line("g%d--;", i);
        line("lb%d: P(%d);", i, ++tag);
        block(0, 1);
        line("if (g%d == 0) goto le%d;", i, i);
        line("g%d--;", i);
        line("goto la%d;", i);
        line("le%d:;", i);
        indent--;
        line("}");
        break;
    }
    case 0: case 1: case 2:
        line("v%u = ", pick(NV));
        indent++;
        printf("%*s", indent * 4, "");
        expr(2);
        printf(";\n");
        indent--;
        break;
    case 3:
        printf("%*sw = w * 0x%x%08xull + ", indent * 4, "", rnd(), rnd() | 1);
        expr(1);
        printf(";\n");
        if (pick(2)) { printf("%*sw ^= w / (", indent * 4, ""); expr(1); printf(" | 1);\n"); }
        if (pick(2)) { printf("%*sw = (w >> (v%u & 63)) | (w << 7);\n", indent * 4, "", pick(NV)); }
        break;
    case 4:
        printf("%*sf = f * %d.125f + (float)(int32_t)(", indent * 4, "", (int)pick(5) - 2);
        expr(1);
        printf(" & 0xfff) / (float)((v%u & 7) + 1);\n", pick(NV));
        if (pick(2)) line("dd = dd * 1.0625 + (double)v%u - f;", pick(NV));
        if (pick(3) == 0) line("f = fmix(f, (float)(int32_t)v%u);", pick(NV));
        break;
    case 5:
        printf("%*sarr[", indent * 4, "");
        expr(1);
        printf(" & 7] = ");
        expr(2);
        printf(";\n");
        break;
    case 6:
        printf("%*sarrfn(arr, (", indent * 4, "");
        expr(1);
        printf(") %% 11, ");
        expr(1);
        printf(");\n");
        break;
    case 7: case 8: case 9: /* if / else */
        printf("%*sif (", indent * 4, "");
        cond();
        printf(") {\n");
        indent++;
        line("P(%d);", ++tag);
        block(d - 1, 1 + (int)pick(3));
        indent--;
        if (pick(3)) {
            line("} else {");
            indent++;
            line("P(%d);", ++tag);
            block(d - 1, 1 + (int)pick(3));
            indent--;
        }
        line("}");
        break;
    case 10: case 11: { /* for loop with a data-dependent trip count */
        int i = loopvar++;
        printf("%*sfor (uint32_t i%d = 0; i%d < (", indent * 4, "", i, i);
        expr(1);
        printf(") %% %u; i%d++) {\n", 2 + pick(5), i);
        indent++;
        line("P(%d + i%d);", ++tag, i);
        in_loop++;
        block(d - 1, 1 + (int)pick(3));
        in_loop--;
        indent--;
        line("}");
        break;
    }
    case 12: { /* while or do-while with a counter */
        int i = loopvar++;
        line("{");
        indent++;
        printf("%*suint32_t n%d = (", indent * 4, "", i);
        expr(1);
        printf(") %% %u;\n", 2 + pick(4));
        int dow = (int)pick(2);
        line(dow ? "do {" : "while (n%d != 0) {", i);
        indent++;
        line("if (n%d) n%d--;", i, i);
        line("P(%d);", ++tag);
        in_loop++;
        block(d - 1, 1 + (int)pick(3));
        in_loop--;
        indent--;
        if (dow) line("} while (n%d != 0);", i); else line("}");
        indent--;
        line("}");
        break;
    }
    case 13: { /* switch, dense enough for a jump table */
        unsigned cases = 4 + pick(6);
        printf("%*sswitch ((", indent * 4, "");
        expr(1);
        printf(") %% %u) {\n", cases + pick(3));
        for (unsigned c = 0; c < cases; c++) {
            line("case %u:", c);
            indent++;
            line(pick(4) ? "P(%d);" : "FAULT(%d);", ++tag);
            if (pick(3)) block(d - 1, 1);
            if (pick(4)) line("break;"); /* else fall through */
            indent--;
        }
        line("default:");
        indent++;
        line("P(%d);", ++tag);
        block(d - 1, 1);
        line("break;");
        indent--;
        line("}");
        break;
    }
    default: /* break, continue or an early return */
        if (in_loop && pick(3)) {
            printf("%*sif (", indent * 4, "");
            cond();
            printf(") { P(%d); %s; }\n", ++tag, pick(2) ? "break" : "continue");
        } else if (pick(2)) {
            printf("%*sif (", indent * 4, "");
            cond();
            printf(") { P(%d); EMIT(); return%s; }\n", ++tag, RET);
        } else if (pick(3)) {
            line("FAULT(%d);", ++tag);
        } else
            line("P(%d);", ++tag);
        break;
    }
}

static void block(int d, int n)
{
    for (int i = 0; i < n; i++) stmt(d);
}

static void helper(int h)
{
    printf("NOINLINE static uint32_t h%d(uint32_t a, uint32_t b)\n{\n", h);
    switch (h) {
    case 0: printf("    return a * 0x%xu + (b >> %u);\n", rnd() | 1, 1 + pick(30)); break;
    case 1: printf("    if ((a ^ b) & %u) return a - b;\n    return (a | %uu) / ((b & 0xff) | 1);\n", 1u << pick(8), pick(1000)); break;
    case 2: printf("    uint32_t s = 0;\n    for (uint32_t i = 0; i < (b & 7); i++) s = s * 33 + (a >> i);\n    return s;\n"); break;
    default: printf("    switch (a %% 6) {\n    case 0: return b;\n    case 1: return ~b;\n    case 2: return a + b;\n"
                    "    case 3: return b * 3;\n    case 4: return a ^ 0x%xu;\n    default: return b << 1;\n    }\n", rnd());
    }
    printf("}\n\n");
}

static void phase(const char *name, int a)
{
    tag = a ? 0 : 1000;
    loopvar = 0;
    if (a) printf("int %s(uint32_t tid, const uint32_t *in, uint32_t *out, uint32_t *x)\n{\n", name);
    else printf("void %s(uint32_t tid, uint32_t x, const uint32_t *in, uint32_t *out)\n{\n", name);
    indent = 1;
    RET = a ? RET_A : RET_B;
    if (a) {
        line("uint32_t v0 = in[0], v1 = in[1], v2 = in[2], v3 = in[3], v4 = in[4] %% %u, v5 = tid;", 2 + pick(30));
        line("uint64_t w = ((uint64_t)in[5] << 32) | in[6];");
        line("float f = (float)(int32_t)(in[7] & 0xffff) * 0.0625f;");
        line("double dd = (double)in[8] * 0.5;");
        line("uint32_t ph = 0x811c9dc5u, vh = 0, arr[8];");
        line("for (int i = 0; i < 8; i++) arr[i] = in[8 + i] ^ tid;");
    } else {
        line("uint32_t v0 = out[0] ^ x, v1 = out[1], v2 = out[2], v3 = out[3], v4 = out[4], v5 = x;");
        line("uint64_t w = ((uint64_t)out[6] << 32) | out[7];");
        line("float f = u2f(out[8]);");
        line("double dd = (double)out[9];");
        line("uint32_t ph = out[11], vh = out[CF_VOTE_WORD], arr[8];");
        line("for (int i = 0; i < 8; i++) arr[i] = out[12 + i];");
        line("if (!(f > -1e30f && f < 1e30f)) f = 1.5f;");
    }
    block(4, 5 + (int)pick(4));
    line("EMIT();");
    if (a) line("*x = v0 ^ v5 ^ ph;\n    return 0;");
    printf("}\n\n");
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: gen_cf SEED\n"); return 2; }
    unsigned long seed = strtoul(argv[1], NULL, 0);
    rng = seed * 0x9E3779B97F4A7C15ull + 1;
    rnd();
    printf("/* generated by gen_cf %lu: do not edit */\n#include \"cf_body.h\"\n\n", seed);
    printf("#define NOINLINE __attribute__((noinline, unused))\n");
    printf("#define P(t) (ph = (ph ^ (uint32_t)(t)) * 0x01000193u)\n");
    printf("#define EMIT() do { out[0] = v0; out[1] = v1; out[2] = v2; out[3] = v3; out[4] = v4; out[5] = v5; \\\n"
           "    out[6] = (uint32_t)(w >> 32); out[7] = (uint32_t)w; out[8] = f2bits(f); \\\n"
           "    out[9] = dd > -1e9 && dd < 1e9 ? (uint32_t)(int32_t)dd : 7u; out[10] = (uint32_t)(d2bits(dd) >> 20); \\\n"
           "    out[11] = ph; for (int e_ = 0; e_ < 8; e_++) out[12 + e_] = arr[e_]; out[20]++; out[CF_VOTE_WORD] = vh; \\\n"
           "    CF_PRINT(tid, ph, out[20]); } while (0)\n");
    /* a null-page store when the thread's input asks for this site (the fault runs) */
    printf("#define FAULT(n) do { P(n); if ((in[15] & 0xFFFFFFF0u) == 0xFA000000u && ((in[15] ^ (n)) & 3) == 0) *(volatile uint32_t *)(uintptr_t)(in[14] & 0xff0u) = ph; } while (0)\n\n");
    printf("static uint32_t f2bits(float f) { union { float f; uint32_t u; } c = { f }; return c.u; }\n");
    printf("static float u2f(uint32_t u) { union { uint32_t u; float f; } c = { u }; return c.f; }\n");
    printf("static uint64_t d2bits(double d) { union { double d; uint64_t u; } c = { d }; return c.u; }\n");
    printf("static uint32_t f2u(float f) { return f > -2e9f && f < 2e9f ? (uint32_t)(int32_t)f : 0x%xu; }\n\n", rnd());
    printf("static const uint32_t K[16] = {");
    for (int i = 0; i < 16; i++) printf(" 0x%xu,", rnd());
    printf(" };\n\n");
    for (int h = 0; h < 4; h++) helper(h);
    printf("static uint32_t (*const FP[4])(uint32_t, uint32_t) = { h%u, h%u, h%u, h%u };\n\n",
           pick(4), pick(4), pick(4), pick(4));
    printf("NOINLINE static uint32_t rec(uint32_t n, uint32_t x)\n{\n"
           "    if (n == 0) return x ^ 0x%xu;\n"
           "    uint32_t r = rec(n - 1, x * 0x%xu + n);\n"
           "    if (r & %u) r += rec(n / 2, r >> 3);\n"
           "    return r;\n}\n\n", rnd(), rnd() | 1, 1u << pick(4));
    printf("NOINLINE static uint32_t deep(uint32_t n, uint32_t x)\n{\n"
           "    if (n == 0) return x;\n"
           "    return deep(n - 1, x ^ (x >> 3)) * 0x%xu + n;\n}\n\n", rnd() | 1);
    printf("NOINLINE static uint64_t mix64(uint64_t a, uint32_t b)\n{\n"
           "    uint64_t m = a * (b | 1u) + ((uint64_t)b << %u);\n"
           "    if (b & 2) m ^= m / ((uint64_t)b + 3u);\n"
           "    else m += (uint64_t)((int64_t)m %% (int64_t)((b & 0xffff) + 1));\n"
           "    return m ^ (m >> 29);\n}\n\n", pick(32));
    printf("NOINLINE static float fmix(float a, float b)\n{\n"
           "    float r = a * 0.75f - b * 0.125f;\n"
           "    if (r < 0.0f) r = -r;\n"
           "    return __builtin_sqrtf(r) + (a > b ? a : b) * 0.5f;\n}\n\n");
    printf("NOINLINE static void arrfn(uint32_t *a, uint32_t n, uint32_t x)\n{\n"
           "    for (uint32_t i = 0; i < n; i++) {\n"
           "        if (i >= 8) return;\n"
           "        a[i] ^= x + i * 0x9e3779b9u;\n"
           "        if (a[i] & 1) continue;\n"
           "        a[(i + 3) & 7] += a[i] >> 1;\n    }\n}\n\n");
    phase("cf_phase_a", 1);
    phase("cf_phase_b", 0);
    return 0;
}
