/* Finding and preloading the libraries tool commands put in front of the
 * program they run (preload.h). */
#include "preload.h"
#include <gelf.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "attach/link_note.h"

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

int ws_preload_locate(const char *file, const char *env, const char *build_path, const char *install_path, char *out,
                      size_t len)
{
    const char *set = env ? getenv(env) : NULL;
    if (set && *set) { snprintf(out, len, "%s", set); return exists(out) ? 0 : -1; }
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = 0;
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = 0;
            const char *libs[] = { "lib", "lib64", "lib/x86_64-linux-gnu" };
            for (size_t i = 0; i < sizeof libs / sizeof *libs; i++)
                if ((size_t)snprintf(out, len, "%s/../%s/%s", exe, libs[i], file) < len && exists(out)) return 0;
        }
    }
    if (build_path && exists(build_path)) { snprintf(out, len, "%s", build_path); return 0; }
    if (install_path && exists(install_path)) { snprintf(out, len, "%s", install_path); return 0; }
    return -1;
}

int ws_preload_prepend(const char *path)
{
    const char *old = getenv("LD_PRELOAD");
    char preload[2 * PATH_MAX + 2], by_fd[64];
    /* The dynamic loader splits LD_PRELOAD at spaces and colons, with no
     * way to quote them: a library in a directory named so (a build tree
     * under "My Projects") was cut in two and not preloaded. Such a path is
     * given as an inherited descriptor of the library instead, which
     * /proc/self/fd names without either. */
    if (strpbrk(path, " :")) {
        int fd = open(path, O_RDONLY); /* not close-on-exec: the program opens it */
        if (fd < 0) return -1;
        snprintf(by_fd, sizeof by_fd, "/proc/self/fd/%d", fd);
        path = by_fd;
    }
    if ((size_t)snprintf(preload, sizeof preload, "%s%s%s", path, old && *old ? ":" : "", old && *old ? old : "") >=
            sizeof preload ||
        setenv("LD_PRELOAD", preload, 1))
        return -1;
#if defined(WS_ASAN_BUILD)
    /* A sanitizer build preloads sanitizer-built libraries ahead of the
     * program's own ASan runtime; ASan refuses that order unless told it
     * is intended. */
    const char *asan = getenv("ASAN_OPTIONS");
    char asan_opts[1024];
    if ((!asan || !strstr(asan, "verify_asan_link_order=0")) &&
        (size_t)snprintf(asan_opts, sizeof asan_opts, "%s%sverify_asan_link_order=0", asan && *asan ? asan : "",
                         asan && *asan ? ":" : "") < sizeof asan_opts)
        setenv("ASAN_OPTIONS", asan_opts, 1);
#endif
    return 0;
}

void ws_preload_exit_close(void)
{
    char lib[PATH_MAX];
    /* (CMakeLists.txt defines the two paths for the command) */
    if (!ws_preload_locate("libwarpscope_exitclose.so", "WARPSCOPE_EXITCLOSE_LIB", WS_BUILD_EXITCLOSE_LIB,
                           WS_INSTALL_EXITCLOSE_LIB, lib, sizeof lib))
        (void)ws_preload_prepend(lib);
}

/* The file execvp would run for `program` (searched in PATH unless it
 * names a directory), opened read-only; -1 if none. */
static int open_program(const char *program)
{
    if (strchr(program, '/')) return open(program, O_RDONLY | O_CLOEXEC);
    const char *path = getenv("PATH");
    for (const char *p = path && *path ? path : "/usr/local/bin:/bin:/usr/bin"; p;) {
        const char *colon = strchr(p, ':');
        size_t n = colon ? (size_t)(colon - p) : strlen(p);
        char file[PATH_MAX];
        if ((size_t)snprintf(file, sizeof file, "%.*s%s%s", (int)n, p, n ? "/" : "", program) < sizeof file) {
            int fd = open(file, O_RDONLY | O_CLOEXEC);
            struct stat st;
            if (fd >= 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) && !access(file, X_OK)) return fd;
            if (fd >= 0) close(fd);
        }
        p = colon ? colon + 1 : NULL;
    }
    return -1;
}

/* 1 if section scn defines ws_device_open (a symbol table: a stripped
 * file may keep none). */
static int defines_device_open(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh)
{
    Elf_Data *d;
    if ((sh->sh_type != SHT_SYMTAB && sh->sh_type != SHT_DYNSYM) || !sh->sh_entsize || !(d = elf_getdata(scn, NULL)))
        return 0;
    for (size_t i = 0; i < sh->sh_size / sh->sh_entsize; i++) {
        GElf_Sym sym;
        const char *n;
        if (gelf_getsym(d, (int)i, &sym) && sym.st_shndx != SHN_UNDEF &&
            (n = elf_strptr(e, sh->sh_link, sym.st_name)) && !strcmp(n, "ws_device_open"))
            return 1;
    }
    return 0;
}

/* 1 if section scn holds a Warpscope note of the type given
 * (attach/link_note.h): the static library's ws_device_open brings one
 * along, which strip keeps where it removes the symbol tables. */
static int holds_link_note(Elf_Scn *scn, const GElf_Shdr *sh, uint32_t type)
{
    Elf_Data *d;
    if (sh->sh_type != SHT_NOTE || !(d = elf_getdata(scn, NULL))) return 0;
    GElf_Nhdr nh;
    size_t off = 0, name_off, desc_off, next;
    while ((next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
        if (nh.n_type == type && nh.n_namesz == sizeof WS_LINK_NOTE_NAME &&
            !memcmp((const char *)d->d_buf + name_off, WS_LINK_NOTE_NAME, sizeof WS_LINK_NOTE_NAME))
            return 1;
        off = next;
    }
    return 0;
}

/* 1 if the ELF file fd has ws_device_open linked in (by its symbol, or by
 * the note) and does not say it closes every device it opens. */
static int links_device_open(int fd)
{
    if (elf_version(EV_CURRENT) == EV_NONE) return 0;
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    Elf_Scn *scn = NULL;
    int found = 0, closes = 0;
    while (e && !closes && (scn = elf_nextscn(e, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh)) continue;
        found |= defines_device_open(e, scn, &sh) || holds_link_note(scn, &sh, WS_LINK_NOTE_TYPE);
        closes = holds_link_note(scn, &sh, WS_LINK_NOTE_TYPE_CLOSES);
    }
    if (e) elf_end(e);
    return found && !closes;
}

int ws_preload_explain_static(const char *who, const char *program, const char *loss)
{
    int fd = open_program(program);
    if (fd < 0) return 0; /* not run at all: the command says so */
    /* a program that defines ws_device_open calls its own copy, which no
     * preloaded library comes before */
    int linked_in = links_device_open(fd);
    close(fd);
    if (linked_in && loss)
        fprintf(stderr,
                "%s: note: %s has libwarpscope linked in (the static library), which the exit closer cannot reach: "
                "if it exits with its device still open, %s. Close the device (ws_device_close) before main "
                "returns, or link with libwarpscope.so.\n", who, program, loss);
    else if (linked_in) /* (after the run: whether it opened a device at all is not known here) */
        fprintf(stderr,
                "%s: %s has libwarpscope linked in (the static library), which the exit closer cannot reach: "
                "if it opened a device, it must close it (ws_device_close) before main returns, or be linked "
                "with libwarpscope.so.\n", who, program);
    return linked_in;
}
