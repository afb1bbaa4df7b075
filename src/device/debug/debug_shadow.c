/* The shadow unit (debug.h): counts breakpoint hits, accesses to watched
 * ranges or one thread's instructions inside the instruction path and, at
 * the k-th, copies the warp's context into a shadow buffer without
 * halting anything. It only reads device state, so a run with it armed
 * has the schedule and results of a run without it. It sees instructions
 * through the execute-trap bit of decoded entries (WS_INST_TRAP), as
 * execute triggers do: an unarmed unit costs nothing, an armed one only
 * at the addresses it watches (every memory instruction while ranges are
 * watched, every address only during the launch of the thread it
 * follows). */
#include <stdlib.h>
#include <string.h>
#include "device/debug/agent_expr.h"
#include "device/debug/debug_internal.h"
#include "device/fast_exec.h"
#include "isa/amo.h"
#include "device/lane_io.h"
#include "gfx/gfx_device.h"

#define MAX_ENTRIES 16
#define COND_BYTES 4096

struct dbg_shadow {
    int armed;
    ws_shadow_arm a;
    ws_shadow_bp bps[WS_SHADOW_MAX_BPS];
    ws_shadow_watch watches[WS_SHADOW_MAX_WATCHES];
    uint8_t code[COND_BYTES];       /* the conditions' bytecode             */
    uint32_t entries[MAX_ENTRIES];  /* fragment shader entries (pixel_entry) */
    size_t nentries;
    uint32_t launch;                /* launches started since arming        */
    uint32_t draw0;                 /* draw id of the first draw since arming */
    int have_draw0;
    int trap_all;                   /* THREAD: its launch is running        */
    ws_shadow_result res;
    /* the snapshot */
    int have_state, have_mem;
    ws_shadow_state st;
    uint8_t *global, *gshadow;      /* [WS_GLOBAL_BASE, + gsize)            */
    uint32_t gsize, gcap, gscap;
    uint8_t *stacks;                /* lane l: stack_size bytes at l*size   */
    uint32_t stack_size, stack_slot0, stack_cap;
    uint8_t *shared;
    uint32_t shared_total, shared_lo, shared_cap;
    /* arm.split: the bytes the split instruction stores (up to 8 per lane):
     * their value after its lanes up to the split lane (part) and after
     * all of them (all) */
    struct split_byte { uint32_t addr; uint8_t pre, part, all; } split[WS_MAX_LANES * 8];
    size_t nsplit;
    ws_shadow_fault faults[WS_SHADOW_MAX_FAULTS];
    size_t nfaults;
};

static int dim_eq(ws_dim3 a, ws_dim3 b) { return a.x == b.x && a.y == b.y && a.z == b.z; }

/* Lane l of w runs thread th (of the launch running now). */
static int lane_is(const struct dbg_shadow *s, const ws_warp *w, uint32_t l, const ws_shadow_thread *th)
{
    return th->launch == s->launch && dim_eq(th->block, w->block->idx) && w->tid[0][l] == th->thread.x &&
           w->tid[1][l] == th->thread.y && w->tid[2][l] == th->thread.z;
}

/* Every decoded entry is dropped, so the next fetch decodes it again and
 * ws_dbg_decoded marks it for the unit as armed now (device idle). */
static void invalidate_all(ws_device *dev)
{
    for (uint32_t i = 0; i < dev->ncode_pages; i++)
        if (dev->code_pages[i]) memset(dev->code_pages[i], 0, 2048 * sizeof(ws_inst));
    ws_fast_flush(dev); /* blocks decoded from the dropped entries */
}

