/* Event trace formatter and decoder (event_codec.h). Elias-gamma codes for
 * counts that are usually small; everything else predicted from the last
 * event of the same type. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "device/events/event_codec.h"

static const char *const names[WS_EV_SOURCES][16] = {
    { "cp.fetch", "cp.start", "cp.done", "cp.fence", "cp.wait", "cp.frame" },
    { "wd.dispatch", "wd.retire", "wd.stall" },
    { "sched.warp_start", "sched.warp_retire", "sched.barrier_wait", "sched.barrier_release", "sched.diverge",
      "sched.starve", "sched.reconverge" },
    { "mem.atomic", "mem.fault" },
    { "dbg.halt", "dbg.resume" },
};

const char *ws_event_name(unsigned source, unsigned id)
{
    if (source >= WS_EV_SOURCES || id >= 16 || !names[source][id]) return "unknown";
    return names[source][id];
}

/* ---- writing ---- */

/* n <= 56 bits at bit position w->bits, most significant first. Where
 * eight bytes fit, one big-endian read-modify-write (the bits after the new
 * ones become zero: the buffer is not cleared beforehand); fewer host
 * instructions per event than a byte at a time. */
static void put_short(ws_ev_writer *w, uint64_t v, unsigned n)
{
    size_t pos = (size_t)(w->bits >> 3);
    unsigned used = (unsigned)(w->bits & 7);
    v &= (1ull << n) - 1;
    if (pos + 8 <= w->cap_bits / 8) {
        uint64_t x;
        memcpy(&x, w->buf + pos, 8);
        x = used ? __builtin_bswap64(x) & (~0ull << (64 - used)) : 0;
        x = __builtin_bswap64(x | v << (64 - used - n));
        memcpy(w->buf + pos, &x, 8);
        w->bits += n;
        return;
    }
    while (n) { /* the buffer's last bytes: a byte at a time */
        unsigned take = 8 - used < n ? 8 - used : n;
        uint8_t *byte = &w->buf[w->bits >> 3];
        if (!used) *byte = 0;
        *byte |= (uint8_t)(((v >> (n - take)) & ((1u << take) - 1)) << (8 - used - take));
        w->bits += take;
        n -= take;
        used = 0;
    }
}

static int put_bits(ws_ev_writer *w, uint64_t v, unsigned n) /* n <= 64, most significant first */
{
    if (w->bits + n > w->cap_bits) return -1;
    if (!n) return 0;
    if (n > 56) {
        put_short(w, v >> 32, n - 32);
        n = 32;
    }
    put_short(w, v, n);
    return 0;
}

static int put_gamma(ws_ev_writer *w, uint64_t v) /* v >= 1 */
{
    unsigned n = 63 - (unsigned)__builtin_clzll(v);
    return put_bits(w, 0, n) || put_bits(w, v, n + 1);
}

static uint64_t zigzag(int64_t d) { return ((uint64_t)d << 1) ^ (uint64_t)(d >> 63); }

/* Data is predicted per type, and per core too for the per-core sources
 * (a scheduler's warp slots, a memory unit's addresses). */
static unsigned data_key(const ws_event *e)
{
    return e->source == WS_EV_SCHED || e->source == WS_EV_MEM ? e->core & 15u : 0;
}

typedef struct ws_ev_pred pred_t;

/* 11 last + 1 | 10 last | 001 + 2 bits: another recent value |
 * 01 + difference (gamma of the high part, kd low bits) | 000 + raw */
static int put_value(ws_ev_writer *w, const pred_t *p, uint32_t v, unsigned raw_bits)
{
    int64_t d = (int64_t)v - (int64_t)p->recent[0];
    unsigned hit = v == p->recent[1] ? 1 : v == p->recent[2] ? 2 : v == p->recent[3] ? 3 : 0;
    if (d == 1) return put_bits(w, 3, 2);
    if (d == 0) return put_bits(w, 2, 2);
    if (hit) return put_bits(w, 1, 3) || put_bits(w, hit - 1, 2);
    uint64_t z = zigzag(d);
    if ((z >> p->kd) < (1u << 10))
        return put_bits(w, 1, 2) || put_gamma(w, (z >> p->kd) + 1) || (p->kd && put_bits(w, z & ((1ull << p->kd) - 1), p->kd));
    return put_bits(w, 0, 3) || put_bits(w, v, raw_bits);
}

