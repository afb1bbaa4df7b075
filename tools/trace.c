/* warpscope trace: run an unmodified host program with its kernels
 * instrumented (WARPSCOPE_TRACE), then print the tool's report; or print a
 * trace file already written (--read). docs/tracing.md. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "runtime/json_text.h"
#include "runtime/settings_text.h"
#include "warpscope/trace.h"
#include "instrument/trace_file.h"
#include "instrument/tracer.h"
#include <limits.h>
#include "child.h"
#include "preload.h"
#include "commands.h"
#include "file_copy.h"

/* The command's status when the program succeeded but a report line says
 * MISMATCH (the program's own failure status takes precedence). */
enum { WS_TRACE_EXIT_MISMATCH = 3 };
/* ... or, with --fail-on-different, a results check says DIFFERENT. */
enum { WS_TRACE_EXIT_DIFFERENT = 4 };
/* ... or, with --fail-on-race, racecheck reports a hazard. */
enum { WS_TRACE_EXIT_RACE = 5 };

static void usage(FILE *f)
{
    fprintf(f,
            "usage: warpscope trace --tool NAME [options] -- PROGRAM [ARG...]\n"
            "       warpscope trace --read FILE [--kernel NAME] [--launch N] [--device N] [--format text|jsonl|perfetto [--warp N]]\n"
            "Runs PROGRAM with every kernel launch instrumented and prints what the tool found.\n"
            "  --tool bbcount    executions per basic block and source line; instruction totals\n"
            "  --tool memtrace   every memory access; per line: requests, sectors/request, bank conflicts\n"
            "  --tool branch     per conditional branch: lanes taken / not taken, warp divergence\n"
            "  --tool racecheck  data races in shared and global memory: threads of a block touching\n"
            "                    the same byte between two barriers, one of them writing\n"
            "  --tool dump       record everything and print the merged trace\n"
            "  -o, --out FILE    write the merged trace file (zstd, docs/tracing.md)\n"
            "  --kernel NAME     trace only launches of this kernel (--read: show only them)\n"
            "  --launch N        trace only the program's Nth launch (from 1, counted over all its\n"
            "                    devices in the order the launches start; --read: the same launch, or\n"
            "                    in a file older than version 3 the launches with id N)\n"
            "  --device N        trace only the launches of the Nth device the program opens (its other\n"
            "                    devices run untraced; --launch still counts the program's launches);\n"
            "                    --read: only the launches of device N\n"
            "  --format text|jsonl|perfetto  how --read and --tool dump print records (default\n"
            "                    text; perfetto: Chrome/Perfetto JSON of one warp, a track per lane);\n"
            "                    the other tools print a report: jsonl and perfetto are refused there\n"
            "  --warp N          the warp for --format perfetto (global warp id, default 0)\n"
            "  --values          memory records also keep the value each store or atomic writes\n"
            "                    (not with bbcount, which records no accesses; with memtrace, branch\n"
            "                    or racecheck only with -o, whose file --read prints them from)\n"
            "  --report FILE     also keep the report in FILE\n"
            "  --host-time       print each traced launch's host CPU time (the launch and each pass)\n"
            "                    on stderr; the report never holds it, so it is the same bytes run to run\n"
            "  --counters 32|64  block counters of the counting pass (default 32, and 64 by itself\n"
            "                    for a launch long enough to wrap them)\n"
            "  --test-short N    make each first recording pass's buffers N records short, to\n"
            "                    exercise the overflow recovery (tests)\n"
            "  --fail-on-different  exit 4 when a launch's results check says DIFFERENT (the\n"
            "                    instrumented run left global memory otherwise than the launch)\n"
            "  --fail-on-race    with --tool racecheck: exit 5 when a launch has a hazard\n"
            "Exit status: the program's when it fails; else 3 if the report says MISMATCH (the trace\n"
            "disagrees with the device's counters); 4 if it says DIFFERENT and --fail-on-different\n"
            "is given; 5 if racecheck reports a hazard and --fail-on-race is given; 1 no report or trace, or nothing matched --kernel/--launch/--device;\n"
            "2 bad options; 0 otherwise.\n");
}

/* Memory record m of thread gid; stores and atomics with the value they
 * wrote when the trace has values (text and JSON alike). A record keeps
 * one 32-bit register: of an 8-byte access (amocas.d, the 64-bit atomics)
 * only the low half, which is said so ("value_low32" in JSON), not shown
 * as the whole value. */
