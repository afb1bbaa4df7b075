/* Finding the code's structure: decode the executable segment linearly
 * (RISC-V compilers keep jump tables in .rodata, so the code holds only
 * instructions and zero padding), pair each auipc with its relocation,
 * mark block leaders and memory instructions, and refuse what cannot be
 * rewritten safely. */
#include <stdlib.h>
#include <string.h>
#include "instrument/rewrite_int.h"
#include "warpscope/abi.h"


static int is_fp_reg_op(ws_op op)
{
    return op >= OP_FMADD_S && op <= OP_FMV_W_X;
}

void rw_int_regs(const ws_inst *in, int r[3])
{
    ws_op op = (ws_op)in->op;
    r[0] = in->rd; r[1] = in->rs1; r[2] = in->rs2;
    switch (ws_op_class_of(op)) {
    case CLASS_INT: case CLASS_MUL: case CLASS_DIV: case CLASS_BRANCH: case CLASS_JUMP:
    case CLASS_LOAD: case CLASS_STORE: case CLASS_ATOMIC: case CLASS_SIMT: case CLASS_BARRIER: break;
    case CLASS_CSR: r[2] = -1; if (op >= OP_CSRRWI) r[1] = -1; return;
    default: break;
    }
    if (op == OP_LUI || op == OP_AUIPC || op == OP_JAL) { r[1] = r[2] = -1; return; }
    if (op == OP_FLW) { r[0] = -1; r[2] = -1; return; }
    if (op == OP_FSW) { r[0] = -1; r[2] = -1; return; }
    if (is_fp_reg_op(op)) {
        int rd_int = op == OP_FCVT_W_S || op == OP_FCVT_WU_S || op == OP_FMV_X_W || op == OP_FEQ_S ||
                     op == OP_FLT_S || op == OP_FLE_S || op == OP_FCLASS_S;
        int rs1_int = op == OP_FCVT_S_W || op == OP_FCVT_S_WU || op == OP_FMV_W_X;
        r[0] = rd_int ? in->rd : -1;
        r[1] = rs1_int ? in->rs1 : -1;
        r[2] = -1;
        return;
    }
    if (ws_op_class_of(op) == CLASS_INT && op >= OP_ADDI && op <= OP_SRAI) r[2] = -1;
    if (op >= OP_LB && op <= OP_LHU) r[2] = -1;
    if (op == OP_JALR) r[2] = -1;
    if (op >= OP_SB && op <= OP_SW) r[0] = -1;
    if (op >= OP_BEQ && op <= OP_BGEU) r[0] = -1;
    if (op == OP_FENCE || op == OP_FENCE_I || op == OP_ECALL || op == OP_EBREAK) r[0] = r[1] = r[2] = -1;
}

static int is_terminator(const ws_inst *in)
{
    switch ((ws_op)in->op) {
    case OP_JAL: case OP_JALR: case OP_BEQ: case OP_BNE: case OP_BLT: case OP_BGE: case OP_BLTU: case OP_BGEU:
    case OP_ECALL: case OP_EBREAK: case OP_TMC: case OP_WSPAWN: case OP_SPLIT: case OP_JOIN: case OP_PRED:
    case OP_ILLEGAL:
        return 1;
    default:
        return 0;
    }
}

static uint8_t mem_kind(const ws_inst *in, uint8_t *size)
{
    *size = (uint8_t)ws_op_mem_bytes((ws_op)in->op);
    switch (ws_op_class_of((ws_op)in->op)) {
    case CLASS_LOAD: return WSI_LOAD;
    case CLASS_STORE: return WSI_STORE;
    case CLASS_ATOMIC: return WSI_ATOMIC;
    default: return 0;
    }
}

/* Index of the instruction starting at addr, or -1 (the instructions are
 * sorted by address). */
int32_t rw_inst_index(const rw_ctx *c, uint32_t addr)
{
    uint32_t lo = 0, hi = c->ninsts;
    while (lo < hi) {
        uint32_t mid = (lo + hi) / 2;
        if (c->insts[mid].addr < addr) lo = mid + 1;
        else hi = mid;
    }
    return lo < c->ninsts && c->insts[lo].addr == addr ? (int32_t)lo : -1;
}

static int decode_all(rw_ctx *c)
{
    const Elf32_Phdr *p = &c->ph[c->text_ph];
    const uint8_t *code = c->file + p->p_offset;
    uint32_t n = p->p_filesz;
    c->insts = calloc(n / 2 + 1, sizeof *c->insts);
    if (!c->insts) return rw_fail(c, "out of host memory");
    for (uint32_t off = 0; off < n;) {
        rw_inst *x = &c->insts[c->ninsts++];
        uint32_t bits = 0;
        memcpy(&bits, code + off, n - off >= 4 ? 4 : n - off);
        x->addr = c->text_lo + off;
        ws_decode(bits, &x->in);
        x->pcrel = x->lo_of = -1;
        if (x->in.op == OP_ILLEGAL || (x->in.len == 4 && n - off < 4)) {
            /* padding (c.unimp) or bytes that are not code: copied, never a target */
            x->in.op = OP_ILLEGAL;
            x->in.len = 2;
        }
        off += x->in.len;
    }
    return 0;
}

