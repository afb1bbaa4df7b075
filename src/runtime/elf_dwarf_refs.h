/* Checks that the references inside a DWARF unit name DIEs (elf_dwarf_refs.c). */
#ifndef WS_RUNTIME_ELF_DWARF_REFS_H
#define WS_RUNTIME_ELF_DWARF_REFS_H
#include <elfutils/libdw.h>
#include "runtime/elf_internal.h"

/* 0 if every unit-local reference of the unit whose DIE is cu names the
 * start of one of its DIEs; else -1 with a message naming the offsets. */
int ws_elf_check_unit_refs(ws_elf_ctx *cx, Dwarf *dw, Dwarf_Die *cu);
#endif