ws_status ws_debug_shadow_arm(ws_debug *d, const ws_shadow_arm *arm)
{
    if (!d || !arm) return WS_ERR_INVALID_ARG;
    if (arm->mode != WS_SHADOW_HITS && arm->mode != WS_SHADOW_THREAD)
        return dbg_fail(d, WS_ERR_INVALID_ARG, "shadow unit: unknown mode %d", (int)arm->mode);
    if (arm->nbps > WS_SHADOW_MAX_BPS || (arm->nbps && !arm->bps))
        return dbg_fail(d, WS_ERR_UNSUPPORTED, "shadow unit: %zu breakpoints (at most %d)", arm->nbps,
                        WS_SHADOW_MAX_BPS);
    if (arm->ncap && !arm->record) return dbg_fail(d, WS_ERR_INVALID_ARG, "shadow unit: no record buffer");
    if (arm->nwatches > WS_SHADOW_MAX_WATCHES || (arm->nwatches && !arm->watches))
        return dbg_fail(d, WS_ERR_UNSUPPORTED, "shadow unit: %zu watched ranges (at most %d)", arm->nwatches,
                        WS_SHADOW_MAX_WATCHES);
    for (size_t i = 0; i < arm->nwatches; i++) {
        const ws_shadow_watch *v = &arm->watches[i];
        if (!v->len || v->rw < 1 || v->rw > 3 || v->bind > 2 || (uint64_t)v->addr + v->len > (uint64_t)UINT32_MAX + 1)
            return dbg_fail(d, WS_ERR_INVALID_ARG, "shadow unit: watched range %zu (%u bytes at 0x%08x, rw %u, bind %u) is not valid",
                            i, v->len, v->addr, v->rw, v->bind);
    }
    pthread_mutex_lock(&d->mu);
    ws_status st = WS_OK;
    if (!d->dev) {
        st = dbg_fail(d, WS_ERR_INVALID_ARG, "shadow unit: the device was closed");
        goto out;
    }
    if (!d->shadow && !(d->shadow = calloc(1, sizeof *d->shadow))) {
        st = dbg_fail(d, WS_ERR_OUT_OF_MEMORY, "shadow unit: out of host memory");
        goto out;
    }
    struct dbg_shadow *s = d->shadow;
    size_t used = 0;
    for (size_t i = 0; i < arm->nbps; i++) {
        ws_shadow_bp *b = &s->bps[i];
        *b = arm->bps[i];
        if (b->nconds > WS_DBG_COND_MAX) {
            st = dbg_fail(d, WS_ERR_UNSUPPORTED, "shadow unit: breakpoint at 0x%08x has %zu conditions (at most %d)",
                          b->pc, b->nconds, WS_DBG_COND_MAX);
            goto out;
        }
        for (size_t c = 0; c < b->nconds; c++) {
            const ws_dbg_cond *in = &arm->bps[i].conds[c];
            if (!in->code || !in->len || in->len > COND_BYTES - used) {
                st = dbg_fail(d, WS_ERR_UNSUPPORTED, "shadow unit: conditions exceed %d bytes", COND_BYTES);
                goto out;
            }
            memcpy(s->code + used, in->code, in->len);
            if (ws_ax_map_regs(s->code + used, in->len, dbg_cond_check_reg, NULL)) {
                st = dbg_fail(d, WS_ERR_UNSUPPORTED,
                              "shadow unit: the condition of the breakpoint at 0x%08x uses an opcode or register the unit lacks",
                              b->pc);
                goto out;
            }
            b->conds[c].code = s->code + used;
            used += in->len;
        }
    }
    if (arm->nwatches) memcpy(s->watches, arm->watches, arm->nwatches * sizeof *arm->watches);
    s->a = *arm;
    s->a.bps = s->bps;
    s->a.watches = s->watches;
    s->nentries = 0;
    s->launch = 0;
    s->have_draw0 = arm->has_first_draw;
    s->draw0 = arm->has_first_draw ? (uint32_t)arm->first_draw : 0;
    s->trap_all = 0;
    memset(&s->res, 0, sizeof s->res);
    s->have_state = s->have_mem = 0;
    s->nsplit = 0;
    s->nfaults = 0;
    s->armed = d->shadow_armed = 1;
    invalidate_all(d->dev);
out:
    pthread_mutex_unlock(&d->mu);
    return st;
}

void ws_debug_shadow_disarm_locked(ws_debug *d)
{
    if (!d->shadow || !d->shadow->armed) return;
    d->shadow->armed = d->shadow_armed = 0;
    d->shadow->trap_all = 0;
    if (d->dev) invalidate_all(d->dev); /* no entry stays trapped for the unit */
}

