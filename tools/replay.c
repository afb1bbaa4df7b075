/* warpscope replay: re-execute a captured frame (docs/capture-replay.md).
 *
 *   warpscope replay CAPTURE                  replay once, compare with the original
 *   warpscope replay --loop N CAPTURE         N passes, each from the restored start
 *   warpscope replay --list CAPTURE           the call list with indices
 *   warpscope replay --pixel X,Y CAPTURE      every draw that touched a pixel
 *   warpscope replay --element ADDR[:N] CAPTURE  every call that changed bytes of a buffer
 *   warpscope replay --mesh CALL[:ROWS] CAPTURE  the vertices of a draw (the mesh view)
 *   warpscope replay --html DIR CAPTURE       a frame report page
 *   warpscope replay --debug[=SPEC] CAPTURE   gdb on the frame (shadow state)
 *   warpscope replay --dump-after CALL [--out DIR] CAPTURE
 *                                             render targets and textures (PNG) and
 *                                             buffers (.bin) as they are after call CALL
 * --no-restore skips the restore between passes (to see what it does);
 * --config K=V,... changes the device configuration (mode=timing). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "capture/replay_json.h"
#include "capture/replayer.h"
#include "commands.h"
#include "replay_dump.h"
#include "replay_modes.h"
#include "run_args.h"

/* On stdout when asked for (--help), else on stderr after an error. */
static int usage(FILE *f)
{
    fprintf(f,
            "usage: warpscope replay [options] CAPTURE\n"
            "  --loop N            replay N times, restoring the initial state before each pass\n"
            "  --no-restore        do not restore between passes (shows what the restore does)\n"
            "  --list              print the recorded calls with their indices\n"
            "  --dump-after CALL   write render targets and textures (PNG) and buffers (.bin) after\n"
            "                      call CALL, named as --list names them: callN-targetID.png (and\n"
            "                      -depth.bin, -depth.png for a depth image), callN-textureID.png\n"
            "                      (and -levelL.png per mipmap level), callN-buffer-ADDR.bin\n"
            "  --out DIR           where --dump-after writes (default: .)\n"
            "  --config K=V,...    device settings for the replay (e.g. mode=timing)\n"
            "  --debug[=SPEC]      serve gdb on the frame (port=N,port-file=PATH,connect-timeout=MS)\n"
            "  --pixel X,Y         the history of one pixel: every draw that touched it\n"
            "  --target ID         with --pixel (or --html): the pixel of render target ID, as --list\n"
            "                      names it (default: the target the frame's last clear or draw writes)\n"
            "  --element ADDR[:N]  the history of N bytes of a buffer: every call that changed them\n"
            "  --mesh CALL[:ROWS]  the vertices of draw call CALL: inputs, shader outputs, window position\n"
            "  --json FILE         with --list, --pixel, --element or --mesh: also write it as JSON to FILE\n"
            "                      (- : on standard output, instead of the text)\n"
            "  --html DIR          write a frame report (DIR/index.html)\n");
    return 2;
}

/* A whole number min..max, decimal or 0x hex: a leading 0 is not octal, as
 * everywhere else in the command (before 2026-11-27 `--dump-after 010`
 * dumped after call 8, and `--loop -1` was told 0 would do). */
static int parse_u64(const char *opt, const char *text, uint64_t min, uint64_t max, uint64_t *out)
{
    unsigned long long v;
    char err[8];
    if (ws_parse_u64(text, max, &v, err, sizeof err) || v < min) {
        fprintf(stderr, "warpscope replay: %s '%s': expected a whole number %" PRIu64 "..%" PRIu64 "\n", opt, text,
                min, max);
        return -1;
    }
    *out = v;
    return 0;
}

/* The failures of the frame's work the program met, where it met them. */
static void list_failures(const ws_replay_recorded_failure *f, size_t nf, size_t *k, uint64_t call, int own)
{
    for (; *k < nf && f[*k].call == call && f[*k].own == own; ++*k) {
        if (own == 2)
            printf("        (work queued before the capture had failed when it began: %s)\n",
                   ws_status_name(f[*k].status));
        else if (own)
            printf("        (failed when captured: %s)\n", ws_status_name(f[*k].status));
        else
            printf("        (%s, a call the capture does not hold, met a failure here when captured: %s)\n",
                   f[*k].name, ws_status_name(f[*k].status));
    }
}

