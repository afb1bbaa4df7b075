/* warpscope run: load a module, launch one kernel with arguments given on
 * the command line, print what the kernel wrote and the launch statistics. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "warpscope/warpscope.h"
#include "commands.h"
#include "run_args.h"
#include "runtime/launch_args.h"

/* Ctrl-C: the first asks the launch to end and report where its warps
 * are (a kernel that spins for ever shows its line); a second one ends
 * the command at once (SA_RESETHAND). The handler needs the device: the
 * one this process runs, set while it is open. */
static ws_device *interrupt_dev;

static void on_interrupt(int sig)
{
    (void)sig;
    if (interrupt_dev) ws_device_interrupt(interrupt_dev);
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: warpscope run [options] MODULE.elf KERNEL [ARG...]\n"
            "  --grid X[,Y[,Z]]     grid size in blocks (default 1)\n"
            "  --block X[,Y[,Z]]    block size in threads (default 32)\n"
            "  --shared BYTES       dynamic shared memory per block\n"
            "  --config K=V[,K=V]   device settings (cores=, lanes_per_warp=, ...)\n"
            "  --save DIR           after the run, write each buffer's bytes to DIR/argN.bin (N counted\n"
            "                       from 1, as printed; DIR is made if missing)\n"
            "Options may also come after MODULE.elf, KERNEL and the ARGs: no ARG starts with --.\n"
            "ARG is a number for scalar parameters; for a pointer parameter,\n"
            "  zeros:N    a zero-filled buffer of N elements of the pointee's type (4 bytes\n"
            "             for void *; for a pointer to an array or a vector, float (*)[4],\n"
            "             N of its scalars), printed after the run\n"
            "  iota:N     a buffer holding 0,1,...,N-1 (int or float, as the parameter says;\n"
            "             not for structs and other elements that are no int or float)\n"
            "  file:PATH  a buffer holding the bytes of the file PATH, whole elements of the\n"
            "             pointee's type, as the device holds them (little-endian); for a struct\n"
            "             or union by value, a file of exactly its bytes\n"
            "Ctrl-C ends a launch that does not end and says where its warps are (exit\n"
            "status 130); a second Ctrl-C ends the command at once.\n");
}

/* A buffer argument: N elements of the pointee's size (4 if unknown).
 * opaque: the elements are no integer or float scalar (a struct, long
 * double, a complex, _Float16), printed as 32-bit words (floats where the
 * element is all 32-bit floats). */
typedef struct buffer {
    ws_addr addr;
    uint64_t n;
    uint32_t size;
    int is_float, is_unsigned, opaque;
    uint8_t *byval; /* a struct passed by value: its bytes (file:PATH) */
} buffer;

#define MAX_BUFFER_BYTES (64ull << 20)

static void fill_iota(uint8_t *v, const buffer *b)
{
    for (uint64_t j = 0; j < b->n; j++) {
        uint8_t *e = v + j * b->size;
        if (b->is_float && b->size == 8) { double d = (double)j; memcpy(e, &d, 8); }
        else if (b->is_float) { float f = (float)j; memcpy(e, &f, 4); }
        else { uint64_t u = j; memcpy(e, &u, b->size); } /* little-endian: the low bytes */
    }
}

static int read_elements(const char *path, uint32_t size, uint8_t **out, unsigned long long *n, char *err,
                         size_t errlen);