ws_status ws_debug_shadow_disarm(ws_debug *d)
{
    if (!d) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    ws_debug_shadow_disarm_locked(d);
    pthread_mutex_unlock(&d->mu);
    return WS_OK;
}

ws_status ws_debug_set_observe_only(ws_debug *d, int on)
{
    if (!d) return WS_ERR_INVALID_ARG;
    atomic_store(&d->observe_only, on != 0);
    return WS_OK;
}

ws_status ws_debug_shadow_result(ws_debug *d, ws_shadow_result *out)
{
    if (!d || !out) return WS_ERR_INVALID_ARG;
    if (!d->shadow) return dbg_fail(d, WS_ERR_NOT_FOUND, "shadow unit: never armed");
    *out = d->shadow->res;
    return WS_OK;
}

ws_status ws_debug_shadow_state(ws_debug *d, const ws_shadow_state **out)
{
    if (!d || !out) return WS_ERR_INVALID_ARG;
    if (!d->shadow || !d->shadow->have_state) return dbg_fail(d, WS_ERR_NOT_FOUND, "shadow unit: no snapshot was taken");
    *out = &d->shadow->st;
    return WS_OK;
}

void dbg_shadow_free(ws_debug *d)
{
    struct dbg_shadow *s = d->shadow;
    if (!s) return;
    free(s->global);
    free(s->gshadow);
    free(s->stacks);
    free(s->shared);
    free(s);
    d->shadow = NULL;
}

/* Grow *buf to hold n bytes. */
static int reserve(uint8_t **buf, uint32_t *cap, uint32_t n)
{
    if (n <= *cap) return 0;
    uint8_t *p = realloc(*buf, n);
    if (!p) return -1;
    *buf = p;
    *cap = n;
    return 0;
}

static int copy_global(struct dbg_shadow *s, const ws_memory *m)
{
    uint32_t n = m->brk;
    if (reserve(&s->global, &s->gcap, n ? n : 1) || reserve(&s->gshadow, &s->gscap, n / 8 + 1)) return -1;
    memcpy(s->global, m->global, n);
    memcpy(s->gshadow, m->shadow, n / 8 + (n % 8 != 0));
    s->gsize = n;
    return 0;
}

static void snapshot(ws_debug *d, ws_warp *w, uint32_t g, uint32_t pc, uint32_t lane, uint64_t pos)
{
    struct dbg_shadow *s = d->shadow;
    ws_device *dev = d->dev;
    const ws_grid_run *L = dev->current;
    ws_shadow_state *o = &s->st;
    uint32_t nl = dev->cfg.lanes_per_warp;
    memset(o, 0, sizeof *o);
    o->pos = pos;
    o->lane = lane;
    o->thread_count = s->trap_all ? s->res.thread_total : 0;
    o->launch = s->launch;
    o->launch_id = L->id;
    snprintf(o->kernel, sizeof o->kernel, "%s", L->kernel_name ? L->kernel_name : "");
    o->grid = L->grid;
    o->block_dim = L->block;
    o->block = w->block->idx;
    o->core = w->core;
    o->warp = w->slot;
    o->lanes = nl;
    o->live = w->live;
    o->group = g;
    o->pc = pc;
    o->gfx_stage = L->gfx ? (L->gfx->fragment ? 2 : 1) : 0;
    o->draw = L->gfx ? L->draw_id - s->draw0 : 0;
    for (uint32_t l = 0; l < nl; l++) {
        for (int r = 0; r < 32; r++) {
            o->regs.x[r][l] = w->x[r][l];
            o->regs.f[r][l] = w->f[r][l];
        }
        o->regs.pc[l] = (g >> l & 1) ? pc : w->pc[l];
        o->regs.fflags[l] = w->fflags[l];
        o->regs.frm[l] = w->frm[l];
        o->thread[l] = (ws_dim3){ w->tid[0][l], w->tid[1][l], w->tid[2][l] };
        if (L->sysval && (w->live >> l & 1)) memcpy(o->sys[l], &L->sysval[ws_lane_grid_thread(L, w, l) * WS_GFX_SYSVALS], sizeof o->sys[l]);
    }
    /* memory: the used arena, the lanes' stacks, the block's shared memory */
    const ws_memory *m = &dev->mem;
    uint32_t stack_bytes = m->stack_size * nl;
    s->have_mem = !copy_global(s, m) && !reserve(&s->stacks, &s->stack_cap, stack_bytes) &&
                  !reserve(&s->shared, &s->shared_cap, L->shared_total ? L->shared_total : 1);
    if (!s->have_mem) return; /* out of host memory: no snapshot */
    s->stack_size = m->stack_size;
    s->stack_slot0 = w->stack_slot0;
    for (uint32_t l = 0; l < nl; l++)
        for (uint32_t off = 0; (w->live >> l & 1) && off < m->stack_size; off += 4)
            memcpy(s->stacks + (size_t)l * m->stack_size + off, ws_mem_stack_ptr(m, w->stack_slot0 + l, off), 4);
    s->shared_total = L->shared_total;
    s->shared_lo = L->shared_lo;
    if (L->shared_total) memcpy(s->shared, dev->cores[w->block->core].shared + w->block->shared_off, L->shared_total);
    s->have_state = 1;
    s->res.taken = 1;
}

