/* The loader's issue order (src/runtime/issue_order.c) on functions laid
 * out by hand (order_kernels.c): keys move only where address order is
 * not a topological order of the blocks (a switch's jump table followed
 * too, an irreducible loop ordered but not kept together), and not where
 * the control flow is not followed (an indirect jump to an address no
 * table holds).
 * usage: test_issue_order order_kernels.elf */
#include <gelf.h>
#include <stdlib.h>
#include "runtime/code_pointers.h"
#include "runtime/func_symbols.h"
#include "runtime/issue_order.h"
#include "../test.h"

static uint8_t *text;
static uint32_t lo, size, *keys, *loop_ends;
static ws_func_syms syms;

static const ws_func_sym *func(const char *name)
{
    for (size_t i = 0; i < syms.n; i++)
        if (!strcmp(syms.v[i].name, name)) return &syms.v[i];
    return NULL;
}

/* Whether every key of the function is its address. */
static int in_address_order(const char *name)
{
    const ws_func_sym *f = func(name);
    CHECK(f != NULL);
    if (!f || !keys) return 1;
    for (uint32_t a = f->lo; a < f->lo + f->size; a += 2)
        if (keys[(a - lo) / 2] != a) return 0;
    return 1;
}

static uint32_t key_at(const char *name, uint32_t off)
{
    const ws_func_sym *f = func(name);
    return f && keys ? keys[(f->lo + off - lo) / 2] : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s order_kernels.elf\n", argv[0]); return 2; }
    FILE *fp = fopen(argv[1], "rb");
    CHECK(fp != NULL);
    if (!fp) return TEST_SUMMARY();
    static char image[1 << 20];
    size_t n = fread(image, 1, sizeof image, fp);
    fclose(fp);
    elf_version(EV_CURRENT);
    Elf *e = elf_memory(image, n);
    CHECK(e != NULL);
    /* the executable sections' span, at link addresses */
    static uint8_t span[1 << 20];
    Elf_Scn *scn = NULL;
    uint32_t hi = 0;
    while (e && (scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        Elf_Data *d;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS || !(sh.sh_flags & SHF_EXECINSTR) ||
            !(d = elf_getdata(scn, NULL)))
            continue;
        if (!text) text = span, lo = (uint32_t)sh.sh_addr;
        memcpy(span + (sh.sh_addr - lo), d->d_buf, d->d_size);
        if (sh.sh_addr + sh.sh_size > hi) hi = (uint32_t)(sh.sh_addr + sh.sh_size);
    }
    size = hi - lo;
    ws_func_syms_build(&syms, e);
    uint32_t *pairs = malloc(2 * syms.n * sizeof *pairs);
    const size_t np = pairs ? ws_func_syms_ranges(&syms, 0, pairs) : 0;
    ws_code_pointer *targets = NULL;
    size_t ntargets = 0;
    CHECK(e && ws_code_pointers(e, 0, lo, hi, &targets, &ntargets) == 0);
    CHECK(ws_issue_order(text, lo, size, pairs, np, targets, ntargets, &keys, &loop_ends) == 0);
    CHECK(keys != NULL); /* `rotated` moves */
    CHECK(in_address_order("in_order"));
    CHECK(in_address_order("indirect"));
    CHECK(!in_address_order("irreducible"));
    static const uint32_t ir_off[] = { 0, 4, 12, 16, 8, 20 }; /* entry, jump, block 2, latch, block 1, exit */
    for (size_t i = 1; i < sizeof ir_off / sizeof *ir_off; i++) {
        const uint32_t a = key_at("irreducible", ir_off[i - 1]), b = key_at("irreducible", ir_off[i]);
        if (!(a < b)) printf("irreducible: key at +%u %#x, not below the key at +%u %#x\n", ir_off[i - 1], a, ir_off[i], b);
        CHECK(a < b);
    }
    const ws_func_sym *irr = func("irreducible"); /* no loop end: nothing held */
    for (uint32_t a = irr ? irr->lo : 0; loop_ends && irr && a < irr->lo + irr->size; a += 2)
        CHECK_EQ_U(loop_ends[(a - lo) / 2], 0);
    CHECK(!in_address_order("rotated"));
    /* rotated (4-byte instructions): entry at 0, latch at 8, header at
     * 16, body at 28, exit at 36 */
    const uint32_t entry = key_at("rotated", 0), latch = key_at("rotated", 8), header = key_at("rotated", 16),
                   body = key_at("rotated", 28), exit_ = key_at("rotated", 36);
    printf("rotated keys: entry %#x header %#x body %#x latch %#x exit %#x\n", entry, header, body, latch, exit_);
    CHECK(entry < header && header < body && body < latch && latch < exit_);
    /* its loop (header, body, latch) ends where the exit begins, at the
     * header; no other instruction of it is a header */
    const ws_func_sym *rot = func("rotated");
    CHECK(loop_ends != NULL && rot != NULL);
    if (loop_ends && rot) {
        CHECK_EQ_U(loop_ends[(rot->lo + 16 - lo) / 2], exit_);
        int headers = 0;
        for (uint32_t a = rot->lo; a < rot->lo + rot->size; a += 2) headers += loop_ends[(a - lo) / 2] != 0;
        CHECK_EQ_U(headers, 1);
    }
    /* table_switch: its jump goes to both cases, which go before their
     * join (4-byte instructions: entry at 0, join at 24, cases at 32 and
     * 40); without the table its cases were not reached: address order */
    CHECK(!in_address_order("table_switch"));
    const uint32_t sw_entry = key_at("table_switch", 20), sw_join = key_at("table_switch", 24),
                   case0 = key_at("table_switch", 32), case1 = key_at("table_switch", 40);
    printf("table_switch keys: jump %#x case 0 %#x case 1 %#x join %#x\n", sw_entry, case0, case1, sw_join);
    CHECK(sw_entry < case0 && case0 < case1 && case1 < sw_join);
    /* two_tables: each jump to its own table's cases */
    CHECK(!in_address_order("two_tables"));
    static const uint32_t tt_off[] = { 0, 52, 60, 24, 68, 76, 48 }; /* entry, 1a, 1b, join 1, 2a, 2b, join 2 */
    for (size_t i = 1; i < sizeof tt_off / sizeof *tt_off; i++) {
        const uint32_t a = key_at("two_tables", tt_off[i - 1]), b = key_at("two_tables", tt_off[i]);
        if (!(a < b)) printf("two_tables: key at +%u %#x, not below the key at +%u %#x\n", tt_off[i - 1], a, tt_off[i], b);
        CHECK(a < b);
    }
    /* a loop without a vote, shuffle or barrier, or calling only a
     * function without one: no end recorded; one calling a function
     * with a vote: its end, at its header */
    static const char *const quiet_loops[] = { "quiet_loop", "calls_quiet_loop" };
    for (size_t q = 0; q < 2; q++) {
        const ws_func_sym *quiet = func(quiet_loops[q]);
        CHECK(quiet != NULL);
        for (uint32_t a = quiet ? quiet->lo : 0; loop_ends && quiet && a < quiet->lo + quiet->size; a += 2)
            CHECK_EQ_U(loop_ends[(a - lo) / 2], 0);
    }
    const ws_func_sym *caller = func("calls_vote_loop");
    CHECK(caller != NULL && loop_ends != NULL);
    if (caller && loop_ends) /* the loop ends at the `ret`, two bytes (c.jr) */
        CHECK_EQ_U(loop_ends[(caller->lo - lo) / 2], caller->lo + caller->size - 2);
    free(loop_ends);
    free(targets);
    free(pairs);
    free(keys);
    ws_func_syms_free(&syms);
    elf_end(e);
    return TEST_SUMMARY();
}
