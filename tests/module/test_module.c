/* ws_elf_parse on real modules built by `warpscope cc` (mod_other.c,
 * mod_kernels.c, mod_other2.c): kernels, parameters, source positions,
 * shared memory, the loadable span and its writable map, relocations.
 * Everything the parser reports is cross-checked against libelf.
 *
 * usage: test_module MAIN.elf NODWARF.elf SRCDIR BAD.elf...  */
#include "module_util.h"
#include "runtime/elf_image.h"
#include "test.h"
#include "warpscope/abi.h"

typedef struct expect_param { const char *name, *type; ws_param_kind kind; } expect_param;
typedef struct expect_kernel {
    const char *name, *file;
    unsigned nparams;
    expect_param p[6];
} expect_kernel;

#define P(n, t, k) { n, t, WS_PARAM_##k }
static const expect_kernel kernels[] = {
    { "k_calls_other", "mod_other.c", 3, { P("in", "const int *", PTR), P("n", "int", I32), P("out", "int *", PTR) } },
    { "k_other", "mod_other2.c", 3, { P("in", "const int *", PTR), P("n", "int", I32), P("out", "int *", PTR) } },
    { "k_int", "mod_kernels.c", 2, { P("n", "int", I32), P("out", "int *", PTR) } },
    { "k_unsigned", "mod_kernels.c", 4,
      { P("u", "unsigned int", U32), P("h", "unsigned short", U16), P("s", "short", I16),
        P("out", "unsigned int *", PTR) } },
    { "k_float", "mod_kernels.c", 2, { P("f", "float", F32), P("out", "float *", PTR) } },
    { "k_pointers", "mod_kernels.c", 5,
      { P("dst", "float *", PTR), P("src", "const float *", PTR), P("idx", "const int * restrict", PTR),
        P("opaque", "void *", PTR), P("pp", "float **", PTR) } },
    { "k_typedefs", "mod_kernels.c", 6,
      { P("n", "count_t", U32), P("buf", "fbuf_t", PTR), P("big", "int64_t", I64), P("ubig", "uint64_t", U64),
        P("byte", "uint8_t", U8), P("sbyte", "int8_t", I8) } },
    { "k_wide", "mod_kernels.c", 6,
      { P("ll", "long long", I64), P("d", "double", F64), P("ull", "unsigned long long", U64),
        P("l", "long", I32), P("ul", "unsigned long", U32), P("out", "long *", PTR) } },
    /* plain char is unsigned on RISC-V */
    { "k_chars", "mod_kernels.c", 6,
      { P("c", "char", U8), P("sc", "signed char", I8), P("uc", "unsigned char", U8), P("b", "_Bool", U8),
        P("b2", "_Bool", U8), P("out", "char *", PTR) } },
    /* enum colour has no negative enumerator (unsigned int), enum delta has one (int) */
    { "k_enums", "mod_kernels.c", 3,
      { P("c", "enum colour", U32), P("d", "enum delta", I32), P("out", "int *", PTR) } },
    { "k_noparams", "mod_kernels.c", 0, { { 0 } } },
    { "k_addresses", "mod_kernels.c", 2, { P("i", "int", I32), P("out", "int *", PTR) } },
    { "k_shared", "mod_kernels.c", 1, { P("v", "float *", PTR) } },
    { "k_format", "mod_kernels.c", 3, { P("out", "char *", PTR), P("value", "int", I32), P("f", "float", F32) } },
    { "k_funcptrs", "mod_kernels.c", 5,
      { P("cb", "int (*)(int, float)", PTR), P("done", "void (*)(void)", PTR),
        P("fmt", "int (*)(const char *, ...)", PTR), P("v", "visit_fn", PTR), P("out", "int *", PTR) } },
};
#define NKERNELS (sizeof kernels / sizeof *kernels)
/* float tile[64] + int counts[32] (mod_kernels.c) + int other_shared[16] (mod_other.c) */
#define SHARED_BYTES (64 * 4 + 32 * 4 + 16 * 4)

static const char *srcdir;

static int parse_file(const char *path, ws_elf_image *img, char *err, size_t errlen)
{
    size_t len;
    uint8_t *data = mod_read_file(path, &len);
    if (!data) { snprintf(err, errlen, "cannot read %s", path); return -1; }
    int r = ws_elf_parse(data, len, path, img, err, errlen);
    free(data);
    return r;
}

