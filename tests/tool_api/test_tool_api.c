/* The tool interface (include/warpscope/tool.h): the order tools are
 * called in, a tool that replays launches, the one-replayer rule, version
 * checks, detach, and the API refusing changes from inside a launch. */
#include <string.h>
#include "warpscope/tool.h"
#include "../test.h"

typedef struct recorder {
    char name;
    char *log;                 /* shared event log: "A+ B+ Am Bm Ab Bb Be Ae ..." */
    int replays;               /* run_launch: how many times to run       */
    ws_status busy_st;         /* what ws_malloc said inside the launch   */
} recorder;

static void note(recorder *r, char what)
{
    size_t n = strlen(r->log);
    r->log[n] = r->name;
    r->log[n + 1] = what;
    r->log[n + 2] = ' ';
    r->log[n + 3] = 0;
}

static ws_status on_attach(ws_device *d, void *u) { (void)d; note(u, '+'); return WS_OK; }
static void on_detach(ws_device *d, void *u) { (void)d; note(u, '-'); }
static void on_mod(ws_device *d, void *u, const ws_module *m) { (void)d; (void)m; note(u, 'm'); }
static void on_unmod(ws_device *d, void *u, const ws_module *m) { (void)d; (void)m; note(u, 'u'); }
static void on_begin(ws_device *d, void *u, const ws_tool_launch *l)
{
    recorder *r = u;
    ws_addr a;
    r->busy_st = ws_malloc(d, 16, &a);
    note(r, l->launch_id == 1 && !strcmp(l->kernel, "bump") && l->grid.x == 2 && l->block.x == 32 ? 'b' : '?');
}
static void on_end(ws_device *d, void *u, const ws_tool_launch *l)
{
    (void)d;
    note(u, l->status == WS_OK && l->stats && l->stats->blocks == 2 ? 'e' : '?');
}
static void on_close(ws_device *d, void *u) { (void)d; note(u, 'c'); }
static ws_status on_run(ws_device *d, void *u, const ws_tool_launch *l, ws_tool_runner *run)
{
    (void)d; (void)l;
    recorder *r = u;
    ws_status st = WS_OK;
    for (int i = 0; i < r->replays && st == WS_OK; i++) st = ws_tool_run(run);
    note(r, 'r');
    return st;
}

static const ws_tool observer = { WS_TOOL_API_VERSION, "observer", on_attach, on_detach, on_mod, on_unmod,
                                  on_begin, on_end, NULL, on_close, NULL, NULL };
static const ws_tool replayer = { WS_TOOL_API_VERSION, "replayer", on_attach, on_detach, on_mod, on_unmod,
                                  on_begin, on_end, on_run, on_close, NULL, NULL };
static const ws_tool old_tool = { .version = 0, .name = "old tool" };

/* Callbacks outside a launch may call the API, but not close the device
 * whose tool list is being walked, and a detach during close cannot
 * attach (it crashed with a use-after-free, overflowed the stack, and
 * looped forever). */
typedef struct reentry {
    ws_status close_in_loaded, close_in_close, attach_in_detach;
    int detaches;
} reentry;
static const ws_tool reentrant;
static void re_mod(ws_device *d, void *u, const ws_module *m)
{
    (void)m;
    ((reentry *)u)->close_in_loaded = ws_device_close(d);
}
static void re_close(ws_device *d, void *u) { ((reentry *)u)->close_in_close = ws_device_close(d); }
static void re_detach(ws_device *d, void *u)
{
    reentry *r = u;
    if (r->detaches++ < 3) r->attach_in_detach = ws_tool_attach(d, &reentrant, u);
}
static const ws_tool reentrant = { .version = WS_TOOL_API_VERSION, .name = "reentrant", .detach = re_detach,
                                   .module_loaded = re_mod, .device_close = re_close };

static void test_reentry(const char *elf)
{
    reentry r = { WS_OK, WS_OK, WS_OK, 0 };
    ws_device *dev = NULL;
    ws_module *m = NULL;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    if (!dev) return;
    CHECK(ws_tool_attach(dev, &reentrant, &r) == WS_OK);
    CHECK(ws_module_load_file(dev, elf, &m) == WS_OK); /* the device stays open */
    CHECK(r.close_in_loaded == WS_ERR_BUSY);
    CHECK(ws_device_close(dev) == WS_OK);
    CHECK(r.close_in_close == WS_ERR_BUSY);
    CHECK(r.attach_in_detach == WS_ERR_BUSY);
    CHECK_EQ_U(r.detaches, 1);
}

