/* "key=value" configuration text, for the command line and config files. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "runtime/runtime.h"
#include "device/number_text.h"
#include "runtime/settings_text.h"
#include "device/timing.h"

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

/* The numeric settings. */
enum {
    K_CORES, K_WARPS, K_LANES, K_SHARED_CORE, K_SHARED_BLOCK, K_STACK, K_GLOBAL, K_BLOCK_THREADS, K_QUANTUM,
    K_WATCHDOG, K_THREADS, K_COUNT
};
static const struct num_key { const char *name; size_t off; int is64; } num_keys[K_COUNT] = {
    [K_CORES] = { "cores", offsetof(ws_config, cores), 0 },
    [K_WARPS] = { "warps_per_core", offsetof(ws_config, warps_per_core), 0 },
    [K_LANES] = { "lanes_per_warp", offsetof(ws_config, lanes_per_warp), 0 },
    [K_SHARED_CORE] = { "shared_per_core", offsetof(ws_config, shared_per_core), 0 },
    [K_SHARED_BLOCK] = { "max_shared_per_block", offsetof(ws_config, max_shared_per_block), 0 },
    [K_STACK] = { "stack_per_lane", offsetof(ws_config, stack_per_lane), 0 },
    [K_GLOBAL] = { "global_mem_limit", offsetof(ws_config, global_mem_limit), 1 },
    [K_BLOCK_THREADS] = { "max_threads_per_block", offsetof(ws_config, max_threads_per_block), 0 },
    [K_QUANTUM] = { "warp_quantum", offsetof(ws_config, warp_quantum), 0 },
    [K_WATCHDOG] = { "watchdog_ms", offsetof(ws_config, watchdog_ms), 0 },
    [K_THREADS] = { "threads", offsetof(ws_config, threads), 0 },
};

static uint64_t get_num(const ws_config *c, int k)
{
    if (num_keys[k].is64) {
        uint64_t v;
        memcpy(&v, (const char *)c + num_keys[k].off, sizeof v);
        return v;
    }
    uint32_t v;
    memcpy(&v, (const char *)c + num_keys[k].off, sizeof v);
    return v;
}

static void set_num(ws_config *c, int k, uint64_t n)
{
    if (num_keys[k].is64) { memcpy((char *)c + num_keys[k].off, &n, sizeof n); return; }
    uint32_t v = (uint32_t)n;
    memcpy((char *)c + num_keys[k].off, &v, sizeof v);
}

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
    return -1;
}

static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

#define MAX_WARPS 64u
#define MAX_LANES 32u
#define SHARED_WINDOW (WS_SHARED_END - WS_SHARED_BASE)
#define STACK_WINDOW (WS_STACK_END - WS_STACK_BASE)
#define GLOBAL_MAX ((uint64_t)(WS_GLOBAL_MAX_END - WS_GLOBAL_BASE))

/* What numeric setting k accepts, as its messages say it: check_alone
 * names it for a value out of range, read_number for a value that is not
 * a whole number at all ("threads=-1" said "0 to 2^64-1" until
 * 2026-11-29, the parser's range, not the setting's). */
static void accepted(int k, char *buf, size_t len)
{
    switch (k) {
    case K_CORES: snprintf(buf, len, "must be 1..256"); break;
    case K_WARPS: snprintf(buf, len, "must be 1..%u", MAX_WARPS); break;
    case K_LANES: snprintf(buf, len, "must be 1..%u", MAX_LANES); break;
    case K_STACK:
        snprintf(buf, len, "must be a power of two >= 1024 and at most %u MiB (the stack window, which every "
                 "lane's stack shares)", STACK_WINDOW >> 20);
        break;
    case K_GLOBAL:
        snprintf(buf, len, "must be a multiple of 4096 between 1 MiB and %llu MiB",
                 (unsigned long long)(GLOBAL_MAX >> 20));
        break;
    case K_SHARED_CORE: snprintf(buf, len, "must be at most %u MiB (the shared-memory window)", SHARED_WINDOW >> 20); break;
    case K_SHARED_BLOCK:
        snprintf(buf, len, "must be at most shared_per_core, itself at most %u MiB (the shared-memory window)",
                 SHARED_WINDOW >> 20);
        break;
    case K_BLOCK_THREADS:
        snprintf(buf, len, "must be 1..warps_per_core*lanes_per_warp (at most %u*%u = %u)", MAX_WARPS, MAX_LANES,
                 MAX_WARPS * MAX_LANES);
        break;
    case K_THREADS: snprintf(buf, len, "must be 0 (one per host core) to 256"); break;
    case K_QUANTUM: snprintf(buf, len, "must be at least 1 and at most %u", UINT32_MAX); break;
    case K_WATCHDOG: snprintf(buf, len, "must be 0 (off) to %u", UINT32_MAX); break;
    default: snprintf(buf, len, "must be 0 to %u", UINT32_MAX); break; /* (every setting has its case) */
    }
}

