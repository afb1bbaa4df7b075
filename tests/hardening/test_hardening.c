/* The runtime API under misuse (issue 8, items 1-4 and 6): every case gets
 * a clear error and leaves the device usable, never a crash. */
#include <string.h>
#include "warpscope/warpscope.h"
#include "warpscope/trace.h"
#include "warpscope/events.h"
#include "warpscope/capture.h"
#include "../test.h"

static const char *mod_a, *mod_b;

static ws_device *open_dev(void)
{
    ws_device *d = NULL;
    CHECK(ws_device_open(NULL, &d) == WS_OK);
    return d;
}

static ws_status launch_add1(ws_device *d, ws_kernel *k, ws_addr buf, int n)
{
    ws_arg a[2] = { WS_ARG_PTR(buf), WS_ARG_I32(n) };
    return ws_launch(d, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, a, 2);
}

/* Item 1: a fault must not vanish when a module is unloaded. */
static void fault_survives_unload(void)
{
    ws_device *d = open_dev();
    ws_module *m = NULL;
    ws_kernel *k = NULL;
    ws_addr buf = 0;
    CHECK(ws_module_load_file(d, mod_a, &m) == WS_OK);
    CHECK(ws_kernel_get(m, "fault_null", &k) == WS_OK);
    CHECK(ws_malloc(d, 256, &buf) == WS_OK);
    ws_arg a[1] = { WS_ARG_PTR(buf) };
    CHECK(ws_launch(d, k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, a, 1) == WS_OK);
    CHECK(ws_module_unload(d, m) == WS_ERR_KERNEL_FAULT);
    CHECK_STR_CONTAINS(ws_last_error(d), "fault_null");
    CHECK_STR_CONTAINS(ws_last_error(d), "thread (3,0,0)");
    CHECK(ws_module_unload(d, m) == WS_OK); /* the queue is empty now */
    CHECK(ws_synchronize(d) == WS_OK);
    ws_device_close(d);
}

/* Items 2 and 3: foreign and stale kernel handles are rejected by name. */
static void foreign_and_stale_handles(void)
{
    ws_device *d1 = open_dev(), *d2 = open_dev();
    ws_module *m1 = NULL, *m2 = NULL, *m3 = NULL;
    ws_kernel *k1 = NULL, *k2 = NULL;
    ws_addr buf = 0;
    int host[32] = { 0 };
    CHECK(ws_module_load_file(d1, mod_a, &m1) == WS_OK);
    CHECK(ws_module_load_file(d2, mod_b, &m2) == WS_OK);
    CHECK(ws_kernel_get(m1, "add1", &k1) == WS_OK);
    CHECK(ws_kernel_get(m2, "add1", &k2) == WS_OK);
    CHECK(ws_malloc(d2, sizeof host, &buf) == WS_OK);
    CHECK(ws_memcpy_htod(d2, buf, host, sizeof host) == WS_OK);
    /* k1 lives on d1: launching it on d2 must not run d2's other module */
    CHECK(launch_add1(d2, k1, buf, 32) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(d2), "another device");
    CHECK(ws_synchronize(d2) == WS_OK);
    CHECK(ws_memcpy_dtoh(d2, host, buf, sizeof host) == WS_OK);
    CHECK(host[0] == 0 && host[31] == 0);
    /* a module handle of d2 given to d1 */
    CHECK(ws_module_unload(d1, m2) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(d1), "another device");

    /* stale: unload d1's module, then use its kernel and module handles */
    CHECK(ws_module_unload(d1, m1) == WS_OK);
    CHECK(ws_module_load_file(d1, mod_b, &m3) == WS_OK); /* may reuse the same base */
    ws_addr b1 = 0;
    CHECK(ws_malloc(d1, 128, &b1) == WS_OK);
    CHECK(launch_add1(d1, k1, b1, 32) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(d1), "was unloaded");
    ws_kernel *kx = NULL;
    CHECK(ws_kernel_get(m1, "add1", &kx) == WS_ERR_INVALID_ARG && kx == NULL);
    CHECK_STR_CONTAINS(ws_last_error(d1), "was unloaded");
    CHECK(ws_module_unload(d1, m1) == WS_ERR_INVALID_ARG);
    ws_addr base = 0;
    CHECK(ws_module_base(m1, &base, NULL) == WS_ERR_INVALID_ARG);
    CHECK(ws_synchronize(d1) == WS_OK);
    ws_device_close(d1);
    ws_device_close(d2);
}

