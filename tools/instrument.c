/* warpscope instrument: write the rewritten module the tracer would run,
 * for inspection with `warpscope disasm` or a debugger. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/warpscope.h"
#include "instrument/rewrite.h"
#include "runtime/line_map.h"
#include "runtime/module_file.h"
#include "runtime/path_text.h"
#include "commands.h"
#include "file_copy.h"

#define USAGE "usage: warpscope instrument [--count|--record] [--warps] [--list] MODULE.elf -o OUT.elf\n"

/* The original instruction at addr as file:line (or nothing). */
static void source_of(const ws_line_map *lines, uint32_t addr, char *buf, size_t n)
{
    ws_line_info li;
    buf[0] = 0;
    if (lines && !ws_line_map_lookup_line(lines, addr, &li) && li.file && li.line) { /* (0: no line) */
        snprintf(buf, n, "  %s:%u", ws_path_base(li.file), li.line);
    }
}

static const char *mem_kind_at(const wsi_module_info *info, uint32_t addr)
{
    for (uint32_t i = 0; i < info->nmems; i++)
        if (info->mems[i].addr == addr)
            return info->mems[i].kind == WSI_LOAD ? "load" : info->mems[i].kind == WSI_STORE ? "store" : "atomic";
    return "memory";
}

/* One part of a stretch's description, after a comma when not the first. */
static void part(FILE *f, int *first, const char *text)
{
    fprintf(f, "%s%s", *first ? "" : ", ", text);
    *first = 0;
}

/* What a stretch does, in words: its parts, in the order the rewriter
 * puts them (the module's own lengthened branches say so). */
static void describe(const wsi_module_info *info, const wsi_inserted *x, wsi_mode mode, int warps, FILE *f)
{
    int first = 1;
    const int count = mode == WSI_COUNT;
    if (x->what & WSI_INSERT_HELPERS) part(f, &first, "helpers (the code below calls them)");
    if (x->what & WSI_INSERT_HOLD_HINT) part(f, &first, "hold hint");
    if (x->what & WSI_INSERT_ENTRY) part(f, &first, count ? "tp = 1 (function entry)" : "thread id into tp (kernel entry)");
    if (x->what & WSI_INSERT_BLOCK)
        part(f, &first, count ? (warps ? "block and warp counters" : "block counter")
                              : (warps ? "block and warp record" : "block record"));
    if (x->what & WSI_INSERT_MEMORY) {
        part(f, &first, mem_kind_at(info, x->orig));
        fprintf(f, " record");
    }
    if (x->what & WSI_INSERT_BRANCH) part(f, &first, "tool call (before the branch)");
    if (x->what & WSI_INSERT_AFTER) part(f, &first, "tool call (after the load)");
    if (x->what & WSI_REWRITTEN_WIDE)
        fprintf(f, "not inserted: the module's own jump 0x%08x, widened to 32 bits", x->orig);
    if (x->what & WSI_REWRITTEN_FAR)
        fprintf(f, "not inserted: the module's own branch 0x%08x in its far form (hint, inverted branch, jal)", x->orig);
}

/* --list: every stretch of inserted code, with the original instruction
 * it precedes and that instruction's source line. */
static void print_list(const char *outp, const wsi_module_info *info, const ws_line_map *lines, wsi_mode mode, int warps)
{
    uint64_t inserted = 0;
    printf("inserted code in %s (link addresses; all other code is the module's own, moved):\n", outp);
    for (uint32_t i = 0; i < info->ninserted; i++) {
        const wsi_inserted *x = &info->inserted[i];
        const int own = (x->what & (WSI_REWRITTEN_WIDE | WSI_REWRITTEN_FAR)) != 0;
        char line[200];
        if (!own) inserted += x->hi - x->lo;
        printf("  0x%08x-0x%08x %5u bytes  ", x->lo, x->hi, x->hi - x->lo);
        describe(info, x, mode, warps, stdout);
        if (x->orig && !own)
            printf(": %s 0x%08x (now 0x%08x)", x->what & WSI_INSERT_AFTER ? "after" : "before", x->orig, x->orig_new);
        source_of(lines, x->orig, line, sizeof line);
        if (x->orig) printf("%s", line);
        printf("\n");
    }
    printf("%llu of %u bytes of code inserted\n", (unsigned long long)inserted, info->new_text_end - info->link_base);
}

