/* The racecheck tool: what orders two threads' accesses besides barriers,
 * within a block and between blocks (trace_race_grid.c). A release by one
 * thread and an acquire by the other through the same word: access A of
 * thread a comes before access B of thread b if a, after A, releases a
 * word that b, before B, acquires, both in the epoch of A and B (within a
 * block, a barrier between would order them anyway; between blocks, the
 * block's other threads' acquires in earlier epochs and releases in later
 * ones count too: tr_sync_epochs), and either both threads hold the word
 * around their accesses (a lock: taken with an exchange, a
 * compare-and-swap, lr/sc, an atomic or/and, or an acquiring load) or a
 * only gives it and b only takes it (a flag): see before(). An atomic
 * acquires and releases its word (the device ignores aq/rl: every atomic
 * is sequentially consistent); a store right after a fence releases its
 * word and a load right before one acquires it (C11 release stores and
 * acquire loads as RISC-V compilers emit them). A spin lock taken with
 * atomicCAS_i and given back with atomicExch_i thus orders the accesses
 * between: each has the lock word taken before it and released after.
 * Each record gets the id of its (acquired, released) pair of word sets in
 * a table (the block's; the launch's between blocks); the sets keep the
 * RACE_SYNC_WORDS most recent (nearest) words, so a thread with more in
 * one epoch may lose an ordering (a hazard reported that a longer set
 * would not), never gain one. */
#include <stdlib.h>
#include <string.h>
#include "instrument/trace_race.h"

#define W(x) ((x) & ~RACE_TAKEN)

/* Add w to a set kept in order of arrival (most recent last); a word
 * taken as a lock stays so. */
static void set_add(race_sync_set *s, uint32_t w)
{
    unsigned i = 0;
    while (i < s->n && W(s->w[i]) != W(w)) i++;
    if (i < s->n) w |= s->w[i] & RACE_TAKEN;
    if (i == s->n && s->n < RACE_SYNC_WORDS) s->n++;
    if (i == s->n) i = s->n - 1, memmove(s->w, s->w + 1, i * sizeof *s->w); /* full: the oldest goes */
    else memmove(s->w + i, s->w + i + 1, (s->n - 1 - i) * sizeof *s->w);
    s->w[s->n - 1] = w;
}

static void set_sort(race_sync_set *s)
{
    for (unsigned i = 1; i < s->n; i++)
        for (unsigned j = i; j && W(s->w[j - 1]) > W(s->w[j]); j--) {
            uint32_t t = s->w[j];
            s->w[j] = s->w[j - 1], s->w[j - 1] = t;
        }
}

static int set_eq(const race_sync_set *a, const race_sync_set *b)
{
    return a->n == b->n && !memcmp(a->w, b->w, a->n * sizeof *a->w);
}

static uint32_t hash_pair(const race_sync_set *a, const race_sync_set *r)
{
    uint32_t h = 2166136261u ^ a->n ^ (uint32_t)r->n << 8;
    for (unsigned i = 0; i < a->n; i++) h = (h ^ a->w[i]) * 16777619u;
    for (unsigned i = 0; i < r->n; i++) h = (h ^ ~r->w[i]) * 16777619u;
    return h ^ h >> 15;
}

void tr_sync_block(race_sync *s)
{
    if (s->nent > 1 && s->slots) memset(s->slots, 0, s->nslots * sizeof *s->slots);
    s->nent = 1; /* id 0: nothing acquired or released */
    s->nacq = s->nrel = s->nbev = 0;
}

static int grow_slots(race_sync *s)
{
    size_t n = s->nslots ? 2 * s->nslots : 256;
    uint32_t *sl = calloc(n, sizeof *sl);
    if (!sl) return -1;
    free(s->slots);
    s->slots = sl, s->nslots = n;
    for (size_t id = 1; id < s->nent; id++) {
        size_t at = hash_pair(&s->ent[id].acq, &s->ent[id].rel) & (n - 1);
        while (sl[at]) at = (at + 1) & (n - 1);
        sl[at] = (uint32_t)id;
    }
    return 0;
}

