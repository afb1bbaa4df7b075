/* Kernel parameter types from DWARF (elfutils libdw): the launch checks
 * arguments against them, and tools print them. */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "runtime/elf_dwarf_agg.h"
#include "runtime/elf_dwarf_refs.h"
#include "runtime/elf_internal.h"

#define MAX_DEPTH 16
#define SPELL_BUDGET 256 /* type DIEs spelled for one parameter */

#define DECL_MAX 192 /* a declarator being built ("(*)[4]", "* const *") */

static void spell_decl(Dwarf_Die *t, const char *decl, char *buf, size_t len, int depth, int *budget);

/* A base spelling joined with a declarator: "float" + "*" = "float *",
 * "float" + "(*)[4]" = "float (*)[4]", "float" + "[4]" = "float[4]". */
static void join(char *buf, size_t len, const char *base, const char *decl)
{
    /* a spelling too long for buf is cut short (the budget keeps it rare) */
    if (snprintf(buf, len, "%s%s%s", base, !*decl || decl[0] == '[' ? "" : " ", decl) < 0) snprintf(buf, len, "?");
}

/* A function type's parameter list, C style: "int, float",
 * "const char *, ..." or "void". */
static void spell_params(Dwarf_Die *fn, char *params, size_t plen, int depth, int *budget)
{
    Dwarf_Attribute at;
    Dwarf_Die ty, c;
    size_t n = 0;
    int seen = 0;
    params[0] = 0;
    if (dwarf_child(fn, &c) == 0) {
        do {
            if (++seen > 256) break; /* crafted DWARF: a bounded walk */
            char sub[160];
            int tag = dwarf_tag(&c);
            if (tag == DW_TAG_formal_parameter) {
                snprintf(sub, sizeof sub, "?");
                if (dwarf_attr_integrate(&c, DW_AT_type, &at) && dwarf_formref_die(&at, &ty))
                    spell_decl(&ty, "", sub, sizeof sub, depth + 1, budget);
            } else if (tag == DW_TAG_unspecified_parameters) {
                snprintf(sub, sizeof sub, "...");
            } else {
                continue;
            }
            int w = snprintf(params + n, plen - n, "%s%s", n ? ", " : "", sub);
            if (w < 0 || (size_t)w >= plen - n) break; /* cut short: the list ends there */
            n += (size_t)w;
        } while (dwarf_siblingof(&c, &c) == 0);
    }
    bool prototyped = false;
    if (!n && dwarf_attr_integrate(fn, DW_AT_prototyped, &at)) dwarf_formflag(&at, &prototyped);
    if (!n && prototyped) snprintf(params, plen, "void");
}

/* The bounds of an array type DIE, "[4]", "[3][4]", "[]" for an unknown
 * count (at most 8 dimensions spelt, then "[...]"). */
static void array_dims(Dwarf_Die *t, char *dims, size_t len)
{
    Dwarf_Die c;
    Dwarf_Attribute at;
    size_t n = 0;
    int ndims = 0, seen = 0;
    dims[0] = 0;
    if (dwarf_child(t, &c) != 0) { snprintf(dims, len, "[]"); return; }
    do {
        if (++seen > 64) break; /* crafted DWARF: a bounded walk */
        if (dwarf_tag(&c) != DW_TAG_subrange_type) continue;
        char d[32] = "[]";
        Dwarf_Word v;
        if (ndims++ == 8) snprintf(d, sizeof d, "[...]");
        else if (dwarf_attr_integrate(&c, DW_AT_count, &at) && dwarf_formudata(&at, &v) == 0)
            snprintf(d, sizeof d, "[%llu]", (unsigned long long)v);
        else if (dwarf_attr_integrate(&c, DW_AT_upper_bound, &at) && dwarf_formudata(&at, &v) == 0 &&
                 v < UINT64_MAX)
            snprintf(d, sizeof d, "[%llu]", (unsigned long long)v + 1);
        int w = snprintf(dims + n, len - n, "%s", d);
        if (w < 0 || (size_t)w >= len - n || ndims > 8) break;
        n += (size_t)w;
    } while (dwarf_siblingof(&c, &c) == 0);
    if (!ndims) snprintf(dims, len, "[]");
}

