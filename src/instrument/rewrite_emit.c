/* Writing the new code: the inserted sequences, the original instructions
 * with their PC-relative fields recomputed for their new places, and the
 * helpers the RECORD sequences call. */
#include <stdlib.h>
#include <string.h>
#include "instrument/rewrite_int.h"
#include "warpscope/abi.h"

enum { ZERO = 0, SP = 2, GP = 3, TP = 4, A0 = 10, A1 = 11, A2 = 12, A3 = 13, A4 = 14, A5 = 15 };

uint32_t rv_i(uint32_t opc, uint32_t f3, uint32_t rd, uint32_t rs1, int32_t imm)
{
    return ((uint32_t)imm & 0xFFFu) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}

uint32_t rv_s(uint32_t opc, uint32_t f3, uint32_t rs1, uint32_t rs2, int32_t imm)
{
    uint32_t u = (uint32_t)imm;
    return ((u >> 5) & 0x7F) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 0x1F) << 7 | opc;
}

uint32_t rv_u(uint32_t opc, uint32_t rd, uint32_t imm20) { return (imm20 & 0xFFFFFu) << 12 | rd << 7 | opc; }

uint32_t rv_b_imm(uint32_t raw, int32_t off)
{
    uint32_t u = (uint32_t)off;
    return (raw & 0x01FFF07Fu) | ((u >> 12) & 1) << 31 | ((u >> 5) & 0x3F) << 25 | ((u >> 1) & 0xF) << 8 |
           ((u >> 11) & 1) << 7;
}

uint32_t rv_j_imm(uint32_t raw, int32_t off)
{
    uint32_t u = (uint32_t)off;
    return (raw & 0xFFFu) | ((u >> 20) & 1) << 31 | ((u >> 1) & 0x3FF) << 21 | ((u >> 11) & 1) << 20 |
           ((u >> 12) & 0xFF) << 12;
}

uint16_t rv_cj_imm(uint16_t raw, int32_t off)
{
    uint32_t u = (uint32_t)off;
    uint32_t v = ((u >> 11) & 1) << 12 | ((u >> 4) & 1) << 11 | ((u >> 8) & 3) << 9 | ((u >> 10) & 1) << 8 |
                 ((u >> 6) & 1) << 7 | ((u >> 7) & 1) << 6 | ((u >> 1) & 7) << 3 | ((u >> 5) & 1) << 2;
    return (uint16_t)((raw & 0xE003u) | v);
}

uint16_t rv_cb_imm(uint16_t raw, int32_t off)
{
    uint32_t u = (uint32_t)off;
    uint32_t v = ((u >> 8) & 1) << 12 | ((u >> 3) & 3) << 10 | ((u >> 6) & 3) << 5 | ((u >> 1) & 3) << 3 |
                 ((u >> 5) & 1) << 2;
    return (uint16_t)((raw & 0xE383u) | v);
}

uint32_t rv_set_i_imm(uint32_t raw, int32_t imm) { return (raw & 0x000FFFFFu) | ((uint32_t)imm & 0xFFFu) << 20; }
uint32_t rv_set_s_imm(uint32_t raw, int32_t imm)
{
    uint32_t u = (uint32_t)imm;
    return (raw & 0x01FFF07Fu) | ((u >> 5) & 0x7F) << 25 | (u & 0x1F) << 7;
}
uint32_t rv_set_u_imm(uint32_t raw, uint32_t imm20) { return (raw & 0xFFFu) | (imm20 & 0xFFFFFu) << 12; }

