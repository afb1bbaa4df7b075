/* The module and kernel queries (ws_module_base, ws_kernel_param,
 * ws_kernel_param_type) hold the device's API lock like the other calls
 * (docs/api.md, "Threads"). Until 2026-11-28 they did not: one thread
 * could read a module while another unloaded it, and a refusal wrote the
 * device's error message under another call's feet. So did the refusals
 * of NULL arguments that came before the lock in ws_malloc,
 * ws_memcpy_htod/dtoh, ws_fence, ws_module_load_data(_at)/load_file and
 * ws_kernel_get; and ws_gfx_last_draw_stats took no lock at all (a
 * reader could mix two draws' numbers, and its refusal wrote the message
 * unlocked).
 *
 * The printf handler runs on the synchronising thread with the lock held.
 * From there the test starts a second thread that asks one query, and
 * waits a while: the query must not finish while the lock is held, and
 * must give the right answer once it is released. Last, calls from other
 * threads while ws_device_close runs are refused (calls_while_closing).
 * usage: test_query_lock MODULE.elf */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include "warpscope/graphics.h"
#include "warpscope/warpscope.h"
#include "runtime/api_lock.h" /* ws_api_callers: to know a thread waits at the lock */
#include "../test.h"

typedef enum query_kind {
    Q_MODULE_BASE, Q_KERNEL_PARAM, Q_KERNEL_PARAM_TYPE,
    /* refusals: each writes the device's error message */
    Q_MALLOC_NULL, Q_HTOD_NULL, Q_DTOH_NULL, Q_FENCE_NULL, Q_LOAD_DATA_NULL, Q_LOAD_AT_ZERO, Q_LOAD_FILE_NULL,
    Q_KERNEL_GET_NULL, Q_GFX_STATS_NULL, Q_COUNT
} query_kind;
static const char *const query_names[Q_COUNT] = {
    "ws_module_base", "ws_kernel_param", "ws_kernel_param_type", "ws_malloc(out NULL)", "ws_memcpy_htod(src NULL)",
    "ws_memcpy_dtoh(dst NULL)", "ws_fence(NULL)", "ws_module_load_data(out NULL)", "ws_module_load_data_at(base 0)",
    "ws_module_load_file(path NULL)", "ws_kernel_get(name NULL)", "ws_gfx_last_draw_stats(out NULL)",
};
/* What each refusal's message says. */
static const char *const refusals[Q_COUNT] = {
    [Q_MALLOC_NULL] = "ws_malloc(16): out is NULL",
    [Q_HTOD_NULL] = "src is NULL",
    [Q_DTOH_NULL] = "dst is NULL",
    [Q_FENCE_NULL] = "ws_fence: fence_id is NULL",
    [Q_LOAD_DATA_NULL] = "ws_module_load_data: out is NULL",
    [Q_LOAD_AT_ZERO] = "ws_module_load_data_at: base is 0",
    [Q_LOAD_FILE_NULL] = "ws_module_load_file: path is NULL",
    [Q_KERNEL_GET_NULL] = "ws_kernel_get: name is NULL",
    [Q_GFX_STATS_NULL] = "ws_gfx_last_draw_stats: out is NULL",
};

typedef struct query {
    query_kind kind;
    ws_device *dev;
    ws_module *mod;
    ws_kernel *k;
    pthread_t thread;
    int started;
    atomic_int done;
    int done_under_lock;   /* the query returned while the handler held the lock */
    ws_status st;
    ws_addr base, addr;
    const char *pname;
    ws_param_type ptype;
    char error[512];
} query;

