/* The epilogue rows `warpscope cc` adds to a module's CFI
 * (src/instrument/epilogue_cfi.c), read back through libdw as gdb and
 * the fault reports read them.
 *   test_epilogue_cfi MODULE.elf...   epilogue_kernel.c built at some -O
 * For every exit (`ret`, a tail call's `jr`) of the kernel's functions:
 * there the CFA is sp and no register is saved any more; at each
 * instruction of its epilogue the CFA is sp plus the increments still to
 * come (or s0 while s0 is not reloaded yet) and exactly the registers
 * not yet reloaded are at their slots; after an exit that is not the
 * function's end the rules are the body's again. The pass run again
 * changes nothing. Then the row encoding and the fail-safe rules on
 * hand-made functions (epi_rows). */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>
#include "instrument/epilogue_cfi.h"
#include "instrument/epilogue_rows.h"
#include "isa/isa.h"
#include "../test.h"

enum { SP = 2, RA = 1, S0 = 8 };

typedef struct rule {
    int ok;
    unsigned reg;   /* CFA = reg + off */
    long long off;
} rule;

static rule cfa_at(Dwarf_CFI *cfi, Dwarf_Addr a)
{
    rule r = { 0, 0, 0 };
    Dwarf_Frame *f;
    Dwarf_Op *ops;
    size_t n;
    if (dwarf_cfi_addrframe(cfi, a, &f)) return r;
    if (!dwarf_frame_cfa(f, &ops, &n) && n == 1) {
        if (ops[0].atom == DW_OP_bregx) r = (rule){ 1, (unsigned)ops[0].number, (long long)ops[0].number2 };
        else if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31)
            r = (rule){ 1, ops[0].atom - DW_OP_breg0, (long long)(Dwarf_Sword)ops[0].number };
    }
    free(f);
    return r;
}

/* 1 if register reg is saved (in memory) at a, 0 if not, -1 unknown. */
static int saved_at(Dwarf_CFI *cfi, Dwarf_Addr a, int reg)
{
    Dwarf_Frame *f;
    Dwarf_Op mem[3], *ops;
    size_t n;
    if (dwarf_cfi_addrframe(cfi, a, &f)) return -1;
    int rc = dwarf_frame_register(f, reg, mem, &ops, &n) ? -1 : n > 0;
    free(f);
    return rc;
}

typedef struct insn { uint32_t addr; ws_inst in; } insn;

static int is_reload(const ws_inst *in) { return (in->op == OP_LW || in->op == OP_FLW) && in->rs1 == SP; }
static int reg_of(const ws_inst *in) { return in->op == OP_FLW ? 32 + in->rd : in->rd; }
static int is_callee_saved(int r) { return r == S0 || r == 9 || (r >= 18 && r <= 27) || r == 40 || r == 41 || (r >= 50 && r <= 59); }

