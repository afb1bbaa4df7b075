/* The debug machines' registers on the debug bus (vendor DMI registers
 * 0x71..0x73, docs/debug-hardware.md): a tool stages a machine program word
 * by word and loads it; the device takes it at its next safe point. Word
 * layout (ws_debug_machine_words): 0: enabled | nwatch << 8 | nactions << 16;
 * per watch instruction 10 words: source | id << 8 | core << 16, match,
 * mask, value, hi, repeat, window low/high, lasting low/high; per action 2 words:
 * kind, arg. */
#include <string.h>
#include "device/debug/debug_internal.h"
#include "device/events/event_bus.h"

enum { WORDS_PER_WATCH = 10, HEADER_WORDS = 1 };

uint32_t ws_debug_machine_words(const ws_machine_program *p, uint32_t *out, uint32_t max)
{
    uint32_t n = 0;
#define PUT(v) do { if (n < max) out[n] = (v); n++; } while (0)
    PUT((uint32_t)(p->enabled != 0) | p->nwatch << 8 | p->nactions << 16);
    for (uint32_t i = 0; i < p->nwatch; i++) {
        const ws_watch *w = &p->watch[i];
        PUT((uint32_t)w->source | (uint32_t)w->id << 8 | (uint32_t)w->core << 16);
        PUT((uint32_t)w->match);
        PUT(w->mask);
        PUT(w->value);
        PUT(w->hi);
        PUT(w->repeat);
        PUT((uint32_t)w->window);
        PUT((uint32_t)(w->window >> 32));
        PUT((uint32_t)w->lasting);
        PUT((uint32_t)(w->lasting >> 32));
    }
    for (uint32_t i = 0; i < p->nactions; i++) {
        PUT((uint32_t)p->actions[i].kind);
        PUT(p->actions[i].arg);
    }
#undef PUT
    return n;
}

const char *ws_debug_machine_program_only_action(const ws_machine_program *p)
{
    for (uint32_t i = 0; i < p->nactions; i++) {
        switch (p->actions[i].kind) {
        case WS_ACT_TRACE_START: return "trace.start";
        case WS_ACT_TRACE_STOP: return "trace.stop";
        case WS_ACT_TRACE_SNAPSHOT: return "trace.snapshot";
        case WS_ACT_CALLBACK: return "print";
        default: break;
        }
    }
    return NULL;
}

/* The staged words as a program; -1 when they do not describe one. */
static int parse_words(const uint32_t *w, uint32_t n, ws_machine_program *p)
{
    memset(p, 0, sizeof *p);
    if (n < HEADER_WORDS) return -1;
    p->enabled = w[0] & 1;
    p->nwatch = w[0] >> 8 & 0xFF;
    p->nactions = w[0] >> 16 & 0xFF;
    if (!p->nwatch || p->nwatch > WS_EV_MAX_WATCH || p->nactions > WS_EV_MAX_ACTIONS ||
        n < HEADER_WORDS + p->nwatch * WORDS_PER_WATCH + 2 * p->nactions)
        return -1;
    const uint32_t *x = w + HEADER_WORDS;
    for (uint32_t i = 0; i < p->nwatch; i++, x += WORDS_PER_WATCH) {
        ws_watch *wt = &p->watch[i];
        wt->source = (uint8_t)x[0];
        wt->id = (uint8_t)(x[0] >> 8);
        wt->core = (uint16_t)(x[0] >> 16);
        if (wt->source >= WS_EV_SOURCES || wt->id >= 16 || x[1] > WS_MATCH_RANGE) return -1;
        wt->match = (ws_match)x[1];
        wt->mask = x[2];
        wt->value = x[3];
        wt->hi = x[4];
        wt->repeat = x[5];
        wt->window = x[6] | (uint64_t)x[7] << 32;
        wt->lasting = x[8] | (uint64_t)x[9] << 32;
        if ((wt->lasting && !ws_ev_has_duration(wt->source, wt->id)) || (!i && wt->window))
            return -1; /* means nothing there (as ws_events_machine refuses it) */
    }
    for (uint32_t i = 0; i < p->nactions; i++, x += 2) {
        if (x[0] > WS_ACT_TRACE_SNAPSHOT || (x[0] == WS_ACT_ENABLE && x[1] >= WS_EV_MACHINES)) return -1;
        p->actions[i].kind = (ws_action_kind)x[0];
        p->actions[i].arg = x[1];
    }
    return ws_debug_machine_program_only_action(p) ? -1 : 0;
}