static void learn_value(pred_t *p, uint32_t v)
{
    uint64_t z = zigzag((int64_t)v - (int64_t)p->recent[0]);
    unsigned zb = z ? 64 - (unsigned)__builtin_clzll(z) : 0;
    p->kd = (uint8_t)(zb > 3 ? zb - 3 : 0);
    unsigned at = 3; /* move to front */
    for (unsigned i = 0; i < 4; i++)
        if (p->recent[i] == v) { at = i; break; }
    for (unsigned i = at; i > 0; i--) p->recent[i] = p->recent[i - 1];
    p->recent[0] = v;
}

static pred_t *preds(ws_ev_state *s, const ws_event *e) { return s->pred[e->source * 16u + e->id][data_key(e)]; }

/* Scheduler events whose data is a warp slot (low byte) and something else */
static int split_data(const ws_event *e)
{
    return e->source == WS_EV_SCHED &&
           (e->id == WS_EV_SCHED_DIVERGE || e->id == WS_EV_SCHED_BARRIER_WAIT || e->id == WS_EV_SCHED_RECONVERGE);
}

/* 1 same | 01 next | 001 core 0 (a round-robin wraps) | 000 + 16 bits */
static int put_core(ws_ev_writer *w, uint16_t last, uint16_t core)
{
    if (core == last) return put_bits(w, 1, 1);
    if (core == (uint16_t)(last + 1)) return put_bits(w, 1, 2);
    if (core == 0) return put_bits(w, 1, 3);
    return put_bits(w, 0, 3) || put_bits(w, core, 16);
}

/* The escape for a step back in time: a type code whose source (7) no
 * event has, id 0, then Elias-gamma of how far back (>= 1). The event
 * that follows is timed from there. */
enum { REWIND_SOURCE = 7, REWIND_ID = 0 };

/* The time an event's delta counts from: the previous event's, or, after
 * a step back, the event's own (a delta of 0). Both sides learn deltas
 * with this rule. */
static uint64_t delta_of(const ws_ev_state *s, uint64_t time) { return time >= s->time ? time - s->time : 0; }

static int encode(ws_ev_writer *w, const ws_event *e)
{
    ws_ev_state *s = &w->st;
    uint64_t at = w->bits;
    unsigned type = e->source * 16u + e->id, prev = s->source * 16u + s->id;
    if (e->time < s->time && (put_bits(w, 0, 2) || put_bits(w, REWIND_SOURCE, 3) || put_bits(w, REWIND_ID, 4) ||
                              put_gamma(w, s->time - e->time)))
        return -1;
    if (s->have_type && type == prev) {
        if (put_bits(w, 1, 1)) return -1;
    } else if (s->have_type && s->next[prev] == type + 1) {
        if (put_bits(w, 1, 2)) return -1;
    } else if (put_bits(w, 0, 2) || put_bits(w, e->source, 3) || put_bits(w, e->id, 4)) {
        return -1;
    }
    w->field_bits[0] += w->bits - at;
    at = w->bits;
    if (put_core(w, s->core[e->source], e->core)) return -1;
    w->field_bits[1] += w->bits - at;
    at = w->bits;
    uint64_t dt = delta_of(s, e->time);
    unsigned k = s->k[type];
    if (dt == s->dt[type] && dt) { /* 1: the same step as last time for this type */
        if (put_bits(w, 1, 1)) return -1;
    } else if (put_bits(w, 0, 1) || put_gamma(w, (dt >> k) + 1) || (k && put_bits(w, dt & ((1ull << k) - 1), k))) {
        return -1;
    }
    w->field_bits[2] += w->bits - at;
    at = w->bits;
    pred_t *p = preds(s, e);
    if (split_data(e)) {
        if (put_value(w, &p[0], e->data & 0xFFu, 8) || put_value(w, &p[1], e->data >> 8, 24)) return -1;
    } else if (put_value(w, &p[0], e->data, 32)) {
        return -1;
    }
    w->field_bits[3] += w->bits - at;
    return 0;
}

/* What both sides learn from an event (the predictions for the next ones). */
static void advance(ws_ev_state *s, const ws_event *e)
{
    unsigned type = e->source * 16u + e->id, prev = s->source * 16u + s->id;
    if (s->have_type && prev != type) s->next[prev] = (uint8_t)(type + 1); /* the next different type */
    uint64_t dt = delta_of(s, e->time);
    unsigned bits = dt ? 64 - (unsigned)__builtin_clzll(dt) : 0;
    s->k[type] = (uint8_t)(bits > 2 ? bits - 2 : 0); /* send all but the top two bits raw next time */
    s->dt[type] = dt;
    pred_t *p = preds(s, e);
    if (split_data(e)) {
        learn_value(&p[0], e->data & 0xFFu);
        learn_value(&p[1], e->data >> 8);
    } else {
        learn_value(&p[0], e->data);
    }
    s->have_type = 1;
    s->source = e->source;
    s->id = e->id;
    s->core[e->source] = e->core;
    s->time = e->time;
}