/* The checks at one exit x of a function v[0..n) ending at hi. */
static void check_exit(Dwarf_CFI *cfi, const char *fn, const insn *v, int n, int x, uint32_t hi, uint32_t body)
{
    char where[128];
    snprintf(where, sizeof where, "%s exit 0x%x", fn, v[x].addr);
    rule r = cfa_at(cfi, v[x].addr);
    if (!(r.ok && r.reg == SP && r.off == 0)) fprintf(stderr, "%s: CFA r%u%+lld\n", where, r.reg, r.off);
    CHECK(r.ok && r.reg == SP && r.off == 0);
    for (int reg = 1; reg < 64; reg++)
        if (reg == RA || is_callee_saved(reg)) {
            if (saved_at(cfi, v[x].addr, reg) != 0) fprintf(stderr, "%s: r%d still saved\n", where, reg);
            CHECK(saved_at(cfi, v[x].addr, reg) == 0);
        }
    /* back through the epilogue: rem = what sp still grows by */
    long long rem = 0;
    int j = x - 1;
    if (v[x].in.rs1 != RA && j >= 0 && v[j].in.op == OP_AUIPC) j--;
    for (; j >= 0; j--) {
        const ws_inst *in = &v[j].in;
        if (in->op == OP_ADDI && in->rd == SP && in->rs1 == SP && in->imm > 0) rem += in->imm;
        else if (in->op == OP_ADD && in->rd == SP && in->rs1 == SP) { /* lui t; addi t, t, k; add sp, sp, t */
            long long k = 0;
            if (j >= 1 && v[j - 1].in.op == OP_ADDI && v[j - 1].in.rd == in->rs2) k = v[--j].in.imm;
            if (j >= 1 && v[j - 1].in.op == OP_LUI) rem += (long long)v[--j].in.imm + k;
        } else if (!is_reload(in) || !(reg_of(in) == RA || is_callee_saved(reg_of(in)))) break;
        /* the rules before instruction j (at its address) */
        const rule c = cfa_at(cfi, v[j].addr);
        int s0_later = 0; /* s0 not reloaded before v[j] */
        for (int k = j; k < x; k++) s0_later |= is_reload(&v[k].in) && reg_of(&v[k].in) == S0;
        const int good = c.ok && ((c.reg == SP && c.off == rem) || (c.reg == S0 && s0_later));
        if (!good) fprintf(stderr, "%s: at 0x%x CFA r%u%+lld, expected sp%+lld\n", where, v[j].addr, c.reg, c.off, rem);
        CHECK(good);
        for (int k = j; k < x; k++) /* reloaded at or after v[j]: still in its slot */
            if (is_reload(&v[k].in) && (reg_of(&v[k].in) == RA || is_callee_saved(reg_of(&v[k].in))))
                CHECK(saved_at(cfi, v[j].addr, reg_of(&v[k].in)) == 1);
    }
    const uint32_t after = v[x].addr + v[x].in.len;
    if (after < hi) { /* the body's rules again */
        const rule a = cfa_at(cfi, after), b = cfa_at(cfi, body);
        if (!(a.ok && b.ok && a.reg == b.reg && a.off == b.off))
            fprintf(stderr, "%s: after it CFA r%u%+lld, body r%u%+lld\n", where, a.reg, a.off, b.reg, b.off);
        CHECK(a.ok && b.ok && a.reg == b.reg && a.off == b.off);
        CHECK(saved_at(cfi, after, RA) == 1);
    }
    (void)n;
}

/* Every exit of function [lo, hi); the number checked. */
static int check_function(Dwarf_CFI *cfi, const char *fn, const uint8_t *code, uint32_t lo, uint32_t hi)
{
    insn v[1024];
    int n = 0, exits = 0;
    uint32_t body = 0;
    for (uint32_t off = 0; off < hi - lo && n < 1024; n++) {
        uint32_t bits = 0;
        memcpy(&bits, code + off, hi - lo - off >= 4 ? 4 : hi - lo - off);
        v[n].addr = lo + off;
        ws_decode(bits, &v[n].in);
        if (!v[n].in.len) return -1;
        if (!body && (v[n].in.op == OP_JALR || v[n].in.op == OP_JAL) && v[n].in.rd == RA) body = v[n].addr;
        off += v[n].in.len;
    }
    CHECK(body != 0); /* every function checked calls */
    for (int x = 0; x < n; x++)
        if (v[x].in.op == OP_JALR && v[x].in.rd == 0) {
            check_exit(cfi, fn, v, n, x, hi, body);
            exits++;
        }
    return exits;
}

