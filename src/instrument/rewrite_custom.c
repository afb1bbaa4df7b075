/* A custom tool's device function, taken from the module `warpscope cc`
 * built for it and copied into every instrumented module: it must be
 * self-contained — every branch and jump inside it, no calls, no address of
 * data (no auipc, no relocation in it), no gp or tp — so that its bytes run
 * anywhere. What it may do: compute, read the identity CSRs, write its
 * record through the pointer it is given, and use its stack. */
#include <stdlib.h>
#include <string.h>
#include "instrument/rewrite_int.h"

static int check_function(rw_ctx *c, const Elf32_Sym *s, const char *name, wsi_custom *out)
{
    const Elf32_Phdr *p = &c->ph[c->text_ph];
    if (s->st_value < c->text_lo || s->st_size < 2 || s->st_value + s->st_size > c->text_hi)
        return rw_fail(c, "'%s' is not a function in the code segment", name);
    const uint8_t *code = c->file + p->p_offset + (s->st_value - c->text_lo);
    uint32_t lo = s->st_value, hi = s->st_value + s->st_size;
    for (uint32_t k = 0; k < c->nrels; k++)
        if ((c->secs[c->rels[k].sec].sh.sh_flags & SHF_EXECINSTR) && c->rels[k].place >= lo && c->rels[k].place < hi &&
            c->rels[k].type != R_BRANCH && c->rels[k].type != R_JAL && c->rels[k].type != R_RVC_BRANCH &&
            c->rels[k].type != R_RVC_JUMP && c->rels[k].type != R_RELAX)
            return rw_fail(c, "'%s' refers to an address at 0x%08x (relocation type %u): a tool's device function "
                           "must not use global data or call other functions", name, c->rels[k].place, c->rels[k].type);
    out->uses_fp = 0;
    out->loop_at = out->branch_at = 0;
    for (uint32_t off = 0; off < s->st_size;) {
        uint32_t bits = 0, at = lo + off;
        memcpy(&bits, code + off, s->st_size - off >= 4 ? 4 : s->st_size - off);
        ws_inst in;
        ws_decode(bits, &in);
        if (in.op == OP_ILLEGAL || off + in.len > s->st_size)
            return rw_fail(c, "'%s' holds something that is not an instruction at 0x%08x", name, at);
        ws_op op = (ws_op)in.op;
        if (op == OP_AUIPC || (op == OP_JAL && in.rd != 0) || (op == OP_JALR && !(in.rd == 0 && in.rs1 == 1 && in.imm == 0)))
            return rw_fail(c, "'%s' calls or addresses something outside itself at 0x%08x: a tool's device function "
                           "must be self-contained (mark helpers static inline)", name, at);
        if ((op >= OP_BEQ && op <= OP_BGEU) || op == OP_JAL) {
            uint32_t t = at + (uint32_t)in.imm;
            if (t < lo || t >= hi) return rw_fail(c, "'%s' jumps out of itself at 0x%08x", name, at);
            /* allowed, but the device may then group lanes otherwise than
             * in the launch (the tracer notes it on each launch) */
            if (t <= at && !out->loop_at) out->loop_at = at;
            else if (t > at && op != OP_JAL && !out->branch_at) out->branch_at = at;
        }
        int r[3];
        rw_int_regs(&in, r); /* (rs2 too: `mv a4, gp` is `add a4, zero, gp`) */
        for (int k = 0; k < 3; k++)
            if (r[k] == 3 || r[k] == 4)
                return rw_fail(c, "'%s' uses %s at 0x%08x, which the instrumentation owns", name, r[k] == 3 ? "gp" : "tp",
                               at);
        if (op == OP_FLW || op == OP_FSW || ws_op_class_of(op) == CLASS_FLOAT || ws_op_class_of(op) == CLASS_FDIV)
            out->uses_fp = 1;
        off += in.len;
    }
    out->code = code;
    out->size = s->st_size;
    out->link_addr = s->st_value;
    return 0;
}

int wsi_custom_function(const void *elf, size_t size, const char *what, const char *name, wsi_custom *out,
                        char *err, size_t errlen)
{
    if (!elf || !name || !out || !err || !errlen) return -1;
    rw_ctx c = { .what = what ? what : "<module>", .err = err, .errlen = errlen, .file = elf, .file_size = size };
    int rc = rw_read_elf(&c);
    const Elf32_Sym *found = NULL;
    for (uint32_t i = 1; !rc && i < c.nsyms; i++) {
        const Elf32_Sym *s = &c.syms[i];
        if (ELF32_ST_TYPE(s->st_info) == STT_FUNC && s->st_name < c.strtab_size && !strcmp(c.strtab + s->st_name, name))
            found = s;
    }
    if (!rc && !found) rc = rw_fail(&c, "no function '%s'", name);
    if (!rc) rc = check_function(&c, found, name, out);
    /* the code pointer must outlive this call: it points into elf, not into c */
    for (uint32_t i = 0; i < c.nsecs; i++) free(c.secs[i].bytes);
    free(c.secs);
    free(c.ph);
    free(c.rels);
    return rc;
}
