/* Finding and preloading the libraries tool commands put in front of the
 * program they run (preload.h). */
#include "preload.h"
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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