/* A pointer, or a C++ reference (int &, int &&), which the calling
 * convention passes as a pointer. */
static int is_pointer_tag(int tag)
{
    return tag == DW_TAG_pointer_type || tag == DW_TAG_reference_type || tag == DW_TAG_rvalue_reference_type;
}

/* C spelling of a type DIE around the declarator `decl` (what is already
 * spelt of the types that lead to it, "" at the top), e.g. "const float *",
 * "float (*)[4]", "int (*)(int, float)", "float * const *". */
static void spell_decl(Dwarf_Die *t, const char *decl, char *buf, size_t len, int depth, int *budget)
{
    Dwarf_Attribute at;
    Dwarf_Die inner;
    const char *name = dwarf_diename(t);
    if (name && !*name) name = NULL; /* an empty DW_AT_name spells like a missing one */
    int has_inner = dwarf_attr_integrate(t, DW_AT_type, &at) && dwarf_formref_die(&at, &inner);
    /* a chain at most MAX_DEPTH deep, and at most SPELL_BUDGET types in
     * all: function types branch, and crafted DWARF could share one
     * parameter type many times on every level */
    if (depth > MAX_DEPTH || --*budget < 0) { join(buf, len, "?", decl); return; }
    char d[DECL_MAX], sub[160];
    const int tag = dwarf_tag(t);
    switch (tag) {
    case DW_TAG_pointer_type: case DW_TAG_reference_type: case DW_TAG_rvalue_reference_type: {
        /* a pointer to an array or a function binds tighter: "(*)[4]" */
        int inner_tag = has_inner ? dwarf_tag(&inner) : 0;
        int wrap = inner_tag == DW_TAG_subroutine_type ||
                   (inner_tag == DW_TAG_array_type && !dwarf_hasattr(&inner, DW_AT_GNU_vector));
        const char *op = tag == DW_TAG_pointer_type ? "*" : tag == DW_TAG_reference_type ? "&" : "&&";
        snprintf(d, sizeof d, wrap ? "(%s%s)" : "%s%s", op, decl);
        if (has_inner) spell_decl(&inner, d, buf, len, depth + 1, budget);
        else join(buf, len, "void", d);
        return;
    }
    case DW_TAG_const_type: case DW_TAG_volatile_type: case DW_TAG_restrict_type: case DW_TAG_atomic_type: {
        const char *q = tag == DW_TAG_const_type ? "const" : tag == DW_TAG_volatile_type ? "volatile"
                        : tag == DW_TAG_restrict_type ? "restrict" : "_Atomic";
        if (has_inner && dwarf_tag(&inner) == DW_TAG_pointer_type) { /* qualifies the pointer: "* const" */
            snprintf(d, sizeof d, " %s%s%s", q, *decl ? " " : "", decl);
            spell_decl(&inner, d, buf, len, depth + 1, budget);
            return;
        }
        if (has_inner) spell_decl(&inner, decl, sub, sizeof sub, depth + 1, budget);
        else join(sub, sizeof sub, "void", decl);
        snprintf(buf, len, "%s %s", q, sub);
        return;
    }
    case DW_TAG_array_type:
        if (dwarf_hasattr(t, DW_AT_GNU_vector)) { /* vector_size / ext_vector_type */
            Dwarf_Word bytes = 0;
            char elem[160] = "?", base[192];
            if (dwarf_aggregate_size(t, &bytes) != 0) bytes = 0;
            if (has_inner) spell_decl(&inner, "", elem, sizeof elem, depth + 1, budget);
            snprintf(base, sizeof base, "%s __attribute__((vector_size(%llu)))", elem, (unsigned long long)bytes);
            join(buf, len, base, decl);
        } else {
            char dims[64];
            array_dims(t, dims, sizeof dims);
            snprintf(d, sizeof d, "%s%s", decl, dims);
            if (has_inner) spell_decl(&inner, d, buf, len, depth + 1, budget);
            else join(buf, len, "?", d);
        }
        return;
    case DW_TAG_subroutine_type: {
        char params[160];
        spell_params(t, params, sizeof params, depth, budget);
        snprintf(d, sizeof d, "%s(%s)", decl, params);
        if (has_inner) spell_decl(&inner, d, buf, len, depth + 1, budget);
        else join(buf, len, "void", d);
        return;
    }
    case DW_TAG_structure_type: case DW_TAG_union_type: case DW_TAG_enumeration_type:
        snprintf(sub, sizeof sub, "%s %s", tag == DW_TAG_structure_type ? "struct" : tag == DW_TAG_union_type ?
                 "union" : "enum", name ? name : "<anonymous>");
        join(buf, len, sub, decl);
        return;
    case DW_TAG_base_type: {
        /* clang names every complex type "complex": spell the C type by
         * its size, as the source wrote it */
        Dwarf_Word enc = 0, bytes = 0;
        if (dwarf_attr_integrate(t, DW_AT_encoding, &at)) dwarf_formudata(&at, &enc);
        if (dwarf_attr_integrate(t, DW_AT_byte_size, &at)) dwarf_formudata(&at, &bytes);
        if (enc == DW_ATE_complex_float && (!name || !strcmp(name, "complex")) &&
            (bytes == 8 || bytes == 16 || bytes == 32)) {
            join(buf, len, bytes == 8 ? "_Complex float" : bytes == 16 ? "_Complex double" : "_Complex long double",
                 decl);
            return;
        }
        join(buf, len, name ? name : "?", decl);
        return;
    }
    default:
        join(buf, len, name ? name : "?", decl);
    }
}