/* Line of "WS_KERNEL void NAME(" in SRCDIR/FILE, or 0. */
static unsigned source_line(const char *file, const char *name)
{
    char path[1024], want[128], line[512];
    snprintf(path, sizeof path, "%s/%s", srcdir, file);
    snprintf(want, sizeof want, "WS_KERNEL void %s(", name);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    unsigned n = 0, found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        n++;
        if (strstr(line, want)) found = n;
    }
    fclose(f);
    return found;
}

static int ends_with(const char *s, const char *suffix)
{
    size_t a = strlen(s), b = strlen(suffix);
    return a >= b && !strcmp(s + a - b, suffix);
}

static void check_kernels(const ws_elf_image *img, mod_elf *m)
{
    GElf_Shdr ksh;
    size_t kidx = mod_elf_section(m, WS_KERNEL_SECTION, &ksh);
    CHECK(kidx != 0);
    CHECK_EQ_U(img->nkernels, NKERNELS);
    for (size_t i = 0; i < NKERNELS; i++) {
        const expect_kernel *e = &kernels[i];
        const ws_elf_kernel *k = ws_elf_find_kernel(img, e->name);
        CHECK(k != NULL);
        if (!k) { fprintf(stderr, "  kernel %s missing\n", e->name); continue; }
        GElf_Sym sym;
        CHECK(mod_elf_symbol(m, e->name, &sym) == 0);
        CHECK_EQ_U(k->entry, sym.st_value);
        CHECK_EQ_U(k->size, sym.st_size);
        CHECK_EQ_U(sym.st_shndx, kidx);
        CHECK(k->entry >= ksh.sh_addr && k->entry < ksh.sh_addr + ksh.sh_size);
        CHECK(k->entry >= img->text_start && k->entry < img->text_end);
        CHECK(k->has_params == 1);
        CHECK_EQ_U(k->nparams, e->nparams);
        for (unsigned p = 0; p < e->nparams && p < k->nparams; p++) {
            const ws_elf_param *q = &k->params[p];
            if (strcmp(q->name, e->p[p].name) || strcmp(q->type_name, e->p[p].type) || q->kind != e->p[p].kind) {
                ws_test_failed++;
                fprintf(stderr, "%s parameter %u: got %s '%s' (%s), expected %s '%s' (%s)\n", e->name, p, q->name,
                        q->type_name, ws_param_kind_name(q->kind), e->p[p].name, e->p[p].type,
                        ws_param_kind_name(e->p[p].kind));
            } else {
                ws_test_passed++;
            }
        }
        /* the definition, not a call-site declaration in another file */
        CHECK(k->decl_file != NULL);
        if (k->decl_file) {
            if (!ends_with(k->decl_file, e->file)) fprintf(stderr, "%s: decl_file %s\n", e->name, k->decl_file);
            CHECK(ends_with(k->decl_file, e->file));
        }
        unsigned line = source_line(e->file, e->name);
        CHECK(line != 0);
        CHECK_EQ_U(k->decl_line, line);
    }
    /* every global function in .ws_kernels is listed; helpers are not */
    GElf_Sym sym;
    CHECK(mod_elf_symbol(m, "helper_add", &sym) == 0 && sym.st_shndx != kidx);
    CHECK(ws_elf_find_kernel(img, "helper_add") == NULL);
    CHECK(ws_elf_find_kernel(img, "shared_lookup") == NULL);
    CHECK(ws_elf_find_kernel(img, "snprintf") == NULL);
    CHECK(ws_elf_find_kernel(img, "") == NULL);
    for (uint32_t i = 0; i < img->nkernels; i++) {
        int known = 0;
        for (size_t j = 0; j < NKERNELS; j++) known |= !strcmp(img->kernels[i].name, kernels[j].name);
        if (!known) fprintf(stderr, "unexpected kernel %s\n", img->kernels[i].name);
        CHECK(known);
    }
}