static uint32_t lw(uint32_t rd, uint32_t rs1, int32_t off) { return rv_i(0x03, 2, rd, rs1, off); }
static uint32_t sw(uint32_t rs2, uint32_t rs1, int32_t off) { return rv_s(0x23, 2, rs1, rs2, off); }
static uint32_t addi(uint32_t rd, uint32_t rs1, int32_t imm) { return rv_i(0x13, 0, rd, rs1, imm); }
static uint32_t add(uint32_t rd, uint32_t a, uint32_t b) { return b << 20 | a << 15 | rd << 7 | 0x33; }
static uint32_t mul(uint32_t rd, uint32_t a, uint32_t b) { return 1u << 25 | b << 20 | a << 15 | rd << 7 | 0x33; }
static uint32_t slli(uint32_t rd, uint32_t rs1, int sh) { return rv_i(0x13, 1, rd, rs1, sh); }
static uint32_t csrr(uint32_t rd, uint32_t csr) { return (csr & 0xFFFu) << 20 | 2u << 12 | rd << 7 | 0x73; }
static uint32_t amoadd(uint32_t rd, uint32_t rs2, uint32_t rs1) { return rs2 << 20 | rs1 << 15 | 2u << 12 | rd << 7 | 0x2F; }
static uint32_t jal(uint32_t rd, int32_t off) { return rv_j_imm(0x6F | rd << 7, off); }
static uint32_t jalr0(uint32_t rs1) { return rv_i(0x67, 0, 0, rs1, 0); }
static uint32_t sltiu(uint32_t rd, uint32_t rs1, int32_t imm) { return rv_i(0x13, 3, rd, rs1, imm); }
static uint32_t sub(uint32_t rd, uint32_t a, uint32_t b) { return 0x20u << 25 | b << 20 | a << 15 | rd << 7 | 0x33; }
static uint32_t and_(uint32_t rd, uint32_t a, uint32_t b) { return b << 20 | a << 15 | 7u << 12 | rd << 7 | 0x33; }
static uint32_t srl(uint32_t rd, uint32_t a, uint32_t b) { return b << 20 | a << 15 | 5u << 12 | rd << 7 | 0x33; }
static uint32_t andi(uint32_t rd, uint32_t rs1, int32_t imm) { return rv_i(0x13, 7, rd, rs1, imm); }
static uint32_t xor_(uint32_t rd, uint32_t a, uint32_t b) { return b << 20 | a << 15 | 4u << 12 | rd << 7 | 0x33; }
static uint32_t sltu(uint32_t rd, uint32_t a, uint32_t b) { return b << 20 | a << 15 | 3u << 12 | rd << 7 | 0x33; }
static uint32_t slt(uint32_t rd, uint32_t a, uint32_t b) { return b << 20 | a << 15 | 2u << 12 | rd << 7 | 0x33; }



typedef struct out {
    uint8_t *buf;
    uint32_t base, at;     /* link address of buf[0], of the next byte */
} out;

/* buf NULL: a dry run that only measures (rw_helpers_place) */
static void put32(out *o, uint32_t v)
{
    if (o->buf) memcpy(o->buf + (o->at - o->base), &v, 4);
    o->at += 4;
}

static void put16(out *o, uint16_t v)
{
    if (o->buf) memcpy(o->buf + (o->at - o->base), &v, 2);
    o->at += 2;
}

/* auipc rd / addi rd, rd: rd = target */
static void put_address(out *o, uint32_t rd, uint32_t target)
{
    uint32_t d = target - o->at;
    put32(o, rv_u(0x17, rd, rv_hi20(d)));
    put32(o, addi(rd, rd, rv_lo12(d)));
}

static void put_is_leader(out *o, uint32_t mask, uint32_t lowest, uint32_t lane)
{
    put32(o, csrr(mask, WS_CSR_ACTIVE_MASK));
    put32(o, sub(lowest, ZERO, mask));
    put32(o, and_(lowest, mask, lowest));
    put32(o, csrr(lane, WS_CSR_LANE_ID));
    put32(o, srl(lowest, lowest, lane));
    put32(o, andi(lowest, lowest, 1));
}

/* Reserve `inc` (a register holding 0 or 1) records of 1 << shift bytes in
 * the buffer whose control words are at ctl + next/cap/base: rec = the
 * address of the first. When the buffer is full (the host sees next > cap)
 * the record goes to slot 0 instead: the pass is then run again with room,
 * and the same instructions ran either way, so the re-run has the same
 * schedule. ctl, rec, t, inc distinct; ctl and inc are kept. 9 instructions. */