static void print_access(const ws_trace_launch *L, const char *key, uint32_t gid, uint64_t m, int json, FILE *f)
{
    static const char *kinds[] = { "?", "load", "store", "atomic" };
    const ws_trace_access *x = &L->mem[m];
    const ws_trace_mem_inst *mi = &L->mem_insts[x->inst];
    const int valued = L->values && mi->kind != WS_TRACE_LOAD;
    if (json) {
        fprintf(f, "{%s,\"thread\":%u,\"access\":\"%s\",\"size\":%u,\"addr\":\"0x%08x\",\"pc\":\"0x%08x\"", key, gid, kinds[mi->kind & 3], mi->size, x->addr, mi->addr);
        if (valued) fprintf(f, ",\"%s\":\"0x%08x\"", mi->size > 4 ? "value_low32" : "value", L->values[m]);
        fprintf(f, "}\n");
    } else {
        fprintf(f, "    %-6s %u @0x%08x  (pc 0x%08x)", kinds[mi->kind & 3], mi->size, x->addr, mi->addr);
        if (valued) fprintf(f, " = 0x%08x%s", L->values[m], mi->size > 4 ? " (its low 32 bits)" : "");
        fprintf(f, "\n");
    }
}

/* What names launch L in each of its JSON records: its launch id, which
 * each device numbers from 1, and so with several devices the device too
 * (as in its launch record). */
static const char *json_launch_key(const ws_trace *t, const ws_trace_launch *L, char *buf, size_t n)
{
    if (t->ndevices > 1 && L->device)
        snprintf(buf, n, "\"launch\":%llu,\"device\":%u", (unsigned long long)L->launch_id, L->device);
    else
        snprintf(buf, n, "\"launch\":%llu", (unsigned long long)L->launch_id);
    return buf;
}

/* Launch i of t: in text a heading naming the kernel and its module; in
 * JSON a record of its own, before its threads' records. */
static void print_launch(const ws_trace *tr, const char *const *shown, uint32_t i, int json, FILE *f)
{
    const ws_trace_launch *L = &tr->launches[i];
    char label[1024], key[64];
    json_launch_key(tr, L, key, sizeof key);
    if (json) {
        fprintf(f, "{\"launch\":%llu,\"kernel\":\"", (unsigned long long)L->launch_id);
        ws_json_chars(f, L->kernel);
        fprintf(f, "\",\"module\":\"");
        ws_json_chars(f, L->module);
        fprintf(f, "\"");
        if (L->device) fprintf(f, ",\"device\":%u", L->device);
        if (L->launch_number) fprintf(f, ",\"launch_number\":%llu", (unsigned long long)L->launch_number);
        if (L->stage) fprintf(f, ",\"stage\":\"%s\",\"draw\":%u", L->stage == WS_TRACE_STAGE_VERTEX ? "vertex" : "fragment", L->draw);
        fprintf(f, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"flags\":%u}\n", L->grid.x, L->grid.y, L->grid.z,
                L->block.x, L->block.y, L->block.z, L->flags);
    } else {
        fprintf(f, "launch %llu %s", (unsigned long long)L->launch_id, ws_trace_launch_label(tr, shown, i, label, sizeof label));
        if (L->launch_number && L->launch_number != L->launch_id) /* (the number --launch picks it by) */
            fprintf(f, " (the program's launch %llu)", (unsigned long long)L->launch_number);
        fputs(ws_trace_stage_text(L, label, sizeof label), f);
        fprintf(f, " grid (%u,%u,%u) block (%u,%u,%u) flags 0x%x, %u threads, %llu block + %llu memory records\n", L->grid.x,
                L->grid.y, L->grid.z, L->block.x, L->block.y, L->block.z, L->flags, L->nthreads, (unsigned long long)L->nbb,
                (unsigned long long)L->nmem);
    }
    for (uint32_t k = 0; k < L->nthreads; k++) {
        const ws_trace_thread *t = &L->threads[k];
        uint64_t m = t->first_mem, mend = t->first_mem + t->nmem;
        if (!json) fprintf(f, "thread %u\n", t->gid);
        if (!t->nblocks) /* accesses only (memtrace) */
            for (; m < mend; m++) print_access(L, key, t->gid, m, json, f);
        for (uint32_t j = 0; j < t->nblocks; j++) {
            const ws_trace_block *b = &L->blocks[L->bb[t->first_block + j]];
            if (json)
                fprintf(f, "{%s,\"thread\":%u,\"bb\":%u,\"pc\":\"0x%08x\"}\n", key, t->gid, L->bb[t->first_block + j], b->addr);
            else
                fprintf(f, "  basic block %u @0x%08x\n", L->bb[t->first_block + j], b->addr);
            for (uint32_t a = 0; a < b->nmem && m < mend; a++, m++) print_access(L, key, t->gid, m, json, f);
        }
    }
}

