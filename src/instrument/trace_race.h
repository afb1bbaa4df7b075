/* The racecheck tool's shared parts (trace_race.c: hazards within a block;
 * trace_race_grid.c: hazards between blocks). Private to src/instrument. */
#ifndef WS_INSTRUMENT_TRACE_RACE_H
#define WS_INSTRUMENT_TRACE_RACE_H
#include <stddef.h>
#include <stdint.h>
#include "warpscope/trace.h"

/* RACE_SYNC: the access is a C11 atomic load or store as RISC-V compilers
 * emit them (a store right after a fence, a load right before one), which
 * two threads may make to one word as they may atomics. */
enum { RACE_SYNC = 4 };

typedef struct race_rec {
    uint64_t key;              /* epoch << 32 | word index (address / 4);
                                  sorted as epoch << wbits | word index;
                                  between blocks: the word index alone      */
    uint32_t tid, inst;        /* thread (linear in its block), mem_insts index */
    uint32_t block;            /* linear block id (records between blocks)   */
    uint32_t sync;             /* the words acquired before it and released
                                  after it (trace_race_sync.c), an id of the
                                  block's table (within a block: its thread's,
                                  in its epoch) or of the launch's (between
                                  blocks: also its block's other threads' in
                                  other epochs); 0: none                       */
    uint8_t bytes;             /* bit i: byte i of the word                   */
    uint8_t order;             /* RACE_SYNC                                   */
} race_rec;

typedef struct race_pair {
    uint32_t a, b;             /* mem_insts indices of its first occurrence   */
    uint32_t site_a, site_b;   /* their sites (race_ctx.site), site_a <= site_b:
                                  a pair of source lines is one hazard         */
    int write_write;           /* else read-write                            */
    int between_blocks;        /* threads of two blocks, else of one         */
    int across_warps;          /* some occurrence between two warps          */
    uint64_t words;            /* (block, epoch, word) occurrences            */
    uint32_t last_block, last_epoch, last_word; /* the last occurrence counted */
    int counted;
    uint32_t ex_block, ex_block_b, ex_tid_a, ex_tid_b, ex_addr; /* the first occurrence */
} race_pair;

struct race_sync;
typedef struct race_ctx {
    const ws_trace_launch *L;
    const struct race_sync *grid_sync; /* the table of the ids between blocks */
    const uint32_t *site;      /* per mem_insts index: its source line and kind
                                  (equal for the instructions of one line and
                                  kind, as an unrolled loop has); NULL: the index */
    race_pair *pairs;
    size_t npairs, cap;
    int oom;
} race_ctx;

/* Stable LSD radix sort of n records by the low `bits` bits of their key;
 * -1 out of memory. */
int tr_race_sort(race_rec *r, size_t n, unsigned bits);

/* Record one hazard between thread ta of block `block` running instruction
 * ia and thread tb of block_b (= block within a block) running ib, at byte
 * addr; within a block, the threads involved span lo..hi. */
void tr_race_hazard(race_ctx *c, uint32_t block, uint32_t block_b, uint32_t epoch, uint32_t addr, uint32_t ta,
                    uint32_t ia, uint32_t tb, uint32_t ib, uint32_t lo, uint32_t hi);

int tr_race_writes(const ws_trace_launch *L, uint32_t inst);
int tr_race_atomic(const ws_trace_launch *L, uint32_t inst);

/* What orders accesses within a block besides barriers (trace_race_sync.c):
 * per record, the words its thread acquired before it and releases after
 * it in its epoch, as an id into a table of the block. */
#define RACE_SYNC_WORDS 8
#define RACE_TAKEN 0x80000000u /* in an acquired word: taken as a lock      */
typedef struct race_sync_set {
    uint32_t w[RACE_SYNC_WORDS]; /* word indices (address / 4), | RACE_TAKEN */
    unsigned n;
} race_sync_set;

typedef struct race_sync_ev {
    size_t at;                 /* a record index in the thread's records       */
    uint32_t word, epoch;
} race_sync_ev;

typedef struct race_sync {
    struct { race_sync_set acq, rel; } *ent; /* the table; [0]: none           */
    size_t nent, cap;
    uint32_t *slots;           /* its hash, ids (0: free)                      */
    size_t nslots;
    race_sync_ev *acq, *rel;   /* the thread's acquires and releases           */
    size_t nacq, nrel, cap_acq, cap_rel;
    struct { size_t from; race_sync_set set; } *snap;
    size_t nsnap, cap_snap;
    race_sync_ev *bev;         /* the block's, at = 0 acquire, 1 release       */
    size_t nbev, cap_bev;
    race_sync_set *before, *after; /* per epoch: the block's acquires in
                                  earlier epochs, its releases in later ones  */
    size_t cap_ep;
    int oom;
} race_sync;

void tr_sync_block(race_sync *s);                /* a new block: empty table */
int tr_sync_acquire(race_sync *s, size_t at, uint32_t word, uint32_t epoch);
int tr_sync_release(race_sync *s, size_t at, uint32_t word, uint32_t epoch);
void tr_sync_thread(race_sync *s, race_rec *r, size_t n);
/* After the block's threads: its acquires and releases by epoch (epochs
 * 0..max_epoch); then the id in the launch's table g of a record of the
 * block with id `id` in epoch `epoch`. */
int tr_sync_epochs(race_sync *s, uint32_t max_epoch);
uint32_t tr_sync_grid_id(const race_sync *s, uint32_t id, uint32_t epoch, race_sync *g);
/* 1 if the records with ids a and b of two threads may be ordered: one
 * releases after it a word the other acquired before it. */
int tr_sync_ordered(const race_sync *s, uint32_t a, uint32_t b);
void tr_sync_free(race_sync *s);

/* Hazards between blocks among a launch's n global records r (any order
 * of words, blocks in ascending order): sorts r by word. */
void tr_race_between_blocks(race_ctx *c, race_rec *r, size_t n);
#endif
