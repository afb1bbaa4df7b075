/* Relocation, decisively: the same objects were linked twice, at the usual
 * base and at another one (a copy of kernel/warpscope.ld with a different
 * start address). Moving the first image to the second base with
 * ws_elf_relocate must reproduce the second image byte for byte. A move by
 * an odd amount (low 12 bits 0x800, which flips the sign of every LO12
 * part) is checked instruction by instruction.
 *
 * usage: test_module_reloc BASE.elf MOVED.elf MOVED_BASE  */
#include "module_util.h"
#include "runtime/elf_image.h"
#include "test.h"
#include "warpscope/abi.h"

static int load(const char *path, ws_elf_image *img)
{
    size_t len;
    char err[512];
    uint8_t *data = mod_read_file(path, &len);
    if (!data) return -1;
    int r = ws_elf_parse(data, len, path, img, err, sizeof err);
    free(data);
    if (r) fprintf(stderr, "%s\n", err);
    return r;
}

static uint32_t get32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static int32_t sext12(uint32_t v) { return (int32_t)(v << 20) >> 20; }

/* A relinked module and a relocated one agree on everything. */
static void compare_images(const ws_elf_image *a, const ws_elf_image *b)
{
    CHECK_EQ_U(a->link_base, b->link_base);
    CHECK_EQ_U(a->size, b->size);
    if (a->size != b->size) return;
    uint32_t diffs = 0, first = 0;
    for (uint32_t i = 0; i < a->size; i++)
        if (a->bytes[i] != b->bytes[i]) {
            if (!diffs++) first = i;
        }
    if (diffs)
        fprintf(stderr, "%u bytes differ, first at 0x%08x (0x%02x vs 0x%02x)\n", diffs, a->link_base + first,
                a->bytes[first], b->bytes[first]);
    CHECK_EQ_U(diffs, 0);
    CHECK(!memcmp(a->writable, b->writable, a->size / 8));
    CHECK_EQ_U(a->text_start, b->text_start);
    CHECK_EQ_U(a->text_end, b->text_end);
    CHECK_EQ_U(a->shared_static_size, b->shared_static_size);
    CHECK_EQ_U(a->nkernels, b->nkernels);
    for (uint32_t i = 0; i < a->nkernels; i++) {
        const ws_elf_kernel *k = &a->kernels[i], *o = ws_elf_find_kernel(b, k->name);
        CHECK(o != NULL);
        if (!o) continue;
        CHECK_EQ_U(k->entry, o->entry);
        CHECK_EQ_U(k->size, o->size);
        CHECK_EQ_U(k->nparams, o->nparams);
    }
}

/* Before moving: the two links differ exactly by the base in every kept
 * relocation, and the relocation lists correspond one to one. */
static void compare_relocs(const ws_elf_image *a, const ws_elf_image *b)
{
    uint32_t delta = b->link_base - a->link_base, bad = 0;
    CHECK_EQ_U(a->nrelocs, b->nrelocs);
    if (a->nrelocs != b->nrelocs) return;
    for (uint32_t i = 0; i < a->nrelocs; i++) {
        const struct ws_elf_reloc *x = &a->relocs[i], *y = &b->relocs[i];
        bad += x->type != y->type || x->place + delta != y->place || x->value + delta != y->value;
    }
    CHECK_EQ_U(bad, 0);
    /* and the unrelocated images really differ */
    CHECK(memcmp(a->bytes, b->bytes, a->size) != 0);
}

/* These objects were compiled from the source directory with relative
 * names, so DWARF 5 refers to each source file as file 0, which elfutils'
 * dwarf_decl_file does not resolve: the reader must still find it. */
static void check_decl_files(const ws_elf_image *img)
{
    static const struct { const char *kernel, *file; } want[] = {
        { "k_int", "/mod_kernels.c" }, { "k_calls_other", "/mod_other.c" }, { "k_other", "/mod_other2.c" },
    };
    for (uint32_t i = 0; i < img->nkernels; i++)
        CHECK(img->kernels[i].decl_file != NULL && img->kernels[i].decl_line > 0);
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const ws_elf_kernel *k = ws_elf_find_kernel(img, want[i].kernel);
        CHECK(k != NULL);
        if (!k) continue;
        const char *f = k->decl_file ? k->decl_file : "";
        size_t n = strlen(f), m = strlen(want[i].file);
        if (n < m || strcmp(f + n - m, want[i].file)) fprintf(stderr, "%s: decl_file '%s'\n", k->name, f);
        CHECK(n >= m && !strcmp(f + n - m, want[i].file));
    }
}