/* A tool whose callback fails without a message: the error names it (the
 * previous call's message was shown). */
static ws_status mute_attach(ws_device *d, void *u) { (void)d; (void)u; return WS_ERR_UNSUPPORTED; }
static const ws_tool mute = { .version = WS_TOOL_API_VERSION, .name = "mute", .attach = mute_attach };
static void test_silent_failure(void)
{
    ws_device *dev = NULL;
    ws_addr a;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    if (!dev) return;
    CHECK(ws_malloc(dev, 0, &a) != WS_OK); /* leaves a message behind */
    CHECK(ws_tool_attach(dev, &mute, NULL) == WS_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "mute: its attach callback returned WS_ERR_UNSUPPORTED without a message");
    ws_device_close(dev);
}

/* ws_device_close runs work still queued (tools see it; it was dropped
 * without a word) and returns the status a synchronising call would have. */
static void test_close_runs_queue(const char *elf)
{
    for (int faulty = 0; faulty < 2; faulty++) {
        char log[64] = "";
        recorder r = { 'Q', log, 0, WS_OK };
        ws_device *dev = NULL;
        ws_module *m = NULL;
        ws_kernel *k = NULL;
        ws_addr buf = 0;
        CHECK(ws_device_open(NULL, &dev) == WS_OK);
        if (!dev) return;
        CHECK(ws_module_load_file(dev, elf, &m) == WS_OK);
        CHECK(ws_kernel_get(m, "bump", &k) == WS_OK);
        CHECK(ws_malloc(dev, 64 * sizeof(int), &buf) == WS_OK);
        CHECK(ws_tool_attach(dev, &observer, &r) == WS_OK);
        ws_arg args[2] = { WS_ARG_PTR(faulty ? 0x10 : buf), WS_ARG_I32(64) };
        CHECK(ws_launch(dev, k, WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0, args, 2) == WS_OK);
        CHECK(ws_device_close(dev) == (faulty ? WS_ERR_KERNEL_FAULT : WS_OK));
        CHECK_STR_CONTAINS(log, faulty ? "Q+ Qb Q? Qc Q- " : "Q+ Qb Qe Qc Q- ");
    }
}

/* A tool's refused call in launch_end (ws_malloc: WS_ERR_BUSY) must not
 * replace the launch's fault report: the tools called after it and the
 * application still get the fault (both got "ws_malloc: called from a
 * tool's launch callback ..." instead). */
typedef struct fault_seen {
    char error[256], refusal[256];
    ws_status refused;
} fault_seen;
static void meddle_end(ws_device *d, void *u, const ws_tool_launch *l)
{
    ws_addr a;
    (void)l;
    ((fault_seen *)u)->refused = ws_malloc(d, 16, &a);
    snprintf(((fault_seen *)u)->refusal, sizeof ((fault_seen *)u)->refusal, "%s", ws_last_error(d));
}
static void read_end(ws_device *d, void *u, const ws_tool_launch *l)
{
    (void)d;
    snprintf(((fault_seen *)u)->error, sizeof ((fault_seen *)u)->error, "%s", l->error ? l->error : "(none)");
}
static const ws_tool meddler = { .version = WS_TOOL_API_VERSION, .name = "meddler", .launch_end = meddle_end };
static const ws_tool reader = { .version = WS_TOOL_API_VERSION, .name = "reader", .launch_end = read_end };
static void test_fault_report_kept(const char *elf)
{
    fault_seen seen = { "", "", WS_OK };
    ws_device *dev = NULL;
    ws_module *m = NULL;
    ws_kernel *k = NULL;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    if (!dev) return;
    CHECK(ws_tool_attach(dev, &reader, &seen) == WS_OK);
    CHECK(ws_tool_attach(dev, &meddler, &seen) == WS_OK); /* its launch_end runs first */
    CHECK(ws_module_load_file(dev, elf, &m) == WS_OK);
    CHECK(ws_kernel_get(m, "bump", &k) == WS_OK);
    ws_arg args[2] = { WS_ARG_PTR(0x10), WS_ARG_I32(64) };
    CHECK(ws_launch(dev, k, WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0, args, 2) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_ERR_KERNEL_FAULT);
    CHECK(seen.refused == WS_ERR_BUSY);
    /* the refusal names the launch (it said "while launch 0 runs") */
    CHECK_STR_CONTAINS(seen.refusal, "ws_malloc: called from a tool's launch callback while launch 1 runs");
    CHECK_STR_CONTAINS(seen.error, "fault");
    CHECK_STR_CONTAINS(ws_last_error(dev), "fault");
    CHECK(strstr(ws_last_error(dev), "ws_malloc") == NULL);
    ws_device_close(dev);
}

