/* Work distributor: places blocks of the current launch on cores with free
 * warp slots and shared memory, in block order, spread across the cores
 * first (block i of a fresh launch goes to core i mod cores, as GPUs spread
 * blocks over their SMs), then filling each core's further slots; streams
 * the grid through the device so grids far larger than it run. A freed
 * slot takes the grid's next block (timing mode) or its core's next block
 * (functional mode: chunks c, c + cores, ... of consecutive blocks;
 * take_block). */
#include <stddef.h>
#include <string.h>
#include "device/device.h"
#include "device/events/event_bus.h"

static void block_coords(const ws_grid_run *L, uint64_t linear, ws_dim3 *idx)
{
    idx->x = (uint32_t)(linear % L->grid.x);
    idx->y = (uint32_t)(linear / L->grid.x % L->grid.y);
    idx->z = (uint32_t)(linear / ((uint64_t)L->grid.x * L->grid.y));
}

/* Zero the rows of a register file named in mask. A row is 128 bytes:
 * plain vector stores (a memset per row compiles to `rep stos`, whose
 * start-up cost is most of the time for so few bytes). */
typedef uint32_t ws_zero4 __attribute__((vector_size(16), aligned(4)));
static void clear_rows(uint32_t (*file)[WS_MAX_LANES], uint32_t mask)
{
    if (mask == UINT32_MAX) { memset(file, 0, 32 * sizeof file[0]); return; }
    const ws_zero4 z = { 0, 0, 0, 0 };
    for (; mask; mask &= mask - 1) {
        ws_zero4 *row = (ws_zero4 *)file[__builtin_ctz(mask)];
        for (uint32_t i = 0; i < WS_MAX_LANES / 4; i++) row[i] = z;
    }
}

/* Zero n bytes at p the same way (a memset of constant size, or a loop
 * the compiler recognises as one, also becomes `rep stos`: the empty asm
 * keeps the loop a loop). */
static void clear_bytes(void *p, size_t n)
{
    const ws_zero4 z = { 0, 0, 0, 0 };
    char *c = p;
    for (; n >= sizeof z; n -= sizeof z, c += sizeof z) {
        memcpy(c, &z, sizeof z);
        __asm__("" ::: "memory");
    }
    memset(c, 0, n);
}

/* Lanes n.. of a warp that does not fill its lanes: zero in the rows a
 * start wrote for all lanes (x rows xs, f rows fs, pc, tid). */
static void zero_lanes(ws_warp *w, uint32_t n, uint32_t xs, uint32_t fs)
{
    const size_t k = WS_MAX_LANES - n;
    for (; xs; xs &= xs - 1) memset(&w->x[__builtin_ctz(xs)][n], 0, k * sizeof w->x[0][0]);
    for (; fs; fs &= fs - 1) memset(&w->f[__builtin_ctz(fs)][n], 0, k * sizeof w->f[0][0]);
    memset(&w->pc[n], 0, k * sizeof w->pc[0]);
    for (int d = 0; d < 3; d++) memset(&w->tid[d][n], 0, k * sizeof w->tid[0][0]);
}

/* Lanes start at the kernel entry with arguments in registers (ilp32f),
 * the rest on the stack, sp at the top of the lane's stack and ra at the
 * retire address. */
