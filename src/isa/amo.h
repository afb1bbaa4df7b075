/* The word a read-modify-write atomic leaves in memory: one definition for
 * the interpreter, which applies it per lane (inline: the atomic's lane
 * loop), and for the debugger's data triggers, which predict a store's
 * value before the instruction runs. */
#ifndef WS_ISA_AMO_H
#define WS_ISA_AMO_H
#include <stdint.h>
#include <string.h>
#include "isa/isa.h"
#include "isa/fpu.h"

/* amofadd.s's add: RISC-V's fadd.s (canonical NaN), rounding to nearest
 * even whatever frm says, its flags dropped (include/warpscope/abi.h). */
static inline uint32_t ws_amo_float_add(uint32_t a, uint32_t b)
{
    const ws_inst add = { .op = OP_FADD_S, .rm = WS_RM_RNE };
    uint32_t d = 0;
    uint8_t flags = 0;
    ws_fpu_exec1(&add, a, b, 0, 0, &d, &flags); /* (a static rounding mode cannot fail) */
    return d;
}

/* amofadd.d's add: RISC-V's fadd.d rounding to nearest even, no flags. */
static inline uint64_t ws_amo_double_add(uint64_t old, uint64_t v)
{
    double a, b;
    memcpy(&a, &old, 8);
    memcpy(&b, &v, 8);
    const double s = a + b; /* the host rounds to nearest even, as amofadd.d does */
    uint64_t r;
    memcpy(&r, &s, 8);
    return s != s ? 0x7ff8000000000000ull : r; /* RISC-V's canonical NaN */
}

static inline uint64_t ws_amo_dword(ws_op op, uint64_t old, uint64_t v)
{
    switch (op) {
    case OP_AMOFADD_D: return ws_amo_double_add(old, v);
    case OP_AMOADD_D: return old + v;
    case OP_AMOXOR_D: return old ^ v;
    case OP_AMOAND_D: return old & v;
    case OP_AMOOR_D: return old | v;
    case OP_AMOMIN_D: return (int64_t)old < (int64_t)v ? old : v;
    case OP_AMOMAX_D: return (int64_t)old > (int64_t)v ? old : v;
    case OP_AMOMINU_D: return old < v ? old : v;
    case OP_AMOMAXU_D: return old > v ? old : v;
    default: return v; /* amoswap.d */
    }
}

static inline uint32_t ws_amo_word(ws_op op, uint32_t old, uint32_t v)
{
    switch (op) {
    case OP_AMOADD_W: return old + v;
    case OP_AMOXOR_W: return old ^ v;
    case OP_AMOAND_W: return old & v;
    case OP_AMOOR_W: return old | v;
    case OP_AMOMIN_W: return (int32_t)old < (int32_t)v ? old : v;
    case OP_AMOMAX_W: return (int32_t)old > (int32_t)v ? old : v;
    case OP_AMOMINU_W: return old < v ? old : v;
    case OP_AMOMAXU_W: return old > v ? old : v;
    case OP_AMOFADD_S: return ws_amo_float_add(old, v);
    default: return v; /* amoswap.w */
    }
}
#endif
