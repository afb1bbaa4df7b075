/* Parallel simulation (parallel.h, docs/parallel.md).
 *
 * One thread runs the sequence of rounds the device runs in core order:
 * place blocks on free slots, then every core runs one round. In
 * functional mode each core has its own sequence of blocks (dispatch.c),
 * so a core places its own next blocks after a round in which it freed a
 * slot and never waits (L->per_core_order). In timing mode a freed slot takes
 * the grid's next block: a core's round r+1 depends on the other cores
 * only through that placement, and while blocks remain to be placed, every
 * slot is full after a placement, so only cores that freed a slot in round
 * r receive anything. Each core therefore runs its rounds on its own;
 * after a round in which it freed a slot (and blocks remain) it waits.
 * Blocks for round r are
 * placed once every core has finished round r, on the cores waiting at r,
 * in the same order one thread would, and those cores go on. The first
 * fault in (round, core) order ends the launch once no core can still
 * fault before it.
 *
 * The calling thread is worker 0; each worker owns cores k, k + threads,
 * ... and runs the runnable one with the fewest rounds done. Whichever
 * worker changes a core's state (or finishes a round while a decision
 * waits for it) makes the decisions, under the pool's lock. A worker with
 * nothing to run spins briefly before it sleeps: with short blocks the
 * cores wait for each other every few microseconds. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "device/parallel.h"
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define CPU_RELAX() _mm_pause()
#else
#define CPU_RELAX() ((void)0)
#endif

#define SPIN_CHECKS 2000u   /* looks for work before a worker sleeps */

enum { CORE_RUNNING, CORE_WAITING, CORE_STUCK, CORE_DONE, CORE_FAULT };

/* A core's held printf output: its own thread appends, the calling
 * thread emits what no core can precede any more while the cores run
 * (emit_ready), under the buffer's lock. */
struct ws_print_buf {
    pthread_mutex_t mu;
    char *data;
    size_t head, len, cap;   /* [head, len): held, not yet emitted */
};

typedef struct print_rec {
    uint64_t round, launch;
    ws_dim3 block, thread;
    uint32_t len;            /* bytes of text that follow the record */
} print_rec;

/* A core's progress, on a cache line of its own: its thread writes it
 * every round (in timing mode every cycle), and cores on different
 * threads sharing a line slowed vecadd's short rounds by a third. */
typedef struct par_core {
    uint64_t rounds;         /* rounds finished                             */
    uint64_t current;        /* the round being run (printf's order)        */
    int state;
} __attribute__((aligned(64))) par_core;

struct ws_par;
typedef struct worker_arg {
    struct ws_par *P;
    uint32_t k;              /* owns cores k, k + nworkers, ... */
} worker_arg;

struct ws_par {
    ws_device *dev;
    pid_t pid;               /* the process whose threads these are        */
    uint32_t nworkers, started;
    pthread_t *th;
    worker_arg *args;
    pthread_mutex_t mu;
    pthread_cond_t work;     /* workers: a core may run, or the launch ended */
    pthread_cond_t idle;     /* the caller: every worker left the launch    */
    unsigned gen;            /* launch number: workers start on a change    */
    unsigned busy;           /* workers (not the caller) still in the launch */
    int quit, finish;
    ws_par_result result;    /* once finish is set                          */
    uint64_t print_round;    /* printf output up to this round ...          */
    uint32_t print_core;     /* ... and in it up to this core is emitted    */
    int want_progress;       /* a decision waits for cores to finish rounds */
    double t0, limit_s;      /* the watchdog                                */
    int exhausted;           /* every block of the launch has been placed   */
    ws_par_launch how;
    uint64_t stop_round;     /* no core needs to run past this round        */
    par_core *pcs;           /* per core                                    */
    uint8_t *place;          /* scratch: cores receiving blocks             */
    int printed;             /* some core holds printf output               */
};

uint32_t ws_par_threads_for(const ws_config *c, int *asked)
{
    unsigned long n = c->threads;
    *asked = n != 0;
    if (!n) {
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        n = cpus > 0 ? (unsigned long)cpus : 1;
    }
    if (n > c->cores) n = c->cores;
    return n ? (uint32_t)n : 1;
}

