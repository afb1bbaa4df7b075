/* Fault reports name the whole inline chain down to the kernel's own line,
 * and when the source paths are too long for the message they are
 * shortened (file names only, then inner levels left out), never cut in
 * the middle of a path. usage: test_fault_report MODULE.elf SOURCE.c */
#include <stdio.h>
#include <string.h>
#include "warpscope/warpscope.h"
#include "../test.h"

static const char *src_path;

/* The line of `marker` in the source as the compiler saw it: counted from
 * the last "#line 1" above it. */
static int line_of(const char *marker)
{
    FILE *f = fopen(src_path, "r");
    char text[1024];
    int n = 0, found = 0;
    while (f && !found && fgets(text, sizeof text, f)) {
        n++;
        if (!strncmp(text, "#line 1 ", 8)) n = 0;
        else if (strstr(text, marker)) found = 1;
    }
    if (f) fclose(f);
    if (!found) fprintf(stderr, "marker %s not in %s\n", marker, src_path);
    return found ? n : -1;
}

static int ends_with(const char *s, const char *tail)
{
    size_t a = strlen(s), b = strlen(tail);
    return a >= b && !strcmp(s + a - b, tail);
}

/* Run `name` on one thread with an out-of-bounds index; the report. */
static const char *fault_of(ws_device *dev, ws_module *m, const char *name)
{
    ws_kernel *k;
    ws_addr p = 0;
    static char msg[1100];
    msg[0] = 0;
    if (ws_kernel_get(m, name, &k) != WS_OK || ws_malloc(dev, 16, &p) != WS_OK) return msg;
    ws_arg a[2] = { WS_ARG_PTR(p), WS_ARG_I32(100000) };
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, a, 2) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_ERR_KERNEL_FAULT);
    snprintf(msg, sizeof msg, "%s", ws_last_error(dev));
    ws_free(dev, p);
    return msg;
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: %s MODULE.elf SOURCE.c\n", argv[0]); return 2; }
    src_path = argv[2];
    ws_device *dev;
    ws_module *m;
    char want[1024];
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_module_load_file(dev, argv[1], &m) == WS_OK);

    /* every level of the chain, with its full path */
    const char *msg = fault_of(dev, m, "chain_store");
    snprintf(want, sizeof want, " at %s:%d in short3, inlined at %s:%d in short2, inlined at %s:%d in short1, "
             "inlined at %s:%d in chain_store", src_path, line_of("SHORT3"), src_path, line_of("SHORT2"),
             src_path, line_of("SHORT1"), src_path, line_of("SHORT0"));
    CHECK(ends_with(msg, want));
    if (!ends_with(msg, want)) fprintf(stderr, "  got:  %s\n  want: ...%s\n", msg, want);

    /* four 300-byte paths do not fit: file names only */
    msg = fault_of(dev, m, "deep_store");
    snprintf(want, sizeof want, " at deep_kernel_source.c:%d in level3, inlined at deep_kernel_source.c:%d in level2, "
             "inlined at deep_kernel_source.c:%d in level1, inlined at deep_kernel_source.c:%d in deep_store",
             line_of("LONGDIR3"), line_of("LONGDIR2"), line_of("LONGDIR1"), line_of("LONGDIR0"));
    CHECK(ends_with(msg, want));
    if (!ends_with(msg, want)) fprintf(stderr, "  got:  %s\n  want: ...%s\n", msg, want);

    /* the statistics of a failed launch: no block ran to its end, but the
     * one cut short was placed and its instructions count (warpscope.h) */
    ws_launch_stats ls;
    CHECK(ws_last_launch_stats(dev, &ls) == WS_OK);
    CHECK_EQ_U(ls.blocks, 0);
    CHECK_EQ_U(ls.threads, 0);
    CHECK(ls.thread_instructions > 0);
    uint64_t placed = 0;
    for (uint32_t c = 0; c < ls.cores; c++) placed += ls.core_blocks[c];
    CHECK_EQ_U(placed, 1);

    /* a 210-byte file name four times does not fit either: the faulting
     * line and the kernel's, the levels between left out */
    msg = fault_of(dev, m, "long_name_store");
    CHECK_STR_CONTAINS(msg, "_very_long_end.c:1 in name3, ... (2 more), inlined at a_source_file_whose_own_name");
    snprintf(want, sizeof want, "_very_long_end.c:%d in long_name_store", line_of("LONGNAME0"));
    CHECK(ends_with(msg, want));
    if (!ends_with(msg, want)) fprintf(stderr, "  got:  %s\n  want: ...%s\n", msg, want);

    /* a deadlock says where a lane waits, down to the kernel's line too */
    ws_kernel *k;
    ws_addr out = 0;
    CHECK(ws_kernel_get(m, "deep_deadlock", &k) == WS_OK && ws_malloc(dev, 32 * 4, &out) == WS_OK);
    ws_arg da[1] = { WS_ARG_PTR(out) };
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, da, 1) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_ERR_DEADLOCK);
    snprintf(want, sizeof want, "in wait_here, inlined at deep_kernel_source.c:%d in wait_for, "
             "inlined at deep_kernel_source.c:%d in deep_deadlock, kernel 'deep_deadlock'",
             line_of("LONGDIR_WAIT") + 1, line_of("LONGDIR_DL"));
    CHECK_STR_CONTAINS(ws_last_error(dev), want);

    ws_device_close(dev);
    return TEST_SUMMARY();
}