static void print_warps(const ws_trace *tr, const ws_trace_launch *L, int json, FILE *f)
{
    char key[64];
    json_launch_key(tr, L, key, sizeof key);
    for (uint64_t i = 0; i < L->nwarp; i++) {
        const ws_trace_warp_exec *w = &L->warps[i];
        if (json)
            fprintf(f, "{%s,\"warp\":%u,\"mask\":\"0x%08x\",\"bb\":%u,\"pc\":\"0x%08x\"}\n", key, w->warp, w->mask, w->block, L->blocks[w->block].addr);
        else
            fprintf(f, "warp %u: basic block %u @0x%08x mask 0x%08x\n", w->warp, w->block, L->blocks[w->block].addr, w->mask);
    }
}

/* Chrome/Perfetto trace-event JSON for one warp: a track per lane, a slice
 * per block it ran; time is the warp's issue order in instructions. */
static uint64_t warp_records(const ws_trace *t, uint32_t warp, uint32_t *max_warp)
{
    uint64_t n = 0;
    *max_warp = 0;
    for (uint32_t i = 0; i < t->nlaunches; i++)
        for (uint64_t r = 0; r < t->launches[i].nwarp; r++) {
            n += t->launches[i].warps[r].warp == warp;
            if (t->launches[i].warps[r].warp > *max_warp) *max_warp = t->launches[i].warps[r].warp;
        }
    return n;
}

static int compare_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* Whether every launch of t has a program launch number, each its own:
 * then they are the Perfetto process ids, the same in every export of the
 * program's trace (--read --device 2 too), whichever device ran them. */
static int numbers_unique(const ws_trace *t)
{
    uint64_t *n = malloc((t->nlaunches ? t->nlaunches : 1) * sizeof *n);
    int unique = n != NULL;
    for (uint32_t i = 0; unique && i < t->nlaunches; i++) unique = (n[i] = t->launches[i].launch_number) != 0;
    if (unique) qsort(n, t->nlaunches, sizeof *n, compare_u64);
    for (uint32_t i = 1; unique && i < t->nlaunches; i++) unique = n[i] != n[i - 1];
    free(n);
    return unique;
}

/* The lanes of warp that ran in launch L (a track each). */
static uint32_t warp_lanes(const ws_trace_launch *L, uint32_t warp)
{
    uint32_t lanes = 0;
    for (uint64_t r = 0; r < L->nwarp; r++)
        if (L->warps[r].warp == warp) lanes |= L->warps[r].mask;
    return lanes;
}

/* A process per launch in the file, named by a metadata event "launch P
 * KERNEL (MODULE)" with P the program's launch number (as --launch and
 * --host-time count), which is also its pid when the file has them (else
 * its place in the file, from 1); a launch id is a device's own, so two
 * devices' launches 1 would be one process. With several devices each
 * lane's track is named "lane L on device D" too. */
static void print_perfetto(const ws_trace *t, const char *const *shown, uint32_t warp, FILE *f)
{
    fprintf(f, "{\"traceEvents\":[\n");
    int first = 1;
    const int by_number = numbers_unique(t);
    for (uint32_t i = 0; i < t->nlaunches; i++) {
        const ws_trace_launch *L = &t->launches[i];
        const unsigned long long pid = by_number ? L->launch_number : i + 1;
        uint64_t now = 0;
        char label[1024];
        fprintf(f, "%s{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%llu,\"tid\":0,\"args\":{\"name\":\"launch ",
                first ? "" : ",\n", pid);
        ws_json_chars(f, ws_trace_program_label(t, shown, i, label, sizeof label));
        fprintf(f, "\"}}");
        first = 0;
        if (t->ndevices > 1 && L->device)
            for (uint32_t m = warp_lanes(L, warp); m; m &= m - 1)
                fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%llu,\"tid\":%d,\"args\":{\"name\":\"lane %d on device %u\"}}",
                        pid, __builtin_ctz(m), __builtin_ctz(m), L->device);
        for (uint64_t r = 0; r < L->nwarp; r++) {
            const ws_trace_warp_exec *w = &L->warps[r];
            if (w->warp != warp) continue;
            const ws_trace_block *b = &L->blocks[w->block];
            for (uint32_t m = w->mask; m; m &= m - 1, first = 0)
                fprintf(f, "%s{\"name\":\"block %u @0x%08x\",\"ph\":\"X\",\"pid\":%llu,\"tid\":%d,\"ts\":%llu,\"dur\":%u}",
                        first ? "" : ",\n", w->block, b->addr, pid, __builtin_ctz(m),
                        (unsigned long long)now, b->ninst);
            now += b->ninst;
        }
    }
    fprintf(f, "\n]}\n");
}