/* The limits of numeric setting k on its own. ws_config_parse checks each
 * setting with them as it reads it, naming the value as written (`shown`);
 * ws_config_validate with the value held. -1 with a message if wrong. */
static int check_alone(int k, uint64_t v, const char *shown, char *err, size_t len)
{
    int out;
    switch (k) {
    case K_CORES: out = v < 1 || v > 256; break;
    case K_WARPS: out = v < 1 || v > MAX_WARPS; break;
    case K_LANES: out = v < 1 || v > MAX_LANES; break;
    case K_STACK: out = !is_pow2(v) || v < 1024 || v > STACK_WINDOW; break;
    case K_GLOBAL: out = v < (1u << 20) || v > GLOBAL_MAX || v % 4096; break;
    case K_SHARED_CORE: case K_SHARED_BLOCK: out = v > SHARED_WINDOW; break;
    case K_BLOCK_THREADS: out = v < 1 || v > MAX_WARPS * MAX_LANES; break;
    case K_THREADS: out = v > 256; break;
    case K_QUANTUM: out = v < 1; break;
    default: out = 0; break;
    }
    if (out) {
        char what[160];
        accepted(k, what, sizeof what);
        return fail(err, len, "%s=%s: %s", num_keys[k].name, shown, what);
    }
    if (!num_keys[k].is64 && v > UINT32_MAX)
        return fail(err, len, "%s=%s: too large (at most %u)", num_keys[k].name, shown, UINT32_MAX);
    return 0;
}

#define SHOWN 48 /* room for a value as written in a message */

/* Numeric setting k's value as text writes it: a number as parse_size
 * reads them, within the setting's own limits (check_alone). as_written
 * (SHOWN bytes) receives the value as messages show it. 0, or -1 with a
 * message naming the setting and the value. */
static int read_number(int k, const char *val, uint64_t *n, char *as_written, char *err, size_t len)
{
    if (parse_size(val, n)) { /* "-1", "abc": say what the setting takes, not what the parser reads */
        char what[160];
        accepted(k, what, sizeof what);
        snprintf(err, len, "%s=%s: %s, a whole number (decimal or 0x hex; K, M, G suffixes allowed)",
                 num_keys[k].name, val, what);
        return -1;
    }
    if (strlen(val) < SHOWN) memcpy(as_written, val, strlen(val) + 1); /* a value can be as long as 0x000...0001 */
    else snprintf(as_written, SHOWN, "%.*s...", SHOWN - 4, val);
    return check_alone(k, *n, as_written, err, len);
}

uint32_t ws_config_threads_from_env(void)
{
    const char *env = getenv("WARPSCOPE_THREADS");
    uint64_t n;
    char shown[SHOWN], err[160];
    return env && !read_number(K_THREADS, env, &n, shown, err, sizeof err) ? (uint32_t)n : 0;
}

/* The limits between settings, for the rules that involve a setting in
 * `given` (a bit per setting; ws_config_validate gives them all). shown[k]
 * names setting k's value: as written for one the text gave. */
static int check_together(const ws_config *c, unsigned given, char shown[][SHOWN], char *err, size_t len)
{
#define GIVEN(k) (given & (1u << (k)))
    uint64_t lanes = (uint64_t)c->cores * c->warps_per_core * c->lanes_per_warp;
    if ((GIVEN(K_STACK) || GIVEN(K_CORES) || GIVEN(K_WARPS) || GIVEN(K_LANES)) &&
        lanes * c->stack_per_lane > STACK_WINDOW) {
        /* named after the stack if the text sets it, else after the first
         * of the others that it sets */
        int lead = GIVEN(K_STACK) ? K_STACK : GIVEN(K_CORES) ? K_CORES : GIVEN(K_WARPS) ? K_WARPS : K_LANES;
        char of[SHOWN + 32] = "that stack";
        if (lead != K_STACK) snprintf(of, sizeof of, "stack_per_lane=%s", shown[K_STACK]);
        return fail(err, len, "%s=%s: %llu lanes (cores=%s x warps_per_core=%s x lanes_per_warp=%s) of %s exceed "
                    "the %u MiB stack window", num_keys[lead].name, shown[lead], (unsigned long long)lanes,
                    shown[K_CORES], shown[K_WARPS], shown[K_LANES], of, STACK_WINDOW >> 20);
    }
    if ((GIVEN(K_SHARED_BLOCK) || GIVEN(K_SHARED_CORE)) && c->max_shared_per_block > c->shared_per_core)
        return fail(err, len, "max_shared_per_block=%s: must not exceed shared_per_core=%s", shown[K_SHARED_BLOCK],
                    shown[K_SHARED_CORE]);
    if ((GIVEN(K_BLOCK_THREADS) || GIVEN(K_WARPS) || GIVEN(K_LANES)) &&
        c->max_threads_per_block > c->warps_per_core * c->lanes_per_warp)
        return fail(err, len, "max_threads_per_block=%s: must be 1..warps_per_core*lanes_per_warp "
                    "(warps_per_core=%s x lanes_per_warp=%s = %u)", shown[K_BLOCK_THREADS], shown[K_WARPS], shown[K_LANES],
                    c->warps_per_core * c->lanes_per_warp);
    return 0;
#undef GIVEN
}