/* The id of the pair (a, r), both sorted; 0 out of memory. */
static uint32_t intern(race_sync *s, const race_sync_set *a, const race_sync_set *r)
{
    if (!a->n && !r->n) return 0;
    if (2 * (s->nent + 1) > s->nslots && grow_slots(s)) { s->oom = 1; return 0; }
    size_t at = hash_pair(a, r) & (s->nslots - 1);
    for (uint32_t id; (id = s->slots[at]); at = (at + 1) & (s->nslots - 1))
        if (set_eq(&s->ent[id].acq, a) && set_eq(&s->ent[id].rel, r)) return id;
    if (s->nent == UINT32_MAX) return 0;
    if (s->nent >= s->cap) {
        size_t n = s->cap ? 2 * s->cap : 64;
        void *e = realloc(s->ent, n * sizeof *s->ent);
        if (!e) { s->oom = 1; return 0; }
        s->ent = e, s->cap = n;
    }
    s->ent[s->nent].acq = *a, s->ent[s->nent].rel = *r;
    s->slots[at] = (uint32_t)s->nent;
    return (uint32_t)s->nent++;
}

static int push_ev(race_sync_ev **v, size_t *n, size_t *cap, size_t at, uint32_t word, uint32_t epoch)
{
    if (*n == *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        race_sync_ev *e = realloc(*v, c * sizeof *e);
        if (!e) return -1;
        *v = e, *cap = c;
    }
    (*v)[(*n)++] = (race_sync_ev){ at, word, epoch };
    return 0;
}

int tr_sync_acquire(race_sync *s, size_t at, uint32_t word, uint32_t epoch)
{
    if (push_ev(&s->acq, &s->nacq, &s->cap_acq, at, word, epoch) || push_ev(&s->bev, &s->nbev, &s->cap_bev, 0, word, epoch)) {
        s->oom = 1;
        return -1;
    }
    return 0;
}

int tr_sync_release(race_sync *s, size_t at, uint32_t word, uint32_t epoch)
{
    if (push_ev(&s->rel, &s->nrel, &s->cap_rel, at, word, epoch) || push_ev(&s->bev, &s->nbev, &s->cap_bev, 1, word, epoch)) {
        s->oom = 1;
        return -1;
    }
    return 0;
}

/* The block's events by epoch, in the order they were noted (threads in
 * order, each in program order): before[e] gets the words acquired in
 * epochs below e (the latest epochs' kept), after[e] those released above
 * it (the nearest kept). */
int tr_sync_epochs(race_sync *s, uint32_t max_epoch)
{
    if (!s->nbev) return 0;
    const size_t ne = (size_t)max_epoch + 1;
    if (ne > s->cap_ep) {
        race_sync_set *b = realloc(s->before, ne * sizeof *b);
        if (b) s->before = b;
        race_sync_set *a = b ? realloc(s->after, ne * sizeof *a) : NULL;
        if (!a) { s->oom = 1; return -1; }
        s->after = a, s->cap_ep = ne;
    }
    size_t *first = calloc(ne + 1, sizeof *first);
    race_sync_ev *by = malloc(s->nbev * sizeof *by);
    if (!first || !by) { free(first); free(by); s->oom = 1; return -1; }
    for (size_t i = 0; i < s->nbev; i++) first[s->bev[i].epoch + 1]++;
    for (size_t e = 0; e < ne; e++) first[e + 1] += first[e];
    for (size_t i = 0; i < s->nbev; i++) by[first[s->bev[i].epoch]++] = s->bev[i];
    /* first[e] is now where epoch e + 1 begins */
    race_sync_set acc = { .n = 0 };
    for (size_t e = 0, i = 0; e < ne; e++) {
        s->before[e] = acc;
        for (; i < first[e]; i++)
            if (!by[i].at) set_add(&acc, by[i].word);
    }
    acc.n = 0;
    for (size_t e = ne, i = s->nbev; e-- > 0;) {
        s->after[e] = acc;
        for (; i > (e ? first[e - 1] : 0); i--)
            if (by[i - 1].at) set_add(&acc, by[i - 1].word);
    }
    free(first);
    free(by);
    return 0;
}

uint32_t tr_sync_grid_id(const race_sync *s, uint32_t id, uint32_t epoch, race_sync *g)
{
    if (!s->nbev) return 0;
    race_sync_set a = s->before[epoch], r = s->after[epoch];
    if (id) { /* its own thread's come last: the latest and the nearest */
        for (unsigned i = 0; i < s->ent[id].acq.n; i++) set_add(&a, s->ent[id].acq.w[i]);
        for (unsigned i = 0; i < s->ent[id].rel.n; i++) set_add(&r, s->ent[id].rel.w[i]);
    }
    set_sort(&a);
    set_sort(&r);
    return intern(g, &a, &r);
}

/* One thread's n records r (keys epoch << 32 | word, in program order)
 * and the events noted for it (acquires apply to records from `at` on,
 * releases to those before `at`; `at` ascending): each record's sync id. */