/* Which launches of a file --read shows: of this kernel (NULL: any),
 * with this launch number (0: any; see launch_matches), of this device
 * (0: any). */
typedef struct launch_pick {
    const char *kernel;
    uint64_t launch;
    uint32_t device;
} launch_pick;

/* --launch N names the launch run-time --launch N traced: by the number
 * the tracer recorded (version 3 on), else (older files, launches written
 * by a custom tool) by the device's launch id, the same for one device. */
static int launch_matches(const ws_trace_launch *L, uint64_t n)
{
    return (L->launch_number ? L->launch_number : L->launch_id) == n;
}

/* Keep the launches pick names: the array is filtered in place, the
 * others' records freed. Returns how many are kept. */
static uint32_t select_launches(ws_trace *t, const launch_pick *pick)
{
    uint32_t kept = 0;
    for (uint32_t i = 0; i < t->nlaunches; i++) {
        ws_trace_launch *L = &t->launches[i];
        if ((!pick->kernel || (L->kernel && !strcmp(L->kernel, pick->kernel))) &&
            (!pick->launch || launch_matches(L, pick->launch)) && (!pick->device || L->device == pick->device))
            t->launches[kept++] = *L;
        else
            wst_launch_free(L);
    }
    t->nlaunches = kept;
    return kept;
}

static int read_file(const char *path, const char *format, long warp, const launch_pick *pick)
{
    ws_trace *t;
    char err[512];
    if (ws_trace_read(path, &t, err, sizeof err) != WS_OK) {
        fprintf(stderr, "warpscope trace: %s\n", err);
        return 1;
    }
    if ((pick->kernel || pick->launch || pick->device) && !select_launches(t, pick)) {
        fprintf(stderr, "warpscope trace: %s: no launch matched%s%s", path, pick->kernel ? " --kernel " : "",
                pick->kernel ? pick->kernel : "");
        if (pick->launch) fprintf(stderr, " --launch %llu", (unsigned long long)pick->launch);
        if (pick->device && t->ndevices) fprintf(stderr, " --device %u (its devices are 1 to %u)", pick->device, t->ndevices);
        else if (pick->device) fprintf(stderr, " --device %u (a version 1 file: it names no devices)", pick->device);
        fprintf(stderr, "\n");
        ws_trace_free(t);
        return 1;
    }
    int json = !strcmp(format, "jsonl");
    uint32_t max_warp = 0;
    if (!strcmp(format, "perfetto") && !warp_records(t, (uint32_t)warp, &max_warp)) {
        int any = 0;
        for (uint32_t i = 0; i < t->nlaunches; i++) any |= t->launches[i].nwarp != 0;
        if (!any) fprintf(stderr, "warpscope trace: %s has no warp records (trace with --tool branch or dump)\n", path);
        else fprintf(stderr, "warpscope trace: %s: warp %ld has no records (its warps are 0 to %u)\n", path, warp, max_warp);
        ws_trace_free(t);
        return 1;
    }
    const char **shown = ws_trace_modules_shown(t);
    if (!strcmp(format, "perfetto")) print_perfetto(t, shown, (uint32_t)warp, stdout);
    else
        for (uint32_t i = 0; i < t->nlaunches; i++) {
            print_launch(t, shown, i, json, stdout);
            print_warps(t, &t->launches[i], json, stdout);
        }
    free(shown);
    ws_trace_free(t);
    return 0;
}

/* An output file the program's devices will write: can it be created
 * (checked now, not found missing after the run)? An existing regular file
 * is removed, since every device adds to it; a device such as /dev/null is
 * left alone. 0, or -1 with errno. */
static int start_empty(const char *path)
{
    struct stat sb;
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return -1;
    const int regular = !fstat(fd, &sb) && S_ISREG(sb.st_mode);
    close(fd);
    return regular && unlink(path) && errno != ENOENT ? -1 : 0;
}