static void put_reserve(out *o, uint32_t ctl, int next, int cap, int base, int shift, uint32_t rec, uint32_t t,
                        uint32_t inc)
{
    put32(o, addi(rec, ctl, next));
    put32(o, amoadd(rec, inc, rec));       /* rec = index          */
    put32(o, lw(t, ctl, cap));
    put32(o, sltu(t, rec, t));             /* 1 if it fits         */
    put32(o, sub(t, ZERO, t));             /* all ones if it fits  */
    put32(o, and_(rec, rec, t));           /* the index, or 0      */
    put32(o, slli(rec, rec, shift));
    put32(o, lw(t, ctl, base));
    put32(o, add(rec, rec, t));
}

/* Lane-level records (blocks, accesses, custom): their number does not
 * depend on the schedule, so a full buffer can simply be skipped: rec = the
 * record's address, or a branch over the `after` instructions that write
 * it. ctl, rec, t distinct; ctl is kept. 8 instructions. */
static void put_reserve_lane(out *o, uint32_t ctl, int next, int cap, int base, int shift, uint32_t rec, uint32_t t,
                             int after)
{
    put32(o, addi(rec, ctl, next));
    put32(o, addi(t, ZERO, 1));
    put32(o, amoadd(rec, t, rec));         /* rec = index */
    put32(o, lw(t, ctl, cap));
    put32(o, rv_b_imm(0x63 | 7u << 12 | rec << 15 | t << 20, 4 * (4 + after))); /* bgeu: full */
    put32(o, slli(rec, rec, shift));
    put32(o, lw(t, ctl, base));
    put32(o, add(rec, rec, t));
}

static void put_call(out *o, uint32_t helper) { put32(o, jal(GP, (int32_t)(helper - o->at))); }

/* reg = an address near the control area, returned as the offset to add
 * to every field: one auipc when the fields stay in reach of a 12-bit
 * offset, else auipc + addi (offset 0). */
static int32_t put_ctl(out *o, uint32_t reg, uint32_t ctl)
{
    uint32_t d = ctl - o->at;
    int32_t lo = rv_lo12(d);
    if (lo <= 2047 - 128) {
        put32(o, rv_u(0x17, reg, rv_hi20(d)));
        return lo;
    }
    put_address(o, reg, ctl);
    return 0;
}

/* WSI_VALUES: stores and atomics name a value register too. */
static int has_value(const rw_inst *x) { return x->mem == WSI_STORE || x->mem == WSI_ATOMIC; }

static struct value_helper *value_helper_for(const rw_ctx *c, const rw_inst *x)
{
    if (!has_value(x)) return NULL;
    uint8_t fp = x->in.op == OP_FSW;
    for (uint32_t i = 0; i < c->nvalue_helpers; i++)
        if (c->value_helpers[i].base == x->in.rs1 && c->value_helpers[i].value == x->in.rs2 && c->value_helpers[i].fp == fp)
            return &c->value_helpers[i];
    return NULL;
}

