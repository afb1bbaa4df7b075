/* Malformed modules: truncations, byte flips, corrupted header fields and
 * hand-made defects of real modules. ws_elf_parse must either succeed with
 * a consistent image or return -1 with a message that starts with the
 * file name; it must never crash or leak (the sanitizer build runs this
 * too). Deterministic: a fixed-seed generator drives the random parts.
 *
 * usage: test_module_malformed TINY_G0.elf TINY_G.elf MAIN.elf  */
#include <time.h>
#include "module_check.h"
#include "module_util.h"
#include "runtime/elf_image.h"
#include "test.h"
#include "warpscope/abi.h"

#define NAME "mal.elf"

static unsigned n_ok, n_err, n_bad;

static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static void wr16(uint8_t *p, uint32_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static void wr32(uint8_t *p, uint32_t v) { for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i)); }

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static void violation(const char *label, const char *what, const char *detail)
{
    if (n_bad++ < 20) fprintf(stderr, "%s: %s%s%s\n", label, what, detail ? ": " : "", detail ? detail : "");
}

static void check_image(const ws_elf_image *img, const char *label)
{
    n_bad += mod_check_image(img, label, n_bad < 20);
}

/* Parse; on success also relocate to two bases (a fresh parse for each, as
 * ws_elf_relocate may be called once). Returns the parse result. */
static int try_parse(const uint8_t *buf, size_t len, const char *label, char *err_out, size_t err_len)
{
    char err[512];
    memset(err, 0x55, sizeof err);
    ws_elf_image img;
    int r = ws_elf_parse(buf, len, NAME, &img, err, sizeof err);
    if (err_out) snprintf(err_out, err_len, "%s", r ? err : "");
    if (r == -1) {
        n_err++;
        if (!memchr(err, 0, sizeof err)) return violation(label, "unterminated message", NULL), r;
        if (strncmp(err, NAME ": ", strlen(NAME) + 2) || strlen(err) <= strlen(NAME) + 2)
            violation(label, "message does not start with the file name", err);
        if (img.bytes || img.writable || img.kernels || img.relocs || img.nkernels || img.nrelocs)
            violation(label, "image not cleared after an error", NULL);
        return r;
    }
    if (r != 0) return violation(label, "result neither 0 nor -1", NULL), r;
    n_ok++;
    check_image(&img, label);
    static const uint32_t bases[2] = { 0x02345800u, 0xBFF00000u };
    for (int b = 0; b < 2; b++) {
        if (b && ws_elf_parse(buf, len, NAME, &img, err, sizeof err)) { violation(label, "second parse failed", err); return r; }
        char rerr[256];
        if (ws_elf_relocate(&img, bases[b], rerr, sizeof rerr) == 0) {
            if (img.link_base != bases[b]) violation(label, "link_base not moved", NULL);
        }
        ws_elf_free(&img);
    }
    return r;
}

/* ---- raw access to the structures of a clean module ---- */
typedef struct raw { uint8_t *d; size_t n; } raw;

static uint32_t shoff(const raw *m) { return rd32(m->d + 32); }
static uint32_t phoff(const raw *m) { return rd32(m->d + 28); }
static unsigned shnum(const raw *m) { return rd16(m->d + 48); }
static unsigned phnum(const raw *m) { return rd16(m->d + 44); }
static uint8_t *shdr(const raw *m, unsigned i) { return m->d + shoff(m) + 40u * i; }
static uint8_t *phdr(const raw *m, unsigned i) { return m->d + phoff(m) + 32u * i; }

static int section_index(const raw *m, const char *name)
{
    const uint8_t *strs = m->d + rd32(shdr(m, rd16(m->d + 50)) + 16);
    for (unsigned i = 0; i < shnum(m); i++)
        if (!strcmp((const char *)strs + rd32(shdr(m, i)), name)) return (int)i;
    return -1;
}

