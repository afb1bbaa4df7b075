/* warpscope debug --record: reverse debugging of a program in one command.
 * The program runs to its end under the capture shim (every call of its
 * first device, or the frames or launches asked for); gdb is then served
 * on the replay of that recording, where `reverse-step`, `reverse-next`,
 * `reverse-continue` and watchpoints backwards work (the frame debugger,
 * docs/capture-replay-debug.md). The live server cannot go backwards: this
 * is the way to, without naming a capture file. */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "runtime/path_text.h"
#include "runtime/settings_text.h"
#include "child.h"
#include "commands.h"
#include "debug_record.h"

/* The recording, for the signal handler: a command ended by Ctrl-C or
 * SIGTERM while it serves gdb (the usual way to stop it) must not leave a
 * recording of the whole program in the temporary directory. */
static char record_dir[PATH_MAX], record_path[PATH_MAX + 300];

static void remove_recording(int sig)
{
    unlink(record_path); /* (both async-signal-safe) */
    rmdir(record_dir);
    signal(sig, SIG_DFL);
    raise(sig);
}

int ws_debug_record(const char *frames, unsigned port, const char *port_file, int argc, char **argv)
{
    char *const dir = record_dir, *const path = record_path;
    if (ws_tool_tmpdir("warpscope debug", "record", dir, sizeof record_dir)) return 1;
    snprintf(path, sizeof record_path, "%s/%s.wscap", dir, ws_path_base(argv[0]));
    const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
    for (size_t k = 0; k < sizeof stop_signals / sizeof *stop_signals; k++) signal(stop_signals[k], remove_recording);

    /* record: `warpscope capture -o PATH --frames FRAMES -- PROGRAM ARG...` */
    char **cap = calloc((size_t)argc + 7, sizeof *cap);
    if (!cap) {
        fprintf(stderr, "warpscope debug: out of memory\n");
        rmdir(dir);
        return 1;
    }
    int n = 0;
    cap[n++] = "capture", cap[n++] = "-o", cap[n++] = path, cap[n++] = "--frames", cap[n++] = (char *)frames;
    cap[n++] = "--";
    for (int i = 0; i < argc; i++) cap[n++] = argv[i];
    const int program_rc = ws_cmd_capture(n, cap);
    free(cap);
    unsetenv("WARPSCOPE_CAPTURE"); /* (the shim's setting: nothing after this is recorded) */
    struct stat st;
    if (stat(path, &st)) { /* capture said why */
        fprintf(stderr, "warpscope debug: --record: nothing to debug: %s left no recording\n", argv[0]);
        rmdir(dir);
        return program_rc ? program_rc : 1;
    }
    fprintf(stderr, "warpscope debug: %s ran to its end (status %d) and was recorded; gdb now debugs its replay, "
                    "forwards and backwards (reverse-step, reverse-next, reverse-continue)\n",
            argv[0], program_rc);

    /* replay it under the frame debugger: `warpscope replay --debug=SPEC PATH` */
    char settings[PATH_MAX + 64] = "", spec[PATH_MAX + 80], num[16];
    size_t len = 0;
    snprintf(num, sizeof num, "%u", port);
    int rc = 0;
    if ((port && ws_settings_add(settings, sizeof settings, &len, "port", num)) ||
        (port_file && ws_settings_add(settings, sizeof settings, &len, "port-file", port_file))) {
        fprintf(stderr, "warpscope debug: --port-file %s: path too long\n", port_file);
        rc = 2;
    }
    snprintf(spec, sizeof spec, "--debug=%s", settings);
    char *rep[] = { "replay", spec, path, NULL };
    if (!rc) rc = ws_cmd_replay(3, rep);
    unlink(path);
    rmdir(dir);
    /* as without --record: the program's exit status, unless serving failed */
    return rc ? rc : program_rc;
}
