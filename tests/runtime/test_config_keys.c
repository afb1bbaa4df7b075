/* ws_config_parse and ws_config_validate agree, setting by setting and
 * in pairs: before 2026-11-27 the parser took any whole number for a
 * numeric setting ("cores=1K", "stack_per_lane=1000", "shared_per_core=
 * 300M"), so a typo in WARPSCOPE_CONFIG or --config surfaced later, at
 * validate or device open, with the value as a number ("shared_per_core=
 * 314572800") or blamed on a setting the user never gave ("cores=256"
 * read "stack_per_lane=8192: 65536 lanes ..."), or not at all for a
 * program that parses and opens (ws_device_open has no message to give).
 * Now: what the parser accepts, validate accepts; what it refuses, it
 * refuses naming the setting as written, and validate refuses too.
 * The settings walked are those docs/device.md's table lists, and the
 * test fails when the two lists differ.
 * usage: test_config_keys docs/device.md */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "warpscope/warpscope.h"
#include "../test.h"

static const struct key { const char *name; size_t off; int is64; } keys[] = {
    { "cores", offsetof(ws_config, cores), 0 },
    { "warps_per_core", offsetof(ws_config, warps_per_core), 0 },
    { "lanes_per_warp", offsetof(ws_config, lanes_per_warp), 0 },
    { "shared_per_core", offsetof(ws_config, shared_per_core), 0 },
    { "max_shared_per_block", offsetof(ws_config, max_shared_per_block), 0 },
    { "stack_per_lane", offsetof(ws_config, stack_per_lane), 0 },
    { "global_mem_limit", offsetof(ws_config, global_mem_limit), 1 },
    { "max_threads_per_block", offsetof(ws_config, max_threads_per_block), 0 },
    { "warp_quantum", offsetof(ws_config, warp_quantum), 0 },
    { "threads", offsetof(ws_config, threads), 0 },
    { "watchdog_ms", offsetof(ws_config, watchdog_ms), 0 },
};
#define NKEYS (sizeof keys / sizeof *keys)
/* the settings that take words or a path */
static const char *const other_keys[] = { "mode", "timing", "engine" };

/* values as a user might write them, and their numbers */
static const struct value { const char *text; uint64_t n; } values[] = {
    { "0", 0 }, { "1", 1 }, { "2", 2 }, { "3", 3 }, { "16", 16 }, { "32", 32 }, { "33", 33 }, { "64", 64 },
    { "65", 65 }, { "128", 128 }, { "255", 255 }, { "256", 256 }, { "257", 257 }, { "1000", 1000 },
    { "1K", 1024 }, { "0x800", 2048 }, { "2049", 2049 }, { "4KiB", 4096 }, { "32K", 32768 }, { "48K", 49152 },
    { "64K", 65536 }, { "100K", 102400 }, { "1M", 1 << 20 }, { "0x101000", 0x101000 }, { "0x100800", 0x100800 },
    { "16M", 16 << 20 }, { "256M", 256u << 20 }, { "257M", 257u << 20 }, { "512M", 512u << 20 },
    { "3040M", 3040ull << 20 }, { "3041M", 3041ull << 20 }, { "4G", 4ull << 30 }, { "0xffffffff", 0xffffffffull },
    { "0x100000000", 0x100000000ull }, { "16G", 16ull << 30 },
};
#define NVALUES (sizeof values / sizeof *values)

static void set(ws_config *c, const struct key *k, uint64_t n)
{
    if (k->is64) memcpy((char *)c + k->off, &n, 8);
    else { uint32_t v = (uint32_t)n; memcpy((char *)c + k->off, &v, 4); }
}

static size_t key_index(const char *name)
{
    for (size_t i = 0; i < NKEYS; i++) if (!strcmp(keys[i].name, name)) return i;
    return NKEYS;
}

/* The documented rule: a text that shrinks the core and does not set
 * max_threads_per_block lowers it to what the core holds. */
static void lower_block(ws_config *c, int shape_given, int block_given)
{
    uint32_t holds = c->warps_per_core * c->lanes_per_warp;
    if (shape_given && !block_given && c->max_threads_per_block > holds) c->max_threads_per_block = holds;
}

static int failures;

/* Parse `text` (settings a = va, and b = vb if b < NKEYS) on the defaults
 * and compare with validating the same values set in the struct. */
