/* Timing parameter files: defaults, every error names file and line, and
 * a parameter change changes cycles. */
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "../test.h"
#include "device/timing.h"
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

/* Parse `text` as a parameter file; 0 and the parameters, or -1 with err. */
static int parse(const char *text, ws_timing_params *p, char *err, size_t len)
{
    ws_timing_params_default(p);
    err[0] = 0;
    return ws_timing_params_parse(p, text, "t.timing", err, len);
}

/* Numbers are read as configuration text reads them: decimal even with a
 * leading zero (strtoul's base 0 took "010" as octal 8), or 0x hex. */
static void test_numbers(void)
{
    ws_timing_params p;
    char err[512];
    CHECK(parse("int_latency = 010\n", &p, err, sizeof err) == 0);
    CHECK_EQ_U(p.latency[WS_UNIT_INT], 10);
    CHECK(parse("global_latency = 0400\nfetch_latency = 08\n", &p, err, sizeof err) == 0); /* "08": not a bad octal */
    CHECK_EQ_U(p.latency[WS_UNIT_LSU], 400);
    CHECK_EQ_U(p.fetch_latency, 8);
    CHECK(parse("int_latency = 0x10\n", &p, err, sizeof err) == 0);
    CHECK_EQ_U(p.latency[WS_UNIT_INT], 16);
    CHECK(parse("int_latency = +8\n", &p, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "t.timing:1: int_latency = +8: expected a whole number");
    CHECK(parse("int_latency = 0x\n", &p, err, sizeof err) == -1);
    CHECK(parse("int_latency = 0x-5\n", &p, err, sizeof err) == -1);
    CHECK(parse("int_latency = 0x 5\n", &p, err, sizeof err) == -1);
    CHECK(parse("lg_queue = 99999999999999999999999\n", &p, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "must be 1..1000000");
}

/* A comment may be as long as it likes (a line of more than 255 bytes was
 * refused as too long even when all but its start was a comment). */
static void test_long_comment(void)
{
    ws_timing_params p;
    char err[512], text[2000];
    snprintf(text, sizeof text, "# %0*d\nint_latency = 7 # %0*d\n", 1000, 0, 300, 0);
    CHECK(parse(text, &p, err, sizeof err) == 0);
    CHECK_EQ_U(p.latency[WS_UNIT_INT], 7);
    snprintf(text, sizeof text, "int_latency = %0*d7\n", 300, 0); /* the setting itself is too long */
    CHECK(parse(text, &p, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "t.timing:1: line too long");
}

/* A key given twice is an error naming both lines (the last one won,
 * silently). */
static void test_duplicates(void)
{
    ws_timing_params p;
    char err[512];
    CHECK(parse("int_latency = 8\n# later\nint_latency = 2\n", &p, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "t.timing:3: int_latency given again (first at line 1)");
    CHECK(parse("scheduler = gto\nscheduler = lrr\n", &p, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "t.timing:2: scheduler given again (first at line 1)");
    /* different keys of one unit are not duplicates */
    CHECK(parse("int_latency = 8\nint_interval = 2\nschedulers = 4\nscheduler = gto\n", &p, err, sizeof err) == 0);
}

/* What is not a regular text file is refused with a reason: a FIFO made
 * ws_config_validate wait forever in fopen for a writer; a directory or a
 * pipe was reported as "cannot read (or larger than 1 MiB)" (a pipe such
 * as a shell's <(...) cannot be read twice, and the file is read at
 * validation and again at open); a NUL byte cut the text short in
 * silence. */
static void test_file_kinds(void)
{
    ws_config cfg;
    char err[512] = "";
    unlink("fifo.timing");
    CHECK(mkfifo("fifo.timing", 0600) == 0);
    alarm(30); /* a hang fails the test (SIGALRM) */
    ws_config_default(&cfg);
    CHECK(ws_config_parse(&cfg, "mode=timing timing=fifo.timing", err, sizeof err) == WS_OK);
    CHECK(ws_config_validate(&cfg, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "timing=fifo.timing: a pipe, not a regular file");
    ws_device *dev = NULL;
    CHECK(ws_device_open(&cfg, &dev) == WS_ERR_INVALID_ARG);
    alarm(0);
    unlink("fifo.timing");

    CHECK(ws_config_parse(&cfg, "timing=.", err, sizeof err) == WS_OK);
    CHECK(ws_config_validate(&cfg, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "timing=.: a directory, not a regular file");

    FILE *f = fopen("nul.timing", "wb");
    if (f) {
        fwrite("int_latency = 8\n\0global_latency = 9\n", 1, 37, f);
        fclose(f);
    }
    CHECK(ws_config_parse(&cfg, "timing=nul.timing", err, sizeof err) == WS_OK);
    CHECK(ws_config_validate(&cfg, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "nul.timing:2: a NUL byte");
}

/* A UTF-8 byte order mark before the first key is skipped (it was read as
 * part of the key: "unknown key 'int_latency'", the mark invisible). */
static void test_bom(void)
{
    ws_timing_params p;
    char err[512];
    CHECK(parse("\xEF\xBB\xBFint_latency = 7\n", &p, err, sizeof err) == 0);
    CHECK_EQ_U(p.latency[WS_UNIT_INT], 7);
    CHECK(parse("int_latency = 7\n\xEF\xBB\xBF" "fp_latency = 3\n", &p, err, sizeof err) == -1); /* only at the start */
}

int main(void)
{
    test_bom();
    test_file_kinds();
    test_numbers();
    test_long_comment();
    test_duplicates();
    expect_error("# comment\nschedulers = 2\nglobal_latencyy = 3\n", "bad.timing:3: unknown key 'global_latencyy'");
    expect_error("int_latency = fast\n", "bad.timing:1: int_latency = fast: expected a whole number");
    expect_error("\n\nint_latency = 0\n", "bad.timing:3: int_latency = 0: must be 1..1000000");
    expect_error("global_latency = 1000001\n", "bad.timing:1: global_latency = 1000001: must be 1..1000000");
    expect_error("schedulers = 99\n", "bad.timing:1: schedulers = 99: must be 1..64");
    expect_error("scheduler = random\n", "bad.timing:1: scheduler = random: expected 'lrr' or 'gto'");
    expect_error("just words\n", "bad.timing:1: 'just words': expected key = value");
    expect_error("shared_interval = 2\n", "unknown key 'shared_interval'");
    expect_error("int_latency = -4\n", "bad.timing:1");
    /* decimal, as in configuration text: 065 is sixty-five (refused), not octal 53 (accepted) */
    expect_error("schedulers = 065\n", "bad.timing:1: schedulers = 065: must be 1..64");

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
    /* a path with spaces, a comma and '#' in double quotes (the text
     * splits at spaces and commas), wholly or partly quoted; \" and \\
     * within quotes; a backslash outside quotes is itself */
    mkdir("dir with space, comma #", 0777);
    write_file("dir with space, comma #/good.timing", "schedulers = 2\n");
    const char *quoted[] = {
        "mode=timing timing=\"dir with space, comma #/good.timing\" cores=3",
        "mode=timing,timing=dir\" with space, comma #\"/good.timing,cores=3",
        "\"mode=timing\" \"timing=dir with space, comma #/good.timing\"\tcores=\"3\"",
    };
    for (size_t i = 0; i < sizeof quoted / sizeof *quoted; i++) {
        ws_config_default(&cfg);
        err[0] = 0;
        CHECK(ws_config_parse(&cfg, quoted[i], err, sizeof err) == WS_OK);
        CHECK_STR_CONTAINS(cfg.timing_file, "dir with space, comma #/good.timing");
        CHECK_EQ_U(strlen(cfg.timing_file), strlen("dir with space, comma #/good.timing"));
        CHECK_EQ_U(cfg.cores, 3);
        CHECK(cfg.mode == WS_MODE_TIMING);
        CHECK(ws_config_validate(&cfg, err, sizeof err) == WS_OK);
        dev = NULL;
        CHECK(ws_device_open(&cfg, &dev) == WS_OK);
        if (dev) ws_device_close(dev);
    }
    ws_config_default(&cfg);
    CHECK(ws_config_parse(&cfg, "timing=\"a \\\"b\\\\c\"", err, sizeof err) == WS_OK);
    CHECK(strcmp(cfg.timing_file, "a \"b\\c") == 0);
    CHECK(ws_config_parse(&cfg, "timing=a\\b", err, sizeof err) == WS_OK);
    CHECK(strcmp(cfg.timing_file, "a\\b") == 0);
    ws_config_default(&cfg);
    CHECK(ws_config_parse(&cfg, "cores=2 timing=\"dir with space/x.timing", err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "timing=\"dir with space/x.timing: a double quote is not closed");
    /* unquoted, the path is cut at its space and the rest is not a setting */
    CHECK(ws_config_parse(&cfg, "timing=dir with space/x.timing", err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "'with': expected key=value");
    /* mode=timing without a file opens with defaults */
    ws_config_default(&cfg);
    CHECK(ws_config_parse(&cfg, "mode=timing", err, sizeof err) == WS_OK);
    CHECK(ws_device_open(&cfg, &dev) == WS_OK);
    if (dev) ws_device_close(dev);
    return TEST_SUMMARY();
}