static ws_status list_json(ws_replay *r, const void *unused, FILE *f, char *err, size_t errlen)
{
    (void)unused;
    return ws_replay_list_json(r, f, err, errlen);
}

static int list_calls(ws_replay *r)
{
    uint64_t n = ws_replay_call_count(r);
    const ws_replay_recorded_failure *f;
    size_t nf, k = 0;
    ws_replay_recorded_failures(r, &f, &nf);
    list_failures(f, nf, &k, 0, 2);
    for (uint64_t i = 0; i < n; i++) {
        ws_replay_call_info info;
        if (ws_replay_describe_call(r, i, &info) != WS_OK) return 1;
        list_failures(f, nf, &k, i, 0);
        printf("%6" PRIu64 "  %s\n", i, info.text);
        list_failures(f, nf, &k, i, 1);
    }
    list_failures(f, nf, &k, n, 0);
    printf("%" PRIu64 " call%s\n", n, n == 1 ? "" : "s");
    return 0;
}

/* The failures a run met as recorded, and went past. */
static void print_met(const ws_replay *r, const char *indent)
{
    const ws_replay_failure *m;
    size_t n;
    ws_replay_failures(r, &m, &n);
    for (size_t i = 0; i < n; i++) {
        if (m[i].own)
            printf("%scall %" PRIu64 " %s: the frame's work failed, as when it was captured, and the replay went on: "
                   "%s\n", indent, m[i].call, m[i].name, m[i].report);
        else if (m[i].call < ws_replay_call_count(r))
            printf("%sbefore call %" PRIu64 " (%s, not in the capture): the frame's work failed, as when it was "
                   "captured, and the replay went on: %s\n", indent, m[i].call, m[i].name, m[i].report);
        else
            printf("%safter the last call (%s): the frame's work failed, as when it was captured: %s\n", indent,
                   m[i].name, m[i].report);
    }
}

typedef struct stop_at { uint64_t call; } stop_at;

static int stop_after(void *user, ws_replay *r, uint64_t index)
{
    (void)r;
    return index >= ((stop_at *)user)->call;
}

/* Each captured frame's end is checked as the pass goes by: the digest
 * of the results there must be the one the original had. */
typedef struct frame_check {
    const ws_replay_frame *frames;
    size_t nframes, next, mismatches;
    ws_status error;
} frame_check;

static int check_frame(void *user, ws_replay *r, uint64_t index)
{
    frame_check *fc = user;
    while (fc->next < fc->nframes && fc->frames[fc->next].last_call == index) {
        const ws_replay_frame *f = &fc->frames[fc->next++];
        uint64_t h;
        if ((fc->error = ws_replay_hash(r, &h)) != WS_OK) return 1;
        if (h != f->digest) {
            fc->mismatches++;
            printf("  frame %" PRIu64 " (ends after call %" PRIu64 "): digest %016" PRIx64 ", the captured frame "
                   "had %016" PRIx64 "\n", f->frame, index, h, f->digest);
        }
    }
    return 0;
}

/* Replay `passes` times and compare every pass with the original frame. */
static int loop(ws_replay *r, uint64_t passes, int restore)
{
    frame_check fc = { 0 };
    ws_replay_frames(r, &fc.frames, &fc.nframes);
    uint64_t first = 0;
    int differ = 0;
    for (uint64_t p = 0; p < passes; p++) {
        if (p && restore && ws_replay_restore(r) != WS_OK) {
            fprintf(stderr, "warpscope replay: %s\n", ws_replay_error(r));
            return 1;
        }
        fc.next = fc.mismatches = 0;
        uint64_t h;
        if (ws_replay_run(r, 0, UINT64_MAX, check_frame, &fc) != WS_OK || fc.error != WS_OK ||
            ws_replay_hash(r, &h) != WS_OK) {
            fprintf(stderr, "warpscope replay: pass %" PRIu64 ": %s\n", p + 1, ws_replay_error(r));
            return 1;
        }
        if (!p) first = h;
        if (!p) print_met(r, "");
        int same = !fc.mismatches && h == first;
        differ |= !same;
        printf("pass %" PRIu64 ": digest %016" PRIx64 ", %zu frame end%s checked: %s\n", p + 1, h, fc.nframes,
               fc.nframes == 1 ? "" : "s",
               same ? (fc.nframes ? "identical to the captured frame" : "identical to pass 1")
                    : (fc.mismatches ? "DIFFERS from the captured frame" : "DIFFERS from pass 1"));
    }
    uint64_t calls = ws_replay_call_count(r);
    printf("%" PRIu64 " pass%s of %" PRIu64 " call%s: %s\n", passes, passes == 1 ? "" : "es", calls,
           calls == 1 ? "" : "s", differ ? "results differ" : "every pass bit-identical");
    return differ ? 1 : 0;
}

