/* warpscope watch: run an unmodified host program with the device's event
 * trace on (WARPSCOPE_WATCH), then print the decoded events: text, JSON
 * lines, or a Perfetto timeline with a track per core and sub-block; or
 * print a trace file already written (--read). docs/events.md. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zstd.h>
#include "runtime/settings_text.h"
#include "warpscope/events.h"
#include "watch/watch.h"
#include <limits.h>
#include "child.h"
#include "preload.h"
#include "file_copy.h"
#include "commands.h"

static void usage(FILE *f)
{
    fprintf(f,
            "usage: warpscope watch [options] -- PROGRAM [ARG...]\n"
            "       warpscope watch --read FILE [--format text|jsonl|perfetto]\n"
            "Runs PROGRAM with the device's scheduling events traced and prints them.\n"
            "  --events LIST     what to trace: sources (cp, wd, sched, mem, dbg), events\n"
            "                    (wd.dispatch, sched.barrier_wait, ...) or all, joined by '+'\n"
            "                    (default: all)\n"
            "  --capacity BYTES  trace buffer, outside the program's memory (default 8 MiB)\n"
            "  --format text|jsonl|perfetto   how to print (default text); with jsonl and\n"
            "                    perfetto the program's own output goes to stderr\n"
            "  --stats           print only counts per event and bits per event\n"
            "  -o, --out FILE    keep the compressed trace in FILE\n"
            "  --snapshot FILE   keep the copy a trace.snapshot action takes in FILE (read it\n"
            "                    with --read)\n"
            "Debug machines (docs/events.md): each --on starts one; --then adds a step;\n"
            "--do sets its actions.\n"
            "  --on 'EVENT [core=N] [data=V|data!=V|data=LO..HI] [mask=M] [count=K] [for>T]'\n"
            "                    (for>T: the event lasts more than T; sched.barrier_wait,\n"
            "                    sched.warp_start, wd.stall, cp.start)\n"
            "  --then 'EVENT ... [within=T]'\n"
            "  --do 'ACTION[; ACTION...]'   one or more of:\n"
            "                    print (on stderr), count (the counter is printed at the end),\n"
            "                    stop, halt, halt=CORE_MASK, rearm, enable=N (machine N\n"
            "                    starts disabled), trace.start, trace.stop, trace.snapshot,\n"
            "                    wd.halt, wd.step, wd.resume, cp.halt, cp.step, cp.resume\n");
}

/* The events of one device's trace. A file with several devices' traces
 * (one after another, in the order the devices closed) names each: text
 * gets a heading per device, JSON lines a "device" member (from 1), and
 * Perfetto a process per device and sub-block (pid = device * 8 + source). */
static void print_events(const ws_event *ev, size_t n, const char *format, unsigned device, unsigned ndevices,
                         int *first, FILE *f)
{
    int json = !strcmp(format, "jsonl"), perfetto = !strcmp(format, "perfetto");
    if (ndevices > 1 && !json && !perfetto) fprintf(f, "device %u: %zu event%s\n", device, n, n == 1 ? "" : "s");
    char dev[32] = "";
    if (ndevices > 1 && json) snprintf(dev, sizeof dev, "\"device\":%u,", device);
    for (size_t i = 0; i < n; i++) {
        const ws_event *e = &ev[i];
        const char *name = ws_event_name(e->source, e->id);
        if (perfetto) /* instant events: pid = sub-block, tid = core */
            fprintf(f, "%s{\"name\":\"%s\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%u,\"tid\":%u,\"ts\":%llu,\"args\":{\"data\":%u}}",
                    *first ? "" : ",\n", name, ndevices > 1 ? device * 8 + e->source : e->source, e->core,
                    (unsigned long long)e->time, e->data);
        else if (json)
            fprintf(f, "{%s\"time\":%llu,\"event\":\"%s\",\"core\":%u,\"data\":%u}\n", dev, (unsigned long long)e->time,
                    name, e->core, e->data);
        else
            fprintf(f, "%12llu  %-22s core %-3u data 0x%08x\n", (unsigned long long)e->time, name, e->core, e->data);
        *first = 0;
    }
}

