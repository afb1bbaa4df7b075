/* The event watcher tool (watch.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/events.h"
#include "warpscope/tool.h"
#include "watch/watch.h"
#include "runtime/runtime.h"
#include "runtime/settings_text.h"

typedef struct watcher {
    ws_event_config cfg;
    char *out;
    char *snapshot;            /* where a trace.snapshot action's copy goes (snapshot=PATH) */
    int join;                  /* join=1: add to the file (several devices), not replace it */
    unsigned counting;         /* machines with a `count` action (bit i: machine i) */
    ws_machine_program programs[WS_EV_MACHINES]; /* the machines loaded, 0..nmachines-1 */
    unsigned nmachines;
} watcher;

int ws_watch_parse_events(const char *list, uint16_t mask[], char *err, size_t errlen)
{
    char *copy = strdup(list), *save = NULL;
    if (!copy) { snprintf(err, errlen, "out of memory"); return -1; }
    int rc = 0, any = 0;
    for (char *name = strtok_r(copy, "+", &save); name && !rc; name = strtok_r(NULL, "+", &save)) {
        any = 1;
        int found = 0;
        for (unsigned s = 0; s < WS_EV_SOURCES; s++)
            for (unsigned id = 0; id < 16; id++) {
                const char *n = ws_event_name(s, id);
                if (!strcmp(n, "unknown")) continue;
                size_t dot = (size_t)(strchr(n, '.') - n);
                if (!strcmp(name, "all") || !strcmp(name, n) || (strlen(name) == dot && !strncmp(name, n, dot))) {
                    mask[s] |= (uint16_t)(1u << id);
                    found = 1;
                }
            }
        if (!found) {
            snprintf(err, errlen, "unknown event or source '%s' (sources: cp, wd, sched, mem, dbg; events: "
                     "wd.dispatch, sched.barrier_wait, ... see docs/events.md)", name);
            rc = -1;
        }
    }
    free(copy);
    if (!rc && !any) { /* ("+" traced nothing, without a word) */
        snprintf(err, errlen, "'%s' names no event or source (sources: cp, wd, sched, mem, dbg; or all)", list);
        rc = -1;
    }
    return rc;
}

/* How the program's refusals name the bus's holder (ws_events_owner_begin). */
static const char watcher_name[] = "the event watcher (warpscope watch, WARPSCOPE_WATCH or WARPSCOPE_WATCH_MACHINES)";

/* How many devices' traces a joined file holds (each a 24-byte header,
 * "WSEV" ... u64 bits at byte 16, then its bits); 0 if it cannot be read. */
static unsigned traces_in_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    unsigned n = 0;
    uint8_t header[24];
    while (f && fread(header, 1, sizeof header, f) == sizeof header && !memcmp(header, "WSEV", 4)) {
        uint64_t bits;
        memcpy(&bits, header + 16, sizeof bits);
        n++;
        if (fseek(f, (long)((bits + 7) / 8), SEEK_CUR)) break;
    }
    if (f) fclose(f);
    return n;
}

/* "device N: " for the lines a device prints when it closes, N as the
 * trace's heading numbers it (the order the devices close, from 1: the
 * traces already in the joined file, plus one); empty for the first, whose
 * lines read as with one device. */
static void device_prefix(const watcher *w, char *buf, size_t len)
{
    const unsigned before = w->join && w->out ? traces_in_file(w->out) : 0;
    if (before) snprintf(buf, len, "device %u: ", before + 1);
    else buf[0] = 0;
}

/* What the machines leave unsaid: `count` shows its counter (the same
 * prefix as `print`), and a machine that never fired says so (a `print`
 * or `stop` that never came is otherwise silence, the same as a machine
 * that was never armed). */