/* Tools that detach one another outside a launch: every tool still
 * attached gets the event once (a tool that detached itself in
 * module_loaded made the next one miss it; one that detached an earlier
 * tool in module_unloading was called twice). */
typedef struct detacher {
    recorder rec;
    const ws_tool *victim_tool;  /* detached from this tool's callback */
    void *victim_user;
} detacher;
static void det_loaded(ws_device *d, void *u, const ws_module *m)
{
    detacher *x = u;
    (void)m;
    note(&x->rec, 'm');
    if (x->victim_tool) ws_tool_detach(d, x->victim_tool, x->victim_user), x->victim_tool = NULL;
}
static void det_unloading(ws_device *d, void *u, const ws_module *m)
{
    detacher *x = u;
    (void)m;
    note(&x->rec, 'u');
    if (x->victim_tool) ws_tool_detach(d, x->victim_tool, x->victim_user), x->victim_tool = NULL;
}
static const ws_tool detaching = { .version = WS_TOOL_API_VERSION, .name = "detaching", .detach = on_detach,
                                   .module_loaded = det_loaded, .module_unloading = det_unloading };
static void test_detach_in_walk(const char *elf)
{
    char log[128] = "";
    detacher p = { { 'P', log, 0, WS_OK }, NULL, NULL }, q = { { 'Q', log, 0, WS_OK }, NULL, NULL },
             r = { { 'R', log, 0, WS_OK }, NULL, NULL };
    ws_device *dev = NULL;
    ws_module *m = NULL;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    if (!dev) return;
    CHECK(ws_tool_attach(dev, &detaching, &p) == WS_OK);
    CHECK(ws_tool_attach(dev, &detaching, &q) == WS_OK);
    CHECK(ws_tool_attach(dev, &detaching, &r) == WS_OK);
    p.victim_tool = &detaching, p.victim_user = &p; /* P leaves in module_loaded */
    CHECK(ws_module_load_file(dev, elf, &m) == WS_OK);
    CHECK_STR_CONTAINS(log, "Pm P- Qm Rm ");
    log[0] = 0;
    r.victim_tool = &detaching, r.victim_user = &q; /* R removes Q, called before it, in module_unloading */
    CHECK(ws_module_unload(dev, m) == WS_OK);
    CHECK(strcmp(log, "Ru Q- ") == 0);
    if (strcmp(log, "Ru Q- ")) printf("unloading log: %s\n", log);
    CHECK(ws_device_close(dev) == WS_OK);
}

/* A tool whose attach callback attaches another tool, when the list had
 * one free slot: the inner attach took it and the outer wrote past the
 * end of the list (heap corruption: glibc aborted). Both are attached,
 * the inner one first (its attach completed first). */
static ws_status nest_attach(ws_device *d, void *u)
{
    recorder *r = u;
    note(r, '+');
    return ws_tool_attach(d, &observer, r + 1);
}
static const ws_tool nesting = { .version = WS_TOOL_API_VERSION, .name = "nesting", .attach = nest_attach,
                                 .detach = on_detach, .module_loaded = on_mod };
static void test_attach_in_attach(const char *elf)
{
    char log[256] = "";
    recorder r[6] = { { '1', log, 0, WS_OK }, { '2', log, 0, WS_OK }, { '3', log, 0, WS_OK },
                      { 'N', log, 0, WS_OK }, { 'I', log, 0, WS_OK }, { '6', log, 0, WS_OK } };
    ws_device *dev = NULL;
    ws_module *m = NULL;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    if (!dev) return;
    for (int i = 0; i < 3; i++) CHECK(ws_tool_attach(dev, &observer, &r[i]) == WS_OK); /* 3 of 4 slots */
    CHECK(ws_tool_attach(dev, &nesting, &r[3]) == WS_OK); /* attaches observer on r[4] from its attach */
    CHECK(ws_tool_attach(dev, &observer, &r[5]) == WS_OK);
    CHECK(ws_module_load_file(dev, elf, &m) == WS_OK);
    CHECK(ws_device_close(dev) == WS_OK);
    CHECK_STR_CONTAINS(log, "1+ 2+ 3+ N+ I+ 6+ 1m 2m 3m Im Nm 6m 6c Ic 3c 2c 1c 6- N- I- 3- 2- 1- ");
    printf("attach-in-attach log: %s\n", log);
}