/* Span, contents, writable map and code range against the ELF headers. */
static void check_layout(const ws_elf_image *img, mod_elf *m)
{
    CHECK_EQ_U(img->link_base, WS_MODULE_LINK_BASE);
    CHECK(img->size > 0 && img->size % 4096 == 0);
    CHECK_EQ_U(img->shared_static_size, SHARED_BYTES);

    /* the writable map, granule by granule, from the program headers */
    size_t nph = 0;
    CHECK(elf_getphdrnum(m->elf, &nph) == 0);
    uint32_t x_lo = UINT32_MAX, x_hi = 0, bad = 0;
    for (uint32_t g = 0; g < img->size / 8; g++) {
        uint32_t a = img->link_base + g * 8;
        int want = 0;
        for (size_t i = 0; i < nph; i++) {
            GElf_Phdr ph;
            if (!gelf_getphdr(m->elf, (int)i, &ph) || ph.p_type != PT_LOAD || ph.p_vaddr >= WS_SHARED_BASE) continue;
            if ((ph.p_flags & PF_W) && a + 8 > ph.p_vaddr && a < ph.p_vaddr + ph.p_memsz) want = 1;
        }
        bad += img->writable[g] != want;
    }
    CHECK_EQ_U(bad, 0);
    for (size_t i = 0; i < nph; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(m->elf, (int)i, &ph) || ph.p_type != PT_LOAD || !(ph.p_flags & PF_X)) continue;
        if (ph.p_vaddr < x_lo) x_lo = (uint32_t)ph.p_vaddr;
        if (ph.p_vaddr + ph.p_memsz > x_hi) x_hi = (uint32_t)(ph.p_vaddr + ph.p_memsz);
    }
    CHECK_EQ_U(img->text_start, x_lo);
    CHECK_EQ_U(img->text_end, x_hi);

    /* sections: contents at their addresses; data writable, code and constants not */
    static const struct { const char *name; int writable, code; } secs[] = {
        { ".ws_kernels", 0, 1 }, { ".text", 0, 1 }, { ".rodata", 0, 0 }, { ".eh_frame", 0, 0 },
        { ".data", 1, 0 }, { ".bss", 1, 0 },
    };
    for (size_t s = 0; s < sizeof secs / sizeof *secs; s++) {
        GElf_Shdr sh;
        CHECK(mod_elf_section(m, secs[s].name, &sh) != 0);
        CHECK(sh.sh_size > 0);
        CHECK(sh.sh_addr >= img->link_base && sh.sh_addr + sh.sh_size <= (uint64_t)img->link_base + img->size);
        if (sh.sh_addr < img->link_base || sh.sh_addr + sh.sh_size > (uint64_t)img->link_base + img->size) continue;
        uint32_t off = (uint32_t)(sh.sh_addr - img->link_base), wrong = 0;
        for (uint32_t a = off; a < off + sh.sh_size; a++) wrong += img->writable[a / 8] != secs[s].writable;
        if (wrong) fprintf(stderr, "section %s: %u bytes with the wrong writable bit\n", secs[s].name, wrong);
        CHECK_EQ_U(wrong, 0);
        if (secs[s].code) CHECK(sh.sh_addr >= img->text_start && sh.sh_addr + sh.sh_size <= img->text_end);
        else CHECK(sh.sh_addr >= img->text_end);
        if (sh.sh_type == SHT_NOBITS) {
            uint32_t nonzero = 0;
            for (uint32_t a = off; a < off + sh.sh_size; a++) nonzero += img->bytes[a] != 0;
            CHECK_EQ_U(nonzero, 0);
        } else {
            CHECK(sh.sh_offset + sh.sh_size <= m->size &&
                  !memcmp(img->bytes + off, m->data + sh.sh_offset, sh.sh_size));
        }
    }
}

/* Relocations: the pointer tables and the address-taking code. */
static const struct ws_elf_reloc *reloc_at(const ws_elf_image *img, uint32_t place)
{
    for (uint32_t i = 0; i < img->nrelocs; i++)
        if (img->relocs[i].place == place) return &img->relocs[i];
    return NULL;
}