static int mem_access(unsigned op, uint32_t *size, uint8_t *rw);

/* The snapshot's copy of the byte at addr (global memory, the block's
 * shared memory, a lane's stack), or NULL. */
static uint8_t *snap_byte(struct dbg_shadow *s, uint32_t addr)
{
    if (addr >= WS_GLOBAL_BASE && addr - WS_GLOBAL_BASE < s->gsize) return s->global + (addr - WS_GLOBAL_BASE);
    if (addr >= WS_SHARED_BASE && addr < WS_SHARED_END && addr - WS_SHARED_BASE - s->shared_lo < s->shared_total)
        return s->shared + (addr - WS_SHARED_BASE - s->shared_lo);
    if (ws_addr_in_stacks(addr) && s->stack_size) {
        uint32_t slot = (addr - WS_STACK_BASE) / s->stack_size;
        if (slot >= s->stack_slot0 && slot - s->stack_slot0 < s->st.lanes && (s->st.live >> (slot - s->stack_slot0) & 1))
            return s->stacks + (size_t)(slot - s->stack_slot0) * s->stack_size + (addr - WS_STACK_BASE) % s->stack_size;
    }
    return NULL;
}

static struct split_byte *split_at(struct dbg_shadow *s, uint32_t addr)
{
    for (size_t i = 0; i < s->nsplit; i++)
        if (s->split[i].addr == addr) return &s->split[i];
    return NULL;
}

/* arm.split's instruction, about to run (registers and memory as before
 * it): run its stores lane by lane on a copy of the bytes they touch, in
 * lane order as the device does, and keep each byte's value after the
 * split lane and after the last. Plain stores, store-conditional,
 * compare-and-swap and the AMOs; a lane whose access would fault stores
 * nothing, nor do the lanes after it. */
