/* Per-core trigger units (Sdtrig, mcontrol type 2): execute triggers mark
 * decoded-cache entries (WS_INST_TRAP) so only trapped PCs are checked;
 * they match one address (match 0) or an aligned power-of-two range (1);
 * load/store triggers are checked by the memory paths of a core only while
 * that core has one armed, with one warp-wide range test before any
 * per-lane test. Load/store triggers match an address (match 0), an
 * aligned power-of-two range (1), addresses >= or < tdata2 (2, 3); a
 * chain (chain = 1 on each trigger but the last) fires where all of its
 * triggers match the same access, so a >= and a < trigger watch any range;
 * an execute trigger may end such a chain (it then matches where the
 * chain's access is made by the instruction at its address). All triggers
 * fire before the instruction (timing=0) and enter debug mode (action=1);
 * an execute trigger with a condition (debug_cond.c) fires only for the
 * lanes that pass it. */
#include <string.h>
#include "device/debug/debug_internal.h"
#include "device/lane_io.h"

/* mcontrol fields (debug spec 0.13.2, XLEN=32) */
#define MC_TYPE(v)    ((v) >> 28)
#define MC_DMODE      (1u << 27)
#define MC_MASKMAX    (31u << 21)
#define MC_HIT        (1u << 20)
#define MC_ACTION_DM  (1u << 12)
#define MC_CHAIN      (1u << 11)
#define MC_MATCH(v)   (((v) >> 7) & 0xFu)
#define MC_M          (1u << 6)
#define MC_S          (1u << 4)
#define MC_U          (1u << 3)
#define MC_EXEC       (1u << 2)
#define MC_STORE      (1u << 1)
#define MC_LOAD       (1u << 0)
/* bits a debugger may set; the rest read as the fixed values above */
#define MC_WRITABLE   (MC_HIT | MC_CHAIN | (0xFu << 7) | MC_M | MC_S | MC_U | MC_EXEC | MC_STORE | MC_LOAD)

static int armed(uint32_t t1) { return MC_TYPE(t1) == 2 && (t1 & (MC_EXEC | MC_STORE | MC_LOAD)); }

/* Address range [lo, hi] (inclusive) a trigger matches; 0 if none (< 0). */
static int trig_range(uint32_t t1, uint32_t t2, uint32_t *lo, uint32_t *hi)
{
    switch (MC_MATCH(t1)) {
    case 1: { /* NAPOT: trailing ones give the size */
        uint32_t ones = (uint32_t)__builtin_ctz(~t2 | 0x80000000u);
        uint32_t mask = ones >= 31 ? UINT32_MAX : (2u << ones) - 1;
        *lo = t2 & ~mask;
        *hi = *lo + mask;
        return 1;
    }
    case 2: *lo = t2, *hi = UINT32_MAX; return 1;
    case 3: *lo = 0, *hi = t2 - 1; return t2 != 0;
    default: *lo = *hi = t2; return 1;
    }
}

static void recount(ws_debug *d, uint32_t core)
{
    dbg_core *c = &d->core[core];
    uint32_t n = 0;
    for (uint32_t i = 0; i < DBG_TRIGGERS; i++)
        if (armed(c->tdata1[i]) && (c->tdata1[i] & (MC_LOAD | MC_STORE))) n++;
    atomic_store_explicit(&c->ndata, n, memory_order_relaxed);
}

/* An armed execute trigger (t1, t2) matches the instruction at pc. */
static int exec_matches(uint32_t t1, uint32_t t2, uint32_t pc)
{
    uint32_t lo, hi;
    return armed(t1) && (t1 & MC_EXEC) && trig_range(t1, t2, &lo, &hi) && pc >= lo && pc <= hi;
}

int dbg_trig_exec_at(const ws_debug *d, uint32_t pc)
{
    for (uint32_t c = 0; c < d->dev->cfg.cores; c++)
        for (uint32_t i = 0; i < DBG_TRIGGERS; i++)
            if (exec_matches(d->core[c].tdata1[i], d->core[c].tdata2[i], pc)) return 1;
    return 0;
}

