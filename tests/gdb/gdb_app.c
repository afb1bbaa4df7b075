/* Host program the gdb end-to-end tests debug. An ordinary warpscope
 * application: the gdb server comes from WARPSCOPE_DEBUG, nothing here
 * knows about it. Usage: gdb_app MODE KERNELS.elf [DYN.elf]
 *   basic    scale over 2 blocks of 32 threads, result checked
 *   oob      a kernel that stores out of bounds from thread 4 on
 *   misaligned  a kernel whose thread 3 stores to a misaligned address
 *   abort    a kernel whose thread 3 fails an assert, then one whose
 *            thread 3 calls ws_trap
 *   wide     stores into the low word, the high word and a byte of a
 *            64-bit value
 *   many_modules  DYN.elf loaded 260 times, then basic
 *   dynamic  basic, then a module loaded from memory and launched
 *   shared   tiles: 4 blocks, each with its own shared-memory tile
 *   meet     2 blocks of two warps that meet at a barrier
 *   wait     basic, then wait for the file named by the third argument,
 *            then basic again (gdb detaches and attaches meanwhile)
 *   reload   basic three times: before, while and after a second module
 *            (the DYN.elf file) is loaded
 *   reload_late  DYN.elf loaded, its late kernel run, unloaded: three times
 *   nonstop  spin kernels on several cores
 *   many     2048 blocks of 256 threads on 4 cores x 8 warps, checked
 *   deadlock a block whose warps wait at different barriers (expects
 *            WS_ERR_DEADLOCK)
 *   spinlock 64 threads take one spin lock (starved, but correct)
 *   explore  a recursive function, a struct by value, a warp-shuffle
 *            sum and a vote over one block of 64 threads, checked
 *   blur     a 3x3 box blur on a 2-D grid (8x6 pixels, blocks of 4x3)
 *   hang     one warp waits for a flag only gdb sets (to 7); checked
 *   lock_line  one warp of 32 threads takes one lock, each in turn (the
 *            lock is free and every thread has a place at the end)
 *   twins    one warp of 32 threads sums two runs of an array with a
 *            helper inlined twice at -O2, checked
 *   collide  one warp whose 32 lanes all store to out[0], lanes 8-11 to
 *            out[1]; then atomics on one word (cas_turns)
 *   float_turns  one warp whose 32 lanes add their numbers to one float,
 *            then to one double
 *   chain    8 threads of one warp through a helper that calls another
 *            (and ends in a tail call for threads 4-7 at -O2), checked
 *   two_devices  basic on a second device (opened while the first is
 *            open, closed first), then basic on the first
 * GDB_APP_CONFIG in the environment adds configuration text (mode=timing).
 * Prints "result ok" and exits 0 when the results are right. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "warpscope/warpscope.h"

static int fail(ws_device *dev, const char *what, ws_status st)
{
    fprintf(stderr, "gdb_app: %s: %s: %s\n", what, ws_status_name(st), dev ? ws_last_error(dev) : "");
    return 1;
}

static int run_scale(ws_device *dev, ws_module *mod)
{
    enum { N = 64 };
    int in[N], out[N];
    ws_kernel *k;
    ws_addr din, dout;
    ws_status st;
    for (int i = 0; i < N; i++) in[i] = i;
    if ((st = ws_kernel_get(mod, "scale", &k)) || (st = ws_malloc(dev, sizeof in, &din)) ||
        (st = ws_malloc(dev, sizeof out, &dout)) || (st = ws_memcpy_htod(dev, din, in, sizeof in)))
        return fail(dev, "preparing scale", st);
    printf("out buffer at 0x%08x\n", (unsigned)dout);
    fflush(stdout);
    ws_arg args[] = { WS_ARG_PTR(dout), WS_ARG_PTR(din), WS_ARG_I32(N) };
    if ((st = ws_launch(dev, k, WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0, args, 3)) || (st = ws_synchronize(dev)) ||
        (st = ws_memcpy_dtoh(dev, out, dout, sizeof out)))
        return fail(dev, "running scale", st);
    for (int i = 0; i < N; i++)
        if (out[i] != i * i + i * 10 + 1 + 1) {
            printf("result BAD at %d: %d\n", i, out[i]);
            return 1;
        }
    return 0;
}

/* quints: each of 4 threads sums the struct its device function returned. */
static int run_quints(ws_device *dev, ws_module *mod)
{
    int out[4];
    ws_kernel *k;
    ws_addr dout;
    ws_status st;
    if ((st = ws_kernel_get(mod, "quints", &k)) || (st = ws_malloc(dev, sizeof out, &dout)))
        return fail(dev, "preparing quints", st);
    ws_arg args[] = { WS_ARG_PTR(dout) };
    if ((st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(4, 1, 1), 0, args, 1)) || (st = ws_synchronize(dev)) ||
        (st = ws_memcpy_dtoh(dev, out, dout, sizeof out)))
        return fail(dev, "running quints", st);
    for (int i = 0; i < 4; i++)
        if (out[i] != 50 * i + 10) {
            printf("result BAD at %d: %d\n", i, out[i]);
            return 1;
        }
    return 0;
}

