/* The text form of a debug machine (docs/events.md, "Machines"): one line
 *   EVENT [core=N] [data=V | data!=V | data=LO..HI] [mask=M] [count=K]
 *     [for>T] [then EVENT ... [within=T]]... do ACTION[; ACTION...]
 * with ACTION one of stop, halt, halt=MASK, trace.start, trace.stop,
 * trace.snapshot, count, rearm, enable=N, print, wd.halt, wd.resume,
 * wd.step, cp.halt, cp.step, cp.resume. Used by `warpscope watch`,
 * WARPSCOPE_WATCH_MACHINES and gdb's `monitor watch`. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "device/events/event_bus.h"
#include "warpscope/events.h"
#include "device/number_text.h"

static int find_event(const char *name, ws_watch *w)
{
    if (!strcmp(name, "unknown")) return -1; /* (the name of every EventID no event has) */
    for (unsigned s = 0; s < WS_EV_SOURCES; s++)
        for (unsigned id = 0; id < 16; id++)
            if (!strcmp(ws_event_name(s, id), name)) {
                w->source = (uint8_t)s;
                w->id = (uint8_t)id;
                return 0;
            }
    return -1;
}

/* A number (decimal, or hex after 0x) that fits 64 bits. A leading 0 is not
 * octal, as in configuration text and on the command line (before
 * 2026-11-27 data=010 matched 8, and data=09 was refused). */
static int num(const char *v, uint64_t *out)
{
    char *end;
    if (!*v || *v == '-' || *v == '+') return -1;
    errno = 0;
    *out = strtoull(v, &end, ws_number_base(v));
    return *end || errno ? -1 : 0;
}

/* Events that have an end, so for>T can time them (machines.c, ends()). */
#define CONDITIONS "core=N, data=V, data!=V, data=LO..HI, mask=M, count=K, within=T, for>T"

/* One condition of step w; *seen: the keys it had already (each once). */
static int parse_term(char *tok, ws_watch *w, unsigned *seen, char *err, size_t errlen)
{
    static const char *const keys[] = { "core", "data", "mask", "count", "within", "for>" };
    uint64_t v, hi;
    char *eq = strchr(tok, '=');
    int neg = eq && eq > tok && eq[-1] == '!';
    size_t klen = !strncmp(tok, "for>", 4) ? 4 : eq ? (size_t)(eq - tok) - (size_t)neg : 0;
    unsigned key = 0;
    while (key < 6 && (strlen(keys[key]) != klen || strncmp(tok, keys[key], klen))) key++;
    if (key == 6) { snprintf(err, errlen, "'%s' is not a condition (" CONDITIONS ")", tok); return -1; }
    if (*seen >> key & 1) { snprintf(err, errlen, "'%s': %s is given twice in one step", tok, keys[key]); return -1; }
    *seen |= 1u << key;
    if (neg && key != 1) { snprintf(err, errlen, "'%s': only data takes !=", tok); return -1; }
    char *val = key == 5 ? tok + 4 : eq + 1, *dots = key == 1 && !neg ? strstr(val, "..") : NULL;
    if (dots) {
        *dots = 0;
        if (num(val, &v) || num(dots + 2, &hi) || v > hi || hi > UINT32_MAX) {
            snprintf(err, errlen, "'data=%s..%s': expected LO..HI with 0 <= LO <= HI <= 4294967295", val, dots + 2);
            return -1;
        }
        w->match = WS_MATCH_RANGE;
        w->value = (uint32_t)v;
        w->hi = (uint32_t)hi;
        return 0;
    }
    /* within=0 is refused: the program's window 0 means no window, so it
     * was taken as no limit at all (the step matched at any distance) */
    static const uint64_t lo_of[] = { 0, 0, 1, 1, 1, 1 }, hi_of[] = { 0xFFFE, UINT32_MAX, UINT32_MAX, UINT32_MAX,
                                                                       UINT64_MAX, UINT64_MAX };
    if (num(val, &v) || v < lo_of[key] || v > hi_of[key]) {
        char top[24] = "2^64-1";
        if (hi_of[key] != UINT64_MAX) snprintf(top, sizeof top, "%llu", (unsigned long long)hi_of[key]);
        snprintf(err, errlen, "'%s': expected a number from %llu to %s", tok, (unsigned long long)lo_of[key], top);
        return -1;
    }
    switch (key) {
    case 0: w->core = (uint16_t)v; break;
    case 1: w->match = neg ? WS_MATCH_NE : WS_MATCH_EQ; w->value = (uint32_t)v; break;
    case 2: w->mask = (uint32_t)v; break;
    case 3: w->repeat = (uint32_t)v; break;
    case 4: w->window = v; break;
    default: /* the event must last longer than this */
        if (!ws_ev_has_duration(w->source, w->id)) {
            snprintf(err, errlen, "'%s': %s has no duration (for> times " WS_EV_DURATION_EVENTS ")", tok,
                     ws_event_name(w->source, w->id));
            return -1;
        }
        w->lasting = v;
    }
    return 0;
}