void tr_sync_thread(race_sync *s, race_rec *r, size_t n)
{
    if (!s->nacq && !s->nrel) { /* the common case: no atomics, no fences */
        for (size_t i = 0; i < n; i++) r[i].sync = 0;
        return;
    }
    /* forward: the words acquired before each record, as snapshots that
     * hold from a record on */
    race_sync_set a = { .n = 0 };
    uint32_t ae = 0;
    int have = 0;
    s->nsnap = 0;
    for (size_t i = 0, q = 0; i < n; i++) {
        int changed = i == 0;
        const uint32_t e = (uint32_t)(r[i].key >> 32);
        for (; q < s->nacq && s->acq[q].at <= i; q++) {
            if (!have || s->acq[q].epoch != ae) a.n = 0, ae = s->acq[q].epoch, have = 1;
            set_add(&a, s->acq[q].word);
            changed = 1;
        }
        if (have && ae != e) a.n = 0, have = 0, changed = 1;
        if (!changed) continue;
        if (s->nsnap == s->cap_snap) {
            size_t c = s->cap_snap ? 2 * s->cap_snap : 64;
            void *p = realloc(s->snap, c * sizeof *s->snap);
            if (!p) { s->oom = 1; return; }
            s->snap = p, s->cap_snap = c;
        }
        s->snap[s->nsnap].from = i;
        s->snap[s->nsnap].set = a;
        set_sort(&s->snap[s->nsnap].set);
        s->nsnap++;
    }
    /* backward: the words released after each record; then the pair's id */
    race_sync_set rel = { .n = 0 };
    uint32_t re = 0;
    have = 0;
    size_t q = s->nrel, k = s->nsnap;
    uint32_t id = 0;
    int dirty = 1;
    for (size_t i = n; i-- > 0;) {
        const uint32_t e = (uint32_t)(r[i].key >> 32);
        while (q > 0 && s->rel[q - 1].at > i) {
            q--;
            if (!have || s->rel[q].epoch != re) rel.n = 0, re = s->rel[q].epoch, have = 1;
            set_add(&rel, s->rel[q].word);
            dirty = 1;
        }
        if (have && re != e) rel.n = 0, have = 0, dirty = 1;
        while (k > 0 && s->snap[k - 1].from > i) k--, dirty = 1;
        if (dirty) {
            race_sync_set sorted = rel;
            set_sort(&sorted);
            id = intern(s, &s->snap[k - 1].set, &sorted);
            dirty = 0;
        }
        r[i].sync = id;
    }
    s->nacq = s->nrel = 0;
}

/* x's entry for word w (either form), or 0 if none. */
static uint32_t find(const race_sync_set *x, uint32_t w)
{
    for (unsigned i = 0; i < x->n; i++)
        if (W(x->w[i]) == W(w)) return x->w[i] | 1u << 30; /* (never 0) */
    return 0;
}

/* Whether a, through some word, surely comes before b once b's thread
 * waited for it: a's thread releases it after a and b's acquires it before
 * b, and either both hold it (each took it as a lock before its access and
 * gives it back after: one section comes first) or a's thread only gives
 * it and b's only takes it (a flag published after a and awaited before
 * b). One that took it, gave it back and then made its access (a lock
 * given back too early), an access after an atomic that another thread's
 * atomic may follow (a plain read of an atomic counter) or between two
 * additions to a counter (a ticket taken) is ordered by nothing. */
static int before(const race_sync *s, uint32_t a, uint32_t b)
{
    const race_sync_set *ra = &s->ent[a].rel, *ab = &s->ent[b].acq;
    for (unsigned i = 0, j = 0; i < ra->n && j < ab->n;) {
        const uint32_t wa = W(ra->w[i]), wb = W(ab->w[j]);
        if (wa < wb) i++;
        else if (wa > wb) j++;
        else {
            const uint32_t took_a = find(&s->ent[a].acq, wa), gives_b = find(&s->ent[b].rel, wa);
            if (took_a & RACE_TAKEN && ab->w[j] & RACE_TAKEN && gives_b) return 1; /* a lock */
            if (!took_a && !gives_b) return 1;                                       /* a flag */
            i++, j++;
        }
    }
    return 0;
}

int tr_sync_ordered(const race_sync *s, uint32_t a, uint32_t b)
{
    if (!a || !b) return 0;
    return before(s, a, b) || before(s, b, a);
}

void tr_sync_free(race_sync *s)
{
    free(s->ent);
    free(s->slots);
    free(s->acq);
    free(s->rel);
    free(s->snap);
    free(s->bev);
    free(s->before);
    free(s->after);
    memset(s, 0, sizeof *s);
}