static int make_arg(ws_device *dev, const ws_kernel *k, uint32_t i, const char *text, ws_arg *a, buffer *buf)
{
    const char *pname = "", *tn = "";
    ws_param_type t;
    char err[256];
    ws_kernel_param(k, i, &pname, &tn);
    if (ws_kernel_param_type(k, i, &t) != WS_OK) return -1;
    if (t.arg == WS_TYPE_F32 || t.arg == WS_TYPE_F64) {
        if (ws_parse_float_arg(text, t.arg == WS_TYPE_F64, a, err, sizeof err) == 0) return 0;
        fprintf(stderr, "warpscope run: launch of '%s': parameter %u '%s' has type '%s': %s\n", ws_kernel_name(k),
                i, pname, tn, err);
        return -2;
    }
    if (t.arg == WS_TYPE_STRUCT) { /* file:PATH holding exactly the struct's bytes */
        unsigned long long n = 0;
        const char *path;
        int ok = ws_parse_buffer(text, 1, &n, &path, err, sizeof err) == WS_BUFFER_FILE;
        if (!ok)
            snprintf(err, sizeof err, "'%s': a struct by value takes file:PATH, a file of its %u bytes", text, t.size);
        else if (read_elements(path, t.size ? t.size : 1, &buf->byval, &n, err, sizeof err))
            ok = 0;
        else if (n != 1)
            ok = 0, snprintf(err, sizeof err, "file:%s: %llu bytes; the struct is %u", path, n * t.size, t.size);
        if (ok) {
            *a = WS_ARG_STRUCT(buf->byval, t.size);
            return 0;
        }
        fprintf(stderr, "warpscope run: launch of '%s': parameter %u '%s' has type '%s': %s\n", ws_kernel_name(k), i,
                pname, tn, err);
        return -2;
    }
    if (t.arg != WS_TYPE_PTR) { /* the launch's own range check and message (launch_args.h) */
        if (ws_int_arg_from_text(dev, k, i, text, a) == WS_OK) return 0;
        fprintf(stderr, "warpscope run: %s\n", ws_last_error(dev));
        return -2;
    }
    buf->size = t.pointee_size == 1 || t.pointee_size == 2 || t.pointee_size == 8 ? t.pointee_size : 4;
    buf->is_float = t.pointee_float;
    buf->is_unsigned = t.pointee_unsigned;
    uint32_t pbytes = 0;
    int all_float = 0;
    if (!t.pointee_size && ws_param_pointee_bytes(k, i, &pbytes, &all_float) == 0 && pbytes) {
        /* a struct, long double, ...: whole elements (until 2026-11-29, 4
         * bytes each, and a kernel filling a struct float2 * faulted) */
        buf->size = pbytes;
        buf->opaque = 1;
        buf->is_float = all_float && pbytes % 4 == 0;
    }
    unsigned long long n = 0;
    const char *path;
    uint8_t *bytes_in = NULL; /* file:PATH's contents */
    int kind = ws_parse_buffer(text, MAX_BUFFER_BYTES / buf->size, &n, &path, err, sizeof err);
    if (kind == WS_BUFFER_IOTA && buf->opaque) {
        snprintf(err, sizeof err, "'%s': iota:N fills integers or floats; the elements here are %u-byte objects: "
                 "use zeros:N or file:PATH", text, buf->size);
        kind = -1;
    }
    if (kind == WS_BUFFER_FILE && read_elements(path, buf->size, &bytes_in, &n, err, sizeof err)) kind = -1;
    if (kind < 0) {
        fprintf(stderr, "warpscope run: launch of '%s': parameter %u '%s' has type '%s': %s\n", ws_kernel_name(k),
                i, pname, tn, err);
        return -2;
    }
    buf->n = n;
    size_t bytes = (size_t)n * buf->size;
    if (kind == WS_BUFFER_IOTA) {
        if (!(bytes_in = malloc(bytes))) return -1;
        fill_iota(bytes_in, buf);
    }
    ws_status st = ws_malloc(dev, bytes, &buf->addr);
    if (!st && bytes_in) st = ws_memcpy_htod(dev, buf->addr, bytes_in, bytes);
    free(bytes_in);
    if (st) return -1;
    *a = WS_ARG_PTR(buf->addr);
    return 0;
}

/* file:PATH: a regular file of whole elements (`size` bytes each), at
 * least one, at most MAX_BUFFER_BYTES, read whole into *out. */