static void emit_inserted(rw_ctx *c, out *o, const rw_inst *x)
{
    wsi_module_info *info = c->info;
    /* rewrite_layout.c: a block's inserted code starts with the hold hint */
    if (x->in.op != OP_ILLEGAL && x->leader && o->at < x->new_addr) put32(o, WS_HINT_HOLD(x->new_addr - o->at - 4));
    if (c->mode == WSI_COUNT) {
        /* Counters are 64-bit, low word first. With WSI_WIDE_COUNTS the one
         * lane whose add wraps a low word (it read all ones and added 1)
         * carries into the high word: every lane adds its carry, 0 or 1, so
         * no branch splits the group (until 2026-11-27 a branch skipped the
         * add for the others, and a wrap ended a starvation guard's turn);
         * without, the high words stay 0 and a
         * block entry costs three instructions and the hold hint (the tracer re-counts with
         * wide counters when a launch ran long enough to wrap one). */
        const uint32_t at = c->ctl_addr + WSI_CTL_HEADER + WSI_CTL_COUNTER_SIZE * (uint32_t)x->block;
        const int wide = (c->flags & WSI_WIDE_COUNTS) != 0;
        if (x->ep) put32(o, addi(TP, ZERO, 1));
        if (x->leader) {
            put_address(o, GP, at);
            if (wide) { /* without a branch: a split group ends a guard's turn (device.md) */
                put32(o, amoadd(TP, TP, GP));      /* TP = the low word before */
                put32(o, addi(TP, TP, 1));         /* 0: this add wrapped it */
                put32(o, sltiu(TP, TP, 1));        /* the carry: 1 for the lane that wrapped it */
                put32(o, addi(GP, GP, 4));
                put32(o, amoadd(ZERO, TP, GP));
                put32(o, addi(TP, ZERO, 1));       /* TP = 1 again */
            } else {
                put32(o, amoadd(ZERO, TP, GP));
            }
            if (c->flags & WSI_WARPS) { /* the warp's leader adds 1 to the warp count: every lane adds 0 or 1 */
                put32(o, sw(A0, SP, -4));
                put32(o, sw(A1, SP, -8));
                put_is_leader(o, A1, A0, A1);
                if (wide) {
                    put_address(o, GP, at + 8);
                    put32(o, amoadd(A1, A0, GP));  /* A1 = the low word before */
                    put32(o, add(A1, A1, A0));     /* 0: wrapped, or 0 + 0 */
                    put32(o, sltiu(A1, A1, 1));
                    put32(o, and_(A1, A1, A0));    /* the carry: 1 for a leader that wrapped it */
                    put32(o, addi(GP, GP, 4));
                    put32(o, amoadd(ZERO, A1, GP));
                } else {
                    put32(o, addi(GP, GP, 8));
                    put32(o, amoadd(ZERO, A0, GP));
                }
                put32(o, lw(A0, SP, -4));
                put32(o, lw(A1, SP, -8));
            }
        }
        return;
    }
    if (x->ep == 2) put_call(o, c->gid_helper);
    if (c->flags & WSI_CUSTOM) {
        if (rw_custom_at_block(c, x)) put_call(o, c->bb_stub[x->block]);
        if (rw_custom_at_mem(c, x)) put_call(o, c->mem_stub[c->mem_index[x - c->insts]]);
        if (rw_custom_at_branch(c, x)) put_call(o, c->branch_stub[x->block]);
        return;
    }
    if (x->leader && !(c->flags & WSI_NO_BLOCKS)) {
        put_call(o, c->bb_helper);
        info->bb_site[x->block] = o->at;
    }
    if (x->mem) { /* the site is the instruction's own address */
        const struct value_helper *v = (c->flags & WSI_VALUES) ? value_helper_for(c, x) : NULL;
        int32_t f = c->inst_fast && !v ? c->inst_fast[x - c->insts] : -1;
        put_call(o, v ? v->addr : f >= 0 ? c->fast[f].addr : c->mem_helper[x->in.rs1]);
    }
}

static const uint32_t branch_f3[] = { [OP_BEQ] = 0, [OP_BNE] = 1, [OP_BLT] = 4, [OP_BGE] = 5, [OP_BLTU] = 6, [OP_BGEU] = 7 };

static void emit_control(rw_ctx *c, out *o, const rw_inst *x, uint32_t target)
{
    int32_t off = (int32_t)(target - o->at);
    if (x->in.op == OP_JAL) {
        if (x->form == 0 && x->in.len == 2) put16(o, rv_cj_imm((uint16_t)x->in.raw, off));
        else if (x->form == 0) put32(o, rv_j_imm(x->in.raw, off));
        else put32(o, jal(x->in.rd, off));
        return;
    }
    uint32_t f3 = branch_f3[x->in.op];
    uint32_t base = 0x63 | (uint32_t)x->in.rs1 << 15 | (uint32_t)x->in.rs2 << 20;
    if (x->form == 0 && x->in.len == 2) put16(o, rv_cb_imm((uint16_t)x->in.raw, off));
    else if (x->form == 0) put32(o, rv_b_imm(x->in.raw, off));
    else if (x->form == 1) put32(o, rv_b_imm(base | f3 << 12, off));
    else { /* the device runs the three as the original branch (isa.h) */
        put32(o, WS_HINT_FAR_BRANCH);
        put32(o, rv_b_imm(base | (f3 ^ 1) << 12, 8));
        put32(o, jal(ZERO, off - 8));
    }
    (void)c;
}

