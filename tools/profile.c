/* warpscope profile: run an unmodified host program with the profiler
 * attached (WARPSCOPE_PROFILE), wait for it, print the report the library
 * wrote at device close, and pass the program's exit status on. */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "runtime/settings_text.h"
#include "child.h"
#include "preload.h"
#include "commands.h"
#include "profile_compare.h"

int ws_cmd_profile(int argc, char **argv);

static void usage(FILE *f)
{
    fprintf(f,
            "usage: warpscope profile [options] -- PROGRAM [ARG...]\n"
            "Runs PROGRAM with every device it opens in timing mode, samples the PC and\n"
            "stall reason of its warps, and prints where its kernels spend their cycles.\n"
            "  --period N        a sample every 2^N cycles (0..24, default 10)\n"
            "  --passes N        replay each launch N times with shifted sampling points\n"
            "                    (N x the samples; results are unchanged; 1..64, default 1)\n"
            "  --mode all|rr     sample all warps, or one warp per sample round-robin\n"
            "  --inline caller|callee\n"
            "                    charge inlined code to the line that called it (default)\n"
            "                    or to its own line (e.g. inside <math.h>)\n"
            "  --buffer N        sample buffer capacity in records per pass (default 262144)\n"
            "  --json FILE       write the whole profile as JSON (docs/profiling.md)\n"
            "  --trace FILE      write warp states over time as Chrome/Perfetto trace JSON\n"
            "  --report FILE     also keep the text report in FILE\n"
            "  --source KERNEL   add the kernel's source view: every line and instruction\n"
            "                    with its samples and exact metrics\n"
            "  --baseline FILE   compare with an earlier --json profile: per kernel and\n"
            "                    line, what got better or worse\n"
            "  -q, --quiet       do not print the report\n");
}

static int parse_uint(const char *opt, const char *v, unsigned lo, unsigned hi)
{
    char *end;
    errno = 0;
    unsigned long x = v && *v && *v != '-' ? strtoul(v, &end, 10) : 0;
    if (!v || !*v || *v == '-' || *end || errno || x < lo || x > hi) {
        fprintf(stderr, "warpscope profile: %s %s: expected a number from %u to %u\n", opt, v ? v : "(missing)",
                lo, hi);
        return -1;
    }
    return (int)x;
}

/* The report file as the library left it (NULL if there is none). */
static char *read_report(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    char *buf = NULL;
    size_t len = 0, cap = 0, n;
    do {
        if (len + 1 >= cap) {
            char *nb = realloc(buf, cap = cap ? cap * 2 : 65536);
            if (!nb) break;
            buf = nb;
        }
        n = fread(buf + len, 1, cap - len - 1, f);
        len += n;
    } while (n);
    fclose(f);
    if (buf) buf[len] = 0;
    return buf;
}

/* path as the real path of its directory plus its own name (it need not
 * exist yet); 0 if the directory cannot be resolved. */
static int canonical(const char *path, char out[PATH_MAX])
{
    char d[PATH_MAX], b[PATH_MAX], real[PATH_MAX];
    snprintf(d, sizeof d, "%s", path);
    snprintf(b, sizeof b, "%s", path);
    if (!realpath(dirname(d), real)) return 0;
    return snprintf(out, PATH_MAX, "%s/%s", real, basename(b)) < PATH_MAX;
}

/* Whether the output files a and b are one regular file (or will be), so
 * one output would overwrite the other. Devices such as /dev/null may be
 * shared. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    int ea = !stat(a, &sa), eb = !stat(b, &sb);
    if (ea && eb) return S_ISREG(sa.st_mode) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea || eb) return 0;
    char ca[PATH_MAX], cb[PATH_MAX];
    return !strcmp(a, b) || (canonical(a, ca) && canonical(b, cb) && !strcmp(ca, cb));
}

typedef struct opts {
    unsigned period, passes, buffer;
    const char *mode, *inl, *json, *trace, *report, *source, *baseline;
    int quiet;
} opts;

/* Run prog with the profiler as o asks, print the report and, with a
 * baseline (old), the comparison. The command's exit status. */
