/* The text form of a debug machine (docs/events.md, "Machines"): one line
 *   EVENT [core=N] [data=V | data!=V | data=LO..HI] [mask=M] [count=K]
 *     [for>T] [then EVENT ... [within=T]]... do ACTION[; ACTION...]
 * with ACTION one of stop, trace.start, trace.stop, count, rearm,
 * enable=N, print, wd.halt, wd.resume, wd.step. Used by `warpscope watch`,
 * WARPSCOPE_WATCH_MACHINES and gdb's `monitor watch`. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "warpscope/events.h"

static int find_event(const char *name, ws_watch *w)
{
    for (unsigned s = 0; s < WS_EV_SOURCES; s++)
        for (unsigned id = 0; id < 16; id++)
            if (!strcmp(ws_event_name(s, id), name)) {
                w->source = (uint8_t)s;
                w->id = (uint8_t)id;
                return 0;
            }
    return -1;
}

static int num(const char *v, uint64_t *out)
{
    char *end;
    if (!*v) return -1;
    *out = strtoull(v, &end, 0);
    return *end ? -1 : 0;
}

static int parse_term(char *tok, ws_watch *w, char *err, size_t errlen)
{
    uint64_t v, hi;
    if (!strncmp(tok, "for>", 4)) { /* the event must last longer than this */
        if (num(tok + 4, &v) || !v) { snprintf(err, errlen, "'%s': expected for>TIME", tok); return -1; }
        w->lasting = v;
        return 0;
    }
    char *eq = strchr(tok, '=');
    if (!eq) { snprintf(err, errlen, "'%s': expected key=value (core, data, mask, count, within)", tok); return -1; }
    int neg = eq > tok && eq[-1] == '!';
    if (neg) eq[-1] = 0;
    *eq = 0;
    char *val = eq + 1, *dots = strstr(val, "..");
    if (!strcmp(tok, "data") && dots) {
        *dots = 0;
        if (num(val, &v) || num(dots + 2, &hi) || v > hi || hi > UINT32_MAX) { snprintf(err, errlen, "data range %s..%s", val, dots + 2); return -1; }
        w->match = WS_MATCH_RANGE;
        w->value = (uint32_t)v;
        w->hi = (uint32_t)hi;
        return 0;
    }
    if (num(val, &v)) { snprintf(err, errlen, "%s=%s: expected a number", tok, val); return -1; }
    if (!strcmp(tok, "data") && v <= UINT32_MAX) { w->match = neg ? WS_MATCH_NE : WS_MATCH_EQ; w->value = (uint32_t)v; }
    else if (!strcmp(tok, "core") && v < 0xFFFF) w->core = (uint16_t)v;
    else if (!strcmp(tok, "mask") && v <= UINT32_MAX) w->mask = (uint32_t)v;
    else if (!strcmp(tok, "count") && v && v <= UINT32_MAX) w->repeat = (uint32_t)v;
    else if (!strcmp(tok, "within")) w->window = v;
    else { snprintf(err, errlen, "'%s=%s' is not a condition (core, data, mask, count, within)", tok, val); return -1; }
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
    else { snprintf(err, errlen, "'%s' is not an action (stop, halt, halt=CORE_MASK, trace.start, trace.stop, trace.snapshot, count, rearm, enable=N, print, wd.halt, wd.resume, wd.step, cp.halt, cp.step, cp.resume)", a); return -1; }
    p->actions[p->nactions].kind = k;
    p->actions[p->nactions++].arg = (uint32_t)n;
    return 0;
}

ws_status ws_events_parse_machine(const char *line, ws_machine_program *p, int *print, char *err, size_t errlen)
{
    if (!line || !p || !print || !err || !errlen) return WS_ERR_INVALID_ARG;
    memset(p, 0, sizeof *p);
    p->enabled = 1;
    *print = 0;
    char *copy = strdup(line), *save = NULL;
    if (!copy) { snprintf(err, errlen, "out of memory"); return -1; }
    int rc = 0, in_actions = 0;
    ws_watch *w = NULL;
    for (char *tok = strtok_r(copy, " \t", &save); tok && !rc; tok = strtok_r(NULL, " \t", &save)) {
        if (in_actions) { /* the rest, split on ';' */
            for (char *a = tok, *semi; a && !rc; a = semi) {
                if ((semi = strchr(a, ';'))) *semi++ = 0;
                rc = parse_action(a, p, print, err, errlen);
            }
            continue;
        }
        if (!strcmp(tok, "do")) { in_actions = 1; continue; }
        if (!strcmp(tok, "then") || !w) {
            if (!strcmp(tok, "then") && !(tok = strtok_r(NULL, " \t", &save))) { snprintf(err, errlen, "'then' needs an event"); rc = -1; break; }
            if (p->nwatch == WS_EV_MAX_WATCH) { snprintf(err, errlen, "more than %d steps", WS_EV_MAX_WATCH); rc = -1; break; }
            w = &p->watch[p->nwatch++];
            w->core = WS_EV_ANY_CORE;
            if (find_event(tok, w)) { snprintf(err, errlen, "'%s' is not an event (see docs/events.md)", tok); rc = -1; }
            continue;
        }
        rc = parse_term(tok, w, err, errlen);
    }
    free(copy);
    if (!rc && !p->nwatch) { snprintf(err, errlen, "no event to watch"); rc = -1; }
    if (!rc && !p->nactions) { snprintf(err, errlen, "no action ('do ...')"); rc = -1; }
    return rc ? WS_ERR_INVALID_ARG : WS_OK;
}