/* A step whose conditions no event can meet, or that name what does not
 * apply, is refused (it was taken, and the machine never fired). Step
 * `index` (0: the first); `seen`: its keys (parse_term). */
static int check_step(const ws_watch *w, unsigned index, unsigned seen, char *err, size_t errlen)
{
    const char *name = ws_event_name(w->source, w->id);
    if ((seen >> 2 & 1) && !(seen >> 1 & 1)) {
        snprintf(err, errlen, "%s: mask=0x%x applies to data: give data=V (or data=LO..HI) with it", name, w->mask);
        return -1;
    }
    if (w->mask && w->match == WS_MATCH_EQ && (w->value & ~w->mask)) {
        snprintf(err, errlen, "%s: data=0x%x has bits outside mask=0x%x: no event can match", name, w->value, w->mask);
        return -1;
    }
    if (w->mask && w->match == WS_MATCH_RANGE && w->value > w->mask) {
        snprintf(err, errlen, "%s: data=0x%x..0x%x: data under mask=0x%x is at most 0x%x: no event can match", name,
                 w->value, w->hi, w->mask, w->mask);
        return -1;
    }
    if (!index && (seen >> 4 & 1)) {
        snprintf(err, errlen, "%s: within=%llu: within times a step from the one before it, and the first step has "
                 "none (put it on a 'then' step)", name, (unsigned long long)w->window);
        return -1;
    }
    return 0;
}

static int parse_action(char *a, ws_machine_program *p, int *print, char *err, size_t errlen)
{
    while (*a == ' ') a++;
    char *end = a + strlen(a);
    while (end > a && end[-1] == ' ') *--end = 0;
    if (!*a) return 0;
    if (p->nactions == WS_EV_MAX_ACTIONS) { snprintf(err, errlen, "more than %d actions", WS_EV_MAX_ACTIONS); return -1; }
    uint64_t n = 0;
    ws_action_kind k;
    if (!strcmp(a, "stop")) k = WS_ACT_STOP;
    else if (!strcmp(a, "trace.start")) k = WS_ACT_TRACE_START;
    else if (!strcmp(a, "trace.stop")) k = WS_ACT_TRACE_STOP;
    else if (!strcmp(a, "trace.snapshot")) k = WS_ACT_TRACE_SNAPSHOT;
    else if (!strcmp(a, "count")) k = WS_ACT_COUNT;
    else if (!strcmp(a, "rearm")) k = WS_ACT_REARM;
    else if (!strcmp(a, "print")) { k = WS_ACT_CALLBACK; *print = 1; }
    else if (!strcmp(a, "wd.halt")) k = WS_ACT_WD_HALT;
    else if (!strcmp(a, "wd.resume")) k = WS_ACT_WD_RESUME;
    else if (!strcmp(a, "wd.step")) k = WS_ACT_WD_STEP;
    else if (!strcmp(a, "halt")) k = WS_ACT_HALT;
    else if (!strncmp(a, "halt=", 5) && !num(a + 5, &n) && n && n <= UINT32_MAX) k = WS_ACT_HALT;
    else if (!strcmp(a, "cp.halt")) k = WS_ACT_CP_HALT;
    else if (!strcmp(a, "cp.step")) k = WS_ACT_CP_STEP;
    else if (!strcmp(a, "cp.resume")) k = WS_ACT_CP_RESUME;
    else if (!strncmp(a, "enable=", 7) && !num(a + 7, &n) && n < WS_EV_MACHINES) k = WS_ACT_ENABLE;
    else if (!strncmp(a, "enable=", 7) || !strncmp(a, "halt=", 5)) { /* a known action, a bad number */
        if (a[0] == 'e') snprintf(err, errlen, "'%s': machines are numbered 0 to %d", a, WS_EV_MACHINES - 1);
        else snprintf(err, errlen, "'%s': expected a core mask from 1 to 0xffffffff", a);
        return -1;
    } else { snprintf(err, errlen, "'%s' is not an action (stop, halt, halt=CORE_MASK, trace.start, trace.stop, trace.snapshot, count, rearm, enable=N, print, wd.halt, wd.resume, wd.step, cp.halt, cp.step, cp.resume)", a); return -1; }
    p->actions[p->nactions].kind = k;
    p->actions[p->nactions++].arg = (uint32_t)n;
    return 0;
}