static uint8_t *symbol(const raw *m, const char *name)
{
    uint8_t *sh = shdr(m, (unsigned)section_index(m, ".symtab"));
    const char *strs = (const char *)m->d + rd32(shdr(m, rd32(sh + 24)) + 16);
    for (uint32_t off = 16; off < rd32(sh + 20); off += 16) {
        uint8_t *s = m->d + rd32(sh + 16) + off;
        if (!strcmp(strs + rd32(s), name)) return s;
    }
    return NULL;
}

static int load_raw(const char *path, raw *m)
{
    m->d = mod_read_file(path, &m->n);
    if (!m->d) return -1;
    ws_elf_image img;
    char err[512];
    if (ws_elf_parse(m->d, m->n, path, &img, err, sizeof err)) {
        fprintf(stderr, "clean module does not parse: %s\n", err);
        free(m->d);
        return -1;
    }
    ws_elf_free(&img);
    return 0;
}

/* ---- truncation ---- */
/* Every prefix below all_below, every step-th, those within window bytes of
 * a section or segment boundary, and every table_step-th that ends in the
 * section header table. */
static void prefixes(const raw *m, const char *what, size_t all_below, size_t step, size_t window, size_t table_step)
{
    unsigned before = n_bad, count = 0;
    char label[64];
    /* Each prefix ends where its buffer ends, so overreads are caught, and
     * starts 8-aligned: eight buffers, of sizes that are 0..7 mod 8, reused
     * (a fresh 600 KB allocation per prefix cost ASan milliseconds each). */
    size_t size8 = (m->n + 7) & ~(size_t)7;
    uint8_t *ends[8] = { 0 };
    int ok = 1;
    for (int r = 0; r < 8; r++) ok &= (ends[r] = malloc(size8 + (size_t)r)) != NULL;
    for (size_t len = 0; ok && len < m->n; len++) {
        int pick = len < all_below || len % step == 0;
        /* near every section and segment boundary */
        for (unsigned i = 0; !pick && i < shnum(m); i++) {
            size_t o = rd32(shdr(m, i) + 16), e = o + rd32(shdr(m, i) + 20);
            pick = (len + window >= o && len <= o + window) || (len + window >= e && len <= e + window);
        }
        for (unsigned i = 0; !pick && i < phnum(m); i++) {
            size_t o = rd32(phdr(m, i) + 4), e = o + rd32(phdr(m, i) + 16);
            pick = (len + window >= o && len <= o + window) || (len + window >= e && len <= e + window);
        }
        if (!pick && len + 64 < shoff(m)) continue;
        if (!pick && len >= shoff(m) + 40u * shnum(m)) continue;
        if (!pick && len % table_step) continue;
        snprintf(label, sizeof label, "%s prefix %zu", what, len);
        size_t r = len % 8;
        uint8_t *p = ends[r] + size8 + r - len;
        memcpy(p, m->d, len);
        try_parse(p, len, label, NULL, 0);
        count++;
    }
    for (int r = 0; r < 8; r++) free(ends[r]);
    CHECK(ok);
    printf("%s: %u prefixes\n", what, count);
    CHECK_EQ_U(n_bad - before, 0);
}

/* ---- byte flips ---- */
static void flip_range(const raw *m, const char *what, size_t from, size_t to, size_t stride, const uint8_t *masks,
                       int nmasks)
{
    char label[96];
    uint8_t *c = malloc(m->n);
    if (!c) return;
    memcpy(c, m->d, m->n);
    for (size_t i = from; i < to && i < m->n; i += stride)
        for (int k = 0; k < nmasks; k++) {
            c[i] ^= masks[k];
            snprintf(label, sizeof label, "%s: byte 0x%zx ^ 0x%02x", what, i, masks[k]);
            try_parse(c, m->n, label, NULL, 0);
            c[i] ^= masks[k];
        }
    free(c);
}

/* Every stride-th byte of the section headers (all of the ELF and program
 * headers). */