static void agree(size_t a, size_t va, size_t b, size_t vb)
{
    char text[128], perr[512] = "", verr[512] = "";
    ws_config parsed, direct;
    ws_config_default(&parsed);
    ws_config_default(&direct);
    if (b < NKEYS) snprintf(text, sizeof text, "%s=%s,%s=%s", keys[a].name, values[va].text, keys[b].name, values[vb].text);
    else snprintf(text, sizeof text, "%s=%s", keys[a].name, values[va].text);
    ws_status ps = ws_config_parse(&parsed, text, perr, sizeof perr);
    int representable = keys[a].is64 || values[va].n <= UINT32_MAX;
    if (b < NKEYS) representable &= keys[b].is64 || values[vb].n <= UINT32_MAX;
    set(&direct, &keys[a], values[va].n);
    if (b < NKEYS) set(&direct, &keys[b], values[vb].n);
    int shape = !strcmp(keys[a].name, "warps_per_core") || !strcmp(keys[a].name, "lanes_per_warp") ||
                (b < NKEYS && (!strcmp(keys[b].name, "warps_per_core") || !strcmp(keys[b].name, "lanes_per_warp")));
    int block = !strcmp(keys[a].name, "max_threads_per_block") ||
                (b < NKEYS && !strcmp(keys[b].name, "max_threads_per_block"));
    lower_block(&direct, shape, block);
    ws_status vs = representable ? ws_config_validate(&direct, verr, sizeof verr) : WS_ERR_INVALID_ARG;
    int bad = 0;
    if (ps == WS_OK) {
        /* accepted: validate accepts the same configuration */
        char again[512] = "";
        if (ws_config_validate(&parsed, again, sizeof again) != WS_OK || vs != WS_OK ||
            memcmp(&parsed, &direct, sizeof parsed)) {
            fprintf(stderr, "'%s': parse accepts it, validate says: %s\n", text, *again ? again : verr);
            bad = 1;
        }
    } else {
        /* refused: naming a setting the text gave, as written; and validate refuses it too */
        char a_as[96], b_as[96] = "";
        snprintf(a_as, sizeof a_as, "%s=%s", keys[a].name, values[va].text);
        if (b < NKEYS) snprintf(b_as, sizeof b_as, "%s=%s", keys[b].name, values[vb].text);
        if (ps != WS_ERR_INVALID_ARG || (!strstr(perr, a_as) && (!*b_as || !strstr(perr, b_as)))) {
            fprintf(stderr, "'%s': refused with %s and a message that names neither setting as written: %s\n", text,
                    ws_status_name(ps), perr);
            bad = 1;
        }
        if (vs == WS_OK) {
            fprintf(stderr, "'%s': parse refuses it (%s), validate accepts it\n", text, perr);
            bad = 1;
        }
    }
    if (bad && ++failures > 20) return;
    CHECK(!bad);
}

