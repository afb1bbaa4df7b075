/* The warp view (src/gdbstub/warp_view.c) over a fake lane target of 3
 * warps of 4 lanes: thread list, focus lane, id mapping both ways, the
 * actions a warp's resume becomes, and which lane stops reach gdb. */
#include <stdio.h>
#include <string.h>
#include "gdbstub/warp_view.h"

#define LPW 4
#define NW 3
#define NL (LPW * NW)

typedef struct lanes_fake {
    uint8_t live[NL];
    ws_gdb_action acts[64];
    size_t nacts;
    ws_gdb_stop stops[8];
    size_t nstops, next_stop;
    uint32_t last_reg_tid, last_mem_tid, interrupted;
} lanes_fake;

static ws_status f_threads(void *p, ws_gdb_thread *out, size_t max, size_t *n)
{
    lanes_fake *f = p;
    size_t k = 0;
    for (uint32_t h = 0; h < NL; h++) {
        if (!f->live[h]) continue;
        if (k < max) {
            out[k].tid = h + 2;
            snprintf(out[k].name, sizeof out[k].name, "block (%u,0,0) thread (%u,0,0) core 0 warp %u lane %u",
                     h / LPW, h % LPW, h / LPW, h % LPW);
        }
        k++;
    }
    *n = k;
    return WS_OK;
}

static int f_alive(void *p, uint32_t tid)
{
    lanes_fake *f = p;
    return tid >= 2 && tid - 2 < NL && f->live[tid - 2];
}

static ws_status f_read_reg(void *p, uint32_t tid, uint32_t r, uint32_t *v)
{
    lanes_fake *f = p;
    f->last_reg_tid = tid;
    *v = tid * 100 + r;
    return f_alive(p, tid) ? WS_OK : WS_ERR_NOT_FOUND;
}

static ws_status f_write_reg(void *p, uint32_t tid, uint32_t r, uint32_t v)
{
    (void)r, (void)v;
    ((lanes_fake *)p)->last_reg_tid = tid;
    return WS_OK;
}

static ws_status f_read_mem(void *p, uint32_t tid, uint32_t a, uint8_t *b, size_t n)
{
    (void)a;
    ((lanes_fake *)p)->last_mem_tid = tid;
    memset(b, 0, n);
    return WS_OK;
}

static ws_status f_write_mem(void *p, uint32_t tid, uint32_t a, const uint8_t *b, size_t n)
{
    (void)a, (void)b, (void)n;
    ((lanes_fake *)p)->last_mem_tid = tid;
    return WS_OK;
}

static ws_status f_resume(void *p, const ws_gdb_action *a, size_t n)
{
    lanes_fake *f = p;
    f->nacts = 0;
    for (size_t i = 0; i < n && f->nacts < 64; i++) f->acts[f->nacts++] = a[i];
    return WS_OK;
}

static ws_status f_interrupt(void *p, uint32_t tid)
{
    ((lanes_fake *)p)->interrupted = tid;
    return WS_OK;
}

static ws_status f_wait(void *p, int timeout_ms, ws_gdb_stop *s)
{
    (void)timeout_ms;
    lanes_fake *f = p;
    if (f->next_stop >= f->nstops) return WS_ERR_TIMEOUT;
    *s = f->stops[f->next_stop++];
    return WS_OK;
}

static ws_status f_set_non_stop(void *p, int on)
{
    (void)p, (void)on;
    return WS_OK;
}

static const char *f_error(void *p)
{
    (void)p;
    return "fake";
}

static const ws_gdb_target_ops fake_lane_ops = {
    .threads = f_threads, .read_reg = f_read_reg, .write_reg = f_write_reg, .read_mem = f_read_mem,
    .write_mem = f_write_mem, .resume = f_resume, .interrupt = f_interrupt, .wait = f_wait,
    .error = f_error, .non_stop_capable = 1, .set_non_stop = f_set_non_stop, .thread_alive = f_alive,
};