int ws_par_launch_ok(const ws_device *dev, const ws_grid_run *L)
{
    return dev->host_threads > 1 && L->total_blocks > 1 && !dev->debug && !dev->events && !dev->tool_launch_depth;
}

static int get(const int *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }
static uint64_t get64(const uint64_t *p) { return __atomic_load_n(p, __ATOMIC_SEQ_CST); }

/* ---- workers ---- */

/* The runnable core of worker k with the fewest rounds done, or -1. */
static int pick_core(struct ws_par *P, uint32_t k)
{
    int best = -1;
    uint64_t stop = get64(&P->stop_round);
    for (uint32_t c = k; c < P->dev->cfg.cores; c += P->nworkers) {
        uint64_t r = get64(&P->pcs[c].rounds);
        if (get(&P->pcs[c].state) != CORE_RUNNING || r >= stop) continue;
        if (best < 0 || r < P->pcs[best].rounds) best = (int)c;
    }
    return best;
}

static int coordinate(struct ws_par *P);

static void end_launch(struct ws_par *P, ws_par_result r)
{
    P->result = r;
    __atomic_store_n(&P->finish, 1, __ATOMIC_SEQ_CST);
    pthread_cond_broadcast(&P->work);
}

/* A round of core c ended in a new state: its round count and state change
 * together, under the lock, so a decision never sees one without the
 * other. */
static void finish_round_as(struct ws_par *P, uint32_t c, int s, uint64_t rounds)
{
    pthread_mutex_lock(&P->mu);
    __atomic_store_n(&P->pcs[c].rounds, rounds, __ATOMIC_SEQ_CST);
    __atomic_store_n(&P->pcs[c].state, s, __ATOMIC_SEQ_CST);
    coordinate(P);
    pthread_mutex_unlock(&P->mu);
}

static void run_round_of(struct ws_par *P, uint32_t c)
{
    ws_device *dev = P->dev;
    const uint64_t now = get64(&P->pcs[c].rounds);
    uint64_t next = now + 1;
    uint32_t released = 0;
    if (dev->cores[c].init_pending) ws_dispatch_init_core(dev, c);
    P->pcs[c].current = now;
    int rc = P->how.step(dev, c, now, &next, &released);
    if (rc < 0) { finish_round_as(P, c, CORE_FAULT, next); return; }
    const int own_blocks = dev->current->per_core_order;
    if (released && own_blocks && ws_dispatch_blocks_core(dev, c)) rc = 0;
    else if (released && !own_blocks && !get(&P->exhausted)) {
        finish_round_as(P, c, CORE_WAITING, next);
        return;
    }
    if (rc > 0) { /* nothing can change this core any more */
        int resident = 0;
        for (uint32_t s = 0; s < dev->cores[c].nblock_slots; s++) resident |= dev->cores[c].blocks[s].in_use;
        finish_round_as(P, c, resident ? CORE_STUCK : CORE_DONE, next);
        return;
    }
    __atomic_store_n(&P->pcs[c].rounds, next, __ATOMIC_SEQ_CST);
    if (get(&P->want_progress)) {
        pthread_mutex_lock(&P->mu);
        coordinate(P);
        pthread_mutex_unlock(&P->mu);
    }
}

void ws_par_at_round(ws_device *dev, uint32_t c, uint64_t round)
{
    if (dev->par && dev->par_active) dev->par->pcs[c].current = round;
}

uint64_t ws_par_core_round(const ws_device *dev, uint32_t c)
{
    return dev->par && c < dev->cfg.cores ? get64(&dev->par->pcs[c].rounds) : 0;
}

/* Whether the host ends the launch now: the watchdog, or its request
 * (WS_PAR_DONE: neither). */
static ws_par_result host_stop(struct ws_par *P)
{
    const int why = ws_host_stop_due(P->dev, P->t0, P->limit_s, 0);
    return why == WS_HOST_INTERRUPT ? WS_PAR_INTERRUPTED : why ? WS_PAR_TIMEOUT : WS_PAR_DONE;
}