static void split_record(struct dbg_shadow *s, ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g,
                         uint32_t pc, int upto)
{
    const unsigned op = in ? in->op & ~WS_INST_TRAP : 0;
    uint32_t size = 0;
    uint8_t rw = 0;
    s->nsplit = 0;
    if (!in || !mem_access(op, &size, &rw) || !(rw & 2) || size > 8) return;
    uint8_t cur[WS_MAX_LANES * 8];
    for (uint32_t m = g; m; m &= m - 1) {
        const uint32_t l = (uint32_t)__builtin_ctz(m), a = w->x[in->rs1][l] + (uint32_t)in->imm;
        const uint8_t *mem = ws_lane_xlate(dev, w, l, pc, a, size, 0, 0);
        if (!mem) break;
        uint8_t old[8], nv[8];
        for (uint32_t b = 0; b < size; b++) {
            struct split_byte *e = split_at(s, a + b);
            if (!e) {
                if (s->nsplit >= sizeof s->split / sizeof *s->split) return;
                e = &s->split[s->nsplit];
                e->addr = a + b;
                e->pre = e->part = mem[b]; /* as before the instruction until a lane up to `upto` stores */
                cur[s->nsplit++] = mem[b];
            }
            old[b] = cur[e - s->split];
        }
        uint32_t o = 0, o2 = 0, v = in->rs2 ? w->x[in->rs2][l] : 0, v2 = in->rs2 ? w->x[in->rs2 + 1][l] : 0;
        memcpy(&o, old, 4 < size ? 4 : size);
        if (size == 8) memcpy(&o2, old + 4, 4);
        const uint32_t rd = in->rd ? w->x[in->rd][l] : 0, rd2 = in->rd ? w->x[in->rd + 1][l] : 0;
        int store = 1;
        switch (op) {
        case OP_FSW: v = w->f[in->rs2][l]; break;
        case OP_SC_W: store = (w->resv_valid >> l & 1) && w->resv_addr[l] == a && o == w->resv_val[l]; break;
        case OP_AMOCAS_W: store = o == rd; break;
        case OP_AMOCAS_D: store = o == rd && o2 == rd2; break;
        case OP_AMOFADD_D: case OP_AMOSWAP_D: case OP_AMOADD_D: case OP_AMOXOR_D: case OP_AMOAND_D: case OP_AMOOR_D:
        case OP_AMOMIN_D: case OP_AMOMAX_D: case OP_AMOMINU_D: case OP_AMOMAXU_D: {
            const uint64_t nv64 = ws_amo_dword((ws_op)op, o | (uint64_t)o2 << 32, v | (uint64_t)v2 << 32);
            v = (uint32_t)nv64, v2 = (uint32_t)(nv64 >> 32);
            break;
        }
        case OP_AMOADD_W: case OP_AMOXOR_W: case OP_AMOAND_W: case OP_AMOOR_W: case OP_AMOMIN_W:
        case OP_AMOMAX_W: case OP_AMOMINU_W: case OP_AMOMAXU_W: case OP_AMOFADD_S: v = ws_amo_word((ws_op)op, o, v); break;
        default: break; /* sb, sh, sw, amoswap: the register's value */
        }
        if (store) {
            memcpy(nv, &v, 4);
            memcpy(nv + 4, &v2, 4);
            for (uint32_t b = 0; b < size; b++) cur[split_at(s, a + b) - s->split] = nv[b];
        }
        if ((int)l <= upto)
            for (size_t i = 0; i < s->nsplit; i++) s->split[i].part = cur[i];
    }
    for (size_t i = 0; i < s->nsplit; i++) s->split[i].all = cur[i];
}

/* One counted event at pos (watch: 1 + the watched range a data event
 * hit, at data_addr; 0 for an instruction event). */
static void event(ws_debug *d, ws_warp *w, uint32_t g, uint32_t pc, uint32_t lane, uint64_t pos, uint32_t watch,
                  uint32_t data_addr)
{
    struct dbg_shadow *s = d->shadow;
    if (pos < s->a.after || (pos == s->a.after && !(watch && s->a.data_at_after))) return;
    uint64_t n = ++s->res.count;
    if (pos < s->a.before) {
        s->res.nbefore++;
        s->res.last_before = pos;
    }
    if (n <= s->a.ncap) s->a.record[n - 1] = pos;
    if (n == s->a.k) {
        snapshot(d, w, g, pc, lane, pos);
        s->st.watch = watch;
        s->st.data_addr = data_addr;
        /* arm.split: the later lanes' stores not made yet (where nothing
         * has stored since) */
        const int at_split = (pos >> 5) == (s->a.split >> 5); /* the copy is before that instruction */
        for (size_t i = 0; s->have_mem && s->a.split && pos > (s->a.split & ~(uint64_t)31) && i < s->nsplit; i++) {
            uint8_t *p = snap_byte(s, s->split[i].addr);
            if (p && *p == (at_split ? s->split[i].pre : s->split[i].all)) *p = s->split[i].part;
        }
    }
}

/* The bytes and direction of in's memory access, if it makes one (rw: 1
 * load, 2 store, 3 both: an atomic, but lr.w only loads and sc.w only
 * stores). */