static void check_relocs(const ws_elf_image *img, mod_elf *m)
{
    unsigned count[64] = { 0 }, outside = 0, shared = 0;
    GElf_Shdr ksh;
    mod_elf_section(m, WS_KERNEL_SECTION, &ksh);
    unsigned kcount[64] = { 0 };
    for (uint32_t i = 0; i < img->nrelocs; i++) {
        const struct ws_elf_reloc *r = &img->relocs[i];
        if (r->type < 64) count[r->type]++;
        if (r->place < img->link_base || r->place + 4 > img->link_base + img->size) outside++;
        if (r->value >= WS_SHARED_BASE && r->value < WS_SHARED_END) shared++;
        if (r->place >= ksh.sh_addr && r->place < ksh.sh_addr + ksh.sh_size && r->type < 64) kcount[r->type]++;
    }
    CHECK_EQ_U(outside, 0);
    CHECK_EQ_U(shared, 0); /* the shared window does not move */
    CHECK_EQ_U(count[1] + count[26] + count[27] + count[28], img->nrelocs); /* only absolute types kept */
    CHECK(count[1] >= 8);  /* R_RISCV_32: pointer tables */
    CHECK(kcount[26] > 0); /* HI20 in kernels */
    CHECK(kcount[27] > 0); /* LO12_I */
    CHECK(kcount[28] > 0); /* LO12_S */
    CHECK(count[26] > kcount[26]); /* and in picolibc's gcc-compiled code */

    /* ptr_table = { table_a, table_b, &table_a[2] } */
    GElf_Sym pt, ta, tb;
    CHECK(mod_elf_symbol(m, "ptr_table", &pt) == 0);
    CHECK(mod_elf_symbol(m, "table_a", &ta) == 0);
    CHECK(mod_elf_symbol(m, "table_b", &tb) == 0);
    const uint32_t want[3] = { (uint32_t)ta.st_value, (uint32_t)tb.st_value, (uint32_t)ta.st_value + 8 };
    for (int i = 0; i < 3; i++) {
        const struct ws_elf_reloc *r = reloc_at(img, (uint32_t)pt.st_value + 4u * (uint32_t)i);
        CHECK(r != NULL);
        if (!r) continue;
        CHECK_EQ_U(r->type, 1);
        CHECK_EQ_U(r->value, want[i]);
        uint32_t stored;
        memcpy(&stored, img->bytes + (r->place - img->link_base), 4);
        CHECK_EQ_U(stored, want[i]);
    }
    /* names[] (const, so in .rodata) points at strings in .rodata */
    GElf_Sym nm;
    CHECK(mod_elf_symbol(m, "names", &nm) == 0);
    GElf_Shdr rosh;
    CHECK(mod_elf_section(m, ".rodata", &rosh) != 0);
    CHECK(nm.st_value >= rosh.sh_addr && nm.st_value < rosh.sh_addr + rosh.sh_size);
    for (int i = 0; i < 3; i++) {
        const struct ws_elf_reloc *r = reloc_at(img, (uint32_t)nm.st_value + 4u * (uint32_t)i);
        CHECK(r != NULL && r->type == 1);
        if (r) CHECK(r->value >= rosh.sh_addr && r->value < rosh.sh_addr + rosh.sh_size);
    }
}

static void check_main(const char *path)
{
    ws_elf_image img;
    char err[512] = "";
    int r = parse_file(path, &img, err, sizeof err);
    if (r) fprintf(stderr, "%s\n", err);
    CHECK(r == 0);
    if (r) return;
    mod_elf m;
    CHECK(mod_elf_open(&m, path) == 0);
    if (m.elf) {
        check_kernels(&img, &m);
        check_layout(&img, &m);
        check_relocs(&img, &m);
    }
    mod_elf_close(&m);
    ws_elf_free(&img);
    CHECK(img.nkernels == 0 && img.bytes == NULL && img.kernels == NULL);
    ws_elf_free(&img); /* freeing twice is harmless: the image was cleared */
}

/* Without DWARF: the same kernels, none with parameter information. */
static void check_nodwarf(const char *path)
{
    ws_elf_image img;
    char err[512] = "";
    int r = parse_file(path, &img, err, sizeof err);
    if (r) fprintf(stderr, "%s\n", err);
    CHECK(r == 0);
    if (r) return;
    CHECK_EQ_U(img.nkernels, NKERNELS);
    for (size_t i = 0; i < NKERNELS; i++) {
        const ws_elf_kernel *k = ws_elf_find_kernel(&img, kernels[i].name);
        CHECK(k != NULL);
        if (!k) continue;
        CHECK(k->has_params == 0);
        CHECK(k->nparams == 0 && k->params == NULL);
        CHECK(k->decl_file == NULL && k->decl_line == 0);
    }
    CHECK_EQ_U(img.shared_static_size, SHARED_BYTES);
    CHECK(img.nrelocs > 0);
    ws_elf_free(&img);
}

/* A struct and a union by value parse (rejected until 2026-11-29): their
 * size, alignment and the integer convention (no float to put in fa
 * registers but the union's, which the convention does not flatten). */
