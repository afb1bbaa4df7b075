/* warpscope cc: compile C (or assembly) kernels into a device module with
 * Debian's clang and ld.lld: the right target flags, the device headers,
 * the Warpscope linker script and device library, picolibc and libgcc
 * (the build's copy without line information, libwsgcc.a). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "instrument/epilogue_cfi.h"
#include "cc_order_check.h"
#include "runtime/module_file.h"
#include "runtime/path_text.h"
#include "child.h"
#include "commands.h"
#include "file_copy.h"

#define MAX_ARGS 512
#define PICOLIBC "/usr/lib/picolibc/riscv64-unknown-elf"

typedef struct argv_list { char *v[MAX_ARGS]; int n; } argv_list;

typedef struct cc_paths {
    char include[PATH_MAX], abi_include[PATH_MAX], script[PATH_MAX], devlib[PATH_MAX], atomlib[PATH_MAX];
    char mathlib[PATH_MAX];
    char libgcc[PATH_MAX];
    char clang_buf[PATH_MAX], lld_buf[PATH_MAX];
    const char *clang, *lld;
} cc_paths;

static int add(argv_list *a, const char *s)
{
    if (a->n >= MAX_ARGS - 1) { fprintf(stderr, "warpscope cc: too many arguments\n"); return -1; }
    a->v[a->n++] = (char *)s;
    a->v[a->n] = NULL;
    return 0;
}

static int exists(const char *p) { return access(p, R_OK) == 0; }

/* An object file or archive given on the command line (`warpscope cc -c`
 * output): it goes to the linker, not to clang. */
static int is_object(const char *p)
{
    size_t n = strlen(p);
    return (n > 2 && !strcmp(p + n - 2, ".o")) || (n > 2 && !strcmp(p + n - 2, ".a"));
}

