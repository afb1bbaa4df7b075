/* RV32F semantics over the lanes of a warp, exactly as the RISC-V
 * specification says: canonical NaN, fflags, static and dynamic rounding
 * modes (RNE RTZ RDN RUP RMM), fcvt saturation, fmin/fmax NaN rules,
 * fclass, single-rounding fused multiply-add. */
#ifndef WS_FPU_H
#define WS_FPU_H
#include <fenv.h>
#include <stdint.h>
#include "isa.h"

/* fflags bits */
#define WS_FFLAG_NX 0x01u
#define WS_FFLAG_UF 0x02u
#define WS_FFLAG_OF 0x04u
#define WS_FFLAG_DZ 0x08u
#define WS_FFLAG_NV 0x10u
#define WS_CANONICAL_NAN 0x7fc00000u

/* Rounding-mode field values */
enum { WS_RM_RNE = 0, WS_RM_RTZ = 1, WS_RM_RDN = 2, WS_RM_RUP = 3, WS_RM_RMM = 4, WS_RM_DYN = 7 };

/* Register operands of one float instruction for all lanes of a warp.
 * a, b, c are the source operand arrays (float registers as IEEE bits, or
 * integer registers for fcvt.s.w[u] / fmv.w.x), indexed by lane. */
typedef struct ws_fpu_lanes {
    const uint32_t *a, *b, *c;
    uint32_t *d;          /* destination register array (float or integer) */
    uint8_t *frm;         /* per-lane frm CSR (dynamic rounding mode)       */
    uint8_t *fflags;      /* per-lane accrued exception flags (ORed into)   */
} ws_fpu_lanes;

/* Execute float instruction `in` (any OP_F* except OP_FLW/OP_FSW) for the
 * lanes set in `mask` (bit i = lane i, i < 32). Lanes not in mask are left
 * untouched. Returns 0, or -1 if the instruction is illegal for some lane
 * (reserved rounding mode 5/6, or dynamic rounding with an invalid frm): in
 * that case nothing is written and *bad_lane receives the first such lane. */
int ws_fpu_exec(const ws_inst *in, uint32_t mask, const ws_fpu_lanes *l, int *bad_lane);

/* The host thread's floating-point state. ws_fpu_exec and ws_fpu_exec1
 * keep the caller's rounding mode, exception masks and DAZ/FTZ, but not
 * its status flags (putting them back after every instruction made a
 * float kernel up to 1.7 times slower on Intel hosts): whoever runs device
 * instructions on a thread whose flags belong to someone else saves them
 * before and restores them after (the command processor does, around each
 * command). */
typedef struct ws_fpu_host {
#if defined(__x86_64__) || (defined(__i386__) && defined(__SSE2_MATH__))
    unsigned mxcsr;
#else
    int round;
    fexcept_t flags;
#endif
} ws_fpu_host;
void ws_fpu_host_save(ws_fpu_host *s);
void ws_fpu_host_restore(const ws_fpu_host *s);

/* Scalar form of the above, for one lane (used by tests and the reference
 * interpreter). frm is the lane's dynamic rounding mode. Returns 0 or -1. */
int ws_fpu_exec1(const ws_inst *in, uint32_t a, uint32_t b, uint32_t c, uint8_t frm,
                 uint32_t *d, uint8_t *fflags);

#endif
