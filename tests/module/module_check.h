/* What a successful ws_elf_parse promises about the image, checked for any
 * input (malformed-input test and fuzz-corpus replay). */
#ifndef WS_TEST_MODULE_CHECK_H
#define WS_TEST_MODULE_CHECK_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "isa/isa.h"
#include "runtime/elf_image.h"
#include "runtime/line_map.h"
#include "warpscope/abi.h"

static volatile unsigned mod_sink; /* keeps the reads below */

static inline unsigned mod_complain(int verbose, const char *label, const char *what, const char *detail)
{
    if (verbose) fprintf(stderr, "%s: %s%s%s\n", label, what, detail ? ": " : "", detail ? detail : "");
    return 1;
}

/* Number of broken promises (each reported if verbose). Every byte the
 * image claims is read, so the sanitizer build checks the allocations. */
static inline unsigned mod_check_image(const ws_elf_image *img, const char *label, int verbose)
{
    unsigned bad = 0;
    uint64_t end = (uint64_t)img->link_base + img->size;
    if (!img->bytes || !img->writable || !img->size || img->size % 4096 || img->link_base % 4096)
        return mod_complain(verbose, label, "bad span", NULL);
    if (img->link_base < WS_GLOBAL_BASE || end > WS_GLOBAL_MAX_END)
        bad += mod_complain(verbose, label, "span outside the module area", NULL);
    /* the ends of both arrays (a short allocation shows up here), and the
     * first page, without faulting in every page of a large span */
    for (uint32_t i = 0; i < img->size && i < 4096; i += 8) mod_sink += img->bytes[i] + img->writable[i / 8];
    mod_sink += img->bytes[img->size - 1] + img->writable[img->size / 8 - 1];
    if (img->text_start >= img->text_end || img->text_start < img->link_base || img->text_end > end)
        bad += mod_complain(verbose, label, "bad code range", NULL);
    if (img->shared_static_size > WS_SHARED_END - WS_SHARED_BASE)
        bad += mod_complain(verbose, label, "static shared memory larger than the window", NULL);
    for (uint32_t i = 0; i < img->nrelocs; i++) {
        const struct ws_elf_reloc *r = &img->relocs[i];
        if (r->place < img->link_base || r->place + 4ull > end)
            bad += mod_complain(verbose, label, "relocation outside the span", NULL);
        if (r->type != 1 && (r->type < 26 || r->type > 28))
            bad += mod_complain(verbose, label, "a relocation type that is not applied was kept", NULL);
    }
    for (uint32_t i = 0; i < img->nkernels; i++) {
        const ws_elf_kernel *k = &img->kernels[i];
        if (!k->name || !*k->name) { bad += mod_complain(verbose, label, "kernel without a name", NULL); continue; }
        if (k->entry < img->text_start || k->entry >= img->text_end)
            bad += mod_complain(verbose, label, "kernel entry outside the code", k->name);
        if (k->nparams > 64 || (k->nparams && !k->params) || (!k->has_params && k->nparams))
            bad += mod_complain(verbose, label, "bad parameter list", k->name);
        for (uint32_t p = 0; p < k->nparams && k->params; p++) {
            const ws_elf_param *q = &k->params[p];
            /* tools print type_name[strlen - 1]: it must not be empty */
            if (!q->name || !q->type_name || !*q->type_name || (unsigned)q->kind > WS_PARAM_AGG)
                bad += mod_complain(verbose, label, "bad parameter", k->name);
            /* a struct by value: a size the launch can place, its fields inside it */
            const ws_elf_agg *g = &q->agg;
            int agg_bad = q->kind == WS_PARAM_AGG &&
                          (g->size > 1024 || !g->align || (g->align & (g->align - 1)) ||
                           (g->fp && (g->nfields < 1 || g->nfields > 2 || g->size > 8)));
            for (uint32_t f = 0; q->kind == WS_PARAM_AGG && g->fp && f < g->nfields && f < 2; f++)
                agg_bad |= g->field[f].offset + g->field[f].size > g->size || g->field[f].size > 4;
            if (agg_bad) bad += mod_complain(verbose, label, "struct parameter the launch cannot place", k->name);
        }
    }
    return bad;
}
/* What `warpscope disasm` and the profiler's source view do with a module
 * that parsed: its line map built from the same bytes (or refused with a
 * message naming it), up to 512 addresses of the span looked up both ways
 * (they must agree on file, line and column, and every name must be a
 * string), and every 4-byte window of the first 4 KiB disassembled.
 * Returns the number of broken promises. */
