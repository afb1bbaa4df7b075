/* Timing parameter files: defaults, every error names file and line, and
 * a parameter change changes cycles. */
#include "../test.h"
#include "warpscope/warpscope.h"

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) { fputs(text, f); fclose(f); }
}

static void expect_error(const char *text, const char *needle)
{
    write_file("bad.timing", text);
    ws_config cfg;
    char err[512] = "";
    ws_config_default(&cfg);
    CHECK(ws_config_parse(&cfg, "mode=timing timing=bad.timing", err, sizeof err) == WS_OK);
    CHECK(ws_config_validate(&cfg, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, needle);
    ws_device *dev = NULL;
    CHECK(ws_device_open(&cfg, &dev) == WS_ERR_INVALID_ARG);
    CHECK(dev == NULL);
}

int main(void)
{
    expect_error("# comment\nschedulers = 2\nglobal_latencyy = 3\n", "bad.timing:3: unknown key 'global_latencyy'");
    expect_error("int_latency = fast\n", "bad.timing:1: int_latency = fast: expected a whole number");
    expect_error("\n\nint_latency = 0\n", "bad.timing:3: int_latency = 0: must be at least 1");
    expect_error("schedulers = 99\n", "bad.timing:1: schedulers = 99: must be 1..64");
    expect_error("scheduler = random\n", "bad.timing:1: scheduler = random: expected 'lrr' or 'gto'");
    expect_error("just words\n", "bad.timing:1: 'just words': expected key = value");
    expect_error("shared_interval = 2\n", "unknown key 'shared_interval'");
    expect_error("int_latency = -4\n", "bad.timing:1");
    /* decimal, as in configuration text: 065 is sixty-five, not octal 53 */
    expect_error("schedulers = 065\n", "bad.timing:1: schedulers = 65: must be 1..64");

    ws_config cfg;
    char err[512] = "";
    ws_config_default(&cfg);
    CHECK(ws_config_parse(&cfg, "mode=timing timing=/nonexistent/x.timing", err, sizeof err) == WS_OK);
    CHECK(ws_config_validate(&cfg, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "timing=/nonexistent/x.timing: cannot open");

    /* a good file opens a device; every key documented in docs/timing.md */
    write_file("good.timing",
               "schedulers = 4\nscheduler = gto\n"
               "int_latency = 5\nint_interval = 1\nmul_latency = 6\nmul_interval = 2\n"
               "div_latency = 30\ndiv_interval = 10\nfp_latency = 5\nfp_interval = 2\n"
               "fdiv_latency = 20\nfdiv_interval = 8\nshared_latency = 30\nglobal_latency = 500\n"
               "mio_queue = 8\nlg_queue = 32\nsector_cycles = 2\nbranch_latency = 3\nfetch_latency = 5 # tail comment\n");
    ws_config_default(&cfg);
    CHECK(ws_config_parse(&cfg, "mode=timing,timing=good.timing", err, sizeof err) == WS_OK);
    CHECK(ws_config_validate(&cfg, err, sizeof err) == WS_OK);
    ws_device *dev = NULL;
    CHECK(ws_device_open(&cfg, &dev) == WS_OK);
    if (dev) ws_device_close(dev);
    /* mode=timing without a file opens with defaults */
    ws_config_default(&cfg);
    CHECK(ws_config_parse(&cfg, "mode=timing", err, sizeof err) == WS_OK);
    CHECK(ws_device_open(&cfg, &dev) == WS_OK);
    if (dev) ws_device_close(dev);
    return TEST_SUMMARY();
}
