/* warpscope capture: run an unmodified program with the capture shim
 * preloaded (libwarpscope_capture.so, docs/capture.md), then say what was
 * captured. A program that dies mid-capture leaves no file: the shim's
 * writer renames its temporary file into place only when the capture
 * ends, and this command removes a temporary file a dead program left
 * (one that exits with its device open keeps the frames that ended). */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "runtime/path_text.h"
#include "runtime/settings_text.h"
#include "capture/capture_calls.h"
#include "capture/shim/shim_spec.h"
#include "warpscope/capture.h"
#include "child.h"
#include "preload.h"
#include "commands.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: warpscope capture [-o FILE] [--frames SPEC] -- PROGRAM [ARG...]\n"
            "Runs PROGRAM (linked with libwarpscope.so) and records frames of its first device\n"
            "into a capture file (docs/capture.md, docs/capture-format.md).\n"
            "  -o, --out FILE   the capture file (default: PROGRAM's name + .wscap)\n"
            "  --frames SPEC    N | A-B | all (device open to close) | key (the frame after\n"
            "                   the program gets SIGUSR1) | launches=A-B (launch ordinals\n"
            "                   from 0); default 0\n");
}

static int exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* The shim: WARPSCOPE_CAPTURE_SHIM, beside an installed warpscope
 * (<prefix>/bin -> <prefix>/lib...), the build tree, the install path. */
static int locate_shim(char *out, size_t len)
{
    /* (CMakeLists.txt defines the two paths for the command) */
    return ws_preload_locate("libwarpscope_capture.so", "WARPSCOPE_CAPTURE_SHIM", WS_BUILD_CAPTURE_SHIM,
                             WS_INSTALL_CAPTURE_SHIM, out, len);
}

/* Remove PATH.tmp-XXXXXX files (the writer's) a dead program left. */
static void remove_temporaries(const char *path)
{
    char dir[PATH_MAX];
    const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    if (slash == path) snprintf(dir, sizeof dir, "/");
    DIR *d = opendir(dir);
    if (!d) return;
    size_t blen = strlen(base);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strncmp(e->d_name, base, blen) || strncmp(e->d_name + blen, ".tmp-", 5) || strlen(e->d_name + blen + 5) != 6)
            continue;
        char p[PATH_MAX];
        if ((size_t)snprintf(p, sizeof p, "%s/%s", dir, e->d_name) < sizeof p && unlink(p) == 0)
            fprintf(stderr, "warpscope capture: removed %s, an unfinished capture\n", p);
    }
    closedir(d);
}

static const char *plural(uint64_t n) { return n == 1 ? "" : "s"; }