/* out = a + b; 0, or -1 if it does not fit. */
static int join(char *out, size_t len, const char *a, const char *b)
{
    int n = snprintf(out, len, "%s%s", a, b);
    return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* First of the names found on PATH (or an absolute override). */
static const char *find_tool(const char *env, const char *const *names, char *buf, size_t len)
{
    const char *o = getenv(env);
    if (o && *o) return o;
    const char *path = getenv("PATH");
    for (; *names; names++)
        for (const char *p = path ? path : "/usr/bin"; p && *p;) {
            const char *colon = strchr(p, ':');
            size_t n = colon ? (size_t)(colon - p) : strlen(p);
            snprintf(buf, len, "%.*s/%s", (int)n, p, *names);
            if (access(buf, X_OK) == 0) return buf;
            p = colon ? colon + 1 : NULL;
        }
    return NULL;
}

/* Where the kernel headers, linker script and device library are: an
 * explicit WARPSCOPE_KERNEL_DIR, the build tree, or the install prefix. */
static int locate(cc_paths *p)
{
    const char *dir = getenv("WARPSCOPE_KERNEL_DIR");
    char exe[PATH_MAX], rel[PATH_MAX];
    /* An installed warpscope finds its files relative to itself
     * (<prefix>/bin/warpscope -> <prefix>/share/warpscope/kernel). */
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (!dir && n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            if (!join(rel, sizeof rel, exe, "/../share/warpscope/kernel") && exists(rel)) dir = rel;
        }
    }
#ifdef WS_BUILD_KERNEL_LIB_DIR
    if (!dir && exists(WS_BUILD_KERNEL_LIB_DIR "/libwsdevice.a")) { /* running from the build tree */
        snprintf(p->include, sizeof p->include, "%s/include", WS_BUILD_KERNEL_DIR);
        snprintf(p->abi_include, sizeof p->abi_include, "%s", WS_BUILD_ABI_INCLUDE);
        snprintf(p->script, sizeof p->script, "%s/warpscope.ld", WS_BUILD_KERNEL_DIR);
        snprintf(p->devlib, sizeof p->devlib, "%s/libwsdevice.a", WS_BUILD_KERNEL_LIB_DIR);
    } else
#endif
    {
#ifdef WS_INSTALL_KERNEL_DIR
        if (!dir) dir = WS_INSTALL_KERNEL_DIR;
#endif
        if (!dir) dir = "/usr/local/share/warpscope/kernel";
        if (join(p->include, sizeof p->include, dir, "/include") ||
            join(p->abi_include, sizeof p->abi_include, dir, "/include") ||
            join(p->script, sizeof p->script, dir, "/warpscope.ld") ||
            join(p->devlib, sizeof p->devlib, dir, "/libwsdevice.a")) {
            fprintf(stderr, "warpscope cc: path too long: %s\n", dir);
            return -1;
        }
    }
    /* the 64-bit atomics' and the rounding functions' archives sit beside the device library */
    int dirlen = (int)(strrchr(p->devlib, '/') - p->devlib);
    snprintf(p->atomlib, sizeof p->atomlib, "%.*s/libwsatomic.a", dirlen, p->devlib);
    snprintf(p->mathlib, sizeof p->mathlib, "%.*s/libwsmath.a", dirlen, p->devlib);
    if (!exists(p->script) || !exists(p->devlib) || !exists(p->atomlib) || !exists(p->mathlib)) {
        fprintf(stderr, "warpscope cc: kernel support files not found (looked for %s and %s); "
                "set WARPSCOPE_KERNEL_DIR or rebuild\n", p->script, p->devlib);
        return -1;
    }
    if (!exists(PICOLIBC "/lib/rv32imafc/ilp32f/libc.a")) {
        fprintf(stderr, "warpscope cc: picolibc for rv32imafc not found under %s; install the "
                "'picolibc-riscv64-unknown-elf' package (scripts/bootstrap.sh)\n", PICOLIBC);
        return -1;
    }
    /* libgcc as the kernel library's build made it: Debian's without its
     * line information (kernel/CMakeLists.txt, libwsgcc.a), so `step` in
     * gdb steps over the soft-float helpers instead of into libgcc's
     * sources (until 2026-11-28 modules linked Debian's libgcc.a itself) */
    snprintf(p->libgcc, sizeof p->libgcc, "%.*s/libwsgcc.a", dirlen, p->devlib);
    if (!exists(p->libgcc)) {
        fprintf(stderr, "warpscope cc: %s not found (libgcc for rv32imafc without line information, which "
                "the build makes from gcc-riscv64-unknown-elf's); set WARPSCOPE_KERNEL_DIR or rebuild\n", p->libgcc);
        return -1;
    }
    static const char *const clangs[] = { "clang", "clang-14", NULL }, *const llds[] = { "ld.lld", "ld.lld-14", NULL };
    p->clang = find_tool("WARPSCOPE_CLANG", clangs, p->clang_buf, sizeof p->clang_buf);
    p->lld = find_tool("WARPSCOPE_LLD", llds, p->lld_buf, sizeof p->lld_buf);
    if (!p->clang || !p->lld) {
        fprintf(stderr, "warpscope cc: %s not found; install the '%s' package (scripts/bootstrap.sh)\n",
                p->clang ? "ld.lld" : "clang", p->clang ? "lld" : "clang");
        return -1;
    }
    return 0;
}