static ws_status ask_once(query *q)
{
    const char *type_name;
    ws_device *dev = q->dev;
    ws_module *m;
    ws_kernel *k;
    char host[4] = "ELF"; /* never read: the calls are refused first */
    switch (q->kind) {
    case Q_MODULE_BASE: return ws_module_base(q->mod, &q->base, NULL);
    case Q_KERNEL_PARAM: return ws_kernel_param(q->k, 0, &q->pname, &type_name);
    case Q_KERNEL_PARAM_TYPE: return ws_kernel_param_type(q->k, 0, &q->ptype);
    case Q_MALLOC_NULL: return ws_malloc(dev, 16, NULL);
    case Q_HTOD_NULL: return ws_memcpy_htod(dev, q->addr, NULL, 4);
    case Q_DTOH_NULL: return ws_memcpy_dtoh(dev, NULL, q->addr, 4);
    case Q_FENCE_NULL: return ws_fence(dev, NULL);
    case Q_LOAD_DATA_NULL: return ws_module_load_data(dev, host, sizeof host, "x", NULL);
    case Q_LOAD_AT_ZERO: return ws_module_load_data_at(dev, host, sizeof host, "x", 0, &m);
    case Q_LOAD_FILE_NULL: return ws_module_load_file(dev, NULL, &m);
    case Q_KERNEL_GET_NULL: return ws_kernel_get(q->mod, NULL, &k);
    case Q_GFX_STATS_NULL: return ws_gfx_last_draw_stats(dev, NULL);
    default: return WS_ERR_INTERNAL;
    }
}

static void *ask(void *p)
{
    query *q = p;
    q->st = ask_once(q);
    /* read at once, as docs/api.md says: nothing else runs on the device */
    snprintf(q->error, sizeof q->error, "%s", ws_last_error(q->dev));
    atomic_store(&q->done, 1);
    return NULL;
}

/* Inside the launch: start the query and give it 300 ms to (wrongly) finish. */
static void on_printf(void *user, uint64_t launch_id, ws_dim3 block, ws_dim3 thread, const char *text, size_t len)
{
    (void)launch_id, (void)block, (void)thread, (void)text, (void)len;
    query *q = user;
    if (q->started) return;
    q->started = pthread_create(&q->thread, NULL, ask, q) == 0;
    for (int i = 0; i < 300 && !atomic_load(&q->done); i++) nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
    q->done_under_lock = atomic_load(&q->done);
}

static void query_waits(const char *module, query_kind kind)
{
    ws_device *dev;
    query q = { .kind = kind };
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    if (ws_module_load_file(dev, module, &q.mod) != WS_OK || ws_kernel_get(q.mod, "say", &q.k) != WS_OK) {
        CHECK(0);
        ws_device_close(dev);
        return;
    }
    ws_addr base = 0;
    CHECK(ws_module_base(q.mod, &base, NULL) == WS_OK && base);
    q.dev = dev;
    q.addr = base; /* any device address: the copies are refused before they look */
    CHECK(ws_set_printf_handler(dev, on_printf, &q) == WS_OK);
    ws_arg a[] = { WS_ARG_I32(1) };
    CHECK(ws_launch(dev, q.k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, a, 1) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_OK);
    CHECK(q.started);
    if (q.started) pthread_join(q.thread, NULL);
    printf("%s: %s while the lock was held\n", query_names[kind], q.done_under_lock ? "returned" : "waited");
    CHECK(!q.done_under_lock);
    if (refusals[kind]) {
        CHECK_EQ_U(q.st, WS_ERR_INVALID_ARG);
        CHECK_STR_CONTAINS(q.error, refusals[kind]);
        CHECK(ws_device_close(dev) == WS_OK);
        return;
    }
    CHECK(q.st == WS_OK);
    if (kind == Q_MODULE_BASE) CHECK(q.base == base);
    if (kind == Q_KERNEL_PARAM) CHECK(q.pname && !strcmp(q.pname, "n"));
    if (kind == Q_KERNEL_PARAM_TYPE) CHECK(q.ptype.arg == WS_TYPE_I32 && q.ptype.bits == 32);
    CHECK(ws_device_close(dev) == WS_OK);
}