static int run_dynamic(ws_device *dev, const char *path)
{
    FILE *f = fopen(path, "rb");
    static unsigned char image[1 << 20];
    size_t n = f ? fread(image, 1, sizeof image, f) : 0;
    if (f) fclose(f);
    if (!n) return fail(dev, path, WS_ERR_IO);
    ws_module *mod;
    ws_kernel *k;
    ws_addr dout;
    int out[8];
    ws_status st;
    if ((st = ws_module_load_data(dev, image, n, "gdb_dyn", &mod)) || (st = ws_kernel_get(mod, "late", &k)) ||
        (st = ws_malloc(dev, sizeof out, &dout)))
        return fail(dev, "loading the dynamic module", st);
    ws_arg args[] = { WS_ARG_PTR(dout), WS_ARG_I32(8) };
    if ((st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(8, 1, 1), 0, args, 2)) || (st = ws_synchronize(dev)) ||
        (st = ws_memcpy_dtoh(dev, out, dout, sizeof out)))
        return fail(dev, "running late", st);
    for (int i = 0; i < 8; i++)
        if (out[i] != 1000 + i) return printf("result BAD in late\n"), 1;
    return 0;
}

/* scale, then a second module loaded (gdb re-inserts its breakpoints at
 * the load event), scale again, the module unloaded, scale a third time:
 * every result must be right. */
static int run_reload(ws_device *dev, ws_module *mod, const char *second)
{
    ws_module *b;
    ws_status st;
    if (run_scale(dev, mod)) return 1;
    if ((st = ws_module_load_file(dev, second, &b))) return fail(dev, "loading the second module", st);
    if (run_scale(dev, mod)) return 1;
    if ((st = ws_module_unload(dev, b))) return fail(dev, "unloading the second module", st);
    return run_scale(dev, mod);
}

/* The DYN.elf module loaded, its `late` launched and the module unloaded,
 * three times back to back: gdb must hear each unload before the next
 * load, or it takes the reload for no change and misses its breakpoint. */
static int run_reload_late(ws_device *dev, const char *path)
{
    for (int round = 0; round < 3; round++) {
        ws_module *m;
        ws_kernel *k;
        ws_addr dout;
        int out[8];
        ws_status st;
        if ((st = ws_module_load_file(dev, path, &m)) || (st = ws_kernel_get(m, "late", &k)) ||
            (st = ws_malloc(dev, sizeof out, &dout)))
            return fail(dev, "loading the late module", st);
        ws_arg args[] = { WS_ARG_PTR(dout), WS_ARG_I32(8) };
        if ((st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(8, 1, 1), 0, args, 2)) || (st = ws_synchronize(dev)) ||
            (st = ws_memcpy_dtoh(dev, out, dout, sizeof out)) || (st = ws_module_unload(dev, m)))
            return fail(dev, "running late", st);
        for (int i = 0; i < 8; i++)
            if (out[i] != 1000 + i) return printf("result BAD in late, round %d\n", round), 1;
    }
    return 0;
}

/* Launch kernel `name`(out, arg) on `blocks` blocks of `threads` threads
 * and copy out back; nonzero (after saying why) on failure. */
static int launch_out_int(ws_device *dev, ws_module *mod, const char *name, unsigned blocks, unsigned threads,
                          int arg, int *out, size_t bytes)
{
    ws_kernel *k;
    ws_addr dout;
    ws_status st;
    if ((st = ws_kernel_get(mod, name, &k)) || (st = ws_malloc(dev, bytes, &dout))) return fail(dev, name, st);
    ws_arg args[] = { WS_ARG_PTR(dout), WS_ARG_I32(arg) };
    if ((st = ws_launch(dev, k, WS_DIM3(blocks, 1, 1), WS_DIM3(threads, 1, 1), 0, args, 2)) ||
        (st = ws_synchronize(dev)) || (st = ws_memcpy_dtoh(dev, out, dout, bytes))) {
        char what[64];
        snprintf(what, sizeof what, "running %s", name);
        return fail(dev, what, st);
    }
    return 0;
}