/* The decoded entries an execute trigger covers must be re-decoded when
 * the trigger changes (to gain or lose WS_INST_TRAP): its address, or
 * its range's part of the global arena (the only code the cache holds). */
static void exec_changed(ws_debug *d, uint32_t t1, uint32_t t2)
{
    uint32_t lo, hi;
    if (!armed(t1) || !(t1 & MC_EXEC) || !trig_range(t1, t2, &lo, &hi)) return;
    const uint64_t arena_end = WS_GLOBAL_BASE + ((uint64_t)d->dev->ncode_pages << 12);
    if (lo < WS_GLOBAL_BASE) lo = WS_GLOBAL_BASE;
    uint64_t end = (uint64_t)hi + 2; /* an instruction that begins at hi */
    if (end > arena_end) end = arena_end;
    if (lo < end) dbg_invalidate_locked(d, lo, (uint32_t)end);
}

int dbg_trig_csr(ws_debug *d, uint32_t core, uint32_t csr, int write, uint32_t *val)
{
    dbg_core *c = &d->core[core];
    uint32_t i = c->tselect;
    switch (csr) {
    case WS_CSR_TSELECT:
        if (write && *val < DBG_TRIGGERS) c->tselect = *val; /* WARL: others ignored */
        *val = c->tselect;
        return 0;
    case WS_CSR_TINFO:
        if (write) return -2;
        *val = 1u << 2; /* type 2 (mcontrol) only */
        return 0;
    case WS_CSR_TDATA1:
        if (write) {
            exec_changed(d, c->tdata1[i], c->tdata2[i]);
            uint32_t v = *val;
            /* type is WARL and tinfo says 2 only: any other type (0, or
             * one this unit lacks, as icount) leaves the trigger disabled,
             * not an mcontrol made of the other type's bits (until
             * 2026-11-29 type 3 with m and its count armed an execute
             * trigger; debug.trigger_type) */
            c->tdata1[i] = (2u << 28) | MC_DMODE | MC_MASKMAX | MC_ACTION_DM |
                           (MC_TYPE(v) == 2 ? v & MC_WRITABLE : 0);
            /* WARL: match 0..3 for loads and stores, 0..1 (one address, a
             * NAPOT range) for execute (a >= or < range would mark most
             * of the code); no chain from the last trigger or an execute
             * trigger */
            if (MC_MATCH(c->tdata1[i]) > ((c->tdata1[i] & MC_EXEC) ? 1u : 3u)) c->tdata1[i] &= ~(0xFu << 7);
            if (i == DBG_TRIGGERS - 1 || (c->tdata1[i] & MC_EXEC)) c->tdata1[i] &= ~MC_CHAIN;
            exec_changed(d, c->tdata1[i], c->tdata2[i]);
            recount(d, core);
        }
        /* a trigger never written still reads as an (idle) mcontrol: type
         * 0 would say that no trigger exists at this tselect */
        *val = c->tdata1[i] ? c->tdata1[i] : (2u << 28) | MC_DMODE | MC_MASKMAX | MC_ACTION_DM;
        return 0;
    case WS_CSR_TDATA2:
        if (write) {
            exec_changed(d, c->tdata1[i], c->tdata2[i]);
            c->tdata2[i] = *val;
            exec_changed(d, c->tdata1[i], c->tdata2[i]);
        }
        *val = c->tdata2[i];
        return 0;
    case WS_CSR_TDATA3: /* block select for load/store triggers */
        if (write) c->tdata3[i] = *val;
        *val = c->tdata3[i];
        return 0;
    }
    return -1;
}

void dbg_trig_clear_all_locked(ws_debug *d)
{
    for (uint32_t c = 0; c < d->dev->cfg.cores; c++) {
        for (uint32_t i = 0; i < DBG_TRIGGERS; i++) {
            exec_changed(d, d->core[c].tdata1[i], d->core[c].tdata2[i]);
            d->core[c].tdata1[i] = d->core[c].tdata2[i] = 0;
            d->core[c].ncond[i] = 0;
        }
        atomic_store_explicit(&d->core[c].ndata, 0, memory_order_relaxed);
        d->core[c].tselect = 0;
    }
}

