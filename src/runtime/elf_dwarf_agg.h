/* Structs and unions passed to kernels by value: their size, alignment
 * and how the ilp32f calling convention passes them (elf_dwarf_agg.c). */
#ifndef WS_RUNTIME_ELF_DWARF_AGG_H
#define WS_RUNTIME_ELF_DWARF_AGG_H
#include <stddef.h>
#include <elfutils/libdw.h>
#include "runtime/elf_image.h"

/* The largest struct a kernel takes by value (a copy of it goes on every
 * lane's stack when it is passed by reference). */
#define WS_AGG_MAX_BYTES 1024u

/* Type t (typedefs and qualifiers already peeled) is a struct or union
 * (C++: a class) that kernels can take by value? */
int ws_dwarf_is_aggregate(Dwarf_Die *t);
/* Fill *out for struct or union t. Returns 0, or -1 with the reason in
 * why (a size DWARF does not give, too large, a layout this device does
 * not pass: a float beside a bitfield in 8 bytes). */
int ws_dwarf_aggregate(Dwarf_Die *t, ws_elf_agg *out, char *why, size_t len);
/* const, volatile, restrict, _Atomic: qualifiers a type walk passes */
int ws_dwarf_is_qualifier(int tag);
/* t with typedefs and qualifiers peeled (elf_dwarf.c uses it too); -1 if
 * the chain breaks or is too deep. */
int ws_dwarf_peel(Dwarf_Die *t, Dwarf_Die *out);
#endif