/* ndevices > 1: the counts are every device's together, and say so. */
static void print_stats(const ws_event *ev, size_t n, size_t bytes, size_t ndevices, FILE *f)
{
    if (ndevices > 1) fprintf(f, "  %zu devices' traces together:\n", ndevices);
    uint64_t count[WS_EV_SOURCES][16] = { { 0 } };
    for (size_t i = 0; i < n; i++) count[ev[i].source][ev[i].id]++;
    for (unsigned s = 0; s < WS_EV_SOURCES; s++)
        for (unsigned id = 0; id < 16; id++)
            if (count[s][id]) fprintf(f, "  %-22s %12llu\n", ws_event_name(s, id), (unsigned long long)count[s][id]);
    fprintf(f, "  %zu events in %zu bytes: %.2f bits per event\n", n, bytes, n ? 8.0 * (double)bytes / (double)n : 0.0);
    if (!n) return; /* (no events: nothing to compare with the peer) */
    /* the peer: zstd -3 of the same events as fixed 16-byte records */
    uint8_t *raw = malloc(n * 16 + 1);
    size_t bound = ZSTD_compressBound(n * 16), z = 0;
    uint8_t *packed = malloc(bound + 1);
    if (raw && packed) {
        for (size_t i = 0; i < n; i++) {
            memcpy(raw + 16 * i, &ev[i].time, 8);
            memcpy(raw + 16 * i + 8, &ev[i].data, 4);
            raw[16 * i + 12] = ev[i].source;
            raw[16 * i + 13] = ev[i].id;
            memcpy(raw + 16 * i + 14, &ev[i].core, 2);
        }
        z = ZSTD_compress(packed, bound, raw, n * 16, 3);
        if (!ZSTD_isError(z))
            fprintf(f, "  zstd -3 of the raw 16-byte records: %zu bytes, %.2f bits per event (%.2fx ours)\n", z,
                    n ? 8.0 * (double)z / (double)n : 0.0, bytes ? (double)z / (double)bytes : 0.0);
    }
    free(raw);
    free(packed);
}

/* A trace printed from a file says when its buffer filled (the run that
 * wrote it warned with the count, when it ran; warn_dropped 0: that run is
 * this one). */