/* A run_launch hook that returns WS_OK without running the launch: the
 * launch fails and says so (it succeeded, with the buffers untouched). */
static void test_run_skipped(const char *elf)
{
    char log[64] = "";
    recorder z = { 'Z', log, 0, WS_OK }; /* replays: 0 */
    ws_device *dev = NULL;
    ws_module *m = NULL;
    ws_kernel *k = NULL;
    ws_addr buf = 0;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_tool_attach(dev, &replayer, &z) == WS_OK);
    CHECK(ws_module_load_file(dev, elf, &m) == WS_OK);
    CHECK(ws_kernel_get(m, "bump", &k) == WS_OK);
    CHECK(ws_malloc(dev, 64 * sizeof(int), &buf) == WS_OK);
    ws_arg args[2] = { WS_ARG_PTR(buf), WS_ARG_I32(64) };
    ws_status st = ws_launch(dev, k, WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0, args, 2);
    if (st == WS_OK) st = ws_synchronize(dev);
    CHECK(st == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(dev), "replayer: its run_launch callback returned WS_OK without running launch ");
    CHECK_STR_CONTAINS(ws_last_error(dev), "of kernel 'bump' (ws_tool_run): the kernel did not run");
    CHECK(ws_device_close(dev) == WS_OK);
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s tool_kernels.elf\n", argv[0]); return 2; }
    char log[512] = "";
    recorder a = { 'A', log, 0, WS_OK }, b = { 'B', log, 2, WS_OK }, c = { 'C', log, 1, WS_OK };
    ws_device *dev = NULL;
    ws_module *m = NULL;
    ws_kernel *k = NULL;
    ws_addr buf = 0;
    int host[64] = { 0 };
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    CHECK(ws_tool_attach(dev, &old_tool, NULL) == WS_ERR_UNSUPPORTED);
    CHECK_STR_CONTAINS(ws_last_error(dev), "tool API version 0");
    CHECK(ws_tool_attach(dev, &observer, &a) == WS_OK);
    CHECK(ws_tool_attach(dev, &replayer, &b) == WS_OK);
    CHECK(ws_tool_attach(dev, &replayer, &c) == WS_ERR_BUSY); /* one replayer at a time */
    CHECK_STR_CONTAINS(ws_last_error(dev), "only one tool may replay launches");
    CHECK(ws_tool_attach(dev, &observer, &a) == WS_ERR_INVALID_ARG); /* twice */
    CHECK(ws_module_load_file(dev, argv[1], &m) == WS_OK);
    CHECK(ws_kernel_get(m, "bump", &k) == WS_OK);
    CHECK(ws_malloc(dev, sizeof host, &buf) == WS_OK);
    CHECK(ws_memcpy_htod(dev, buf, host, sizeof host) == WS_OK);
    ws_arg args[2] = { WS_ARG_PTR(buf), WS_ARG_I32(64) };
    CHECK(ws_launch(dev, k, WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0, args, 2) == WS_OK);
    CHECK(ws_memcpy_dtoh(dev, host, buf, sizeof host) == WS_OK);
    CHECK_EQ_U(host[0], 2); /* the replayer ran the launch twice */
    CHECK_EQ_U(host[63], 2);
    CHECK(a.busy_st == WS_ERR_BUSY && b.busy_st == WS_ERR_BUSY); /* no API changes inside a launch */
    CHECK(ws_module_unload(dev, m) == WS_OK);
    CHECK(ws_tool_detach(dev, &replayer, &b) == WS_OK);
    CHECK(ws_tool_detach(dev, &replayer, &b) == WS_ERR_NOT_FOUND);
    CHECK(ws_device_close(dev) == WS_OK);
    /* begin events in attach order, end events newest first */
    CHECK_STR_CONTAINS(log, "A+ B+ Am Bm Ab Bb Br Be Ae Bu Au B- Ac A- ");
    printf("event log: %s\n", log);
    test_reentry(argv[1]);
    test_close_runs_queue(argv[1]);
    test_silent_failure();
    test_fault_report_kept(argv[1]);
    test_detach_in_walk(argv[1]);
    test_attach_in_attach(argv[1]);
    test_run_skipped(argv[1]);
    return TEST_SUMMARY();
}