/* Move by an arbitrary amount and decode every relocated field. */
static void check_odd_move(const char *path, uint32_t new_base)
{
    ws_elf_image img;
    if (load(path, &img)) { CHECK(0); return; }
    uint8_t *orig = malloc(img.size), *touched = calloc(1, img.size);
    CHECK(orig && touched);
    if (!orig || !touched) { free(orig); free(touched); ws_elf_free(&img); return; }
    memcpy(orig, img.bytes, img.size);
    uint32_t old_base = img.link_base, delta = new_base - old_base;
    char err[256];
    CHECK(ws_elf_relocate(&img, new_base, err, sizeof err) == 0);
    CHECK_EQ_U(img.link_base, new_base);
    unsigned bad = 0, n[4] = { 0 };
    for (uint32_t i = 0; i < img.nrelocs; i++) {
        const struct ws_elf_reloc *r = &img.relocs[i];
        uint32_t off = r->place - old_base, v = r->value + delta;
        uint32_t now = get32(img.bytes + off), was = get32(orig + off);
        uint32_t hi = (v + 0x800u) & 0xFFFFF000u;
        int32_t lo = (int32_t)(v - hi);
        memset(touched + off, 1, 4);
        switch (r->type) {
        case 1: n[0]++; bad += now != v; break;
        case 26: n[1]++; bad += (now & 0xFFFFF000u) != hi || (now & 0xFFFu) != (was & 0xFFFu); break;
        case 27:
            n[2]++;
            bad += sext12(now >> 20) != lo || (now & 0xFFFFFu) != (was & 0xFFFFFu);
            break;
        case 28:
            n[3]++;
            bad += sext12(((now >> 25) << 5) | ((now >> 7) & 0x1Fu)) != lo ||
                   (now & 0x01FFF07Fu) != (was & 0x01FFF07Fu);
            break;
        default: bad++;
        }
        /* hi + lo rebuilds the address; lo is in range */
        bad += lo < -2048 || lo > 2047 || hi + (uint32_t)lo != v;
    }
    CHECK_EQ_U(bad, 0);
    CHECK(n[0] > 0 && n[1] > 0 && n[2] > 0 && n[3] > 0);
    uint32_t untouched_changed = 0;
    for (uint32_t i = 0; i < img.size; i++) untouched_changed += !touched[i] && img.bytes[i] != orig[i];
    CHECK_EQ_U(untouched_changed, 0);
    free(orig);
    free(touched);
    ws_elf_free(&img);
}

static void check_api(const char *path)
{
    ws_elf_image img;
    if (load(path, &img)) { CHECK(0); return; }
    /* moving to where it already is changes nothing */
    uint8_t *copy = malloc(img.size);
    if (copy) {
        memcpy(copy, img.bytes, img.size);
        CHECK(ws_elf_relocate(&img, img.link_base, NULL, 0) == 0);
        CHECK(!memcmp(copy, img.bytes, img.size));
        free(copy);
    }
    /* a relocation type the loader cannot apply is reported, not guessed */
    char err[256] = "";
    CHECK(img.nrelocs > 0);
    if (img.nrelocs) {
        img.relocs[0].type = 99;
        CHECK(ws_elf_relocate(&img, 0x02000000, err, sizeof err) == -1);
        CHECK_STR_CONTAINS(err, "relocation type 99");
        CHECK(ws_elf_relocate(&img, 0x02000000, NULL, 0) == -1);
    }
    ws_elf_free(&img);
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s BASE.elf MOVED.elf MOVED_BASE\n", argv[0]);
        return 2;
    }
    uint32_t moved_base = (uint32_t)strtoul(argv[3], NULL, 0);
    ws_elf_image a, b;
    int ra = load(argv[1], &a), rb = load(argv[2], &b);
    CHECK(ra == 0 && rb == 0);
    if (ra || rb) {
        if (!ra) ws_elf_free(&a);
        if (!rb) ws_elf_free(&b);
        return TEST_SUMMARY();
    }
    CHECK_EQ_U(a.link_base, WS_MODULE_LINK_BASE);
    CHECK_EQ_U(b.link_base, moved_base);
    CHECK(a.nkernels > 10);
    check_decl_files(&a);
    compare_relocs(&a, &b);
    char err[256] = "";
    int r = ws_elf_relocate(&a, b.link_base, err, sizeof err);
    if (r) fprintf(stderr, "%s\n", err);
    CHECK(r == 0);
    compare_images(&a, &b);
    printf("relocated %u relocations, %u bytes: image identical to the link at 0x%08x\n", a.nrelocs, a.size,
           b.link_base);
    ws_elf_free(&a);
    ws_elf_free(&b);

    check_odd_move(argv[1], WS_MODULE_LINK_BASE + 0x0A345800u);
    check_odd_move(argv[1], 0x80000800u);
    check_odd_move(argv[2], WS_MODULE_LINK_BASE); /* back down from the other link */
    check_api(argv[1]);
    return TEST_SUMMARY();
}