static int passed, failed;
#define CHECK(c)                                                              \
    do {                                                                      \
        if (c) passed++;                                                      \
        else {                                                                \
            failed++;                                                         \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #c); \
        }                                                                     \
    } while (0)

static void queue_stop(lanes_fake *f, uint32_t lane_tid, int sig, ws_gdb_reason why)
{
    ws_gdb_stop *s = &f->stops[f->nstops++];
    memset(s, 0, sizeof *s);
    s->kind = WS_GDB_STOP_SIGNAL;
    s->tid = lane_tid;
    s->signal = sig;
    s->reason = why;
}

static int has_act(const lanes_fake *f, uint32_t tid, char op)
{
    for (size_t i = 0; i < f->nacts; i++)
        if (f->acts[i].tid == tid && f->acts[i].op == op) return 1;
    return 0;
}

int main(void)
{
    lanes_fake f;
    memset(&f, 0, sizeof f);
    memset(f.live, 1, sizeof f.live);
    f.live[4 + 0] = 0; /* warp 1: lane 0 has exited */
    memset(&f.live[8], 0, LPW); /* warp 2: gone */
    ws_gdb_warp_view v;
    const ws_gdb_target_ops *ops = &ws_gdb_warp_view_ops;
    CHECK(ws_gdb_warp_view_init(&v, &fake_lane_ops, &f, 0, NW) == WS_ERR_INVALID_ARG);
    CHECK(ws_gdb_warp_view_init(&v, &fake_lane_ops, &f, LPW, NW) == WS_OK);

    /* one thread per warp with a live lane, named after its focus lane */
    ws_gdb_thread th[8];
    size_t n = 0;
    CHECK(ops->threads(&v, th, 8, &n) == WS_OK);
    CHECK(n == 2);
    CHECK(th[0].tid == 2 && th[1].tid == 3);
    CHECK(!strcmp(th[0].name, "block (0,0,0) thread (0,0,0) core 0 warp 0 lane 0 (focus; 4 live lanes)"));
    CHECK(!strcmp(th[1].name, "block (1,0,0) thread (1,0,0) core 0 warp 1 lane 1 (focus; 3 live lanes)"));
    CHECK(ops->threads(&v, th, 1, &n) == WS_OK && n == 2); /* the count, whatever fits */
    CHECK(ops->thread_alive(&v, 2) && ops->thread_alive(&v, 3) && !ops->thread_alive(&v, 4));
    CHECK(!ops->thread_alive(&v, 99));

    /* registers and memory are the focus lane's */
    uint32_t val = 0;
    CHECK(ops->read_reg(&v, 3, 7, &val) == WS_OK && val == (2 + 5) * 100 + 7 && f.last_reg_tid == 7);
    CHECK(ops->read_reg(&v, 4, 7, &val) == WS_ERR_NOT_FOUND && strstr(ops->error(&v), "Thread 4"));
    CHECK(ops->read_reg(&v, 3, 7, &val) == WS_OK && !strcmp(ops->error(&v), "fake")); /* no stale message */
    uint8_t buf[4];
    CHECK(ops->read_mem(&v, 2, 0x100, buf, 4) == WS_OK && f.last_mem_tid == 2);
    CHECK(ops->read_mem(&v, 4, 0x100, buf, 4) == WS_OK && f.last_mem_tid == 1); /* gone: no thread's view */

    /* a lane's stop is its warp's, and moves the focus there */
    queue_stop(&f, 2 + 4 + 2, 5, WS_GDB_R_SWBREAK); /* warp 1 lane 2 */
    ws_gdb_stop s;
    CHECK(ops->wait(&v, 0, &s) == WS_OK && s.tid == 3 && s.reason == WS_GDB_R_SWBREAK);
    CHECK(ops->read_reg(&v, 3, 1, &val) == WS_OK && f.last_reg_tid == 8);
    CHECK(ops->threads(&v, th, 8, &n) == WS_OK && strstr(th[1].name, "thread (2,0,0)"));
    CHECK(ops->wait(&v, 0, &s) == WS_ERR_TIMEOUT);

    /* the focus lane exits: the warp's first live lane takes over */
    f.live[6] = 0;
    CHECK(ops->read_reg(&v, 3, 1, &val) == WS_OK && f.last_reg_tid == 7);

    /* all-stop: a step steps the focus lane only (the hardware steps the
     * warp); a continue of a warp continues each live lane of it */
    ws_gdb_action a1[] = { { 3, 's', 0, 0, 0 }, { 0, 'c', 0, 0, 0 } };
    CHECK(ops->resume(&v, a1, 2) == WS_OK);
    CHECK(f.nacts == 2 && has_act(&f, 7, 's') && has_act(&f, 0, 'c'));
    ws_gdb_action a2[] = { { 2, 'c', 0, 0, 0 } };
    CHECK(ops->resume(&v, a2, 1) == WS_OK);
    CHECK(f.nacts == 4 && has_act(&f, 2, 'c') && has_act(&f, 3, 'c') && has_act(&f, 4, 'c') && has_act(&f, 5, 'c'));
    ws_gdb_action a3[] = { { 4, 'c', 0, 0, 0 } };
    CHECK(ops->resume(&v, a3, 1) == WS_ERR_NOT_FOUND);
    CHECK(ops->interrupt(&v, 2) == WS_OK && f.interrupted == 2);
    CHECK(ops->interrupt(&v, 4) == WS_OK && f.interrupted == 2); /* gone: nothing to stop */

    /* non-stop: a step also continues the focus lane's live siblings (the
     * lane target runs a warp once all its lanes are resumed); a warp gdb
     * holds stopped hears no more stops of its other lanes */
    CHECK(ops->set_non_stop(&v, 1) == WS_OK);
    ws_gdb_action a4[] = { { 3, 's', 0, 0, 0 } };
    CHECK(ops->resume(&v, a4, 1) == WS_OK);
    CHECK(f.nacts == 2 && has_act(&f, 7, 's') && has_act(&f, 9, 'c'));
    queue_stop(&f, 2 + 0, 5, WS_GDB_R_SWBREAK); /* warp 0 lane 0 */
    queue_stop(&f, 2 + 1, 0, WS_GDB_R_NONE);     /* its sibling, halted with it */
    queue_stop(&f, 2 + 4 + 3, 0, WS_GDB_R_NONE); /* warp 1, asked to stop */
    CHECK(ops->wait(&v, 0, &s) == WS_OK && s.tid == 2 && s.signal == 5);
    CHECK(ops->wait(&v, 0, &s) == WS_OK && s.tid == 3 && s.signal == 0);
    CHECK(ops->wait(&v, 0, &s) == WS_ERR_TIMEOUT);
    /* resumed, the warp's next stop is news again */
    ws_gdb_action a5[] = { { 2, 'c', 0, 0, 0 } };
    CHECK(ops->resume(&v, a5, 1) == WS_OK);
    queue_stop(&f, 2 + 3, 0, WS_GDB_R_NONE);
    CHECK(ops->wait(&v, 0, &s) == WS_OK && s.tid == 2);

    /* monitor focus: that lane becomes its warp's focus */
    char out[300];
    CHECK(ops->focus(&v, "block (0,0,0) thread (1,0,0) ", out, sizeof out) == WS_OK);
    CHECK(strstr(out, "is lane 1 of target thread 2") && strstr(out, "thread find core 0 warp 0 lane"));
    CHECK(ops->read_reg(&v, 2, 1, &val) == WS_OK && f.last_reg_tid == 3);
    CHECK(ops->focus(&v, "block (7,0,0) thread (1,0,0) ", out, sizeof out) == WS_OK);
    CHECK(!strcmp(out, "no live thread has block (7,0,0) thread (1,0,0)\n"));

    /* the placeholder (no kernel running) passes through */
    memset(f.live, 0, sizeof f.live);
    CHECK(ops->read_mem(&v, 1, 0x100, buf, 4) == WS_OK && f.last_mem_tid == 1);
    ws_gdb_warp_view_reset(&v);
    ws_gdb_warp_view_fini(&v);
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