static void spell(Dwarf_Die *t, char *buf, size_t len, int depth, int *budget)
{
    spell_decl(t, "", buf, len, depth, budget);
}

/* Kind of a parameter type, peeling typedefs and qualifiers. Returns -1
 * for a type kernels cannot take by value. */
static int kind_of(Dwarf_Die *t, ws_param_kind *kind, int *is_bool)
{
    *is_bool = 0;
    Dwarf_Die cur = *t;
    for (int depth = 0; depth < MAX_DEPTH; depth++) {
        Dwarf_Attribute at;
        Dwarf_Word enc = 0, size = 0;
        switch (dwarf_tag(&cur)) {
        case DW_TAG_typedef: case DW_TAG_const_type: case DW_TAG_volatile_type: case DW_TAG_restrict_type:
        case DW_TAG_atomic_type: /* _Atomic int, int * _Atomic: the same registers as without it */
            if (!dwarf_attr_integrate(&cur, DW_AT_type, &at) || !dwarf_formref_die(&at, &cur)) return -1;
            continue;
        case DW_TAG_array_type:
            /* a C parameter declared as an array is a pointer, and DWARF
             * says so; an array type here is a vector (vector_size), which
             * is passed by value in registers or on the stack */
            if (dwarf_hasattr(&cur, DW_AT_GNU_vector)) return -1;
            *kind = WS_PARAM_PTR;
            return 0;
        case DW_TAG_pointer_type: case DW_TAG_reference_type: case DW_TAG_rvalue_reference_type:
            *kind = WS_PARAM_PTR;
            return 0;
        case DW_TAG_enumeration_type:
            /* DWARF names the underlying type when the producer knows it (clang
             * does): an enum with negative enumerators is signed. */
            if (dwarf_attr_integrate(&cur, DW_AT_type, &at)) {
                if (!dwarf_formref_die(&at, &cur)) return -1;
                continue;
            }
            if (dwarf_attr_integrate(&cur, DW_AT_byte_size, &at)) dwarf_formudata(&at, &size);
            *kind = size == 1 ? WS_PARAM_U8 : size == 2 ? WS_PARAM_U16 : WS_PARAM_U32;
            return 0;
        case DW_TAG_base_type:
            if (dwarf_attr_integrate(&cur, DW_AT_encoding, &at)) dwarf_formudata(&at, &enc);
            if (dwarf_attr_integrate(&cur, DW_AT_byte_size, &at)) dwarf_formudata(&at, &size);
            if (enc == DW_ATE_float) {
                if (size == 4) { *kind = WS_PARAM_F32; return 0; }
                if (size == 8) { *kind = WS_PARAM_F64; return 0; }
                return -1;
            }
            if (enc == DW_ATE_boolean) { *kind = WS_PARAM_U8; *is_bool = 1; return 0; }
            /* only integers from here: a complex or decimal float of 8 bytes is not a u64 */
            if (enc != DW_ATE_signed && enc != DW_ATE_signed_char && enc != DW_ATE_unsigned &&
                enc != DW_ATE_unsigned_char && enc != DW_ATE_UTF)
                return -1;
            {
                int is_signed = enc == DW_ATE_signed || enc == DW_ATE_signed_char;
                switch (size) {
                case 1: *kind = is_signed ? WS_PARAM_I8 : WS_PARAM_U8; return 0;
                case 2: *kind = is_signed ? WS_PARAM_I16 : WS_PARAM_U16; return 0;
                case 4: *kind = is_signed ? WS_PARAM_I32 : WS_PARAM_U32; return 0;
                case 8: *kind = is_signed ? WS_PARAM_I64 : WS_PARAM_U64; return 0;
                default: return -1;
                }
            }
        default:
            return -1;
        }
    }
    return -1;
}