static int read_elements(const char *path, uint32_t size, uint8_t **out, unsigned long long *n, char *err,
                         size_t errlen)
{
    struct stat sb;
    const int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC); /* (a FIFO must not block the command) */
    FILE *f = fd < 0 ? NULL : fdopen(fd, "rb");
    if (!f || fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
        snprintf(err, errlen, "file:%s: %s", path, !f ? strerror(errno) : "not a regular file");
        if (f) fclose(f);
        else if (fd >= 0) close(fd);
        return -1;
    }
    const unsigned long long len = (unsigned long long)sb.st_size;
    if (!len || len % size || len > MAX_BUFFER_BYTES) {
        snprintf(err, errlen, "file:%s: %llu bytes%s; an element is %u bytes, at most %llu MiB in all", path, len,
                 !len ? "" : len % size ? ", not a whole number of elements" : ", too large", size,
                 MAX_BUFFER_BYTES >> 20);
        fclose(f);
        return -1;
    }
    *out = malloc(len);
    if (!*out || fread(*out, 1, len, f) != len) {
        snprintf(err, errlen, "file:%s: %s", path, !*out ? "out of host memory" : "could not read it whole");
        free(*out);
        *out = NULL;
        fclose(f);
        return -1;
    }
    fclose(f);
    *n = len / size;
    return 0;
}

/* An element that is no scalar, in braces: its 32-bit words (the last
 * one shorter if the size is no multiple of 4), as floats if it is made of
 * floats, else in hexadecimal; at most 16 words, then "...". */
static int print_opaque(ws_device *dev, const buffer *b, uint64_t n)
{
    uint8_t w[16 * 4];
    const uint32_t shown = b->size < sizeof w ? b->size : (uint32_t)sizeof w;
    for (uint64_t j = 0; j < n; j++) {
        if (ws_memcpy_dtoh(dev, w, b->addr + (ws_addr)(j * b->size), shown)) return -1;
        printf(" {");
        for (uint32_t o = 0; o < shown; o += 4) {
            uint32_t u = 0, len = shown - o < 4 ? shown - o : 4;
            memcpy(&u, w + o, len);
            if (b->is_float) { float f; memcpy(&f, &u, 4); printf("%s%.9g", o ? " " : "", f); }
            else printf("%s0x%0*x", o ? " " : "", (int)len * 2, u);
        }
        printf("%s}", shown < b->size ? " ..." : "");
    }
    return 0;
}

static int print_buffer(ws_device *dev, uint32_t a, const buffer *b)
{
    uint64_t n = b->n < 64 ? b->n : 64;
    uint8_t v[64 * 8];
    if (b->opaque) {
        printf("arg %u:", a + 1);
        if (print_opaque(dev, b, n)) return -1;
        printf("%s\n", n < b->n ? " ..." : "");
        return 0;
    }
    if (ws_memcpy_dtoh(dev, v, b->addr, n * b->size)) return -1;
    printf("arg %u:", a + 1);
    for (uint64_t j = 0; j < n; j++) {
        const uint8_t *e = v + j * b->size;
        if (b->is_float && b->size == 8) { double d; memcpy(&d, e, 8); printf(" %.17g", d); }
        else if (b->is_float) { float f; memcpy(&f, e, 4); printf(" %.9g", f); }
        else {
            uint64_t u = 0;
            memcpy(&u, e, b->size);
            if (b->is_unsigned) printf(" %llu", (unsigned long long)u);
            else if (b->size < 8) printf(" %lld", (long long)((int64_t)(u << (64 - 8 * b->size)) >> (64 - 8 * b->size)));
            else printf(" %lld", (long long)(int64_t)u);
        }
    }
    printf("%s\n", n < b->n ? " ..." : "");
    return 0;
}

/* --save DIR: a directory we can write in, made if missing. */
static int usable_dir(const char *dir, char *err, size_t errlen)
{
    struct stat sb;
    const char *why = NULL;
    if (mkdir(dir, 0777) && errno != EEXIST) why = strerror(errno);
    else if (stat(dir, &sb)) why = strerror(errno);
    else if (!S_ISDIR(sb.st_mode)) why = "not a directory";
    else if (access(dir, W_OK | X_OK)) why = strerror(errno);
    if (why) snprintf(err, errlen, "%s: %s", dir, why);
    return why ? -1 : 0;
}