/* Where path would be: its folder's real path and its own name ("" when
 * the folder cannot be resolved). */
static void where_file_goes(const char *path, char *buf, size_t n)
{
    char dir[PATH_MAX], real[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (!slash) snprintf(dir, sizeof dir, ".");
    else if (slash == path) snprintf(dir, sizeof dir, "/");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path);
    buf[0] = 0;
    if (realpath(dir, real)) snprintf(buf, n, "%s/%s", real, slash ? slash + 1 : path);
}

/* Do -o and --report name one file (the same path, or one file under two
 * names)? The devices would append the report to the trace file, which
 * then no longer reads. Devices such as /dev/null take both. */
static int one_file(const char *a, const char *b)
{
    struct stat sa, sb;
    char wa[2 * PATH_MAX + 2], wb[2 * PATH_MAX + 2];
    if (ws_is_special_file(a) || ws_is_special_file(b)) return 0;
    if (!stat(a, &sa) && !stat(b, &sb)) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    where_file_goes(a, wa, sizeof wa);
    where_file_goes(b, wb, sizeof wb);
    return wa[0] && !strcmp(wa, wb);
}

/* What the report says, tallied as it is printed. Lines are matched by
 * their fixed openings, so a kernel or file named MISMATCH does not count. */
typedef struct report_summary {
    unsigned mismatches;  /* self-checks against the device's counters that failed */
    unsigned different;   /* launches whose results check says DIFFERENT           */
    unsigned long races;  /* the hazards racecheck reports, over all launches      */
    unsigned devices;     /* devices' reports ("warpscope trace (TOOL): ..." lines) */
    unsigned traced_none; /* ... of them "0 launches traced"                        */
} report_summary;

static int opens_with(const char *line, const char *opening) { return !strncmp(line, opening, strlen(opening)); }

static void tally_line(report_summary *s, const char *line, size_t len)
{
    static const char mismatch[] = "(MISMATCH)", races[] = "  racecheck: ";
    const size_t tail = sizeof mismatch - 1;
    if ((opens_with(line, "  instructions executed (over lanes): ") || opens_with(line, "  accesses: ")) &&
        len >= tail && !strncmp(line + len - tail, mismatch, tail))
        s->mismatches++;
    if (opens_with(line, "  results: the instrumented run left global memory DIFFERENT from ")) s->different++;
    if (opens_with(line, races) && line[sizeof races - 1] >= '0' && line[sizeof races - 1] <= '9') {
        char *end;
        const unsigned long k = strtoul(line + sizeof races - 1, &end, 10); /* "N hazard(s) (...)" */
        if (!strncmp(end, " hazard", 7)) s->races += k;
    }
    if (opens_with(line, "warpscope trace (")) {
        s->devices++;
        s->traced_none += strstr(line, ": 0 launches traced") != NULL;
    }
}

/* Print the report on stdout and tally it, in one reading; -1 when it
 * cannot be read. */
static int print_report(const char *path, report_summary *s)
{
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, f)) > 0) {
        fwrite(line, 1, (size_t)n, stdout);
        tally_line(s, line, strcspn(line, "\n"));
    }
    free(line);
    fclose(f);
    return 0;
}

/* A refused option, named as the user typed it: the spec's check says
 * "WARPSCOPE_TRACE: launch=0: ..." of the variable this command sets
 * (it read so for --launch 0, --counters 16 and --test-short x). */
static void say_option(const char *why)
{
    static const char *const keys[][2] = { { "launch", "--launch" }, { "counters", "--counters" },
                                           { "short", "--test-short" }, { "tool", "--tool" },
                                           { "device", "--device" } };
    const char *prefix = "WARPSCOPE_TRACE: ";
    const char *kv = !strncmp(why, prefix, strlen(prefix)) ? why + strlen(prefix) : NULL;
    const char *eq = kv ? strchr(kv, '=') : NULL, *end;
    if (eq && (end = strstr(eq, ": ")) != NULL)
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            if ((size_t)(eq - kv) == strlen(keys[k][0]) && !strncmp(kv, keys[k][0], (size_t)(eq - kv))) {
                fprintf(stderr, "warpscope trace: %s %.*s%s\n", keys[k][1], (int)(end - eq - 1), eq + 1, end);
                return;
            }
    fprintf(stderr, "warpscope trace: %s\n", why);
}