/* Is type t made of 32-bit floats only (float, _Complex float, arrays and
 * structs of them)? Shader inputs and outputs must be: the pipeline moves
 * them as floats. */
static int all_float(Dwarf_Die *t, int depth)
{
    Dwarf_Die cur, child, inner;
    Dwarf_Attribute at;
    if (depth > MAX_DEPTH || ws_dwarf_peel(t, &cur)) return 0;
    switch (dwarf_tag(&cur)) {
    case DW_TAG_base_type: {
        Dwarf_Word enc = 0, size = 0;
        if (dwarf_attr_integrate(&cur, DW_AT_encoding, &at)) dwarf_formudata(&at, &enc);
        if (dwarf_attr_integrate(&cur, DW_AT_byte_size, &at)) dwarf_formudata(&at, &size);
        return (enc == DW_ATE_float && size == 4) || (enc == DW_ATE_complex_float && size == 8);
    }
    case DW_TAG_array_type:
        return dwarf_attr_integrate(&cur, DW_AT_type, &at) && dwarf_formref_die(&at, &inner) &&
               all_float(&inner, depth + 1);
    case DW_TAG_structure_type:
        if (dwarf_child(&cur, &child) != 0) return 0;
        do {
            if (dwarf_tag(&child) != DW_TAG_member) continue;
            if (!dwarf_attr_integrate(&child, DW_AT_type, &at) || !dwarf_formref_die(&at, &inner) ||
                !all_float(&inner, depth + 1))
                return 0;
        } while (dwarf_siblingof(&child, &child) == 0);
        return 1;
    default:
        return 0;
    }
}

/* Bytes of type t (structs and arrays included); 0 if unknown. */
static uint32_t type_bytes(Dwarf_Die *t)
{
    Dwarf_Die cur;
    Dwarf_Word size = 0;
    if (ws_dwarf_peel(t, &cur) || dwarf_aggregate_size(&cur, &size) != 0) return 0;
    return size > UINT32_MAX ? 0 : (uint32_t)size;
}

/* What a pointer parameter points to, for tools that fill buffers
 * (warpscope run's iota:N): the element's size, and whether it is a float
 * or an unsigned integer. Through arrays and vectors, the element is their
 * scalar: float for "float (*)[4]" and for a pointer to a float vector
 * (the buffer holds floats); a pointer's elements are addresses (4 bytes). */
static void pointee_of(Dwarf_Die *t, ws_elf_param *q)
{
    Dwarf_Die cur;
    Dwarf_Attribute at;
    if (ws_dwarf_peel(t, &cur) || (!is_pointer_tag(dwarf_tag(&cur)) && dwarf_tag(&cur) != DW_TAG_array_type))
        return;
    for (int depth = 0; depth < MAX_DEPTH; depth++) { /* the pointer's target, then array elements */
        if (!dwarf_attr_integrate(&cur, DW_AT_type, &at) || !dwarf_formref_die(&at, &cur) || ws_dwarf_peel(&cur, &cur))
            return; /* void *, or broken DWARF */
        const int tag = dwarf_tag(&cur);
        if (tag == DW_TAG_array_type) continue;
        if (tag == DW_TAG_pointer_type) { q->pointee_size = 4; return; } /* elements are addresses */
        ws_param_kind k;
        int boolean;
        Dwarf_Word size = 0;
        if (kind_of(&cur, &k, &boolean) == 0) {
            if (dwarf_attr_integrate(&cur, DW_AT_byte_size, &at)) dwarf_formudata(&at, &size);
            q->pointee_float = k == WS_PARAM_F32 || k == WS_PARAM_F64;
            q->pointee_unsigned = k == WS_PARAM_U8 || k == WS_PARAM_U16 || k == WS_PARAM_U32 || k == WS_PARAM_U64;
            q->pointee_size = (uint32_t)size;
        }
        return;
    }
}

