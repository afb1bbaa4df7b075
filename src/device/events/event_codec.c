/* Event trace formatter and decoder (event_codec.h). Elias-gamma codes for
 * counts that are usually small; everything else predicted from the last
 * event of the same type. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "device/events/event_codec.h"

static const char *const names[WS_EV_SOURCES][16] = {
    { "cp.fetch", "cp.start", "cp.done", "cp.fence" },
    { "wd.dispatch", "wd.retire", "wd.stall" },
    { "sched.warp_start", "sched.warp_retire", "sched.barrier_wait", "sched.barrier_release", "sched.diverge",
      "sched.starve" },
    { "mem.atomic", "mem.fault" },
    { "dbg.halt", "dbg.resume" },
};

const char *ws_event_name(unsigned source, unsigned id)
{
    if (source >= WS_EV_SOURCES || id >= 16 || !names[source][id]) return "unknown";
    return names[source][id];
}

/* ---- writing ---- */

static int put_bits(ws_ev_writer *w, uint64_t v, unsigned n) /* n <= 64, most significant first */
{
    if (w->bits + n > w->cap_bits) return -1;
    while (n) { /* a byte at a time */
        unsigned used = (unsigned)(w->bits & 7), take = 8 - used < n ? 8 - used : n;
        uint8_t *byte = &w->buf[w->bits >> 3];
        if (!used) *byte = 0; /* a fresh byte: the buffer is not cleared beforehand */
        *byte |= (uint8_t)(((v >> (n - take)) & ((1u << take) - 1)) << (8 - used - take));
        w->bits += take;
        n -= take;
    }
    return 0;
}

static int put_gamma(ws_ev_writer *w, uint64_t v) /* v >= 1 */
{
    unsigned n = 63 - (unsigned)__builtin_clzll(v);
    return put_bits(w, 0, n) || put_bits(w, v, n + 1);
}

static uint64_t zigzag(int64_t d) { return ((uint64_t)d << 1) ^ (uint64_t)(d >> 63); }

static int encode(ws_ev_writer *w, const ws_event *e)
{
    ws_ev_state *s = &w->st;
    unsigned type = e->source * 16u + e->id, prev = s->source * 16u + s->id;
    if (s->have_type && type == prev) {
        if (put_bits(w, 1, 1)) return -1;
    } else if (s->have_type && s->next[prev] == type + 1) {
        if (put_bits(w, 1, 2)) return -1;
    } else if (put_bits(w, 0, 2) || put_bits(w, e->source, 3) || put_bits(w, e->id, 4)) {
        return -1;
    }
    uint16_t *core = &s->core[e->source];
    if (e->core == *core) { if (put_bits(w, 1, 1)) return -1; }
    else if (e->core == (uint16_t)(*core + 1)) { if (put_bits(w, 1, 2)) return -1; }
    else if (put_bits(w, 0, 2) || put_bits(w, e->core, 16)) return -1;
    uint64_t dt = e->time - s->time;
    unsigned k = s->k[type];
    if (put_gamma(w, (dt >> k) + 1) || (k && put_bits(w, dt & ((1ull << k) - 1), k))) return -1;
    uint32_t last = s->data[type][e->core & 15];
    int64_t d = (int64_t)e->data - (int64_t)last;
    if (d == 1) { if (put_bits(w, 3, 2)) return -1; }
    else if (d == 0) { if (put_bits(w, 2, 2)) return -1; }
    else {
        uint64_t z = zigzag(d);
        unsigned kd = s->kd[type][e->core & 15];
        if ((z >> kd) < (1u << 10)) {
            if (put_bits(w, 1, 2) || put_gamma(w, (z >> kd) + 1) || (kd && put_bits(w, z & ((1ull << kd) - 1), kd)))
                return -1;
        } else if (put_bits(w, 0, 2) || put_bits(w, e->data, 32)) {
            return -1;
        }
    }
    return 0;
}

/* What both sides learn from an event (the predictions for the next ones). */
static void advance(ws_ev_state *s, const ws_event *e)
{
    unsigned type = e->source * 16u + e->id;
    if (s->have_type) s->next[s->source * 16u + s->id] = (uint8_t)(type + 1);
    uint64_t dt = e->time - s->time;
    unsigned bits = dt ? 64 - (unsigned)__builtin_clzll(dt) : 0;
    s->k[type] = (uint8_t)(bits > 2 ? bits - 2 : 0); /* send all but the top two bits raw next time */
    uint64_t z = zigzag((int64_t)e->data - (int64_t)s->data[type][e->core & 15]);
    unsigned zb = z ? 64 - (unsigned)__builtin_clzll(z) : 0;
    s->kd[type][e->core & 15] = (uint8_t)(zb > 3 ? zb - 3 : 0);
    s->have_type = 1;
    s->source = e->source;
    s->id = e->id;
    s->core[e->source] = e->core;
    s->time = e->time;
    s->data[type][e->core & 15] = e->data;
}