ws_status ws_events_parse_machine(const char *line, ws_machine_program *p, int *print, char *err, size_t errlen)
{
    char scratch[256]; /* err is optional: without it the message is dropped */
    if (!err || !errlen) { err = scratch; errlen = sizeof scratch; }
    if (!line || !p || !print) {
        snprintf(err, errlen, "ws_events_parse_machine: %s is NULL", !line ? "text" : !p ? "program" : "print");
        return WS_ERR_INVALID_ARG;
    }
    memset(p, 0, sizeof *p);
    p->enabled = 1;
    *print = 0;
    char *copy = strdup(line), *save = NULL;
    if (!copy) { snprintf(err, errlen, "out of memory"); return WS_ERR_OUT_OF_MEMORY; }
    int rc = 0, in_actions = 0;
    unsigned seen = 0;
    ws_watch *w = NULL;
    for (char *tok = strtok_r(copy, " \t", &save); tok && !rc; tok = strtok_r(NULL, " \t", &save)) {
        if (in_actions) { /* the rest, split on ';' */
            for (char *a = tok, *semi; a && !rc; a = semi) {
                if ((semi = strchr(a, ';'))) *semi++ = 0;
                rc = parse_action(a, p, print, err, errlen);
            }
            continue;
        }
        if (!strcmp(tok, "do")) {
            if (w && (rc = check_step(w, p->nwatch - 1, seen, err, errlen))) break;
            in_actions = 1;
            continue;
        }
        if (!strcmp(tok, "then") || !w) {
            if (w && (rc = check_step(w, p->nwatch - 1, seen, err, errlen))) break;
            if (!strcmp(tok, "then") && (!(tok = strtok_r(NULL, " \t", &save)) || !strcmp(tok, "do"))) { snprintf(err, errlen, "'then' needs an event"); rc = -1; break; }
            if (p->nwatch == WS_EV_MAX_WATCH) { snprintf(err, errlen, "more than %d steps", WS_EV_MAX_WATCH); rc = -1; break; }
            w = &p->watch[p->nwatch++];
            w->core = WS_EV_ANY_CORE;
            seen = 0;
            if (find_event(tok, w)) { snprintf(err, errlen, "'%s' is not an event (see docs/events.md)", tok); rc = -1; }
            continue;
        }
        rc = parse_term(tok, w, &seen, err, errlen);
    }
    free(copy);
    if (!rc && !in_actions && w) rc = check_step(w, p->nwatch - 1, seen, err, errlen);
    if (!rc && !p->nwatch) { snprintf(err, errlen, "no event to watch"); rc = -1; }
    if (!rc && !p->nactions) { snprintf(err, errlen, "no action ('do ...')"); rc = -1; }
    return rc ? WS_ERR_INVALID_ARG : WS_OK;
}