int ws_cmd_instrument(int argc, char **argv)
{
    const char *in = NULL, *outp = NULL;
    wsi_mode mode = WSI_RECORD;
    const char *mode_given = NULL; /* (--count or --record, as typed: the two conflict) */
    int warps = 0, list = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf(USAGE
                   "Writes the instrumented copy of a module that `warpscope trace` runs (docs/tracing.md):\n"
                   "  --count   the counting twin (an atomic add per basic-block entry)\n"
                   "  --record  the recording twin (default: block and memory records)\n"
                   "  --warps   with warp records (the branch and dump tools)\n"
                   "  --list    also print every stretch of inserted code: its addresses in OUT.elf, what it\n"
                   "            does, the original instruction it precedes and that one's source line\n");
            return 0;
        }
        const char *a = argv[i], *why = NULL;
        if (!strcmp(a, "-o")) {
            if (i + 1 < argc && argv[i + 1][0]) outp = argv[++i];
            else why = "-o needs the file to write";
        } else if (!strcmp(a, "--count") || !strcmp(a, "--record")) {
            if (mode_given && strcmp(mode_given, a)) why = "--count and --record each write one twin: give one of them";
            mode = !strcmp(a, "--count") ? WSI_COUNT : WSI_RECORD;
            mode_given = a;
        } else if (!strcmp(a, "--warps")) warps = 1;
        else if (!strcmp(a, "--list")) list = 1;
        else if (a[0] == '-') {
            fprintf(stderr, "warpscope instrument: unknown option '%s'\n" USAGE, a);
            return 2;
        } else if (in) {
            fprintf(stderr, "warpscope instrument: one module at a time: %s and %s\n" USAGE, in, a);
            return 2;
        } else in = a;
        if (why) {
            fprintf(stderr, "warpscope instrument: %s\n" USAGE, why);
            return 2;
        }
    }
    if (!in || !outp) {
        fprintf(stderr, "warpscope instrument: %s\n" USAGE, !in ? "no module to instrument" : "no -o OUT.elf to write");
        return 2;
    }
    uint8_t *data, *out;
    size_t len, out_len;
    char err[512];
    if (ws_module_file_read(in, &data, &len, err, sizeof err) != WS_OK) {
        fprintf(stderr, "warpscope: %s\n", err);
        return 1;
    }
    wsi_module_info info;
    int rc = wsi_rewrite(data, len, in, mode, warps ? WSI_WARPS : 0, &out, &out_len, &info, err, sizeof err);
    ws_line_map *lines = NULL; /* (a module without DWARF: no source lines, still the list) */
    if (!rc && list && ws_line_map_build(data, len, in, &lines, err, sizeof err)) lines = NULL;
    free(data);
    if (rc) {
        fprintf(stderr, "warpscope: %s\n", err);
        return 1;
    }
    /* whole or not at all: OUT may be the module just read */
    char why[PATH_MAX + 128];
    const int failed = ws_write_file_whole(outp, out, out_len, why, sizeof why);
    free(out);
    if (failed) {
        fprintf(stderr, "warpscope instrument: cannot write %s: %s\n", outp, why);
        wsi_info_free(&info);
        ws_line_map_free(lines);
        return 1;
    }
    printf("%s: %u blocks, %u memory instructions, %u instructions; code 0x%x -> 0x%x bytes\n", outp, info.nblocks,
           info.nmems, info.ninsts, info.old_text_end - info.link_base, info.new_text_end - info.link_base);
    if (list) print_list(outp, &info, lines, mode, warps);
    ws_line_map_free(lines);
    wsi_info_free(&info);
    return 0;
}