void ws_dbg_decoded(ws_device *dev, uint32_t pc, ws_inst *in)
{
    ws_debug *d = dev->debug;
    pthread_mutex_lock(&d->mu);
    if (atomic_load(&d->attached) && (dbg_trig_exec_at(d, pc) || dbg_shadow_wants(d, pc, in->op))) in->op |= WS_INST_TRAP;
    pthread_mutex_unlock(&d->mu);
}

int ws_dbg_exec_watched(ws_device *dev, uint32_t pc)
{
    ws_debug *d = dev->debug;
    pthread_mutex_lock(&d->mu);
    const int w = atomic_load(&d->attached) && dbg_trig_exec_at(d, pc);
    pthread_mutex_unlock(&d->mu);
    return w;
}

/* Trigger i ends a chain of more than one trigger (the one before it has
 * chain = 1). An execute trigger doing so matches only with the load/store
 * triggers before it, at the access (ws_dbg_data_hit), never alone. */
static int chained_on(const dbg_core *c, uint32_t i) { return i > 0 && (c->tdata1[i - 1] & MC_CHAIN); }

int ws_dbg_exec_hit(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t pc)
{
    ws_debug *d = dev->debug;
    dbg_warp *dw = &d->w[dbg_widx(d, w)];
    if (!atomic_load(&d->attached)) return 0;
    if (d->shadow_armed) dbg_shadow_exec(d, w, in, g, pc); /* counts, never halts */
    if (w->instret == dw->skip_instret || atomic_load(&d->observe_only)) return 0;
    pthread_mutex_lock(&d->mu);
    dbg_core *c = &d->core[w->core];
    int hit = 0;
    uint32_t fire = 0; /* the lanes whose condition holds */
    for (uint32_t i = 0; i < DBG_TRIGGERS && !hit; i++)
        if (exec_matches(c->tdata1[i], c->tdata2[i], pc) && !chained_on(c, i) &&
            (fire = dbg_cond_lanes_locked(d, w, i, g, pc))) {
            c->tdata1[i] |= MC_HIT;
            hit = 1;
        }
    if (hit) {
        dw->has_hit = 1;
        dw->hit_lane = (uint32_t)__builtin_ctz(fire);
        dw->hit_rest = 0;
        dw->hit_exec = 1;
        dw->hit_addr = pc;
        dw->pend_cause = WS_DCSR_CAUSE_TRIGGER;
        dw->pend_lane = dw->hit_lane;
    }
    pthread_mutex_unlock(&d->mu);
    return hit;
}

/* The lanes of g whose compare-and-swap or store-conditional will store:
 * the instruction run in lane order on a copy (a lane's store can make
 * a later lane's compare fail or succeed), reading memory without side
 * effects. A lane whose access would fault stores nothing, nor do the
 * lanes after it (the instruction stops there). Other instructions: g. */
