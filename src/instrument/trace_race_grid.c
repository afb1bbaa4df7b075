/* The racecheck tool between blocks: nothing orders two blocks of a launch
 * but atomics and fences, so two accesses by different blocks to the same
 * byte of global memory, at least one a store or an atomic and not both
 * atomics, are a hazard, unless a lock or a flag orders them through one
 * word (trace_race_sync.c): each record carries the words acquired before
 * it and released after it by its thread in its epoch and by its block's
 * other threads in earlier (acquired) and later (released) epochs. That
 * covers the last-block reduction (partial sums stored, fence, counter
 * incremented; the block that sees the last count reads them) and data
 * guarded by a lock taken and given back with atomics. A relaxed atomic
 * counts as a handshake too (the device ignores aq/rl), so the tool may
 * miss a hazard such code has. */
#include <stdlib.h>
#include "instrument/trace_race.h"

#define GROUP_INSTS 64

/* One word's records (same word, blocks ascending): each instruction, by
 * its bytes and ordering, with the first two blocks (and a thread of
 * each) that ran it; every pair of them that shares a byte, with a
 * write, not two atomics, in two different blocks and no lock or flag
 * between them, is a hazard. */
static void check_word(race_ctx *c, const race_rec *g, size_t n)
{
    const ws_trace_launch *L = c->L;
    struct { uint32_t inst, blk[2], tid[2], sync; uint8_t bytes, order; int nblk; } e[GROUP_INSTS];
    int ne = 0;
    for (size_t i = 0; i < n; i++) {
        int k = 0;
        while (k < ne && !(e[k].inst == g[i].inst && e[k].bytes == g[i].bytes && e[k].order == g[i].order && e[k].sync == g[i].sync))
            k++;
        if (k == ne) {
            if (ne == GROUP_INSTS) continue; /* (more than any real kernel puts on one word) */
            e[ne].inst = g[i].inst, e[ne].bytes = g[i].bytes, e[ne].order = g[i].order, e[ne].sync = g[i].sync;
            e[ne].blk[0] = g[i].block, e[ne].tid[0] = g[i].tid, e[ne].nblk = 1;
            ne++;
        } else if (e[k].nblk == 1 && e[k].blk[0] != g[i].block) {
            e[k].blk[1] = g[i].block, e[k].tid[1] = g[i].tid, e[k].nblk = 2;
        }
    }
    const uint32_t word = (uint32_t)g[0].key;
    for (int u = 0; u < ne; u++)
        for (int v = u; v < ne; v++) {
            const uint32_t iu = e[u].inst, iv = e[v].inst;
            if (!(e[u].bytes & e[v].bytes) || (!tr_race_writes(L, iu) && !tr_race_writes(L, iv))) continue;
            if ((tr_race_atomic(L, iu) || e[u].order & RACE_SYNC) && (tr_race_atomic(L, iv) || e[v].order & RACE_SYNC))
                continue; /* two atomics (or C11 atomic loads and stores) */
            if (tr_sync_ordered(c->grid_sync, e[u].sync, e[v].sync)) continue; /* a lock or a flag orders them */
            int a = 0, b = 0; /* which of each one's blocks */
            if (u == v) {
                if (e[u].nblk < 2) continue;
                b = 1;
            } else if (e[u].blk[0] == e[v].blk[0]) {
                if (e[v].nblk == 2) b = 1;
                else if (e[u].nblk == 2) a = 1;
                else continue; /* one block: the check within blocks covers it */
            }
            const uint32_t addr = (word << 2) + (uint32_t)__builtin_ctz(e[u].bytes & e[v].bytes);
            tr_race_hazard(c, e[u].blk[a], e[v].blk[b], 0, addr, e[u].tid[a], iu, e[v].tid[b], iv, 0, 0);
        }
}

void tr_race_between_blocks(race_ctx *c, race_rec *r, size_t n)
{
    uint32_t max_word = 0;
    for (size_t i = 0; i < n; i++)
        if ((uint32_t)r[i].key > max_word) max_word = (uint32_t)r[i].key;
    if (tr_race_sort(r, n, max_word ? 32 - (unsigned)__builtin_clz(max_word) : 1)) {
        c->oom = 1;
        return;
    }
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && r[j].key == r[i].key) j++;
        if (r[i].block != r[j - 1].block) check_word(c, &r[i], j - i); /* stable: blocks ascending */
        i = j;
    }
}