static uint64_t blocks_done(const ws_device *dev);

static void check_watchdog(struct ws_par *P)
{
    const ws_par_result r = host_stop(P);
    if (r == WS_PAR_DONE) return;
    pthread_mutex_lock(&P->mu);
    /* (every block finished: the launch is done, coordinate says so) */
    if (!P->finish && blocks_done(P->dev) < P->dev->current->total_blocks) end_launch(P, r);
    pthread_mutex_unlock(&P->mu);
}

static int nothing_to_run(struct ws_par *P, uint32_t k)
{
    return !get(&P->finish) && pick_core(P, k) < 0;
}

static void emit_ready(struct ws_par *P);

/* Worker k's part of a launch; worker 0 (the caller) also keeps the
 * watchdog and emits the printf output no core can precede any more. */
static void work_launch(struct ws_par *P, uint32_t k)
{
    unsigned ran = 0;
    while (!get(&P->finish)) {
        int c = pick_core(P, k);
        if (c >= 0) {
            run_round_of(P, (uint32_t)c);
            if (k == 0 && (++ran & 63) == 0) {
                check_watchdog(P);
                emit_ready(P);
            }
            continue;
        }
        for (unsigned i = 0; i < SPIN_CHECKS && nothing_to_run(P, k); i++) CPU_RELAX();
        if (!nothing_to_run(P, k)) continue;
        pthread_mutex_lock(&P->mu);
        while (nothing_to_run(P, k)) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_nsec += 20 * 1000000L; /* the watchdog looks every 20 ms */
            if (until.tv_nsec >= 1000000000L) until.tv_sec++, until.tv_nsec -= 1000000000L;
            pthread_cond_timedwait(&P->work, &P->mu, &until);
            const ws_par_result r = k == 0 && !P->finish ? host_stop(P) : WS_PAR_DONE;
            if (r != WS_PAR_DONE && blocks_done(P->dev) < P->dev->current->total_blocks) end_launch(P, r);
            if (k == 0 && get(&P->printed)) { /* (outside the pool's lock: it calls the handler) */
                pthread_mutex_unlock(&P->mu);
                emit_ready(P);
                pthread_mutex_lock(&P->mu);
            }
        }
        pthread_mutex_unlock(&P->mu);
    }
}

static void *worker(void *arg)
{
    struct ws_par *P = ((worker_arg *)arg)->P;
    const uint32_t k = ((worker_arg *)arg)->k;
    unsigned seen = 0;
    for (;;) {
        pthread_mutex_lock(&P->mu);
        while (P->gen == seen && !P->quit) pthread_cond_wait(&P->work, &P->mu);
        seen = P->gen;
        int quit = P->quit;
        pthread_mutex_unlock(&P->mu);
        if (quit) return NULL;
        work_launch(P, k);
        pthread_mutex_lock(&P->mu);
        if (--P->busy == 0) pthread_cond_signal(&P->idle);
        pthread_mutex_unlock(&P->mu);
    }
}

/* ---- the pool ---- */

static void pool_free(struct ws_par *P)
{
    if (!P) return;
    if (P->pid != getpid()) { /* a child of fork(): the workers are the parent's */
        free(P->th);
        free(P->args);
        free(P->pcs);
        free(P->place);
        free(P);
        return;
    }
    pthread_mutex_lock(&P->mu);
    P->quit = 1;
    pthread_cond_broadcast(&P->work);
    pthread_mutex_unlock(&P->mu);
    for (uint32_t i = 0; i < P->started; i++) pthread_join(P->th[i], NULL);
    pthread_cond_destroy(&P->work);
    pthread_cond_destroy(&P->idle);
    pthread_mutex_destroy(&P->mu);
    free(P->th);
    free(P->args);
    free(P->pcs);
    free(P->place);
    free(P);
}