static int run_tiles(ws_device *dev, ws_module *mod)
{
    enum { B = 4 };
    int out[B * 32];
    if (launch_out_int(dev, mod, "tiles", B, 32, 300, out, sizeof out)) return 1;
    for (int b = 0; b < B; b++)
        for (int t = 0; t < 32; t++)
            if (out[b * 32 + t] != b * 100 + 31 - t) return printf("result BAD in tiles at %d\n", b * 32 + t), 1;
    return 0;
}

/* The tiles kernel from a second copy of the kernels' module, loaded after
 * the late module, so away from its link address: its shared variable
 * stays in the block's shared window (gdb must not move it with the code). */
static int run_tiles_moved(ws_device *dev, const char *kernels, const char *late)
{
    ws_module *first, *moved;
    ws_status st;
    if ((st = ws_module_load_file(dev, late, &first)) || (st = ws_module_load_file(dev, kernels, &moved)))
        return fail(dev, "loading the second copy", st);
    return run_tiles(dev, moved);
}

/* byval(settings, table, out) on 8 threads: structs by value. */
static int run_byval(ws_device *dev, ws_module *mod)
{
    struct { float scale; int offset; } s = { 2.0f, 100 };
    struct { int v[6]; double weight; } t = { { 1, 2, 3, 4, 5, 6 }, 1000.0 };
    int out[8];
    ws_kernel *k;
    ws_addr dout;
    ws_status st;
    ws_arg args[] = { WS_ARG_STRUCT(&s, sizeof s), WS_ARG_STRUCT(&t, sizeof t), WS_ARG_PTR(0) };
    if ((st = ws_kernel_get(mod, "byval", &k)) || (st = ws_malloc(dev, sizeof out, &dout))) return fail(dev, "byval", st);
    args[2] = WS_ARG_PTR(dout);
    if ((st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(8, 1, 1), 0, args, 3)) || (st = ws_synchronize(dev)) ||
        (st = ws_memcpy_dtoh(dev, out, dout, sizeof out)))
        return fail(dev, "running byval", st);
    for (int i = 0; i < 8; i++) {
        int v = i % 6 == 0 ? 1 + i : t.v[i % 6];
        if (out[i] != 2 * v + 100 + 1000) return printf("result BAD in byval at %d: %d\n", i, out[i]), 1;
    }
    return 0;
}

static int run_meet(ws_device *dev, ws_module *mod)
{
    enum { B = 2, T = 64 };
    int out[B * T];
    if (launch_out_int(dev, mod, "meet", B, T, 200, out, sizeof out)) return 1;
    for (int i = 0; i < B * T; i++)
        if (out[i] != (i / T) * 1000 + i % T + 2) return printf("result BAD in meet at %d\n", i), 1;
    return 0;
}

/* scale, then wait (at most 60 s) until the file `flag` exists, then
 * scale again: a program that runs on while gdb detaches and attaches. */
static int run_wait(ws_device *dev, ws_module *mod, const char *flag)
{
    if (run_scale(dev, mod)) return 1;
    printf("waiting for %s\n", flag);
    fflush(stdout);
    for (int i = 0; i < 600 && access(flag, F_OK) != 0; i++) usleep(100 * 1000);
    return run_scale(dev, mod);
}

static int run_oob(ws_device *dev, ws_module *mod, const char *kernel)
{
    ws_kernel *k;
    ws_addr dout;
    ws_status st;
    if ((st = ws_kernel_get(mod, kernel, &k)) || (st = ws_malloc(dev, 16 * 4, &dout))) return fail(dev, kernel, st);
    ws_arg args[] = { WS_ARG_PTR(dout), WS_ARG_I32(16) };
    st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, args, strcmp(kernel, "oob") ? 1 : 2);
    if (!st) st = ws_synchronize(dev);
    printf("oob launch: %s\n", ws_status_name(st));
    return st == WS_ERR_KERNEL_FAULT ? 0 : 1;
}