/* Each of --list, --dump-after, --debug, --pixel, --element, --mesh and
 * --html is a mode of its own (--html takes --pixel as the report's pixel),
 * --loop and --no-restore shape the plain replay and --out is where
 * --dump-after writes: a combination that would leave an option unused is
 * refused, rather than one of them silently ignored (before 2026-11-27
 * `--pixel X,Y --mesh N` printed the pixel's history alone, `--loop 3
 * --pixel X,Y` replayed once). Returns 0, or 2 after saying why. */
static int check_modes(const replay_request *q, int loop_given, int out_given)
{
    const char *modes[7];
    int n = 0;
    if (q->list) modes[n++] = "--list";
    if (q->dump) modes[n++] = "--dump-after";
    if (q->debug) modes[n++] = "--debug";
    if (q->pixel && !q->html) modes[n++] = "--pixel";
    if (q->element) modes[n++] = "--element";
    if (q->mesh) modes[n++] = "--mesh";
    if (q->html) modes[n++] = "--html";
    if (n > 1) {
        fprintf(stderr, "warpscope replay: %s and %s cannot be combined: each is a mode of its own (run the replay "
                        "once for each)\n", modes[0], modes[1]);
        return 2;
    }
    if (n && (loop_given || !q->restore)) {
        fprintf(stderr, "warpscope replay: %s cannot be combined with %s: --loop and --no-restore shape a plain "
                        "replay (each mode runs the frame from its restored start as often as it needs)\n",
                loop_given ? "--loop" : "--no-restore", modes[0]);
        return 2;
    }
    if (q->json && !((q->pixel && !q->html) || q->element || q->list || q->mesh)) {
        fprintf(stderr, "warpscope replay: --json writes --list, --mesh, or the history of --pixel or --element; %s\n",
                n ? "it cannot be combined with the mode given" : "give one of them");
        return 2;
    }
    if (q->target && !q->pixel && !q->html) {
        fprintf(stderr, "warpscope replay: --target names the render target of --pixel (or of --html's pixel); "
                        "without one it would do nothing\n");
        return 2;
    }
    if (out_given && !q->dump) {
        fprintf(stderr, "warpscope replay: --out is where --dump-after writes; without --dump-after it would do nothing%s\n",
                q->html ? " (--html takes its own directory)" : "");
        return 2;
    }
    return 0;
}

