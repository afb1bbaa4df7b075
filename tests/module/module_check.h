/* What a successful ws_elf_parse promises about the image, checked for any
 * input (malformed-input test and fuzz-corpus replay). */
#ifndef WS_TEST_MODULE_CHECK_H
#define WS_TEST_MODULE_CHECK_H
#include <stdio.h>
#include "runtime/elf_image.h"
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
            if (!q->name || !q->type_name || !*q->type_name || (unsigned)q->kind > WS_PARAM_PTR)
                bad += mod_complain(verbose, label, "bad parameter", k->name);
        }
    }
    return bad;
}
#endif
