/* Structs and unions by value (elf_dwarf_agg.h): size, alignment and the
 * ilp32f calling convention's choice between floating-point registers and
 * the integer convention (the RISC-V psABI, "Hardware Floating-point
 * Calling Convention"), read from DWARF. The launch (launch_api.c) places
 * the bytes by what this finds, and the kernel, compiled by clang for the
 * same convention, reads them where it expects them. */
#include <dwarf.h>
#include <stdio.h>
#include "runtime/elf_dwarf_agg.h"

#define MAX_DEPTH 16
#define FLEN 4 /* bytes: F, not D */
#define XLEN 4

static int has_type(Dwarf_Die *d, Dwarf_Die *type)
{
    Dwarf_Attribute at;
    return dwarf_attr_integrate(d, DW_AT_type, &at) && dwarf_formref_die(&at, type);
}

static Dwarf_Word udata(Dwarf_Die *d, unsigned name)
{
    Dwarf_Attribute at;
    Dwarf_Word v = 0;
    if (dwarf_attr_integrate(d, name, &at)) dwarf_formudata(&at, &v);
    return v;
}

int ws_dwarf_is_qualifier(int tag)
{
    return tag == DW_TAG_const_type || tag == DW_TAG_volatile_type || tag == DW_TAG_restrict_type ||
           tag == DW_TAG_atomic_type;
}

int ws_dwarf_peel(Dwarf_Die *t, Dwarf_Die *out)
{
    Dwarf_Die cur = *t;
    for (int depth = 0; depth < MAX_DEPTH; depth++) {
        const int tag = dwarf_tag(&cur);
        if (tag != DW_TAG_typedef && !ws_dwarf_is_qualifier(tag)) {
            *out = cur;
            return 0;
        }
        if (!has_type(&cur, &cur)) return -1;
    }
    return -1;
}

int ws_dwarf_is_aggregate(Dwarf_Die *t)
{
    const int tag = dwarf_tag(t);
    return tag == DW_TAG_structure_type || tag == DW_TAG_union_type || tag == DW_TAG_class_type;
}

/* Elements of array type t (all its dimensions), or -1 if DWARF does not
 * say (a flexible array member counts 0). */
static long long array_count(Dwarf_Die *t)
{
    Dwarf_Die sub;
    long long n = 1;
    if (dwarf_child(t, &sub) != 0) return -1;
    do {
        if (dwarf_tag(&sub) != DW_TAG_subrange_type) continue;
        Dwarf_Attribute at;
        Dwarf_Word c;
        if (dwarf_attr_integrate(&sub, DW_AT_count, &at) && dwarf_formudata(&at, &c) == 0) n *= (long long)c;
        else if (dwarf_attr_integrate(&sub, DW_AT_upper_bound, &at) && dwarf_formudata(&at, &c) == 0) n *= (long long)c + 1;
        else n = 0;
        if (n > 1 << 20) return -1;
    } while (dwarf_siblingof(&sub, &sub) == 0);
    return n;
}

/* Natural alignment of type t (typedefs peeled): what the compiler aligns
 * it to unless packed; 0 if unknown. *packed: a member sits off its
 * alignment (the struct was declared packed). */