int ws_config_check(const ws_config *c, char *err, size_t len)
{
    char shown[K_COUNT][SHOWN];
    for (int k = 0; k < K_COUNT; k++) snprintf(shown[k], SHOWN, "%llu", (unsigned long long)get_num(c, k));
    /* in the order the settings build on each other: the core's shape,
     * its stacks, memory, then the rest */
    static const int order[] = { K_CORES, K_WARPS, K_LANES, K_STACK, -1, K_GLOBAL, K_SHARED_CORE, K_SHARED_BLOCK,
                                 K_BLOCK_THREADS, K_THREADS, K_QUANTUM, K_WATCHDOG };
    for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
        if (order[i] < 0) { /* every lane's stack fits once the shape and the stack size do */
            if (check_together(c, 1u << K_STACK, shown, err, len)) return -1;
            continue;
        }
        if (check_alone(order[i], get_num(c, order[i]), shown[order[i]], err, len)) return -1;
    }
    if (check_together(c, (1u << K_COUNT) - 1, shown, err, len)) return -1;
    if (c->mode != WS_MODE_FUNCTIONAL && c->mode != WS_MODE_TIMING)
        return fail(err, len, "mode=%d: unknown execution mode", (int)c->mode);
    if (c->engine > 1) return fail(err, len, "engine=%u: must be 0 (fast) or 1 (interp)", c->engine);
    if (!memchr(c->timing_file, 0, sizeof c->timing_file)) return fail(err, len, "timing_file: not NUL-terminated");
    ws_timing_params p; /* a bad timing file is a configuration error */
    return ws_timing_params_load(&p, c->timing_file, err, len) ? -1 : 0;
}

/* One setting of the text. *given gets the bit of a numeric setting, and
 * shown[k] its value as written. */
static ws_status set_key(ws_config *c, const char *key, const char *val, unsigned *given, char shown[][SHOWN],
                         char *err, size_t len)
{
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
    if (strcmp(key, "timing") == 0) { /* timing-model parameter file: read by validate and device open */
        if (strlen(val) >= sizeof c->timing_file) {
            snprintf(err, len, "timing=%.60s...: path longer than %zu bytes (%zu)", val, sizeof c->timing_file - 1,
                     strlen(val));
            return WS_ERR_INVALID_ARG;
        }
        snprintf(c->timing_file, sizeof c->timing_file, "%s", val);
        return WS_OK;
    }
    int k = 0;
    while (k < K_COUNT && strcmp(key, num_keys[k].name)) k++;
    if (k == K_COUNT) {
        snprintf(err, len, "unknown setting '%s' (settings: mode, engine, timing", key);
        for (int i = 0; i < K_COUNT; i++) {
            size_t used = strlen(err);
            if (used < len) snprintf(err + used, len - used, ", %s", num_keys[i].name);
        }
        size_t used = strlen(err);
        if (used < len) snprintf(err + used, len - used, ")");
        return WS_ERR_INVALID_ARG;
    }
    char as_written[SHOWN];
    if (read_number(k, val, &n, as_written, err, len)) return WS_ERR_INVALID_ARG;
    set_num(c, k, n);
    *given |= 1u << k;
    snprintf(shown[k], SHOWN, "%s", as_written);
    return WS_OK;
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
    unsigned given = 0; /* numeric settings the text sets */
    char shown[K_COUNT][SHOWN];
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
        if (!eq) {
            const char *next = p;
            while (*next == ' ' || *next == '\t') next++;
            /* "cores = 8": a space ends a setting, so the key stands alone */
            snprintf(err, errlen, "'%s': expected key=value%s", item,
                     *next == '=' ? " with no spaces around '=' (a space or comma separates settings)" : "");
            return WS_ERR_INVALID_ARG;
        }
        *eq = 0;
        ws_status st = set_key(cfg, item, eq + 1, &given, shown, err, errlen);
        if (st != WS_OK) return st;
    }
    /* A smaller core ("lanes_per_warp=16") lowers the block-size limit it
     * no longer holds, unless the text sets that limit itself. */
    uint64_t holds = (uint64_t)cfg->warps_per_core * cfg->lanes_per_warp;
    if ((given & (1u << K_WARPS | 1u << K_LANES)) && !(given & 1u << K_BLOCK_THREADS) && holds &&
        cfg->max_threads_per_block > holds)
        cfg->max_threads_per_block = (uint32_t)holds;
    /* What the settings given cannot be together with the rest of cfg
     * ("cores=256" with 8 KiB stacks) is refused here too, not left to
     * ws_config_validate or the device open. */
    for (int k = 0; k < K_COUNT; k++)
        if (!(given & (1u << k))) snprintf(shown[k], SHOWN, "%llu", (unsigned long long)get_num(cfg, k));
    if (check_together(cfg, given, shown, err, errlen)) return WS_ERR_INVALID_ARG;
    return WS_OK;
}
