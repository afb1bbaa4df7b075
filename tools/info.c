/* warpscope info / disasm: describe a module without running it. */
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/warpscope.h"
#include "runtime/elf_image.h"
#include "runtime/module_file.h"
#include "isa/isa.h"
#include "runtime/line_map.h"
#include "runtime/path_text.h"
#include "commands.h"

/* The module's function symbols (kernels, static and library functions),
 * so every function gets its label as in objdump. */
typedef struct func_sym { uint32_t addr; char name[64]; } func_sym;

static func_sym *function_symbols(uint8_t *data, size_t len, size_t *n)
{
    *n = 0;
    func_sym *out = NULL;
    elf_version(EV_CURRENT);
    Elf *e = elf_memory((char *)data, len);
    Elf_Scn *scn = NULL;
    while (e && (scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize) continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t count = d ? sh.sh_size / sh.sh_entsize : 0;
        func_sym *grown = realloc(out, (count + 1) * sizeof *out);
        if (!grown) break;
        out = grown;
        for (size_t i = 0; i < count; i++) {
            GElf_Sym sym;
            const char *name;
            if (!gelf_getsym(d, (int)i, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_value ||
                !(name = elf_strptr(e, sh.sh_link, sym.st_name)) || !*name)
                continue;
            out[*n].addr = (uint32_t)sym.st_value;
            snprintf(out[*n].name, sizeof out[*n].name, "%s", name);
            ++*n;
        }
        break;
    }
    if (e) elf_end(e);
    return out;
}

/* Parse a module; also build its line map when `lines` is given, and list
 * its function symbols when `funcs` is (labels only: none is no error). */
static int load_image(const char *path, ws_elf_image *img, ws_line_map **lines, func_sym **funcs, size_t *nfuncs)
{
    uint8_t *data;
    size_t len;
    char err[512];
    if (ws_module_file_read(path, &data, &len, err, sizeof err) != WS_OK) {
        fprintf(stderr, "warpscope: %s\n", err);
        return -1;
    }
    int r = ws_elf_parse(data, len, path, img, err, sizeof err);
    if (!r && lines && ws_line_map_build(data, len, path, lines, err, sizeof err)) {
        ws_elf_free(img);
        r = -1;
    }
    if (!r && funcs) *funcs = function_symbols(data, len, nfuncs);
    free(data);
    if (r) fprintf(stderr, "warpscope: %s\n", err);
    return r;
}

int ws_cmd_info(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(argc == 2 ? stdout : stderr, "usage: warpscope info MODULE.elf\n");
        return argc == 2 ? 0 : 2;
    }
    ws_elf_image img;
    if (load_image(argv[1], &img, NULL, NULL, NULL)) return 1;
    printf("%s: %u bytes at 0x%08x, code [0x%08x, 0x%08x), %u bytes of static shared memory\n",
           argv[1], img.size, img.link_base, img.text_start, img.text_end, img.shared_static_size);
    for (uint32_t i = 0; i < img.nkernels; i++) {
        const ws_elf_kernel *k = &img.kernels[i];
        /* shaders are named as such: `run` refuses them as kernels (before
         * 2026-11-27 info listed them as "kernel") */
        printf("%s %s(", k->kind == WS_FUNC_VERTEX ? "vertex shader" : k->kind == WS_FUNC_FRAGMENT ? "fragment shader"
                                                                                                : "kernel", k->name);
        for (uint32_t p = 0; p < k->nparams; p++) {
            const char *t = k->params[p].type_name, *n = k->params[p].name, *in = strstr(t, "(*");
            if (!in) in = strstr(t, "(&"); /* a C++ reference to an array: "float (&arr)[4]" */
            /* a pointer to an array or a function names the parameter
             * inside its declarator: "float (*rows)[4]", "int (*f)(int)" */
            const char *at = in ? strchr(in, ')') : NULL;
            const char last = t[strlen(t) - 1];
            if (at && *n)
                printf("%s%.*s%s%s%s", p ? ", " : "", (int)(at - t), t, at[-1] == '*' || at[-1] == '&' ? "" : " ", n,
                       at);
            else printf("%s%s%s%s", p ? ", " : "", t, last == '*' || last == '&' ? "" : " ", n);
        }
        printf(")%s  entry 0x%08x", k->has_params ? "" : " [no DWARF]", k->entry);
        if (k->decl_file) printf("  %s:%u", k->decl_file, k->decl_line);
        printf("\n");
        if (k->foreign_csr) /* what ws_gfx_pipeline_create will say, known now */
            printf("  reads %s (CSR 0x%03x at 0x%08x), a system value of %s shaders only: %s\n",
                   ws_gfx_sysval_helper(k->foreign_csr), k->foreign_csr, k->foreign_pc,
                   k->kind == WS_FUNC_VERTEX ? "fragment" : "vertex",
                   k->foreign_always ? "pipelines refuse it (every run reads it)"
                                     : "read on some paths only, a fault if one runs");
        if (k->discard_pc)
            printf("  calls ws_discard() (at 0x%08x) on every run, in a vertex shader: pipelines refuse it\n",
                   k->discard_pc);
    }
    ws_elf_free(&img);
    return 0;
}

int ws_cmd_disasm(int argc, char **argv)
{
    if (argc != 2 || argv[1][0] == '-') {
        fprintf(argc == 2 ? stdout : stderr, "usage: warpscope disasm MODULE.elf\n"
                "Disassembles the module's code, with the source line of each run of\n"
                "instructions (from DWARF) and inlined calls marked.\n");
        return argc == 2 ? 0 : 2;
    }
    ws_elf_image img;
    ws_line_map *lines;
    func_sym *funcs = NULL;
    size_t nfuncs = 0;
    if (load_image(argv[1], &img, &lines, &funcs, &nfuncs)) return 1;
    const char *last_file = NULL;
    uint32_t last_line = 0;
    for (uint32_t pc = img.text_start; pc + 2 <= img.text_end;) {
        int labelled = 0;
        for (uint32_t i = 0; i < img.nkernels; i++)
            if (img.kernels[i].entry == pc && !labelled++) printf("\n%08x <%s>:\n", pc, img.kernels[i].name);
        for (size_t i = 0; i < nfuncs && !labelled; i++)
            if (funcs[i].addr == pc && !labelled++) printf("\n%08x <%s>:\n", pc, funcs[i].name);
        ws_line_info li; /* (the inline chain only where a line is printed: its lookup walks the DIEs) */
        if (ws_line_map_lookup_line(lines, pc, &li) == 0 && (li.line != last_line || li.file != last_file) &&
            ws_line_map_lookup(lines, pc, &li) == 0) {
            printf("  ; %s:%u", ws_path_base(li.file), li.line);
            if (li.ninline) printf("  (%s, inlined at line %u)", li.function ? li.function : "?", li.inlined[0].call_line);
            printf("\n");
            last_line = li.line;
            last_file = li.file;
        }
        const uint8_t *p = img.bytes + (pc - img.link_base);
        uint32_t bits = (uint32_t)p[0] | (uint32_t)p[1] << 8;
        if (ws_inst_length((uint16_t)bits) == 4 && pc + 4 <= img.text_end)
            bits |= (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
        ws_inst in;
        char text[96];
        ws_decode(bits, &in);
        ws_disasm(&in, pc, text, sizeof text);
        printf("%8x:\t%0*x\t%s\n", pc, in.len == 2 ? 4 : 8, bits & (in.len == 2 ? 0xFFFFu : ~0u), text);
        pc += in.len ? in.len : 2;
    }
    free(funcs);
    ws_line_map_free(lines);
    ws_elf_free(&img);
    return 0;
}
