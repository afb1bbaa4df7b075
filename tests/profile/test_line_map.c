/* The DWARF line map against binutils' addr2line, instruction by
 * instruction, plus function names and the inline chain of a call that the
 * compiler inlined (against llvm-symbolizer).
 * usage: test_line_map MODULE SOURCE ADDR2LINE LLVM_SYMBOLIZER */
#include <stdlib.h>
#include <string.h>
#include "isa/isa.h"
#include "runtime/line_map.h"
#include "runtime/elf_image.h"
#include "../test.h"


static const char *base(const char *p) { const char *s = p ? strrchr(p, '/') : NULL; return s ? s + 1 : p ? p : ""; }

int main(int argc, char **argv)
{
    if (argc != 5) { fprintf(stderr, "usage: test_line_map MODULE SOURCE ADDR2LINE LLVM_SYMBOLIZER\n"); return 2; }
    size_t len;
    uint8_t *data = ws_test_read_file(argv[1], &len);
    CHECK(data != NULL);
    if (!data) return TEST_SUMMARY();
    char err[256];
    ws_elf_image img;
    ws_line_map *m;
    CHECK(ws_elf_parse(data, len, argv[1], &img, err, sizeof err) == 0);
    CHECK(ws_line_map_build(data, len, argv[1], &m, err, sizeof err) == 0);
    CHECK(ws_line_map_rows(m) > 10);

    /* every instruction of the kernel, against addr2line */
    const ws_elf_kernel *k = ws_elf_find_kernel(&img, "lines");
    CHECK(k != NULL);
    char cmd[8192];
    int n = snprintf(cmd, sizeof cmd, "'%s' -e '%s'", argv[3], argv[1]);
    uint32_t addrs[512], count = 0;
    for (uint32_t pc = k->entry; k && pc < k->entry + k->size && count < 512;) {
        ws_inst in;
        const uint8_t *p = img.bytes + (pc - img.link_base);
        ws_decode((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24, &in);
        addrs[count++] = pc;
        n += snprintf(cmd + n, sizeof cmd - (size_t)n, " 0x%x", pc);
        pc += in.len;
    }
    FILE *a2l = popen(cmd, "r");
    CHECK(a2l != NULL);
    int compared = 0, same = 0;
    char line[1024];
    for (uint32_t i = 0; a2l && i < count && fgets(line, sizeof line, a2l); i++) {
        char *colon = strrchr(line, ':');
        if (!colon || line[0] == '?') continue;
        *colon = 0;
        uint32_t want = (uint32_t)strtoul(colon + 1, NULL, 10);
        ws_line_info info;
        compared++;
        if (ws_line_map_lookup(m, addrs[i], &info) == 0 && info.line == want &&
            strcmp(base(info.file), base(line)) == 0)
            same++;
        else
            fprintf(stderr, "0x%x: addr2line %s:%u, line map %s:%u\n", addrs[i], base(line), want,
                    base(info.file), info.line);
    }
    if (a2l) pclose(a2l);
    printf("compared %d instructions with addr2line\n", compared);
    CHECK(compared > 10);
    CHECK_EQ_U(same, compared);

    /* function names and inline chains against llvm-symbolizer (binutils'
     * addr2line misses some DWARF 5 inline ranges): for each address, frames
     * innermost first as "function" / "file:line:column", then a blank line */
    n = snprintf(cmd, sizeof cmd, "'%s' --obj='%s'", argv[4], argv[1]);
    for (uint32_t i = 0; i < count; i++) n += snprintf(cmd + n, sizeof cmd - (size_t)n, " 0x%x", addrs[i]);
    FILE *sym = popen(cmd, "r");
    int chains = 0, chains_same = 0, inlined_seen = 0, frame = 0, ok = 1;
    char fn[1024];
    ws_line_info info;
    for (uint32_t i = 0; sym && i < count;) {
        if (!fgets(line, sizeof line, sym)) break;
        line[strcspn(line, "\n")] = 0;
        if (!line[0]) { /* end of this address's frames */
            chains++;
            chains_same += ok && frame == (int)info.ninline + 1;
            i++;
            frame = 0;
            continue;
        }
        if (frame == 0) ok = ws_line_map_lookup(m, addrs[i], &info) == 0;
        snprintf(fn, sizeof fn, "%s", line);
        if (!fgets(line, sizeof line, sym)) break;
        char *c2 = strrchr(line, ':');
        if (c2) *c2 = 0;
        char *c1 = strrchr(line, ':');
        uint32_t ln = c1 ? (uint32_t)strtoul(c1 + 1, NULL, 10) : 0;
        if (frame == 0) ok &= info.function && !strcmp(info.function, fn) && info.line == ln;
        else if (frame - 1 < (int)info.ninline) {
            ok &= info.inlined[frame - 1].call_line == ln;
            inlined_seen = 1;
        }
        frame++;
    }
    if (sym) pclose(sym);
    printf("compared %d inline chains with llvm-symbolizer\n", chains);
    CHECK(chains == (int)count);
    CHECK_EQ_U(chains_same, chains);
    CHECK(inlined_seen); /* kernel.h accessors are always inlined */

    /* the line-only lookup: the same row (file, line, column), no scopes */
    int rows_same = 0;
    for (uint32_t i = 0; i < count; i++) {
        ws_line_info full, row;
        const int rf = ws_line_map_lookup(m, addrs[i], &full), rr = ws_line_map_lookup_line(m, addrs[i], &row);
        rows_same += rf == rr && full.file == row.file && full.line == row.line && full.column == row.column &&
                     !row.function && !row.ninline;
    }
    CHECK_EQ_U(rows_same, count);

    ws_line_info none;
    CHECK(ws_line_map_lookup(m, 0x10, &none) == -1);
    CHECK(ws_line_map_lookup_line(m, 0x10, &none) == -1);

    ws_line_map_free(m);
    ws_elf_free(&img);
    free(data);
    return TEST_SUMMARY();
}