static struct ws_par *pool_new(ws_device *dev)
{
    struct ws_par *P = calloc(1, sizeof *P);
    if (!P) return NULL;
    P->dev = dev;
    P->pid = getpid();
    P->nworkers = dev->host_threads;
    pthread_mutex_init(&P->mu, NULL);
    pthread_cond_init(&P->work, NULL);
    pthread_cond_init(&P->idle, NULL);
    P->th = calloc(P->nworkers, sizeof *P->th);
    P->args = calloc(P->nworkers, sizeof *P->args);
    P->pcs = aligned_alloc(_Alignof(par_core), dev->cfg.cores * sizeof *P->pcs);
    if (P->pcs) memset(P->pcs, 0, dev->cfg.cores * sizeof *P->pcs);
    P->place = calloc(dev->cfg.cores, 1);
    if (!P->th || !P->args || !P->pcs || !P->place) { pool_free(P); return NULL; }
    for (uint32_t c = 0; c < dev->cfg.cores; c++) { /* before any thread can look at them */
        if (dev->cores[c].prints) continue; /* (a pool before a fork made them) */
        struct ws_print_buf *b = calloc(1, sizeof *b);
        if (!b) { pool_free(P); return NULL; }
        pthread_mutex_init(&b->mu, NULL);
        dev->cores[c].prints = b;
    }
    for (uint32_t i = 1; i < P->nworkers; i++) { /* worker 0 is the caller */
        P->args[i] = (worker_arg){ P, i };
        if (pthread_create(&P->th[i - 1], NULL, worker, &P->args[i])) break;
        P->started++;
    }
    if (P->started + 1 != P->nworkers) { pool_free(P); return NULL; }
    return P;
}

/* ---- after the launch, in core order ---- */

static void fold_stats(ws_device *dev)
{
    ws_launch_stats *st = &dev->current->stats;
    for (uint32_t c = 0; c < dev->cfg.cores; c++) {
        ws_launch_stats *p = &dev->cores[c].part;
        st->warp_instructions += p->warp_instructions;
        st->thread_instructions += p->thread_instructions;
        st->thread_loads += p->thread_loads;
        st->thread_stores += p->thread_stores;
        st->thread_atomics += p->thread_atomics;
        p->warp_instructions = p->thread_instructions = p->thread_loads = p->thread_stores = p->thread_atomics = 0;
        if (c < WS_STATS_MAX_CORES) {
            st->core_warp_instructions[c] += p->core_warp_instructions[c];
            st->core_blocks[c] += p->core_blocks[c];
            p->core_warp_instructions[c] = p->core_blocks[c] = 0;
        }
    }
}

/* The launch's block counts from the cores' own (dispatch.c). */
static void fold_blocks(ws_device *dev)
{
    ws_grid_run *L = dev->current;
    for (uint32_t c = 0; c < dev->cfg.cores; c++) {
        L->done_blocks += dev->cores[c].done_blocks;
        dev->cores[c].done_blocks = 0;
    }
    if (L->per_core_order) {
        L->next_block = 0;
        for (uint32_t c = 0; c < dev->cfg.cores; c++) L->next_block += dev->cores[c].taken_blocks;
    }
}

/* Blocks finished so far, while the cores run. */
static uint64_t blocks_done(const ws_device *dev)
{
    uint64_t n = dev->current->done_blocks;
    for (uint32_t c = 0; c < dev->cfg.cores; c++) n += __atomic_load_n(&dev->cores[c].done_blocks, __ATOMIC_SEQ_CST);
    return n;
}

static void emit(ws_device *dev, const print_rec *r, const char *text)
{
    if (dev->printf_fn) { /* calls back into the library are refused meanwhile */
        dev->printf_depth++;
        dev->printf_fn(dev->printf_user, r->launch, r->block, r->thread, text, r->len);
        dev->printf_depth--;
    } else {
        fwrite(text, 1, r->len, stdout);
        fflush(stdout);
    }
}

/* The bytes of core b's records of round `round` at the head of its
 * buffer (called with b's lock held). */