/* Item 4: calls back into the library from the printf handler. */
typedef struct reentry {
    ws_device *dev;
    ws_kernel *k;
    ws_module *m;
    ws_addr buf;
    int lines;
    ws_status launch_st, free_st, unload_st, sync_st, trace_st;
    char msg[256];
} reentry;

static void reenter(void *user, uint64_t launch, ws_dim3 block, ws_dim3 thread, const char *text, size_t len)
{
    (void)launch; (void)block; (void)thread; (void)text; (void)len;
    reentry *r = user;
    if (r->lines++) return;
    ws_arg a[1] = { WS_ARG_I32(1) };
    r->launch_st = ws_launch(r->dev, r->k, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, a, 1);
    snprintf(r->msg, sizeof r->msg, "%s", ws_last_error(r->dev));
    r->free_st = ws_free(r->dev, r->buf);
    r->unload_st = ws_module_unload(r->dev, r->m);
    r->sync_st = ws_synchronize(r->dev);
    r->trace_st = ws_trace_tool_attach(r->dev, NULL, NULL); /* (refused before its arguments are looked at) */
}

static void printf_handler_reentry(void)
{
    reentry r = { 0 };
    r.dev = open_dev();
    CHECK(ws_module_load_file(r.dev, mod_a, &r.m) == WS_OK);
    CHECK(ws_kernel_get(r.m, "say", &r.k) == WS_OK);
    CHECK(ws_malloc(r.dev, 64, &r.buf) == WS_OK);
    CHECK(ws_set_printf_handler(r.dev, reenter, &r) == WS_OK);
    ws_arg a[1] = { WS_ARG_I32(5) };
    CHECK(ws_launch(r.dev, r.k, WS_DIM3(4, 1, 1), WS_DIM3(32, 1, 1), 0, a, 1) == WS_OK);
    CHECK(ws_synchronize(r.dev) == WS_OK);
    CHECK(r.lines == 4);
    CHECK(r.launch_st == WS_ERR_BUSY && r.free_st == WS_ERR_BUSY);
    CHECK(r.unload_st == WS_ERR_BUSY && r.sync_st == WS_ERR_BUSY);
    CHECK_EQ_U(r.trace_st, WS_ERR_BUSY); /* it took no API lock: its error replaced the launch's */
    CHECK_STR_CONTAINS(r.msg, "printf handler");
    /* everything refused did nothing: the buffer and module are still there */
    CHECK(ws_free(r.dev, r.buf) == WS_OK);
    CHECK(ws_set_printf_handler(r.dev, NULL, NULL) == WS_OK);
    CHECK(ws_module_unload(r.dev, r.m) == WS_OK);
    ws_device_close(r.dev);
}