static void init_warp(ws_device *dev, ws_grid_run *L, ws_block *b, ws_warp *w, uint32_t wib)
{
    const uint32_t nl = dev->cfg.lanes_per_warp;
    const uint32_t first = wib * nl;
    const uint64_t grid_first = b->linear * L->threads_per_block + first; /* grid thread of lane 0 */
    /* the lanes that start: threads of the block from `first` on, within
     * a shader launch's work */
    uint32_t n = first < L->threads_per_block ? L->threads_per_block - first : 0;
    if (n > nl) n = nl;
    if (L->thread_limit && grid_first + n > L->thread_limit)
        n = L->thread_limit > grid_first ? (uint32_t)(L->thread_limit - grid_first) : 0;

    /* Reset everything but the register files, then clear those: only the
     * rows some instruction (or a debugger) may have written, and float
     * registers only if the slot's previous warp touched them (they are
     * large, and most warps are short and use a few registers). The rows
     * the slot's last warp start set are cleared too (a fuller warp may
     * have used more lanes, a launch more arguments): its own, not every
     * row a start may set, which was half of a short kernel's warp start.
     * The rows this start sets, and pc and tid, are written whole below
     * (zero in the lanes that do not start): loops over all lanes
     * vectorise, loops over n lanes did not, and need no clearing first. */
    const uint32_t set_x = 1u << 1 | 1u << 2 | (L->tls_size ? 1u << 4 : 0) | ((1u << L->ni) - 1) << 10; /* ra, sp, tp, a0.. */
    const uint32_t set_f = ((1u << L->nf) - 1) << 10;                                                   /* fa0.. */
    uint32_t wx = w->initialized ? __atomic_load_n(&dev->written_x, __ATOMIC_RELAXED) | w->start_x : UINT32_MAX;
    uint32_t wf = !w->initialized ? UINT32_MAX : w->fp_used ? __atomic_load_n(&dev->written_f, __ATOMIC_RELAXED) | w->start_f : 0;
    clear_rows(w->x, wx & ~set_x);
    clear_rows(w->f, wf & ~set_f);
    w->start_x = set_x;
    w->start_f = set_f;
    clear_bytes((char *)w + offsetof(ws_warp, depth), sizeof *w - offsetof(ws_warp, depth));
    w->initialized = 1;
    w->core = b->core;
    w->slot = b->first_slot + wib;
    w->block = b;
    w->warp_in_block = wib;
    w->active = 1;
    w->stack_slot0 = (w->core * dev->cfg.warps_per_core + w->slot) * nl;
    w->other_min_pc = UINT32_MAX;
    w->other_floor = 0;
    w->loop_cap = UINT32_MAX;
    w->live = n >= 32 ? UINT32_MAX : (1u << n) - 1;
    /* thread coordinates of the first lane, then count up x, y, z */
    uint32_t tx = first % L->block.x, ty = first / L->block.x % L->block.y,
             tz = first / (L->block.x * L->block.y);
    if (tx + n <= L->block.x) { /* all in one row of the block */
        for (uint32_t l = 0; l < WS_MAX_LANES; l++) w->tid[0][l] = (uint16_t)(tx + l);
        for (uint32_t l = 0; l < WS_MAX_LANES; l++) w->tid[1][l] = (uint16_t)ty;
        for (uint32_t l = 0; l < WS_MAX_LANES; l++) w->tid[2][l] = (uint16_t)tz;
    } else
        for (uint32_t l = 0; l < n; l++) {
            w->tid[0][l] = (uint16_t)tx;
            w->tid[1][l] = (uint16_t)ty;
            w->tid[2][l] = (uint16_t)tz;
            if (++tx == L->block.x) { tx = 0; if (++ty == L->block.y) { ty = 0; tz++; } }
        }
    const uint32_t entry = L->entry, sp_off = (L->nstack * 4 + 15) & ~15u;
    const uint32_t shift = dev->mem.stack_shift, slot0 = w->stack_slot0, g0 = (uint32_t)grid_first;
    for (uint32_t l = 0; l < WS_MAX_LANES; l++) w->pc[l] = entry;
    for (uint32_t l = 0; l < WS_MAX_LANES; l++)
        w->x[2][l] = WS_STACK_BASE + ((slot0 + l + 1) << shift) - L->tls_size - sp_off;
    for (uint32_t l = 0; l < WS_MAX_LANES; l++) w->x[1][l] = WS_RETIRE_ADDR;
    if (L->tls_size) { /* thread-local storage (errno): a fresh copy of the template per lane, tp at it */
        const uint32_t off = dev->mem.stack_size - L->tls_size;
        for (uint32_t l = 0; l < WS_MAX_LANES; l++) w->x[4][l] = WS_STACK_BASE + ((slot0 + l) << shift) + off;
        for (uint32_t l = 0; l < n; l++)
            for (uint32_t i = 0; i < L->tls_size; i += 4) {
                uint32_t v = 0;
                if (i < L->tls_filesz) {
                    const uint8_t *src = ws_mem_global_ptr(&dev->mem, L->tls_image + i);
                    uint32_t k = L->tls_filesz - i < 4 ? L->tls_filesz - i : 4;
                    memcpy(&v, src, k);
                }
                memcpy(ws_mem_stack_ptr(&dev->mem, slot0 + l, off + i), &v, 4);
            }
    }
    for (uint32_t i = 0; i < L->ni; i++) {
        const uint32_t base = L->ireg[i], stride = L->ireg_stride[i]; /* a stride: a shader's record */
        if (L->ireg_sp_rel >> i & 1) /* the address of the lane's own copy of a struct argument */
            for (uint32_t l = 0; l < WS_MAX_LANES; l++) w->x[10 + i][l] = w->x[2][l] + base;
        else if (!stride)
            for (uint32_t l = 0; l < WS_MAX_LANES; l++) w->x[10 + i][l] = base;
        else
            for (uint32_t l = 0, v = base + stride * g0; l < WS_MAX_LANES; l++, v += stride) w->x[10 + i][l] = v;
    }
    for (uint32_t i = 0; i < L->nf; i++)
        for (uint32_t l = 0; l < WS_MAX_LANES; l++) w->f[10 + i][l] = L->freg[i];
    if (n < WS_MAX_LANES) /* the lanes that do not start: zero in every row set above */
        zero_lanes(w, n, set_x, set_f);
    for (uint32_t l = 0; l < n && L->nstack; l++) {
        uint32_t sp = w->x[2][l];
        for (uint32_t i = 0; i < L->nstack; i++) {
            uint32_t off = (sp - WS_STACK_BASE + 4 * i) & (dev->mem.stack_size - 1);
            uint32_t v = L->stack_args[i] + (L->stack_sp_rel[i / 64] >> (i % 64) & 1 ? sp : 0);
            memcpy(ws_mem_stack_ptr(&dev->mem, slot0 + l, off), &v, 4);
        }
    }
    if (L->nf) w->fp_used = 1;
    b->live_lanes += ws_lane_count(w->live);
}