static uint32_t storing_lanes(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g)
{
    if (in->op != OP_AMOCAS_W && in->op != OP_AMOCAS_D && in->op != OP_SC_W) return g;
    struct { uint32_t addr, v; } wrote[2 * WS_MAX_LANES]; /* words stored so far, latest last */
    uint32_t nw = 0, out = 0, (*x)[WS_MAX_LANES] = w->x;
    const int dw = in->op == OP_AMOCAS_D;
    for (uint32_t m = g; m; m &= m - 1) {
        uint32_t l = (uint32_t)__builtin_ctz(m), a = x[in->rs1][l], cur[2] = { 0, 0 };
        for (int k = 0; k <= dw; k++) {
            uint32_t wa = a + 4u * (uint32_t)k, found = 0;
            for (uint32_t i = nw; i-- > 0 && !found;)
                if (wrote[i].addr == wa) cur[k] = wrote[i].v, found = 1;
            const uint32_t *p = found ? NULL : ws_lane_xlate(dev, w, l, w->group_pc, wa, 4, 1, 0);
            if (!found && !p) return out; /* this lane faults */
            if (!found) memcpy(&cur[k], p, 4);
        }
        const uint32_t rd = in->rd, rs2 = in->rs2;
        int ok = in->op == OP_SC_W
                     ? (w->resv_valid >> l & 1) && w->resv_addr[l] == a && cur[0] == w->resv_val[l]
                     : cur[0] == (rd ? x[rd][l] : 0) && (!dw || cur[1] == (rd ? x[rd + 1][l] : 0));
        if (!ok) continue;
        out |= 1u << l;
        wrote[nw].addr = a, wrote[nw++].v = rs2 ? x[rs2][l] : 0;
        if (dw) wrote[nw].addr = a + 4, wrote[nw++].v = rs2 ? x[rs2 + 1][l] : 0;
    }
    return out;
}

/* Trigger i, inside a chain that has load/store triggers before it, is an
 * execute trigger on the instruction at pc, which is making the access
 * (debug spec: a chain fires when all of its triggers match on the same
 * instruction). */
static int exec_in_chain(const dbg_core *c, uint32_t i, uint32_t pc)
{
    return exec_matches(c->tdata1[i], c->tdata2[i], pc);
}