static int emit_original(rw_ctx *c, out *o, const rw_inst *x)
{
    if (x->in.op == OP_JAL || (x->in.op >= OP_BEQ && x->in.op <= OP_BGEU)) {
        emit_control(c, o, x, c->insts[rw_inst_index(c, x->target)].start);
        return 0;
    }
    uint32_t raw = x->in.raw;
    if (x->in.op == OP_AUIPC) {
        uint32_t t;
        if (rw_map(c, x->target, &t)) return rw_fail(c, "auipc at 0x%08x: target 0x%08x is inside an instruction", x->addr, x->target);
        raw = rv_set_u_imm(raw, rv_hi20(t - x->new_addr));
    } else if (x->lo_of >= 0) {
        const rw_inst *hi = &c->insts[x->lo_of];
        uint32_t t = rw_map_or_same(c, hi->target);
        int32_t lo = rv_lo12(t - hi->new_addr);
        if (x->in.len != 4) return rw_fail(c, "compressed instruction at 0x%08x holds a %%pcrel_lo", x->addr);
        raw = ws_op_class_of((ws_op)x->in.op) == CLASS_STORE ? rv_set_s_imm(raw, lo) : rv_set_i_imm(raw, lo);
    }
    if (x->in.len == 2) put16(o, (uint16_t)raw);
    else put32(o, raw);
    return 0;
}

/* A custom tool: a stub per call site (a0 = site id, a1 = address), one
 * common part that saves what a C function may clobber, reserves the
 * record slot {gid, site, payload} and calls the tool's function
 * f(site, address, payload, gid), then the function itself. */
enum { CUSTOM_FRAME = 144 };
static const uint8_t caller_saved[] = { 1, 5, 6, 7, 12, 13, 14, 15, 16, 17, 28, 29, 30, 31 };
static const uint8_t fp_caller_saved[] = { 0, 1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 28, 29, 30, 31 };

static void put_stub(out *o, uint32_t common, uint32_t id, uint32_t base, int32_t imm)
{
    put32(o, sw(A0, SP, -4));
    put32(o, sw(A1, SP, -8));
    put32(o, addi(A1, base, imm));                /* before a0 changes: base may be a0 */
    put32(o, rv_u(0x37, A0, rv_hi20(id)));
    put32(o, addi(A0, A0, rv_lo12(id)));
    put32(o, jal(ZERO, (int32_t)(common - o->at)));
}