static int check_byval(const char *path)
{
    static const struct { const char *file, *kernel; uint32_t param, size; } want[] = {
        { "bad_byval_struct.elf", "takes_struct", 1, 8 },
        { "bad_byval_union.elf", "takes_union", 0, 4 },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        if (!ends_with(path, want[i].file)) continue;
        ws_elf_image img;
        char err[512] = "";
        CHECK(parse_file(path, &img, err, sizeof err) == 0);
        const ws_elf_kernel *k = NULL;
        for (uint32_t j = 0; j < img.nkernels; j++)
            if (!strcmp(img.kernels[j].name, want[i].kernel)) k = &img.kernels[j];
        CHECK(k != NULL);
        if (k) {
            const ws_elf_param *p = &k->params[want[i].param];
            CHECK(p->kind == WS_PARAM_AGG && p->agg.size == want[i].size && p->agg.align == 4 && !p->agg.fp);
            printf("parsed as expected: %s %s by value, %u bytes\n", want[i].kernel, p->type_name, p->agg.size);
        }
        ws_elf_free(&img);
        return 1;
    }
    return 0;
}

/* Kernels with parameters that cannot be passed are rejected. */
static void check_bad(const char *path)
{
    if (check_byval(path)) return;
    static const struct { const char *file, *needle[3]; } want[] = {
        { "bad_long_double.elf", { "'takes_long_double' parameter 0 'x'", "'long double'", "passed by value" } },
        { "bad_complex.elf", { "'takes_complex' parameter 1 'z'", "'_Complex float'", "passed by value" } },
        { "bad_variadic.elf", { "'takes_varargs'", "variadic", "" } },
        { "bad_medany.elf", { "PC-relative reference", "to 'tile' (0xd0000000)", "-mcmodel=medlow" } },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        if (!ends_with(path, want[i].file)) continue;
        ws_elf_image img;
        char err[512] = "";
        CHECK(parse_file(path, &img, err, sizeof err) == -1);
        CHECK(!strncmp(err, path, strlen(path)) && !strncmp(err + strlen(path), ": ", 2));
        for (int n = 0; n < 3; n++) CHECK_STR_CONTAINS(err, want[i].needle[n]);
        printf("rejected as expected: %s\n", err);
        CHECK(img.nkernels == 0 && img.kernels == NULL && img.bytes == NULL && img.relocs == NULL);
        return;
    }
    fprintf(stderr, "unknown bad module %s\n", path);
    CHECK(0);
}

static void check_api_edges(const char *path)
{
    size_t len;
    uint8_t *data = mod_read_file(path, &len);
    CHECK(data != NULL);
    if (!data) return;
    ws_elf_image img;
    /* no error buffer, no name */
    CHECK(ws_elf_parse(data, len, NULL, &img, NULL, 0) == 0);
    ws_elf_free(&img);
    char err[64];
    CHECK(ws_elf_parse(data, 10, NULL, &img, err, sizeof err) == -1);
    CHECK(!strncmp(err, "<memory>: ", 10));
    CHECK(ws_elf_parse(data, 10, "x.elf", &img, NULL, 0) == -1);
    CHECK(ws_elf_parse(NULL, 0, "empty.elf", &img, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "empty.elf: truncated");
    CHECK(ws_elf_parse(NULL, 5, "null.elf", &img, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "null.elf: no data");
    /* a short error buffer truncates but stays terminated */
    char tiny[12];
    memset(tiny, 'x', sizeof tiny);
    CHECK(ws_elf_parse(data, 100, "a-long-file-name.elf", &img, tiny, sizeof tiny) == -1);
    CHECK(memchr(tiny, 0, sizeof tiny) != NULL);
    CHECK(!strcmp(ws_param_kind_name(WS_PARAM_I8), "i8"));
    CHECK(!strcmp(ws_param_kind_name(WS_PARAM_PTR), "ptr"));
    CHECK(!strcmp(ws_param_kind_name((ws_param_kind)99), "?"));
    free(data);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: %s MAIN.elf NODWARF.elf SRCDIR BAD.elf...\n", argv[0]);
        return 2;
    }
    srcdir = argv[3];
    check_main(argv[1]);
    check_nodwarf(argv[2]);
    check_api_edges(argv[1]);
    for (int i = 4; i < argc; i++) check_bad(argv[i]);
    CHECK(argc == 10); /* six rejected modules */
    return TEST_SUMMARY();
}