void ws_ev_write(ws_ev_writer *w, const ws_event *e)
{
    if (w->dropped) { w->dropped++; return; }
    /* no such event: not coded (the device never emits one), and no
     * reason to stop the trace */
    if (e->source >= WS_EV_SOURCES || e->id >= 16) { w->invalid++; return; }
    uint64_t at = w->bits;
    uint64_t fields[4];
    memcpy(fields, w->field_bits, sizeof fields);
    /* encode() reads the state and writes bits; advance() alone learns.
     * An event earlier than the last is no reason to drop it (until
     * 2026-11-27 it was dropped with every later one, and the watcher
     * said they "did not fit the trace buffer"): a step back is coded. */
    const int back = e->time < w->st.time;
    if (encode(w, e)) {
        /* does not fit: undo the partial event so the stream stays whole */
        if (at & 7) w->buf[at >> 3] &= (uint8_t)(0xFF00u >> (at & 7));
        w->bits = at;
        memcpy(w->field_bits, fields, sizeof fields);
        w->dropped++;
        return;
    }
    advance(&w->st, e);
    w->events++;
    w->rewinds += back;
}

/* ---- reading ---- */

typedef struct reader {
    const uint8_t *buf;
    uint64_t bits, at;
} reader;

static int get_bits(reader *r, unsigned n, uint64_t *v)
{
    if (r->at + n > r->bits) return -1;
    uint64_t x = 0;
    for (unsigned i = 0; i < n; i++, r->at++) x = x << 1 | ((r->buf[r->at >> 3] >> (7 - (r->at & 7))) & 1u);
    *v = x;
    return 0;
}

static int get_gamma(reader *r, uint64_t *v)
{
    unsigned n = 0;
    uint64_t b = 0;
    while (!get_bits(r, 1, &b) && !b) if (++n > 63) return -1;
    if (!b) return -1;
    uint64_t rest = 0;
    if (n && get_bits(r, n, &rest)) return -1;
    *v = (1ull << n) | rest;
    return 0;
}

static int get_value(reader *r, const pred_t *p, unsigned raw_bits, uint32_t *out)
{
    uint64_t v;
    if (get_bits(r, 2, &v)) return -1;
    if (v == 3) { *out = p->recent[0] + 1; return 0; }
    if (v == 2) { *out = p->recent[0]; return 0; }
    if (v == 1) {
        uint64_t z, low = 0;
        if (get_gamma(r, &z) || (p->kd && get_bits(r, p->kd, &low))) return -1;
        if (z - 1 > (UINT64_MAX >> (p->kd + 1))) return -2;
        z = ((z - 1) << p->kd) | low;
        int64_t d = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
        *out = (uint32_t)((int64_t)p->recent[0] + d);
        return 0;
    }
    if (get_bits(r, 1, &v)) return -1;
    if (v) {
        if (get_bits(r, 2, &v)) return -1;
        if (v > 2) return -2; /* only three other recent values */
        *out = p->recent[v + 1];
        return 0;
    }
    if (get_bits(r, raw_bits, &v)) return -1;
    *out = (uint32_t)v;
    return 0;
}