static int mem_access(unsigned op, uint32_t *size, uint8_t *rw)
{
    if (!(*size = ws_op_mem_bytes((ws_op)op))) return 0;
    const ws_op_class c = ws_op_class_of((ws_op)op);
    *rw = c == CLASS_LOAD || op == OP_LR_W ? 1 : c == CLASS_STORE || op == OP_SC_W ? 2 : 3;
    return 1;
}

/* The watched range lane l's access [a, a + size) with direction rw hits
 * (1 + its index, and the first watched byte in *at), or 0. */
static uint32_t watch_hit(const struct dbg_shadow *s, const ws_warp *w, uint32_t l, uint32_t a, uint32_t size,
                          uint8_t rw, uint32_t *at)
{
    for (size_t i = 0; i < s->a.nwatches; i++) {
        const ws_shadow_watch *v = &s->watches[i];
        const uint64_t lo = v->addr, hi = lo + v->len; /* [lo, hi) */
        if (!(v->rw & rw) || (uint64_t)a + size <= lo || a >= hi) continue;
        if (v->bind == 1 && (v->thread.launch != s->launch || !dim_eq(v->thread.block, w->block->idx))) continue;
        if (v->bind == 2 && !lane_is(s, w, l, &v->thread)) continue;
        *at = a > lo ? a : (uint32_t)lo;
        return (uint32_t)i + 1;
    }
    return 0;
}

static int cond_holds(ws_debug *d, ws_warp *w, const ws_shadow_bp *b, uint32_t lane, uint32_t pc)
{
    if (b->one_thread && !lane_is(d->shadow, w, lane, &b->thread)) return 0;
    if (!b->nconds) return 1;
    for (size_t i = 0; i < b->nconds; i++)
        if (dbg_cond_lane_true(d, w, lane, pc, b->conds[i].code, b->conds[i].len)) return 1;
    return 0;
}

static int pixel_lane(const struct dbg_shadow *s, const ws_grid_run *L, const ws_warp *w, uint32_t l)
{
    if (!L->gfx || !L->gfx->fragment || !L->sysval) return 0;
    if (s->a.pixel_draw != UINT32_MAX && L->draw_id - s->draw0 != s->a.pixel_draw) return 0;
    const uint32_t *v = &L->sysval[ws_lane_grid_thread(L, w, l) * WS_GFX_SYSVALS];
    return v[0] == s->a.pixel_x && v[1] == s->a.pixel_y && !(v[2] & WS_GFX_FLAG_HELPER);
}

void dbg_shadow_exec(ws_debug *d, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc)
{
    struct dbg_shadow *s = d->shadow;
    const ws_grid_run *L = d->dev->current;
    if (!L) return;
    /* ws_warp_run counted this warp-instruction before trapping (a lane
     * retiring at WS_RETIRE_ADDR shares its `ret`'s number) */
    uint64_t winst = L->stats.warp_instructions;
    if (s->a.mode == WS_SHADOW_THREAD) {
        if (pc == WS_RETIRE_ADDR) return; /* retiring is not an instruction of the thread */
        if (!s->trap_all || !dim_eq(w->block->idx, s->a.thread.block)) return;
        if (s->a.split && WS_SHADOW_POS(s->launch, winst, 0) == (s->a.split & ~(uint64_t)31))
            split_record(s, d->dev, w, in, g, pc, (int)WS_SHADOW_POS_LANE(s->a.split) - (s->a.split_before ? 1 : 0));
        for (uint32_t m = g; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m);
            if (lane_is(s, w, l, &s->a.thread)) {
                s->res.thread_total++;
                event(d, w, g, pc, l, WS_SHADOW_POS(s->launch, winst, l), 0, 0);
                return;
            }
        }
        return;
    }
    const ws_shadow_bp *b = NULL;
    for (size_t i = 0; i < s->a.nbps && !b; i++)
        if (s->bps[i].pc == pc) b = &s->bps[i];
    int entry = s->a.pixel_entry && pc == L->entry && L->gfx && L->gfx->fragment;
    /* a memory access (registers as before the instruction): data events */
    uint32_t size = 0;
    uint8_t rw = 0;
    const int data = s->a.nwatches && in && mem_access(in->op & ~WS_INST_TRAP, &size, &rw);
    if (!b && !entry && !data) return;
    for (uint32_t m = g; m; m &= m - 1) { /* ascending lane order: one event per lane */
        uint32_t l = (uint32_t)__builtin_ctz(m), at = 0;
        /* (a watch is a request on an address: the pixel selects breakpoint lanes only) */
        const uint32_t watch = data ? watch_hit(s, w, l, w->x[in->rs1][l] + (uint32_t)in->imm, size, rw, &at) : 0;
        int pix = s->a.pixel ? pixel_lane(s, L, w, l) : 1;
        if (watch || (pix && ((entry && s->a.pixel) || (b && cond_holds(d, w, b, l, pc)))))
            event(d, w, g, pc, l, WS_SHADOW_POS(s->launch, winst, l), watch, at);
    }
}

