/* libFuzzer target for the module ELF reader (src/runtime/elf_image.c and
 * elf_dwarf.c) and what reads a module after it: parse the input as a
 * kernel module; if it parses, check what the image promises, build its
 * line map and disassemble it (mod_check_lines), rewrite it for the
 * tracer's two passes (mod_check_rewrite), work out its issue order
 * (mod_check_order), describe its epilogues in its CFI as `warpscope cc`
 * does (mod_check_epilogue_cfi), and move it to a couple of bases. Any crash, sanitizer report, leak, or broken
 * promise (abort) is a finding. Run: see docs/modules.md. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "instrument/epilogue_cfi.h"
#include "instrument/rewrite.h"
#include "runtime/func_symbols.h"
#include "runtime/issue_order.h"
#include "module_check.h"
#include "runtime/elf_image.h"

#define NAME "fuzz.elf"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* one base with LO12 sign flips (low 12 bits 0x800), one near the top */
    static const uint32_t bases[] = { 0x02345800u, 0xBFF00000u };
    for (unsigned b = 0; b < sizeof bases / sizeof *bases; b++) {
        ws_elf_image img;
        char err[512];
        if (ws_elf_parse(data, size, NAME, &img, err, sizeof err)) {
            /* errors name the file, and leave nothing behind */
            if (strncmp(err, NAME ": ", strlen(NAME) + 2) || img.bytes || img.kernels || img.relocs) abort();
            return 0;
        }
        if (mod_check_image(&img, NAME, 1)) abort();
        if (b == 0 && (mod_check_lines(data, size, &img, NAME, 1) || mod_check_rewrite(data, size, NAME, 1) ||
                       mod_check_order(data, size, &img, NAME, 1) || mod_check_epilogue_cfi(data, size, &img, NAME, 1)))
            abort();
        if (ws_elf_relocate(&img, bases[b], err, sizeof err) == 0 && img.link_base != bases[b]) abort();
        ws_elf_free(&img);
    }
    return 0;
}