static int decode_one(reader *r, ws_ev_state *s, ws_event *e, int rewinds)
{
    uint64_t b, v, base = s->time;
again:
    if (get_bits(r, 1, &b)) return -1;
    if (b) {
        if (!s->have_type) return -2;
        e->source = s->source;
        e->id = s->id;
    } else if (get_bits(r, 1, &b)) {
        return -1;
    } else if (b) {
        unsigned nt = s->have_type ? s->next[s->source * 16u + s->id] : 0;
        if (!nt) return -2;
        e->source = (uint8_t)((nt - 1) / 16);
        e->id = (uint8_t)((nt - 1) % 16);
    } else {
        if (get_bits(r, 3, &v)) return -1;
        const int rewind = v == REWIND_SOURCE;
        if (v >= WS_EV_SOURCES && !rewind) return -2;
        e->source = (uint8_t)v;
        if (get_bits(r, 4, &v)) return -1;
        e->id = (uint8_t)v;
        if (rewind) { /* a step back in time, then the event (one step per event) */
            uint64_t back;
            if (!rewinds || v != REWIND_ID || base != s->time) return -2;
            if (get_gamma(r, &back)) return -1;
            if (back > base) return -2;
            base -= back;
            goto again;
        }
    }
    uint16_t last_core = s->core[e->source];
    if (get_bits(r, 1, &b)) return -1;
    if (b) e->core = last_core;
    else if (get_bits(r, 1, &b)) return -1;
    else if (b) e->core = (uint16_t)(last_core + 1);
    else if (get_bits(r, 1, &b)) return -1;
    else if (b) e->core = 0;
    else if (get_bits(r, 16, &v)) return -1;
    else e->core = (uint16_t)v;
    unsigned k = s->k[e->source * 16u + e->id];
    uint64_t low = 0, dt;
    if (get_bits(r, 1, &b)) return -1;
    if (b) {
        dt = s->dt[e->source * 16u + e->id];
        if (!dt) return -2;
    } else {
        if (get_gamma(r, &v) || (k && get_bits(r, k, &low))) return -1;
        if (v - 1 > (UINT64_MAX >> k)) return -2;
        dt = ((v - 1) << k) | low;
    }
    if (dt > UINT64_MAX - base) return -2; /* time never wraps */
    e->time = base + dt;
    pred_t *p = preds(s, e);
    uint32_t lo, hi;
    int rc;
    if (split_data(e)) {
        if ((rc = get_value(r, &p[0], 8, &lo)) || (rc = get_value(r, &p[1], 24, &hi))) return rc;
        if (lo > 0xFF || hi > 0xFFFFFF) return -2;
        e->data = lo | hi << 8;
    } else if ((rc = get_value(r, &p[0], 32, &e->data))) {
        return rc;
    }
    advance(s, e);
    return 0;
}

ws_status ws_events_decode(const uint8_t *bytes, size_t size, ws_event **out, size_t *count, char *err, size_t errlen)
{
    char scratch[256]; /* err is optional: without it the message is dropped */
    if (!err || !errlen) { err = scratch; errlen = sizeof scratch; }
    if (!out || !count) { snprintf(err, errlen, "ws_events_decode: %s is NULL", !out ? "out" : "count"); return WS_ERR_INVALID_ARG; }
    *out = NULL;
    *count = 0;
    uint16_t version;
    uint64_t events, bits;
    if (!bytes || size < WS_EV_HEADER || memcmp(bytes, "WSEV", 4)) {
        snprintf(err, errlen, "not a warpscope event trace (no WSEV header)");
        return WS_ERR_BAD_MODULE;
    }
    memcpy(&version, bytes + 4, 2);
    memcpy(&events, bytes + 8, 8);
    memcpy(&bits, bytes + 16, 8);
    if (version != WS_EV_VERSION && version != WS_EV_VERSION_REWIND) {
        snprintf(err, errlen, "event trace version %u; this decoder knows %u and %u", version, WS_EV_VERSION,
                 WS_EV_VERSION_REWIND);
        return WS_ERR_UNSUPPORTED;
    }
    /* An event takes at least 5 bits (same type, same core, the last time
     * step, a predicted value), so a header claiming more is corrupt. */
    if (bits > (uint64_t)(size - WS_EV_HEADER) * 8 || events > bits / 5 + 1) {
        snprintf(err, errlen, "truncated or corrupt: the header promises %llu events in %llu bits, the %zu bytes "
                 "after its %d-byte header hold %llu bits", (unsigned long long)events, (unsigned long long)bits,
                 size - WS_EV_HEADER, WS_EV_HEADER, (unsigned long long)(size - WS_EV_HEADER) * 8);
        return WS_ERR_BAD_MODULE;
    }
    ws_event *ev = malloc((events + 1) * sizeof *ev);
    if (!ev) { snprintf(err, errlen, "out of host memory"); return WS_ERR_OUT_OF_MEMORY; }
    reader r = { bytes + WS_EV_HEADER, bits, 0 };
    ws_ev_state st;
    memset(&st, 0, sizeof st);
    for (uint64_t i = 0; i < events; i++) {
        uint64_t at = r.at;
        int rc = decode_one(&r, &st, &ev[i], version == WS_EV_VERSION_REWIND);
        if (rc) {
            snprintf(err, errlen, "%s at event %llu (byte %llu of the stream)",
                     rc == -1 ? "truncated" : "corrupt", (unsigned long long)i, (unsigned long long)(WS_EV_HEADER + at / 8));
            free(ev);
            return WS_ERR_BAD_MODULE;
        }
    }
    if (r.at != r.bits) {
        snprintf(err, errlen, "corrupt: %llu bits follow the last event", (unsigned long long)(r.bits - r.at));
        free(ev);
        return WS_ERR_BAD_MODULE;
    }
    *out = ev;
    *count = (size_t)events;
    return WS_OK;
}
