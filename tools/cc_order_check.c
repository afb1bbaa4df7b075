/* `warpscope cc`'s warning for functions the device keeps in address
 * order while they hold a warp vote, shuffle or barrier (cc_order_check.h):
 * the loader's own analysis (runtime/issue_order.h), run on the module
 * just linked, so the kernel's author hears of it before a wrong result. */
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include "runtime/elf_image.h"
#include "runtime/func_symbols.h"
#include "runtime/issue_order.h"
#include "runtime/line_map.h"
#include "cc_order_check.h"

#define MAX_NAMED 8 /* functions named; more are counted */

static void warn_one(const ws_func_syms *syms, const ws_line_map *lines, uint32_t start, const char *what)
{
    const char *name = "";
    ws_func_syms_find(syms, start, &name);
    ws_line_info li;
    char where[300] = "";
    if (lines && !ws_line_map_lookup_line(lines, start, &li) && li.file)
        snprintf(where, sizeof where, " (%s:%u)", li.file, li.line);
    fprintf(stderr, "warpscope cc: warning: %s: function %s%s at 0x%08x holds a warp vote, shuffle or barrier, and "
                    "its control flow is one the device does not follow (a jump to an address computed in code, or "
                    "more than 2048 blocks), so a diverged warp runs it in address order: lanes that branch apart "
                    "in it may vote or shuffle apart (docs/device.md, \"SIMT execution and reconvergence\")\n",
            what, name[0] ? name : "<no name>", where, start);
}

unsigned cc_warn_unfollowed(const uint8_t *data, size_t size, const char *what)
{
    ws_elf_image img;
    char err[512];
    if (ws_elf_parse(data, size, what, &img, err, sizeof err)) return 0;
    elf_version(EV_CURRENT);
    Elf *e = elf_memory((char *)data, size); /* libelf only reads it */
    ws_func_syms syms;
    uint32_t *pairs = NULL, found[MAX_NAMED];
    ws_code_pointer *ptrs = NULL;
    size_t n = 0, nptrs = 0, nfound = 0;
    if (e) ws_func_syms_build(&syms, e);
    if (e && syms.n && (pairs = malloc(2 * syms.n * sizeof *pairs))) n = ws_func_syms_ranges(&syms, 0, pairs);
    const uint32_t lo = img.text_start, hi = img.text_end;
    if (n && !ws_code_pointers(e, 0, lo, hi, &ptrs, &nptrs) &&
        !ws_issue_unfollowed(img.bytes + (lo - img.link_base), lo, hi - lo, pairs, n, ptrs, nptrs, found, MAX_NAMED,
                             &nfound) &&
        nfound) {
        ws_line_map *lines = NULL;
        if (ws_line_map_build(data, size, what, &lines, err, sizeof err)) lines = NULL;
        for (size_t i = 0; i < nfound && i < MAX_NAMED; i++) warn_one(&syms, lines, found[i], what);
        if (nfound > MAX_NAMED)
            fprintf(stderr, "warpscope cc: warning: %s: %zu more such functions\n", what, nfound - MAX_NAMED);
        if (lines) ws_line_map_free(lines);
    }
    free(ptrs), free(pairs);
    if (e) ws_func_syms_free(&syms), elf_end(e);
    ws_elf_free(&img);
    return (unsigned)nfound;
}
