/* Errors with several host threads on one device (docs/api.md, "Threads").
 *  - ws_last_error_copy: two threads fail on one device over and over and
 *    copy the message out; every copy is one of the two whole messages
 *    (through ws_last_error's pointer a reader saw them mixed, such as
 *    "ws_mallo0x size is 0": the message is rewritten under it).
 *  - one queue: thread A's fault discards thread B's queued work and is
 *    reported once, to the first call that waits; ws_free that meets
 *    another's failure still frees (until 2026-11-29 it freed nothing).
 *  - the printf handler may call ws_last_error_copy and ws_mem_info (the
 *    latter was refused with WS_ERR_BUSY until 2026-11-29), not ws_malloc.
 * usage: test_thread_errors MODULE.elf */
#include <pthread.h>
#include <stdatomic.h>
#include "warpscope/warpscope.h"
#include "../test.h"

enum { ROUNDS = 20000 };

typedef struct racer {
    ws_device *dev;
    int which;                 /* 0: ws_malloc(0), 1: ws_free(bad) */
    const char *mine, *other;  /* the two whole messages */
    pthread_barrier_t *start;
    long own, others, broken;
    char first_broken[WS_ERROR_MAX];
} racer;

static void *race(void *p)
{
    racer *r = p;
    pthread_barrier_wait(r->start);
    for (int i = 0; i < ROUNDS; i++) {
        ws_addr a;
        ws_status st = r->which ? ws_free(r->dev, 0x01000123u) : ws_malloc(r->dev, 0, &a);
        if (st == WS_OK) { r->broken++; continue; }
        char msg[WS_ERROR_MAX];
        if (ws_last_error_copy(r->dev, msg, sizeof msg) != WS_OK) { r->broken++; continue; }
        if (!strcmp(msg, r->mine)) r->own++;
        else if (!strcmp(msg, r->other)) r->others++;
        else if (!r->broken++) snprintf(r->first_broken, sizeof r->first_broken, "%s", msg);
    }
    return NULL;
}

static void copy_race(void)
{
    ws_device *dev = NULL;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    if (!dev) return;
    /* the two messages, each read on its own first */
    char m0[WS_ERROR_MAX], m1[WS_ERROR_MAX];
    ws_addr a;
    CHECK(ws_malloc(dev, 0, &a) == WS_ERR_INVALID_ARG);
    CHECK(ws_last_error_copy(dev, m0, sizeof m0) == WS_OK);
    CHECK(!strcmp(m0, ws_last_error(dev)));
    CHECK_STR_CONTAINS(m0, "ws_malloc(0): size is 0");
    CHECK(ws_free(dev, 0x01000123u) == WS_ERR_BAD_ADDRESS);
    CHECK(ws_last_error_copy(dev, m1, sizeof m1) == WS_OK);
    CHECK_STR_CONTAINS(m1, "ws_free(0x01000123): not the start of a live allocation");

    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, 2);
    racer r[2] = { { .dev = dev, .which = 0, .mine = m0, .other = m1, .start = &start },
                   { .dev = dev, .which = 1, .mine = m1, .other = m0, .start = &start } };
    pthread_t t[2];
    for (int i = 0; i < 2; i++) CHECK(pthread_create(&t[i], NULL, race, &r[i]) == 0);
    for (int i = 0; i < 2; i++) pthread_join(t[i], NULL);
    pthread_barrier_destroy(&start);
    for (int i = 0; i < 2; i++) {
        printf("thread %d: %ld copies of its own message, %ld of the other's, %ld neither%s%s%s\n", i, r[i].own,
               r[i].others, r[i].broken, r[i].broken ? " (e.g. \"" : "", r[i].first_broken, r[i].broken ? "\")" : "");
        CHECK(r[i].broken == 0);
        CHECK(r[i].own + r[i].others == ROUNDS);
    }

    /* truncation, and the refusals that leave the message alone */
    char small[8];
    CHECK(ws_malloc(dev, 0, &a) == WS_ERR_INVALID_ARG);
    CHECK(ws_last_error_copy(dev, small, sizeof small) == WS_OK);
    CHECK(!strcmp(small, "ws_mall"));
    CHECK(ws_last_error_copy(dev, NULL, 16) == WS_ERR_INVALID_ARG);
    CHECK(ws_last_error_copy(dev, small, 0) == WS_ERR_INVALID_ARG);
    CHECK(!strcmp(ws_last_error(dev), m0));
    CHECK(ws_last_error_copy(NULL, small, sizeof small) == WS_ERR_INVALID_ARG);
    CHECK(!strcmp(small, "no devi"));
    CHECK(ws_device_close(dev) == WS_OK);
}

/* ---- one queue: A's fault, B's work ---- */

typedef struct lost {
    ws_device *dev;
    ws_kernel *fault, *fill;
    ws_addr buf;
    pthread_barrier_t step;
    ws_status a_sync, b_htod, b_launch, b_dtoh;
    int b_seen[32];
} lost;

static void *thread_a(void *p)
{
    lost *L = p;
    ws_arg a[] = { WS_ARG_PTR(0) };
    CHECK(ws_launch(L->dev, L->fault, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, a, 1) == WS_OK); /* 1: queued */
    pthread_barrier_wait(&L->step);
    pthread_barrier_wait(&L->step);
    L->a_sync = ws_synchronize(L->dev); /* 3: runs the queue */
    pthread_barrier_wait(&L->step);
    return NULL;
}