static const char *action_name(ws_action_kind k)
{
    switch (k) {
    case WS_ACT_STOP: return "stop";
    case WS_ACT_HALT: return "halt";
    case WS_ACT_TRACE_START: return "trace.start";
    case WS_ACT_TRACE_STOP: return "trace.stop";
    case WS_ACT_TRACE_SNAPSHOT: return "trace.snapshot";
    case WS_ACT_COUNT: return "count";
    case WS_ACT_REARM: return "rearm";
    case WS_ACT_ENABLE: return "enable";
    case WS_ACT_CALLBACK: return "print";
    case WS_ACT_WD_HALT: return "wd.halt";
    case WS_ACT_WD_STEP: return "wd.step";
    case WS_ACT_WD_RESUME: return "wd.resume";
    case WS_ACT_CP_HALT: return "cp.halt";
    case WS_ACT_CP_STEP: return "cp.step";
    case WS_ACT_CP_RESUME: return "cp.resume";
    }
    return "?";
}

/* Append to out[len] at *o, never past its end; *o counts on past it. */
static void put(char *out, size_t len, size_t *o, const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void put(char *out, size_t len, size_t *o, const char *fmt, ...)
{
    char spill[1]; /* past the end: only counted, so the whole length is known */
    va_list ap;
    va_start(ap, fmt);
    int n = *o < len ? vsnprintf(out + *o, len - *o, fmt, ap) : vsnprintf(spill, sizeof spill, fmt, ap);
    va_end(ap);
    *o += n < 0 ? 0 : (size_t)n;
}

static void describe_step(const ws_watch *w, int first, char *out, size_t len, size_t *o)
{
    put(out, len, o, "%s%s", first ? "" : " then ", ws_event_name(w->source, w->id));
    if (w->core != WS_EV_ANY_CORE) put(out, len, o, " core=%u", w->core);
    if (w->match == WS_MATCH_EQ) put(out, len, o, " data=%u", w->value);
    if (w->match == WS_MATCH_NE) put(out, len, o, " data!=%u", w->value);
    if (w->match == WS_MATCH_RANGE) put(out, len, o, " data=%u..%u", w->value, w->hi);
    if (w->mask && w->mask != UINT32_MAX) put(out, len, o, " mask=0x%x", w->mask);
    if (w->repeat > 1) put(out, len, o, " count=%u", w->repeat);
    if (w->lasting) put(out, len, o, " for>%llu", (unsigned long long)w->lasting);
    if (!first && w->window) put(out, len, o, " within=%llu", (unsigned long long)w->window);
}

size_t ws_events_machine_text(const ws_machine_program *p, char *out, size_t len)
{
    char none[1];
    size_t o = 0;
    if (!out || !len) { /* only the length */
        out = none;
        len = sizeof none;
    }
    out[0] = 0;
    if (!p) return 0;
    for (uint32_t i = 0; i < p->nwatch && i < WS_EV_MAX_WATCH; i++) describe_step(&p->watch[i], i == 0, out, len, &o);
    for (uint32_t i = 0; i < p->nactions && i < WS_EV_MAX_ACTIONS; i++) {
        const ws_action_kind k = p->actions[i].kind;
        put(out, len, &o, "%s%s", i ? "; " : " do ", action_name(k));
        if (k == WS_ACT_ENABLE || (k == WS_ACT_HALT && p->actions[i].arg))
            put(out, len, &o, "=%s%x", k == WS_ACT_HALT ? "0x" : "", p->actions[i].arg);
    }
    return o;
}

void ws_ev_machine_text(const ws_machine_program *p, char *out, size_t len)
{
    if (!len) return;
    const size_t whole = ws_events_machine_text(p, out, len);
    if (whole < len) return;
    /* cut short: it says so, and how long the whole is (was "..." alone) */
    char tail[48];
    const int n = snprintf(tail, sizeof tail, "... (cut: %zu characters in all)", whole);
    if (n > 0 && (size_t)n < len) memcpy(out + len - 1 - (size_t)n, tail, (size_t)n + 1);
    else if (len > 4) memcpy(out + len - 4, "...", 4);
}
