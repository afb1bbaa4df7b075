/* Trigger condition unit (debug.h, ws_debug_trigger_condition): each
 * execute trigger may carry condition programs that the core evaluates
 * for every lane of the warp reaching the trigger's address, before the
 * warp would halt. A warp none of whose lanes passes runs on: a
 * conditional breakpoint costs its stops, not a halt and a debugger round
 * trip per warp that passes by. */
#include <string.h>
#include "device/debug/agent_expr.h"
#include "device/debug/debug_internal.h"
#include "device/lane_io.h"

int dbg_cond_check_reg(void *user, uint32_t regno, uint32_t *out)
{
    (void)user;
    *out = regno;
    return !(regno <= 0xFFF || (regno >= 0x1000 && regno < 0x1040) ||
             (regno >= WS_REGNO_GFX_PIXEL_X && regno < WS_REGNO_GFX_END));
}

ws_status ws_debug_trigger_condition(ws_debug *d, uint32_t core, uint32_t trigger, const ws_dbg_cond *conds,
                                     size_t n)
{
    if (!d || (n && !conds)) return WS_ERR_INVALID_ARG;
    uint8_t buf[DBG_COND_BYTES];
    uint16_t lens[WS_DBG_COND_MAX];
    size_t total = 0;
    if (n > WS_DBG_COND_MAX) return dbg_fail(d, WS_ERR_UNSUPPORTED, "%zu conditions (at most %d)", n, WS_DBG_COND_MAX);
    for (size_t i = 0; i < n; i++) {
        if (!conds[i].code || !conds[i].len || conds[i].len > sizeof buf - total)
            return dbg_fail(d, WS_ERR_UNSUPPORTED, "conditions of %zu bytes and more do not fit the %d-byte condition RAM",
                            total + conds[i].len, DBG_COND_BYTES);
        memcpy(buf + total, conds[i].code, conds[i].len);
        if (ws_ax_map_regs(buf + total, conds[i].len, dbg_cond_check_reg, NULL))
            return dbg_fail(d, WS_ERR_UNSUPPORTED, "condition %zu: an opcode or register the condition unit lacks", i);
        lens[i] = (uint16_t)conds[i].len;
        total += conds[i].len;
    }
    pthread_mutex_lock(&d->mu);
    ws_status st = WS_OK;
    if (!d->dev || core >= d->dev->cfg.cores || trigger >= DBG_TRIGGERS) {
        st = dbg_fail(d, WS_ERR_INVALID_ARG, "no trigger %u on core %u", trigger, core);
    } else {
        dbg_core *c = &d->core[core];
        memcpy(c->cond[trigger], buf, total);
        memcpy(c->cond_len[trigger], lens, n * sizeof *lens);
        c->ncond[trigger] = (uint8_t)n;
    }
    pthread_mutex_unlock(&d->mu);
    return st;
}

typedef struct lane_env {
    ws_debug *d;
    ws_warp *w;
    uint32_t lane, pc;
} lane_env;

static int lane_reg(void *user, uint32_t regno, uint64_t *v)
{
    lane_env *e = user;
    uint32_t x;
    if (regno >= 0x1000 && regno < 0x1020) x = e->w->x[regno - 0x1000][e->lane];
    else if (regno >= 0x1020 && regno < 0x1040) x = e->w->f[regno - 0x1020][e->lane];
    else if (regno == WS_CSR_DPC) x = e->pc;
    else if (dbg_csr_value(e->d, e->w, e->lane, regno, &x)) return -1;
    *v = x;
    return 0;
}

static int lane_mem(void *user, uint32_t addr, uint8_t *buf, size_t n)
{
    lane_env *e = user;
    const uint8_t *p = ws_lane_xlate(e->d->dev, e->w, e->lane, e->pc, addr, (uint32_t)n, 0, 0);
    if (!p) return -1;
    memcpy(buf, p, n);
    return 0;
}

int dbg_cond_lane_true(ws_debug *d, ws_warp *w, uint32_t lane, uint32_t pc, const uint8_t *code, size_t len)
{
    lane_env e = { d, w, lane, pc };
    const ws_ax_env env = { &e, lane_reg, lane_mem };
    int64_t r = 0;
    /* a lane the program cannot be run for stops: the debugger decides */
    return ws_ax_eval(code, len, &env, &r) || r;
}

uint32_t dbg_cond_lanes_locked(ws_debug *d, ws_warp *w, uint32_t idx, uint32_t g, uint32_t pc)
{
    const dbg_core *c = &d->core[w->core];
    if (!c->ncond[idx]) return g;
    uint32_t fire = 0;
    for (uint32_t m = g; m; m &= m - 1) {
        uint32_t lane = (uint32_t)__builtin_ctz(m);
        size_t off = 0;
        for (uint32_t i = 0; i < c->ncond[idx]; i++) {
            if (dbg_cond_lane_true(d, w, lane, pc, c->cond[idx] + off, c->cond_len[idx][i])) {
                fire |= m & -m;
                break;
            }
            off += c->cond_len[idx][i];
        }
    }
    return fire;
}