/* The device thread, as w's fault ends its quantum (observe-only: the
 * launch ends with it): a debugger replaying the frame stops there, as
 * the live one halts the warp. */
void dbg_shadow_fault(ws_debug *d, ws_warp *w)
{
    struct dbg_shadow *s = d->shadow;
    const ws_fault *f = &d->dev->fault;
    if (!s || !s->armed || s->nfaults == WS_SHADOW_MAX_FAULTS) return;
    if (f->kind == FAULT_NONE || f->kind == FAULT_DEADLOCK || f->kind == FAULT_WATCHDOG || f->kind == FAULT_MACHINE ||
        f->kind == FAULT_INTERRUPTED) /* no lane's */
        return;
    ws_shadow_fault *o = &s->faults[s->nfaults++];
    memset(o, 0, sizeof *o);
    o->thread = (ws_shadow_thread){ s->launch, w->block->idx, f->thread };
    snprintf(o->kind, sizeof o->kind, "%s", ws_fault_kind_name(f->kind));
    ws_fault_format(d->dev, o->message, sizeof o->message);
}

ws_status ws_debug_shadow_faults(ws_debug *d, const ws_shadow_fault **out, size_t *n)
{
    if (!d || !out || !n) return WS_ERR_INVALID_ARG;
    *out = d->shadow ? d->shadow->faults : NULL;
    *n = d->shadow ? d->shadow->nfaults : 0;
    return WS_OK;
}

int dbg_shadow_wants(const ws_debug *d, uint32_t pc, unsigned op)
{
    const struct dbg_shadow *s = d->shadow;
    if (!s || !s->armed) return 0;
    if (s->trap_all) return 1;
    uint32_t size;
    uint8_t rw;
    if (s->a.mode == WS_SHADOW_HITS && s->a.nwatches && mem_access(op, &size, &rw)) return 1;
    for (size_t i = 0; i < s->a.nbps; i++)
        if (s->bps[i].pc == pc) return 1;
    for (size_t i = 0; i < s->nentries; i++)
        if (s->entries[i] == pc) return 1;
    return 0;
}

/* Launch start/end (device thread, locked): the launch ordinal; THREAD
 * mode traps every address during its thread's launch only; a fragment
 * launch's entry is trapped for pixel_entry. */
void dbg_shadow_launch(ws_debug *d, int start)
{
    struct dbg_shadow *s = d->shadow;
    if (!s || !s->armed) return;
    ws_device *dev = d->dev;
    if (!start) {
        if (s->trap_all) {
            s->trap_all = 0;
            invalidate_all(dev);
        }
        return;
    }
    s->launch++;
    const ws_grid_run *G = dev->current;
    if (G && G->gfx && !s->have_draw0) { /* draws are numbered from the first one seen */
        s->draw0 = G->draw_id;
        s->have_draw0 = 1;
    }
    if (s->a.mode == WS_SHADOW_THREAD && s->launch == s->a.thread.launch) {
        s->trap_all = 1;
        invalidate_all(dev);
    }
    const ws_grid_run *L = dev->current;
    if (s->a.pixel_entry && L && L->gfx && L->gfx->fragment) {
        size_t i = 0;
        while (i < s->nentries && s->entries[i] != L->entry) i++;
        if (i == s->nentries && i < MAX_ENTRIES) {
            s->entries[s->nentries++] = L->entry;
            ws_code_invalidate(dev, L->entry, 4);
        }
    }
}

