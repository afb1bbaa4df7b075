/* Where everything goes: the helpers first, then each original instruction
 * with the inserted code before it, in the original order; a branch whose target
 * moved out of reach is widened (RVC to 32-bit) or lengthened (the
 * far-branch hint, then an inverted branch over a jal: isa.h) until the
 * layout is stable. Every other loadable
 * address moves by whole pages. */
#include "instrument/rewrite_int.h"

enum { INLINE_CALL = 4, COUNT_SEQ = 12, COUNT_WIDE_SEQ = 32, SET_TP = 4, HOLD_HINT = 4 };

/* Code inserted at a block's head starts with the hold hint (`slti zero,
 * tp, N`: isa.h; the roundtrip test knows inserted code by gp and tp). A
 * group that the starvation guard let run above the others stops one
 * instruction after its last loop turn, at the head of a block
 * (device.md); the hint makes that one instruction the block's first
 * original one, with all the code inserted before it, as without the
 * inserted code. (Before 2026-11-27 the group stopped after the first
 * inserted instruction, a no-op in the recording pass, and the lanes that
 * joined it there ran the block's first instruction together with it,
 * where the launch ran it in two groups: a ws_active_mask() or ws_ballot()
 * there gave another value.) */
unsigned rw_inserted_parts(const rw_ctx *c, const rw_inst *x)
{
    if (x->in.op == OP_ILLEGAL) return 0;
    if (c->mode == WSI_COUNT)
        return (x->ep ? WSI_INSERT_ENTRY : 0) | (x->leader ? WSI_INSERT_BLOCK : 0);
    unsigned parts = x->ep == 2 ? WSI_INSERT_ENTRY : 0;
    if (c->flags & WSI_CUSTOM)
        return parts | (rw_custom_at_block(c, x) ? WSI_INSERT_BLOCK : 0) | (rw_custom_at_mem(c, x) ? WSI_INSERT_MEMORY : 0) |
               (rw_custom_at_branch(c, x) ? WSI_INSERT_BRANCH : 0);
    return parts | (x->leader && !(c->flags & WSI_NO_BLOCKS) ? WSI_INSERT_BLOCK : 0) | (x->mem ? WSI_INSERT_MEMORY : 0);
}

static uint32_t body(const rw_ctx *c, const rw_inst *x)
{
    const unsigned parts = rw_inserted_parts(c, x);
    if (c->mode == WSI_COUNT)
        return (parts & WSI_INSERT_ENTRY ? SET_TP : 0) +
               (!(parts & WSI_INSERT_BLOCK) ? 0 : c->flags & WSI_WIDE_COUNTS ? COUNT_WIDE_SEQ : COUNT_SEQ) +
               (!(parts & WSI_INSERT_BLOCK) || !(c->flags & WSI_WARPS) ? 0
                : 4 * (c->flags & WSI_WIDE_COUNTS ? RW_COUNT_WARPS_WIDE_LEN : RW_COUNT_WARPS_LEN));
    /* RECORD: one call per part */
    return INLINE_CALL * (uint32_t)__builtin_popcount(parts);
}

unsigned rw_inserted_what(const rw_ctx *c, const rw_inst *x)
{
    const unsigned parts = rw_inserted_parts(c, x);
    return parts | (parts && x->leader ? WSI_INSERT_HOLD_HINT : 0);
}

static uint32_t inserted(const rw_ctx *c, const rw_inst *x)
{
    return body(c, x) + (rw_inserted_what(c, x) & WSI_INSERT_HOLD_HINT ? HOLD_HINT : 0);
}


int rw_custom_at_block(const rw_ctx *c, const rw_inst *x) { return x->leader && (c->custom->where & 1u); }
int rw_custom_at_mem(const rw_ctx *c, const rw_inst *x) { return x->mem && (c->custom->where & (1u << x->mem)); }
int rw_custom_after_mem(const rw_ctx *c, const rw_inst *x)
{
    return x->mem == WSI_LOAD && (c->custom->where & 16u); /* WS_TRACE_AFTER_LOAD */
}
int rw_custom_at_branch(const rw_ctx *c, const rw_inst *x)
{
    return x->in.op >= OP_BEQ && x->in.op <= OP_BGEU && x->block >= 0 && (c->custom->where & 32u); /* WS_TRACE_BEFORE_BRANCH */
}

static int is_cond_branch(const rw_inst *x) { return x->in.op >= OP_BEQ && x->in.op <= OP_BGEU; }

