/* Epilogue rows for one function (epilogue_rows.h).
 *
 * An exit is a `ret`, or a jump that leaves the function (a tail call:
 * `auipc t1` + `jr t1`, `jr REG`, or `j` out of the FDE's range). Its
 * epilogue is the run of instructions just before it that takes the frame
 * down, as clang emits it at every level: reloads of saved registers from
 * their slots (`lw`/`flw` from sp) and stack-pointer increments (`addi sp,
 * sp, N`, or `add sp, sp, T` after `lui T`/`addi T`). After the run sp is
 * the CFA again (the function returns with the sp it was entered with),
 * so before any instruction of it the CFA is sp plus the increments still
 * to come; a reload must read the slot the CFI names for its register.
 * The rows: after a reload, the register is restored (DW_CFA_restore)
 * and, if the CFA was computed from it (s0 in a frame-pointer function),
 * the CFA becomes sp-based first; after an increment, the new offset. The
 * first row remembers the body's state and the instruction after the exit,
 * if the function goes on there, restores it.
 *
 * Fail safe: any exit whose state is not the entry state and that is not
 * this pattern exactly (a reload from another slot, a saved register not
 * reloaded, increments that do not add up to the CFA's offset, a branch
 * into the run, rows of the compiler's own after the run's start, a CFI
 * rule other than offsets) leaves the whole function as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "instrument/epilogue_rows.h"
#include "isa/isa.h"

enum { REG_RA = 1, REG_SP = 2, NREGS = 64, MAX_STATES = 8 };

typedef struct rules {
    uint64_t reg;           /* CFA = reg + off */
    int64_t off;
    uint8_t saved[NREGS];   /* at CFA + slot[r] */
    int64_t slot[NREGS];
} rules;

static int is_entry_state(const rules *r)
{
    if (r->reg != REG_SP || r->off != 0) return 0;
    for (int i = 0; i < NREGS; i++)
        if (r->saved[i]) return 0;
    return 1;
}

/* Run CFA instructions [p, end) on st from location *loc, stopping before
 * a row past `stop`. init: the CIE's rules (DW_CFA_restore); NULL while
 * running the CIE. *used: the end of the last instruction that is no
 * padding. 0, or 1 with why set for what this pass does not model. */
static int run_rules(const cfi_cie *ci, const uint8_t *p, const uint8_t *end, const rules *init, uint32_t stop,
                     rules *st, uint32_t *loc, const uint8_t **used, char *why, size_t whylen)
{
    rules saved[MAX_STATES];
    int depth = 0;
    dw_reader r = { p, end, 0 };
    uint8_t op = 0;
    while (r.p < r.end) {
        op = (uint8_t)dw_get_n(&r, 1);
        uint64_t delta = UINT64_MAX, reg = UINT64_MAX;
        int64_t off = 0;
        uint32_t to = 0;
        switch (op & 0xc0 ? op & 0xc0 : op) {
        case CFA_NOP: continue;
        case CFA_ADVANCE: delta = op & 0x3f; break;
        case CFA_ADVANCE1: delta = dw_get_n(&r, 1); break;
        case CFA_ADVANCE2: delta = dw_get_n(&r, 2); break;
        case CFA_ADVANCE4: delta = dw_get_n(&r, 4); break;
        case CFA_SET_LOC: to = (uint32_t)dw_get_n(&r, 4); break;
        case CFA_OFFSET: reg = op & 0x3f; off = (int64_t)dw_get_uleb(&r) * ci->daf; break;
        case 0x05: reg = dw_get_uleb(&r); off = (int64_t)dw_get_uleb(&r) * ci->daf; break;
        case 0x11: reg = dw_get_uleb(&r); off = dw_get_sleb(&r) * ci->daf; break;
        case CFA_RESTORE: case 0x06: case 0x08: /* restore, restore_extended, same_value */
            reg = op & 0xc0 ? (uint64_t)(op & 0x3f) : dw_get_uleb(&r);
            if (reg >= NREGS) break;
            st->saved[reg] = op != 0x08 && init ? init->saved[reg] : 0;
            st->slot[reg] = op != 0x08 && init ? init->slot[reg] : 0;
            reg = UINT64_MAX;
            break;
        case CFA_REMEMBER_STATE:
            if (depth == MAX_STATES) goto unknown;
            saved[depth++] = *st;
            break;
        case CFA_RESTORE_STATE:
            if (!depth) goto unknown;
            *st = saved[--depth];
            break;
        case CFA_DEF_CFA: st->reg = dw_get_uleb(&r); st->off = (int64_t)dw_get_uleb(&r); break;
        case 0x0d: st->reg = dw_get_uleb(&r); break;
        case CFA_DEF_CFA_OFFSET: st->off = (int64_t)dw_get_uleb(&r); break;
        case 0x12: st->reg = dw_get_uleb(&r); st->off = dw_get_sleb(&r) * ci->daf; break;
        case 0x13: st->off = dw_get_sleb(&r) * ci->daf; break;
        default: goto unknown;
        }
        if (r.bad) break;
        if (reg != UINT64_MAX) {
            if (reg >= NREGS) goto unknown;
            st->saved[reg] = 1;
            st->slot[reg] = off;
        }
        if (delta != UINT64_MAX || op == CFA_SET_LOC) {
            if (op != CFA_SET_LOC) to = *loc + (uint32_t)(delta * ci->caf);
            if (to < *loc) {
                snprintf(why, whylen, "a row before the one it follows");
                return 1;
            }
            if (to > stop) return 0;
            *loc = to;
        }
        *used = r.p;
    }
    if (r.bad) {
        snprintf(why, whylen, "call frame instructions cut short");
        return 1;
    }
    return 0;
unknown:
    snprintf(why, whylen, "a call frame rule this pass does not model (opcode 0x%02x)", op);
    return 1;
}