static int run(argv_list *a, int verbose)
{
    if (verbose) {
        for (int i = 0; i < a->n; i++) fprintf(stderr, "%s%s", i ? " " : "", a->v[i]);
        fprintf(stderr, "\n");
    }
    pid_t pid = fork();
    if (pid < 0) { perror("warpscope cc: fork"); return -1; }
    if (pid == 0) {
        execvp(a->v[0], a->v);
        fprintf(stderr, "warpscope cc: cannot run %s: %s\n", a->v[0], strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR) return -1;
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

static void usage(FILE *f)
{
    fprintf(f, "usage: warpscope cc [-o out.elf] [-c] [-O0|-O1|-O2|-O3|-Os] [-g0] [-I dir] [-D name[=v]]\n"
               "                    [-v] [clang flags...] file.c|file.S|file.o|lib.a...\n"
               "Compiles kernels for the Warpscope device (riscv32 rv32imafc, ilp32f) and links a\n"
               "module with DWARF. -c stops after compiling one file to an object; objects and\n"
               "archives (.o, .a) go to the linker as they are. Without -o the output is named\n"
               "after the first input, in the current folder: k.c -> k.elf (k.o with -c).\n"
               "Each module gets CFI for its functions' epilogues, which clang does not write, so\n"
               "gdb unwinds right at a `ret`; `warpscope cc --epilogue-cfi [-o OUT.elf] MODULE.elf`\n"
               "adds it to a module linked by other means (in place without -o).\n"
               "It warns of a function holding a warp vote, shuffle or barrier whose control flow\n"
               "the device does not follow (a jump to a computed address), where lanes may\n"
               "vote apart; -Wno-warp-order (or -w) silences that warning.\n");
}

typedef struct cc_opts {
    const char *out, *opt, *debug;
    const char *srcs[128], *flags[128];
    int nsrcs, nflags, compile_only, verbose, cfi_only;
    int quiet_order;     /* -Wno-warp-order or -w: no warning of votes out of issue order */
} cc_opts;

/* clang options whose value is the next argument (`-include cfg.h`): the
 * pair goes to clang together, so the value is not taken for an input. */
static int takes_separate_value(const char *flag)
{
    static const char *const with_value[] = { "-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote",
                                              "-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
                                              "-isysroot", "-Xclang", "-mllvm", "-x", "-MF", "-MT", "-MQ", NULL };
    for (int i = 0; with_value[i]; i++)
        if (!strcmp(flag, with_value[i])) return 1;
    return 0;
}

/* Whether the flags hold one of names (NULL-terminated). */
static int has_flag(const cc_opts *o, const char *const *names)
{
    for (int i = 0; i < o->nflags; i++)
        for (int k = 0; names[k]; k++)
            if (!strcmp(o->flags[i], names[k])) return 1;
    return 0;
}

static int parse(int argc, char **argv, cc_opts *o)
{
    memset(o, 0, sizeof *o);
    o->opt = "-O2";
    o->debug = "-g";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 1; }
        if (!strcmp(a, "-o")) { if (++i >= argc) goto bad; o->out = argv[i]; }
        else if (!strcmp(a, "-c")) o->compile_only = 1;
        else if (!strcmp(a, "--epilogue-cfi")) o->cfi_only = 1;
        else if (!strcmp(a, "-Wno-warp-order")) o->quiet_order = 1; /* cc's own warning, not clang's */
        else if (!strcmp(a, "-w")) { /* clang's too: no warnings at all */
            if (o->nflags >= 128) goto bad;
            o->quiet_order = 1, o->flags[o->nflags++] = a;
        }
        else if (!strcmp(a, "-v")) o->verbose = 1;
        else if (!strncmp(a, "-O", 2)) o->opt = a;
        else if (!strcmp(a, "-g0")) o->debug = "-g0";
        else if (takes_separate_value(a)) {
            if (i + 1 >= argc) {
                fprintf(stderr, "warpscope cc: %s needs a value\n", a);
                return -1;
            }
            if (o->nflags + 2 > 128) goto bad;
            o->flags[o->nflags++] = a;
            o->flags[o->nflags++] = argv[++i];
        } else if (a[0] == '-') {
            if (o->nflags >= 128) goto bad;
            o->flags[o->nflags++] = a;
        } else {
            if (o->nsrcs >= 128) goto bad;
            if (!exists(a)) { fprintf(stderr, "warpscope cc: %s: %s\n", a, strerror(errno)); return -1; }
            o->srcs[o->nsrcs++] = a;
        }
    }
    if (!o->nsrcs) { usage(stderr); return -1; }
    static const char *const lang[] = { "-x", NULL };
    for (int i = 0; i < o->nsrcs && !has_flag(o, lang); i++) {
        /* clang takes a .cu file for CUDA and fails on headers for NVIDIA
         * GPUs ("cannot find CUDA installation") */
        const char *dot = strrchr(ws_path_base(o->srcs[i]), '.');
        if (dot && !strcmp(dot, ".cu")) {
            fprintf(stderr,
                    "warpscope cc: %s: a CUDA source: Warpscope kernels are C or C++ with WS_KERNEL and the names "
                    "of <warpscope/kernel.h> (docs/kernel-api.md), not CUDA's __global__; rename it .c or .cpp, "
                    "or give -x c or -x c++ before it\n",
                    o->srcs[i]);
            return -1;
        }
    }
    if (o->cfi_only && (o->nsrcs != 1 || o->compile_only)) {
        fprintf(stderr, "warpscope cc: --epilogue-cfi takes one linked module (and maybe -o)\n");
        return -1;
    }
    if (o->compile_only && o->nsrcs != 1) { fprintf(stderr, "warpscope cc: -c takes one source file\n"); return -1; }
    if (o->compile_only && is_object(o->srcs[0])) {
        fprintf(stderr, "warpscope cc: -c: %s is already an object; give a .c or .S file\n", o->srcs[0]);
        return -1;
    }
    return 0;
bad:
    usage(stderr);
    return -1;
}