void dbg_machines_publish_locked(ws_debug *d)
{
    const struct ws_events *e = d->dev ? d->dev->events : NULL;
    d->nmachines_seen = 0;
    d->wd_held_seen = e && e->wd_halt.halted[WS_EV_DEBUGGER];
    d->cp_held_seen = e && e->cp_halt.halted[WS_EV_DEBUGGER];
    for (unsigned i = 0; e && i < WS_EV_MACHINES; i++) {
        const ws_machine *m = &e->machine[i];
        if (!m->p.nwatch) continue; /* never loaded, or unloaded */
        d->machines_seen[d->nmachines_seen++] = (ws_dbg_machine){
            .index = i, .debugger = ws_ev_debugger_holds(e, i), .program = m->p, .status = m->st };
    }
}

ws_status ws_debug_machines(ws_debug *d, ws_dbg_machine *out, size_t max, size_t *n)
{
    if (!d || !n || (max && !out)) return WS_ERR_INVALID_ARG;
    pthread_mutex_lock(&d->mu);
    size_t k = 0;
    for (uint32_t i = 0; i < d->nmachines_seen; i++, k++)
        if (k < max) out[k] = d->machines_seen[i];
    for (uint32_t i = 0; i < d->nmachine_q; i++, k++)
        if (k < max) out[k] = (ws_dbg_machine){ .index = i, .debugger = 1, .queued = 1, .program = d->machine_q[i] };
    *n = k;
    pthread_mutex_unlock(&d->mu);
    return WS_OK;
}

/* EVSEL (0x71): bits 15:8 the staged word EVDATA reaches next. */
/* EVDATA (0x72): the selected staged word; the index moves on by one. */
/* EVCTL (0x73): write 1 = load the staged program into the first machine
 * free for the debugger (at the device's next safe point), 2 = unload the
 * debugger's machines (the program's stay), 4 = clear the staging area,
 * 8 = release the wd/cp halts the debugger's machines caused (they stay
 * loaded and armed);
 * read: bit 0 the last load was refused (bad program, an action on the
 * program's trace or callback, or queue full), bit 1 the debugger's
 * machines held the work distributor halted and bit 2 the command
 * processor, as the device last showed them (at its last stop), bits 15:8
 * programs queued. */
void dbg_machines_read_locked(ws_debug *d, uint32_t addr, uint32_t *v)
{
    switch (addr) {
    case WS_DM_EVSEL: *v = d->ev_index << 8; break;
    case WS_DM_EVDATA: *v = d->ev_index < DBG_EV_WORDS ? d->ev_words[d->ev_index] : 0; d->ev_index++; break;
    case WS_DM_EVCTL:
        *v = (uint32_t)d->ev_refused | (uint32_t)d->wd_held_seen << 1 | (uint32_t)d->cp_held_seen << 2 |
             d->nmachine_q << 8;
        break;
    default: *v = 0;
    }
}

void dbg_machines_write_locked(ws_debug *d, uint32_t addr, uint32_t v)
{
    switch (addr) {
    case WS_DM_EVSEL: d->ev_index = v >> 8 & 0xFF; break;
    case WS_DM_EVDATA:
        if (d->ev_index < DBG_EV_WORDS) d->ev_words[d->ev_index] = v;
        d->ev_index++;
        if (d->ev_index > d->ev_n) d->ev_n = d->ev_index;
        break;
    case WS_DM_EVCTL: {
        if (v & 4) {
            memset(d->ev_words, 0, sizeof d->ev_words);
            d->ev_n = d->ev_index = 0;
        }
        if (v & 8) {
            d->machine_resume = 1;
            atomic_store(&d->attention, 1);
        }
        if (v & 2) {
            d->machine_clear = 1;
            d->nmachine_q = 0;
            atomic_store(&d->attention, 1);
        }
        if (v & (8 | 2)) pthread_cond_broadcast(&d->app_cv); /* a program waiting on the halt goes on */
        if (v & 1) {
            ws_machine_program p;
            d->ev_refused = parse_words(d->ev_words, d->ev_n, &p) || d->nmachine_q == WS_EV_MACHINES;
            if (!d->ev_refused) {
                d->machine_q[d->nmachine_q++] = p;
                atomic_store(&d->attention, 1);
            }
        }
        break;
    }
    default: break;
    }
}
