#include "example.h"
#include <stdlib.h>
#include <string.h>

static void module_path(const char *argv0, const char *file, char *out, size_t len)
{
    const char *dir = getenv("WARPSCOPE_EXAMPLE_DIR");
    const char *slash = strrchr(argv0, '/');
    if (dir) snprintf(out, len, "%s/%s", dir, file);
    else if (slash) snprintf(out, len, "%.*s/%s", (int)(slash - argv0), argv0, file);
    else snprintf(out, len, "%s", file);
}

int example_open(example *ex, const char *name, const char *argv0, const char *module_file)
{
    memset(ex, 0, sizeof *ex);
    ex->name = name;
    ws_config cfg;
    ws_config_default(&cfg);
    const char *text = getenv("WARPSCOPE_CONFIG");
    char err[256], path[4096];
    if (text && (ws_config_parse(&cfg, text, err, sizeof err) || ws_config_validate(&cfg, err, sizeof err))) {
        fprintf(stderr, "%s: WARPSCOPE_CONFIG: %s\n", name, err);
        return 1;
    }
    ws_status st = ws_device_open(&cfg, &ex->dev);
    if (st) {
        fprintf(stderr, "%s: cannot open device: %s\n", name, ws_status_name(st));
        return 1;
    }
    module_path(argv0, module_file, path, sizeof path);
    if (ws_module_load_file(ex->dev, path, &ex->mod)) return example_fail(ex, "loading the kernel module");
    return 0;
}

ws_kernel *example_kernel(example *ex, const char *kernel)
{
    ws_kernel *k = NULL;
    if (ws_kernel_get(ex->mod, kernel, &k)) example_fail(ex, "looking up the kernel");
    return k;
}

int example_launch(example *ex, ws_kernel *k, ws_dim3 grid, ws_dim3 block, uint32_t shared,
                   const ws_arg *args, size_t nargs)
{
    if (ws_launch(ex->dev, k, grid, block, shared, args, nargs) || ws_synchronize(ex->dev))
        return example_fail(ex, "running the kernel");
    ws_launch_stats s;
    ws_last_launch_stats(ex->dev, &s);
    ex->total.thread_instructions += s.thread_instructions;
    ex->total.warp_instructions += s.warp_instructions;
    ex->total.blocks += s.blocks;
    ex->total.threads += s.threads;
    ex->total.host_seconds += s.host_seconds;
    ex->launches++;
    return 0;
}

int example_copy_back(example *ex, void *dst, ws_addr src, size_t n)
{
    return ws_memcpy_dtoh(ex->dev, dst, src, n) ? example_fail(ex, "copying the result back") : 0;
}

int example_fail(example *ex, const char *what)
{
    fprintf(stderr, "%s: error while %s: %s\n", ex->name, what, ex->dev ? ws_last_error(ex->dev) : "no device");
    /* Close the device even so: tools attached to it (warpscope watch,
     * trace, profile) write what they saw up to the error at its close. */
    if (ex->dev) ws_device_close(ex->dev);
    ex->dev = NULL;
    return 1;
}

int example_finish(example *ex, int ok, const char *detail)
{
    ws_config cfg;
    ws_device_config(ex->dev, &cfg);
    const ws_launch_stats *t = &ex->total;
    double eff = t->warp_instructions
        ? (double)t->thread_instructions / ((double)t->warp_instructions * cfg.lanes_per_warp) : 0;
    printf("%-11s %s  %s\n", ex->name, ok ? "PASS" : "FAIL", detail);
    if (ex->launches) /* graphics examples print their draws' statistics themselves */
        printf("%-11s      %u launch%s, %llu blocks, %llu threads, %llu thread-instructions, "
           "%llu warp-instructions, SIMT efficiency %.1f%%, %.1f ms (%.0f M thread-instr/s)\n",
           "", ex->launches, ex->launches == 1 ? "" : "es", (unsigned long long)t->blocks,
           (unsigned long long)t->threads, (unsigned long long)t->thread_instructions,
           (unsigned long long)t->warp_instructions, eff * 100, t->host_seconds * 1e3,
           t->host_seconds > 0 ? t->thread_instructions / t->host_seconds / 1e6 : 0);
    ws_device_close(ex->dev);
    return ok ? 0 : 1;
}
