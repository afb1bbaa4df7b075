/* The rewriter's steps, in order (rewrite.h). */
#include <stdlib.h>
#include <string.h>
#include "instrument/rewrite_int.h"

static void ctx_free(rw_ctx *c)
{
    for (uint32_t i = 0; i < c->nsecs; i++) free(c->secs[i].bytes);
    free(c->secs);
    free(c->ph);
    free(c->rels);
    free(c->insts);
    free(c->bb_stub);
    free(c->mem_stub);
    free(c->mem_index);
    free(c->after_stub);
    free(c->branch_stub);
    free(c->value_helpers);
    free(c->fast);
    free(c->inst_fast);
}

/* WSI_VALUES: the (base, value) register pairs the module's stores use. */
static int value_pairs(rw_ctx *c)
{
    c->value_helpers = calloc(c->ninsts + 1, sizeof *c->value_helpers);
    if (!c->value_helpers) return rw_fail(c, "out of host memory");
    for (uint32_t i = 0; i < c->ninsts; i++) {
        const rw_inst *x = &c->insts[i];
        if (x->mem != WSI_STORE && x->mem != WSI_ATOMIC) continue;
        uint8_t fp = x->in.op == OP_FSW;
        uint32_t k = 0;
        while (k < c->nvalue_helpers && !(c->value_helpers[k].base == x->in.rs1 &&
                                          c->value_helpers[k].value == x->in.rs2 && c->value_helpers[k].fp == fp))
            k++;
        if (k == c->nvalue_helpers)
            c->value_helpers[c->nvalue_helpers++] = (struct value_helper){ x->in.rs1, x->in.rs2, fp, 0 };
    }
    return 0;
}

/* WSI_CUSTOM: the stub tables and each block's number of tool calls. */
static int custom_tables(rw_ctx *c)
{
    wsi_module_info *info = c->info;
    c->bb_stub = calloc(info->nblocks + 1, sizeof *c->bb_stub);
    c->mem_stub = calloc(info->nmems + 1, sizeof *c->mem_stub);
    c->mem_index = calloc(c->ninsts + 1, sizeof *c->mem_index);
    c->after_stub = calloc(info->nmems + 1, sizeof *c->after_stub);
    c->branch_stub = calloc(info->nblocks + 1, sizeof *c->branch_stub);
    if (!c->bb_stub || !c->mem_stub || !c->mem_index || !c->after_stub || !c->branch_stub)
        return rw_fail(c, "out of host memory");
    for (uint32_t i = 0, m = 0; i < c->ninsts; i++) {
        const rw_inst *x = &c->insts[i];
        c->mem_index[i] = m;
        if (x->block >= 0)
            info->blocks[x->block].ncustom += (uint32_t)rw_custom_at_block(c, x) + (uint32_t)rw_custom_at_mem(c, x) +
                                              (uint32_t)rw_custom_after_mem(c, x) + (uint32_t)rw_custom_at_branch(c, x);
        m += x->mem != 0;
    }
    return 0;
}

void wsi_info_free(wsi_module_info *info)
{
    if (!info) return;
    free(info->blocks);
    free(info->mems);
    free(info->bb_site);
    free(info->mem_site);
    free(info->orig_ranges);
    free(info->inserted);
    memset(info, 0, sizeof *info);
}

/* The original instructions' places in the new code (wsi_module_info). */
static int orig_ranges(rw_ctx *c, wsi_module_info *info)
{
    uint32_t *r = malloc(2 * sizeof *r * (c->ninsts ? c->ninsts : 1)), n = 0;
    if (!r) return rw_fail(c, "out of host memory");
    for (uint32_t i = 0; i < c->ninsts; i++) {
        const rw_inst *x = &c->insts[i];
        const uint32_t lo = x->new_addr, hi = x->new_addr + rw_inst_size(x);
        if (hi == lo) continue;
        if (n && r[2 * n - 1] == lo) r[2 * n - 1] = hi;
        else r[2 * n] = lo, r[2 * n + 1] = hi, n++;
    }
    info->orig_ranges = r;
    info->norig = n;
    return 0;
}

