/* DWARF is untrusted, and libdw reads a DIE at whatever offset a reference
 * names: a type reference into the middle of another DIE reads as some
 * other type, and as another again once the tracer's rewriter moves the
 * addresses stored in those bytes (found by fuzz_module). Before a unit's
 * kernels are described, each reference inside the unit must name the
 * start of one of its DIEs. References to other units (DW_FORM_ref_addr)
 * are left alone: C compilers emit them only under LTO. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdlib.h>
#include "runtime/elf_dwarf_refs.h"

#define NEST_MAX 256           /* DIE nesting walked (C needs a few dozen) */
#define DIES_MAX (1u << 24)    /* DIEs in one unit */

typedef struct die_offsets {
    Dwarf_Off *off;
    size_t n, cap;
} die_offsets;

static int add_offset(die_offsets *s, Dwarf_Off off)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 256;
        Dwarf_Off *p = cap <= DIES_MAX ? realloc(s->off, cap * sizeof *p) : NULL;
        if (!p) return -1;
        s->off = p;
        s->cap = cap;
    }
    s->off[s->n++] = off;
    return 0;
}

/* The offsets of die, its siblings after it and all their descendants. */
static int collect(Dwarf_Die die, die_offsets *s, int depth)
{
    do {
        if (add_offset(s, dwarf_dieoffset(&die))) return -1;
        Dwarf_Die child;
        if (depth < NEST_MAX && dwarf_child(&die, &child) == 0 && collect(child, s, depth + 1)) return -1;
    } while (dwarf_siblingof(&die, &die) == 0);
    return 0;
}

static int cmp_off(const void *a, const void *b)
{
    const Dwarf_Off x = *(const Dwarf_Off *)a, y = *(const Dwarf_Off *)b;
    return x < y ? -1 : x > y;
}

typedef struct ref_check {
    const die_offsets *dies;
    Dwarf_Off from, to; /* the first bad reference */
    unsigned attr;
    int bad;
} ref_check;

static int check_attr(Dwarf_Attribute *at, void *arg)
{
    ref_check *rc = arg;
    switch (dwarf_whatform(at)) {
    case DW_FORM_ref1: case DW_FORM_ref2: case DW_FORM_ref4: case DW_FORM_ref8: case DW_FORM_ref_udata: break;
    default: return DWARF_CB_OK;
    }
    Dwarf_Die target;
    if (!dwarf_formref_die(at, &target)) return DWARF_CB_OK; /* unreadable: its user says so */
    rc->to = dwarf_dieoffset(&target);
    if (bsearch(&rc->to, rc->dies->off, rc->dies->n, sizeof *rc->dies->off, cmp_off)) return DWARF_CB_OK;
    rc->attr = dwarf_whatattr(at);
    rc->bad = 1;
    return DWARF_CB_ABORT;
}

int ws_elf_check_unit_refs(ws_elf_ctx *cx, Dwarf *dw, Dwarf_Die *cu)
{
    die_offsets s = { 0 };
    if (collect(*cu, &s, 0)) {
        free(s.off);
        return ws_elf_fail(cx, "out of memory reading DWARF (or more than %u DIEs in one unit)", DIES_MAX);
    }
    qsort(s.off, s.n, sizeof *s.off, cmp_off);
    ref_check rc = { .dies = &s };
    for (size_t i = 0; i < s.n && !rc.bad; i++) {
        Dwarf_Die die;
        if (!dwarf_offdie(dw, s.off[i], &die)) continue;
        rc.from = s.off[i];
        dwarf_getattrs(&die, check_attr, &rc, 0);
    }
    free(s.off);
    if (rc.bad)
        return ws_elf_fail(cx, "malformed DWARF: the DIE at .debug_info offset 0x%llx refers (attribute 0x%x) to offset "
                           "0x%llx, which is not the start of a DIE", (unsigned long long)rc.from, rc.attr,
                           (unsigned long long)rc.to);
    return 0;
}
