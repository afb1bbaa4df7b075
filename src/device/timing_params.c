/* Timing-model parameters: defaults and the "key = value" file format. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "device/timing.h"
#include "device/number_text.h"

void ws_timing_params_default(ws_timing_params *p)
{
    /* Figures in the range published for recent NVIDIA GPUs (dependent-issue
     * latencies of 4-6 cycles for ALU/FMA, ~20-30 for shared memory, several
     * hundred for DRAM); docs/timing.md lists them. */
    static const uint32_t lat[WS_UNIT_COUNT] = { 4, 4, 20, 4, 16, 24, 400 };
    static const uint32_t ii[WS_UNIT_COUNT] = { 1, 2, 8, 2, 8, 1, 1 };
    memset(p, 0, sizeof *p);
    p->schedulers = 2;
    p->policy = WS_SCHED_LRR;
    memcpy(p->latency, lat, sizeof lat);
    memcpy(p->interval, ii, sizeof ii);
    p->mio_queue = 16;
    p->lg_queue = 64;
    p->sector_cycles = 1;
    p->branch_latency = 2;
    p->fetch_latency = 4;
}

/* A whole number as configuration text writes it: decimal (leading zeros
 * too: "010" is ten, not octal eight) or hexadecimal after 0x; no sign,
 * no spaces inside. -1 for anything else. */
static int parse_number(const char *v, unsigned long *out)
{
    const int hex = ws_number_base(v) == 16;
    const char *d = hex ? v + 2 : v;
    if (!(hex ? isxdigit((unsigned char)*d) : isdigit((unsigned char)*d))) return -1;
    char *end;
    errno = 0;
    unsigned long n = strtoul(d, &end, hex ? 16 : 10);
    if (*end) return -1;
    *out = errno == ERANGE ? ULONG_MAX : n; /* (out of every key's range) */
    return 0;
}

/* The keys, numbered: a latency per unit, an
 * interval per ALU unit, then the others. */
enum { KEY_LATENCY = 0, KEY_INTERVAL = KEY_LATENCY + WS_UNIT_COUNT, KEY_SCHEDULER = KEY_INTERVAL + WS_UNIT_MIO,
       KEY_OTHER, KEY_COUNT = KEY_OTHER + 6 };

/* Set `key` from `val`; returns its number (KEY_*), or -1 with the reason in why. */
static int set_key(ws_timing_params *p, const char *key, const char *val, char *why, size_t len)
{
    if (strcmp(key, "scheduler") == 0) {
        if (strcmp(val, "lrr") == 0) p->policy = WS_SCHED_LRR;
        else if (strcmp(val, "gto") == 0) p->policy = WS_SCHED_GTO;
        else { snprintf(why, len, "scheduler = %s: expected 'lrr' or 'gto'", val); return -1; }
        return KEY_SCHEDULER;
    }
    static const char *const unit_names[WS_UNIT_COUNT] = { "int", "mul", "div", "fp", "fdiv", "shared", "global" };
    struct { const char *name; uint32_t *dst; uint32_t min, max; } keys[] = {
        { "schedulers", &p->schedulers, 1, 64 },
        { "mio_queue", &p->mio_queue, 1, 1000000 },
        { "lg_queue", &p->lg_queue, 1, 1000000 },
        { "sector_cycles", &p->sector_cycles, 0, 1000 },
        { "branch_latency", &p->branch_latency, 0, 1000 },
        { "fetch_latency", &p->fetch_latency, 0, 1000 },
    };
    _Static_assert(sizeof keys / sizeof *keys == KEY_COUNT - KEY_OTHER, "KEY_COUNT counts the keys");
    uint32_t *dst = NULL, min = 1, max = 1000000;
    int id = -1;
    for (int u = 0; u < WS_UNIT_COUNT && !dst; u++) {
        size_t l = strlen(unit_names[u]);
        if (strncmp(key, unit_names[u], l) || key[l] != '_') continue;
        if (strcmp(key + l + 1, "latency") == 0) dst = &p->latency[u], id = KEY_LATENCY + u;
        else if (u < WS_UNIT_MIO && strcmp(key + l + 1, "interval") == 0) dst = &p->interval[u], id = KEY_INTERVAL + u;
    }
    for (size_t i = 0; i < sizeof keys / sizeof *keys && !dst; i++)
        if (strcmp(key, keys[i].name) == 0)
            dst = keys[i].dst, min = keys[i].min, max = keys[i].max, id = KEY_OTHER + (int)i;
    if (!dst) {
        snprintf(why, len, "unknown key '%s' (docs/timing.md lists the keys)", key);
        return -1;
    }
    unsigned long v;
    if (parse_number(val, &v)) {
        snprintf(why, len, "%s = %s: expected a whole number (decimal, or hexadecimal after 0x)", key, val);
        return -1;
    }
    if (v < min || v > max) {
        snprintf(why, len, "%s = %s: must be %u..%u", key, val, min, max);
        return -1;
    }
    *dst = (uint32_t)v;
    return id;
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s)) s++;
    char *e = s + strlen(s);
    while (e > s && isspace((unsigned char)e[-1])) *--e = 0;
    return s;
}