static size_t round_bytes(const struct ws_print_buf *b, uint64_t round)
{
    size_t at = b->head;
    while (at < b->len) {
        print_rec r;
        memcpy(&r, b->data + at, sizeof r);
        if (r.round != round) break;
        at += sizeof r + r.len;
    }
    return at - b->head;
}

static void emit_records(ws_device *dev, const char *recs, size_t n)
{
    for (size_t at = 0; at < n;) {
        print_rec r;
        memcpy(&r, recs + at, sizeof r);
        emit(dev, &r, recs + at + sizeof r);
        at += sizeof r + r.len;
    }
}

/* Take core b's records of round `round` off its buffer and emit them.
 * The handler runs without b's lock, on a copy: the core's thread appends
 * under that lock, so a slow handler would stall the core (and one
 * waiting for the launch to go on would never return). Only the calling
 * thread emits, so the order stays (round, core). */
static void emit_round(ws_device *dev, struct ws_print_buf *b, uint64_t round, char **scratch, size_t *cap)
{
    pthread_mutex_lock(&b->mu);
    const size_t n = round_bytes(b, round);
    char *grown = n > *cap ? realloc(*scratch, n) : *scratch;
    if (!grown) { /* no host memory for a copy: emit in place, holding the lock */
        emit_records(dev, b->data + b->head, n);
    } else {
        *scratch = grown;
        if (n > *cap) *cap = n;
        memcpy(grown, b->data + b->head, n);
    }
    b->head += n;
    if (b->head == b->len) b->head = b->len = 0;
    pthread_mutex_unlock(&b->mu);
    if (grown) emit_records(dev, grown, n);
}

/* Emit the held output in (round, core) order, as one thread printed it,
 * up to round `last` (and in that round up to core `last_core`). Called
 * on the calling thread, while the cores run (their threads may be
 * appending: each buffer is read under its lock) and after they stopped. */
static void emit_upto(ws_device *dev, uint64_t last, uint32_t last_core)
{
    const uint32_t n = dev->cfg.cores;
    char *scratch = NULL;
    size_t cap = 0;
    for (;;) {
        uint32_t best = n;
        uint64_t best_round = 0;
        for (uint32_t c = 0; c < n; c++) {
            struct ws_print_buf *b = dev->cores[c].prints;
            if (!b) continue;
            pthread_mutex_lock(&b->mu);
            if (b->head < b->len) {
                print_rec r;
                memcpy(&r, b->data + b->head, sizeof r);
                if (!(r.round > last || (r.round == last && c > last_core)) && (best == n || r.round < best_round))
                    best = c, best_round = r.round;
            }
            pthread_mutex_unlock(&b->mu);
        }
        if (best == n) break;
        emit_round(dev, dev->cores[best].prints, best_round, &scratch, &cap); /* the core's whole round */
    }
    free(scratch);
}

/* After the launch: emit what one thread would have printed; drop the
 * rest, which one thread would not have run. */
static void flush_prints(ws_device *dev, uint64_t last, uint32_t last_core)
{
    emit_upto(dev, last, last_core);
    for (uint32_t c = 0; c < dev->cfg.cores; c++)
        if (dev->cores[c].prints) dev->cores[c].prints->head = dev->cores[c].prints->len = 0;
}

/* While the cores run (on the calling thread): emit the output of the
 * rounds every core has finished, which no fault can take back any more
 * (a fault in round f keeps every line of the rounds before f). So a
 * kernel that prints and then hangs shows its lines before the watchdog,
 * as on one thread. */