static void emit_custom(rw_ctx *c, out *o)
{
    const wsi_custom *k = c->custom;
    const wsi_module_info *info = c->info;
    /* The function, then the stubs, then the common part: every jump that
     * does not link goes forwards (the stubs to the common part, the
     * function's return to it), so none counts as a loop turn for the
     * starvation guard (device.md), as none does in the launch. (Until
     * 2026-11-27 the function sat last: its return jumped back, one turn
     * per call, and the guard gave other lanes their turn otherwise than in
     * the launch; so did the stubs' jumps once the common part came first.) */
    c->custom_fn = o->at;
    for (uint32_t i = 0; i < k->size; i += 2) { /* the function, as linked: its jumps are PC-relative */
        uint16_t h;
        memcpy(&h, k->code + i, 2);
        put16(o, h);
    }
    while (o->at & 3) put16(o, 0);
    uint32_t m = 0;
    for (uint32_t i = 0; i < c->ninsts; i++) {
        const rw_inst *x = &c->insts[i];
        if (rw_custom_at_block(c, x)) {
            c->bb_stub[x->block] = o->at;
            put_stub(o, c->custom_common, (uint32_t)x->block, ZERO, 0);
        }
        if (x->mem && rw_custom_at_mem(c, x)) {
            c->mem_stub[m] = o->at;
            put_stub(o, c->custom_common, info->nblocks + m, x->in.rs1, info->mems[m].imm);
        }
        if (x->mem && rw_custom_after_mem(c, x)) { /* a1 = the loaded value */
            c->after_stub[m] = o->at;
            put32(o, sw(A0, SP, -4));
            put32(o, sw(A1, SP, -8));
            put32(o, x->in.op == OP_FLW ? (0x70u << 25 | (uint32_t)x->in.rd << 15 | A1 << 7 | 0x53) /* fmv.x.w */
                                        : addi(A1, x->in.rd, 0));
            put32(o, rv_u(0x37, A0, rv_hi20(info->nblocks + info->nmems + m)));
            put32(o, addi(A0, A0, rv_lo12(info->nblocks + info->nmems + m)));
            put32(o, jal(ZERO, (int32_t)(c->custom_common - o->at)));
        }
        if (rw_custom_at_branch(c, x)) { /* a1 = 1 if this lane will take the branch */
            uint32_t r1 = x->in.rs1, r2 = x->in.rs2;
            c->branch_stub[x->block] = o->at;
            put32(o, sw(A0, SP, -4));
            put32(o, sw(A1, SP, -8));
            switch ((ws_op)x->in.op) {
            case OP_BEQ: put32(o, sub(A1, r1, r2)); put32(o, rv_i(0x13, 3, A1, A1, 1)); break;     /* seqz */
            case OP_BNE: put32(o, sub(A1, r1, r2)); put32(o, sltu(A1, ZERO, A1)); break;           /* snez */
            case OP_BLT: put32(o, slt(A1, r1, r2)); put32(o, addi(A1, A1, 0)); break;
            case OP_BGE: put32(o, slt(A1, r1, r2)); put32(o, rv_i(0x13, 4, A1, A1, 1)); break;     /* xori */
            case OP_BLTU: put32(o, sltu(A1, r1, r2)); put32(o, addi(A1, A1, 0)); break;
            default: put32(o, sltu(A1, r1, r2)); put32(o, rv_i(0x13, 4, A1, A1, 1)); break;        /* bgeu */
            }
            uint32_t id = info->nblocks + 2 * info->nmems + (uint32_t)x->block;
            put32(o, rv_u(0x37, A0, rv_hi20(id)));
            put32(o, addi(A0, A0, rv_lo12(id)));
            put32(o, jal(ZERO, (int32_t)(c->custom_common - o->at)));
        }
        m += x->mem != 0;
    }
    c->custom_common = o->at;
    put32(o, addi(SP, SP, -CUSTOM_FRAME));
    for (unsigned i = 0; i < sizeof caller_saved; i++) put32(o, sw(caller_saved[i], SP, (int32_t)(4 * i)));
    if (k->uses_fp)
        for (unsigned i = 0; i < sizeof fp_caller_saved; i++)
            put32(o, rv_s(0x27, 2, SP, fp_caller_saved[i], (int32_t)(56 + 4 * i)));
    put_address(o, A2, c->ctl_addr);
    put_reserve_lane(o, A2, WSI_CTL_CUSTOM_NEXT, WSI_CTL_CUSTOM_CAP, WSI_CTL_CUSTOM_BASE, (int)k->slot_shift, A3, A4, 5);
    put32(o, sw(TP, A3, 0));
    put32(o, sw(A0, A3, 4));
    put32(o, addi(A2, A3, 8));
    put32(o, addi(A3, TP, 0));
    put32(o, jal(1, (int32_t)(c->custom_fn - o->at)));
    if (k->uses_fp)
        for (unsigned i = 0; i < sizeof fp_caller_saved; i++)
            put32(o, rv_i(0x07, 2, fp_caller_saved[i], SP, (int32_t)(56 + 4 * i)));
    for (unsigned i = 0; i < sizeof caller_saved; i++) put32(o, lw(caller_saved[i], SP, (int32_t)(4 * i)));
    put32(o, addi(SP, SP, CUSTOM_FRAME));
    put32(o, lw(A0, SP, -4));
    put32(o, lw(A1, SP, -8));
    put32(o, jalr0(GP));
}