/* ---- _BitInt(N) widths ----
 * A _BitInt(N) parameter takes only N bits, but its base type DIE may say
 * no more than its storage bytes: clang 14 names it "_BitInt" with a byte
 * size; newer producers (GCC, later clang) add DW_AT_bit_size and name
 * it "_BitInt(N)". Without either, N is read from the declaration in the
 * source, where the DIE says it is (decl_file, decl_line). */

static const char *decl_file(Dwarf_Die *sub);

/* N in "_BitInt(N)" at s (spaces allowed around N), else 0. */
static unsigned bitint_spelling(const char *s)
{
    static const char word[] = "_BitInt";
    if (strncmp(s, word, sizeof word - 1)) return 0;
    s += sizeof word - 1;
    while (*s == ' ' || *s == '\t') s++;
    if (*s++ != '(') return 0;
    while (*s == ' ' || *s == '\t') s++;
    char *end;
    unsigned long n = strtoul(s, &end, 10);
    if (end == s) return 0;
    while (*end == ' ' || *end == '\t') end++;
    return *end == ')' && n >= 1 && n <= 128 ? (unsigned)n : 0;
}

static int is_ident_char(char c) { return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z'); }

/* The width declared for `name` in one line of source: the last
 * "_BitInt(N)" between the declaration's start (the previous unmatched
 * '(', or ',' or ';' outside parentheses, or the line's) and a whole-word
 * `name`; 0 if none. */
static unsigned bitint_in_line(const char *line, const char *name)
{
    const size_t len = strlen(name);
    for (const char *at = strstr(line, name); at; at = strstr(at + 1, name)) {
        if ((at > line && is_ident_char(at[-1])) || is_ident_char(at[len])) continue;
        const char *start = at;
        for (int depth = 0; start > line; start--) { /* back over "(12)" to the declaration's start */
            const char c = start[-1];
            if (c == ')') depth++;
            else if (c == '(' && depth) depth--;
            else if (!depth && (c == '(' || c == ',' || c == ';')) break;
        }
        unsigned n = 0;
        for (const char *c = start; c < at; c++)
            if (*c == '_' && bitint_spelling(c)) n = bitint_spelling(c);
        if (n) return n;
    }
    return 0;
}

/* The width of _BitInt `die` (a parameter or typedef) as its source
 * declares it; 0 if the source or the line cannot be read. */
#define SOURCE_MAX (64u << 20)
static unsigned bitint_from_source(Dwarf_Die *die)
{
    const char *file = decl_file(die), *name = dwarf_diename(die);
    int want;
    if (!file || !name || dwarf_decl_line(die, &want) != 0 || want < 1) return 0;
    /* Only a regular file, and only its first SOURCE_MAX bytes: the name
     * comes from the module (a "#line 1 \"/dev/zero\"" made the loop below
     * read for ever, a FIFO would block the load). */
    FILE *f = fopen(file, "r");
    struct stat sb;
    if (!f) return 0;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fclose(f);
        return 0;
    }
    char line[1024];
    unsigned n = 0;
    size_t read = 0;
    for (int at = 1; read < SOURCE_MAX && fgets(line, sizeof line, f); ) {
        const int whole = strchr(line, '\n') != NULL || feof(f);
        read += strlen(line) + 1;
        if (at == want) { n = bitint_in_line(line, name); break; }
        at += whole; /* (a longer line is read in pieces) */
    }
    fclose(f);
    return n;
}

/* Storage bytes of a _BitInt(n) for the ilp32 ABI (clang's): the smallest
 * of 1, 2, 4 and 8 that holds it. */
static unsigned bitint_bytes(unsigned n) { return n <= 8 ? 1 : n <= 16 ? 2 : n <= 32 ? 4 : n <= 64 ? 8 : 0; }