static int show(const char *path, const char *format, int stats, int warn_dropped)
{
    FILE *f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "warpscope watch: %s: %s\n", path, strerror(errno)); return 1; }
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0, got;
    do {
        if (n == cap) {
            uint8_t *b = realloc(buf, cap = cap ? cap * 2 : 1 << 16);
            if (!b) { fclose(f); free(buf); fprintf(stderr, "warpscope watch: out of memory\n"); return 1; }
            buf = b;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got);
    if (ferror(f)) { /* a directory, an I/O error: not "no WSEV header" */
        fprintf(stderr, "warpscope watch: %s: cannot read: %s\n", path, strerror(errno));
        fclose(f);
        free(buf);
        return 1;
    }
    fclose(f);
    /* One trace per device that closed, one after another: each is a
     * 24-byte header ("WSEV", u16 version, u16, u64 events, u64 bits) and
     * its bits. Split them first, so nothing prints from a damaged file. */
    enum { HEADER = 24, MAX_DEVICES = 4096, FLAG_DROPPED = 1 /* u16 flags at byte 6, docs/events.md */ };
    size_t starts[MAX_DEVICES + 1], ndev = 0, at = 0;
    while (at < n || !ndev) {
        /* what does not start with a header is one piece, the rest (random
         * bytes were cut into 24-byte "devices' traces") */
        uint64_t bits = 0;
        int header = n - at >= HEADER && !memcmp(buf + at, "WSEV", 4);
        if (header) memcpy(&bits, buf + at + 16, 8);
        size_t len = !header ? n - at : HEADER + (size_t)((bits + 7) / 8);
        if (len > n - at || bits > (uint64_t)(n - at) * 8) len = n - at; /* the decoder says what is wrong */
        if (ndev == MAX_DEVICES) {
            fprintf(stderr, "warpscope watch: %s: more than %d devices' traces\n", path, MAX_DEVICES);
            free(buf);
            return 1;
        }
        starts[ndev++] = at;
        at += len;
        if (!len) break;
    }
    starts[ndev] = n;
    ws_event *all = NULL;
    size_t total = 0, *counts = calloc(ndev, sizeof *counts);
    char err[256];
    for (size_t d = 0; counts && d < ndev; d++) {
        ws_event *ev;
        size_t count;
        size_t piece = starts[d + 1] - starts[d];
        ws_status st = WS_ERR_BAD_MODULE;
        /* a file (or its last trace) cut inside a header is said to be
         * truncated: it was "not a warpscope event trace (no WSEV header)" */
        if (!n) snprintf(err, sizeof err, "empty file (0 bytes): not a warpscope event trace");
        else if (piece < HEADER && !memcmp(buf + starts[d], "WSEV", piece < 4 ? piece : 4))
            snprintf(err, sizeof err, "truncated: the file ends at offset %zu, inside a %d-byte header", n, HEADER);
        else st = ws_events_decode(buf + starts[d], piece, &ev, &count, err, sizeof err);
        if (st != WS_OK) {
            if (ndev > 1) fprintf(stderr, "warpscope watch: %s: device %zu's trace (byte %zu): %s\n", path, d + 1, starts[d], err);
            else fprintf(stderr, "warpscope watch: %s: %s\n", path, err);
            free(all);
            free(counts);
            free(buf);
            return 1;
        }
        ws_event *grown = realloc(all, (total + count + 1) * sizeof *all);
        if (!grown) { free(ev); break; }
        all = grown;
        if (count) memcpy(all + total, ev, count * sizeof *ev);
        total += count;
        counts[d] = count;
        free(ev);
        if (d + 1 == ndev) goto decoded;
    }
    fprintf(stderr, "warpscope watch: out of memory\n");
    free(all);
    free(counts);
    free(buf);
    return 1;
decoded:
    if (stats) print_stats(all, total, n - ndev * HEADER, ndev, stdout);
    else {
        int first = 1;
        if (!strcmp(format, "perfetto")) fprintf(stdout, "{\"traceEvents\":[\n");
        for (size_t d = 0, k = 0; d < ndev; k += counts[d], d++)
            print_events(all + k, counts[d], format, (unsigned)d + 1, (unsigned)ndev, &first, stdout);
        if (!strcmp(format, "perfetto")) fprintf(stdout, "\n]}\n");
    }
    fflush(stdout); /* (the warning after the events it is about) */
    for (size_t d = 0; warn_dropped && d < ndev; d++) {
        uint16_t flags;
        memcpy(&flags, buf + starts[d] + 6, 2);
        if (!(flags & FLAG_DROPPED)) continue;
        char who[48] = "";
        if (ndev > 1) snprintf(who, sizeof who, "device %zu's trace: ", d + 1);
        fprintf(stderr, "warpscope watch: %s: %sthe trace buffer filled after %zu event%s: the events after %s were "
                "dropped (trace again with a larger --capacity)\n", path, who, counts[d], counts[d] == 1 ? "" : "s",
                counts[d] == 1 ? "it" : "them");
    }
    free(all);
    free(counts);
    free(buf);
    return 0;
}