int ws_cmd_trace(int argc, char **argv)
{
    const char *tool = NULL, *out = NULL, *kernel = NULL, *launch = NULL, *read = NULL, *format = "text", *report = NULL,
               *warp = NULL, *test_short = NULL, *counters = NULL, *device = NULL;
    int i = 1, values = 0, host_time = 0, fail_on_different = 0, fail_on_race = 0;
    for (; i < argc; i++) {
        const char *o = argv[i], *v = ws_cli_option_value(argc, argv, i);
        if (!strcmp(o, "--")) { i++; break; }
        if (!strcmp(o, "--values")) { values = 1; continue; }
        if (!strcmp(o, "--host-time")) { host_time = 1; continue; }
        if (!strcmp(o, "--fail-on-different")) { fail_on_different = 1; continue; }
        if (!strcmp(o, "--fail-on-race")) { fail_on_race = 1; continue; }
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) { usage(stdout); return 0; }
        if (o[0] != '-') break;
        const char **dst = !strcmp(o, "--tool") ? &tool : !strcmp(o, "-o") || !strcmp(o, "--out") ? &out
                         : !strcmp(o, "--kernel") ? &kernel : !strcmp(o, "--launch") ? &launch
                         : !strcmp(o, "--read") ? &read : !strcmp(o, "--format") ? &format
                         : !strcmp(o, "--report") ? &report : !strcmp(o, "--warp") ? &warp
                         : !strcmp(o, "--test-short") ? &test_short : !strcmp(o, "--counters") ? &counters
                         : !strcmp(o, "--device") ? &device : NULL;
        if (!dst) { fprintf(stderr, "warpscope trace: unknown option '%s'\n\n", o); usage(stderr); return 2; }
        if (!v || !*v) { fprintf(stderr, "warpscope trace: %s needs a value\n", o); return 2; }
        *dst = v;
        i++;
    }
    if (strcmp(format, "text") && strcmp(format, "jsonl") && strcmp(format, "perfetto")) {
        fprintf(stderr, "warpscope trace: --format %s: expected text, jsonl or perfetto\n", format);
        return 2;
    }
    long warp_id = 0;
    if (warp) {
        char *end;
        errno = 0;
        warp_id = strtol(warp, &end, 10);
        if (*end || *warp < '0' || *warp > '9' || errno || warp_id > (long)UINT32_MAX) { /* (4294967296 was warp 0) */ fprintf(stderr, "warpscope trace: --warp %s: expected a warp number\n", warp); return 2; }
    }
    if (warp && strcmp(format, "perfetto")) { /* it would be ignored */
        fprintf(stderr, "warpscope trace: --warp %s picks the warp --format perfetto shows; --format %s prints every warp\n",
                warp, format);
        return 2;
    }
    unsigned long long device_id = 0;
    if (device) { /* (checked here for both forms: the tracer's own check would name device=) */
        char *end;
        errno = 0;
        device_id = strtoull(device, &end, 10);
        if (*end || *device < '0' || *device > '9' || errno || !device_id || device_id > UINT32_MAX) {
            fprintf(stderr, "warpscope trace: --device %s: expected a device number from 1\n", device);
            return 2;
        }
    }
    if (read) { /* a file: which of its launches to show, and how; what traces a program has no place here */
        const char *run_only = tool ? "--tool" : out ? "-o" : report ? "--report" : values ? "--values"
                             : host_time ? "--host-time" : counters ? "--counters" : test_short ? "--test-short"
                             : fail_on_different ? "--fail-on-different" : fail_on_race ? "--fail-on-race"
                             : i < argc ? argv[i] : NULL;
        if (run_only) {
            fprintf(stderr, "warpscope trace: --read shows a trace file, it runs no program: %s is for tracing one "
                            "(--read takes --format, --warp, --kernel, --launch and --device)\n", run_only);
            return 2;
        }
        unsigned long long id = 0;
        if (launch) {
            char *end;
            errno = 0;
            id = strtoull(launch, &end, 10);
            if (*end || *launch < '0' || *launch > '9' || errno || !id) {
                fprintf(stderr, "warpscope trace: --launch %s: expected a launch id from 1\n", launch);
                return 2;
            }
        }
        const launch_pick pick = { kernel, id, (uint32_t)device_id };
        return read_file(read, format, warp_id, &pick);
    }
    if (!tool || (strcmp(tool, "bbcount") && strcmp(tool, "memtrace") && strcmp(tool, "dump") && strcmp(tool, "branch") &&
                  strcmp(tool, "racecheck"))) {
        fprintf(stderr, "warpscope trace: --tool bbcount, memtrace, branch, racecheck or dump is required\n\n");
        usage(stderr);
        return 2;
    }
    if (fail_on_race && strcmp(tool, "racecheck")) { /* it would be ignored */
        fprintf(stderr, "warpscope trace: --fail-on-race goes with --tool racecheck (--tool %s looks for no races)\n", tool);
        return 2;
    }
    /* Options the tool would not use are refused like those two (they were
     * accepted and did nothing): --format and --warp print records, which
     * only dump prints; values go into memory records, which bbcount has
     * none of and which only dump and the -o file show (--test-short,
     * once its value is known good, below). */
    if (strcmp(format, "text") && strcmp(tool, "dump")) {
        fprintf(stderr, "warpscope trace: --format %s is how --read and --tool dump print records; --tool %s prints a "
                        "report (keep its records with -o FILE, then print them with --read FILE --format %s)\n",
                format, tool, format);
        return 2;
    }
    if (values && !strcmp(tool, "bbcount")) {
        fprintf(stderr, "warpscope trace: --values keeps the value each store and atomic writes in its memory record; "
                        "--tool bbcount records no accesses (memtrace, branch, racecheck and dump do)\n");
        return 2;
    }
    if (values && !out && strcmp(tool, "dump")) {
        fprintf(stderr, "warpscope trace: --values keeps the values in the records, which the report of --tool %s does "
                        "not show: add -o FILE (then --read FILE prints them), or use --tool dump\n", tool);
        return 2;
    }
    if (i >= argc) { fprintf(stderr, "warpscope trace: no program to run\n\n"); usage(stderr); return 2; }
    if (out && report && one_file(out, report)) {
        fprintf(stderr, "warpscope trace: -o %s and --report %s are one file: the report would be written into the "
                        "trace, which then cannot be read; give them two files\n", out, report);
        return 2;
    }
    char dir[PATH_MAX], tmpreport[PATH_MAX + 16], tmpout[PATH_MAX + 16], counter[PATH_MAX + 16], devices[PATH_MAX + 16];
    if (ws_tool_tmpdir("warpscope trace", "trace", dir, sizeof dir)) return 1;
    snprintf(tmpreport, sizeof tmpreport, "%s/report.txt", dir);
    snprintf(tmpout, sizeof tmpout, "%s/trace.wst", dir);
    /* --launch N is the program's Nth launch: its devices count in one file
     * (always: the trace file records each launch's number, for --read) */
    snprintf(counter, sizeof counter, "%s/launches", dir);
    /* --device D is the Dth device the program opens: they count in another */
    snprintf(devices, sizeof devices, "%s/devices", dir);
    const char *const mine[2] = { report, out };
    /* the report is read back (printed, its checks counted): a device
     * there (/dev/null) gets a copy of it, which goes to a file first */
    const char *report_copy_to = report && ws_is_special_file(report) ? report : NULL;
    if (!report || report_copy_to) report = tmpreport;
    if (!out && !strcmp(tool, "dump")) out = tmpout;
    /* dump reads its records back from -o: a device there (/dev/null) gets
     * a copy of the trace, which goes to a file first */
    const char *copy_to = out != tmpout && !strcmp(tool, "dump") && ws_is_special_file(out) ? out : NULL;
    if (copy_to) out = tmpout;
    /* (values with a comma, such as a path, go in double quotes:
     * runtime/settings_text.h) */
    char spec[4 * PATH_MAX + 256];
    size_t n = 0;
    const char *const keys[] = { "tool", "report", "out", "kernel", "launch", "launches", "device", "devices", "short",
                                 "values", "time", "join", "counters" };
    const char *const vals[] = { tool, report, out, kernel, launch, counter, device, devices, test_short,
                                 values ? "1" : NULL, host_time ? "1" : NULL, out ? "1" : NULL, counters };
    int too_long = 0;
    for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
        if (vals[k]) too_long |= ws_settings_add(spec, sizeof spec, &n, keys[k], vals[k]);
    if (too_long || setenv("WARPSCOPE_TRACE", spec, 1)) { fprintf(stderr, "warpscope trace: options too long\n"); return 2; }
    char why[256];
    if (ws_tracer_check_spec(spec, why, sizeof why)) { /* before the program runs, not from inside it */
        say_option(why);
        rmdir(dir);
        return 2;
    }
    if (test_short && !strcmp(tool, "bbcount")) { /* (it did nothing) */
        fprintf(stderr, "warpscope trace: --test-short %s shortens the recording pass's buffers; --tool bbcount runs no "
                        "recording pass\n", test_short);
        rmdir(dir);
        return 2;
    }
    /* files the program's devices will write: checked now, not found
     * missing after the run (and emptied: every device adds to them), once
     * the options are known good (a refused option left them removed) */
    for (int k = 0; k < 2; k++)
        if (mine[k] && start_empty(mine[k])) {
            fprintf(stderr, "warpscope trace: %s %s: cannot write there: %s\n", k ? "-o" : "--report", mine[k],
                    strerror(errno));
            rmdir(dir);
            return 2;
        }
    int status = 0, rc;
    ws_preload_exit_close(); /* a device the program leaves open still reports */
    if (ws_run_child("warpscope trace", argv + i, &status)) rc = 127;
    else if (WIFSIGNALED(status)) {
        fprintf(stderr, "warpscope trace: %s was killed by signal %d\n", argv[i], WTERMSIG(status));
        rc = 128 + WTERMSIG(status);
    } else {
        rc = WEXITSTATUS(status);
        if (rc) fprintf(stderr, "warpscope trace: %s exited with status %d\n", argv[i], rc);
    }
    if (rc != 127) {
        fflush(stdout);
        report_summary said = { 0 };
        if (print_report(report, &said)) {
            fprintf(stderr, "warpscope trace: no report: %s opened no warpscope device, or did not close it\n", argv[i]);
            (void)ws_preload_explain_static("warpscope trace", argv[i], NULL);
            if (!rc) rc = 1;
        } else {
            const unsigned mismatches = said.mismatches;
            if (mismatches) {
                fprintf(stderr, "warpscope trace: the trace disagrees with the device's counters (%u MISMATCH line%s in the report)\n",
                        mismatches, mismatches == 1 ? "" : "s");
                if (!rc) rc = WS_TRACE_EXIT_MISMATCH;
            }
            const unsigned different = said.different;
            if (different) {
                fprintf(stderr, "warpscope trace: the instrumented run's results differ from the launch's in %u launch%s "
                                "(DIFFERENT in the report)\n", different, different == 1 ? "" : "es");
                if (!rc && fail_on_different) rc = WS_TRACE_EXIT_DIFFERENT;
            }
            const unsigned long races = fail_on_race ? said.races : 0;
            if (races) {
                fprintf(stderr, "warpscope trace: racecheck reports %lu hazard%s\n", races, races == 1 ? "" : "s");
                if (!rc) rc = WS_TRACE_EXIT_RACE;
            }
            if (report_copy_to && ws_copy_file(report, report_copy_to)) {
                fprintf(stderr, "warpscope trace: --report %s: cannot write the report there: %s\n", report_copy_to,
                        strerror(errno));
                if (!rc) rc = 1;
            }
            if ((kernel || launch || device) && said.devices && said.traced_none == said.devices) { /* as --read's "no launch matched": 1 */
                fprintf(stderr, "warpscope trace: no launch was traced: none matched%s%s%s%s%s%s", kernel ? " --kernel " : "",
                        kernel ? kernel : "", launch ? " --launch " : "", launch ? launch : "", device ? " --device " : "",
                        device ? device : "");
                if (device && device_id > said.devices)
                    fprintf(stderr, " (%s opened %u device%s)", argv[i], said.devices, said.devices == 1 ? "" : "s");
                fprintf(stderr, "\n");
                if (!rc) rc = 1;
            }
            if (out && access(out, F_OK)) { /* (the device said why on stderr) */
                fprintf(stderr, "warpscope trace: %s was not written\n", out);
                if (!rc) rc = 1;
            } else if (!strcmp(tool, "dump")) { /* also after a fault: the records up to it */
                const launch_pick all = { NULL, 0, 0 }; /* (the tracer chose the launches) */
                const int rrc = read_file(out, format, warp_id, &all);
                if (!rc) rc = rrc;
                if (copy_to && ws_copy_file(out, copy_to)) {
                    fprintf(stderr, "warpscope trace: -o %s: cannot write the trace there: %s\n", copy_to, strerror(errno));
                    if (!rc) rc = 1;
                }
            }
        }
    }
    unlink(tmpreport);
    unlink(tmpout);
    unlink(counter);
    unlink(devices);
    rmdir(dir);
    return rc;
}