/* "captured frame 3: 41 calls, 2.1 MiB -> cube.wscap" from the file. */
static int report(const char *path)
{
    ws_capture_reader *r;
    char err[512];
    if (ws_capture_reader_open(path, &r, err, sizeof err) != WS_OK) {
        fprintf(stderr, "warpscope capture: %s\n", err);
        return -1;
    }
    ws_capture_section s;
    uint64_t calls = 0, frames = 0, first = 0, last = 0, sync = 0, launches = 0;
    uint32_t reason = 0;
    while (ws_capture_reader_next(r, &s) == WS_OK) {
        if (s.type == WS_CAPTURE_API_CALL) {
            wscap_cur c = wscap_cursor(s.data, s.size);
            launches += wscap_u32(&c) == WSCAP_LAUNCH;
            calls++;
        }
        if (s.type != WS_CAPTURE_FRAME_BEGIN) continue;
        wscap_cur c = wscap_cursor(s.data, s.size);
        uint64_t f = wscap_u64(&c);
        uint32_t why = wscap_u32(&c);
        frames++;
        /* with --frames all, a drawing program's set-up is a sync frame
         * numbered apart from the graphics frames after it */
        if (why == WSCAP_FRAME_SYNC && reason == 0 && frames == 1) {
            first = f;
        } else if (why != reason && reason == WSCAP_FRAME_SYNC) {
            sync = frames - 1;
            first = f;
        } else if (frames == 1) {
            first = f;
        }
        reason = why;
        last = f;
    }
    ws_capture_reader_close(r);
    struct stat st;
    double mib = stat(path, &st) == 0 ? (double)st.st_size / (1024.0 * 1024.0) : 0;
    if (reason == WSCAP_FRAME_LAUNCHES && launches > 1) /* (launches are numbered in order: the last is first + n - 1) */
        printf("captured launches %llu-%llu (%llu launches): %llu call%s, %.1f MiB -> %s\n", (unsigned long long)first,
               (unsigned long long)(first + launches - 1), (unsigned long long)launches, (unsigned long long)calls, plural(calls), mib,
               path);
    else if (reason == WSCAP_FRAME_LAUNCHES)
        printf("captured launch %llu: %llu call%s, %.1f MiB -> %s\n", (unsigned long long)first,
               (unsigned long long)calls, plural(calls), mib, path);
    else if (frames == 1)
        printf("captured frame %llu: %llu call%s, %.1f MiB -> %s\n", (unsigned long long)first, (unsigned long long)calls,
               plural(calls), mib, path);
    else if (sync)
        printf("captured the set-up (%llu frame%s before the first ws_gfx_begin_frame) and frame%s %llu%s%.0llu "
               "(%llu frames): %llu call%s, %.1f MiB -> %s\n", (unsigned long long)sync, sync == 1 ? "" : "s",
               first == last ? "" : "s", (unsigned long long)first, first == last ? "" : "-",
               first == last ? 0ull : (unsigned long long)last, (unsigned long long)frames,
               (unsigned long long)calls, plural(calls), mib, path);
    else
        printf("captured frames %llu-%llu (%llu frames): %llu call%s, %.1f MiB -> %s\n", (unsigned long long)first,
               (unsigned long long)last, (unsigned long long)frames, (unsigned long long)calls, plural(calls), mib, path);
    return 0;
}

