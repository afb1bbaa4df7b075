/* warpscope run: load a module, launch one kernel with arguments given on
 * the command line, print what the kernel wrote and the launch statistics. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/warpscope.h"
#include "commands.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: warpscope run [options] MODULE.elf KERNEL [ARG...]\n"
            "  --grid X[,Y[,Z]]     grid size in blocks (default 1)\n"
            "  --block X[,Y[,Z]]    block size in threads (default 32)\n"
            "  --shared BYTES       dynamic shared memory per block\n"
            "  --config K=V[,K=V]   device settings (cores=, lanes_per_warp=, ...)\n"
            "ARG is a number for scalar parameters; for a pointer parameter,\n"
            "  zeros:N    a zero-filled buffer of N 32-bit elements, printed after the run\n"
            "  iota:N     a buffer holding 0,1,...,N-1 (int or float, as the parameter says)\n");
}

static int parse_dim(const char *s, ws_dim3 *d)
{
    unsigned x = 1, y = 1, z = 1;
    int n = sscanf(s, "%u,%u,%u", &x, &y, &z);
    if (n < 1) return -1;
    *d = WS_DIM3(x, y, z);
    return 0;
}

typedef struct buffer { ws_addr addr; uint32_t words; int is_float; } buffer;

static int make_arg(ws_device *dev, const ws_kernel *k, uint32_t i, const char *text, ws_arg *a,
                    buffer *buf)
{
    const char *tn = "";
    ws_kernel_param(k, i, NULL, &tn);
    size_t tl = strlen(tn);
    unsigned n;
    if (tl && tn[tl - 1] == '*') {
        int iota = strncmp(text, "iota:", 5) == 0;
        if ((strncmp(text, "zeros:", 6) && !iota) || sscanf(strchr(text, ':') + 1, "%u", &n) != 1 || !n) {
            fprintf(stderr, "warpscope run: parameter %u (%s) is a pointer: use zeros:N or iota:N\n", i, tn);
            return -1;
        }
        if (ws_malloc(dev, (size_t)n * 4, &buf->addr)) return -1;
        buf->words = n;
        buf->is_float = strstr(tn, "float") != NULL;
        if (iota) {
            uint32_t *v = malloc((size_t)n * 4);
            if (!v) return -1;
            for (unsigned j = 0; j < n; j++) {
                float f = (float)j;
                if (buf->is_float) memcpy(&v[j], &f, 4);
                else v[j] = j;
            }
            int r = ws_memcpy_htod(dev, buf->addr, v, (size_t)n * 4);
            free(v);
            if (r) return -1;
        }
        *a = WS_ARG_PTR(buf->addr);
    } else if (strstr(tn, "float")) {
        *a = WS_ARG_F32(strtof(text, NULL));
    } else if (strstr(tn, "double")) {
        *a = WS_ARG_F64(strtod(text, NULL));
    } else if (strstr(tn, "long long") || strstr(tn, "int64")) {
        *a = WS_ARG_I64(strtoll(text, NULL, 0));
    } else {
        *a = WS_ARG_I32((int32_t)strtol(text, NULL, 0));
    }
    return 0;
}

int ws_cmd_run(int argc, char **argv)
{
    ws_dim3 grid = WS_DIM3(1, 1, 1), block = WS_DIM3(32, 1, 1);
    uint32_t shared = 0;
    ws_config cfg;
    ws_config_default(&cfg);
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) { usage(stdout); return 0; }
        if (!v) { usage(stderr); return 2; }
        char err[256];
        if (!strcmp(o, "--grid") && !parse_dim(v, &grid)) i++;
        else if (!strcmp(o, "--block") && !parse_dim(v, &block)) i++;
        else if (!strcmp(o, "--shared")) { shared = (uint32_t)strtoul(v, NULL, 0); i++; }
        else if (!strcmp(o, "--config")) {
            if (ws_config_parse(&cfg, v, err, sizeof err)) { fprintf(stderr, "warpscope run: %s\n", err); return 2; }
            i++;
        } else { usage(stderr); return 2; }
    }
    if (argc - i < 2) { usage(stderr); return 2; }
    const char *path = argv[i], *kname = argv[i + 1];
    char err[256];
    if (ws_config_validate(&cfg, err, sizeof err)) { fprintf(stderr, "warpscope run: %s\n", err); return 2; }
    ws_device *dev;
    if (ws_device_open(&cfg, &dev)) { fprintf(stderr, "warpscope run: cannot open device\n"); return 1; }
    int rc = 1;
    ws_module *mod;
    ws_kernel *k;
    ws_arg args[32];
    buffer bufs[32] = { { 0, 0, 0 } };
    uint32_t nargs = (uint32_t)(argc - i - 2);
    if (ws_module_load_file(dev, path, &mod) || ws_kernel_get(mod, kname, &k)) goto fail;
    if (nargs != ws_kernel_param_count(k) || nargs > 32) {
        fprintf(stderr, "warpscope run: %s takes %u arguments, %u given\n", kname, ws_kernel_param_count(k), nargs);
        goto done;
    }
    for (uint32_t a = 0; a < nargs; a++)
        if (make_arg(dev, k, a, argv[i + 2 + a], &args[a], &bufs[a])) goto fail;
    if (ws_launch(dev, k, grid, block, shared, args, nargs) || ws_synchronize(dev)) goto fail;
    for (uint32_t a = 0; a < nargs; a++) {
        if (!bufs[a].words) continue;
        uint32_t n = bufs[a].words < 64 ? bufs[a].words : 64;
        int32_t v[64];
        if (ws_memcpy_dtoh(dev, v, bufs[a].addr, n * 4)) goto fail;
        printf("arg %u:", a);
        for (uint32_t j = 0; j < n; j++) {
            float f;
            memcpy(&f, &v[j], 4);
            if (bufs[a].is_float) printf(" %g", f);
            else printf(" %d", v[j]);
        }
        printf("%s\n", n < bufs[a].words ? " ..." : "");
    }
    ws_launch_stats st;
    ws_last_launch_stats(dev, &st);
    printf("%s: %llu thread-instructions, %llu warp-instructions, SIMT efficiency %.1f%%, %.3f ms\n",
           kname, (unsigned long long)st.thread_instructions, (unsigned long long)st.warp_instructions,
           st.simt_efficiency * 100, st.host_seconds * 1e3);
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "warpscope run: %s\n", ws_last_error(dev));
done:
    ws_device_close(dev);
    return rc;
}