/* A failed assert, then a ws_trap: each launch ends with its error. */
static int run_abort(ws_device *dev, ws_module *mod)
{
    static const char *const kernels[] = { "asserts", "traps" };
    static const ws_status want[] = { WS_ERR_KERNEL_ASSERT, WS_ERR_KERNEL_FAULT };
    for (int i = 0; i < 2; i++) {
        ws_kernel *k;
        ws_addr dout;
        ws_status st;
        if ((st = ws_kernel_get(mod, kernels[i], &k)) || (st = ws_malloc(dev, 32 * 4, &dout)))
            return fail(dev, kernels[i], st);
        ws_arg args[] = { WS_ARG_PTR(dout) };
        st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, args, 1);
        if (!st) st = ws_synchronize(dev);
        printf("%s launch: %s\n", kernels[i], ws_status_name(st));
        if (st != want[i]) return 1;
    }
    return 0;
}

/* wide: partial stores into a 64-bit value; the results are checked. */
static int run_wide(ws_device *dev, ws_module *mod)
{
    ws_kernel *k;
    ws_addr dv;
    ws_status st;
    long long v[2] = { 0, 0 };
    if ((st = ws_kernel_get(mod, "wide", &k)) || (st = ws_malloc(dev, sizeof v, &dv)) ||
        (st = ws_memcpy_htod(dev, dv, v, sizeof v)))
        return fail(dev, "preparing wide", st);
    ws_arg args[] = { WS_ARG_PTR(dv) };
    if ((st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(4, 1, 1), 0, args, 1)) || (st = ws_synchronize(dev)) ||
        (st = ws_memcpy_dtoh(dev, v, dv, sizeof v)))
        return fail(dev, "running wide", st);
    if (v[0] != 0x700000101ll || v[1] != 5) return printf("result BAD in wide\n"), 1;
    return 0;
}

/* DYN.elf loaded `count` times (each copy a module of its own, under
 * the same long path), then basic. */
static int run_many_modules(ws_device *dev, ws_module *mod, const char *path, int count)
{
    for (int i = 0; i < count; i++) {
        ws_module *m;
        ws_status st = ws_module_load_file(dev, path, &m);
        if (st) return fail(dev, "loading a copy of the late module", st);
    }
    return run_scale(dev, mod);
}

/* A launch that deadlocks: the device reports it; that is the expected end. */
static int run_deadlock(ws_device *dev, ws_module *mod)
{
    ws_kernel *k;
    ws_addr dout;
    ws_status st;
    if ((st = ws_kernel_get(mod, "split_barrier", &k)) || (st = ws_malloc(dev, 64 * 4, &dout)))
        return fail(dev, "split_barrier", st);
    ws_arg args[] = { WS_ARG_PTR(dout) };
    st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(64, 1, 1), 0, args, 1);
    if (!st) st = ws_synchronize(dev);
    printf("deadlock launch: %s\n", ws_status_name(st));
    return st == WS_ERR_DEADLOCK ? 0 : 1;
}

/* Every thread of one block takes a spin lock: slow, but correct. */
static int run_spinlock(ws_device *dev, ws_module *mod)
{
    ws_kernel *k;
    ws_addr lock, count;
    ws_status st;
    int n = 0;
    if ((st = ws_kernel_get(mod, "spin_lock", &k)) || (st = ws_malloc(dev, 4, &lock)) || (st = ws_malloc(dev, 4, &count)) ||
        (st = ws_memset(dev, lock, 0, 4)) || (st = ws_memset(dev, count, 0, 4)))
        return fail(dev, "spin_lock", st);
    ws_arg args[] = { WS_ARG_PTR(lock), WS_ARG_PTR(count) };
    st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(64, 1, 1), 0, args, 2);
    if (!st) st = ws_synchronize(dev);
    if (!st) st = ws_memcpy_dtoh(dev, &n, count, 4);
    printf("spin lock taken %d times\n", n);
    return st != WS_OK || n != 64;
}

static int tri_ref(int n) { return n <= 0 ? 0 : n + tri_ref(n - 1); }