static void add_stretch(wsi_module_info *info, uint32_t lo, uint32_t hi, const rw_inst *x, unsigned what)
{
    if (hi > lo) info->inserted[info->ninserted++] = (wsi_inserted){ lo, hi, x ? x->addr : 0, x ? x->new_addr : 0, what };
}

/* The inserted code and the branches that changed form (wsi_module_info):
 * at most the helpers and three stretches per instruction. */
static int inserted_list(rw_ctx *c, wsi_module_info *info)
{
    if (!(info->inserted = malloc(sizeof *info->inserted * (3 * (size_t)c->ninsts + 1)))) return rw_fail(c, "out of host memory");
    add_stretch(info, c->text_lo, c->ninsts ? c->insts[0].start : c->new_text_hi, NULL, WSI_INSERT_HELPERS);
    for (uint32_t i = 0; i < c->ninsts; i++) {
        const rw_inst *x = &c->insts[i];
        const uint32_t end = x->new_addr + rw_inst_size(x);
        add_stretch(info, x->start, x->new_addr, x, rw_inserted_what(c, x));
        if (x->form) add_stretch(info, x->new_addr, end, x, x->form == 1 ? WSI_REWRITTEN_WIDE : WSI_REWRITTEN_FAR);
        add_stretch(info, end, end + x->post, x, WSI_INSERT_AFTER);
    }
    return 0;
}

static int rewrite(const void *elf, size_t size, const char *what, wsi_mode mode, unsigned flags,
                   const wsi_custom *custom, uint8_t **out, size_t *out_size, wsi_module_info *info, char *err,
                   size_t errlen)
{
    if (!elf || !out || !out_size || !info || !err || !errlen) return -1;
    err[0] = 0;
    *out = NULL;
    *out_size = 0;
    memset(info, 0, sizeof *info);
    rw_ctx c = { .what = what ? what : "<module>", .err = err, .errlen = errlen, .mode = mode, .flags = flags,
                 .custom = custom, .file = elf, .file_size = size, .info = info };
    uint8_t *text = NULL;
    uint32_t text_size = 0;
    int rc = -1;
    if (rw_read_elf(&c) || rw_scan(&c) || (custom && custom_tables(&c)) ||
        ((flags & WSI_VALUES) && mode == WSI_RECORD && value_pairs(&c)) ||
        (mode == WSI_RECORD && !custom && rw_plan_scratch(&c)) || rw_layout(&c) || rw_emit_text(&c, &text, &text_size) ||
        rw_patch_code_refs(&c, text) || rw_patch_data(&c) || rw_patch_dwarf(&c) || rw_move_cfi(&c) || rw_move_symbols(&c) ||
        rw_rewrite_rela(&c) || rw_write_elf(&c, text, text_size, out, out_size))
        goto done;
    info->link_base = c.text_lo;
    info->ctl_addr = c.ctl_addr;
    info->ctl_size = c.ctl_size;
    info->old_text_end = c.text_hi;
    info->new_text_end = c.new_text_hi;
    info->data_delta = c.data_delta;
    if (orig_ranges(&c, info) || inserted_list(&c, info)) goto done;
    rc = 0;
done:
    if (rc) { /* (the output is written before the last steps) */
        free(*out);
        *out = NULL;
        *out_size = 0;
    }
    free(text);
    ctx_free(&c);
    if (rc) wsi_info_free(info);
    return rc;
}

int wsi_rewrite(const void *elf, size_t size, const char *what, wsi_mode mode, unsigned flags, uint8_t **out,
                size_t *out_size, wsi_module_info *info, char *err, size_t errlen)
{
    return rewrite(elf, size, what, mode, flags & ~(unsigned)WSI_CUSTOM, NULL, out, out_size, info, err, errlen);
}

int wsi_rewrite_custom(const void *elf, size_t size, const char *what, unsigned flags, const wsi_custom *custom,
                       uint8_t **out, size_t *out_size, wsi_module_info *info, char *err, size_t errlen)
{
    if (!custom) return -1;
    return rewrite(elf, size, what, WSI_RECORD, flags | WSI_CUSTOM, custom, out, out_size, info, err, errlen);
}