/* Buffer a's bytes to DIR/arg<a+1>.bin, written whole or not at all (a
 * temporary name, then rename). -2 after saying why, -1 on a device error. */
static int save_buffer(ws_device *dev, const char *dir, uint32_t a, const buffer *b)
{
    const size_t bytes = (size_t)b->n * b->size;
    char path[4096], tmp[4096 + 16];
    uint8_t *v = malloc(bytes);
    if (!v) { fprintf(stderr, "warpscope run: --save: out of host memory\n"); return -2; }
    if (ws_memcpy_dtoh(dev, v, b->addr, bytes)) { free(v); return -1; }
    snprintf(path, sizeof path, "%s/arg%u.bin", dir, a + 1);
    snprintf(tmp, sizeof tmp, "%s.part", path);
    FILE *f = fopen(tmp, "wb");
    int ok = f && fwrite(v, 1, bytes, f) == bytes;
    ok = f && !fclose(f) && ok && !rename(tmp, path);
    if (!ok) {
        fprintf(stderr, "warpscope run: --save: writing %s: %s\n", path, strerror(errno));
        if (f) unlink(tmp);
    }
    free(v);
    return ok ? 0 : -2;
}

/* What the options set. */
typedef struct run_options {
    ws_dim3 grid, block;
    uint32_t shared;
    const char *save_dir;
    ws_config cfg;
} run_options;

/* Option o with its value v (NULL: none). 0, 1 after --help, or 2 (the
 * exit status) after saying what is wrong. */
static int run_option(run_options *ro, const char *o, const char *v)
{
    char err[256];
    unsigned long long v64;
    if (!strcmp(o, "-h") || !strcmp(o, "--help")) { usage(stdout); return 1; }
    if (!v) { fprintf(stderr, "warpscope run: %s needs a value\n", o); return 2; }
    if (!strcmp(o, "--grid") || !strcmp(o, "--block")) {
        if (ws_parse_dim3(v, !strcmp(o, "--grid") ? &ro->grid : &ro->block, err, sizeof err)) {
            fprintf(stderr, "warpscope run: %s %s\n", o, err);
            return 2;
        }
    } else if (!strcmp(o, "--shared")) {
        if (ws_parse_u64(v, UINT32_MAX, &v64, err, sizeof err)) {
            fprintf(stderr, "warpscope run: --shared %s\n", err);
            return 2;
        }
        ro->shared = (uint32_t)v64;
    } else if (!strcmp(o, "--save")) {
        ro->save_dir = v;
    } else if (!strcmp(o, "--config")) {
        if (ws_config_parse(&ro->cfg, v, err, sizeof err)) { fprintf(stderr, "warpscope run: %s\n", err); return 2; }
    } else {
        fprintf(stderr, "warpscope run: unknown option '%s'\n", o);
        usage(stderr);
        return 2;
    }
    return 0;
}

/* Load path, launch its kernel kname with the nargs arguments args
 * (text) as ro says, print the buffers and the statistics: the exit status. */