static int check_registers(rw_ctx *c)
{
    for (uint32_t i = 0; i < c->ninsts; i++) {
        int r[3];
        if (c->insts[i].in.op == OP_ILLEGAL) continue;
        rw_int_regs(&c->insts[i].in, r);
        for (int k = 0; k < 3; k++)
            if (r[k] == 3 || r[k] == 4) {
                char at[160];
                rw_where(c, c->insts[i].addr, at, sizeof at);
                return rw_fail(c, "the instruction at %s uses %s, which the instrumentation needs; "
                               "the module cannot be instrumented", at, r[k] == 3 ? "gp" : "tp");
            }
    }
    return 0;
}

static void mark_entry(rw_ctx *c, uint32_t addr, uint8_t ep)
{
    int32_t i = rw_inst_index(c, addr);
    if (i < 0 || c->insts[i].in.op == OP_ILLEGAL) return;
    c->insts[i].leader = 1;
    if (ep > c->insts[i].ep) c->insts[i].ep = ep;
}

static void mark_leader(rw_ctx *c, uint32_t addr) { mark_entry(c, addr, 0); }

static int in_text(const rw_ctx *c, uint32_t a) { return a >= c->text_lo && a < c->text_hi; }

static int pair_relocations(rw_ctx *c)
{
    for (uint32_t k = 0; k < c->nrels; k++) {
        const rw_rel *r = &c->rels[k];
        if (!(c->secs[r->sec].sh.sh_flags & SHF_ALLOC)) continue;
        int code = (c->secs[r->sec].sh.sh_flags & SHF_EXECINSTR) != 0;
        if (code && (r->type == R_PCREL_HI20 || r->type == R_CALL || r->type == R_CALL_PLT)) {
            int32_t i = rw_inst_index(c, r->place);
            if (i < 0 || c->insts[i].in.op != OP_AUIPC) {
                char at[160];
                rw_where(c, r->place, at, sizeof at);
                return rw_fail(c, "relocation type %u at %s is not on an auipc", r->type, at);
            }
            c->insts[i].pcrel = (int32_t)k;
            c->insts[i].target = r->value;
            if (r->type != R_PCREL_HI20) { /* the jalr that follows holds the low part */
                int32_t j = rw_inst_index(c, r->place + 4);
                if (j < 0 || c->insts[j].in.op != OP_JALR) return rw_fail(c, "call at 0x%08x: no jalr after the auipc", r->place);
                c->insts[j].lo_of = i;
            }
        }
        if (!code && r->type != R_32) continue;
        if (r->type != R_PCREL_LO12_I && r->type != R_PCREL_LO12_S && r->type != R_BRANCH && r->type != R_JAL &&
            r->type != R_RVC_BRANCH && r->type != R_RVC_JUMP &&
            in_text(c, r->value))
            mark_entry(c, r->value, 1); /* a call or a code pointer */
    }
    for (uint32_t k = 0; k < c->nrels; k++) { /* the low parts name their auipc */
        const rw_rel *r = &c->rels[k];
        if (r->type != R_PCREL_LO12_I && r->type != R_PCREL_LO12_S) continue;
        if (!(c->secs[r->sec].sh.sh_flags & SHF_EXECINSTR)) continue;
        int32_t i = rw_inst_index(c, r->place), hi = rw_inst_index(c, r->value);
        if (i < 0 || hi < 0 || c->insts[hi].pcrel < 0)
            return rw_fail(c, "%%pcrel_lo at 0x%08x does not name an auipc with a %%pcrel_hi", r->place);
        c->insts[i].lo_of = hi;
    }
    /* An auipc the assembler resolved itself (a call or an address within
     * the same section, e.g. to a static noinline or recursive function:
     * `warpscope cc` links with -mno-relax, so no relocation is left) is
     * understood when the very next instruction takes its low part: a
     * jalr, addi, load or store based on the auipc's register. */
    for (uint32_t i = 0; i + 1 < c->ninsts; i++) {
        rw_inst *hi = &c->insts[i], *lo = &c->insts[i + 1];
        if (hi->in.op != OP_AUIPC || hi->pcrel >= 0 || lo->lo_of >= 0 || lo->addr != hi->addr + 4 ||
            lo->in.len != 4 || hi->in.rd == 0 || lo->in.rs1 != hi->in.rd || lo->leader)
            continue;
        ws_op_class k = ws_op_class_of((ws_op)lo->in.op);
        if (lo->in.op != OP_JALR && lo->in.op != OP_ADDI && k != CLASS_LOAD && k != CLASS_STORE) continue;
        hi->pcrel = INT32_MAX; /* no relocation: the pair itself says where */
        hi->target = hi->addr + (uint32_t)hi->in.imm + (uint32_t)lo->in.imm;
        lo->lo_of = (int32_t)i;
        if ((lo->in.op == OP_JALR || lo->in.op == OP_ADDI) && in_text(c, hi->target)) mark_entry(c, hi->target, 1);
    }
    for (uint32_t i = 0; i < c->ninsts; i++)
        if (c->insts[i].in.op == OP_AUIPC && c->insts[i].pcrel < 0) {
            char at[160];
            rw_where(c, c->insts[i].addr, at, sizeof at);
            return rw_fail(c, "auipc at %s has no relocation: what it addresses is unknown, so it cannot be moved", at);
        }
    return 0;
}