int ws_cmd_capture(int argc, char **argv)
{
    const char *out = NULL, *frames = "0";
    int i = 1;
    for (; i < argc; i++) {
        const char *o = argv[i], *v = ws_cli_option_value(argc, argv, i);
        if (!strcmp(o, "--")) { i++; break; }
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) { usage(stdout); return 0; }
        if (o[0] != '-') break;
        const char **dst = !strcmp(o, "-o") || !strcmp(o, "--out") ? &out : !strcmp(o, "--frames") ? &frames : NULL;
        if (!dst) { fprintf(stderr, "warpscope capture: unknown option '%s'\n\n", o); usage(stderr); return 2; }
        if (!v || !*v) { fprintf(stderr, "warpscope capture: %s needs a value\n", o); return 2; }
        *dst = argv[++i]; /* (v: the option's value) */
    }
    shim_spec spec;
    char err[256];
    if (shim_spec_parse_frames(frames, &spec, err, sizeof err)) {
        fprintf(stderr, "warpscope capture: --frames: %s\n", err);
        return 2;
    }
    if (i >= argc) { fprintf(stderr, "warpscope capture: no program to run\n\n"); usage(stderr); return 2; }
    char defout[PATH_MAX];
    if (!out) {
        snprintf(defout, sizeof defout, "%s.wscap", ws_path_base(argv[i]));
        out = defout;
    }
    char shim[PATH_MAX];
    if (locate_shim(shim, sizeof shim)) {
        fprintf(stderr, "warpscope capture: libwarpscope_capture.so not found (set WARPSCOPE_CAPTURE_SHIM or rebuild)\n");
        return 1;
    }
    /* a file from an earlier run must not pass for this run's capture */
    if (unlink(out) && errno != ENOENT) {
        fprintf(stderr, "warpscope capture: %s: cannot replace it: %s\n", out, strerror(errno));
        return 1;
    }
    /* absolute, so a program that changes directory writes where we look */
    char cwd[PATH_MAX], abs_out[2 * PATH_MAX + 2];
    if (out[0] != '/' && getcwd(cwd, sizeof cwd)) snprintf(abs_out, sizeof abs_out, "%s/%s", cwd, out);
    else snprintf(abs_out, sizeof abs_out, "%s", out);
    /* The shim writes a temporary file beside the capture: a directory it
     * cannot write is refused now, not found out after the program ran
     * (the shim's "capture abandoned" was followed by "did not reach the
     * chosen frames"). */
    char dir[2 * PATH_MAX + 2];
    snprintf(dir, sizeof dir, "%s", abs_out);
    char *dslash = strrchr(dir, '/');
    if (dslash == dir) dir[1] = 0;
    else if (dslash) *dslash = 0;
    if (access(dir, W_OK | X_OK)) {
        fprintf(stderr, "warpscope capture: %s: cannot write the capture in %s: %s\n", out, dir, strerror(errno));
        return 2;
    }
    char env[3 * PATH_MAX];
    /* where the shim says why it abandoned a capture, if it does */
    const char *tmpdir = getenv("TMPDIR");
    char status_path[PATH_MAX] = "";
    snprintf(status_path, sizeof status_path, "%s/warpscope-capture-status-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    int sfd = mkstemp(status_path);
    if (sfd < 0) status_path[0] = 0;
    else close(sfd);
    /* (WARPSCOPE_CAPTURE separates its settings with commas: a path with
     * one goes in double quotes, runtime/settings_text.h) */
    size_t elen = 0;
    if (ws_settings_add(env, sizeof env, &elen, "out", abs_out) || ws_settings_add(env, sizeof env, &elen, "frames", frames) ||
        (status_path[0] && ws_settings_add(env, sizeof env, &elen, "status", status_path))) {
        if (status_path[0]) unlink(status_path);
        fprintf(stderr, "warpscope capture: -o %s: path too long\n", out);
        return 2;
    }
    if (setenv("WARPSCOPE_CAPTURE", env, 1) || ws_preload_prepend(shim)) {
        if (status_path[0]) unlink(status_path);
        fprintf(stderr, "warpscope capture: the environment is too long\n");
        return 2;
    }
    int status = 0, rc;
    if (ws_run_child("warpscope capture", argv + i, &status)) rc = 127;
    else if (WIFSIGNALED(status)) {
        fprintf(stderr, "warpscope capture: %s was killed by signal %d\n", argv[i], WTERMSIG(status));
        rc = 128 + WTERMSIG(status);
    } else {
        rc = WEXITSTATUS(status);
        if (rc) fprintf(stderr, "warpscope capture: %s exited with status %d\n", argv[i], rc);
    }
    remove_temporaries(out);
    fflush(stdout);
    /* The shim's status file: "#device" once the program opened a device
     * through libwarpscope.so, and why a capture was abandoned, if one was */
    char why[512] = "", line[512];
    int opened = !status_path[0]; /* (no file: not known, the old words) */
    if (status_path[0]) {
        FILE *sf = fopen(status_path, "r");
        while (sf && fgets(line, sizeof line, sf)) {
            line[strcspn(line, "\n")] = 0;
            if (!strcmp(line, "#device")) opened = 1;
            else if (!why[0]) snprintf(why, sizeof why, "%s", line);
        }
        if (sf) fclose(sf);
        unlink(status_path);
    }
    if (exists(out)) {
        if (report(out) && !rc) rc = 1;
    } else if (rc == 0 && why[0]) { /* the shim said why (above, on the program's stderr) */
        fprintf(stderr, "warpscope capture: nothing captured: the capture was abandoned (%s)\n", why);
        rc = 1;
    } else if (!opened && rc != 127) {
        /* a program linked with the static library calls the runtime
         * directly, past the shim: it said "did not reach the chosen
         * frames", and the user tried other frames */
        fprintf(stderr, "warpscope capture: nothing captured: %s opened no device through libwarpscope.so (a program "
                        "linked with the static library cannot be captured: link it with libwarpscope.so, "
                        "docs/capture.md)\n", argv[i]);
        if (!rc) rc = 1;
    } else if (rc == 0 && !strcmp(frames, "key")) {
        /* it said "did not reach the chosen frames", which is no hint that
         * the key is a signal nobody sent */
        fprintf(stderr, "warpscope capture: nothing captured: %s got no SIGUSR1 (--frames key captures the frame "
                        "after one: kill -USR1 PID, the program's or this command's), or began no frame after it\n",
                argv[i]);
        rc = 1;
    } else if (rc == 0) {
        fprintf(stderr, "warpscope capture: nothing captured: %s did not reach the chosen frames (--frames %s)\n",
                argv[i], frames);
        rc = 1;
    } else if (rc != 127) {
        fprintf(stderr, "warpscope capture: no capture file: %s ended before a capture was complete\n", argv[i]);
    }
    return rc;
}