typedef struct insn {
    uint32_t addr;
    ws_inst in;
} insn;

/* What an instruction of an epilogue does. */
enum { ROLE_NONE, ROLE_RELOAD, ROLE_ADJUST, ROLE_NEUTRAL };
typedef struct step {
    uint8_t role, reg;  /* ROLE_RELOAD: the register (DWARF number)        */
    int32_t amount;     /* ROLE_ADJUST: what sp grows by                  */
} step;

/* 1 a return, 2 a jump that may leave the function, 0 neither. */
static int exit_kind(const insn *x, uint32_t lo, uint32_t hi)
{
    if (x->in.op == OP_JALR && x->in.rd == 0) return x->in.rs1 == REG_RA && x->in.imm == 0 ? 1 : 2;
    if (x->in.op == OP_JAL && x->in.rd == 0) {
        const uint32_t t = x->addr + (uint32_t)x->in.imm;
        return t < lo || t >= hi ? 2 : 0;
    }
    return 0;
}

/* The constant `add sp, sp, T` adds (T set by `lui T` and maybe `addi T,
 * T, K` just before it): the index of the lui, or -1. */
static int adds_constant(const insn *v, int j, int32_t *value)
{
    const ws_inst *a = &v[j].in;
    const unsigned t = a->rs2;
    if (a->op != OP_ADD || a->rd != REG_SP || a->rs1 != REG_SP || t == 0 || t == REG_SP) return -1;
    int k = j - 1;
    int32_t low = 0;
    if (k >= 0 && v[k].in.op == OP_ADDI && v[k].in.rd == t && v[k].in.rs1 == t) low = v[k--].in.imm;
    if (k < 0 || v[k].in.op != OP_LUI || v[k].in.rd != t) return -1;
    *value = (int32_t)((uint32_t)v[k].in.imm + (uint32_t)low);
    return *value > 0 ? k : -1;
}

/* The epilogue before exit x under rules st, walking back: steps[] set
 * for its instructions, *e its first. 0 when there is none (no reload or
 * increment before x), 1 when found, -1 when it is not the pattern. */
