/* A data address named as C names it: the module's object holding it
 * (ELF symbol table) and, from DWARF, the element of an array and the
 * member of a struct, "tile[2][1]" or "cells[3].count". Tools name the
 * addresses they report (racecheck's shared-memory hazards) with it. */
#include <dwarf.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include "runtime/dwarf_objects.h"
#include "runtime/elf_dwarf_agg.h"

#define MAX_DIMS 8
#define MAX_DEPTH 64 /* DIE nesting walked looking for the variable */

int ws_elf_object_at(Elf_Scn *symtab, uint64_t addr, GElf_Sym *out)
{
    Elf_Data *d = elf_getdata(symtab, NULL);
    size_t n = d ? d->d_size / sizeof(Elf32_Sym) : 0;
    for (size_t i = 1; i < n; i++) {
        GElf_Sym s;
        if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_OBJECT || !s.st_size) continue;
        if (addr >= s.st_value && addr - s.st_value < s.st_size) {
            *out = s;
            return 0;
        }
    }
    return -1;
}

/* The object symbol holding addr in the module's symbol table: its value
 * and size, its name. */
static int object_symbol(Elf *elf, uint32_t addr, GElf_Sym *out, const char **name)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || ws_elf_object_at(scn, addr, out)) continue;
        *name = elf_strptr(elf, sh.sh_link, out->st_name);
        return *name ? 0 : -1;
    }
    return -1;
}

/* Whether variable DIE v lives at link address at (DW_OP_addr, or in
 * DWARF 5 DW_OP_addrx: an index into .debug_addr). */
static int located_at(Dwarf_Die *v, uint64_t at)
{
    Dwarf_Attribute a, r;
    Dwarf_Op *ops;
    Dwarf_Addr addr;
    size_t n;
    if (!dwarf_attr(v, DW_AT_location, &a) || dwarf_getlocation(&a, &ops, &n) || n != 1) return 0;
    if (ops[0].atom == DW_OP_addr) return ops[0].number == at;
    return (ops[0].atom == DW_OP_addrx || ops[0].atom == DW_OP_GNU_addr_index) &&
           !dwarf_getlocation_attr(&a, &ops[0], &r) && !dwarf_formaddr(&r, &addr) && addr == at;
}

/* The variable DIE at link address at, in the tree under d. */
static int find_variable(Dwarf_Die *d, uint64_t at, Dwarf_Die *out, int depth)
{
    Dwarf_Die c;
    if (depth > MAX_DEPTH || dwarf_child(d, &c)) return -1;
    do {
        const int tag = dwarf_tag(&c);
        if (tag == DW_TAG_variable && located_at(&c, at)) {
            *out = c;
            return 0;
        }
        if ((tag == DW_TAG_subprogram || tag == DW_TAG_lexical_block || tag == DW_TAG_namespace) &&
            !find_variable(&c, at, out, depth + 1))
            return 0;
    } while (!dwarf_siblingof(&c, &c));
    return -1;
}

static int type_of(Dwarf_Die *d, Dwarf_Die *out)
{
    Dwarf_Attribute a;
    Dwarf_Die t;
    return dwarf_attr(d, DW_AT_type, &a) && dwarf_formref_die(&a, &t) && !ws_dwarf_peel(&t, out) ? 0 : -1;
}

static void append_num(char *buf, size_t len, size_t *o, const char *fmt, uint64_t v)
{
    int k = *o < len ? snprintf(buf + *o, len - *o, fmt, (unsigned long long)v) : 0;
    *o += k > 0 ? (size_t)k : 0;
}

static void append_str(char *buf, size_t len, size_t *o, const char *fmt, const char *s)
{
    int k = *o < len ? snprintf(buf + *o, len - *o, fmt, s) : 0;
    *o += k > 0 ? (size_t)k : 0;
}

/* Name the part of an object of type t at byte offset off: indexes of
 * arrays, members of structs, "+N" for what is left. */
static void name_within(Dwarf_Die *t, uint64_t off, char *buf, size_t len, size_t *o, int depth)
{
    Dwarf_Word size;
    if (depth > MAX_DEPTH) return;
    if (dwarf_tag(t) == DW_TAG_array_type) {
        Dwarf_Die elem, c;
        uint64_t dims[MAX_DIMS];
        int nd = 0;
        if (type_of(t, &elem) || dwarf_aggregate_size(&elem, &size) || !size || dwarf_child(t, &c)) goto rest;
        do {
            Dwarf_Attribute a;
            Dwarf_Word v;
            if (dwarf_tag(&c) != DW_TAG_subrange_type) continue;
            if (nd == MAX_DIMS) goto rest; /* deeper than we index: an offset */
            if (dwarf_attr(&c, DW_AT_count, &a) && !dwarf_formudata(&a, &v)) dims[nd++] = v;
            else if (dwarf_attr(&c, DW_AT_upper_bound, &a) && !dwarf_formudata(&a, &v)) dims[nd++] = v + 1;
            else goto rest;
        } while (!dwarf_siblingof(&c, &c));
        uint64_t index = off / size, idx[MAX_DIMS];
        for (int i = nd - 1; i >= 0; i--) {
            if (!dims[i]) goto rest;
            idx[i] = index % dims[i];
            index /= dims[i];
        }
        if (index || !nd) goto rest; /* past its last element */
        for (int i = 0; i < nd; i++) append_num(buf, len, o, "[%llu]", idx[i]);
        name_within(&elem, off % size, buf, len, o, depth + 1);
        return;
    }
    if (dwarf_tag(t) == DW_TAG_structure_type && off) {
        Dwarf_Die m, mt;
        if (dwarf_child(t, &m)) goto rest;
        do {
            Dwarf_Attribute a;
            Dwarf_Word at;
            const char *name = dwarf_diename(&m);
            if (dwarf_tag(&m) != DW_TAG_member || !name || !dwarf_attr(&m, DW_AT_data_member_location, &a) ||
                dwarf_formudata(&a, &at) || type_of(&m, &mt) || dwarf_aggregate_size(&mt, &size))
                continue;
            if (off >= at && off - at < size) {
                append_str(buf, len, o, ".%s", name);
                name_within(&mt, off - at, buf, len, o, depth + 1);
                return;
            }
        } while (!dwarf_siblingof(&m, &m));
    }
rest:
    if (off) append_num(buf, len, o, "+%llu", off);
}

int ws_dwarf_object_name(Elf *elf, Dwarf *dw, uint32_t addr, char *buf, size_t len)
{
    GElf_Sym sym;
    const char *name;
    if (!elf || !len || object_symbol(elf, addr, &sym, &name)) return -1;
    const uint64_t off = addr - sym.st_value;
    Dwarf_Off cu = 0, next;
    size_t hsize;
    while (dw && !dwarf_nextcu(dw, cu, &next, &hsize, NULL, NULL, NULL)) {
        Dwarf_Die cud, var, t;
        const char *vname;
        if (dwarf_offdie(dw, cu + hsize, &cud) && !find_variable(&cud, sym.st_value, &var, 0) &&
            (vname = dwarf_diename(&var))) {
            size_t o = 0;
            append_str(buf, len, &o, "%s", vname);
            if (type_of(&var, &t)) append_num(buf, len, &o, "+%llu", off);
            else name_within(&t, off, buf, len, &o, 0);
            return 0;
        }
        cu = next;
    }
    /* no DWARF for it: the symbol (a static local's is "function.name") */
    if (off) snprintf(buf, len, "%s+%llu", name, (unsigned long long)off);
    else snprintf(buf, len, "%s", name);
    return 0;
}