static void header_flips(const raw *m, const char *what, int all_bits, size_t stride)
{
    static const uint8_t all[] = { 0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40, 0x80, 0xFF }, few[] = { 0x01, 0x80, 0xFF };
    const uint8_t *masks = all_bits ? all : few;
    int n = all_bits ? 9 : 3;
    unsigned before = n_bad;
    flip_range(m, what, 0, 52, 1, masks, n);
    flip_range(m, what, phoff(m), phoff(m) + 32u * phnum(m), 1, masks, n);
    flip_range(m, what, shoff(m), shoff(m) + 40u * shnum(m), stride, masks, n);
    CHECK_EQ_U(n_bad - before, 0);
}

/* Every byte of a (small) file, and random multi-byte damage. */
static void whole_file_flips(const raw *m, const char *what, unsigned random_rounds)
{
    static const uint8_t masks[] = { 0xFF, 0x80 };
    unsigned before = n_bad;
    flip_range(m, what, 0, m->n, 1, masks, 2);
    uint8_t *c = malloc(m->n);
    char label[96];
    for (unsigned round = 0; c && round < random_rounds; round++) {
        memcpy(c, m->d, m->n);
        unsigned k = 1 + rnd() % 8;
        for (unsigned j = 0; j < k; j++) c[rnd() % m->n] = (uint8_t)rnd();
        snprintf(label, sizeof label, "%s: random damage round %u", what, round);
        try_parse(c, m->n, label, NULL, 0);
    }
    free(c);
    CHECK_EQ_U(n_bad - before, 0);
}

/* Flips inside the named (debug) sections only. */
static void section_flips(const raw *m, const char *what, const char *const *names, unsigned samples)
{
    unsigned before = n_bad;
    uint8_t *c = malloc(m->n);
    char label[128];
    for (const char *const *nm = names; c && *nm; nm++) {
        int idx = section_index(m, *nm);
        if (idx < 0) continue;
        uint32_t off = rd32(shdr(m, (unsigned)idx) + 16), size = rd32(shdr(m, (unsigned)idx) + 20);
        if (!size) continue;
        for (unsigned s = 0; s < samples; s++) {
            memcpy(c, m->d, m->n);
            uint32_t at = samples >= size ? s % size : rnd() % size;
            uint8_t v = (uint8_t)(s & 1 ? rnd() : c[off + at] ^ (1u << (s % 8)));
            c[off + at] = v;
            snprintf(label, sizeof label, "%s: %s+0x%x = 0x%02x", what, *nm, at, v);
            try_parse(c, m->n, label, NULL, 0);
        }
    }
    free(c);
    CHECK_EQ_U(n_bad - before, 0);
}

/* ---- random field corruption of the ELF, program and section headers ---- */
static uint32_t interesting(const raw *m, uint32_t old)
{
    const uint32_t vals[] = { 0, 1, 2, 3, 4, 7, 8, 12, 16, 40, 0x7f, 0x80, 0xff, 0x100, 0xfff, 0x1000, 0xffff,
                              (uint32_t)m->n - 1, (uint32_t)m->n, (uint32_t)m->n + 1, 0x7fffffff, 0x80000000u,
                              0xfffffff0u, 0xffffffffu, 0x01000000u, 0x00ffffffu, 0xbffff000u, 0xd0000000u,
                              old + 1, old - 1, old + 4, old - 4, old ^ 0x80000000u, old * 2, rnd() };
    return vals[rnd() % (sizeof vals / sizeof *vals)];
}