/* explore: out[0] the block's sum, out[1 + t] thread t's tri(t % 5). */
static int run_explore(ws_device *dev, ws_module *mod)
{
    enum { T = 64, N = 64 };
    int in[N], out[1 + T];
    ws_kernel *k;
    ws_addr din, dout;
    ws_status st;
    for (int i = 0; i < N; i++) in[i] = i * 3 + 1;
    if ((st = ws_kernel_get(mod, "explore", &k)) || (st = ws_malloc(dev, sizeof in, &din)) ||
        (st = ws_malloc(dev, sizeof out, &dout)) || (st = ws_memcpy_htod(dev, din, in, sizeof in)))
        return fail(dev, "preparing explore", st);
    ws_arg args[] = { WS_ARG_PTR(dout), WS_ARG_PTR(din), WS_ARG_I32(N) };
    if ((st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(T, 1, 1), 0, args, 3)) || (st = ws_synchronize(dev)) ||
        (st = ws_memcpy_dtoh(dev, out, dout, sizeof out)))
        return fail(dev, "running explore", st);
    int want = 1; /* the vote: odd lanes */
    for (int w = 0; w < T / 32; w++)
        for (int t = w * 32; t < w * 32 + 32; t++) {
            int part = 0;
            for (int j = t; j < N; j += 16) part += in[j];
            want += tri_ref(t % 5) + part;
        }
    printf("explore sum %d (want %d)\n", out[0], want);
    if (out[0] != want) return 1;
    for (int t = 0; t < T; t++)
        if (out[1 + t] != tri_ref(t % 5)) return printf("result BAD in explore at %d\n", t), 1;
    return 0;
}

/* blur: every pixel the sum of its 3x3 neighbourhood, edges clamped. */
static int run_blur(ws_device *dev, ws_module *mod)
{
    enum { W = 8, H = 6 };
    int in[W * H], out[W * H];
    ws_kernel *k;
    ws_addr din, dout;
    ws_status st;
    for (int i = 0; i < W * H; i++) in[i] = i;
    if ((st = ws_kernel_get(mod, "blur2d", &k)) || (st = ws_malloc(dev, sizeof in, &din)) ||
        (st = ws_malloc(dev, sizeof out, &dout)) || (st = ws_memcpy_htod(dev, din, in, sizeof in)))
        return fail(dev, "preparing blur2d", st);
    ws_arg args[] = { WS_ARG_PTR(dout), WS_ARG_PTR(din), WS_ARG_I32(W), WS_ARG_I32(H) };
    if ((st = ws_launch(dev, k, WS_DIM3(2, 2, 1), WS_DIM3(4, 3, 1), 0, args, 4)) || (st = ws_synchronize(dev)) ||
        (st = ws_memcpy_dtoh(dev, out, dout, sizeof out)))
        return fail(dev, "running blur2d", st);
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int acc = 0;
            for (int dy = -1; dy <= 1; dy++)
                for (int dx = -1; dx <= 1; dx++) {
                    int yy = y + dy < 0 ? 0 : y + dy >= H ? H - 1 : y + dy;
                    int xx = x + dx < 0 ? 0 : x + dx >= W ? W - 1 : x + dx;
                    acc += in[yy * W + xx];
                }
            if (out[y * W + x] != acc) return printf("result BAD in blur at (%d,%d)\n", x, y), 1;
        }
    return 0;
}

/* hang: 32 threads wait until gdb sets the flag to 7 */
static int run_hang(ws_device *dev, ws_module *mod)
{
    enum { T = 32 };
    int out[T];
    ws_kernel *k;
    ws_addr flag, dout;
    ws_status st;
    if ((st = ws_kernel_get(mod, "wait_flag", &k)) || (st = ws_malloc(dev, 4, &flag)) ||
        (st = ws_malloc(dev, sizeof out, &dout)) || (st = ws_memset(dev, flag, 0, 4)))
        return fail(dev, "preparing wait_flag", st);
    ws_arg args[] = { WS_ARG_PTR(flag), WS_ARG_PTR(dout) };
    if ((st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(T, 1, 1), 0, args, 2)) || (st = ws_synchronize(dev)) ||
        (st = ws_memcpy_dtoh(dev, out, dout, sizeof out)))
        return fail(dev, "running wait_flag", st);
    for (int t = 0; t < T; t++)
        if (out[t] != 7 + t) return printf("result BAD in wait_flag at %d: %d\n", t, out[t]), 1;
    return 0;
}

/* twins: 32 threads add up two runs of in[] (weights 1, 2, 3...) with
 * an inlined helper and store their difference, checked. */