static inline unsigned mod_check_lines(const void *elf, size_t size, const ws_elf_image *img, const char *label,
                                       int verbose)
{
    unsigned bad = 0;
    ws_line_map *m = NULL;
    char err[512] = "";
    if (ws_line_map_build(elf, size, label, &m, err, sizeof err)) {
        if (strncmp(err, label, strlen(label))) bad += mod_complain(verbose, label, "line map refused without its name", err);
    } else {
        const uint32_t stride = img->size / 512 > 2 ? (img->size / 512) & ~1u : 2;
        for (uint32_t off = 0; off < img->size; off += stride) {
            ws_line_info full, row;
            const uint32_t pc = img->link_base + off;
            const int rf = ws_line_map_lookup(m, pc, &full), rr = ws_line_map_lookup_line(m, pc, &row);
            if (rf != rr || (!rf && (full.file != row.file || full.line != row.line || full.column != row.column)))
                bad += mod_complain(verbose, label, "the two line lookups disagree", NULL);
            if (rf) continue;
            mod_sink += (unsigned)(full.file ? strlen(full.file) : 0) + (unsigned)(full.function ? strlen(full.function) : 0) +
                        (unsigned)(full.outer ? strlen(full.outer) : 0);
            if (full.ninline > WS_MAX_INLINE) bad += mod_complain(verbose, label, "too many inline frames", NULL);
            for (uint32_t k = 0; k < full.ninline && k < WS_MAX_INLINE; k++)
                mod_sink += (unsigned)(full.inlined[k].function ? strlen(full.inlined[k].function) : 0) +
                            (unsigned)(full.inlined[k].call_file ? strlen(full.inlined[k].call_file) : 0);
        }
        /* the objects of static shared memory named (racecheck's
         * places), each name terminated and within its buffer */
        for (uint32_t off = 0; off < img->shared_static_size && off < 4096; off += 4) {
            char name[48];
            name[sizeof name - 1] = 1;
            if (!ws_line_map_object(m, WS_SHARED_BASE + off, name, sizeof name - 1) && !memchr(name, 0, sizeof name - 1))
                bad += mod_complain(verbose, label, "object name not terminated", NULL);
            if (name[sizeof name - 1] != 1) bad += mod_complain(verbose, label, "object name past its buffer", NULL);
        }
        ws_line_map_free(m);
    }
    for (uint32_t off = 0; off + 4 <= img->size && off < 4096; off += 2) {
        uint32_t bits;
        memcpy(&bits, img->bytes + off, 4);
        ws_inst in;
        char text[128];
        ws_decode(bits, &in);
        text[sizeof text - 1] = 1;
        ws_disasm(&in, img->link_base + off, text, sizeof text);
        if (!memchr(text, 0, sizeof text)) bad += mod_complain(verbose, label, "disassembly not terminated", NULL);
    }
    return bad;
}

/* What the loader does with a module's code before a launch: its issue
 * order (runtime/issue_order.h), from its function symbols and the code
 * pointers in its read-only data (switch tables). Every key and loop end
 * is an address of the code, and each function's keys are its own
 * addresses in another order. Needs runtime/issue_order.h and
 * runtime/func_symbols.h included before this header. */