/* N of a _BitInt(N) parameter `p` of type `type` when it can be known,
 * else 0 (not a _BitInt, or a width found nowhere: the launch then checks
 * the storage bytes). A width that does not match the type's bytes (a
 * source edited since the build) is not trusted. */
static unsigned bitint_width(Dwarf_Die *p, Dwarf_Die *type)
{
    Dwarf_Die cur = *type, declared = *p;
    Dwarf_Attribute at;
    for (int depth = 0; depth < MAX_DEPTH; depth++) {
        int tag = dwarf_tag(&cur);
        if (tag != DW_TAG_typedef && !ws_dwarf_is_qualifier(tag)) break;
        if (tag == DW_TAG_typedef) declared = cur; /* the declaration nearest the base type names N */
        if (!dwarf_attr_integrate(&cur, DW_AT_type, &at) || !dwarf_formref_die(&at, &cur)) return 0;
    }
    const char *name = dwarf_diename(&cur);
    if (dwarf_tag(&cur) != DW_TAG_base_type || !name) return 0;
    if (!strncmp(name, "unsigned ", 9)) name += 9;
    if (strncmp(name, "_BitInt", 7)) return 0;
    Dwarf_Word bytes = 0, bits = 0;
    if (dwarf_attr_integrate(&cur, DW_AT_byte_size, &at)) dwarf_formudata(&at, &bytes);
    unsigned n = 0;
    if (dwarf_attr_integrate(&cur, DW_AT_bit_size, &at) && dwarf_formudata(&at, &bits) == 0 && bits <= 128)
        n = (unsigned)bits;
    if (!n) n = bitint_spelling(name);
    if (!n) n = bitint_from_source(&declared);
    return n && bitint_bytes(n) == bytes ? n : 0;
}

static int add_param(ws_elf_ctx *cx, ws_elf_kernel *k, Dwarf_Die *p)
{
    Dwarf_Attribute at;
    Dwarf_Die type;
    char tname[192];
    ws_param_kind kind;
    const char *name = dwarf_diename(p);
    if (!dwarf_attr_integrate(p, DW_AT_type, &at) || !dwarf_formref_die(&at, &type))
        return ws_elf_fail(cx, "kernel '%s' parameter %u has no type in DWARF", k->name, k->nparams);
    int budget = SPELL_BUDGET;
    spell(&type, tname, sizeof tname, 0, &budget);
    int is_bool;
    Dwarf_Die agg_type;
    ws_elf_agg agg = { 0 };
    if (kind_of(&type, &kind, &is_bool)) {
        char why[160];
        if (ws_dwarf_peel(&type, &agg_type) || !ws_dwarf_is_aggregate(&agg_type))
            return ws_elf_fail(cx, "kernel '%s' parameter %u '%s' has type '%s' passed by value, which kernels "
                               "do not support; pass a pointer", k->name, k->nparams, name ? name : "", tname);
        if (ws_dwarf_aggregate(&agg_type, &agg, why, sizeof why))
            return ws_elf_fail(cx, "kernel '%s' parameter %u '%s' has type '%s' passed by value: %s; pass a pointer",
                               k->name, k->nparams, name ? name : "", tname, why);
        kind = WS_PARAM_AGG, is_bool = 0;
    }
    if (k->nparams >= 64) return ws_elf_fail(cx, "kernel '%s' has more than 64 parameters", k->name);
    ws_elf_param *ps = realloc(k->params, (k->nparams + 1) * sizeof *ps);
    if (!ps) return ws_elf_fail(cx, "out of memory");
    k->params = ps;
    ws_elf_param *q = &ps[k->nparams];
    q->name = strdup(name ? name : "");
    q->type_name = strdup(tname);
    q->kind = kind;
    q->is_bool = is_bool;
    q->pointee_float = 0;
    q->pointee_unsigned = 0;
    q->pointee_size = 0;
    q->pointee_bytes = 0;
    q->pointee_all_float = 0;
    q->agg = agg;
    q->bits = kind == WS_PARAM_PTR || kind == WS_PARAM_AGG || is_bool ? 0 : bitint_width(p, &type);
    if (kind == WS_PARAM_PTR) {
        pointee_of(&type, q);
        Dwarf_Die ptr, target;
        if (ws_dwarf_peel(&type, &ptr) == 0 && is_pointer_tag(dwarf_tag(&ptr)) &&
            dwarf_attr_integrate(&ptr, DW_AT_type, &at) && dwarf_formref_die(&at, &target)) {
            q->pointee_bytes = type_bytes(&target);
            q->pointee_all_float = all_float(&target, 0);
        }
    }
    k->nparams++;
    if (!q->name || !q->type_name) return ws_elf_fail(cx, "out of memory");
    return 0;
}