int ws_dbg_data_hit(ws_device *dev, ws_warp *w, const ws_inst *in, uint32_t g, uint32_t size, int rw)
{
    ws_debug *d = dev->debug;
    dbg_core *c = &d->core[w->core];
    /* a trigger armed meanwhile applies from the next access on */
    if (!atomic_load_explicit(&c->ndata, memory_order_relaxed) || !atomic_load(&d->attached) ||
        atomic_load(&d->observe_only))
        return 0;
    dbg_warp *dw = &d->w[dbg_widx(d, w)];
    if (w->instret == dw->skip_instret && dw->skip_data) return 0;
    const uint32_t *base = w->x[in->rs1], imm = (uint32_t)in->imm, pc = w->group_pc;
    uint32_t amin = UINT32_MAX, amax = 0;
    for (uint32_t m = g; m; m &= m - 1) {
        uint32_t a = base[__builtin_ctz(m)] + imm;
        if (a < amin) amin = a;
        if (a > amax) amax = a;
    }
    pthread_mutex_lock(&d->mu);
    int hit = 0;
    for (uint32_t i = 0, last; i < DBG_TRIGGERS && !hit; i = last + 1) {
        /* triggers i..last: one chain (most often one trigger). Each must
         * be armed for this access and match it on its own (debug spec:
         * a chain fires when all its triggers match the same access); their
         * ranges need not meet (two exact bytes of one word, a >= above a
         * <). lo/hi: where they do meet, for the address reported. */
        uint32_t tl[DBG_TRIGGERS], th[DBG_TRIGGERS], n = 0, match = 1, lo = 0, hi = UINT32_MAX;
        uint32_t exec_lanes = g; /* an execute trigger ending the chain: the lanes its condition lets fire */
        for (last = i;; last++) {
            uint32_t t1 = c->tdata1[last], t3 = c->tdata3[last], l = 0, h = UINT32_MAX;
            if (last > i && exec_in_chain(c, last, pc)) {
                exec_lanes &= dbg_cond_lanes_locked(d, w, last, g, pc);
                break; /* it ends the chain: chain is WARL 0 with execute */
            }
            if (!armed(t1) || !(t1 & ((rw & 1 ? MC_LOAD : 0) | (rw & 2 ? MC_STORE : 0))) ||
                ((t3 & WS_TDATA3_BLOCK) && w->block->linear != (t3 & ~WS_TDATA3_BLOCK)) ||
                !trig_range(t1, c->tdata2[last], &l, &h))
                match = 0;
            /* warp-wide: no lane's access overlaps this trigger's range */
            else if (amax + (size - 1) < l || amin > h)
                match = 0;
            tl[n] = l, th[n++] = h;
            if (l > lo) lo = l;
            if (h < hi) hi = h;
            if (!(t1 & MC_CHAIN) || last == DBG_TRIGGERS - 1) break;
        }
        if (!match || !exec_lanes) continue;
        /* The lanes whose access touches every range of the chain, reported one at a time
         * in lane order, the order in which they access memory: the lane
         * named is the first of them (for a store trigger the first that
         * stores: a compare-and-swap or store-conditional stores only
         * where it succeeds; the first touching lane if none will), and
         * the later ones are recorded (hit_rest) so that a debugger can
         * step the named lane alone over the access, see its own value,
         * and meet the trigger again for the rest. Naming one lane for
         * the whole instruction hid the other lanes' accesses (a whole
         * warp storing to one word: a condition on the thread could never
         * hold). */
        int store_trig = (rw & 2) != 0;
        for (uint32_t j = i; j <= last; j++) store_trig &= (c->tdata1[j] & MC_STORE) != 0;
        uint32_t touch = 0;
        for (uint32_t m = exec_lanes; m; m &= m - 1) {
            uint32_t l = (uint32_t)__builtin_ctz(m), a = base[l] + imm, all = 1;
            for (uint32_t k = 0; k < n && all; k++) all = a + (size - 1) >= tl[k] && a <= th[k];
            if (all) touch |= 1u << l;
        }
        if (!touch) continue;
        uint32_t stores = store_trig ? storing_lanes(dev, w, in, g) & touch : 0;
        uint32_t l = (uint32_t)__builtin_ctz(stores ? stores : touch), a = base[l] + imm;
        for (uint32_t j = i; j <= last; j++) c->tdata1[j] |= MC_HIT;
        dw->has_hit = 1;
        dw->hit_lane = l;
        dw->hit_rest = touch & ~(l == 31 ? UINT32_MAX : (2u << l) - 1);
        dw->hit_exec = 0;
        /* a watched byte, where the debugger looks: the access's first
         * byte in every range of the chain, or, where the ranges do not
         * meet within it, its first byte in any of them */
        if (lo <= hi && a + (size - 1) >= lo && a <= hi) dw->hit_addr = a < lo ? lo : a;
        else {
            uint32_t first = UINT32_MAX;
            for (uint32_t k = 0; k < n; k++) {
                uint32_t f = a < tl[k] ? tl[k] : a;
                if (f < first) first = f;
            }
            dw->hit_addr = first;
        }
        hit = 1;
    }
    if (hit) {
        dw->pend_cause = WS_DCSR_CAUSE_TRIGGER;
        dw->pend_lane = dw->hit_lane;
    }
    pthread_mutex_unlock(&d->mu);
    return hit;
}

ws_status ws_debug_trigger_hit(ws_debug *d, uint32_t hart, uint32_t *lane_hart, uint32_t *addr)
{
    return ws_debug_trigger_hit_lanes(d, hart, lane_hart, addr, NULL);
}

ws_status ws_debug_trigger_hit_lanes(ws_debug *d, uint32_t hart, uint32_t *lane_hart, uint32_t *addr,
                                     uint32_t *rest)
{
    if (!d || !addr) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    ws_status st = WS_OK;
    if (!d->dev || hart >= d->nharts) st = dbg_fail(d, WS_ERR_INVALID_ARG, "hart %u does not exist", hart);
    else {
        const dbg_warp *dw = &d->w[hart / d->lanes];
        if (dw->state != DW_HALTED || dw->cause != WS_DCSR_CAUSE_TRIGGER || !dw->has_hit)
            st = dbg_fail(d, WS_ERR_NOT_FOUND, "hart %u is not halted on a trigger", hart);
        else {
            *addr = dw->hit_addr;
            if (lane_hart) *lane_hart = hart / d->lanes * d->lanes + dw->hit_lane;
            if (rest) *rest = dw->hit_rest;
        }
    }
    pthread_mutex_unlock(&d->mu);
    return st;
}