static void emit_ready(struct ws_par *P)
{
    ws_device *dev = P->dev;
    if (!get(&P->printed)) return;
    __atomic_store_n(&P->printed, 0, __ATOMIC_SEQ_CST); /* a line from now on sets it again */
    uint64_t bound = UINT64_MAX;
    pthread_mutex_lock(&P->mu);
    for (uint32_t c = 0; c < dev->cfg.cores; c++) {
        const uint64_t r = get64(&P->pcs[c].rounds);
        switch (get(&P->pcs[c].state)) {
        case CORE_RUNNING: case CORE_WAITING: if (r < bound) bound = r; break;
        case CORE_FAULT: if (r - 1 < bound) bound = r - 1; break; /* it faulted in round r - 1 */
        default: break; /* done or stuck: it prints no more */
        }
    }
    pthread_mutex_unlock(&P->mu);
    if (bound == UINT64_MAX) emit_upto(dev, UINT64_MAX, dev->cfg.cores); /* every core stopped, none faulted */
    else if (bound > 0) emit_upto(dev, bound - 1, dev->cfg.cores);
    int held = 0; /* lines of later rounds: look again */
    for (uint32_t c = 0; c < dev->cfg.cores && !held; c++) {
        struct ws_print_buf *b = dev->cores[c].prints;
        pthread_mutex_lock(&b->mu);
        held = b->head < b->len;
        pthread_mutex_unlock(&b->mu);
    }
    if (held) __atomic_store_n(&P->printed, 1, __ATOMIC_SEQ_CST);
}

int ws_par_print(ws_device *dev, const ws_warp *w, ws_dim3 thread, const char *text, uint32_t len)
{
    ws_core *core = &dev->cores[w->core];
    struct ws_print_buf *b = core->prints; /* (made with the pool) */
    pthread_mutex_lock(&b->mu);
    if (b->head && b->head >= b->len / 2) { /* drop what was emitted */
        memmove(b->data, b->data + b->head, b->len - b->head);
        b->len -= b->head;
        b->head = 0;
    }
    size_t need = b->len + sizeof(print_rec) + len;
    if (need > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < need) cap *= 2;
        char *d = realloc(b->data, cap);
        if (!d) { pthread_mutex_unlock(&b->mu); return -1; }
        b->data = d;
        b->cap = cap;
    }
    print_rec r = { dev->par->pcs[w->core].current, dev->current->id, w->block->idx, thread, len };
    memcpy(b->data + b->len, &r, sizeof r);
    memcpy(b->data + b->len + sizeof r, text, len);
    b->len = need;
    pthread_mutex_unlock(&b->mu);
    if (!__atomic_load_n(&dev->par->printed, __ATOMIC_RELAXED)) __atomic_store_n(&dev->par->printed, 1, __ATOMIC_SEQ_CST);
    return 0;
}

/* ---- the coordinator ---- */

/* Decide what can be decided; called with P->mu held by the worker that
 * changed a core's state or finished a round. Returns 1 once the launch
 * is over. */
static int coordinate(struct ws_par *P)
{
    ws_device *dev = P->dev;
    ws_grid_run *L = dev->current;
    const uint32_t n = dev->cfg.cores;
    if (P->finish) return 1;
    uint64_t lag = UINT64_MAX, wait_round = UINT64_MAX, fault_round = UINT64_MAX;
    uint32_t fault_core = n, running = 0, waiting = 0;
    /* Before reading the cores' rounds: a worker finishing a round after
     * this reads the flag and comes here. */
    __atomic_store_n(&P->want_progress, 1, __ATOMIC_SEQ_CST);
    for (uint32_t c = 0; c < n; c++) {
        uint64_t r = get64(&P->pcs[c].rounds);
        switch (get(&P->pcs[c].state)) {
        case CORE_RUNNING: running++; if (r < lag) lag = r; break;
        case CORE_WAITING: waiting++; if (r < wait_round) wait_round = r; break;
        case CORE_FAULT: if (r < fault_round) fault_round = r, fault_core = c; break; /* lowest core first */
        default: break;
        }
    }
    if (fault_core < n) {
        /* No core can fault before it any more once the cores before it
         * finished its round and those after it the round before. */
        if (P->stop_round > fault_round) __atomic_store_n(&P->stop_round, fault_round, __ATOMIC_SEQ_CST);
        int final = fault_round <= wait_round;
        for (uint32_t c = 0; c < n && final; c++)
            if (get(&P->pcs[c].state) == CORE_RUNNING && get64(&P->pcs[c].rounds) < fault_round - (c > fault_core))
                final = 0;
        if (final) {
            dev->fault = dev->cores[fault_core].fault;
            P->print_round = fault_round - 1;
            P->print_core = fault_core;
            end_launch(P, WS_PAR_FAULT);
            return 1;
        }
    }
    if (waiting && wait_round <= lag && wait_round < fault_round) { /* every core finished round wait_round */
        for (uint32_t c = 0; c < n; c++)
            P->place[c] = get(&P->pcs[c].state) == CORE_WAITING && get64(&P->pcs[c].rounds) == wait_round;
        ws_dispatch_blocks_on(dev, P->place);
        if (P->how.placed) P->how.placed(dev, P->place, wait_round);
        if (L->next_block >= L->total_blocks) __atomic_store_n(&P->exhausted, 1, __ATOMIC_SEQ_CST);
        for (uint32_t c = 0; c < n; c++)
            if (P->place[c]) __atomic_store_n(&P->pcs[c].state, CORE_RUNNING, __ATOMIC_SEQ_CST);
        pthread_cond_broadcast(&P->work);
        return coordinate(P);
    }
    if (blocks_done(dev) >= L->total_blocks) {
        end_launch(P, WS_PAR_DONE);
        return 1;
    }
    if (!running && !waiting && fault_core == n) { /* every core done or stuck: nothing will move */
        end_launch(P, WS_PAR_DEADLOCK);
        return 1;
    }
    /* Only a pending placement or fault needs to hear of every round. */
    if (!waiting && fault_core == n) __atomic_store_n(&P->want_progress, 0, __ATOMIC_SEQ_CST);
    return 0;
}