static void field_corruption(const raw *m, const char *what, unsigned rounds)
{
    unsigned before = n_bad;
    uint8_t *c = malloc(m->n);
    char label[128];
    /* the 32-bit fields of each header; 16-bit ELF header fields separately */
    static const unsigned eh32[] = { 24, 28, 32, 36 }, eh16[] = { 16, 18, 40, 42, 44, 46, 48, 50 };
    for (unsigned round = 0; c && round < rounds; round++) {
        memcpy(c, m->d, m->n);
        raw cm = { c, m->n };
        unsigned changes = 1 + rnd() % 3;
        int at = 0;
        for (unsigned j = 0; j < changes; j++) {
            unsigned kind = rnd() % 8;
            if (kind == 0) {
                at += snprintf(label + at, sizeof label - (size_t)at, " ehdr");
                if (rnd() & 1) {
                    unsigned f = eh32[rnd() % 4];
                    wr32(c + f, interesting(&cm, rd32(m->d + f)));
                } else {
                    unsigned f = eh16[rnd() % 8];
                    wr16(c + f, interesting(&cm, rd16(m->d + f)));
                }
            } else if (kind <= 2) {
                unsigned i = rnd() % phnum(m), f = 4 * (rnd() % 8);
                wr32(phdr(m, i) - m->d + c + f, interesting(&cm, rd32(phdr(m, i) + f)));
                at += snprintf(label + at, sizeof label - (size_t)at, " ph%u+%u", i, f);
            } else {
                unsigned i = rnd() % shnum(m), f = 4 * (rnd() % 10);
                wr32(shdr(m, i) - m->d + c + f, interesting(&cm, rd32(shdr(m, i) + f)));
                at += snprintf(label + at, sizeof label - (size_t)at, " sh%u+%u", i, f);
            }
            if (at >= (int)sizeof label - 16) at = 0;
        }
        char full[192];
        snprintf(full, sizeof full, "%s round %u:%s", what, round, label);
        try_parse(c, m->n, full, NULL, 0);
    }
    free(c);
    CHECK_EQ_U(n_bad - before, 0);
}

/* ---- hand-made defects with the expected message ---- */
typedef void (*damage_fn)(raw *m);
static void expect(const raw *clean, const char *what, damage_fn damage, const char *needle)
{
    raw m = { malloc(clean->n), clean->n };
    if (!m.d) return;
    memcpy(m.d, clean->d, clean->n);
    damage(&m);
    char err[512];
    int r = try_parse(m.d, m.n, what, err, sizeof err);
    CHECK(r == -1);
    if (r == -1 && needle) {
        if (!strstr(err, needle)) fprintf(stderr, "%s: expected \"%s\" in \"%s\"\n", what, needle, err);
        CHECK_STR_CONTAINS(err, needle);
    }
    if (r == -1) printf("  %-34s -> %s\n", what, err);
    free(m.d);
}

static uint8_t *sec(raw *m, const char *name) { return shdr(m, (unsigned)section_index(m, name)); }
static uint8_t *rela0(raw *m, const char *name) { return m->d + rd32(sec(m, name) + 16); }