static int run_twins(ws_device *dev, ws_module *mod)
{
    enum { T = 32 };
    int in[12], out[T];
    ws_kernel *k;
    ws_addr din, dout;
    ws_status st;
    for (int i = 0; i < 12; i++) in[i] = 3 * i + 1;
    if ((st = ws_kernel_get(mod, "twins", &k)) || (st = ws_malloc(dev, sizeof in, &din)) ||
        (st = ws_malloc(dev, sizeof out, &dout)) || (st = ws_memcpy_htod(dev, din, in, sizeof in)))
        return fail(dev, "preparing twins", st);
    ws_arg args[] = { WS_ARG_PTR(dout), WS_ARG_PTR(din) };
    if ((st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(T, 1, 1), 0, args, 2)) || (st = ws_synchronize(dev)) ||
        (st = ws_memcpy_dtoh(dev, out, dout, sizeof out)))
        return fail(dev, "running twins", st);
    for (int t = 0; t < T; t++) {
        int a = 0, b = 0;
        for (int i = 0; i < (t & 3); i++) a += in[i] * (i + 1);
        for (int i = 0; i < (t & 7); i++) b += in[4 + i] * (i + 1);
        if (out[t] != a - b) return printf("result BAD in twins at %d: %d\n", t, out[t]), 1;
    }
    return 0;
}

/* chain: 8 threads through chain_mid and chain_leaf (gdb_kernels.c). */
static int run_chain(ws_device *dev, ws_module *mod)
{
    enum { T = 8 };
    int out[T];
    ws_kernel *k;
    ws_addr dout;
    ws_status st;
    if ((st = ws_kernel_get(mod, "chain", &k)) || (st = ws_malloc(dev, sizeof out, &dout)))
        return fail(dev, "preparing chain", st);
    ws_arg args[] = { WS_ARG_PTR(dout) };
    if ((st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(T, 1, 1), 0, args, 1)) || (st = ws_synchronize(dev)) ||
        (st = ws_memcpy_dtoh(dev, out, dout, sizeof out)))
        return fail(dev, "running chain", st);
    for (int t = 0; t < T; t++) {
        const int a = t * 3 + 1, want = a > 10 ? (a + t) * 3 + 1 : a + a * 3 + 1;
        if (out[t] != want) return printf("result BAD in chain at %d: %d, expected %d\n", t, out[t], want), 1;
    }
    return 0;
}

/* lock_line: 32 threads of one warp take one lock in turn; each records
 * its place in the order, so every place 0..31 is taken once. */
static int run_lock_line(ws_device *dev, ws_module *mod)
{
    enum { T = 32 };
    ws_kernel *k;
    ws_addr lock, count, dorder;
    int order[T], n = 0, lock_value = 1;
    unsigned seen = 0;
    ws_status st;
    if ((st = ws_kernel_get(mod, "lock_line", &k)) || (st = ws_malloc(dev, 4, &lock)) ||
        (st = ws_malloc(dev, 4, &count)) || (st = ws_malloc(dev, sizeof order, &dorder)) ||
        (st = ws_memset(dev, lock, 0, 4)) || (st = ws_memset(dev, count, 0, 4)))
        return fail(dev, "preparing lock_line", st);
    ws_arg args[] = { WS_ARG_PTR(lock), WS_ARG_PTR(count), WS_ARG_PTR(dorder) };
    if ((st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(T, 1, 1), 0, args, 3)) || (st = ws_synchronize(dev)) ||
        (st = ws_memcpy_dtoh(dev, &n, count, 4)) || (st = ws_memcpy_dtoh(dev, order, dorder, sizeof order)) ||
        (st = ws_memcpy_dtoh(dev, &lock_value, lock, 4)))
        return fail(dev, "running lock_line", st);
    for (int t = 0; t < T; t++)
        if (order[t] >= 0 && order[t] < T) seen |= 1u << order[t];
    printf("lock taken %d times, lock %s\n", n, lock_value ? "held" : "free");
    return n != T || lock_value || seen != 0xffffffffu;
}

static int run_collide(ws_device *dev, ws_module *mod)
{
    int out[2];
    if (launch_out_int(dev, mod, "collide", 1, 32, 100, out, sizeof out)) return 1;
    if (out[0] != 131 || out[1] != 11) return printf("result BAD in collide: %d %d\n", out[0], out[1]), 1;
    ws_kernel *k;
    ws_addr dsum, dcount;
    long long sum = 0;
    int count = 0;
    ws_status st;
    if ((st = ws_kernel_get(mod, "cas_turns", &k)) || (st = ws_malloc(dev, 8, &dsum)) ||
        (st = ws_malloc(dev, 4, &dcount)) || (st = ws_memset(dev, dsum, 0, 8)) || (st = ws_memset(dev, dcount, 0, 4)))
        return fail(dev, "preparing cas_turns", st);
    ws_arg args[] = { WS_ARG_PTR(dsum), WS_ARG_PTR(dcount) };
    if ((st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, args, 2)) || (st = ws_synchronize(dev)) ||
        (st = ws_memcpy_dtoh(dev, &sum, dsum, 8)) || (st = ws_memcpy_dtoh(dev, &count, dcount, 4)))
        return fail(dev, "running cas_turns", st);
    if (sum != 496ll << 33 || count != 32) return printf("result BAD in cas_turns: %lld %d\n", sum, count), 1;
    return 0;
}