uint32_t rw_inst_size(const rw_inst *x)
{
    if (x->form == 0) return x->in.len;
    return x->form == 1 ? 4 : 12; /* long: far-branch hint, inverted branch, jal (isa.h) */
}

/* Does the offset fit the instruction's current form? */
static int fits(const rw_inst *x, int32_t off)
{
    int32_t lim;
    if (x->in.op == OP_JAL) lim = x->form == 0 && x->in.len == 2 ? 2048 : 1 << 20;
    else if (x->form == 2) lim = 1 << 20, off -= 8; /* the jal sits 8 bytes on */
    else lim = x->form == 0 && x->in.len == 2 ? 256 : 4096;
    return off >= -lim && off < lim;
}

/* The helpers go first, below every original instruction: the device
 * reconverges divergent lanes lowest-PC-first, so lanes inside a helper
 * must run before lanes waiting further on, exactly as they would have
 * at the call site. Helpers placed after the code would let the other
 * lanes run ahead (to a shuffle or a barrier) and change the results. */
static int assign(rw_ctx *c)
{
    uint32_t at = (rw_helpers_place(c, c->text_lo) + 3) & ~3u;
    for (uint32_t i = 0; i < c->ninsts; i++) {
        rw_inst *x = &c->insts[i];
        x->pre = inserted(c, x);
        x->post = (c->flags & WSI_CUSTOM) && rw_custom_after_mem(c, x) ? INLINE_CALL : 0;
        x->start = at;
        x->new_addr = at + x->pre;
        at = x->new_addr + rw_inst_size(x) + x->post;
    }
    c->code_end = at;
    c->new_text_hi = at;
    return 0;
}

int rw_map(const rw_ctx *c, uint32_t addr, uint32_t *out)
{
    if (addr >= c->text_lo && addr < c->text_hi) {
        int32_t i = rw_inst_index(c, addr);
        if (i < 0) return -1;
        *out = c->insts[i].start;
        return 0;
    }
    if (addr == c->text_hi) { *out = c->code_end; return 0; }
    *out = addr > c->text_hi && addr <= c->span_hi ? addr + c->data_delta : addr;
    return 0;
}

int rw_map_byte(const rw_ctx *c, uint32_t addr, uint32_t *out)
{
    if (!rw_map(c, addr, out)) return 0;
    uint32_t lo = 0, hi = c->ninsts; /* the last instruction at or below addr */
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (c->insts[mid].addr <= addr) lo = mid + 1;
        else hi = mid;
    }
    if (!lo) return -1;
    const rw_inst *x = &c->insts[lo - 1];
    if (addr - x->addr >= x->in.len) return -1; /* (undecodable bytes) */
    *out = x->new_addr + (addr - x->addr);
    return 0;
}

uint32_t rw_map_or_same(const rw_ctx *c, uint32_t addr)
{
    uint32_t v;
    return rw_map(c, addr, &v) ? addr : v;
}

int rw_layout(rw_ctx *c)
{
    for (int round = 0;; round++) {
        assign(c);
        int changed = 0;
        for (uint32_t i = 0; i < c->ninsts; i++) {
            rw_inst *x = &c->insts[i];
            if (x->in.op != OP_JAL && !is_cond_branch(x)) continue;
            int32_t t = rw_inst_index(c, x->target);
            int32_t off = (int32_t)(c->insts[t].start - x->new_addr);
            if (fits(x, off)) continue;
            int max_form = x->in.op == OP_JAL ? (x->in.len == 2 ? 1 : 0) : 2;
            if (x->form >= max_form) {
                char at[160];
                rw_where(c, x->addr, at, sizeof at);
                return rw_fail(c, "the jump at %s cannot reach its target after instrumentation "
                               "(more than 1 MiB of code)", at);
            }
            x->form++;
            if (x->form == 1 && x->in.len == 4) x->form = 2; /* a 32-bit branch has no "widened" form */
            changed = 1;
        }
        if (!changed) break;
        if (round > 64) return rw_fail(c, "branch layout did not settle");
    }
    if (c->new_text_hi - c->text_lo > (1u << 20))
        return rw_fail(c, "the instrumented code would exceed 1 MiB, the reach of its helper calls");
    uint32_t old_pages = (c->text_hi + 4095) & ~4095u, new_pages = (c->new_text_hi + 4095) & ~4095u;
    c->data_delta = new_pages - old_pages;
    uint32_t end = ((c->span_hi + c->data_delta) + 4095) & ~4095u;
    c->ctl_addr = end;
    c->ctl_size = WSI_CTL_HEADER + WSI_CTL_COUNTER_SIZE * c->info->nblocks;
    return 0;
}
