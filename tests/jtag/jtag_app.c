/* The program OpenOCD debugs in the JTAG end-to-end test: 256 threads on
 * 2 cores x 4 warps wait at a gate until the debugger writes `go`.
 *   jtag_app KERNELS.elf [LIMIT [HOLD_MS [noclose|close3|closeabort|closelinger]]]
 * HOLD_MS: keep the device open that long after the results (a probe
 * still attached then finishes its session before the bus goes away).
 * noclose: return 3 from main without closing the device, as a program
 * does after a failed check (the exit closes it, if anything does).
 * close3: close the device, then return 3 (the exit status comes after
 * the close); closeabort: close it, then abort(); closelinger: close it,
 * print "device closed", then run on for 3 s and return 3.
 * Prints the buffers' device addresses, "launching", then "go=0x..." and
 * "result ok" when every thread's result is right. Exit 0 only then.
 * JTAG_APP_SPLIT=1 in the environment runs split_gate instead, whose odd
 * and even threads wait in two loops (every result is then 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "warpscope/warpscope.h"

enum { BLOCKS = 8, THREADS = 32, N = BLOCKS * THREADS };

static int fail(ws_device *dev, const char *what, ws_status st)
{
    fprintf(stderr, "jtag_app: %s: %s: %s\n", what, ws_status_name(st), dev ? ws_last_error(dev) : "");
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: jtag_app KERNELS.elf [LIMIT]\n");
        return 2;
    }
    int limit = argc > 2 ? atoi(argv[2]) : 2000000;
    ws_config cfg;
    ws_config_default(&cfg);
    cfg.cores = 2;
    cfg.warps_per_core = 4;
    cfg.max_threads_per_block = 128;
    ws_device *dev;
    ws_module *mod;
    ws_kernel *k;
    ws_status st = ws_device_open(&cfg, &dev);
    if (st) return fail(NULL, "opening the device", st);
    const char *split = getenv("JTAG_APP_SPLIT");
    const int diverged = split && !strcmp(split, "1");
    if ((st = ws_module_load_file(dev, argv[1], &mod)) ||
        (st = ws_kernel_get(mod, diverged ? "split_gate" : "gate", &k)))
        return fail(dev, argv[1], st);
    ws_addr out, go, spins, pattern;
    unsigned pat[4] = { 0x11111111, 0x22222222, 0xdeadbeef, 0x0badf00d };
    int zero = 0, res[N];
    if ((st = ws_malloc(dev, sizeof res, &out)) || (st = ws_malloc(dev, 4, &go)) || (st = ws_malloc(dev, 4, &spins)) ||
        (st = ws_malloc(dev, sizeof pat, &pattern)) || (st = ws_memcpy_htod(dev, go, &zero, 4)) ||
        (st = ws_memset(dev, out, 0, sizeof res)) || (st = ws_memcpy_htod(dev, pattern, pat, sizeof pat)))
        return fail(dev, "preparing", st);
    printf("go at 0x%08x\nout at 0x%08x\npattern at 0x%08x\nlaunching\n", (unsigned)go, (unsigned)out,
           (unsigned)pattern);
    fflush(stdout);
    ws_arg args[] = { WS_ARG_PTR(out), WS_ARG_PTR(go), WS_ARG_PTR(spins), WS_ARG_I32(limit) };
    ws_arg split_args[] = { WS_ARG_PTR(go), WS_ARG_PTR(out), WS_ARG_I32(limit) };
    if ((st = ws_launch(dev, k, WS_DIM3(BLOCKS, 1, 1), WS_DIM3(THREADS, 1, 1), 0, diverged ? split_args : args,
                        diverged ? 3 : 4)) ||
        (st = ws_synchronize(dev)))
        return fail(dev, "running gate", st);
    unsigned g = 0;
    int n = 0;
    if ((st = ws_memcpy_dtoh(dev, res, out, sizeof res)) || (st = ws_memcpy_dtoh(dev, &g, go, 4)) ||
        (st = ws_memcpy_dtoh(dev, &n, spins, 4)))
        return fail(dev, "reading results", st);
    printf("go=0x%08x after %d spins (limit %d)\n", g, n, limit);
    for (int i = 0; i < N; i++)
        if (res[i] != (diverged ? 1 : i * 3 + 1)) {
            printf("result BAD at %d: %d\n", i, res[i]);
            return 1;
        }
    printf("result ok\n");
    fflush(stdout);
    if (argc > 3) usleep((useconds_t)atoi(argv[3]) * 1000u);
    if (argc > 4 && !strcmp(argv[4], "noclose")) return 3;
    ws_device_close(dev);
    if (argc > 4 && !strcmp(argv[4], "closeabort")) abort();
    if (argc > 4 && !strcmp(argv[4], "closelinger")) {
        printf("device closed\n");
        fflush(stdout);
        sleep(3);
        return 3;
    }
    return argc > 4 && !strcmp(argv[4], "close3") ? 3 : 0;
}