int ws_cmd_replay(int argc, char **argv)
{
    replay_request q = { .passes = 1, .restore = 1, .out = "." };
    uint64_t v;
    int loop_given = 0, out_given = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int more = i + 1 < argc;
        if (!strcmp(a, "--loop") && more) {
            if (parse_u64(a, argv[++i], 1, 1000000, &v)) return 2;
            q.passes = v;
            loop_given = 1;
        } else if (!strcmp(a, "--no-restore")) {
            q.restore = 0;
        } else if (!strcmp(a, "--list")) {
            q.list = 1;
        } else if (!strcmp(a, "--dump-after") && more) {
            if (parse_u64(a, argv[++i], 0, UINT64_MAX - 1, &q.dump_after)) return 2;
            q.dump = 1;
        } else if (!strcmp(a, "--out") && more) {
            q.out = argv[++i];
            out_given = 1;
        } else if (!strcmp(a, "--config") && more) {
            q.config = argv[++i];
        } else if (!strcmp(a, "--debug") || !strncmp(a, "--debug=", 8)) {
            q.debug = a[7] == '=' ? a + 8 : "";
        } else if (!strcmp(a, "--pixel") && more) {
            q.pixel = argv[++i];
        } else if (!strcmp(a, "--target") && more) {
            if (parse_u64(a, argv[++i], 1, UINT32_MAX, &v)) return 2;
            q.target = (uint32_t)v;
        } else if (!strcmp(a, "--element") && more) {
            q.element = argv[++i];
        } else if (!strcmp(a, "--mesh") && more) {
            q.mesh = argv[++i];
        } else if (!strcmp(a, "--html") && more) {
            q.html = argv[++i];
        } else if (!strcmp(a, "--json") && more) {
            q.json = argv[++i];
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        } else if (a[0] != '-' && !q.path) {
            q.path = a;
        } else if (a[0] != '-') {
            /* `--pixel 10 20 f.wscap` took 20 for the capture: it said
             * "unknown or incomplete option 'f.wscap'" */
            fprintf(stderr, "warpscope replay: '%s' and '%s': two CAPTUREs given; replay takes one (an option's "
                            "value written with a space, X Y for X,Y?)\n", q.path, a);
            return usage(stderr);
        } else {
            fprintf(stderr, "warpscope replay: unknown or incomplete option '%s'\n", a);
            return usage(stderr);
        }
    }
    if (!q.path) {
        /* `--json f.wscap` takes the capture for its file: said, not
         * only the usage */
        const char *const *took[] = { &q.json, &q.html, &q.out, &q.pixel, &q.element, &q.mesh, &q.config };
        const char *const names[] = { "--json", "--html", "--out", "--pixel", "--element", "--mesh", "--config" };
        const char *hint = NULL, *value = NULL;
        for (size_t k = 0; k < sizeof took / sizeof *took; k++) {
            size_t len = *took[k] ? strlen(*took[k]) : 0;
            if (len > 6 && !strcmp(*took[k] + len - 6, ".wscap")) hint = names[k], value = *took[k];
        }
        if (hint) fprintf(stderr, "warpscope replay: no CAPTURE given (%s took '%s' as its value)\n", hint, value);
        else fprintf(stderr, "warpscope replay: no CAPTURE given\n");
        return usage(stderr);
    }
    if (check_modes(&q, loop_given, out_given)) return 2;
    char err[1024];
    ws_replay *r;
    ws_replay_options opt = { .config = q.config };
    if (ws_replay_open(q.path, &opt, &r, err, sizeof err) != WS_OK) {
        fprintf(stderr, "warpscope replay: %s\n", err);
        return 1;
    }
    int rc;
    if (q.list) {
        char err2[1024];
        rc = q.json && !strcmp(q.json, "-") ? 0 : list_calls(r);
        if (!rc && q.json && replay_json_out(&q, r, NULL, list_json, err2, sizeof err2) != WS_OK) {
            fprintf(stderr, "warpscope replay: %s: %s\n", q.path, err2);
            rc = 1;
        }
    } else if (q.dump) {
        uint64_t n = ws_replay_call_count(r);
        if (q.dump_after >= n) {
            fprintf(stderr, "warpscope replay: --dump-after %" PRIu64 ": the capture has calls 0..%" PRIu64 "\n",
                    q.dump_after, n ? n - 1 : 0);
            rc = 1; /* (the capture has no such call: not a usage error, as in --mesh) */
        } else if (mkdir(q.out, 0777) && errno != EEXIST) {
            fprintf(stderr, "warpscope replay: cannot create %s: %s\n", q.out, strerror(errno));
            rc = 1;
        } else {
            stop_at s = { q.dump_after };
            if (ws_replay_run(r, 0, UINT64_MAX, stop_after, &s) == WS_OK) {
                print_met(r, "");
                rc = replay_dump(r, q.out, q.dump_after);
            } else {
                fprintf(stderr, "warpscope replay: %s\n", ws_replay_error(r));
                rc = 1;
            }
        }
    } else if (q.debug || q.pixel || q.element || q.mesh || q.html) {
        rc = replay_modes_run(r, &q);
    } else {
        rc = loop(r, q.passes, q.restore);
    }
    ws_replay_close(r);
    return rc;
}
