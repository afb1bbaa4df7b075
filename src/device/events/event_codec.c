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
    for (unsigned i = n; i-- > 0;) {
        if ((v >> i) & 1) w->buf[w->bits >> 3] |= (uint8_t)(0x80u >> (w->bits & 7));
        w->bits++;
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
    if (s->have_type && s->source == e->source && s->id == e->id) {
        if (put_bits(w, 1, 1)) return -1;
    } else if (put_bits(w, 0, 1) || put_bits(w, e->source, 3) || put_bits(w, e->id, 4)) {
        return -1;
    }
    uint16_t *core = &s->core[e->source];
    if (e->core == *core) { if (put_bits(w, 1, 1)) return -1; }
    else if (e->core == (uint16_t)(*core + 1)) { if (put_bits(w, 1, 2)) return -1; }
    else if (put_bits(w, 0, 2) || put_bits(w, e->core, 16)) return -1;
    if (put_gamma(w, e->time - s->time + 1)) return -1;
    uint32_t last = s->data[e->source][e->id];
    int64_t d = (int64_t)e->data - (int64_t)last;
    if (d == 1) { if (put_bits(w, 3, 2)) return -1; }
    else if (d == 0) { if (put_bits(w, 2, 2)) return -1; }
    else if (zigzag(d) < (1u << 12)) { if (put_bits(w, 1, 2) || put_gamma(w, zigzag(d) + 1)) return -1; }
    else if (put_bits(w, 0, 2) || put_bits(w, e->data, 32)) return -1;
    return 0;
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
    ws_ev_state *s = &w->st;
    s->have_type = 1;
    s->source = e->source;
    s->id = e->id;
    s->core[e->source] = e->core;
    s->time = e->time;
    s->data[e->source][e->id] = e->data;
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
    if (get_gamma(r, &v)) return -1;
    e->time = s->time + v - 1;
    uint32_t last = s->data[e->source][e->id];
    if (get_bits(r, 2, &v)) return -1;
    if (v == 3) e->data = last + 1;
    else if (v == 2) e->data = last;
    else if (v == 1) {
        uint64_t z;
        if (get_gamma(r, &z)) return -1;
        z -= 1;
        int64_t d = (int64_t)(z >> 1) ^ -(int64_t)(z & 1);
        e->data = (uint32_t)((int64_t)last + d);
    } else if (get_bits(r, 32, &v)) return -1;
    else e->data = (uint32_t)v;
    s->have_type = 1;
    s->source = e->source;
    s->id = e->id;
    *core = e->core;
    s->time = e->time;
    s->data[e->source][e->id] = e->data;
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