/* Source file of a definition. dwarf_decl_file of elfutils 0.188 takes
 * file index 0 to mean "unknown", as in DWARF 2-4; in DWARF 5 (clang's
 * default) entry 0 is the compilation unit's primary source file, where
 * kernels are usually defined. */
static const char *decl_file(Dwarf_Die *sub)
{
    const char *file = dwarf_decl_file(sub);
    Dwarf_Attribute at;
    Dwarf_Word idx;
    Dwarf_Half version = 0;
    Dwarf_Die cudie;
    Dwarf_Files *files;
    size_t nfiles;
    if (file) return file;
    if (!dwarf_attr_integrate(sub, DW_AT_decl_file, &at) || dwarf_formudata(&at, &idx) != 0 || idx != 0)
        return NULL;
    if (!dwarf_cu_die(at.cu, &cudie, &version, NULL, NULL, NULL, NULL, NULL) || version < 5) return NULL;
    if (dwarf_getsrcfiles(&cudie, &files, &nfiles) != 0 || nfiles == 0) return NULL;
    return dwarf_filesrc(files, 0, NULL, NULL);
}

/* Where the kernel's body starts (after the prologue): the row the line
 * table marks prologue_end, else the first row past the entry's line —
 * where a debugger stopping "at the launch" shows parameters correctly. */
static uint32_t body_address(Dwarf_Die *cu, const ws_elf_kernel *k)
{
    Dwarf_Lines *lines;
    size_t n;
    uint32_t first_past = 0;
    int entry_line = -1;
    if (dwarf_getsrclines(cu, &lines, &n) != 0) return k->entry;
    for (size_t i = 0; i < n; i++) {
        Dwarf_Line *l = dwarf_onesrcline(lines, i);
        Dwarf_Addr a;
        int line;
        bool pe = false, stmt = false;
        if (!l || dwarf_lineaddr(l, &a) || a < k->entry || a >= (uint64_t)k->entry + k->size) continue;
        if (dwarf_lineno(l, &line)) continue;
        dwarf_lineprologueend(l, &pe);
        dwarf_linebeginstatement(l, &stmt);
        if (pe) return (uint32_t)a;
        if (entry_line < 0 && a == k->entry) entry_line = line;
        else if (!first_past && stmt && line != entry_line && a > k->entry) first_past = (uint32_t)a;
    }
    return first_past ? first_past : k->entry;
}

static int describe_kernel(ws_elf_ctx *cx, ws_elf_kernel *k, Dwarf_Die *sub, Dwarf_Die *cu)
{
    k->body = body_address(cu, k);
    Dwarf_Die child;
    int line = 0;
    const char *file = decl_file(sub);
    if (file && !(k->decl_file = strdup(file))) return ws_elf_fail(cx, "out of memory");
    if (dwarf_decl_line(sub, &line) == 0) k->decl_line = (uint32_t)line;
    Dwarf_Attribute at;
    Dwarf_Die ret;
    if (dwarf_attr_integrate(sub, DW_AT_type, &at) && dwarf_formref_die(&at, &ret)) {
        k->ret_bytes = type_bytes(&ret);
        k->ret_all_float = all_float(&ret, 0);
    }
    k->has_params = 1;
    if (dwarf_child(sub, &child) != 0) return 0;
    do {
        if (dwarf_tag(&child) == DW_TAG_formal_parameter && add_param(cx, k, &child)) return -1;
        if (dwarf_tag(&child) == DW_TAG_unspecified_parameters)
            return ws_elf_fail(cx, "kernel '%s' is variadic, which kernels do not support", k->name);
    } while (dwarf_siblingof(&child, &child) == 0);
    return 0;
}

static int cmp_kernel_ptr(const void *a, const void *b)
{
    return strcmp((*(ws_elf_kernel *const *)a)->name, (*(ws_elf_kernel *const *)b)->name);
}

