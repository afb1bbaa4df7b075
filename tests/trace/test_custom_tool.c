/* A custom tool through the public API (the NVBit use case): a device
 * function chosen by the tool runs before every load and store; the host
 * callback gets one record per access, thread by thread in program order,
 * and the records agree with the device's own counters and with what the
 * kernel does. The kernel's results are unchanged. */
#include <stdint.h>
#include "instrument/tracer.h"
#include "warpscope/trace.h"
#include "warpscope/warpscope.h"
#include "../test.h"

enum { N = 1000 };

typedef struct seen {
    int calls;
    uint64_t records, loads, stores, device_loads, device_stores;
    int bad_address, bad_check, bad_order, bad_site;
    ws_addr v;
} seen;

static void on_records(void *user, const ws_trace_launch *L, const ws_trace_custom_records *r)
{
    seen *s = user;
    s->calls++;
    s->records += r->n;
    s->device_loads += L->device_loads;
    s->device_stores += L->device_stores;
    for (uint64_t i = 0; i < r->n; i++) {
        uint32_t rec[2];
        memcpy(rec, r->payload + i * r->record_size, sizeof rec);
        uint32_t site = r->site[i], gid = r->gid[i];
        if (site < L->nblocks || site - L->nblocks >= L->nmem_insts) { s->bad_site++; continue; }
        const ws_trace_mem_inst *mi = &L->mem_insts[site - L->nblocks];
        s->loads += mi->kind == WS_TRACE_LOAD;
        s->stores += mi->kind == WS_TRACE_STORE;
        if (rec[0] != s->v + 4 * gid) s->bad_address++;
        if (rec[1] != (site ^ (gid << 16))) s->bad_check++;
        /* each thread: its load, then its store */
        if (i && r->gid[i - 1] == gid && !(L->mem_insts[r->site[i - 1] - L->nblocks].kind == WS_TRACE_LOAD &&
                                          mi->kind == WS_TRACE_STORE))
            s->bad_order++;
    }
}

/* Second tool: after each load (the value) and before each conditional
 * branch (taken or not). */
typedef struct seen2 {
    uint64_t after_loads, branches, taken, bad_value;
    const float *host;
} seen2;

static void on_values(void *user, const ws_trace_launch *L, const ws_trace_custom_records *r)
{
    seen2 *s = user;
    uint32_t nb = L->nblocks, nm = L->nmem_insts;
    for (uint64_t i = 0; i < r->n; i++) {
        uint32_t v;
        memcpy(&v, r->payload + i * r->record_size, 4);
        uint32_t site = r->site[i], gid = r->gid[i];
        if (site >= nb + nm && site < nb + 2 * nm) {
            uint32_t want;
            memcpy(&want, &s->host[gid], 4);
            s->after_loads++;
            s->bad_value += v != want;
        } else if (site >= nb + 2 * nm) {
            s->branches++;
            s->taken += v;
        }
    }
}

/* A device of global_mem_limit `limit` (0: the default) with tool
 * attached (user: its records' argument) and the kernel `twice` of the
 * module `kernels` loaded. */
static ws_kernel *open_traced(ws_device **dev, uint32_t limit, const ws_trace_tool *tool, void *user,
                              const char *kernels)
{
    ws_config cfg;
    ws_config_default(&cfg);
    if (limit) cfg.global_mem_limit = limit;
    ws_module *m = NULL;
    ws_kernel *k = NULL;
    CHECK(ws_device_open(&cfg, dev) == WS_OK);
    CHECK(ws_trace_tool_attach(*dev, tool, user) == WS_OK);
    CHECK(ws_module_load_file(*dev, kernels, &m) == WS_OK);
    CHECK(ws_kernel_get(m, "twice", &k) == WS_OK);
    return k;
}

