/* A data address named as C names it (dwarf_objects.c). */
#ifndef WS_RUNTIME_DWARF_OBJECTS_H
#define WS_RUNTIME_DWARF_OBJECTS_H
#include <stddef.h>
#include <stdint.h>
#include <elfutils/libdw.h>
#include <gelf.h>

/* The sized object symbol (STT_OBJECT) of symbol table section symtab
 * that holds address addr, in *out. Returns 0, or -1 if none does. */
int ws_elf_object_at(Elf_Scn *symtab, uint64_t addr, GElf_Sym *out);

/* The module object holding link address addr, with the array element
 * and struct member from DWARF when there is any: "tile[2][1]",
 * "cells[3].count", "tile+2" (inside an element), or the symbol's name
 * and offset without DWARF ("hist.local+12"). Returns 0, or -1 (buf
 * untouched) when no object symbol holds addr. */
int ws_dwarf_object_name(Elf *elf, Dwarf *dw, uint32_t addr, char *buf, size_t len);
#endif
