/* Scratch registers for the memory helpers (RECORD mode). A caller-saved
 * register that no instruction of a function names is dead everywhere in
 * that function: the function never reads it, its callees may clobber it
 * and its callers may not rely on it (the RISC-V calling convention). A
 * helper called from there can use three such registers without saving
 * and restoring them: 6 of its 17 instructions, and 6 of its 9 memory
 * accesses, go. Functions that name too many registers keep the helper
 * that saves, and so do millicode routines outside the convention: libgcc's
 * __riscv_save_N runs inside its caller's prologue (called through t0,
 * the caller's arguments live in a0-a7) and __riscv_restore_N inside its
 * epilogue (the return value live in a0/a1), so a register they do not
 * name is not dead there (picolibc's printf calls them: a clobbered a0
 * sent its lanes elsewhere in the recording pass). */
#include <stdlib.h>
#include <string.h>
#include "instrument/rewrite_int.h"

/* t0-t2, a0-a7, t3-t6 */
static const uint8_t candidates[] = { 5, 6, 7, 10, 11, 12, 13, 14, 15, 16, 17, 28, 29, 30, 31 };

/* Registers an instruction may name, over-approximated: every register
 * field, whether the op uses it or not. An ecall or undecodable bytes name
 * everything (an ecall reads argument registers implicitly). */
static uint32_t named(const rw_inst *x)
{
    if (x->in.op == OP_ILLEGAL || x->in.op == OP_ECALL) return ~0u;
    return 1u << x->in.rd | 1u << x->in.rs1 | 1u << x->in.rs2 | 1u << x->in.rs3;
}

/* Millicode: by name (libgcc's save/restore routines), or anything that
 * returns through t0 (jr t0: called with jal t0, inside a caller's frame). */
static int outside_convention(const rw_ctx *c, const Elf32_Sym *sym, const rw_inst *x, uint32_t n)
{
    const char *name = sym->st_name < c->strtab_size ? c->strtab + sym->st_name : "";
    if (!strncmp(name, "__riscv_save", 12) || !strncmp(name, "__riscv_restore", 15)) return 1;
    for (uint32_t i = 0; i < n; i++)
        if (x[i].in.op == OP_JALR && x[i].in.rd == 0 && x[i].in.rs1 == 5) return 1;
    return 0;
}

static int32_t find_or_add(rw_ctx *c, uint8_t base, const uint8_t t[3])
{
    for (uint32_t i = 0; i < c->nfast; i++)
        if (c->fast[i].base == base && c->fast[i].t[0] == t[0] && c->fast[i].t[1] == t[1] && c->fast[i].t[2] == t[2])
            return (int32_t)i;
    struct fast_mem_helper *f = &c->fast[c->nfast];
    f->base = base;
    for (int k = 0; k < 3; k++) f->t[k] = t[k];
    f->addr = 0;
    return (int32_t)c->nfast++;
}

int rw_plan_scratch(rw_ctx *c)
{
    c->inst_fast = malloc((c->ninsts + 1) * sizeof *c->inst_fast);
    c->fast = calloc(c->ninsts + 1, sizeof *c->fast);
    uint32_t *used = calloc(c->ninsts + 1, sizeof *used); /* per instruction: what its functions name */
    uint8_t *in_fn = calloc(c->ninsts + 1, 1);
    if (!c->inst_fast || !c->fast || !used || !in_fn) {
        free(used);
        free(in_fn);
        return rw_fail(c, "out of host memory");
    }
    for (uint32_t i = 0; i < c->ninsts; i++) c->inst_fast[i] = -1;
    /* Every function symbol over the instructions it covers; an instruction
     * two symbols cover (aliases, nested ranges) gets what both name. */
    for (uint32_t s = 0; s < c->nsyms; s++) {
        const Elf32_Sym *sym = &c->syms[s];
        if (ELF32_ST_TYPE(sym->st_info) != STT_FUNC || !sym->st_size || sym->st_value < c->text_lo ||
            sym->st_value + sym->st_size > c->text_hi)
            continue;
        uint32_t lo = 0, hi = c->ninsts; /* first instruction at or after the symbol */
        while (lo < hi) {
            uint32_t mid = (lo + hi) / 2;
            if (c->insts[mid].addr < sym->st_value) lo = mid + 1;
            else hi = mid;
        }
        uint32_t end = lo, names = 0;
        while (end < c->ninsts && c->insts[end].addr < sym->st_value + sym->st_size) names |= named(&c->insts[end++]);
        if (outside_convention(c, sym, &c->insts[lo], end - lo)) names = ~0u;
        for (uint32_t i = lo; i < end; i++) {
            used[i] |= names;
            in_fn[i] = 1;
        }
    }
    for (uint32_t i = 0; i < c->ninsts; i++) {
        const rw_inst *x = &c->insts[i];
        if (!x->mem || !in_fn[i]) continue;
        uint8_t t[3];
        unsigned n = 0;
        for (unsigned k = 0; k < sizeof candidates && n < 3; k++)
            if (!(used[i] >> candidates[k] & 1)) t[n++] = candidates[k];
        if (n == 3) c->inst_fast[i] = find_or_add(c, x->in.rs1, t); /* the base is named: never a scratch */
    }
    free(used);
    free(in_fn);
    return 0;
}