static void check_module(const char *path)
{
    size_t len;
    unsigned char *file = ws_test_read_file(path, &len);
    CHECK(file != NULL);
    if (!file) return;
    /* the pass again: nothing left to add */
    uint8_t *out;
    size_t out_len;
    wsi_cfi_report rep;
    char err[512];
    CHECK(wsi_epilogue_cfi(file, len, path, &out, &out_len, &rep, err, sizeof err) == 0);
    CHECK(rep.epilogues == 0 && out_len == len && !memcmp(out, file, len));
    free(out);

    elf_version(EV_CURRENT);
    Elf *elf = elf_memory((char *)file, len);
    Dwarf *dw = elf ? dwarf_begin_elf(elf, DWARF_C_READ, NULL) : NULL;
    Dwarf_CFI *cfi = dw ? dwarf_getcfi(dw) : NULL;
    CHECK(cfi != NULL);
    static const char *const fns[] = { "ep_two_exits", "ep_floats", "ep_big", "ep_vla", "ep_kernel", NULL };
    int exits[5] = { 0 };
    Elf_Scn *scn = NULL;
    while (cfi && (scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB) continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        for (size_t i = 0; d && i < sh.sh_size / sh.sh_entsize; i++) {
            GElf_Sym s;
            if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC) continue;
            const char *name = elf_strptr(elf, sh.sh_link, s.st_name);
            for (int k = 0; name && fns[k]; k++) {
                if (strcmp(name, fns[k])) continue;
                Elf_Scn *tscn = elf_getscn(elf, s.st_shndx);
                GElf_Shdr tsh;
                if (!tscn || !gelf_getshdr(tscn, &tsh)) continue;
                const uint8_t *code = file + tsh.sh_offset + (s.st_value - tsh.sh_addr);
                exits[k] = check_function(cfi, fns[k], code, (uint32_t)s.st_value, (uint32_t)(s.st_value + s.st_size));
            }
        }
    }
    for (int k = 0; fns[k]; k++) {
        if (exits[k] < 1) fprintf(stderr, "%s: %s: no exit checked\n", path, fns[k]);
        CHECK(exits[k] >= 1);
    }
    printf("%s: exits checked: two_exits %d, floats %d, big %d, vla %d, kernel %d\n", path, exits[0], exits[1],
           exits[2], exits[3], exits[4]);
    if (dw) dwarf_end(dw);
    if (elf) elf_end(elf);
    free(file);
}

/* A hand-made function: addi sp,-16; sw ra,12; sw s0,8; addi a0,1;
 * jal ra,.; lw ra,12; lw s0,SLOT; addi sp,16; ret; [addi a0,1]. */
static int handmade(int slot, int tail_code, dw_buf *add, epi_out *out)
{
    const uint32_t code[] = { 0xff010113, 0x00112623, 0x00812423, 0x00150513, 0x000000ef, 0x00c12083,
                              0x00012403u | (uint32_t)slot << 20, 0x01010113, 0x00008067, 0x00150513 };
    static const uint8_t init[] = { 0x0c, 0x02, 0x00 };                   /* def_cfa sp, 0 */
    static const uint8_t rows[] = { 0x44, 0x0e, 0x10, 0x48, 0x81, 0x01, 0x88, 0x02, 0x00, 0x00 };
    const cfi_cie ci = { .caf = 1, .daf = -4, .ra = 1, .init = init, .init_end = init + sizeof init };
    const epi_fn f = { &ci, rows, rows + sizeof rows, 0x1000, 0x1000 + (tail_code ? 40u : 36u), (const uint8_t *)code };
    return epi_rows(&f, add, out);
}

static void check_handmade(void)
{
    dw_buf add = { 0 };
    epi_out o;
    CHECK(handmade(8, 0, &add, &o) == 0);
    static const uint8_t want[] = { 0x4c, 0x0a, 0xc1, 0x44, 0xc8, 0x44, 0x0e, 0x00 };
    CHECK(o.epilogues == 1 && o.keep == 8 && add.n == sizeof want && !memcmp(add.p, want, sizeof want));
    add.n = 0;
    CHECK(handmade(8, 1, &add, &o) == 0); /* code after the ret: the body's rules again */
    static const uint8_t want2[] = { 0x4c, 0x0a, 0xc1, 0x44, 0xc8, 0x44, 0x0e, 0x00, 0x44, 0x0b };
    CHECK(add.n == sizeof want2 && !memcmp(add.p, want2, sizeof want2));
    add.n = 0;
    CHECK(handmade(4, 0, &add, &o) == 1); /* s0 from another slot: left as it was */
    CHECK(add.n == 0 && o.epilogues == 0);
    CHECK_STR_CONTAINS(o.why, "is not reloaded from its slot");
    free(add.p);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) check_module(argv[i]);
    check_handmade();
    return TEST_SUMMARY();
}
