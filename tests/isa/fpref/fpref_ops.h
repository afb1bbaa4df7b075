/* Float ops exercised by the qemu differential test. Shared by the RV32
 * reference program (fpref.c) and the host side (test_fpu_qemu.c) so both
 * agree on op ids (the index in this list) and operand kinds.
 *
 * X(name, mnemonic, kind, rounds)
 *   name: ws_op without the OP_ prefix
 *   kind: R1 f->f, R2 ff->f, R3 fff->f, C2 ff->x, F2X f->x, X2F x->f
 *   rounds: 1 if the rm field is a rounding mode (run under every mode) */
#ifndef FPREF_OPS_H
#define FPREF_OPS_H

#define FPREF_OPS(X)                          \
    X(FADD_S, "fadd.s", R2, 1)                \
    X(FSUB_S, "fsub.s", R2, 1)                \
    X(FMUL_S, "fmul.s", R2, 1)                \
    X(FDIV_S, "fdiv.s", R2, 1)                \
    X(FSQRT_S, "fsqrt.s", R1, 1)              \
    X(FMADD_S, "fmadd.s", R3, 1)              \
    X(FMSUB_S, "fmsub.s", R3, 1)              \
    X(FNMSUB_S, "fnmsub.s", R3, 1)            \
    X(FNMADD_S, "fnmadd.s", R3, 1)            \
    X(FCVT_W_S, "fcvt.w.s", F2X, 1)           \
    X(FCVT_WU_S, "fcvt.wu.s", F2X, 1)         \
    X(FCVT_S_W, "fcvt.s.w", X2F, 1)           \
    X(FCVT_S_WU, "fcvt.s.wu", X2F, 1)         \
    X(FSGNJ_S, "fsgnj.s", R2, 0)              \
    X(FSGNJN_S, "fsgnjn.s", R2, 0)            \
    X(FSGNJX_S, "fsgnjx.s", R2, 0)            \
    X(FMIN_S, "fmin.s", R2, 0)                \
    X(FMAX_S, "fmax.s", R2, 0)                \
    X(FEQ_S, "feq.s", C2, 0)                  \
    X(FLT_S, "flt.s", C2, 0)                  \
    X(FLE_S, "fle.s", C2, 0)                  \
    X(FCLASS_S, "fclass.s", F2X, 0)           \
    X(FMV_X_W, "fmv.x.w", F2X, 0)             \
    X(FMV_W_X, "fmv.w.x", X2F, 0)

#define FPREF_ID(name, mn, kind, rounds) FPREF_##name,
enum { FPREF_OPS(FPREF_ID) FPREF_NOPS };
#undef FPREF_ID

/* One record of the program's output, all little-endian 32-bit words:
 * hdr = op id | rm << 8 | frm << 12 (frm only meaningful when rm = 7),
 * then operands a b c, result bits, fflags. */
#define FPREF_WORDS 6

#endif