/* With -MD or -MMD and no -MF, clang writes its dependency file beside
 * the object, which a build into a module lives in a temporary folder
 * (and the folder stayed behind, not empty): the file goes beside the
 * module instead, as gcc names it when it links: OUT's name with .d for
 * one source, OUT-SOURCE.d for each of several; its target is the
 * module. dep is empty when there is none to write. */
static void dep_file(const cc_opts *o, const char *out, const char *src, int nsources, char *dep, size_t len)
{
    static const char *const md[] = { "-MD", "-MMD", NULL }, *const mf[] = { "-MF", NULL };
    dep[0] = 0;
    if (!has_flag(o, md) || has_flag(o, mf)) return;
    const char *slash = strrchr(out, '/'), *dot = strrchr(out, '.');
    const int stem = dot && dot > (slash ? slash : out) ? (int)(dot - out) : (int)strlen(out);
    if (nsources == 1) {
        snprintf(dep, len, "%.*s.d", stem, out);
        return;
    }
    const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src, *sdot = strrchr(base, '.');
    snprintf(dep, len, "%.*s-%.*s.d", stem, out, sdot ? (int)(sdot - base) : (int)strlen(base), base);
}

static int compile(const cc_paths *p, const cc_opts *o, const char *src, const char *obj, const char *dep,
                   const char *target)
{
    argv_list a = { .n = 0 };
    const char *fixed[] = { p->clang, "--target=riscv32-unknown-elf", "-march=rv32imafc", "-mabi=ilp32f",
                            "-mno-relax", "-ffreestanding", "-fno-common", "-fno-builtin-printf",
                            "-ftls-model=local-exec",
                            /* as a GPU compiler: a warp vote or shuffle
                             * is convergent, not copied onto the paths its
                             * lanes take apart (docs/toolchain.md) */
                            "-Xclang", "-fconvergent-functions",
                            /* 64-bit atomics are lock-free here (the device
                             * library's amocas.d), not what clang warns of */
                            "-Wno-atomic-alignment", o->opt,
                            o->debug, "-I", p->include, "-I", p->abi_include, "-isystem",
                            PICOLIBC "/include", NULL };
    for (int i = 0; fixed[i]; i++) if (add(&a, fixed[i])) return -1;
    for (int i = 0; i < o->nflags; i++) if (add(&a, o->flags[i])) return -1;
    static const char *const mt[] = { "-MT", "-MQ", NULL };
    if (dep && dep[0] && (add(&a, "-MF") || add(&a, dep))) return -1;
    if (dep && dep[0] && !has_flag(o, mt) && (add(&a, "-MT") || add(&a, target))) return -1;
    if (add(&a, "-c") || add(&a, src) || add(&a, "-o") || add(&a, obj)) return -1;
    return run(&a, o->verbose);
}

static int link_module(const cc_paths *p, const cc_opts *o, char objs[][PATH_MAX], int n, const char *out)
{
    argv_list a = { .n = 0 };
    const char *head[] = { p->lld, "-m", "elf32lriscv", "--emit-relocs", "-T", p->script, "-o", out, NULL };
    for (int i = 0; head[i]; i++) if (add(&a, head[i])) return -1;
    for (int i = 0; i < n; i++) if (add(&a, objs[i])) return -1;
    const char *tail[] = { "--whole-archive", p->devlib, "--no-whole-archive", "--start-group", p->atomlib,
                           p->mathlib, /* before libc.a: its rounding functions replace picolibc's */
                           PICOLIBC "/lib/rv32imafc/ilp32f/libc.a", PICOLIBC "/lib/rv32imafc/ilp32f/libm.a",
                           p->libgcc, "--end-group", NULL };
    for (int i = 0; tail[i]; i++) if (add(&a, tail[i])) return -1;
    return run(&a, o->verbose);
}

/* Describe the epilogues of module `in` in its CFI (clang describes
 * prologues only: docs/toolchain.md), writing the result to `out`; with
 * check_order, warn of votes the device cannot keep together in the
 * module written (cc_order_check.h; never fails the build). */