static int match_epilogue(const insn *v, int x, const rules *st, step *steps, int *e, char *why, size_t whylen)
{
    int j = x - 1;
    if (v[x].in.op == OP_JALR && v[x].in.rs1 != REG_RA && j >= 0 && v[j].in.op == OP_AUIPC && v[j].in.rd == v[x].in.rs1)
        steps[j--].role = ROLE_NEUTRAL; /* a far tail call's auipc */
    int64_t rem = 0; /* what sp still grows by after instruction j */
    uint8_t reloaded[NREGS] = { 0 };
    int any = 0;
    while (j >= 0) {
        const ws_inst *in = &v[j].in;
        int32_t value;
        int k;
        if (in->op == OP_ADDI && in->rd == REG_SP && in->rs1 == REG_SP && in->imm > 0) {
            steps[j] = (step){ ROLE_ADJUST, 0, in->imm };
            rem += in->imm;
            j--;
        } else if ((k = adds_constant(v, j, &value)) >= 0) {
            steps[j] = (step){ ROLE_ADJUST, 0, value };
            for (int n = k; n < j; n++) steps[n].role = ROLE_NEUTRAL;
            rem += value;
            j = k - 1;
        } else if ((in->op == OP_LW || in->op == OP_FLW) && in->rs1 == REG_SP) {
            const unsigned r = in->op == OP_FLW ? 32u + in->rd : in->rd;
            /* (the slot is at CFA + slot, and CFA = sp + rem here) */
            if (r >= NREGS || !st->saved[r] || reloaded[r] || (int64_t)in->imm != rem + st->slot[r]) break;
            steps[j] = (step){ ROLE_RELOAD, (uint8_t)r, 0 };
            reloaded[r] = 1;
            j--;
        } else {
            break;
        }
        any = 1;
    }
    *e = j + 1;
    if (!any) return 0;
    for (unsigned r = 0; r < NREGS; r++)
        if (st->saved[r] && !reloaded[r]) {
            snprintf(why, whylen, "register %u is not reloaded from its slot just before the exit", r);
            return -1;
        }
    if (st->reg == REG_SP ? st->off != rem : st->reg >= NREGS || !reloaded[st->reg]) {
        snprintf(why, whylen, "the stack-pointer increments (%lld) are not what the CFA rule (r%llu%+lld) says",
                 (long long)rem, (unsigned long long)st->reg, (long long)st->off);
        return -1;
    }
    return 1;
}

typedef struct emitter {
    dw_buf *b;
    uint32_t loc, caf;
    int oom;
} emitter;

/* The row at address a begins (a >= em->loc, a multiple of the factor away). */
static void row_at(emitter *em, uint32_t a)
{
    if (a > em->loc) em->oom |= cfi_put_advance(em->b, (a - em->loc) / em->caf);
    em->loc = a;
}

static void put_op(emitter *em, uint8_t op) { em->oom |= dw_put_u8(em->b, op); }
static void put_uleb(emitter *em, uint64_t v) { em->oom |= dw_put_uleb(em->b, v); }

/* Rows for the epilogue [e, x) of exit x, from body rules st. */
static void emit_epilogue(emitter *em, const insn *v, int e, int x, const step *steps, const rules *st,
                          const rules *cie_rules, uint32_t hi)
{
    uint64_t reg = st->reg;
    int64_t rem = 0;
    for (int j = e; j < x; j++) rem += steps[j].role == ROLE_ADJUST ? steps[j].amount : 0;
    int first = 1;
    for (int j = e; j < x; j++) {
        const step *s = &steps[j];
        if (s->role != ROLE_ADJUST && s->role != ROLE_RELOAD) continue;
        row_at(em, v[j].addr + v[j].in.len);
        if (first) put_op(em, CFA_REMEMBER_STATE);
        first = 0;
        if (s->role == ROLE_ADJUST) {
            rem -= s->amount;
            if (reg == REG_SP) put_op(em, CFA_DEF_CFA_OFFSET), put_uleb(em, (uint64_t)rem);
            continue;
        }
        if (reg == s->reg) { /* the frame pointer's old value is back: the CFA is sp-based from here */
            put_op(em, CFA_DEF_CFA), put_uleb(em, REG_SP), put_uleb(em, (uint64_t)rem);
            reg = REG_SP;
        }
        if (cie_rules->saved[s->reg]) put_op(em, 0x08), put_uleb(em, s->reg); /* same_value */
        else put_op(em, (uint8_t)(CFA_RESTORE | s->reg));
    }
    const uint32_t after = v[x].addr + v[x].in.len;
    if (after < hi) { /* code after the exit is the body's again */
        row_at(em, after);
        put_op(em, CFA_RESTORE_STATE);
    }
}

static int leave(epi_out *out, const insn *at, const char *why)
{
    if (at) snprintf(out->why, sizeof out->why, "0x%08x: %s", at->addr, why);
    else snprintf(out->why, sizeof out->why, "%s", why);
    return 1;
}