static void run_values(const char *kernels, const char *tool_module)
{
    ws_device *dev;
    float host[N];
    for (int i = 0; i < N; i++) host[i] = (float)i * 0.25f;
    seen2 s = { 0, 0, 0, 0, host };
    ws_trace_tool tool = { .version = WS_TRACE_TOOL_VERSION, .name = "values",
                           .where = WS_TRACE_AFTER_LOAD | WS_TRACE_BEFORE_BRANCH, .device_module = tool_module,
                           .device_function = "record_address", .record_size = 8, .records = on_values };
    ws_kernel *k = open_traced(&dev, 0, &tool, &s, kernels);
    ws_addr v;
    CHECK(ws_malloc(dev, sizeof host, &v) == WS_OK);
    CHECK(ws_memcpy_htod(dev, v, host, sizeof host) == WS_OK);
    ws_arg args[] = { WS_ARG_PTR(v), WS_ARG_I32(N) };
    CHECK(ws_launch(dev, k, (ws_dim3){ 4, 1, 1 }, (ws_dim3){ 256, 1, 1 }, 0, args, 2) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_OK);
    CHECK_EQ_U(s.after_loads, N);
    CHECK_EQ_U(s.bad_value, 0);
    CHECK_EQ_U(s.branches, 1024);                       /* one `i < n` test per thread */
    CHECK(s.taken == 1024 - N || s.taken == N);         /* 24 threads are past the end */
    CHECK(ws_device_close(dev) == WS_OK);
}

/* Two devices, each with the tool: every launch's `device` in the callback
 * is the number its tool gave (every device's launches said device 0); a
 * version 1 tool, whose struct ends before `device`, still attaches. */
typedef struct device_seen { uint32_t device; int calls; } device_seen;

static void on_device(void *user, const ws_trace_launch *L, const ws_trace_custom_records *r)
{
    (void)r;
    device_seen *s = user;
    s->device = L->device;
    s->calls++;
}

static void launch_twice(ws_device *dev, const char *kernels)
{
    ws_module *m;
    ws_kernel *k;
    ws_addr v;
    CHECK(ws_module_load_file(dev, kernels, &m) == WS_OK);
    CHECK(ws_kernel_get(m, "twice", &k) == WS_OK);
    CHECK(ws_malloc(dev, 64 * sizeof(float), &v) == WS_OK);
    CHECK(ws_memset(dev, v, 0, 64 * sizeof(float)) == WS_OK);
    ws_arg args[] = { WS_ARG_PTR(v), WS_ARG_I32(64) };
    CHECK(ws_launch(dev, k, (ws_dim3){ 1, 1, 1 }, (ws_dim3){ 64, 1, 1 }, 0, args, 2) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_OK);
}

static void run_two_devices(const char *kernels, const char *tool_module)
{
    ws_device *dev[3];
    device_seen seen[3] = { { 99, 0 }, { 99, 0 }, { 99, 0 } };
    for (int d = 0; d < 3; d++) {
        CHECK(ws_device_open(NULL, &dev[d]) == WS_OK);
        ws_trace_tool tool = { .version = WS_TRACE_TOOL_VERSION, .name = "devices", .where = WS_TRACE_BEFORE_STORE,
                               .device_module = tool_module, .device_function = "record_address", .record_size = 8,
                               .records = on_device, .device = (uint32_t)d + 1 };
        if (d == 2) { /* a version 1 tool: as it was built, without the field */
            tool.version = 1;
            tool.device = 0;
        }
        CHECK(ws_trace_tool_attach(dev[d], &tool, &seen[d]) == WS_OK);
    }
    for (int d = 2; d >= 0; d--) launch_twice(dev[d], kernels); /* (devices launch in another order than they open) */
    for (int d = 0; d < 3; d++) {
        CHECK_EQ_U(seen[d].calls, 1);
        CHECK_EQ_U(seen[d].device, d == 2 ? 0 : (unsigned)d + 1);
        CHECK(ws_device_close(dev[d]) == WS_OK);
    }
}

/* Records that do not fit in device memory: the launch is not flagged as
 * faulted (it was, with advice of `warpscope trace`'s --launch and
 * --kernel), the note says what the tool can do, and the launch runs as
 * it is. A custom tool's buffers share the top of the program's
 * global_mem_limit: 1 MiB here, a 256 KiB buffer, 2 MiB of records. */
typedef struct room_seen {
    int calls;
    uint32_t flags;
    uint64_t records;
    char note[1024];
} room_seen;

static void on_room(void *user, const ws_trace_launch *L, const ws_trace_custom_records *r)
{
    room_seen *s = user;
    s->calls++;
    s->flags = L->flags;
    s->records = r->n;
    snprintf(s->note, sizeof s->note, "%s", L->note ? L->note : "(null)");
}