/* The helpers, in order; each one's address is set as it is written. */
static void emit_helpers(rw_ctx *c, out *o)
{
    c->helper_addr = o->at;
    if (c->mode != WSI_RECORD) return;
    c->gid_helper = o->at;
    /* gid_helper: tp = global linear thread id (block linear * threads per block + thread linear) */
    put32(o, sw(A0, SP, -4)); put32(o, sw(A1, SP, -8)); put32(o, sw(A2, SP, -12));
    put_address(o, A0, c->ctl_addr);
    put32(o, csrr(TP, WS_CSR_CTAID_Z)); put32(o, lw(A1, A0, WSI_CTL_NCTA_XY)); put32(o, mul(TP, TP, A1));
    put32(o, csrr(A2, WS_CSR_CTAID_Y)); put32(o, lw(A1, A0, WSI_CTL_NCTA_X)); put32(o, mul(A2, A2, A1));
    put32(o, add(TP, TP, A2));
    put32(o, csrr(A2, WS_CSR_CTAID_X)); put32(o, add(TP, TP, A2));
    put32(o, lw(A1, A0, WSI_CTL_TPB)); put32(o, mul(TP, TP, A1));
    put32(o, csrr(A2, WS_CSR_TID_LINEAR)); put32(o, add(TP, TP, A2));
    put32(o, lw(A0, SP, -4)); put32(o, lw(A1, SP, -8)); put32(o, lw(A2, SP, -12));
    put32(o, jalr0(GP));
    if (c->flags & WSI_CUSTOM) {
        emit_custom(c, o);
        return;
    }
    c->bb_helper = o->at;
    /* bb_helper: reserve one block record, write {gid, site} */
    put32(o, sw(A0, SP, -4)); put32(o, sw(A1, SP, -8)); put32(o, sw(A2, SP, -12));
    put_address(o, A0, c->ctl_addr);
    put_reserve_lane(o, A0, WSI_CTL_BB_NEXT, WSI_CTL_BB_CAP, WSI_CTL_BB_BASE, 3, A1, A2, 2);
    put32(o, sw(TP, A1, 0)); put32(o, sw(GP, A1, 4));
    if (c->flags & WSI_WARPS) {
        /* The leader lane also writes {its gid, active mask, site}. Without
         * a branch: a branch would split the group inside the helper, and a
         * split ends a starvation guard's turn (device.md), so the recording
         * pass would group lanes otherwise than the counting pass and the
         * launch. Every lane reserves (the leader 1 record, the others 0)
         * and writes; the others write below their own sp. */
        put32(o, sw(A3, SP, -16)); put32(o, sw(A4, SP, -20));
        put32(o, csrr(A3, WS_CSR_ACTIVE_MASK)); put32(o, sub(A2, ZERO, A3)); put32(o, and_(A2, A3, A2));
        put32(o, csrr(A1, WS_CSR_LANE_ID)); put32(o, srl(A2, A2, A1)); put32(o, andi(A4, A2, 1));
        put_reserve(o, A0, WSI_CTL_WARP_NEXT, WSI_CTL_WARP_CAP, WSI_CTL_WARP_BASE, 4, A1, A2, A4);
        put32(o, sub(A4, ZERO, A4));       /* all ones for the leader */
        put32(o, addi(A2, SP, -32));
        put32(o, xor_(A1, A1, A2)); put32(o, and_(A1, A1, A4)); put32(o, xor_(A1, A1, A2)); /* leader ? rec : sp - 32 */
        put32(o, sw(TP, A1, 0)); put32(o, sw(A3, A1, 4)); put32(o, sw(GP, A1, 8));
        put32(o, lw(A3, SP, -16)); put32(o, lw(A4, SP, -20));
    }
    put32(o, lw(A0, SP, -4)); put32(o, lw(A1, SP, -8)); put32(o, lw(A2, SP, -12));
    put32(o, jalr0(GP));
    /* one memory helper per base register r: the record is {gid, site, x[r]};
     * three scratch registers other than r, saved below sp */
    static const uint8_t scratch[] = { A0, A1, A2, A3, A4 };
    for (uint32_t h = 0; h < c->nvalue_helpers; h++) { /* {gid, site, x[base], value} */
        struct value_helper *v = &c->value_helpers[h];
        uint32_t t[3], n = 0;
        for (unsigned i = 0; i < sizeof scratch && n < 3; i++)
            if (scratch[i] != v->base && (v->fp || scratch[i] != v->value)) t[n++] = scratch[i];
        v->addr = o->at;
        for (int i = 0; i < 3; i++) put32(o, sw(t[i], SP, -4 - 4 * i));
        int32_t lo = put_ctl(o, t[0], c->ctl_addr);
        put_reserve_lane(o, t[0], lo + WSI_CTL_MEM_NEXT, lo + WSI_CTL_MEM_CAP, lo + WSI_CTL_MEM_BASE, 4, t[1], t[2], 4);
        put32(o, sw(TP, t[1], 0)); put32(o, sw(GP, t[1], 4)); put32(o, sw(v->base, t[1], 8));
        put32(o, v->fp ? rv_s(0x27, 2, t[1], v->value, 12) : sw(v->value, t[1], 12));
        for (int i = 0; i < 3; i++) put32(o, lw(t[i], SP, -4 - 4 * i));
        put32(o, jalr0(GP));
    }
    for (uint32_t h = 0; h < c->nfast; h++) { /* {gid, site, x[base]}, scratch dead at the call sites */
        struct fast_mem_helper *f = &c->fast[h];
        f->addr = o->at;
        int32_t lo = put_ctl(o, f->t[0], c->ctl_addr);
        put_reserve_lane(o, f->t[0], lo + WSI_CTL_MEM_NEXT, lo + WSI_CTL_MEM_CAP, lo + WSI_CTL_MEM_BASE, 4, f->t[1],
                         f->t[2], 3);
        put32(o, sw(TP, f->t[1], 0)); put32(o, sw(GP, f->t[1], 4)); put32(o, sw(f->base, f->t[1], 8));
        put32(o, jalr0(GP));
    }
    for (uint32_t r = 0; r < 32; r++) {
        uint32_t t[3], n = 0;
        for (unsigned i = 0; i < sizeof scratch && n < 3; i++)
            if (scratch[i] != r) t[n++] = scratch[i];
        c->mem_helper[r] = o->at;
        for (int i = 0; i < 3; i++) put32(o, sw(t[i], SP, -4 - 4 * i));
        int32_t lo = put_ctl(o, t[0], c->ctl_addr);
        put_reserve_lane(o, t[0], lo + WSI_CTL_MEM_NEXT, lo + WSI_CTL_MEM_CAP, lo + WSI_CTL_MEM_BASE, 4, t[1], t[2], 3);
        put32(o, sw(TP, t[1], 0)); put32(o, sw(GP, t[1], 4)); put32(o, sw(r, t[1], 8));
        for (int i = 0; i < 3; i++) put32(o, lw(t[i], SP, -4 - 4 * i));
        put32(o, jalr0(GP));
    }
}

