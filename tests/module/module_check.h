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
