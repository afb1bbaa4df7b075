/* "key=value" configuration text, for the command line and config files. */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/runtime.h"
#include "device/number_text.h"
#include "runtime/settings_text.h"

/* A whole number, decimal (leading zeros are decimal too: "cores=010" is
 * 10, not octal 8) or hexadecimal after 0x, with an optional K/M/G
 * (KiB/MiB/GiB) suffix, "i" only after one, and an optional B; -1 for
 * anything else, a sign, or a value past 64 bits. */
static int parse_size(const char *v, uint64_t *out)
{
    char *end;
    if (!isdigit((unsigned char)*v)) return -1; /* strtoull would take "-1" as 2^64 - 1 */
    errno = 0;
    unsigned long long n = strtoull(v, &end, ws_number_base(v));
    if (end == v || errno == ERANGE) return -1;
    unsigned shift = 0;
    switch (toupper((unsigned char)*end)) {
    case 'K': shift = 10; end++; break;
    case 'M': shift = 20; end++; break;
    case 'G': shift = 30; end++; break;
    default: break;
    }
    if (shift && n > (UINT64_MAX >> shift)) return -1;
    n <<= shift;
    if (shift && (*end == 'i' || *end == 'I')) end++;
    if (*end == 'B' || *end == 'b') end++;
    if (*end) return -1;
    *out = n;
    return 0;
}

static ws_status set_key(ws_config *c, const char *key, const char *val, char *err, size_t len)
{
    static const struct { const char *name; size_t off; } u32_keys[] = {
        { "cores", offsetof(ws_config, cores) },
        { "warps_per_core", offsetof(ws_config, warps_per_core) },
        { "lanes_per_warp", offsetof(ws_config, lanes_per_warp) },
        { "shared_per_core", offsetof(ws_config, shared_per_core) },
        { "max_shared_per_block", offsetof(ws_config, max_shared_per_block) },
        { "stack_per_lane", offsetof(ws_config, stack_per_lane) },
        { "max_threads_per_block", offsetof(ws_config, max_threads_per_block) },
        { "warp_quantum", offsetof(ws_config, warp_quantum) },
        { "watchdog_ms", offsetof(ws_config, watchdog_ms) },
        { "threads", offsetof(ws_config, threads) },
    };
    uint64_t n;
    if (strcmp(key, "mode") == 0) {
        if (strcmp(val, "functional") == 0) c->mode = WS_MODE_FUNCTIONAL;
        else if (strcmp(val, "timing") == 0) c->mode = WS_MODE_TIMING;
        else { snprintf(err, len, "mode=%s: expected 'functional' or 'timing'", val); return WS_ERR_INVALID_ARG; }
        return WS_OK;
    }
    if (strcmp(key, "engine") == 0) {
        if (strcmp(val, "fast") == 0) c->engine = 0;
        else if (strcmp(val, "interp") == 0) c->engine = 1;
        else { snprintf(err, len, "engine=%s: expected 'fast' or 'interp'", val); return WS_ERR_INVALID_ARG; }
        return WS_OK;
    }
    if (strcmp(key, "timing") == 0) { /* timing-model parameter file */
        if (strlen(val) >= sizeof c->timing_file) {
            snprintf(err, len, "timing=%.60s...: path longer than %zu bytes (%zu)", val, sizeof c->timing_file - 1,
                     strlen(val));
            return WS_ERR_INVALID_ARG;
        }
        snprintf(c->timing_file, sizeof c->timing_file, "%s", val);
        return WS_OK;
    }
    if (parse_size(val, &n)) {
        snprintf(err, len, "%s=%s: not a whole number from 0 to 2^64-1 (decimal or 0x hex; K, M, G suffixes allowed)", key, val);
        return WS_ERR_INVALID_ARG;
    }
    if (strcmp(key, "global_mem_limit") == 0) { c->global_mem_limit = n; return WS_OK; }
    for (size_t i = 0; i < sizeof u32_keys / sizeof *u32_keys; i++)
        if (strcmp(key, u32_keys[i].name) == 0) {
            if (n > UINT32_MAX) { snprintf(err, len, "%s=%s: too large", key, val); return WS_ERR_INVALID_ARG; }
            uint32_t v = (uint32_t)n;
            memcpy((char *)c + u32_keys[i].off, &v, sizeof v);
            return WS_OK;
        }
    snprintf(err, len, "unknown setting '%s'", key);
    return WS_ERR_INVALID_ARG;
}

ws_status ws_config_parse(ws_config *cfg, const char *text, char *err, size_t errlen)
{
    char tmp[8];
    if (!err) { err = tmp; errlen = sizeof tmp; }
    if (!cfg || !text) {
        snprintf(err, errlen, "ws_config_parse: %s is NULL", cfg ? "text" : "cfg");
        return WS_ERR_INVALID_ARG;
    }
    const char *p = text;
    int block_given = 0, shape_given = 0;
    while (*p) {
        while (*p && (isspace((unsigned char)*p) || *p == ',')) p++;
        if (!*p) break;
        if (*p == '#') { while (*p && *p != '\n') p++; continue; }
        /* One setting: up to the next unquoted space or comma. Double
         * quotes take spaces, commas and '#' literally ("timing=\"/my
         * dir/a.timing\""); within them \" is a quote and \\ a backslash.
         * Outside quotes every other character, a backslash too, is
         * itself (docs/device.md). */
        const char *start = p;
        /* room for "timing=" and the longest path ws_config.timing_file holds */
        char item[sizeof cfg->timing_file + 32];
        const int got = ws_settings_item(&p, item, sizeof item, 1);
        if (got == -2) {
            snprintf(err, errlen, "setting too long (%zu bytes, at most %zu): %.40s...", (size_t)(p - start),
                     sizeof item - 1, start);
            return WS_ERR_INVALID_ARG;
        }
        if (got < 0) {
            snprintf(err, errlen, "%.60s%s: a double quote is not closed (a quoted value ends with \")", start,
                     strlen(start) > 60 ? "..." : "");
            return WS_ERR_INVALID_ARG;
        }
        char *eq = strchr(item, '=');
        if (!eq) { snprintf(err, errlen, "'%s': expected key=value", item); return WS_ERR_INVALID_ARG; }
        *eq = 0;
        ws_status st = set_key(cfg, item, eq + 1, err, errlen);
        if (st != WS_OK) return st;
        if (!strcmp(item, "max_threads_per_block")) block_given = 1;
        if (!strcmp(item, "lanes_per_warp") || !strcmp(item, "warps_per_core")) shape_given = 1;
    }
    /* A smaller core ("lanes_per_warp=16") lowers the block-size limit it
     * no longer holds, unless the text sets that limit itself. */
    uint64_t holds = (uint64_t)cfg->warps_per_core * cfg->lanes_per_warp;
    if (shape_given && !block_given && holds && cfg->max_threads_per_block > holds)
        cfg->max_threads_per_block = (uint32_t)holds;
    return WS_OK;
}