static int check_documented(const char *doc)
{
    FILE *f = fopen(doc, "r");
    char line[1024];
    int in_table = 0, documented = 0;
    size_t seen[NKEYS] = { 0 };
    if (!f) { fprintf(stderr, "cannot open %s\n", doc); return -1; }
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "## ", 3)) in_table = !strncmp(line, "## Configuration", 16);
        char name[64];
        if (!in_table || sscanf(line, "| `%63[a-z_]` |", name) != 1) continue;
        documented++;
        size_t i = key_index(name);
        int other = 0;
        for (size_t j = 0; j < sizeof other_keys / sizeof *other_keys; j++) other |= !strcmp(other_keys[j], name);
        if (i < NKEYS) seen[i]++;
        else if (!other) { fprintf(stderr, "%s documents '%s', which this test does not walk\n", doc, name); CHECK(0); }
        /* and the parser knows it */
        char text[96], err[256];
        ws_config c;
        ws_config_default(&c);
        snprintf(text, sizeof text, "%s=%s", name, !strcmp(name, "mode") ? "timing" : !strcmp(name, "engine") ? "interp"
                 : !strcmp(name, "timing") ? "" : "1");
        CHECK(ws_config_parse(&c, text, err, sizeof err) == WS_OK || !strstr(err, "unknown setting"));
    }
    fclose(f);
    for (size_t i = 0; i < NKEYS; i++)
        if (seen[i] != 1) { fprintf(stderr, "%s: setting '%s' is not in the table\n", doc, keys[i].name); CHECK(0); }
    CHECK(documented == (int)(NKEYS + sizeof other_keys / sizeof *other_keys));
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    CHECK(check_documented(argv[1]) == 0);
    for (size_t a = 0; a < NKEYS; a++)
        for (size_t va = 0; va < NVALUES; va++) agree(a, va, NKEYS, 0);
    for (size_t a = 0; a < NKEYS; a++)
        for (size_t b = 0; b < NKEYS; b++)
            if (a != b)
                for (size_t va = 0; va < NVALUES; va++)
                    for (size_t vb = 0; vb < NVALUES; vb++) agree(a, va, b, vb);

    /* A few the user will meet, with their messages. */
    static const struct { const char *text, *msg; } cases[] = {
        { "cores=1K", "cores=1K: must be 1..256" },
        { "stack_per_lane=1000", "stack_per_lane=1000: must be a power of two >= 1024" },
        { "shared_per_core=300M", "shared_per_core=300M: must be at most 256 MiB" },
        { "cores=256", "cores=256: 65536 lanes (cores=256 x warps_per_core=8 x lanes_per_warp=32) of "
                       "stack_per_lane=8192 exceed the 256 MiB stack window" },
        { "shared_per_core=32K", "max_shared_per_block=49152: must not exceed shared_per_core=32K" },
        { "global_mem_limit=4G", "global_mem_limit=4G: must be a multiple of 4096" },
        { "watchdog_ms=5G", "watchdog_ms=5G: too large" },
        { "threads=0x200", "threads=0x200: must be 0 (one per host core) to 256" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ws_config c;
        char err[256] = "";
        ws_config_default(&c);
        CHECK(ws_config_parse(&c, cases[i].text, err, sizeof err) == WS_ERR_INVALID_ARG);
        CHECK_STR_CONTAINS(err, cases[i].msg);
    }
    /* A value that is no whole number at all ("-1", a word) is refused
     * with the setting's own range, as one out of range is: until
     * 2026-11-29 "threads=-1" said "not a whole number from 0 to 2^64-1"
     * while "threads=300" said "0 (one per host core) to 256". */
    static const struct { const char *key, *range; } ranges[] = {
        { "cores", "must be 1..256" },
        { "warps_per_core", "must be 1..64" },
        { "lanes_per_warp", "must be 1..32" },
        { "shared_per_core", "must be at most 256 MiB" },
        { "max_shared_per_block", "must be at most shared_per_core" },
        { "stack_per_lane", "must be a power of two >= 1024 and at most 256 MiB" },
        { "global_mem_limit", "must be a multiple of 4096 between 1 MiB and 3040 MiB" },
        { "max_threads_per_block", "must be 1..warps_per_core*lanes_per_warp" },
        { "warp_quantum", "must be at least 1 and at most 4294967295" },
        { "threads", "must be 0 (one per host core) to 256" },
        { "watchdog_ms", "must be 0 (off) to 4294967295" },
    };
    CHECK(sizeof ranges / sizeof *ranges == NKEYS);
    for (size_t i = 0; i < sizeof ranges / sizeof *ranges; i++)
        for (int neg = 0; neg < 2; neg++) {
            ws_config c;
            char text[64], err[256] = "", want[160];
            ws_config_default(&c);
            snprintf(text, sizeof text, "%s=%s", ranges[i].key, neg ? "-1" : "abc");
            snprintf(want, sizeof want, "%s: %s", text, ranges[i].range);
            CHECK(ws_config_parse(&c, text, err, sizeof err) == WS_ERR_INVALID_ARG);
            CHECK_STR_CONTAINS(err, want);
            CHECK(!strstr(err, "2^64"));
        }
    /* Settings mended together are fine in either order. */
    ws_config c;
    char err[256] = "";
    ws_config_default(&c);
    CHECK(ws_config_parse(&c, "shared_per_core=32K max_shared_per_block=32K", err, sizeof err) == WS_OK);
    CHECK(ws_config_parse(&c, "cores=256 stack_per_lane=1K", err, sizeof err) == WS_OK);
    ws_config_default(&c);
    CHECK(ws_config_parse(&c, "stack_per_lane=1K cores=256", err, sizeof err) == WS_OK);
    CHECK(ws_config_validate(&c, err, sizeof err) == WS_OK);
    return TEST_SUMMARY();
}
