/* warpscope profile: run an unmodified host program with the profiler
 * attached (WARPSCOPE_PROFILE), wait for it, print the report the library
 * wrote at device close, and pass the program's exit status on. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "child.h"
#include "commands.h"
#include "profile_compare.h"
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

int ws_cmd_profile(int argc, char **argv)
{
    unsigned period = 10, passes = 1, buffer = 1u << 18;
    const char *mode = "all", *inl = "caller", *json = NULL, *trace = NULL, *report = NULL, *source = NULL,
               *baseline = NULL;
    int quiet = 0, i = 1;
    for (; i < argc; i++) {
        const char *o = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        int x;
        if (!strcmp(o, "--")) { i++; break; }
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) { usage(stdout); return 0; }
        if (!strcmp(o, "-q") || !strcmp(o, "--quiet")) { quiet = 1; continue; }
        if (o[0] != '-') break; /* the program, without "--" */
        if (!strcmp(o, "--period")) { if ((x = parse_uint(o, v, 0, 24)) < 0) return 2; period = (unsigned)x; }
        else if (!strcmp(o, "--passes")) { if ((x = parse_uint(o, v, 1, 64)) < 0) return 2; passes = (unsigned)x; }
        else if (!strcmp(o, "--buffer")) { if ((x = parse_uint(o, v, 16, 1u << 24)) < 0) return 2; buffer = (unsigned)x; }
        else if (!strcmp(o, "--mode")) {
            if (!v || (strcmp(v, "all") && strcmp(v, "rr"))) {
                fprintf(stderr, "warpscope profile: --mode %s: expected 'all' or 'rr'\n", v ? v : "(missing)");
                return 2;
            }
            mode = v;
        } else if (!strcmp(o, "--baseline")) {
            if (!v || access(v, R_OK)) {
                fprintf(stderr, "warpscope profile: --baseline %s: cannot read it\n", v ? v : "(missing)");
                return 2;
            }
            baseline = v;
        } else if (!strcmp(o, "--source")) {
            if (!v || !*v || strchr(v, ',') || strchr(v, '=')) {
                fprintf(stderr, "warpscope profile: --source needs a kernel name\n");
                return 2;
            }
            source = v;
        } else if (!strcmp(o, "--inline")) {
            if (!v || (strcmp(v, "caller") && strcmp(v, "callee"))) {
                fprintf(stderr, "warpscope profile: --inline %s: expected 'caller' or 'callee'\n", v ? v : "(missing)");
                return 2;
            }
            inl = v;
        } else if (!strcmp(o, "--json") || !strcmp(o, "--trace") || !strcmp(o, "--report")) {
            if (!v || !*v || strchr(v, ',')) {
                fprintf(stderr, "warpscope profile: %s needs a file name without commas\n", o);
                return 2;
            }
            if (o[2] == 'j') json = v;
            else if (o[2] == 't') trace = v;
            else report = v;
        } else {
            fprintf(stderr, "warpscope profile: unknown option '%s'\n\n", o);
            usage(stderr);
            return 2;
        }
        i++;
    }
    if (i >= argc) {
        fprintf(stderr, "warpscope profile: no program to run\n\n");
        usage(stderr);
        return 2;
    }
    /* The library appends each device's section: start from empty files. */
    char tmpdir[] = "/tmp/warpscope-profile-XXXXXX", tmpreport[64] = "", tmpjson[64] = "";
    if ((!report || (baseline && !json)) && !mkdtemp(tmpdir)) { perror("warpscope profile: mkdtemp"); return 1; }
    if (!report) {
        snprintf(tmpreport, sizeof tmpreport, "%s/report.txt", tmpdir);
        report = tmpreport;
    }
    if (baseline && !json) { /* the comparison reads this run's JSON */
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
            if (tmpreport[0] || tmpjson[0]) rmdir(tmpdir);
            return 2;
        }
        int regular = fd >= 0 && !fstat(fd, &sb) && S_ISREG(sb.st_mode);
        if (fd >= 0) close(fd);
        /* Start from no file (the library appends); never unlink a device
         * such as /dev/null. */
        if (regular && unlink(outs[k]) && errno != ENOENT) {
            fprintf(stderr, "warpscope profile: cannot replace %s: %s\n", outs[k], strerror(errno));
            return 1;
        }
    }
    char spec[4096];
    int n = snprintf(spec, sizeof spec, "period=%u,passes=%u,mode=%s,inline=%s,buffer=%u,report=%s%s%s%s%s%s%s",
                     period, passes, mode, inl, buffer, report, json ? ",json=" : "", json ? json : "",
                     trace ? ",trace=" : "", trace ? trace : "", source ? ",source=" : "", source ? source : "");
    if (n >= (int)sizeof spec) { fprintf(stderr, "warpscope profile: file names too long\n"); return 2; }
    if (setenv("WARPSCOPE_PROFILE", spec, 1)) { perror("warpscope profile: setenv"); return 1; }
    int status = 0, rc;
    if (ws_run_child("warpscope profile", argv + i, &status)) rc = 127;
    else if (WIFSIGNALED(status)) {
        fprintf(stderr, "warpscope profile: %s was killed by signal %d (%s)\n", argv[i], WTERMSIG(status),
                strsignal(WTERMSIG(status)));
        rc = 128 + WTERMSIG(status);
    } else {
        rc = WEXITSTATUS(status);
        if (rc) fprintf(stderr, "warpscope profile: %s exited with status %d\n", argv[i], rc);
    }
    if (rc != 127) {
        /* The library creates the report when a device opens and writes
         * the profile into it when the device closes. */
        char *text = read_report(report);
        if (!text)
            fprintf(stderr, "warpscope profile: %s opened no warpscope device: nothing was profiled\n", argv[i]);
        else if (!strstr(text, "== warpscope profile"))
            fprintf(stderr, "warpscope profile: no profile was written: %s opened a warpscope device but ended "
                    "without closing it (profiles are written by ws_device_close)\n", argv[i]);
        else if (!quiet) {
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
    if (baseline && rc != 127 && !access(json, R_OK) && !quiet) {
        fflush(stdout);
        if (ws_profile_compare(baseline, json, stdout) && !rc) rc = 1;
    }
    if (tmpjson[0]) unlink(tmpjson);
    if (report == tmpreport) unlink(tmpreport);
    if (tmpreport[0] || tmpjson[0]) rmdir(tmpdir);
    return rc;
}
