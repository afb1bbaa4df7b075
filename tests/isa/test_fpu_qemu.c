/* Differential test of the FPU against qemu-riscv32.
 *
 * usage: test_isa_fpu_qemu <qemu-riscv32> <fpref.elf>
 * Runs the RV32 reference program (fpref/fpref.c) under qemu, which prints
 * one binary record per case (op, rm, frm, operands, result, fflags), then
 * replays every case through ws_fpu_exec1 and, grouped into warps, through
 * ws_fpu_exec (full mask with clear flags, full mask with NX already set,
 * and a partial mask), comparing result bits and flags exactly.
 * Exits 77 (skip) when qemu or the reference program is unavailable. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "isa/fpu.h"
#include "isa/isa.h"
#include "test.h"
#include "fpref/fpref_ops.h"

#define SKIP 77
#define MAX_REPORT 25

#define MAP_OP(name, mn, kind, rounds) OP_##name,
static const ws_op op_of[FPREF_NOPS] = { FPREF_OPS(MAP_OP) };

typedef struct rec {
    uint32_t hdr, a, b, c, r, fl;
} rec;

typedef struct stats {
    long cases, mismatches, reported;
} stats;

static unsigned rec_id(const rec *x) { return x->hdr & 0xFF; }
static unsigned rec_rm(const rec *x) { return (x->hdr >> 8) & 0xF; }
static unsigned rec_frm(const rec *x) { return (x->hdr >> 12) & 0xF; }

static void make_inst(const rec *x, ws_inst *in)
{
    memset(in, 0, sizeof *in);
    in->op = (uint16_t)op_of[rec_id(x)];
    in->rm = (uint8_t)rec_rm(x);
    in->len = 4;
}

static void report(stats *st, const char *what, const rec *x, uint32_t d, unsigned fl)
{
    st->mismatches++;
    if (st->reported++ >= MAX_REPORT) return;
    fprintf(stderr,
            "%s mismatch: %s rm=%u frm=%u a=0x%08x b=0x%08x c=0x%08x: qemu 0x%08x fl=0x%02x, "
            "got 0x%08x fl=0x%02x\n",
            what, ws_op_name(op_of[rec_id(x)]), rec_rm(x), rec_frm(x), x->a, x->b, x->c, x->r,
            x->fl, d, fl);
}

static uint8_t *read_all(FILE *f, size_t *len)
{
    size_t cap = 1 << 20, n = 0;
    uint8_t *buf = malloc(cap);
    for (;;) {
        if (!buf) return NULL;
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break;
        uint8_t *nb = realloc(buf, cap *= 2);
        if (!nb) { free(buf); return NULL; }
        buf = nb;
    }
    *len = n;
    return buf;
}

static void check_scalar(const rec *recs, size_t n, stats *st)
{
    for (size_t i = 0; i < n; i++) {
        const rec *x = &recs[i];
        ws_inst in;
        make_inst(x, &in);
        uint32_t d = 0xDEADBEEF;
        uint8_t fl = 0;
        int rc = ws_fpu_exec1(&in, x->a, x->b, x->c, (uint8_t)rec_frm(x), &d, &fl);
        st->cases++;
        if (rc != 0 || d != x->r || fl != x->fl) report(st, "scalar", x, d, fl);
    }
}

/* Run up to 32 records with the same header as one warp instruction. */
static void check_warp(const rec *x, unsigned n, uint32_t mask, uint8_t preset, stats *st)
{
    uint32_t a[32], b[32], c[32], d[32];
    uint8_t frm[32], fflags[32];
    for (unsigned i = 0; i < 32; i++) {
        const rec *y = &x[i < n ? i : 0];
        a[i] = y->a; b[i] = y->b; c[i] = y->c;
        d[i] = 0xA5A5A5A5u ^ i;
        frm[i] = (uint8_t)rec_frm(x);
        fflags[i] = preset;
    }
    ws_inst in;
    make_inst(x, &in);
    ws_fpu_lanes l = { a, b, c, d, frm, fflags };
    int bad = -1;
    if (ws_fpu_exec(&in, mask, &l, &bad) != 0) {
        report(st, "warp-rc", x, 0, 0);
        return;
    }
    for (unsigned i = 0; i < n; i++) {
        st->cases++;
        if (mask >> i & 1) {
            if (d[i] != x[i].r || fflags[i] != (preset | x[i].fl))
                report(st, preset ? "warp(NX preset)" : "warp", &x[i], d[i], fflags[i]);
        } else if (d[i] != (0xA5A5A5A5u ^ i) || fflags[i] != preset) {
            report(st, "warp(inactive lane written)", &x[i], d[i], fflags[i]);
        }
    }
}

static void check_warps(const rec *recs, size_t n, stats *st)
{
    uint32_t seed = 12345;
    for (size_t i = 0; i < n;) {
        unsigned k = 1;
        while (k < 32 && i + k < n && recs[i + k].hdr == recs[i].hdr) k++;
        uint32_t full = k == 32 ? 0xFFFFFFFFu : (1u << k) - 1;
        seed = seed * 1103515245u + 12345u;
        check_warp(&recs[i], k, full, 0, st);
        check_warp(&recs[i], k, full, WS_FFLAG_NX, st);
        check_warp(&recs[i], k, full & (seed >> 3 | 1u), 0, st);
        i += k;
    }
}

int main(int argc, char **argv)
{
    if (argc < 3 || access(argv[1], X_OK) != 0 || access(argv[2], R_OK) != 0) {
        printf("skipped: qemu-riscv32 or the RV32 reference program is missing\n");
        return SKIP;
    }
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "'%s' '%s'", argv[1], argv[2]);
    FILE *p = popen(cmd, "r");
    if (!p) { perror("popen"); return 1; }
    size_t len = 0;
    uint8_t *buf = read_all(p, &len);
    int status = pclose(p);
    CHECK(buf != NULL);
    CHECK_EQ_U(status, 0);
    CHECK_EQ_U(len % sizeof(rec), 0);
    size_t n = len / sizeof(rec);
    CHECK(n > 1000);
    if (!buf || n == 0) return TEST_SUMMARY();

    rec *recs = (rec *)(void *)buf;
    for (size_t i = 0; i < n; i++) {
        if (rec_id(&recs[i]) >= FPREF_NOPS) {
            CHECK(!"record with an unknown op id");
            free(buf);
            return TEST_SUMMARY();
        }
    }

    stats scalar = { 0, 0, 0 }, warp = { 0, 0, 0 };
    check_scalar(recs, n, &scalar);
    check_warps(recs, n, &warp);
    printf("qemu differential: %ld scalar cases, %ld mismatches; %ld warp-lane cases, %ld mismatches\n",
           scalar.cases, scalar.mismatches, warp.cases, warp.mismatches);
    CHECK_EQ_U(scalar.mismatches, 0);
    CHECK_EQ_U(warp.mismatches, 0);
    free(buf);
    return TEST_SUMMARY();
}
