/* warpscope instrument: write the rewritten module the tracer would run,
 * for inspection with `warpscope disasm` or a debugger. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/warpscope.h"
#include "instrument/rewrite.h"
#include "runtime/module_file.h"
#include "commands.h"

int ws_cmd_instrument(int argc, char **argv)
{
    const char *in = NULL, *outp = NULL;
    wsi_mode mode = WSI_RECORD;
    int warps = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            printf("usage: warpscope instrument [--count|--record] [--warps] MODULE.elf -o OUT.elf\n"
                   "Writes the instrumented copy of a module that `warpscope trace` runs (docs/tracing.md):\n"
                   "  --count   the counting twin (an atomic add per basic-block entry)\n"
                   "  --record  the recording twin (default: block and memory records)\n"
                   "  --warps   with warp records (the branch and dump tools)\n");
            return 0;
        }
        if (!strcmp(argv[i], "-o") && i + 1 < argc) outp = argv[++i];
        else if (!strcmp(argv[i], "--count")) mode = WSI_COUNT;
        else if (!strcmp(argv[i], "--record")) mode = WSI_RECORD;
        else if (!strcmp(argv[i], "--warps")) warps = 1;
        else if (argv[i][0] != '-' && !in) in = argv[i];
        else {
            fprintf(stderr, "usage: warpscope instrument [--count|--record] [--warps] MODULE.elf -o OUT.elf\n");
            return 2;
        }
    }
    if (!in || !outp) {
        fprintf(stderr, "usage: warpscope instrument [--count|--record] [--warps] MODULE.elf -o OUT.elf\n");
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
    free(data);
    if (rc) {
        fprintf(stderr, "warpscope: %s\n", err);
        return 1;
    }
    errno = 0;
    FILE *f = fopen(outp, "wb");
    int ok = f && fwrite(out, 1, out_len, f) == out_len;
    if (f && fclose(f)) ok = 0;
    const int why = errno;
    free(out);
    if (!ok) {
        fprintf(stderr, "warpscope: cannot write %s: %s\n", outp, why ? strerror(why) : "short write");
        wsi_info_free(&info);
        return 1;
    }
    printf("%s: %u blocks, %u memory instructions, %u instructions; code 0x%x -> 0x%x bytes\n", outp, info.nblocks,
           info.nmems, info.ninsts, info.old_text_end - info.link_base, info.new_text_end - info.link_base);
    wsi_info_free(&info);
    return 0;
}