static void d_magic(raw *m) { m->d[1] = 'F'; }
static void d_class(raw *m) { m->d[4] = 2; }
static void d_endian(raw *m) { m->d[5] = 2; }
static void d_machine(raw *m) { wr16(m->d + 18, 62); }
static void d_type(raw *m) { wr16(m->d + 16, 1); }
static void d_phoff(raw *m) { wr32(m->d + 28, (uint32_t)m->n - 8); }
static void d_shoff(raw *m) { wr32(m->d + 32, (uint32_t)m->n - 8); }
static void d_phnum0(raw *m) { wr16(m->d + 44, 0); }
static void d_seg_offset(raw *m) { wr32(phdr(m, 0) + 4, (uint32_t)m->n); }
static void d_seg_huge_file(raw *m) { wr32(phdr(m, 0) + 16, 0x7fffffff); wr32(phdr(m, 0) + 20, 0x7fffffff); }
static void d_seg_filesz(raw *m) { wr32(phdr(m, 0) + 16, rd32(phdr(m, 0) + 20) + 1); }
static void d_seg_area(raw *m) { wr32(phdr(m, 1) + 20, 0xF0000000u); }
static void d_seg_low(raw *m) { wr32(phdr(m, 0) + 8, 0x00010000u); }
static void d_seg_span(raw *m) { wr32(phdr(m, 1) + 20, 0x20000000u); }
static void d_seg_overlap(raw *m) { wr32(phdr(m, 1) + 8, rd32(phdr(m, 0) + 8) + 4); }
static void d_seg_noexec(raw *m) { wr32(phdr(m, 0) + 24, 4); }
static void d_sec_offset(raw *m) { wr32(sec(m, ".ws_kernels") + 16, (uint32_t)m->n); }
static void d_sec_huge(raw *m) { wr32(sec(m, ".symtab") + 20, 0xfffffff0u); }
static void d_sym_entsize(raw *m) { wr32(sec(m, ".symtab") + 36, 12); }
static void d_sym_size(raw *m) { wr32(sec(m, ".symtab") + 20, rd32(sec(m, ".symtab") + 20) - 3); }
static void d_sym_link(raw *m) { wr32(sec(m, ".symtab") + 24, 999); }
static void d_sym_type(raw *m) { wr32(sec(m, ".symtab") + 4, 1); }
static void d_rela_info(raw *m) { wr32(sec(m, ".rela.data") + 28, 999); }
static void d_rela_entsize(raw *m) { wr32(sec(m, ".rela.ws_kernels") + 36, 8); }
static void d_rela_size(raw *m) { wr32(sec(m, ".rela.data") + 20, rd32(sec(m, ".rela.data") + 20) - 4); }
static void d_shstrndx_symtab(raw *m)
{   /* point e_shstrndx at the symbol table: a section, but no string table */
    uint32_t shoff = rd32(m->d + 32);
    uint16_t n = (uint16_t)((sec(m, ".symtab") - (m->d + shoff)) / 40);
    wr16(m->d + 50, n);
}
static void d_shstrndx_range(raw *m) { wr16(m->d + 50, 200); }
static void d_rel_type(raw *m) { wr32(sec(m, ".rela.data") + 4, 9); }
static void d_rela_place(raw *m) { wr32(rela0(m, ".rela.data"), 0x00100000u); }
static void d_rela_place_end(raw *m)
{
    uint32_t seg = rd32(phdr(m, 1) + 8);
    wr32(rela0(m, ".rela.data"), ((seg + rd32(phdr(m, 1) + 20) + 4095) & ~4095u) - 2);
}
static void d_rela_sym(raw *m) { uint8_t *r = rela0(m, ".rela.data"); wr32(r + 4, (rd32(r + 4) & 0xFF) | 0xFFFFFF00u); }
static void d_rela_type(raw *m) { uint8_t *r = rela0(m, ".rela.data"); r[4] = 200; }
static void d_kernel_entry(raw *m) { wr32(symbol(m, "small") + 4, rd32(phdr(m, 1) + 8)); }
static void d_kernel_name(raw *m) { wr32(symbol(m, "small") + 0, 0x7fffffff); }
static void d_shared_size(raw *m) { wr32(sec(m, ".ws_shared") + 20, 0x20000000u); }

