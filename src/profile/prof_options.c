/* WARPSCOPE_PROFILE text: comma-separated key=value items. Unknown keys
 * and bad values are errors, so a typo never silently profiles with
 * defaults. */
#include <stdlib.h>
#include <string.h>
#include "profile/prof_internal.h"
#include "runtime/settings_text.h"

static const char *const state_names[WS_STATE_COUNT] = {
    "selected", "not_selected", "wait", "long_scoreboard", "short_scoreboard",
    "mio_throttle", "lg_throttle", "math_pipe_throttle", "barrier", "membar",
    "branch_resolving", "no_instructions", "dispatch_stall", "sleeping", "drain", "misc"
};

const char *prof_unit_name(unsigned u)
{
    static const char *const names[PROF_UNITS] = { "int", "mul", "div", "fp", "fdiv", "mio", "lsu" };
    return u < PROF_UNITS ? names[u] : "unknown";
}

const char *prof_state_name(unsigned s)
{
    return s < WS_STATE_COUNT ? state_names[s] : "unknown";
}

static int parse_u32(const char *v, uint32_t lo, uint32_t hi, uint32_t *out)
{
    char *end;
    if (!*v || *v == '-') return -1;
    unsigned long x = strtoul(v, &end, 10);
    if (*end || x < lo || x > hi) return -1;
    *out = (uint32_t)x;
    return 0;
}

static int set_path(char **dst, const char *v)
{
    free(*dst);
    *dst = *v ? strdup(v) : NULL;
    return *v && !*dst ? -1 : 0;
}

int prof_options_parse(const char *text, prof_options *o, char *err, size_t len)
{
    memset(o, 0, sizeof *o);
    o->period_log2 = 10;
    o->passes = 1;
    o->mode = WS_TRACE_ALL_WARPS;
    o->buffer_records = 1u << 18;
    const char *at = text ? text : "";
    char *copy = malloc(strlen(at) + 1), *item = copy; /* (one item at a time, quotes taken out) */
    if (!copy) { snprintf(err, len, "WARPSCOPE_PROFILE: out of memory"); return -1; }
    int rc = 0;
    for (int got; !rc && (got = ws_settings_next(&at, item)) != 0;) {
        if (got < 0) {
            snprintf(err, len, "WARPSCOPE_PROFILE: '%.200s': a double quote is not closed", item);
            rc = -1;
            break;
        }
        if (!item[0]) continue;
        char *eq = strchr(item, '=');
        if (!strcmp(item, "1") || !strcmp(item, "on")) continue; /* "profile with defaults" */
        if (!eq) {
            snprintf(err, len, "WARPSCOPE_PROFILE: '%s' is not key=value (keys: period, passes, "
                     "mode, inline, buffer, report, json, trace, source, devices)", item);
            rc = -1;
            break;
        }
        *eq = 0;
        const char *k = item, *v = eq + 1;
        if (!strcmp(k, "period")) {
            if (parse_u32(v, 0, 24, &o->period_log2)) {
                snprintf(err, len, "WARPSCOPE_PROFILE: period=%s: must be 0..24 (samples every 2^period cycles)", v);
                rc = -1;
            }
        } else if (!strcmp(k, "passes")) {
            if (parse_u32(v, 1, 64, &o->passes)) {
                snprintf(err, len, "WARPSCOPE_PROFILE: passes=%s: must be 1..64", v);
                rc = -1;
            }
        } else if (!strcmp(k, "buffer")) {
            if (parse_u32(v, 16, 1u << 24, &o->buffer_records)) {
                snprintf(err, len, "WARPSCOPE_PROFILE: buffer=%s: must be 16..16777216 records", v);
                rc = -1;
            }
        } else if (!strcmp(k, "mode")) {
            if (!strcmp(v, "all")) o->mode = WS_TRACE_ALL_WARPS;
            else if (!strcmp(v, "rr")) o->mode = WS_TRACE_ROUND_ROBIN;
            else {
                snprintf(err, len, "WARPSCOPE_PROFILE: mode=%s: must be 'all' or 'rr'", v);
                rc = -1;
            }
        } else if (!strcmp(k, "inline")) {
            if (!strcmp(v, "caller")) o->inline_mode = PROF_INLINE_CALLER;
            else if (!strcmp(v, "callee")) o->inline_mode = PROF_INLINE_CALLEE;
            else {
                snprintf(err, len, "WARPSCOPE_PROFILE: inline=%s: must be 'caller' or 'callee'", v);
                rc = -1;
            }
        } else if (!strcmp(k, "json") || !strcmp(k, "trace") || !strcmp(k, "report") || !strcmp(k, "source") ||
                   !strcmp(k, "devices")) {
            char **dst = k[0] == 'j' ? &o->json : k[0] == 't' ? &o->trace : k[0] == 's' ? &o->source
                       : k[0] == 'd' ? &o->devices : &o->report;
            if (set_path(dst, v)) { snprintf(err, len, "WARPSCOPE_PROFILE: out of memory"); rc = -1; }
        } else {
            snprintf(err, len, "WARPSCOPE_PROFILE: unknown key '%s' (keys: period, passes, mode, "
                     "inline, buffer, report, json, trace, source, devices)", k);
            rc = -1;
        }
    }
    free(copy);
    /* pass p samples at an offset of p/passes of the period: with more
     * passes than cycles in a period, passes would sample the same cycles */
    if (!rc && o->period_log2 < 6 && o->passes > 1u << o->period_log2) {
        snprintf(err, len, "WARPSCOPE_PROFILE: passes=%u with period=%u: a sampling period of %u cycle(s) has room for "
                 "at most %u pass(es) at different cycles (raise period or lower passes)", o->passes, o->period_log2,
                 1u << o->period_log2, 1u << o->period_log2);
        rc = -1;
    }
    if (rc) prof_options_free(o);
    return rc;
}

void prof_options_free(prof_options *o)
{
    free(o->json);
    free(o->devices);
    free(o->trace);
    free(o->report);
    free(o->source);
    o->json = o->devices = o->trace = o->report = o->source = NULL;
}