static void machines_summary(ws_device *dev, const watcher *w, const char *device)
{
    for (unsigned i = 0; i < w->nmachines; i++) {
        ws_machine_status ms;
        if (ws_events_machine_status(dev, i, &ms) != WS_OK) continue;
        if (w->counting >> i & 1) {
            fprintf(stderr, "[watch] %smachine %u: count %llu\n", device, i, (unsigned long long)ms.counter);
        } else if (!ms.fired) {
            char text[1024];
            ws_events_machine_text(&w->programs[i], text, sizeof text);
            fprintf(stderr, "[watch] %smachine %u: never fired ('%s')\n", device, i, text);
        }
    }
}

static void write_trace(ws_device *dev, watcher *w)
{
    char device[32];
    device_prefix(w, device, sizeof device);
    uint8_t *bytes;
    size_t n;
    uint64_t events, dropped;
    if (ws_events_read(dev, &bytes, &n, &events, &dropped) != WS_OK && !bytes) {
        fprintf(stderr, "warpscope: watch: %s\n", ws_last_error(dev));
        return;
    }
    errno = 0;
    /* without out= the trace goes nowhere (machines that print, count or
     * halt need no file), and that is no error */
    FILE *f = w->out ? fopen(w->out, w->join ? "ab" : "wb") : NULL;
    int bad = w->out && (!f || fwrite(bytes, 1, n, f) != n);
    if (f && fclose(f)) bad = 1;
    if (bad) fprintf(stderr, "warpscope: watch: cannot write %s%s%s\n", w->out, errno ? ": " : "", errno ? strerror(errno) : "");
    if (dropped)
        fprintf(stderr, "warpscope: watch: %llu events did not fit the %u-byte trace buffer (raise --capacity, or "
                "capacity= in WARPSCOPE_WATCH)\n", (unsigned long long)dropped, w->cfg.capacity);
    free(bytes);
    /* a trace.snapshot action's copy, next to the trace (it was taken and
     * never written anywhere) */
    if (w->snapshot && ws_events_read_snapshot(dev, &bytes, &n) == WS_OK) {
        errno = 0;
        FILE *g = fopen(w->snapshot, w->join ? "ab" : "wb");
        int failed = !g || fwrite(bytes, 1, n, g) != n;
        if (g && fclose(g)) failed = 1;
        if (failed)
            fprintf(stderr, "warpscope: watch: cannot write %s%s%s\n", w->snapshot, errno ? ": " : "",
                    errno ? strerror(errno) : "");
        free(bytes);
    }
    machines_summary(dev, w, device);
}

static void device_close(ws_device *dev, void *user)
{
    ws_events_owner_begin(dev, watcher_name);
    write_trace(dev, user);
    ws_events_owner_end(dev);
}

static void detach(ws_device *dev, void *user)
{
    watcher *w = user;
    (void)dev;
    free(w->out);
    free(w->snapshot);
    free(w);
}

static const ws_tool watch_tool = {
    .version = WS_TOOL_API_VERSION, .name = "event watcher", .device_close = device_close, .detach = detach,
};

static void print_event(void *user, unsigned machine, const ws_event *e)
{
    (void)user;
    fprintf(stderr, "[watch] machine %u: %s core %u data 0x%08x at %llu\n", machine, ws_event_name(e->source, e->id),
            e->core, e->data, (unsigned long long)e->time);
}

/* The machines together: at most WS_EV_MACHINES (checked by the caller),
 * and each enable=N names one of them (machine N is the N-th line; one
 * that names no machine enabled nothing, without a word). */
static int check_enables(const ws_machine_program *p, unsigned n, char *err, size_t errlen)
{
    for (unsigned i = 0; i < n; i++)
        for (uint32_t a = 0; a < p[i].nactions; a++)
            if (p[i].actions[a].kind == WS_ACT_ENABLE && p[i].actions[a].arg >= n) {
                snprintf(err, errlen, "machine %u: enable=%u: there is no machine %u (%u machine%s given, numbered "
                         "from 0 in the order given)", i, p[i].actions[a].arg, p[i].actions[a].arg, n, n == 1 ? "" : "s");
                return -1;
            }
    return 0;
}