int ws_cmd_watch(int argc, char **argv)
{
    const char *events = "all", *capacity = NULL, *format = "text", *out = NULL, *read = NULL, *snapshot = NULL;
    int stats = 0, i = 1;
    char machines[4096] = "";
    size_t mlen = 0;
    for (; i < argc; i++) {
        const char *o = argv[i], *v = ws_cli_option_value(argc, argv, i);
        if (!strcmp(o, "--")) { i++; break; }
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) { usage(stdout); return 0; }
        if (!strcmp(o, "--stats")) { stats = 1; continue; }
        if (!strcmp(o, "--on") || !strcmp(o, "--then") || !strcmp(o, "--do")) { /* a machine, one per line */
            if (!v || !v[strspn(v, " \t")] || strchr(v, '\n')) {
                fprintf(stderr, "warpscope watch: %s needs %s\n", o, strcmp(o, "--do") ? "an event" : "an action");
                return 2;
            }
            const char *pre = !strcmp(o, "--on") ? (mlen ? "\n" : "") : !strcmp(o, "--then") ? " then " : " do ";
            if (strcmp(o, "--on") && !mlen) { fprintf(stderr, "warpscope watch: %s before --on\n", o); return 2; }
            int k = snprintf(machines + mlen, sizeof machines - mlen, "%s%s", pre, v);
            if (k < 0 || (size_t)k >= sizeof machines - mlen) { fprintf(stderr, "warpscope watch: machines too long\n"); return 2; }
            mlen += (size_t)k;
            i++;
            continue;
        }
        if (o[0] != '-') break;
        const char **dst = !strcmp(o, "--events") ? &events : !strcmp(o, "--capacity") ? &capacity
                         : !strcmp(o, "--format") ? &format : !strcmp(o, "-o") || !strcmp(o, "--out") ? &out
                         : !strcmp(o, "--read") ? &read : !strcmp(o, "--snapshot") ? &snapshot : NULL;
        if (!dst) { fprintf(stderr, "warpscope watch: unknown option '%s'\n\n", o); usage(stderr); return 2; }
        if (!v || !*v) { fprintf(stderr, "warpscope watch: %s needs a value\n", o); return 2; }
        *dst = v;
        i++;
    }
    if (strcmp(format, "text") && strcmp(format, "jsonl") && strcmp(format, "perfetto")) {
        fprintf(stderr, "warpscope watch: --format %s: expected text, jsonl or perfetto\n", format);
        return 2;
    }
    uint16_t mask[WS_EV_SOURCES] = { 0 };
    char err[256];
    if (ws_watch_parse_events(events, mask, err, sizeof err)) { fprintf(stderr, "warpscope watch: %s\n", err); return 2; }
    if (read) { /* a file already written: nothing runs, nothing to trace */
        const char *what = mlen ? "--on/--then/--do" : i < argc ? "a program" : out ? "-o" : capacity ? "--capacity"
                         : snapshot ? "--snapshot"
                         : strcmp(events, "all") ? "--events" : NULL;
        if (what) {
            fprintf(stderr, "warpscope watch: --read prints a trace already written: %s does not apply\n", what);
            return 2;
        }
        return show(read, format, stats, 1);
    }
    if (capacity) { /* (checked here to name the option, not WARPSCOPE_WATCH) */
        char *end;
        errno = 0;
        unsigned long long c = strtoull(capacity, &end, 10);
        if (*capacity < '0' || *capacity > '9' || *end || errno || c < 64 || c > (1ull << 30)) {
            fprintf(stderr, "warpscope watch: --capacity %s: expected a number of bytes from 64 to %llu (2^30), "
                    "without a suffix\n", capacity, 1ull << 30);
            return 2;
        }
    }
    /* check the machines here, so a typo is an error before the program runs */
    for (char *line = machines, *next; mlen && line; line = next) {
        if ((next = strchr(line, '\n'))) *next = 0;
        ws_machine_program p;
        int print;
        if (ws_events_parse_machine(line, &p, &print, err, sizeof err)) {
            fprintf(stderr, "warpscope watch: %s: %s\n", line, err);
            return 2;
        }
        if (next) *next++ = '\n';
    }
    if (mlen && ws_watch_check_machines(machines, err, sizeof err)) { /* (the set: how many, what enable=N names) */
        fprintf(stderr, "warpscope watch: %s\n", err);
        return 2;
    }
    if (mlen && setenv("WARPSCOPE_WATCH_MACHINES", machines, 1)) { perror("warpscope watch: setenv"); return 1; }
    if (i >= argc) { fprintf(stderr, "warpscope watch: no program to run\n\n"); usage(stderr); return 2; }
    /* -o is checked before the program runs (not found unwritable after
     * it) and emptied if it is a regular file; a device such as /dev/null
     * is written, never removed. The devices write their traces to a
     * temporary file, one after another (join=1: a program with two
     * devices keeps both), which is copied to -o after the run. */
    const char *const mine[2] = { out, snapshot };
    for (int k = 0; k < 2; k++) {
        if (!mine[k]) continue;
        int fd = open(mine[k], O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        struct stat sb;
        if (fd < 0 || (!fstat(fd, &sb) && S_ISREG(sb.st_mode) && ftruncate(fd, 0))) {
            fprintf(stderr, "warpscope watch: %s %s: cannot write there: %s\n", k ? "--snapshot" : "-o", mine[k],
                    strerror(errno));
            if (fd >= 0) close(fd);
            return 2;
        }
        close(fd);
    }
    char dir[PATH_MAX], tmp[PATH_MAX + 16], tmpsnap[PATH_MAX + 16];
    if (ws_tool_tmpdir("warpscope watch", "watch", dir, sizeof dir)) return 1;
    snprintf(tmp, sizeof tmp, "%s/events.wsev", dir);
    snprintf(tmpsnap, sizeof tmpsnap, "%s/snapshot.wsev", dir);
    const char *file = tmp;
    /* (a value with a comma, such as a $TMPDIR path, goes in double quotes:
     * runtime/settings_text.h) */
    char spec[3 * PATH_MAX + 256];
    size_t n = 0;
    if (ws_settings_add(spec, sizeof spec, &n, "events", events) || ws_settings_add(spec, sizeof spec, &n, "out", file) ||
        ws_settings_add(spec, sizeof spec, &n, "snapshot", tmpsnap) || ws_settings_add(spec, sizeof spec, &n, "join", "1") ||
        (capacity && ws_settings_add(spec, sizeof spec, &n, "capacity", capacity)) || setenv("WARPSCOPE_WATCH", spec, 1)) {
        fprintf(stderr, "warpscope watch: options too long\n");
        return 2;
    }
    char why[300];
    if (ws_watch_check_spec(spec, why, sizeof why)) { /* before the program runs, not from inside it */
        fprintf(stderr, "warpscope watch: %s\n", why);
        rmdir(dir);
        return 2;
    }
    /* jsonl and perfetto are for files and pipes (`> g.json`): the
     * program's own output goes to stderr so it does not break them. */
    int saved = -1, machine_readable = !stats && strcmp(format, "text");
    if (machine_readable) {
        fflush(stdout);
        if ((saved = fcntl(1, F_DUPFD_CLOEXEC, 3)) < 0 || dup2(2, 1) < 0) {
            perror("warpscope watch: redirecting the program's output to stderr");
            if (saved >= 0) close(saved);
            rmdir(dir);
            return 1;
        }
    }
    int status = 0, rc;
    ws_preload_exit_close(); /* a device the program leaves open still reports */
    int started = !ws_run_child("warpscope watch", argv + i, &status);
    if (saved >= 0) {
        dup2(saved, 1);
        close(saved);
    }
    if (!started) rc = 127;
    else if (WIFSIGNALED(status)) {
        fprintf(stderr, "warpscope watch: %s was killed by signal %d\n", argv[i], WTERMSIG(status));
        rc = 128 + WTERMSIG(status);
    } else {
        rc = WEXITSTATUS(status);
        if (rc) fprintf(stderr, "warpscope watch: %s exited with status %d\n", argv[i], rc);
    }
    if (rc != 127) {
        fflush(stdout);
        if (access(file, R_OK)) {
            fprintf(stderr, "warpscope watch: no trace: %s opened no warpscope device, or did not close it\n", argv[i]);
            (void)ws_preload_explain_static("warpscope watch", argv[i], NULL);
            if (!rc) rc = 1;
        } else {
            if (out && ws_copy_file(file, out)) {
                fprintf(stderr, "warpscope watch: -o %s: cannot write the trace: %s\n", out, strerror(errno));
                if (!rc) rc = 1;
            }
            if (show(file, format, stats, 0) && !rc) rc = 1;
        }
        if (!access(tmpsnap, R_OK)) { /* a trace.snapshot action fired */
            fprintf(stderr, "warpscope watch: trace.snapshot: the trace as it was when the machine fired ");
            if (snapshot && ws_copy_file(tmpsnap, snapshot)) {
                fprintf(stderr, "could not be written to %s: %s\n", snapshot, strerror(errno));
                if (!rc) rc = 1;
            } else if (snapshot) {
                fprintf(stderr, "is in %s (warpscope watch --read %s)\n", snapshot, snapshot);
            } else {
                fprintf(stderr, "was taken (keep it with --snapshot FILE)\n");
            }
        } else if (snapshot) {
            fprintf(stderr, "warpscope watch: --snapshot %s: no trace.snapshot action fired\n", snapshot);
        }
    }
    unlink(tmpsnap);
    unlink(tmp);
    rmdir(dir);
    return rc;
}