static int find_blocks(rw_ctx *c)
{
    mark_entry(c, c->text_lo, 1);
    for (uint32_t i = 0; i < c->nsyms; i++) {
        const Elf32_Sym *s = &c->syms[i];
        int t = ELF32_ST_TYPE(s->st_info);
        /* functions, and global labels of assembly code; local labels (clang's
         * .Ltmp for DWARF) are not entries */
        if ((t == STT_FUNC || (t == STT_NOTYPE && ELF32_ST_BIND(s->st_info) != STB_LOCAL)) && s->st_shndx != SHN_UNDEF && s->st_shndx < c->nsecs &&
            in_text(c, s->st_value)) {
            /* launch entries: kernels, and shaders (the device launches
             * them as grids too; until 2026-11-27 their lanes never had
             * their thread id computed, and every record of a draw named
             * thread 0) */
            const char *sec = c->secs[s->st_shndx].name;
            int kernel = t == STT_FUNC && ELF32_ST_BIND(s->st_info) != STB_LOCAL &&
                         (!strcmp(sec, WS_KERNEL_SECTION) || !strcmp(sec, WS_VERTEX_SECTION) ||
                          !strcmp(sec, WS_FRAGMENT_SECTION));
            mark_entry(c, s->st_value, kernel ? 2 : 1);
        }
    }
    for (uint32_t i = 0; i < c->ninsts; i++) {
        rw_inst *x = &c->insts[i];
        ws_op op = (ws_op)x->in.op;
        if ((op >= OP_BEQ && op <= OP_BGEU) || op == OP_JAL) {
            x->target = x->addr + (uint32_t)x->in.imm;
            if (!in_text(c, x->target) || rw_inst_index(c, x->target) < 0) {
                char at[160];
                rw_where(c, x->addr, at, sizeof at);
                return rw_fail(c, "the branch at %s goes to 0x%08x, which is not an instruction of the module", at,
                               x->target);
            }
            mark_leader(c, x->target);
        }
        if ((x->terminator = (uint8_t)is_terminator(&x->in)) && i + 1 < c->ninsts) mark_leader(c, c->insts[i + 1].addr);
    }
    /* number the blocks and count what they hold */
    wsi_module_info *info = c->info;
    info->blocks = calloc(c->ninsts + 1, sizeof *info->blocks);
    info->mems = calloc(c->ninsts + 1, sizeof *info->mems);
    if (!info->blocks || !info->mems) return rw_fail(c, "out of host memory");
    int32_t cur = -1;
    for (uint32_t i = 0; i < c->ninsts; i++) {
        rw_inst *x = &c->insts[i];
        if (x->in.op == OP_ILLEGAL) { x->block = -1; cur = -1; continue; }
        if (x->leader || cur < 0) {
            x->leader = 1;
            cur = (int32_t)info->nblocks++;
            info->blocks[cur] = (wsi_block){ .addr = x->addr, .first_mem = info->nmems, .taken = -1, .fall = -1 };
        }
        x->block = cur;
        wsi_block *b = &info->blocks[cur];
        b->ninst++;
        b->end = x->addr + x->in.len;
        b->last = x->addr;
        uint8_t size = 0;
        if ((x->mem = mem_kind(&x->in, &size)) != 0) {
            info->mems[info->nmems++] = (wsi_mem_inst){ .addr = x->addr, .block = (uint32_t)cur, .kind = x->mem,
                                                        .size = size, .base = x->in.rs1,
                                                        .imm = ws_op_class_of((ws_op)x->in.op) == CLASS_ATOMIC ? 0 : x->in.imm };
            b->nmem++;
        }
        if (x->terminator) cur = -1;
    }
    info->ninsts = c->ninsts;
    for (uint32_t i = 0; i < c->ninsts; i++) { /* where conditional branches go */
        const rw_inst *x = &c->insts[i];
        if (x->block < 0 || x->in.op < OP_BEQ || x->in.op > OP_BGEU) continue;
        int32_t t = rw_inst_index(c, x->target);
        info->blocks[x->block].taken = t >= 0 && c->insts[t].leader ? c->insts[t].block : -1;
        info->blocks[x->block].fall = i + 1 < c->ninsts && c->insts[i + 1].leader ? c->insts[i + 1].block : -1;
    }
    return 0;
}

int rw_scan(rw_ctx *c)
{
    return decode_all(c) || check_registers(c) || pair_relocations(c) || find_blocks(c) ? -1 : 0;
}