/* Item 6: an invalid-argument return always sets its own message. */
static void invalid_arg_messages(void)
{
    ws_device *d = open_dev();
    ws_addr a = 0;
    a = 0x1234;
    CHECK(ws_malloc(d, 0, &a) == WS_ERR_INVALID_ARG); /* leaves "size is 0" behind */
    /* refused on purpose (docs/api.md, "Zero-byte allocations"), and saying
     * what to do instead (until 2026-11-29 only "ws_malloc: size is 0") */
    CHECK_EQ_U(a, 0);
    CHECK_STR_CONTAINS(ws_last_error(d), "ws_malloc(0): size is 0; an allocation holds at least 1 byte");
    CHECK_STR_CONTAINS(ws_last_error(d), "skip the call when there is nothing to allocate");
    /* ... so a port skips ws_malloc and ws_free for an empty buffer, and its
     * copies of 0 bytes, which touch nothing, take the address 0 */
    CHECK(ws_free(d, 0) == WS_ERR_BAD_ADDRESS);
    CHECK(ws_memcpy_htod(d, 0, &a, 0) == WS_OK);
    CHECK(ws_memcpy_dtoh(d, &a, 0, 0) == WS_OK);
    CHECK(ws_memcpy_dtod(d, 0, 0, 0) == WS_OK);
    CHECK(ws_memset(d, 0, 0, 0) == WS_OK);
    CHECK(ws_memcpy_htod(d, 0x1000, NULL, 4) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(d), "ws_memcpy_htod");
    CHECK(ws_malloc(d, 16, NULL) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(d), "ws_malloc");
    CHECK(ws_module_load_file(d, NULL, &(ws_module *){ NULL }) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(d), "ws_module_load_file");
    CHECK(ws_fence(d, NULL) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(d), "ws_fence");
    CHECK(ws_memcpy_dtoh(d, NULL, 0x1000, 4) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(d), "ws_memcpy_dtoh");
    CHECK(ws_launch(d, NULL, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, NULL, 0) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(d), "ws_launch");
    /* before 2026-11-27 this one left the previous call's message behind */
    CHECK(ws_last_launch_counters(d, NULL) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(ws_last_error(d), "ws_last_launch_counters");
    ws_device_close(d);
    /* a void call given NULL does nothing (before 2026-11-27 it crashed) */
    ws_config_default(NULL);
}

/* The readers that take no device write a NULL argument's name to err, and
 * err itself is optional (before 2026-11-27 they returned
 * WS_ERR_INVALID_ARG without a word, and ws_trace_read without err refused
 * even a good call: a missing file read "invalid argument"). */
static void reader_messages(void)
{
    char err[256];
    ws_trace *t = NULL;
    strcpy(err, "stale");
    CHECK(ws_trace_read(NULL, &t, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "ws_trace_read: path is NULL");
    strcpy(err, "stale");
    CHECK(ws_trace_read_memory("x", 1, "x", NULL, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "out is NULL");
    CHECK(ws_trace_read("/nonexistent/trace.wstrace", &t, NULL, 0) == WS_ERR_NOT_FOUND);
    CHECK(ws_trace_read_memory("x", 1, "x", &t, NULL, 0) == WS_ERR_BAD_MODULE);
    strcpy(err, "stale");
    CHECK(ws_events_decode(NULL, 0, NULL, NULL, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "ws_events_decode: out is NULL");
    ws_event *ev = NULL;
    size_t nev = 0;
    CHECK(ws_events_decode((const uint8_t *)"x", 1, &ev, &nev, NULL, 0) == WS_ERR_BAD_MODULE);
    ws_machine_program prog;
    int print = 0;
    strcpy(err, "stale");
    CHECK(ws_events_parse_machine(NULL, &prog, &print, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "ws_events_parse_machine: text is NULL");
    CHECK(ws_events_parse_machine("wd.dispatch do stop", &prog, &print, NULL, 0) == WS_OK);
    CHECK(ws_events_parse_machine("nonsense do stop", &prog, &print, NULL, 0) == WS_ERR_INVALID_ARG);
    /* numbers are decimal or 0x hex; a leading 0 is not octal (data=010 matched 8) */
    CHECK(ws_events_parse_machine("wd.dispatch data=010 count=09 do stop", &prog, &print, err, sizeof err) == WS_OK);
    CHECK_EQ_U(prog.watch[0].value, 10);
    CHECK_EQ_U(prog.watch[0].repeat, 9);
    CHECK(ws_events_parse_machine("wd.dispatch data=0x10 do stop", &prog, &print, err, sizeof err) == WS_OK);
    CHECK_EQ_U(prog.watch[0].value, 16);
    strcpy(err, "stale");
    CHECK(ws_capture_reader_open("/nonexistent.wscap", NULL, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "out is NULL");
    strcpy(err, "stale");
    CHECK(ws_capture_writer_open("/tmp/x.wscap", NULL, err, sizeof err) == WS_ERR_INVALID_ARG);
    CHECK_STR_CONTAINS(err, "out is NULL");
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: %s hard_kernels.elf other_kernels.elf\n", argv[0]); return 2; }
    mod_a = argv[1];
    mod_b = argv[2];
    fault_survives_unload();
    foreign_and_stale_handles();
    printf_handler_reentry();
    invalid_arg_messages();
    reader_messages();
    return TEST_SUMMARY();
}