int ws_watch_check_machines(const char *text, char *err, size_t errlen)
{
    ws_machine_program p[WS_EV_MACHINES];
    unsigned n = 0;
    err[0] = 0;
    for (const char *line = text ? text : ""; *line;) {
        const char *end = strchr(line, '\n');
        const size_t len = end ? (size_t)(end - line) : strlen(line);
        char one[4096], why[256];
        int print;
        if (len && n == WS_EV_MACHINES) {
            snprintf(err, errlen, "more than %d machines", WS_EV_MACHINES);
            return -1;
        }
        snprintf(one, sizeof one, "%.*s", (int)len, line);
        if (len && ws_events_parse_machine(one, &p[n], &print, why, sizeof why)) {
            snprintf(err, errlen, "machine %u: %s", n, why);
            return -1;
        }
        n += len != 0;
        line += len + (end != NULL);
    }
    return check_enables(p, n, err, errlen);
}

/* One machine per line. A machine that another enables starts disabled;
 * a program that starts the trace starts with it off. */
static ws_status program_machines(ws_device *dev, watcher *w, const char *text)
{
    if (!text || !*text) return WS_OK;
    char *copy = strdup(text), *save = NULL;
    if (!copy) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "WARPSCOPE_WATCH_MACHINES: out of memory");
    ws_machine_program p[WS_EV_MACHINES];
    int print = 0;
    unsigned n = 0;
    ws_status st = WS_OK;
    for (char *line = strtok_r(copy, "\n", &save); line && st == WS_OK; line = strtok_r(NULL, "\n", &save)) {
        char err[256];
        int pr;
        if (n == WS_EV_MACHINES)
            st = ws_set_error(dev, WS_ERR_INVALID_ARG, "WARPSCOPE_WATCH_MACHINES: more than %d machines", WS_EV_MACHINES);
        else if (ws_events_parse_machine(line, &p[n], &pr, err, sizeof err))
            st = ws_set_error(dev, WS_ERR_INVALID_ARG, "WARPSCOPE_WATCH_MACHINES: machine %u: %s", n, err);
        else
            print |= pr, n++;
    }
    free(copy);
    char why[256];
    if (st == WS_OK && check_enables(p, n, why, sizeof why))
        st = ws_set_error(dev, WS_ERR_INVALID_ARG, "WARPSCOPE_WATCH_MACHINES: %s", why);
    for (unsigned i = 0; st == WS_OK && i < n; i++)
        for (uint32_t a = 0; a < p[i].nactions; a++) {
            if (p[i].actions[a].kind == WS_ACT_ENABLE && p[i].actions[a].arg < n) p[p[i].actions[a].arg].enabled = 0;
            if (p[i].actions[a].kind == WS_ACT_TRACE_START) st = ws_events_trace_enable(dev, 0);
            if (p[i].actions[a].kind == WS_ACT_COUNT) w->counting |= 1u << i;
        }
    for (unsigned i = 0; st == WS_OK && i < n; i++) st = ws_events_machine(dev, i, &p[i]);
    if (st == WS_OK) {
        memcpy(w->programs, p, n * sizeof *p);
        w->nmachines = n;
    }
    static const char refused_by[] = "ws_events_machine: ";
    if (st != WS_OK && !strncmp(ws_last_error(dev), refused_by, sizeof refused_by - 1)) {
        /* (one the device cannot run) say where the machine came from, not which call refused it */
        char why[WS_ERRLEN];
        snprintf(why, sizeof why, "%s", ws_last_error(dev) + sizeof refused_by - 1);
        st = ws_set_error(dev, st, "WARPSCOPE_WATCH_MACHINES: %s", why);
    }
    if (st == WS_OK && print) st = ws_events_set_callback(dev, print_event, NULL);
    return st;
}