#if defined(WS_RUNTIME_ISSUE_ORDER_H) && defined(WS_RUNTIME_FUNC_SYMBOLS_H)
static inline unsigned mod_check_order(const void *elf, size_t size, const ws_elf_image *img, const char *label,
                                       int verbose)
{
    unsigned bad = 0;
    elf_version(EV_CURRENT);
    Elf *e = elf_memory((char *)elf, size); /* libelf only reads it */
    if (!e) return 0;
    ws_func_syms syms;
    ws_func_syms_build(&syms, e);
    const uint32_t lo = img->text_start, hi = img->text_end, nslots = (hi - lo) / 2;
    uint32_t *pairs = syms.n ? malloc(2 * syms.n * sizeof *pairs) : NULL;
    const size_t n = pairs ? ws_func_syms_ranges(&syms, 0, pairs) : 0; /* as the loader */
    ws_code_pointer *ptrs = NULL;
    size_t nptrs = 0;
    uint32_t *keys = NULL, *ends = NULL;
    if (n && !ws_code_pointers(e, 0, lo, hi, &ptrs, &nptrs) &&
        !ws_issue_order(img->bytes + (lo - img->link_base), lo, hi - lo, pairs, n, ptrs, nptrs, &keys, &ends)) {
        for (uint32_t s = 0; keys && s < nslots; s++)
            if (keys[s] < lo || keys[s] >= lo + 2 * nslots || keys[s] % 2)
                bad += mod_complain(verbose, label, "issue key outside the code", NULL);
        for (uint32_t s = 0; ends && s < nslots; s++)
            if (ends[s] && (ends[s] <= lo || ends[s] > hi))
                bad += mod_complain(verbose, label, "loop end outside the code", NULL);
        for (size_t f = 0; keys && f < n; f++) { /* a function's keys stay in it */
            const uint32_t a = pairs[2 * f], z = pairs[2 * f + 1];
            if (a < lo || z > lo + 2 * nslots || z <= a || (a - lo) % 2) continue;
            for (uint32_t pc = a; pc < z; pc += 2)
                if (keys[(pc - lo) / 2] < a || keys[(pc - lo) / 2] >= z)
                    bad += mod_complain(verbose, label, "issue key outside its function", NULL);
        }
    }
    free(keys), free(ends), free(ptrs), free(pairs);
    ws_func_syms_free(&syms);
    elf_end(e);
    return bad;
}
#endif

/* What `warpscope cc` does to every module it links: describe its
 * functions' epilogues in the CFI (instrument/epilogue_cfi.h). It either
 * refuses the module with a message or gives one that parses, keeps the
 * image's promises and has the same code. Needs
 * instrument/epilogue_cfi.h included before this header. */
#ifdef WS_INSTRUMENT_EPILOGUE_CFI_H
static inline unsigned mod_check_epilogue_cfi(const void *elf, size_t size, const ws_elf_image *img,
                                              const char *label, int verbose)
{
    uint8_t *out = NULL;
    size_t n = 0;
    wsi_cfi_report rep;
    char err[512] = "";
    if (wsi_epilogue_cfi(elf, size, label, &out, &n, &rep, err, sizeof err))
        return err[0] ? 0 : mod_complain(verbose, label, "epilogue CFI refused without a message", NULL);
    unsigned bad = 0;
    ws_elf_image o;
    if (ws_elf_parse(out, n, label, &o, err, sizeof err)) bad += mod_complain(verbose, label, "module with epilogue CFI does not parse", err);
    else {
        bad += mod_check_image(&o, label, verbose);
        if (o.text_start != img->text_start || o.text_end != img->text_end || o.link_base != img->link_base ||
            memcmp(o.bytes + (o.text_start - o.link_base), img->bytes + (img->text_start - img->link_base),
                   o.text_end - o.text_start))
            bad += mod_complain(verbose, label, "epilogue CFI changed the code", NULL);
        ws_elf_free(&o);
    }
    free(out);
    return bad;
}
#endif

/* What `warpscope trace` does with a module that parsed: rewrite it for
 * both passes (counting; recording blocks, memory and store values per
 * warp). A rewrite either fails with a message naming the module or gives
 * a module that parses and keeps the image's promises. Needs
 * src/instrument/rewrite.h included before this header. */
#ifdef WS_INSTRUMENT_REWRITE_H
static inline unsigned mod_check_rewrite(const void *elf, size_t size, const char *label, int verbose)
{
    static const struct { wsi_mode mode; unsigned flags; } passes[] = {
        { WSI_COUNT, 0 }, { WSI_RECORD, WSI_WARPS | WSI_VALUES } };
    unsigned bad = 0;
    for (size_t p = 0; p < sizeof passes / sizeof passes[0]; p++) {
        uint8_t *out = NULL;
        size_t n = 0;
        wsi_module_info info;
        char err[512] = "";
        memset(&info, 0, sizeof info);
        if (wsi_rewrite(elf, size, label, passes[p].mode, passes[p].flags, &out, &n, &info, err, sizeof err)) {
            if (strncmp(err, label, strlen(label))) bad += mod_complain(verbose, label, "rewrite refused without its name", err);
            continue;
        }
        ws_elf_image img;
        if (ws_elf_parse(out, n, label, &img, err, sizeof err)) bad += mod_complain(verbose, label, "rewritten module does not parse", err);
        else {
            bad += mod_check_image(&img, label, verbose);
            ws_elf_free(&img);
        }
        free(out);
        wsi_info_free(&info);
    }
    return bad;
}
#endif

#endif