static int epilogue_cfi(const char *in, const char *out, int verbose, int check_order)
{
    uint8_t *data, *fixed;
    size_t len, fixed_len;
    char err[512];
    if (ws_module_file_read(in, &data, &len, err, sizeof err)) {
        fprintf(stderr, "warpscope cc: %s\n", err);
        return -1;
    }
    wsi_cfi_report rep;
    const int rc = wsi_epilogue_cfi(data, len, in, &fixed, &fixed_len, &rep, err, sizeof err);
    free(data);
    if (rc) {
        fprintf(stderr, "warpscope cc: epilogue CFI: %s\n", err);
        return -1;
    }
    char why[PATH_MAX + 128];
    const int failed = ws_write_file_whole(out, fixed, fixed_len, why, sizeof why);
    if (!failed && check_order) cc_warn_unfollowed(fixed, fixed_len, out);
    free(fixed);
    if (failed) {
        fprintf(stderr, "warpscope cc: cannot write %s: %s\n", out, why);
        return -1;
    }
    if (verbose)
        fprintf(stderr, "warpscope cc: epilogue CFI of %s: %u epilogues of %u functions described (of %u); %u left as "
                        "they were%s%s\n", out, rep.epilogues, rep.described, rep.functions, rep.left,
                rep.left ? ", the first " : "", rep.first_left);
    return 0;
}


/* The output named after src as clang and gcc name theirs: its base name in
 * the current folder with its extension replaced by ext (a.c -> a.elf, b.c
 * -> b.o; before 2026-11-27 `cc -c b.c` wrote a.o). */
static void default_output(const char *src, const char *ext, char *out, size_t len)
{
    const char *base = ws_path_base(src);
    const char *dot = strrchr(base, '.');
    snprintf(out, len, "%.*s%s", dot ? (int)(dot - base) : (int)strlen(base), base, ext);
}

int ws_cmd_cc(int argc, char **argv)
{
    cc_opts o;
    int r = parse(argc, argv, &o);
    if (r) return r > 0 ? 0 : 2;
    if (o.cfi_only) return epilogue_cfi(o.srcs[0], o.out ? o.out : o.srcs[0], o.verbose, 0) ? 1 : 0;
    cc_paths p;
    if (locate(&p)) return 1;
    if (o.compile_only) {
        char obj[PATH_MAX];
        if (o.out) snprintf(obj, sizeof obj, "%s", o.out);
        else default_output(o.srcs[0], ".o", obj, sizeof obj);
        return compile(&p, &o, o.srcs[0], obj, NULL, NULL) ? 1 : 0;
    }

    char tmpdir[PATH_MAX - 16];
    if (ws_tool_tmpdir("warpscope cc", "cc", tmpdir, sizeof tmpdir)) return 1;
    char (*objs)[PATH_MAX] = calloc(128, PATH_MAX);
    if (!objs) { rmdir(tmpdir); fprintf(stderr, "warpscope cc: out of memory\n"); return 1; }
    int rc = 0, n = 0, nsources = 0;
    char made[128] = { 0 }; /* objs[i] is a temporary this call compiled */
    char out[PATH_MAX], dep[PATH_MAX];
    if (o.out) snprintf(out, sizeof out, "%s", o.out);
    else default_output(o.srcs[0], ".elf", out, sizeof out);
    for (int i = 0; i < o.nsrcs; i++) nsources += !is_object(o.srcs[i]);
    for (; n < o.nsrcs && !rc; n++) {
        if (is_object(o.srcs[n])) { /* from `warpscope cc -c`, or an archive: linked as it is */
            snprintf(objs[n], PATH_MAX, "%s", o.srcs[n]);
            continue;
        }
        snprintf(objs[n], PATH_MAX, "%s/%d.o", tmpdir, n);
        made[n] = 1;
        dep_file(&o, out, o.srcs[n], nsources, dep, sizeof dep);
        rc = compile(&p, &o, o.srcs[n], objs[n], dep, out);
    }
    if (!rc) rc = link_module(&p, &o, objs, n, out);
    if (!rc) rc = epilogue_cfi(out, out, o.verbose, !o.quiet_order);
    for (int i = 0; i < n; i++) if (made[i]) unlink(objs[i]);
    free(objs);
    rmdir(tmpdir);
    if (rc) fprintf(stderr, "warpscope cc: failed\n");
    return rc ? 1 : 0;
}