/* Calls that start while ws_device_close runs on another thread.
 * ws_device_close runs the queued launch first, under the lock; its
 * printf handler (on the closing thread) starts two threads that call
 * ws_memcpy_dtoh and ws_last_launch_stats, and returns once both wait
 * for the lock (ws_api_callers, the library's count of calls inside or
 * waiting at the lock, is then 3: close and the two). Both calls must be
 * refused and close must wait for them to leave before it frees the
 * device. Until 2026-11-29 they got the lock as close's locked part
 * ended and ran on while close destroyed the lock and freed the device
 * (ASan: use after free in ws_memcpy_dtoh). */
typedef struct closing_call {
    ws_device *dev;
    ws_addr from;
    int stats;            /* ws_last_launch_stats, else ws_memcpy_dtoh */
    pthread_t thread;
    int started;
    ws_status st;
    char host[64];
} closing_call;

typedef struct close_race {
    closing_call calls[2];
    int handled;
    int both_waited;      /* both calls were waiting at the lock when the handler returned */
} close_race;

static void *call_while_closing(void *p)
{
    closing_call *c = p;
    ws_launch_stats st;
    c->st = c->stats ? ws_last_launch_stats(c->dev, &st) : ws_memcpy_dtoh(c->dev, c->host, c->from, sizeof c->host);
    return NULL; /* (the device is gone, or about to be: nothing more of it is read) */
}

static void on_printf_closing(void *user, uint64_t launch_id, ws_dim3 block, ws_dim3 thread, const char *text,
                              size_t len)
{
    (void)launch_id, (void)block, (void)thread, (void)text, (void)len;
    close_race *r = user;
    if (r->handled++) return;
    ws_device *dev = r->calls[0].dev;
    for (int i = 0; i < 2; i++)
        r->calls[i].started = pthread_create(&r->calls[i].thread, NULL, call_while_closing, &r->calls[i]) == 0;
    const unsigned want = 1 + (unsigned)r->calls[0].started + (unsigned)r->calls[1].started;
    for (int ms = 0; ms < 10000 && ws_api_callers(dev) < want; ms++)
        nanosleep(&(struct timespec){ 0, 1000000 }, NULL);
    r->both_waited = want == 3 && ws_api_callers(dev) == 3;
}

static void calls_while_closing(const char *module)
{
    ws_device *dev;
    ws_module *mod;
    ws_kernel *say;
    ws_addr buf = 0;
    close_race r = { .handled = 0 };
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    if (ws_module_load_file(dev, module, &mod) != WS_OK || ws_kernel_get(mod, "say", &say) != WS_OK ||
        ws_malloc(dev, 64, &buf) != WS_OK) {
        CHECK(0);
        ws_device_close(dev);
        return;
    }
    for (int i = 0; i < 2; i++) {
        r.calls[i].dev = dev;
        r.calls[i].from = buf;
        r.calls[i].stats = i;
        memset(r.calls[i].host, 0x5a, sizeof r.calls[i].host);
    }
    CHECK(ws_set_printf_handler(dev, on_printf_closing, &r) == WS_OK);
    ws_arg a[] = { WS_ARG_I32(2) };
    CHECK(ws_launch(dev, say, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, a, 1) == WS_OK); /* queued: close runs it */
    CHECK(ws_device_close(dev) == WS_OK);
    CHECK_EQ_U(r.handled, 1);
    CHECK(r.both_waited);
    for (int i = 0; i < 2; i++) {
        if (!r.calls[i].started) {
            CHECK(0);
            continue;
        }
        pthread_join(r.calls[i].thread, NULL);
        printf("%s while ws_device_close ran: %s\n", r.calls[i].stats ? "ws_last_launch_stats" : "ws_memcpy_dtoh",
               ws_status_name(r.calls[i].st));
        CHECK_EQ_U(r.calls[i].st, WS_ERR_INVALID_ARG);
    }
    int untouched = 1; /* the refused copy wrote nothing */
    for (size_t i = 0; i < sizeof r.calls[0].host; i++) untouched &= r.calls[0].host[i] == 0x5a;
    CHECK(untouched);
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    for (query_kind kind = 0; kind < Q_COUNT; kind++) query_waits(argv[1], kind);
    calls_while_closing(argv[1]);
    return TEST_SUMMARY();
}