/* spec's settings into w (NULL: only checked); err empty if they are good. */
static void parse_spec(const char *spec, watcher *w, ws_event_config *cfg, char *err, size_t errlen)
{
    const char *at = spec ? spec : "";
    char *copy = malloc(strlen(at) + 1), *item = copy; /* (one item at a time, quotes taken out) */
    err[0] = 0;
    if (!copy) { snprintf(err, errlen, "out of memory"); return; }
    cfg->capacity = 1u << 23;
    for (int got; !err[0] && (got = ws_settings_next(&at, item)) != 0;) {
        if (got < 0) { snprintf(err, errlen, "'%.200s': a double quote is not closed", item); break; }
        if (!item[0]) continue;
        char *v = strchr(item, '=');
        if (!v) { snprintf(err, errlen, "'%s' is not key=value (keys: events, capacity, out, snapshot, join)", item); break; }
        *v++ = 0;
        if (!strcmp(item, "events")) ws_watch_parse_events(v, cfg->mask, err, errlen);
        else if ((!strcmp(item, "out") || !strcmp(item, "snapshot")) && !*v)
            snprintf(err, errlen, "%s=: expected a file name", item);
        else if (!strcmp(item, "out")) { if (w) { free(w->out); w->out = strdup(v); } }
        else if (!strcmp(item, "snapshot")) { if (w) { free(w->snapshot); w->snapshot = strdup(v); } }
        else if (!strcmp(item, "join")) {
            if (strcmp(v, "0") && strcmp(v, "1")) snprintf(err, errlen, "join=%s: 0 or 1", v);
            else if (w) w->join = *v == '1';
        }
        else if (!strcmp(item, "capacity")) {
            char *end;
            unsigned long c = strtoul(v, &end, 10);
            if (*v < '0' || *v > '9' || *end || c < 64 || c > (1ul << 30)) snprintf(err, errlen, "capacity=%s: 64 to 2^30 bytes", v);
            else cfg->capacity = (uint32_t)c;
        } else snprintf(err, errlen, "unknown key '%s' (keys: events, capacity, out, snapshot, join)", item);
    }
    free(copy);
}

int ws_watch_check_spec(const char *spec, char *err, size_t errlen)
{
    ws_event_config cfg;
    memset(&cfg, 0, sizeof cfg);
    char why[256];
    parse_spec(spec, NULL, &cfg, why, sizeof why);
    if (why[0]) snprintf(err, errlen, "WARPSCOPE_WATCH: %s", why);
    return why[0] ? -1 : 0;
}

/* spec NULL: machines only (WARPSCOPE_WATCH_MACHINES alone), no trace. */
static ws_status attach(ws_device *dev, const char *spec)
{
    watcher *w = calloc(1, sizeof *w);
    if (!w) return ws_set_error(dev, WS_ERR_OUT_OF_MEMORY, "WARPSCOPE_WATCH: out of memory");
    char err[256] = "";
    if (spec) parse_spec(spec, w, &w->cfg, err, sizeof err);
    ws_status st = err[0] ? ws_set_error(dev, WS_ERR_INVALID_ARG, "WARPSCOPE_WATCH: %s", err) : WS_OK;
    /* The trace buffer is the event hardware's own memory, not device
     * memory (ws_events_configure): the program's arena, its limit and
     * every address in it are what they are without the watcher. (Until
     * 2026-11-27 the buffer sat at the top of the arena: a program given
     * the whole range could not allocate its top under watch.) */
    ws_events_owner_begin(dev, watcher_name); /* the bus is the watcher's from now on */
    if (st == WS_OK) st = ws_events_configure(dev, &w->cfg);
    if (st == WS_OK) st = program_machines(dev, w, getenv("WARPSCOPE_WATCH_MACHINES"));
    ws_events_owner_end(dev);
    if (st == WS_OK) st = ws_tool_attach(dev, &watch_tool, w);
    if (st != WS_OK) {
        free(w->out);
        free(w->snapshot);
        free(w);
    }
    return st;
}

ws_status ws_watch_attach(ws_device *dev, const char *spec)
{
    return attach(dev, spec ? spec : "");
}

ws_status ws_watch_attach_machines(ws_device *dev, const char *machines)
{
    (void)machines; /* (read from the environment by attach, as with WARPSCOPE_WATCH) */
    const char *watch = getenv("WARPSCOPE_WATCH");
    if (watch && *watch) return WS_OK; /* that watcher has them */
    return attach(dev, NULL);
}