static int run_float_turns(ws_device *dev, ws_module *mod)
{
    ws_kernel *k;
    ws_addr dsum, dcount, ddsum;
    float sum = 0;
    double dbl = 0;
    int count = 0;
    ws_status st;
    if ((st = ws_kernel_get(mod, "float_turns", &k)) || (st = ws_malloc(dev, 4, &dsum)) ||
        (st = ws_malloc(dev, 4, &dcount)) || (st = ws_malloc(dev, 8, &ddsum)) || (st = ws_memset(dev, dsum, 0, 4)) ||
        (st = ws_memset(dev, dcount, 0, 4)) || (st = ws_memset(dev, ddsum, 0, 8)))
        return fail(dev, "preparing float_turns", st);
    ws_arg args[] = { WS_ARG_PTR(dsum), WS_ARG_PTR(dcount), WS_ARG_PTR(ddsum) };
    if ((st = ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, args, 3)) || (st = ws_synchronize(dev)) ||
        (st = ws_memcpy_dtoh(dev, &sum, dsum, 4)) || (st = ws_memcpy_dtoh(dev, &count, dcount, 4)) ||
        (st = ws_memcpy_dtoh(dev, &dbl, ddsum, 8)))
        return fail(dev, "running float_turns", st);
    /* (0 + 1 + ... + 31 in any order is exact in a float and a double) */
    if (sum != 496.0f || dbl != 496.0 || count != 64)
        return printf("result BAD in float_turns: %g %g %d\n", sum, dbl, count), 1;
    return 0;
}

static int run_two_devices(const ws_config *cfg, const char *kernels)
{
    ws_device *second;
    ws_module *mod;
    ws_status st = ws_device_open(cfg, &second);
    if (st) return fail(NULL, "opening the second device", st);
    if ((st = ws_module_load_file(second, kernels, &mod))) return fail(second, kernels, st);
    int bad = run_scale(second, mod);
    ws_device_close(second);
    return bad;
}

static int run_many(ws_device *dev, ws_module *mod)
{
    enum { BLOCKS = 2048, T = 256, N = BLOCKS * T };
    int *in = malloc(N * sizeof *in), *out = malloc(N * sizeof *out);
    ws_kernel *k;
    ws_addr din, dout;
    ws_status st = WS_ERR_OUT_OF_MEMORY;
    int bad = 1;
    if (!in || !out) goto done;
    for (int i = 0; i < N; i++) in[i] = i;
    if ((st = ws_kernel_get(mod, "many", &k)) || (st = ws_malloc(dev, N * sizeof *in, &din)) ||
        (st = ws_malloc(dev, N * sizeof *out, &dout)) || (st = ws_memcpy_htod(dev, din, in, N * sizeof *in)))
        goto done;
    ws_arg args[] = { WS_ARG_PTR(dout), WS_ARG_PTR(din), WS_ARG_I32(N) };
    if ((st = ws_launch(dev, k, WS_DIM3(BLOCKS, 1, 1), WS_DIM3(T, 1, 1), 0, args, 3)) ||
        (st = ws_synchronize(dev)) || (st = ws_memcpy_dtoh(dev, out, dout, N * sizeof *out)))
        goto done;
    bad = 0;
    for (int i = 0; i < N && !bad; i++)
        if (out[i] != i * 3 + 1) bad = printf("result BAD in many at %d: %d\n", i, out[i]) > 0;
done:
    if (st) fail(dev, "running many", st);
    free(in);
    free(out);
    return bad;
}

static int run_spin(ws_device *dev, ws_module *mod)
{
    enum { BLOCKS = 4, T = 32 };
    int out[BLOCKS * T];
    if (launch_out_int(dev, mod, "spin", BLOCKS, T, 20000, out, sizeof out)) return 1;
    for (int i = 0; i < BLOCKS * T; i++) {
        int acc = 0;
        for (int k = 0; k < 20000; k++) acc += k ^ i;
        if (out[i] != acc) return printf("result BAD in spin at %d\n", i), 1;
    }
    return 0;
}