static void hand_made(const raw *m)
{
    printf("hand-made defects:\n");
    expect(m, "bad magic", d_magic, "bad magic");
    expect(m, "64-bit class", d_class, "not 32-bit");
    expect(m, "big-endian", d_endian, "not little-endian");
    expect(m, "x86-64 machine", d_machine, "not RISC-V");
    expect(m, "relocatable object", d_type, "not an executable");
    /* text, rodata, data and the thread-local template (PT_TLS, empty here) */
    expect(m, "program headers past EOF", d_phoff, "program header table (4 entries of 32 bytes");
    expect(m, "section headers past EOF", d_shoff, "section header table (12 entries of 40 bytes");
    expect(m, "no program headers", d_phnum0, "no loadable segments");
    expect(m, "segment offset past EOF", d_seg_offset, "extends past end of file");
    expect(m, "huge segment", d_seg_huge_file, "extends past end of file");
    expect(m, "file size > memory size", d_seg_filesz, "exceeds memory size");
    expect(m, "segment past the module area", d_seg_area, "outside the module area");
    expect(m, "segment in the null guard", d_seg_low, "outside the module area");
    expect(m, "span over 256 MiB", d_seg_span, "larger than 256 MiB");
    expect(m, "overlapping segments", d_seg_overlap, "overlap");
    expect(m, "no executable segment", d_seg_noexec, "no executable segment");
    expect(m, "section offset past EOF", d_sec_offset, "extends past end of file");
    expect(m, "huge section size", d_sec_huge, "extends past end of file");
    expect(m, "symbol entry size", d_sym_entsize, "malformed symbol table");
    expect(m, "symbol table size", d_sym_size, "malformed symbol table");
    expect(m, "symtab sh_link out of range", d_sym_link, "bad name");
    expect(m, "no symbol table", d_sym_type, "no symbol table");
    expect(m, "rela sh_info out of range", d_rela_info, "targets bad section 999");
    expect(m, "rela entry size", d_rela_entsize, "bad relocation entry size");
    expect(m, "rela size not a multiple of the entry", d_rela_size, "not a multiple of the entry size");
    expect(m, "e_shstrndx names the symbol table", d_shstrndx_symtab, "does not name a string table");
    expect(m, "e_shstrndx out of range", d_shstrndx_range, "does not name a string table");
    expect(m, "REL section", d_rel_type, "REL relocations are not supported");
    expect(m, "relocation below the image", d_rela_place, "outside the image");
    expect(m, "relocation across the end", d_rela_place_end, "outside the image");
    expect(m, "relocation symbol index", d_rela_sym, "bad symbol index");
    expect(m, "relocation type", d_rela_type, "unsupported relocation type 200");
    expect(m, "kernel entry in data", d_kernel_entry, "outside the code segment");
    expect(m, "kernel name offset", d_kernel_name, "bad name");
    expect(m, "shared section too large", d_shared_size, "too large");
}

/* A base type whose DW_AT_name is empty: spelled "?", never "" (the
 * spelling of a pointer to it looked at the character before an empty
 * string). */
static void empty_type_name(const raw *clean)
{
    raw m = { malloc(clean->n), clean->n };
    if (!m.d) return;
    memcpy(m.d, clean->d, clean->n);
    int idx = section_index(&m, ".debug_str");
    CHECK(idx >= 0);
    if (idx >= 0) {
        uint8_t *s = m.d + rd32(shdr(&m, (unsigned)idx) + 16);
        uint32_t n = rd32(shdr(&m, (unsigned)idx) + 20), hits = 0;
        for (uint32_t i = 0; i + 5 <= n; i++)
            if (s[i] == 0 && !memcmp(s + i + 1, "int", 4)) { s[i + 1] = 0; hits++; }
        CHECK(hits > 0);
        ws_elf_image img;
        char err[256];
        CHECK(ws_elf_parse(m.d, m.n, NAME, &img, err, sizeof err) == 0);
        const ws_elf_kernel *k = ws_elf_find_kernel(&img, "small");
        CHECK(k && k->nparams == 2);
        if (k && k->nparams == 2) {
            CHECK(!strcmp(k->params[0].type_name, "? *"));
            CHECK(!strcmp(k->params[1].type_name, "?"));
            CHECK(k->params[1].kind == WS_PARAM_I32);
        }
        check_image(&img, "empty type name");
        ws_elf_free(&img);
    }
    free(m.d);
}

/* A synthetic module with a huge symbol table: n kernels, each listed
 * twice (global, then weak at another address). The first of each name
 * wins, and parsing stays fast (the duplicate check was quadratic). */
