/* The libraries tool commands preload into the program they run: the
 * capture shim (warpscope capture) and the exit closer (warpscope profile,
 * trace and watch: devices left open are closed at exit). */
#ifndef WS_TOOLS_PRELOAD_H
#define WS_TOOLS_PRELOAD_H
#include <stddef.h>

/* The path of library `file` (e.g. "libwarpscope_capture.so"): the
 * environment variable `env` if set, beside an installed warpscope
 * (<prefix>/bin -> <prefix>/lib...), then build_path, then install_path
 * (either may be NULL). 0, or -1 if none exists. */
int ws_preload_locate(const char *file, const char *env, const char *build_path, const char *install_path, char *out,
                      size_t len);
/* Put path in front of LD_PRELOAD for the program about to run. 0, or -1
 * (the environment too long, or a path with a space or colon, which goes
 * in as /proc/self/fd/N of a descriptor the program inherits, cannot be
 * opened). */
int ws_preload_prepend(const char *path);
/* Preload the exit closer if it can be found; without it the command
 * works as before (a device left open writes no report). */
void ws_preload_exit_close(void);
/* If program (as execvp finds it) has libwarpscope linked in (it defines
 * ws_device_open itself, or carries the library's note), which no preloaded library reaches, say so on
 * stderr, prefixed with who, and what to do: before it runs, as a note of
 * what is lost if it exits with its device open (`loss`: "gdb loses the
 * connection ..."), or, loss NULL, after it did. A stripped program is
 * known by the note the library's ws_device_open brings along
 * (attach/link_note.h). Returns 1 if it said so; 0, silent, for other
 * programs, a stripped one linked with a library older than the note, and
 * one that cannot be found. */
int ws_preload_explain_static(const char *who, const char *program, const char *loss);
#endif