static uint32_t align_of(Dwarf_Die *t, int depth, int *packed)
{
    Dwarf_Die cur, child, inner;
    if (depth > MAX_DEPTH || ws_dwarf_peel(t, &cur)) return 0;
    const Dwarf_Word explicit_align = udata(&cur, DW_AT_alignment);
    switch (dwarf_tag(&cur)) {
    case DW_TAG_base_type: case DW_TAG_enumeration_type: {
        Dwarf_Word size = udata(&cur, DW_AT_byte_size);
        if (!size && dwarf_tag(&cur) == DW_TAG_enumeration_type && has_type(&cur, &inner))
            return align_of(&inner, depth + 1, packed);
        return size >= 16 ? 16 : size >= 8 ? 8 : size >= 4 ? 4 : size >= 2 ? 2 : 1;
    }
    case DW_TAG_pointer_type: case DW_TAG_reference_type: case DW_TAG_rvalue_reference_type:
        return 4;
    case DW_TAG_array_type:
        if (dwarf_hasattr(&cur, DW_AT_GNU_vector)) { /* clang aligns a vector to its size */
            Dwarf_Word size;
            if (dwarf_aggregate_size(&cur, &size) != 0 || !size || size > 64 || (size & (size - 1))) return 0;
            return (uint32_t)size;
        }
        return has_type(&cur, &inner) ? align_of(&inner, depth + 1, packed) : 0;
    case DW_TAG_structure_type: case DW_TAG_union_type: case DW_TAG_class_type: {
        uint32_t a = 1;
        if (dwarf_child(&cur, &child) == 0) do {
            if (dwarf_tag(&child) != DW_TAG_member || !has_type(&child, &inner)) continue;
            uint32_t m = align_of(&inner, depth + 1, packed);
            if (!m) return 0;
            if (dwarf_hasattr(&child, DW_AT_bit_size)) { /* a bitfield's storage unit */
                if (m > a) a = m;
                continue;
            }
            if (udata(&child, DW_AT_data_member_location) % m) *packed = 1;
            if (m > a) a = m;
        } while (dwarf_siblingof(&child, &child) == 0);
        if (udata(&cur, DW_AT_byte_size) % a) *packed = 1;
        return explicit_align ? (uint32_t)explicit_align : *packed ? 1 : a;
    }
    default:
        return 0;
    }
}

typedef struct flat {
    int n;           /* fields found (more than 2: not for fa registers) */
    int bitfield;    /* a bitfield of nonzero width was met             */
    ws_elf_agg *out;
} flat;

static int add_field(flat *f, int is_float, uint64_t off, uint64_t size)
{
    if (f->n < 2) {
        f->out->field[f->n].is_float = (uint8_t)is_float;
        f->out->field[f->n].offset = (uint8_t)(off < 255 ? off : 255);
        f->out->field[f->n].size = (uint8_t)size;
    }
    f->n++;
    return 0;
}

/* Flatten type t at byte offset `off` into the fields the convention sees:
 * nested structs and arrays opened up, a _Complex float two floats.
 * Returns -1 when t cannot be passed in fa registers at all (a union, a
 * double, an integer wider than a register, a vector). */
static int flatten(Dwarf_Die *t, uint64_t off, flat *f, int depth)
{
    Dwarf_Die cur, child, inner;
    if (depth > MAX_DEPTH || ws_dwarf_peel(t, &cur) || f->n > 2) return -1;
    switch (dwarf_tag(&cur)) {
    case DW_TAG_base_type: {
        const Dwarf_Word enc = udata(&cur, DW_AT_encoding), size = udata(&cur, DW_AT_byte_size);
        if (enc == DW_ATE_float) return size == FLEN ? add_field(f, 1, off, size) : -1;
        if (enc == DW_ATE_complex_float)
            return size == 2 * FLEN ? (add_field(f, 1, off, FLEN), add_field(f, 1, off + FLEN, FLEN)) : -1;
        return size && size <= XLEN ? add_field(f, 0, off, size) : -1;
    }
    case DW_TAG_enumeration_type: case DW_TAG_pointer_type: case DW_TAG_reference_type:
    case DW_TAG_rvalue_reference_type: {
        Dwarf_Word size = udata(&cur, DW_AT_byte_size);
        if (!size) size = 4;
        return size <= XLEN ? add_field(f, 0, off, size) : -1;
    }
    case DW_TAG_array_type: {
        if (dwarf_hasattr(&cur, DW_AT_GNU_vector) || !has_type(&cur, &inner)) return -1;
        long long n = array_count(&cur);
        Dwarf_Word esize;
        Dwarf_Die elem;
        if (n < 0 || ws_dwarf_peel(&inner, &elem) || dwarf_aggregate_size(&elem, &esize) != 0) return -1;
        for (long long i = 0; i < n && f->n <= 2; i++)
            if (flatten(&inner, off + (uint64_t)i * esize, f, depth + 1)) return -1;
        return 0;
    }
    case DW_TAG_structure_type: case DW_TAG_class_type:
        if (dwarf_child(&cur, &child) != 0) return 0; /* an empty struct adds nothing */
        do {
            if (dwarf_tag(&child) != DW_TAG_member || !has_type(&child, &inner)) continue;
            if (dwarf_hasattr(&child, DW_AT_bit_size)) {
                if (udata(&child, DW_AT_bit_size)) f->bitfield = 1, f->n++; /* (zero width: ignored) */
                continue;
            }
            if (flatten(&inner, off + udata(&child, DW_AT_data_member_location), f, depth + 1)) return -1;
        } while (dwarf_siblingof(&child, &child) == 0 && f->n <= 2);
        return 0;
    default: /* a union, or a type the convention passes otherwise */
        return -1;
    }
}