ws_status ws_debug_shadow_capture_memory(ws_debug *d)
{
    if (!d) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    ws_status st = WS_OK;
    if (!d->dev) st = dbg_fail(d, WS_ERR_INVALID_ARG, "shadow unit: the device was closed");
    else if (!d->shadow && !(d->shadow = calloc(1, sizeof *d->shadow)))
        st = dbg_fail(d, WS_ERR_OUT_OF_MEMORY, "shadow unit: out of host memory");
    else {
        d->shadow->have_state = 0;
        d->shadow->have_mem = !copy_global(d->shadow, &d->dev->mem);
        if (!d->shadow->have_mem) st = dbg_fail(d, WS_ERR_OUT_OF_MEMORY, "shadow unit: out of host memory");
    }
    pthread_mutex_unlock(&d->mu);
    return st;
}

ws_status ws_debug_shadow_read(ws_debug *d, uint32_t lane, uint32_t addr, uint8_t *buf, size_t len)
{
    if (!d || (len && !buf)) return WS_ERR_INVALID_ARG;
    const struct dbg_shadow *s = d->shadow;
    if (!s || !s->have_mem) return dbg_fail(d, WS_ERR_NOT_FOUND, "shadow unit: no memory was copied");
    uint64_t end = (uint64_t)addr + len;
    if (addr >= WS_EXIT_STUB_BASE && end <= (uint64_t)WS_EXIT_STUB_BASE + WS_EXIT_STUB_SIZE) {
        const uint32_t rom[2] = { WS_EXIT_STUB_CALL, WS_EXIT_STUB_END };
        memcpy(buf, (const uint8_t *)rom + (addr - WS_EXIT_STUB_BASE), len);
        return WS_OK;
    }
    if (addr >= WS_GLOBAL_BASE && end <= (uint64_t)WS_GLOBAL_BASE + s->gsize) {
        uint32_t off = addr - WS_GLOBAL_BASE;
        for (uint64_t a = off & ~7u; a < off + len; a += 8) {
            uint8_t g = s->gshadow[a >> 3];
            if (g == SHADOW_NONE || g == SHADOW_FREED)
                return dbg_fail(d, WS_ERR_INVALID_ARG, "0x%08x: not addressable global memory", (uint32_t)(WS_GLOBAL_BASE + a));
        }
        memcpy(buf, s->global + off, len);
        return WS_OK;
    }
    if (!s->have_state) return dbg_fail(d, WS_ERR_INVALID_ARG, "0x%08x: not global memory (no thread is stopped)", addr);
    if (lane >= s->st.lanes || !(s->st.live >> lane & 1))
        return dbg_fail(d, WS_ERR_INVALID_ARG, "lane %u is not a live lane of the snapshot", lane);
    if (addr >= WS_STACK_BASE && end <= WS_STACK_END) {
        uint64_t lo = WS_STACK_BASE + (uint64_t)(s->stack_slot0 + lane) * s->stack_size;
        if (addr >= lo && end <= lo + s->stack_size) {
            memcpy(buf, s->stacks + (size_t)lane * s->stack_size + (addr - lo), len);
            return WS_OK;
        }
        return dbg_fail(d, WS_ERR_INVALID_ARG, "0x%08x: not the stack of lane %u", addr, lane);
    }
    if (addr >= WS_SHARED_BASE && end <= WS_SHARED_END) {
        uint64_t lo = WS_SHARED_BASE + (uint64_t)s->shared_lo;
        if (addr >= lo && end <= lo + s->shared_total) {
            memcpy(buf, s->shared + (addr - lo), len);
            return WS_OK;
        }
        return dbg_fail(d, WS_ERR_INVALID_ARG, "0x%08x: outside the block's %u bytes of shared memory", addr,
                        s->shared_total);
    }
    return dbg_fail(d, WS_ERR_INVALID_ARG, "0x%08x: not memory the stopped thread can address", addr);
}