void ws_ev_write(ws_ev_writer *w, const ws_event *e)
{
    if (w->dropped) { w->dropped++; return; }
    uint64_t at = w->bits;
    ws_ev_state saved = w->st;
    if (e->source >= WS_EV_SOURCES || e->id >= 16 || e->time < w->st.time || encode(w, e)) {
        /* does not fit: undo the partial event so the stream stays whole */
        for (uint64_t b = at; b < w->bits; b++) w->buf[b >> 3] &= (uint8_t) ~(0x80u >> (b & 7));
        w->bits = at;
        w->st = saved;
        w->dropped++;
        return;
    }
    advance(&w->st, e);
    w->events++;
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

static int decode_one(reader *r, ws_ev_state *s, ws_event *e)
{
    uint64_t b, v;
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
        if (v >= WS_EV_SOURCES) return -2;
        e->source = (uint8_t)v;
        if (get_bits(r, 4, &v)) return -1;
        e->id = (uint8_t)v;
    }
    uint16_t *core = &s->core[e->source];
    if (get_bits(r, 1, &b)) return -1;
    if (b) e->core = *core;
    else {
        if (get_bits(r, 1, &b)) return -1;
        if (b) e->core = (uint16_t)(*core + 1);
        else if (get_bits(r, 16, &v)) return -1;
        else e->core = (uint16_t)v;
    }
    unsigned k = s->k[e->source * 16u + e->id];
    uint64_t low = 0;
    if (get_gamma(r, &v) || (k && get_bits(r, k, &low))) return -1;
    if (v - 1 > (UINT64_MAX >> k)) return -2;
    uint64_t dt = ((v - 1) << k) | low;
    if (dt > UINT64_MAX - s->time) return -2; /* time never wraps */
    e->time = s->time + dt;
    uint32_t last = s->data[e->source * 16u + e->id][e->core & 15];
    if (get_bits(r, 2, &v)) return -1;
    if (v == 3) e->data = last + 1;
    else if (v == 2) e->data = last;
    else if (v == 1) {
        uint64_t z, lowd = 0;
        unsigned kd = s->kd[e->source * 16u + e->id][e->core & 15];
        if (get_gamma(r, &z) || (kd && get_bits(r, kd, &lowd))) return -1;
        if (z - 1 > (UINT64_MAX >> (kd + 1))) return -2;
        z = ((z - 1) << kd) | lowd;
        int64_t d = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
        e->data = (uint32_t)((int64_t)last + d);
    } else if (get_bits(r, 32, &v)) return -1;
    else e->data = (uint32_t)v;
    advance(s, e);
    return 0;
}

ws_status ws_events_decode(const uint8_t *bytes, size_t size, ws_event **out, size_t *count, char *err, size_t errlen)
{
    if (!out || !count || !err || !errlen) return WS_ERR_INVALID_ARG;
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
    if (version != WS_EV_VERSION) {
        snprintf(err, errlen, "event trace version %u; this decoder knows %u", version, WS_EV_VERSION);
        return WS_ERR_UNSUPPORTED;
    }
    if (bits > (uint64_t)(size - WS_EV_HEADER) * 8 || events > bits / 6 + 1) {
        snprintf(err, errlen, "truncated or corrupt: the header promises %llu events in %llu bits, the file holds %zu bytes",
                 (unsigned long long)events, (unsigned long long)bits, size - WS_EV_HEADER);
        return WS_ERR_BAD_MODULE;
    }
    ws_event *ev = malloc((events + 1) * sizeof *ev);
    if (!ev) { snprintf(err, errlen, "out of host memory"); return WS_ERR_OUT_OF_MEMORY; }
    reader r = { bytes + WS_EV_HEADER, bits, 0 };
    ws_ev_state st;
    memset(&st, 0, sizeof st);
    for (uint64_t i = 0; i < events; i++) {
        uint64_t at = r.at;
        int rc = decode_one(&r, &st, &ev[i]);
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