/* Ask for the lines a warp start writes (the register rows instructions
 * wrote, the rows the slot's last start set, the per-lane state from pc
 * on) for writing, a warp ahead: the start of the warp before runs
 * meanwhile. A hint only. */
static void prefetch_warp(const ws_device *dev, const ws_warp *w)
{
    uint32_t rows = __atomic_load_n(&dev->written_x, __ATOMIC_RELAXED) | w->start_x;
    for (; rows; rows &= rows - 1) {
        const char *r = (const char *)w->x[__builtin_ctz(rows)];
        __builtin_prefetch(r, 1);
        __builtin_prefetch(r + 64, 1);
    }
    for (const char *p = (const char *)w->pc; p < (const char *)(w + 1); p += 64) __builtin_prefetch(p, 1);
}

static void init_block(ws_device *dev, ws_grid_run *L, ws_core *core, ws_block *b)
{
    memset(core->shared + b->shared_off, 0, L->shared_total);
    ws_ev_emit(dev, WS_EV_WD, WS_EV_WD_DISPATCH, b->core, (uint32_t)b->linear);
    for (uint32_t i = 0; i < b->nwarps; i++) {
        if (i + 1 < b->nwarps) prefetch_warp(dev, &core->warps[b->first_slot + i + 1]);
        init_warp(dev, L, b, &core->warps[b->first_slot + i], i);
        ws_ev_emit(dev, WS_EV_SCHED, WS_EV_SCHED_WARP_START, b->core, b->first_slot + i);
    }
    b->init_pending = 0;
}

void ws_dispatch_init_core(ws_device *dev, uint32_t c)
{
    ws_core *core = &dev->cores[c];
    for (uint32_t s = 0; s < core->nblock_slots; s++)
        if (core->blocks[s].in_use && core->blocks[s].init_pending) init_block(dev, dev->current, core, &core->blocks[s]);
    core->init_pending = 0;
}

static uint32_t place_blocks(ws_device *dev, const uint8_t *only, uint32_t c_lo, uint32_t c_hi);

uint32_t ws_dispatch_blocks(ws_device *dev) { return ws_dispatch_blocks_on(dev, NULL); }

uint32_t ws_dispatch_blocks_on(ws_device *dev, const uint8_t *only)
{
    return place_blocks(dev, only, 0, dev->cfg.cores);
}

uint32_t ws_dispatch_blocks_core(ws_device *dev, uint32_t c)
{
    return c < dev->cfg.cores ? place_blocks(dev, NULL, c, c + 1) : 0;
}

uint32_t ws_block_chunk(uint64_t total_blocks, uint32_t cores)
{
    uint64_t k = total_blocks / ((uint64_t)cores * WS_CHUNKS_PER_CORE);
    return k < 1 ? 1 : k > WS_MAX_BLOCK_CHUNK ? WS_MAX_BLOCK_CHUNK : (uint32_t)k;
}

/* The next block for core c, or 0 if none is left for it. Timing mode
 * (a hardware work distributor) hands the next block of the grid to
 * whichever slot is free first. Functional mode has no clock to make that
 * order meaningful, so each core runs its own sequence: chunks c, c +
 * cores, c + 2 cores, ... of block_chunk consecutive blocks. Cores never
 * wait for each other to place a block, on any number of host threads,
 * and each walks its own stretch of memory (docs/device.md,
 * docs/parallel.md). */