static void many_kernels(uint32_t n)
{
    const uint32_t code_off = 0x1000, code_size = 0x1000, base = WS_MODULE_LINK_BASE;
    static const char shstr[] = "\0.ws_kernels\0.symtab\0.strtab\0.shstrtab";
    uint32_t nsyms = 1 + 2 * n, sym_off = code_off + code_size, str_off = sym_off + 16 * nsyms;
    uint32_t str_size = 1 + 9 * n, shs_off = str_off + str_size, sh_off = (shs_off + (uint32_t)sizeof shstr + 3) & ~3u;
    size_t size = sh_off + 5 * 40;
    uint8_t *f = calloc(1, size);
    CHECK(f != NULL);
    if (!f) return;
    memcpy(f, "\177ELF\1\1\1", 7);
    wr16(f + 16, 2), wr16(f + 18, 243), wr32(f + 20, 1), wr32(f + 28, 52), wr32(f + 32, sh_off);
    wr16(f + 40, 52), wr16(f + 42, 32), wr16(f + 44, 1), wr16(f + 46, 40), wr16(f + 48, 5), wr16(f + 50, 4);
    uint8_t *ph = f + 52;
    wr32(ph, 1), wr32(ph + 4, code_off), wr32(ph + 8, base), wr32(ph + 12, base);
    wr32(ph + 16, code_size), wr32(ph + 20, code_size), wr32(ph + 24, 5), wr32(ph + 28, 0x1000);
    for (uint32_t i = 0; i < n; i++) {
        char *name = (char *)f + str_off + 1 + 9 * i;
        snprintf(name, 9, "k%07u", (unsigned)(i % 10000000u)); /* i < n <= 10^7: always 8 chars */
        for (uint32_t dup = 0; dup < 2; dup++) {
            uint8_t *s = f + sym_off + 16 * (1 + 2 * i + dup);
            wr32(s, 1 + 9 * i), wr32(s + 4, base + (i % 512) * 4 + dup * 0x800), wr32(s + 8, 4);
            s[12] = dup ? 0x22 : 0x12; /* STB_WEAK / STB_GLOBAL, STT_FUNC */
            wr16(s + 14, 1);
        }
    }
    memcpy(f + shs_off, shstr, sizeof shstr);
    const uint32_t sh[5][10] = {
        { 0 },
        { 1, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, base, code_off, code_size, 0, 0, 4, 0 },
        { 13, SHT_SYMTAB, 0, 0, sym_off, 16 * nsyms, 3, 1, 4, 16 },
        { 21, SHT_STRTAB, 0, 0, str_off, str_size, 0, 0, 1, 0 },
        { 29, SHT_STRTAB, 0, 0, shs_off, (uint32_t)sizeof shstr, 0, 0, 1, 0 },
    };
    for (int i = 0; i < 5; i++)
        for (int j = 0; j < 10; j++) wr32(f + sh_off + 40 * i + 4 * j, sh[i][j]);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ws_elf_image img;
    char err[256];
    int r = ws_elf_parse(f, size, NAME, &img, err, sizeof err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%u kernels listed twice (%zu-byte file): parsed in %.3f s\n", (unsigned)n, size, secs);
    if (r) fprintf(stderr, "%s\n", err);
    CHECK(r == 0);
    if (!r) {
        CHECK_EQ_U(img.nkernels, n);
        uint32_t wrong = 0;
        for (uint32_t i = 0; i < img.nkernels; i++) {
            char want[16];
            snprintf(want, sizeof want, "k%07u", (unsigned)i);
            wrong += strcmp(img.kernels[i].name, want) || img.kernels[i].entry != base + (i % 512) * 4;
        }
        CHECK_EQ_U(wrong, 0);
        CHECK(ws_elf_find_kernel(&img, "k0000007") && ws_elf_find_kernel(&img, "k0000007")->entry == base + 28);
        ws_elf_free(&img);
    }
    CHECK(secs < 20.0); /* quadratic checking took minutes at this size */
    free(f);
}

/* Under AddressSanitizer every parse costs about ten times as much, and the
 * 600 KB module's most (each parse maps and faults in fresh copies of it):
 * the sanitizer build (scripts/test.sh) runs a quarter of the random rounds,
 * every third prefix of the -g module, three bit masks instead of nine on
 * the small modules' headers, and of the big module a sixteenth of the
 * debug-section samples and prefixes (near boundaries: 2 bytes, not 16;
 * into its section header table: every fourth), and every 29th byte of its
 * section headers; the plain build runs all of them. */
#if defined(WS_ASAN_BUILD)
#define SAN_SCALE 4u
#define BIG_SCALE 4u
#else
#define SAN_SCALE 1u
#define BIG_SCALE 1u
#endif

/* Each phase with its host time, so the slow ones are easy to find. */
#define PHASE(call)                                                                        \
    do {                                                                                   \
        struct timespec p0_, p1_;                                                          \
        clock_gettime(CLOCK_MONOTONIC, &p0_);                                              \
        call;                                                                              \
        clock_gettime(CLOCK_MONOTONIC, &p1_);                                              \
        printf("%-60s %.2f s\n", #call,                                                   \
               (double)(p1_.tv_sec - p0_.tv_sec) + 1e-9 * (double)(p1_.tv_nsec - p0_.tv_nsec)); \
    } while (0)

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s TINY_G0.elf TINY_G.elf MAIN.elf\n", argv[0]);
        return 2;
    }
    raw tiny, tiny_g, big;
    if (load_raw(argv[1], &tiny) || load_raw(argv[2], &tiny_g) || load_raw(argv[3], &big)) {
        CHECK(0);
        return TEST_SUMMARY();
    }
    static const char *const debug[] = { ".debug_info", ".debug_abbrev", ".debug_str", ".debug_str_offsets",
                                          ".debug_line", ".debug_line_str", ".debug_addr", ".debug_loclists",
                                          ".debug_rnglists", ".debug_aranges", NULL };

    PHASE(hand_made(&tiny));
    PHASE(empty_type_name(&tiny_g));
    PHASE(many_kernels(200000));

    PHASE(prefixes(&tiny, "tiny -g0", SIZE_MAX, 1, 16, 1));
    PHASE(prefixes(&tiny_g, "tiny -g", SAN_SCALE == 1 ? SIZE_MAX : 1024, 3, 16, 1));
    PHASE(prefixes(&big, "main", 4096 / (SAN_SCALE * BIG_SCALE), 1021 * BIG_SCALE, SAN_SCALE == 1 ? 16 : 2, BIG_SCALE));

    PHASE(header_flips(&tiny, "tiny -g0", SAN_SCALE == 1, 1));
    PHASE(header_flips(&tiny_g, "tiny -g", SAN_SCALE == 1, 1));
    PHASE(header_flips(&big, "main", 0, SAN_SCALE == 1 ? 1 : 29));
    PHASE(whole_file_flips(&tiny, "tiny -g0", 3000 / SAN_SCALE));
    PHASE(field_corruption(&tiny, "tiny -g0", 6000 / SAN_SCALE));
    PHASE(field_corruption(&tiny_g, "tiny -g", 4000 / SAN_SCALE));
    PHASE(field_corruption(&big, "main", 600 / SAN_SCALE));
    PHASE(section_flips(&tiny_g, "tiny -g", debug, 600 / SAN_SCALE));
    PHASE(section_flips(&big, "main", debug, 150 / (SAN_SCALE * BIG_SCALE)));

    printf("%u parses: %u accepted, %u rejected with a message, %u violations\n", n_ok + n_err, n_ok, n_err, n_bad);
    CHECK_EQ_U(n_bad, 0);
    CHECK(n_ok > 0 && n_err > 0);
    free(tiny.d);
    free(tiny_g.d);
    free(big.d);
    return TEST_SUMMARY();
}