int run_gfx(ws_device *dev, ws_module *mod); /* gdb_app_gfx.c */

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: gdb_app basic|oob|misaligned|shared|wait|dynamic|reload|nonstop|many|gfx KERNELS.elf [DYN.elf]\n");
        return 2;
    }
    const char *mode = argv[1];
    ws_config cfg;
    ws_config_default(&cfg);
    cfg.cores = 2;
    cfg.warps_per_core = 4;
    cfg.max_threads_per_block = 128;
    if (!strcmp(mode, "many")) { /* a realistic shape: blocks retire and new ones start all the time */
        cfg.cores = 4;
        cfg.warps_per_core = 8;
        cfg.max_threads_per_block = 256;
    }
    /* GDB_APP_CONFIG: more configuration text (mode=timing, threads=2) */
    char cerr[256];
    if (getenv("GDB_APP_CONFIG") && ws_config_parse(&cfg, getenv("GDB_APP_CONFIG"), cerr, sizeof cerr) != WS_OK) {
        fprintf(stderr, "gdb_app: GDB_APP_CONFIG: %s\n", cerr);
        return 2;
    }
    ws_device *dev;
    ws_module *mod;
    ws_status st = ws_device_open(&cfg, &dev);
    if (st) return fail(NULL, "opening the device", st);
    if ((st = ws_module_load_file(dev, argv[2], &mod))) return fail(dev, argv[2], st);
    int bad;
    if (!strcmp(mode, "basic")) bad = run_scale(dev, mod);
    else if (!strcmp(mode, "oob")) bad = run_oob(dev, mod, "oob");
    else if (!strcmp(mode, "misaligned")) bad = run_oob(dev, mod, "misaligned");
    else if (!strcmp(mode, "abort")) bad = run_abort(dev, mod);
    else if (!strcmp(mode, "wide")) bad = run_wide(dev, mod);
    else if (!strcmp(mode, "many_modules")) bad = argc < 4 || run_many_modules(dev, mod, argv[3], 260);
    else if (!strcmp(mode, "dynamic")) bad = run_scale(dev, mod) || argc < 4 || run_dynamic(dev, argv[3]);
    else if (!strcmp(mode, "shared")) bad = run_tiles(dev, mod);
    else if (!strcmp(mode, "shared_moved")) bad = argc < 4 || run_tiles_moved(dev, argv[2], argv[3]);
    else if (!strcmp(mode, "byval")) bad = run_byval(dev, mod);
    else if (!strcmp(mode, "meet")) bad = run_meet(dev, mod);
    else if (!strcmp(mode, "wait")) bad = argc < 4 || run_wait(dev, mod, argv[3]);
    else if (!strcmp(mode, "reload")) bad = argc < 4 || run_reload(dev, mod, argv[3]);
    else if (!strcmp(mode, "reload_late")) bad = argc < 4 || run_reload_late(dev, argv[3]);
    else if (!strcmp(mode, "nonstop")) bad = run_spin(dev, mod);
    else if (!strcmp(mode, "many")) bad = run_many(dev, mod);
    else if (!strcmp(mode, "deadlock")) bad = run_deadlock(dev, mod);
    else if (!strcmp(mode, "spinlock")) bad = run_spinlock(dev, mod);
    else if (!strcmp(mode, "lock_line")) bad = run_lock_line(dev, mod);
    else if (!strcmp(mode, "twins")) bad = run_twins(dev, mod);
    else if (!strcmp(mode, "chain")) bad = run_chain(dev, mod);
    else if (!strcmp(mode, "explore")) bad = run_explore(dev, mod);
    else if (!strcmp(mode, "hang")) bad = run_hang(dev, mod);
    else if (!strcmp(mode, "blur")) bad = run_blur(dev, mod);
    else if (!strcmp(mode, "gfx")) bad = run_gfx(dev, mod);
    else if (!strcmp(mode, "quints")) bad = run_quints(dev, mod);
    else if (!strcmp(mode, "collide")) bad = run_collide(dev, mod);
    else if (!strcmp(mode, "float_turns")) bad = run_float_turns(dev, mod);
    else if (!strcmp(mode, "two_devices")) bad = run_two_devices(&cfg, argv[2]) || run_scale(dev, mod);
    else bad = 2;
    ws_device_close(dev);
    printf("result %s\n", bad ? "BAD" : "ok");
    return bad;
}