static int cmp_name_kernel(const void *key, const void *elem)
{
    return strcmp(key, (*(ws_elf_kernel *const *)elem)->name);
}

/* The kernel a subprogram DIE defines, if any. `byname` holds the kernels
 * sorted by name (names are unique), so a module with many kernels and
 * much DWARF is not matched in quadratic time. */
static ws_elf_kernel *match(ws_elf_kernel **byname, uint32_t n, Dwarf_Die *sub)
{
    /* A kernel is named by its symbol. In C that is DW_AT_name; a C++
     * kernel's symbol is its mangled name (_Z4scalePff), which DWARF keeps
     * in DW_AT_linkage_name (possibly on the declaration a definition's
     * DW_AT_specification points to), while DW_AT_name holds "scale". */
    Dwarf_Attribute at;
    const char *name = NULL;
    if (dwarf_attr_integrate(sub, DW_AT_linkage_name, &at) || dwarf_attr_integrate(sub, DW_AT_MIPS_linkage_name, &at))
        name = dwarf_formstring(&at);
    if (!name) name = dwarf_diename(sub);
    Dwarf_Addr low;
    if (!name) return NULL;
    /* A declaration (a prototype seen at a call site in another compilation
     * unit) has no parameter names and the wrong source position: only the
     * definition describes a kernel. Only the DIE's own attribute counts: a
     * C++ definition whose DW_AT_specification is a declaration (a static
     * member function) is a definition. */
    if (dwarf_hasattr(sub, DW_AT_declaration)) return NULL;
    ws_elf_kernel **hit = bsearch(name, byname, n, sizeof *byname, cmp_name_kernel);
    if (!hit || (*hit)->has_params) return NULL;
    if (dwarf_lowpc(sub, &low) == 0 && low != (*hit)->entry) return NULL;
    return *hit;
}

/* The subprograms of a compilation unit, and those of the C++ namespaces
 * in it (where clang puts the definition of a function declared in a
 * namespace, kernels of `namespace ns { ... }` among them). Nesting is
 * bounded, since the DWARF is untrusted. */
typedef struct unit_scan {
    Dwarf *dw;
    Dwarf_Die cu;
    int refs_checked; /* the unit's references, before its first kernel */
} unit_scan;

static int scan_scope(ws_elf_ctx *cx, ws_elf_kernel **byname, uint32_t n, Dwarf_Die *scope, unit_scan *u, int depth)
{
    Dwarf_Die child;
    int r = 0;
    if (depth > 64 || dwarf_child(scope, &child) != 0) return 0;
    do {
        ws_elf_kernel *k;
        int tag = dwarf_tag(&child);
        if (tag == DW_TAG_subprogram && (k = match(byname, n, &child))) {
            if (!u->refs_checked && ws_elf_check_unit_refs(cx, u->dw, &u->cu)) return -1;
            u->refs_checked = 1;
            r = describe_kernel(cx, k, &child, &u->cu);
        } else if (tag == DW_TAG_namespace)
            r = scan_scope(cx, byname, n, &child, u, depth + 1);
    } while (r == 0 && dwarf_siblingof(&child, &child) == 0);
    return r;
}

int ws_elf_read_params(ws_elf_ctx *cx, ws_elf_image *img)
{
    if (!img->nkernels) return 0;
    Dwarf *dw = dwarf_begin_elf(cx->elf, DWARF_C_READ, NULL);
    if (!dw) return 0; /* no DWARF: kernels stay without parameter information */
    ws_elf_kernel **byname = malloc(img->nkernels * sizeof *byname);
    if (!byname) {
        dwarf_end(dw);
        return ws_elf_fail(cx, "out of memory");
    }
    for (uint32_t i = 0; i < img->nkernels; i++) byname[i] = &img->kernels[i];
    qsort(byname, img->nkernels, sizeof *byname, cmp_kernel_ptr);
    Dwarf_Off off = 0, next;
    size_t hsize;
    int r = 0;
    while (r == 0 && dwarf_nextcu(dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
        unit_scan u = { .dw = dw };
        if (dwarf_offdie(dw, off + hsize, &u.cu)) r = scan_scope(cx, byname, img->nkernels, &u.cu, &u, 0);
        off = next;
    }
    free(byname);
    dwarf_end(dw);
    return r;
}
