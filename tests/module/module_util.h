/* Helpers shared by the tests/module programs: whole-file reads and an
 * independent look at the module through libelf, used to cross-check what
 * ws_elf_parse reports. */
#ifndef WS_TEST_MODULE_UTIL_H
#define WS_TEST_MODULE_UTIL_H
#include <gelf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whole file into a malloc'ed buffer; NULL (with a message) on failure. */
static inline uint8_t *mod_read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); return NULL; }
    uint8_t *buf = NULL;
    size_t cap = 0, n = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? cap * 2 : 65536;
            uint8_t *b = realloc(buf, cap);
            if (!b) { free(buf); fclose(f); return NULL; }
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    *len = n;
    return buf;
}

/* An independent libelf view of a module file. */
typedef struct mod_elf {
    Elf *elf;
    uint8_t *data;
    size_t size, shstrndx;
} mod_elf;

static inline int mod_elf_open(mod_elf *m, const char *path)
{
    memset(m, 0, sizeof *m);
    elf_version(EV_CURRENT);
    if (!(m->data = mod_read_file(path, &m->size))) return -1;
    m->elf = elf_memory((char *)m->data, m->size);
    if (!m->elf || elf_getshdrstrndx(m->elf, &m->shstrndx)) {
        fprintf(stderr, "%s: libelf: %s\n", path, elf_errmsg(-1));
        return -1;
    }
    return 0;
}

static inline void mod_elf_close(mod_elf *m)
{
    if (m->elf) elf_end(m->elf);
    free(m->data);
    memset(m, 0, sizeof *m);
}

/* Section header by name; its index, or 0 if there is none. */
static inline size_t mod_elf_section(mod_elf *m, const char *name, GElf_Shdr *out)
{
    Elf_Scn *scn = NULL;
    if (out) memset(out, 0, sizeof *out);
    while ((scn = elf_nextscn(m->elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) continue;
        const char *n = elf_strptr(m->elf, m->shstrndx, sh.sh_name);
        if (n && !strcmp(n, name)) {
            if (out) *out = sh;
            return elf_ndxscn(scn);
        }
    }
    return 0;
}

/* Symbol by name from .symtab; 0 if found. */
static inline int mod_elf_symbol(mod_elf *m, const char *name, GElf_Sym *out)
{
    Elf_Scn *scn = NULL;
    memset(out, 0, sizeof *out);
    while ((scn = elf_nextscn(m->elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB) continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t n = d ? d->d_size / sizeof(Elf32_Sym) : 0;
        for (size_t i = 1; i < n; i++) {
            GElf_Sym s;
            if (!gelf_getsym(d, (int)i, &s)) continue;
            const char *sn = elf_strptr(m->elf, sh.sh_link, s.st_name);
            if (sn && !strcmp(sn, name)) { *out = s; return 0; }
        }
    }
    return -1;
}
#endif