/* The function's instructions; 1 (why set) if some bytes are none. */
static int decode(const epi_fn *f, insn *v, int *n, epi_out *out)
{
    *n = 0;
    for (uint32_t off = 0; off < f->hi - f->lo;) {
        uint32_t bits = 0;
        const uint32_t left = f->hi - f->lo - off;
        memcpy(&bits, f->code + off, left >= 4 ? 4 : left);
        insn *x = &v[(*n)++];
        x->addr = f->lo + off;
        ws_decode(bits, &x->in);
        if (x->in.op == OP_ILLEGAL || x->in.len > left || (x->in.len != 2 && x->in.len != 4))
            return leave(out, x, "bytes that are no instruction");
        off += x->in.len;
    }
    return 0;
}

/* A direct branch or jump of the function lands in (from, to]. */
static const insn *jump_into(const insn *v, int n, uint32_t from, uint32_t to)
{
    for (int i = 0; i < n; i++) {
        const ws_op op = (ws_op)v[i].in.op;
        if (op != OP_JAL && !(op >= OP_BEQ && op <= OP_BGEU)) continue;
        const uint32_t t = v[i].addr + (uint32_t)v[i].in.imm;
        if (t > from && t <= to) return &v[i];
    }
    return NULL;
}

int epi_rows(const epi_fn *f, dw_buf *add, epi_out *out)
{
    memset(out, 0, sizeof *out);
    rules cie_rules = { .reg = REG_SP }, body;
    uint32_t loc = f->lo, ignored = 0;
    const uint8_t *used = f->rows;
    const cfi_cie *ci = f->cie;
    if (run_rules(ci, ci->init, ci->init_end, NULL, UINT32_MAX, &cie_rules, &ignored, &(const uint8_t *){ NULL },
                  out->why, sizeof out->why))
        return 1;
    body = cie_rules;
    if (run_rules(ci, f->rows, f->rows_end, &cie_rules, UINT32_MAX, &body, &loc, &used, out->why, sizeof out->why))
        return 1;
    out->keep = (uint32_t)(used - f->rows);
    if (f->hi <= f->lo || is_entry_state(&body)) return 0; /* a leaf: nothing to take down */
    if (ci->caf != 1 && ci->caf != 2) return leave(out, NULL, "a code alignment factor other than 1 or 2");
    insn *v = malloc(sizeof *v * ((f->hi - f->lo) / 2 + 1));
    step *steps = calloc((f->hi - f->lo) / 2 + 1, sizeof *steps);
    int n = 0, rc = 0;
    if (!v || !steps) {
        rc = -1;
        goto done;
    }
    if ((rc = decode(f, v, &n, out))) goto done;
    const size_t start = add->n;
    emitter em = { add, loc, ci->caf, 0 };
    for (int x = 0; x < n && !rc; x++) {
        const int kind = exit_kind(&v[x], f->lo, f->hi);
        if (!kind) continue;
        rules st = cie_rules;
        uint32_t at = f->lo;
        const uint8_t *u = f->rows;
        if (run_rules(ci, f->rows, f->rows_end, &cie_rules, v[x].addr, &st, &at, &u, out->why, sizeof out->why)) {
            rc = 1;
            break;
        }
        if (is_entry_state(&st)) continue; /* an exit before the prologue, or a leaf's */
        int e = x;
        char why[128] = "";
        const int m = match_epilogue(v, x, &st, steps, &e, why, sizeof why);
        const insn *into;
        if (m < 0) rc = leave(out, &v[x], why);
        else if (!m && kind == 1) rc = leave(out, &v[x], "a return without the epilogue this pass knows before it");
        else if (!m) continue; /* a jump inside the function's frame (a jump table's) */
        else if (v[e].addr < em.loc) rc = leave(out, &v[e], "an epilogue before rows the compiler wrote");
        else if ((into = jump_into(v, n, v[e].addr, v[x].addr)))
            rc = leave(out, into, "a jump into an epilogue");
        else if ((v[e].addr - em.loc) % ci->caf || (v[x].addr - v[e].addr) % ci->caf)
            rc = leave(out, &v[e], "an epilogue off the code alignment factor");
        else {
            emit_epilogue(&em, v, e, x, steps, &st, &cie_rules, f->hi);
            out->epilogues++;
        }
        memset(steps, 0, sizeof *steps * ((f->hi - f->lo) / 2 + 1));
    }
    if (em.oom) rc = -1;
    if (rc) { /* nothing of this function's rows is kept */
        add->n = start;
        out->epilogues = 0;
    }
done:
    free(v);
    free(steps);
    return rc;
}