static int profile_program(char **prog, opts o, ws_profile_doc *old)
{
    const char *report = o.report, *json = o.json, *trace = o.trace;
    /* The library appends each device's section: start from empty files.
     * The program's devices count themselves in tmpdir/devices as they
     * open, which numbers them in the report, JSON and trace. */
    char tmpdir[PATH_MAX], tmpreport[PATH_MAX + 16] = "", tmpjson[PATH_MAX + 16] = "", devices[PATH_MAX + 16];
    if (ws_tool_tmpdir("warpscope profile", "profile", tmpdir, sizeof tmpdir)) return 1;
    snprintf(devices, sizeof devices, "%s/devices", tmpdir);
    if (!report) {
        snprintf(tmpreport, sizeof tmpreport, "%s/report.txt", tmpdir);
        report = tmpreport;
    }
    if (old && !json) { /* the comparison reads this run's JSON */
        snprintf(tmpjson, sizeof tmpjson, "%s/profile.json", tmpdir);
        json = tmpjson;
    }
    const char *outs[3] = { report, json, trace }, *flags[3] = { "--report", "--json", "--trace" };
    struct stat sb;
    if (report != tmpreport && !stat(report, &sb) && !S_ISREG(sb.st_mode)) {
        fprintf(stderr, "warpscope profile: --report %s: not a regular file (the report is read back)\n", report);
        return 2;
    }
    for (int k = 0; k < 3; k++) {
        /* An output that cannot be written fails now, before the program
         * runs, not as a warning after it. */
        int fd = outs[k] ? open(outs[k], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -2;
        if (fd == -1) {
            fprintf(stderr, "warpscope profile: %s %s: cannot write: %s\n", flags[k], outs[k], strerror(errno));
            rmdir(tmpdir);
            return 2;
        }
        int regular = fd >= 0 && !fstat(fd, &sb) && S_ISREG(sb.st_mode);
        if (fd >= 0) close(fd);
        /* Start from no file (the library appends); never unlink a device
         * such as /dev/null. */
        if (regular && unlink(outs[k]) && errno != ENOENT) {
            fprintf(stderr, "warpscope profile: cannot replace %s: %s\n", outs[k], strerror(errno));
            rmdir(tmpdir);
            return 1;
        }
    }
    /* (a file name with a comma goes in double quotes: runtime/settings_text.h) */
    char spec[5 * PATH_MAX + 256];
    int n = snprintf(spec, sizeof spec, "period=%u,passes=%u,mode=%s,inline=%s,buffer=%u", o.period, o.passes, o.mode,
                     o.inl, o.buffer);
    size_t len = n > 0 && n < (int)sizeof spec ? (size_t)n : sizeof spec;
    if (len >= sizeof spec || ws_settings_add(spec, sizeof spec, &len, "report", report) ||
        (json && ws_settings_add(spec, sizeof spec, &len, "json", json)) ||
        (trace && ws_settings_add(spec, sizeof spec, &len, "trace", trace)) ||
        (o.source && ws_settings_add(spec, sizeof spec, &len, "source", o.source)) ||
        ws_settings_add(spec, sizeof spec, &len, "devices", devices)) {
        fprintf(stderr, "warpscope profile: file names too long\n");
        rmdir(tmpdir);
        return 2;
    }
    if (setenv("WARPSCOPE_PROFILE", spec, 1)) { perror("warpscope profile: setenv"); return 1; }
    int status = 0, rc;
    ws_preload_exit_close(); /* a device the program leaves open still reports */
    if (ws_run_child("warpscope profile", prog, &status)) rc = 127;
    else if (WIFSIGNALED(status)) {
        fprintf(stderr, "warpscope profile: %s was killed by signal %d (%s)\n", prog[0], WTERMSIG(status),
                strsignal(WTERMSIG(status)));
        rc = 128 + WTERMSIG(status);
    } else {
        rc = WEXITSTATUS(status);
        if (rc) fprintf(stderr, "warpscope profile: %s exited with status %d\n", prog[0], rc);
    }
    if (rc != 127) {
        /* The library creates the report when a device opens and writes
         * the profile into it when the device closes. */
        char *text = read_report(report);
        /* Nothing profiled fails a successful program, as trace and watch
         * do without a trace: a script must not take it for a profile. */
        if (!text) {
            fprintf(stderr, "warpscope profile: %s opened no warpscope device: nothing was profiled\n", prog[0]);
            if (!rc) rc = 1;
        } else if (!strstr(text, "== warpscope profile")) {
            fprintf(stderr, "warpscope profile: no profile was written: %s opened a warpscope device but ended "
                    "without closing it (profiles are written by ws_device_close)\n", prog[0]);
            (void)ws_preload_explain_static("warpscope profile", prog[0], NULL);
            if (!rc) rc = 1;
        } else if (!o.quiet) {
            fflush(stdout);
            printf("\n%s", text);
            fflush(stdout);
        }
        int written = text && strstr(text, "== warpscope profile");
        if (text && (!strncmp(text, "error: cannot write ", 20) || strstr(text, "\nerror: cannot write ")) && !rc)
            rc = 1; /* the library said which file on stderr and in the report */
        for (int k = 1; k < 3; k++)
            if (outs[k] && written && access(outs[k], F_OK)) {
                fprintf(stderr, "warpscope profile: %s %s was not written\n", flags[k], outs[k]);
                if (!rc) rc = 1;
            }
        free(text);
    }
    /* (-q leaves out the report, not the comparison: it is asked for on its own) */
    if (old && rc != 127 && !access(json, R_OK)) {
        char err[600];
        ws_profile_doc *now = ws_profile_doc_load(json, err, sizeof err);
        fflush(stdout);
        if (now) ws_profile_doc_compare(old, o.baseline, now, stdout);
        else {
            fprintf(stderr, "warpscope profile: cannot compare with --baseline: %s\n", err);
            if (!rc) rc = 1;
        }
        ws_profile_doc_free(now);
    }
    if (tmpjson[0]) unlink(tmpjson);
    if (report == tmpreport) unlink(tmpreport);
    unlink(devices);
    rmdir(tmpdir);
    return rc;
}

int ws_cmd_profile(int argc, char **argv)
{
    opts o = { .period = 10, .passes = 1, .buffer = 1u << 18, .mode = "all", .inl = "caller" };
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i], *v = ws_cli_option_value(argc, argv, i);
        int x;
        if (!strcmp(a, "--")) { i++; break; }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { usage(stdout); return 0; }
        if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) { o.quiet = 1; continue; }
        if (a[0] != '-') break; /* the program, without "--" */
        if (!strcmp(a, "--period")) { if ((x = parse_uint(a, v, 0, 24)) < 0) return 2; o.period = (unsigned)x; }
        else if (!strcmp(a, "--passes")) { if ((x = parse_uint(a, v, 1, 64)) < 0) return 2; o.passes = (unsigned)x; }
        else if (!strcmp(a, "--buffer")) { if ((x = parse_uint(a, v, 16, 1u << 24)) < 0) return 2; o.buffer = (unsigned)x; }
        else if (!strcmp(a, "--mode")) {
            if (!v || (strcmp(v, "all") && strcmp(v, "rr"))) {
                fprintf(stderr, "warpscope profile: --mode %s: expected 'all' or 'rr'\n", v ? v : "(missing)");
                return 2;
            }
            o.mode = v;
        } else if (!strcmp(a, "--baseline")) {
            if (!v) {
                fprintf(stderr, "warpscope profile: --baseline needs a file (an earlier run's --json)\n");
                return 2;
            }
            if (access(v, R_OK)) {
                fprintf(stderr, "warpscope profile: --baseline %s: cannot read it: %s\n", v, strerror(errno));
                return 2;
            }
            o.baseline = v;
        } else if (!strcmp(a, "--source")) {
            if (!v || !*v || strchr(v, ',') || strchr(v, '=')) {
                fprintf(stderr, "warpscope profile: --source needs a kernel name\n");
                return 2;
            }
            o.source = v;
        } else if (!strcmp(a, "--inline")) {
            if (!v || (strcmp(v, "caller") && strcmp(v, "callee"))) {
                fprintf(stderr, "warpscope profile: --inline %s: expected 'caller' or 'callee'\n", v ? v : "(missing)");
                return 2;
            }
            o.inl = v;
        } else if (!strcmp(a, "--json") || !strcmp(a, "--trace") || !strcmp(a, "--report")) {
            if (!v || !*v) {
                fprintf(stderr, "warpscope profile: %s needs a file name\n", a);
                return 2;
            }
            if (a[2] == 'j') o.json = v;
            else if (a[2] == 't') o.trace = v;
            else o.report = v;
        } else {
            fprintf(stderr, "warpscope profile: unknown option '%s'\n\n", a);
            usage(stderr);
            return 2;
        }
        i++;
    }
    if (o.period < 6 && o.passes > 1u << o.period) { /* (before the run, as the library would refuse it) */
        fprintf(stderr, "warpscope profile: --passes %u with --period %u: a sampling period of %u cycle(s) has room for at "
                "most %u pass(es) at different cycles (raise --period or lower --passes)\n", o.passes, o.period,
                1u << o.period, 1u << o.period);
        return 2;
    }
    if (i >= argc) {
        fprintf(stderr, "warpscope profile: no program to run\n\n");
        usage(stderr);
        return 2;
    }
    /* Outputs naming one file would overwrite each other. --json may name
     * the baseline: that is read before the run (compare with the last run
     * and replace it). */
    const char *given[4] = { o.report, o.json, o.trace, o.baseline };
    const char *flag[4] = { "--report", "--json", "--trace", "--baseline" };
    for (int a = 0; a < 3; a++)
        for (int b = a + 1; b < 4; b++)
            if (given[a] && given[b] && !(a == 1 && b == 3) && same_file(given[a], given[b])) {
                fprintf(stderr, "warpscope profile: %s %s and %s %s name the same file: one would overwrite the "
                        "other\n", flag[a], given[a], flag[b], given[b]);
                return 2;
            }
    /* A bad baseline fails now, not after a long run. */
    ws_profile_doc *old = NULL;
    if (o.baseline) {
        char err[600];
        struct stat bs;
        if (!stat(o.baseline, &bs) && S_ISDIR(bs.st_mode))
            snprintf(err, sizeof err, "%s: a directory, not a profile (warpscope profile --json)", o.baseline);
        else
            old = ws_profile_doc_load(o.baseline, err, sizeof err);
        if (!old) {
            fprintf(stderr, "warpscope profile: --baseline: %s\n", err);
            return 2;
        }
    }
    int rc = profile_program(argv + i, o, old);
    ws_profile_doc_free(old);
    return rc;
}
