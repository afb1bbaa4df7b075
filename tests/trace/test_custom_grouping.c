/* A custom tool must not change how the device groups lanes.
 * guard_kernel.c's mask_at_head reads the active mask in a loop that the
 * starvation guard's turns interleave with another lane's long loop: the
 * instrumented run leaves the launch's results only if it groups lanes as
 * the launch does. A device function without branches, called at every
 * point a tool can choose: the results check passes, no note. (The
 * function sat above the code it returns to, so its return was a jump
 * back: one loop turn for the guard per call, and the results differed.)
 * A function that loops or branches may still group lanes otherwise: each
 * launch's note says so. */
#include <stdint.h>
#include "warpscope/trace.h"
#include "warpscope/warpscope.h"
#include "../test.h"

typedef struct seen {
    uint32_t flags;
    uint64_t records;
    char note[512];
} seen;

static void on_records(void *user, const ws_trace_launch *L, const ws_trace_custom_records *r)
{
    seen *s = user;
    s->flags = L->flags;
    s->records = r->n;
    snprintf(s->note, sizeof s->note, "%s", L->note ? L->note : "");
}

static void run(const char *kernels, const char *tool_module, const char *fn, unsigned where, uint32_t trips,
                seen *s)
{
    ws_device *dev;
    memset(s, 0, sizeof *s);
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    ws_trace_tool tool = { .version = WS_TRACE_TOOL_VERSION, .name = fn, .where = where,
                           .device_module = tool_module, .device_function = fn, .record_size = 4,
                           .records = on_records };
    CHECK(ws_trace_tool_attach(dev, &tool, s) == WS_OK);
    ws_module *m;
    ws_kernel *k;
    ws_addr out;
    CHECK(ws_module_load_file(dev, kernels, &m) == WS_OK);
    CHECK(ws_kernel_get(m, "mask_at_head", &k) == WS_OK);
    CHECK(ws_malloc(dev, 32 * 4, &out) == WS_OK);
    ws_arg a[] = { WS_ARG_PTR(out), WS_ARG_U32(trips) };
    CHECK(ws_launch(dev, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, a, 2) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_OK);
    CHECK(ws_device_close(dev) == WS_OK);
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: test_custom_grouping guard_kernel.elf grouping_tool.elf\n"); return 2; }
    const unsigned wheres[] = { WS_TRACE_AT_BLOCK_ENTRY, WS_TRACE_BEFORE_BRANCH,
                                WS_TRACE_BEFORE_LOAD | WS_TRACE_BEFORE_STORE | WS_TRACE_AFTER_LOAD, 63 };
    const uint32_t trips[] = { 300, 1000, 2000 };
    seen s;
    for (unsigned w = 0; w < sizeof wheres / sizeof *wheres; w++)
        for (unsigned t = 0; t < sizeof trips / sizeof *trips; t++) {
            run(argv[1], argv[2], "straight", wheres[w], trips[t], &s);
            if (s.flags != WS_TRACE_COMPLETE || s.note[0])
                fprintf(stderr, "straight, where 0x%x, %u trips: flags 0x%x, note '%s'\n", wheres[w], trips[t], s.flags,
                        s.note);
            CHECK_EQ_U(s.flags, WS_TRACE_COMPLETE); /* no RESULTS_DIFFER */
            CHECK(s.records > 0);
            CHECK(!s.note[0]);
        }
    run(argv[1], argv[2], "loops", WS_TRACE_AT_BLOCK_ENTRY, 300, &s);
    CHECK_STR_CONTAINS(s.note, "the tool's device function loops (a branch back at 0x");
    CHECK_STR_CONTAINS(s.note, "may group them otherwise than the launch");
    run(argv[1], argv[2], "splits", WS_TRACE_AT_BLOCK_ENTRY, 300, &s);
    CHECK_STR_CONTAINS(s.note, "the tool's device function branches (at 0x");
    return TEST_SUMMARY();
}