static int run_kernel(const run_options *ro, const char *path, const char *kname, uint32_t nargs, char **args_text)
{
    char err[256];
    ws_config cfg = ro->cfg;
    if (ws_config_validate(&cfg, err, sizeof err)) { fprintf(stderr, "warpscope run: %s\n", err); return 2; }
    if (ro->save_dir && usable_dir(ro->save_dir, err, sizeof err)) { /* before the launch, not after a long one */
        fprintf(stderr, "warpscope run: --save %s\n", err);
        return 2;
    }
    ws_device *dev;
    if (ws_device_open(&cfg, &dev)) { fprintf(stderr, "warpscope run: cannot open device\n"); return 1; }
    interrupt_dev = dev;
    struct sigaction sa = { .sa_handler = on_interrupt, .sa_flags = SA_RESETHAND }, old_sa;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_sa);
    int rc = 1;
    ws_status ran = WS_OK; /* the launch's own status */
    ws_module *mod;
    ws_kernel *k;
    ws_arg *args = calloc(nargs + 1, sizeof *args);
    buffer *bufs = calloc(nargs + 1, sizeof *bufs);
    if (!args || !bufs) { fprintf(stderr, "warpscope run: out of memory\n"); goto done; }
    if (ws_module_load_file(dev, path, &mod) || ws_kernel_get(mod, kname, &k)) goto fail;
    if (ws_arg_count_check(dev, k, nargs)) { /* ws_launch's line: no DWARF, or how many it takes */
        fprintf(stderr, "warpscope run: %s\n", ws_last_error(dev));
        goto done;
    }
    for (uint32_t a = 0; a < nargs; a++) {
        int r = make_arg(dev, k, a, args_text[a], &args[a], &bufs[a]);
        if (r == -2) goto done;
        if (r) goto fail;
    }
    if (ws_launch(dev, k, ro->grid, ro->block, ro->shared, args, nargs) || (ran = ws_synchronize(dev))) goto fail;
    for (uint32_t a = 0; a < nargs; a++)
        if (bufs[a].n && print_buffer(dev, a, &bufs[a])) goto fail;
    for (uint32_t a = 0; ro->save_dir && a < nargs; a++) {
        int r = bufs[a].n ? save_buffer(dev, ro->save_dir, a, &bufs[a]) : 0;
        if (r == -2) goto done;
        if (r) goto fail;
    }
    ws_launch_stats st;
    ws_last_launch_stats(dev, &st);
    char cycles[48] = ""; /* timing mode: the simulated cycles, what that mode is for */
    if (st.cycles) snprintf(cycles, sizeof cycles, ", %llu cycles", (unsigned long long)st.cycles);
    printf("%s: %llu thread-instructions, %llu warp-instructions, SIMT efficiency %.1f%%%s, %.3f ms\n",
           kname, (unsigned long long)st.thread_instructions, (unsigned long long)st.warp_instructions,
           st.simt_efficiency * 100, cycles, st.host_seconds * 1e3);
    rc = 0;
    goto done;
fail:
    fprintf(stderr, "warpscope run: %s\n", ws_last_error(dev));
    if (ran == WS_ERR_INTERRUPTED) rc = 128 + SIGINT; /* as a shell reports Ctrl-C */
done:
    for (uint32_t a = 0; bufs && a < nargs; a++) free(bufs[a].byval);
    free(args);
    free(bufs);
    sigaction(SIGINT, &old_sa, NULL);
    interrupt_dev = NULL;
    ws_device_close(dev);
    return rc;
}

int ws_cmd_run(int argc, char **argv)
{
    run_options ro = { .grid = WS_DIM3(1, 1, 1), .block = WS_DIM3(32, 1, 1) };
    ws_config_default(&ro.cfg);
    /* MODULE.elf, KERNEL and the ARGs, in order. Options come before them
     * or anywhere after MODULE.elf as long as they start with "--" (each
     * option has that form, -h aside): no kernel argument does (a number
     * has at most one sign, a buffer starts with its kind), so "--grid 2"
     * at the end is an option, not two arguments, and "-1" an argument.
     * Before MODULE.elf anything starting with "-" is an option (-h). */
    char **words = calloc((size_t)argc, sizeof *words);
    if (!words) { fprintf(stderr, "warpscope run: out of memory\n"); return 1; }
    int nwords = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (nwords ? strncmp(a, "--", 2) : a[0] != '-') {
            words[nwords++] = argv[i];
            continue;
        }
        const char *v = ws_cli_option_value(argc, argv, i); /* every option takes a value */
        const int r = run_option(&ro, a, v);
        if (r) { free(words); return r == 1 ? 0 : r; }
        i++;
    }
    if (nwords < 2) {
        fprintf(stderr, "warpscope run: %s\n", nwords ? "no KERNEL given: name the kernel to launch after MODULE.elf"
                                                      : "no MODULE.elf and KERNEL given");
        usage(stderr);
        free(words);
        return 2;
    }
    int rc = run_kernel(&ro, words[0], words[1], (uint32_t)(nwords - 2), words + 2);
    free(words);
    return rc;
}
