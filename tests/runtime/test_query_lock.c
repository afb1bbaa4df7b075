/* The module and kernel queries (ws_module_base, ws_kernel_param,
 * ws_kernel_param_type) hold the device's API lock like the other calls
 * (docs/api.md, "Threads"). Until 2026-11-28 they did not: one thread
 * could read a module while another unloaded it, and a refusal wrote the
 * device's error message under another call's feet.
 *
 * The printf handler runs on the synchronising thread with the lock held.
 * From there the test starts a second thread that asks one query, and
 * waits a while: the query must not finish while the lock is held, and
 * must give the right answer once it is released.
 * usage: test_query_lock MODULE.elf */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>
#include "warpscope/warpscope.h"
#include "../test.h"

typedef enum query_kind { Q_MODULE_BASE, Q_KERNEL_PARAM, Q_KERNEL_PARAM_TYPE, Q_COUNT } query_kind;
static const char *const query_names[Q_COUNT] = { "ws_module_base", "ws_kernel_param", "ws_kernel_param_type" };

typedef struct query {
    query_kind kind;
    ws_module *mod;
    ws_kernel *k;
    pthread_t thread;
    int started;
    atomic_int done;
    int done_under_lock;   /* the query returned while the handler held the lock */
    ws_status st;
    ws_addr base;
    const char *pname;
    ws_param_type ptype;
} query;

static void *ask(void *p)
{
    query *q = p;
    const char *type_name;
    if (q->kind == Q_MODULE_BASE) q->st = ws_module_base(q->mod, &q->base, NULL);
    else if (q->kind == Q_KERNEL_PARAM) q->st = ws_kernel_param(q->k, 0, &q->pname, &type_name);
    else q->st = ws_kernel_param_type(q->k, 0, &q->ptype);
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
    CHECK(ws_set_printf_handler(dev, on_printf, &q) == WS_OK);
    ws_arg a[] = { WS_ARG_I32(1) };
    CHECK(ws_launch(dev, q.k, WS_DIM3(1, 1, 1), WS_DIM3(1, 1, 1), 0, a, 1) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_OK);
    CHECK(q.started);
    if (q.started) pthread_join(q.thread, NULL);
    printf("%s: %s while the lock was held\n", query_names[kind], q.done_under_lock ? "returned" : "waited");
    CHECK(!q.done_under_lock);
    CHECK(q.st == WS_OK);
    if (kind == Q_MODULE_BASE) CHECK(q.base == base);
    if (kind == Q_KERNEL_PARAM) CHECK(q.pname && !strcmp(q.pname, "n"));
    if (kind == Q_KERNEL_PARAM_TYPE) CHECK(q.ptype.arg == WS_TYPE_I32 && q.ptype.bits == 32);
    CHECK(ws_device_close(dev) == WS_OK);
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    for (query_kind kind = 0; kind < Q_COUNT; kind++) query_waits(argv[1], kind);
    return TEST_SUMMARY();
}