/* Does t hold a C++ class with bases or member functions (at any depth)?
 * clang passes one with a non-trivial copy or destructor by reference
 * whatever its size, and follows bases into the fa registers' fields:
 * neither is read from DWARF here, so such classes are refused. */
static int cxx_class(Dwarf_Die *t, int depth)
{
    Dwarf_Die cur, child, inner;
    if (depth > MAX_DEPTH || ws_dwarf_peel(t, &cur)) return 0;
    const int tag = dwarf_tag(&cur);
    if (tag == DW_TAG_array_type) return has_type(&cur, &inner) && cxx_class(&inner, depth + 1);
    if (!ws_dwarf_is_aggregate(&cur) || dwarf_child(&cur, &child) != 0) return 0;
    do {
        const int ct = dwarf_tag(&child);
        if (ct == DW_TAG_inheritance || ct == DW_TAG_subprogram) return 1;
        if (ct == DW_TAG_member && has_type(&child, &inner) && cxx_class(&inner, depth + 1)) return 1;
    } while (dwarf_siblingof(&child, &child) == 0);
    return 0;
}

int ws_dwarf_aggregate(Dwarf_Die *t, ws_elf_agg *out, char *why, size_t len)
{
    Dwarf_Word size;
    *out = (ws_elf_agg){ 0 };
    if (dwarf_aggregate_size(t, &size) != 0) {
        snprintf(why, len, "DWARF gives no size for it");
        return -1;
    }
    if (size > WS_AGG_MAX_BYTES) {
        snprintf(why, len, "it is %llu bytes; kernels take structs of at most %u bytes by value",
                 (unsigned long long)size, WS_AGG_MAX_BYTES);
        return -1;
    }
    if (cxx_class(t, 0)) {
        snprintf(why, len, "a C++ class with base classes or member functions is not passed by value here");
        return -1;
    }
    int packed = 0;
    out->size = (uint32_t)size;
    out->align = align_of(t, 0, &packed);
    if (!out->align) {
        snprintf(why, len, "DWARF does not describe its members well enough to lay it out");
        return -1;
    }
    flat f = { .out = out };
    const int tag = dwarf_tag(t);
    if (tag != DW_TAG_union_type && flatten(t, 0, &f, 0) == 0 && f.n >= 1 && f.n <= 2 &&
        (out->field[0].is_float || (f.n == 2 && out->field[1].is_float))) {
        if (f.bitfield || size > 2 * XLEN) {
            /* clang's rules for these (a bitfield beside a float, a float
             * padded past 8 bytes) are not worked out here: refused rather
             * than placed where the kernel might not look */
            snprintf(why, len, "a struct of floats %s is not a layout the device passes by value",
                     f.bitfield ? "beside a bitfield" : "padded past 8 bytes");
            return -1;
        }
        for (int i = 0; i < f.n; i++)
            if ((uint32_t)out->field[i].offset + out->field[i].size > size) { /* (malformed DWARF: fuzz_module) */
                snprintf(why, len, "DWARF places a member at byte %u, past its %llu bytes", out->field[i].offset,
                         (unsigned long long)size);
                return -1;
            }
        out->fp = 1;
        out->nfields = (uint8_t)f.n;
    }
    return 0;
}