ws_par_result ws_par_run(ws_device *dev, const ws_par_launch *how)
{
    /* After fork() the child has only the thread that called it: a pool
     * made before would wait for workers that do not exist here. */
    if (dev->par && dev->par->pid != getpid()) {
        pool_free(dev->par);
        dev->par = NULL;
    }
    if (!dev->par && !(dev->par = pool_new(dev))) return WS_PAR_NO_THREADS;
    struct ws_par *P = dev->par;
    ws_grid_run *L = dev->current;
    for (uint32_t c = 0; c < dev->cfg.cores; c++) {
        memset(&dev->cores[c].fault, 0, sizeof dev->cores[c].fault);
        P->pcs[c].state = CORE_RUNNING;
        P->pcs[c].rounds = how->start;
    }
    P->how = *how;
    P->stop_round = UINT64_MAX;
    P->exhausted = L->next_block >= L->total_blocks;
    P->finish = 0;
    P->want_progress = 0;
    P->printed = 0;
    P->print_round = UINT64_MAX;
    P->print_core = dev->cfg.cores;
    P->t0 = ws_now_seconds();
    P->limit_s = how->limit_s;
    dev->par_active = 1;

    pthread_mutex_lock(&P->mu);
    P->busy = P->started;
    P->gen++;
    pthread_cond_broadcast(&P->work);
    pthread_mutex_unlock(&P->mu);
    work_launch(P, 0);
    pthread_mutex_lock(&P->mu);
    while (P->busy) pthread_cond_wait(&P->idle, &P->mu);
    pthread_mutex_unlock(&P->mu);
    dev->par_active = 0;
    for (uint32_t c = 0; c < dev->cfg.cores; c++) /* blocks placed in the last decision */
        if (dev->cores[c].init_pending) ws_dispatch_init_core(dev, c);
    /* what one thread would have printed, on the caller's thread */
    flush_prints(dev, P->print_round, P->print_core);
    fold_stats(dev);
    fold_blocks(dev);
    return P->result;
}

void ws_par_free(ws_device *dev)
{
    pool_free(dev->par);
    dev->par = NULL;
    if (!dev->cores) return;
    for (uint32_t c = 0; c < dev->cfg.cores; c++) {
        if (dev->cores[c].prints) {
            pthread_mutex_destroy(&dev->cores[c].prints->mu);
            free(dev->cores[c].prints->data);
        }
        free(dev->cores[c].prints);
        dev->cores[c].prints = NULL;
    }
}