int ws_timing_params_parse(ws_timing_params *p, const char *text, const char *name,
                           char *err, size_t errlen)
{
    char tmp[8];
    if (!err) { err = tmp; errlen = sizeof tmp; }
    unsigned line = 0, seen[KEY_COUNT] = { 0 }; /* the line that set each key */
    /* a UTF-8 byte order mark (some editors write one) is not part of the
     * first key: kept, it made "unknown key 'int_latency'" of a good line,
     * the mark invisible in the message */
    if (!strncmp(text, "\xEF\xBB\xBF", 3)) text += 3;
    for (const char *s = text; *s;) {
        const char *nl = strchr(s, '\n');
        size_t n = nl ? (size_t)(nl - s) : strlen(s);
        line++;
        /* a comment may be as long as it likes: only what precedes it is kept */
        const char *hash = memchr(s, '#', n);
        const size_t keep = hash ? (size_t)(hash - s) : n;
        char buf[256], why[200];
        if (keep >= sizeof buf) {
            snprintf(err, errlen, "%s:%u: line too long (%zu characters before any comment, at most %zu)", name,
                     line, keep, sizeof buf - 1);
            return -1;
        }
        memcpy(buf, s, keep);
        buf[keep] = 0;
        s += n + (nl != NULL);
        char *item = trim(buf);
        if (!*item) continue;
        char *eq = strchr(item, '=');
        if (!eq) {
            snprintf(err, errlen, "%s:%u: '%s': expected key = value", name, line, item);
            return -1;
        }
        *eq = 0;
        char *key = trim(item);
        int id = set_key(p, key, trim(eq + 1), why, sizeof why);
        if (id < 0) {
            snprintf(err, errlen, "%s:%u: %s", name, line, why);
            return -1;
        }
        if (seen[id]) { /* which one was meant? */
            snprintf(err, errlen, "%s:%u: %s given again (first at line %u)", name, line, key, seen[id]);
            return -1;
        }
        seen[id] = line;
    }
    return 0;
}

int ws_timing_params_load(ws_timing_params *p, const char *path, char *err, size_t errlen)
{
    ws_timing_params_default(p);
    if (!path || !*path) return 0;
    /* A regular file only: the file is read when the configuration is
     * validated and again when the device opens, which a pipe (a shell's
     * <(...)) cannot give twice, and opening a FIFO would wait for a
     * writer forever; a directory or a device is not a parameter file. */
    struct stat sb;
    if (stat(path, &sb)) {
        snprintf(err, errlen, "timing=%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(sb.st_mode)) {
        snprintf(err, errlen, "timing=%s: %s, not a regular file (the parameter file is read more than once)", path,
                 S_ISDIR(sb.st_mode) ? "a directory" : S_ISFIFO(sb.st_mode) ? "a pipe" : "a device or socket");
        return -1;
    }
    if (sb.st_size > (1 << 20)) {
        snprintf(err, errlen, "timing=%s: %lld bytes, larger than the 1 MiB a parameter file may have", path,
                 (long long)sb.st_size);
        return -1;
    }
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "timing=%s: cannot open: %s", path, strerror(errno));
        return -1;
    }
    char *text = malloc((1 << 20) + 1);
    if (!text) {
        fclose(f);
        snprintf(err, errlen, "timing=%s: out of host memory", path);
        return -1;
    }
    /* (a file that grew past 1 MiB since the stat is cut there) */
    size_t n = fread(text, 1, 1 << 20, f);
    if (ferror(f)) {
        int e = errno;
        free(text);
        fclose(f);
        snprintf(err, errlen, "timing=%s: cannot read: %s", path, strerror(e));
        return -1;
    }
    fclose(f);
    text[n] = 0;
    /* a NUL byte would end the text early and hide what follows it */
    const char *nul = memchr(text, 0, n);
    if (nul) {
        unsigned line = 1;
        for (const char *c = text; c < nul; c++) line += *c == '\n';
        snprintf(err, errlen, "%s:%u: a NUL byte: not a text file", path, line);
        free(text);
        return -1;
    }
    int r = ws_timing_params_parse(p, text, path, err, errlen);
    free(text);
    return r;
}