static void run_no_room(const char *kernels, const char *tool_module)
{
    enum { M = 65536 };
    ws_device *dev;
    room_seen s = { 0 };
    ws_trace_tool tool = { .version = WS_TRACE_TOOL_VERSION, .name = "room",
                           .where = WS_TRACE_BEFORE_LOAD | WS_TRACE_BEFORE_STORE, .device_module = tool_module,
                           .device_function = "record_address", .record_size = 8, .records = on_room };
    ws_kernel *k = open_traced(&dev, 1u << 20, &tool, &s, kernels);
    ws_addr v;
    float *host = malloc(M * sizeof *host);
    CHECK(host != NULL);
    if (!host) return;
    for (int i = 0; i < M; i++) host[i] = (float)i;
    CHECK(ws_malloc(dev, M * sizeof *host, &v) == WS_OK);
    CHECK(ws_memcpy_htod(dev, v, host, M * sizeof *host) == WS_OK);
    ws_arg args[] = { WS_ARG_PTR(v), WS_ARG_I32(M) };
    CHECK(ws_launch(dev, k, (ws_dim3){ M / 256, 1, 1 }, (ws_dim3){ 256, 1, 1 }, 0, args, 2) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_OK);
    CHECK_EQ_U(s.calls, 1);
    CHECK_EQ_U(s.flags, WS_TRACE_NO_ROOM); /* not FAULTED, not COMPLETE */
    CHECK_EQ_U(s.records, 0);
    /* 2 records per thread, each 8 bytes of payload in a 16-byte slot, and a
     * slot of each empty buffer */
    CHECK_STR_CONTAINS(s.note, "trace: launch 1 (twice in ");
    CHECK_STR_CONTAINS(s.note, ") needs 2097192 bytes of device memory for its trace buffers, more than the ");
    CHECK_STR_CONTAINS(s.note, " free between the program's memory and the tools'; trace fewer kernels "
                       "(ws_trace_tool.kernel) or fewer points (ws_trace_tool.where, a smaller record_size), or open "
                       "the device with a larger global_mem_limit (ws_config, at most 3040 MiB; the bundled examples "
                       "take WARPSCOPE_CONFIG=global_mem_limit=1024M)");
    CHECK(strstr(s.note, "--launch") == NULL);
    CHECK(strstr(ws_last_error(dev), "trace buffers") == NULL); /* the tracer's, not the program's */
    float *back = malloc(M * sizeof *back);
    int wrong = !back;
    if (back && ws_memcpy_dtoh(dev, back, v, M * sizeof *back) == WS_OK)
        for (int i = 0; i < M; i++) wrong += back[i] != host[i] * 2.0f;
    else
        wrong = 1;
    CHECK_EQ_U(wrong, 0); /* the launch ran as it is */
    free(back);
    free(host);
    CHECK(ws_device_close(dev) == WS_OK);
}

/* A custom tool after `warpscope trace`'s tracer (WARPSCOPE_TOOL beside
 * WARPSCOPE_TRACE): refused, naming the tracer and the tool. */
static void run_after_tracer(const char *tool_module)
{
    ws_device *dev;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_tracer_attach(dev, "tool=bbcount,report=/dev/null") == WS_OK);
    ws_trace_tool tool = { .version = WS_TRACE_TOOL_VERSION, .name = "wsx", .where = WS_TRACE_BEFORE_STORE,
                           .device_module = tool_module, .device_function = "record_address", .record_size = 8,
                           .records = on_device };
    device_seen seen = { 0, 0 };
    CHECK(ws_trace_tool_attach(dev, &tool, &seen) == WS_ERR_BUSY);
    CHECK(!strcmp(ws_last_error(dev), "ws_trace_tool_attach: wsx: a trace tool runs launches itself, and so does "
                                      "tracer, already attached; only one tool may replay launches"));
    CHECK(ws_device_close(dev) == WS_OK);
}