static void *thread_b(void *p)
{
    lost *L = p;
    int ones[32];
    for (int i = 0; i < 32; i++) ones[i] = 1;
    pthread_barrier_wait(&L->step);
    L->b_htod = ws_memcpy_htod(L->dev, L->buf, ones, sizeof ones); /* 2: queued behind A's launch */
    ws_arg a[] = { WS_ARG_PTR(L->buf), WS_ARG_I32(7) };
    L->b_launch = ws_launch(L->dev, L->fill, WS_DIM3(1, 1, 1), WS_DIM3(16, 1, 1), 0, a, 2);
    pthread_barrier_wait(&L->step);
    pthread_barrier_wait(&L->step);
    L->b_dtoh = ws_memcpy_dtoh(L->dev, L->b_seen, L->buf, sizeof L->b_seen); /* 4 */
    return NULL;
}

static void queue_shared(const char *module)
{
    lost L = { 0 };
    ws_module *m;
    CHECK(ws_device_open(NULL, &L.dev) == WS_OK);
    if (!L.dev) return;
    CHECK(ws_module_load_file(L.dev, module, &m) == WS_OK);
    CHECK(ws_kernel_get(m, "fault", &L.fault) == WS_OK && ws_kernel_get(m, "fill", &L.fill) == WS_OK);
    CHECK(ws_malloc(L.dev, 32 * sizeof(int), &L.buf) == WS_OK);
    pthread_barrier_init(&L.step, NULL, 2);
    pthread_t a, b;
    const int made_a = pthread_create(&a, NULL, thread_a, &L) == 0, made_b = made_a && pthread_create(&b, NULL, thread_b, &L) == 0;
    CHECK(made_a && made_b);
    if (!made_a || !made_b) return; /* (a lone thread A would wait at the barrier for B forever) */
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    pthread_barrier_destroy(&L.step);
    /* as docs/api.md says: B's calls were queued (WS_OK), A's wait got the
     * fault, B's work was discarded and B's read says nothing of it */
    CHECK(L.b_htod == WS_OK && L.b_launch == WS_OK);
    CHECK(L.a_sync == WS_ERR_KERNEL_FAULT);
    CHECK(L.b_dtoh == WS_OK);
    CHECK(L.b_seen[0] == 0 && L.b_seen[15] == 0 && L.b_seen[31] == 0);

    /* ws_free meeting another's failure: reports it (once) and frees */
    ws_addr mine;
    uint64_t before, after, limit;
    CHECK(ws_malloc(L.dev, 4096, &mine) == WS_OK);
    CHECK(ws_mem_info(L.dev, &before, &limit) == WS_OK);
    ws_arg fa[] = { WS_ARG_PTR(0) };
    CHECK(ws_launch(L.dev, L.fault, WS_DIM3(1, 1, 1), WS_DIM3(32, 1, 1), 0, fa, 1) == WS_OK); /* "another thread's" */
    CHECK(ws_free(L.dev, mine) == WS_ERR_KERNEL_FAULT);
    CHECK_STR_CONTAINS(ws_last_error(L.dev), "null pointer");
    CHECK(ws_mem_info(L.dev, &after, &limit) == WS_OK);
    CHECK_EQ_U(after, before - 4096); /* freed all the same */
    CHECK(ws_free(L.dev, mine) == WS_ERR_BAD_ADDRESS);
    CHECK_STR_CONTAINS(ws_last_error(L.dev), "double free");
    CHECK(ws_synchronize(L.dev) == WS_OK); /* reported once */
    CHECK(ws_device_close(L.dev) == WS_OK);
}

/* ---- what the printf handler may call ---- */

typedef struct seen { ws_device *dev; int lines; ws_status copy, mem, stats, malloc_st; char msg[64]; } seen;

static void handler(void *user, uint64_t launch, ws_dim3 block, ws_dim3 thread, const char *text, size_t len)
{
    (void)launch; (void)block; (void)thread; (void)text; (void)len;
    seen *s = user;
    if (s->lines++) return;
    uint64_t used, limit;
    ws_launch_stats st;
    ws_addr a;
    s->copy = ws_last_error_copy(s->dev, s->msg, sizeof s->msg);
    s->mem = ws_mem_info(s->dev, &used, &limit);
    s->stats = ws_last_launch_stats(s->dev, &st);
    s->malloc_st = ws_malloc(s->dev, 64, &a);
}

static void handler_calls(const char *module)
{
    ws_device *dev = NULL;
    ws_module *m;
    ws_kernel *k = NULL;
    CHECK(ws_device_open(NULL, &dev) == WS_OK);
    if (!dev) return;
    CHECK(ws_module_load_file(dev, module, &m) == WS_OK && ws_kernel_get(m, "say", &k) == WS_OK);
    seen s = { .dev = dev };
    CHECK(ws_set_printf_handler(dev, handler, &s) == WS_OK);
    ws_arg a[] = { WS_ARG_I32(3) };
    CHECK(ws_launch(dev, k, WS_DIM3(2, 1, 1), WS_DIM3(32, 1, 1), 0, a, 1) == WS_OK);
    CHECK(ws_synchronize(dev) == WS_OK);
    CHECK(s.lines == 2);
    CHECK(s.copy == WS_OK);
    CHECK(s.mem == WS_OK);
    CHECK(s.stats == WS_ERR_NOT_FOUND); /* no launch has finished yet: an answer, not a refusal */
    CHECK(s.malloc_st == WS_ERR_BUSY);
    CHECK_STR_CONTAINS(ws_last_error(dev), "ws_malloc: called from the device printf handler");
    CHECK(ws_device_close(dev) == WS_OK);
}

int main(int argc, char **argv)
{
    if (argc != 2) return 2;
    copy_race();
    queue_shared(argv[1]);
    handler_calls(argv[1]);
    return TEST_SUMMARY();
}