uint32_t rw_helpers_place(rw_ctx *c, uint32_t at)
{
    out o = { NULL, at, at };
    emit_helpers(c, &o);
    return o.at;
}

int rw_emit_text(rw_ctx *c, uint8_t **text, uint32_t *size)
{
    uint32_t n = c->new_text_hi - c->text_lo;
    out o = { calloc(n ? n : 1, 1), c->text_lo, c->text_lo };
    if (!o.buf) return rw_fail(c, "out of host memory");
    wsi_module_info *info = c->info;
    if (c->mode == WSI_RECORD) {
        info->bb_site = calloc(info->nblocks + 1, sizeof *info->bb_site);
        info->mem_site = calloc(info->nmems + 1, sizeof *info->mem_site);
        if (!info->bb_site || !info->mem_site) { free(o.buf); return rw_fail(c, "out of host memory"); }
    }
    emit_helpers(c, &o);
    if (c->ninsts) while (o.at < c->insts[0].start) put16(&o, 0); /* c.unimp: never reached */
    uint32_t m = 0;
    for (uint32_t i = 0; i < c->ninsts; i++) {
        const rw_inst *x = &c->insts[i];
        emit_inserted(c, &o, x);
        if (x->mem && c->mode == WSI_RECORD) info->mem_site[m] = o.at;
        m += x->mem != 0;
        if (o.at != x->new_addr || emit_original(c, &o, x)) {
            free(o.buf);
            return c->err[0] ? -1 : rw_fail(c, "internal: layout mismatch at 0x%08x", x->addr);
        }
        if (x->post) put_call(&o, c->after_stub[c->mem_index[i]]); /* custom tool: after a load */
    }
    if (o.at != c->new_text_hi) {
        free(o.buf);
        return rw_fail(c, "internal: the code ends at 0x%08x, layout expected 0x%08x", o.at, c->new_text_hi);
    }
    *text = o.buf;
    *size = n;
    return 0;
}