int main(int argc, char **argv)
{
    if (argc != 3) { fprintf(stderr, "usage: test_custom_tool KERNELS.elf TOOL.elf\n"); return 2; }
    ws_device *dev;
    ws_config cfg;
    ws_config_default(&cfg);
    CHECK(ws_device_open(&cfg, &dev) == WS_OK);
    seen s = { 0 };
    ws_trace_tool tool = { .version = WS_TRACE_TOOL_VERSION, .name = "addresses",
                           .where = WS_TRACE_BEFORE_LOAD | WS_TRACE_BEFORE_STORE, .device_module = argv[2],
                           .device_function = "record_address", .record_size = 8, .records = on_records };
    /* refusals first: a function that is not there, a bad record size */
    ws_trace_tool bad = tool;
    bad.device_function = "no_such_function";
    CHECK(ws_trace_tool_attach(dev, &bad, &s) == WS_ERR_BAD_MODULE);
    CHECK_STR_CONTAINS(ws_last_error(dev), "no function 'no_such_function'");
    bad = tool;
    bad.device_function = "reads_gp";
    CHECK(ws_trace_tool_attach(dev, &bad, &s) == WS_ERR_BAD_MODULE);
    CHECK_STR_CONTAINS(ws_last_error(dev), "'reads_gp' uses gp at 0x");
    bad = tool;
    bad.record_size = 6;
    CHECK(ws_trace_tool_attach(dev, &bad, &s) == WS_ERR_INVALID_ARG);
    /* a where with bits no point defines is named as such (it read as a missing field) */
    bad = tool;
    bad.where |= 0x100;
    CHECK(ws_trace_tool_attach(dev, &bad, &s) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "addresses: where = 0x106 has bits no WS_TRACE_* point defines (0x100)");
    CHECK(ws_trace_tool_attach(dev, &tool, &s) == WS_OK);
    /* a second trace tool: refused, each tool named by its name, once (it
     * said "tracer runs launches itself, and so does tracer, already
     * attached", whichever tools they were) */
    bad = tool;
    bad.name = "second";
    CHECK(ws_trace_tool_attach(dev, &bad, &s) == WS_ERR_BUSY);
    CHECK(!strcmp(ws_last_error(dev), "ws_trace_tool_attach: second: a trace tool runs launches itself, and so does "
                                      "addresses, already attached; only one tool may replay launches"));
    /* WARPSCOPE_TRACE's tracer after it: the custom tool is named as its own */
    CHECK(ws_tracer_attach(dev, "tool=bbcount,report=/dev/null") == WS_ERR_BUSY);
    CHECK(!strcmp(ws_last_error(dev), "ws_tool_attach: tracer runs launches itself, and so does addresses, already "
                                      "attached; only one tool may replay launches"));

    ws_module *m;
    ws_kernel *k;
    CHECK(ws_module_load_file(dev, argv[1], &m) == WS_OK);
    CHECK(ws_kernel_get(m, "twice", &k) == WS_OK);
    float host[N];
    for (int i = 0; i < N; i++) host[i] = (float)i + 0.5f;
    CHECK(ws_malloc(dev, sizeof host, &s.v) == WS_OK);
    CHECK(ws_memcpy_htod(dev, s.v, host, sizeof host) == WS_OK);
    ws_arg args[] = { WS_ARG_PTR(s.v), WS_ARG_I32(N) };
    CHECK(ws_launch(dev, k, (ws_dim3){ 4, 1, 1 }, (ws_dim3){ 256, 1, 1 }, 0, args, 2) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_OK);
    float back[N];
    CHECK(ws_memcpy_dtoh(dev, back, s.v, sizeof back) == WS_OK);
    int wrong = 0;
    for (int i = 0; i < N; i++) wrong += back[i] != host[i] * 2.0f;
    CHECK_EQ_U(wrong, 0);
    CHECK_EQ_U(s.calls, 1);
    CHECK_EQ_U(s.records, 2 * N);
    CHECK_EQ_U(s.loads, s.device_loads);
    CHECK_EQ_U(s.stores, s.device_stores);
    CHECK_EQ_U(s.loads, N);
    CHECK_EQ_U(s.bad_site, 0);
    CHECK_EQ_U(s.bad_address, 0);
    CHECK_EQ_U(s.bad_check, 0);
    CHECK_EQ_U(s.bad_order, 0);
    CHECK(ws_device_close(dev) == WS_OK);
    run_values(argv[1], argv[2]);
    run_two_devices(argv[1], argv[2]);
    run_no_room(argv[1], argv[2]);
    run_after_tracer(argv[2]);
    return TEST_SUMMARY();
}