static int take_block(ws_device *dev, ws_grid_run *L, ws_core *core, uint64_t *linear)
{
    if (!L->per_core_order) {
        if (L->next_block >= L->total_blocks) return 0;
        *linear = L->next_block++;
        return 1;
    }
    if (core->next_block >= L->total_blocks) return 0;
    *linear = core->next_block++;
    core->taken_blocks++;
    if (core->next_block % L->block_chunk == 0) /* on to its next chunk */
        core->next_block += (uint64_t)(dev->cfg.cores - 1) * L->block_chunk;
    /* Cores on several host threads do not share a counter per block: the
     * launch's count is summed from theirs when they stop (parallel.c). */
    if (!dev->par_active) L->next_block++;
    return 1;
}

static uint32_t place_blocks(ws_device *dev, const uint8_t *only, uint32_t c_lo, uint32_t c_hi)
{
    ws_grid_run *L = dev->current;
    uint32_t placed = 0, slots = dev->cores[0].nblock_slots; /* the same on every core */
    int refused = 0; /* a debug machine halted the work distributor with a slot free */
    for (uint32_t s = 0; s < slots && (L->per_core_order || L->next_block < L->total_blocks); s++)
        for (uint32_t c = c_lo; c < c_hi; c++) {
            ws_core *core = &dev->cores[c];
            ws_block *b = &core->blocks[s];
            uint64_t linear;
            if ((only && !only[c]) || b->in_use) continue; /* other cores may be running */
            if (!ws_ev_wd_may_place(dev)) { refused = 1; goto done; } /* halted by a debug machine */
            if (!take_block(dev, L, core, &linear)) continue; /* (a step is for a block placed, not a core looked at) */
            ws_ev_wd_placed(dev);
            memset(b, 0, sizeof *b);
            b->in_use = 1;
            b->core = c;
            b->linear = linear;
            block_coords(L, b->linear, &b->idx);
            b->nwarps = L->warps_per_block;
            b->first_slot = s * L->warps_per_block;
            b->shared_off = s * ((L->shared_total + 15u) & ~15u);
            /* While cores run in parallel, the core's own thread sets the
             * block up before its next round (src/device/parallel.c). */
            if (dev->par_active) b->init_pending = 1, core->init_pending = 1;
            else init_block(dev, L, core, b);
            if (c < WS_STATS_MAX_CORES) (dev->par_active ? &core->part : &L->stats)->core_blocks[c]++;
            placed++;
        }
done:
    if (dev->events) { /* a stall is reported when it begins, not every round */
        /* Blocks wait when some are left and every slot looked at is taken
         * (timing mode places only at releases, and each fills the slot:
         * "placed nothing" never held there). A dispatch ends a stall, so
         * one that leaves every slot taken begins the next. */
        int free_slot = 0;
        for (uint32_t c = c_lo; c < c_hi && !free_slot; c++)
            for (uint32_t s = 0; s < slots && !free_slot; s++) free_slot = !dev->cores[c].blocks[s].in_use;
        /* (a distributor a machine halted waits for the machine, not for room) */
        int stalled = !refused && L->next_block < L->total_blocks && (!placed || !free_slot);
        if (stalled && (!dev->events->stalled || placed))
            ws_ev_emit(dev, WS_EV_WD, WS_EV_WD_STALL, 0,
                       (uint32_t)((L->total_blocks - L->next_block) & 0x3FFFFFFFu) | (L->slots_by_shared ? 2u : 1u) << 30);
        dev->events->stalled = stalled;
    }
    return placed;
}

void ws_block_release(ws_device *dev, ws_block *b)
{
    ws_core *core = &dev->cores[b->core];
    for (uint32_t i = 0; i < b->nwarps; i++) core->warps[b->first_slot + i].active = 0;
    b->in_use = 0;
    if (!b->live_lanes) /* finished, not cleared away after a failed launch */
        ws_ev_emit(dev, WS_EV_WD, WS_EV_WD_RETIRE, b->core, (uint32_t)b->linear);
    if (dev->par_active) /* summed when the cores stop; read meanwhile (parallel.c) */
        __atomic_store_n(&core->done_blocks, core->done_blocks + 1, __ATOMIC_RELAXED);
    else dev->current->done_blocks++;
}
