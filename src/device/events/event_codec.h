/* The event trace's bit-level format (docs/events.md, "Trace format"): a
 * formatter that packs events using what it predicts from the previous
 * ones (same type, same or next core, small time deltas, data equal to or
 * one more than the last of its type), and the decoder that undoes it. */
#ifndef WS_DEVICE_EVENTS_CODEC_H
#define WS_DEVICE_EVENTS_CODEC_H
#include <stddef.h>
#include <stdint.h>
#include "warpscope/events.h"

/* What both sides remember between events. */
typedef struct ws_ev_state {
    uint64_t time;
    uint8_t source, id, have_type;
    uint16_t core[WS_EV_SOURCES];
    /* A value predictor: recent values (most recent first) and how many
     * low bits of a difference to send as they are. Data is predicted per
     * type (and core, for per-core sources); a scheduler's data in two
     * parts, the warp slot (low byte) and the rest. */
    struct ws_ev_pred { uint32_t recent[4]; uint8_t kd; } pred[WS_EV_SOURCES * 16][16][2];
    uint8_t next[WS_EV_SOURCES * 16];   /* the type that followed each type last time (+1; 0 none) */
    uint8_t k[WS_EV_SOURCES * 16];      /* per type: low bits of the time delta sent as they are */
    uint64_t dt[WS_EV_SOURCES * 16];    /* per type: its last time delta              */
} ws_ev_state;

typedef struct ws_ev_writer {
    uint8_t *buf;              /* cap_bits / 8 bytes (need not be zeroed) */
    uint64_t cap_bits, bits;   /* bits written                       */
    uint64_t events, dropped;  /* kept; dropped because the buffer filled */
    uint64_t rewinds;          /* events kept with a time before the previous one's */
    uint64_t invalid;          /* events skipped: no such source or id (never from the device) */
    uint64_t field_bits[4];    /* type, core, time, data: where the bits go */
    ws_ev_state st;
} ws_ev_writer;

/* Append one event; when it does not fit, count it dropped and stop
 * (later events are dropped too, so the stream stays decodable). An
 * event earlier than the one before it is kept, in the order given, with
 * a step back in time coded before it (w->rewinds counts them); it is no
 * drop. */
void ws_ev_write(ws_ev_writer *w, const ws_event *e);

/* Self-describing blob: "WSEV", u16 version, u16 flags, u64 events,
 * u64 bits, then the stream. Flags: WS_EV_FLAG_DROPPED, the buffer filled
 * and events after the last one kept were dropped (a file read later says
 * so; the field was reserved, always 0, so older readers ignore it).
 * Version 1: times never go back; version 2 (WS_EV_VERSION_REWIND): the
 * stream holds steps back in time, which version-1 readers do not know
 * (a trace without them stays version 1, bit for bit as before). */
enum { WS_EV_HEADER = 24, WS_EV_VERSION = 1, WS_EV_VERSION_REWIND = 2, WS_EV_FLAG_DROPPED = 1 };

/* The version a writer's stream needs. */
static inline uint16_t ws_ev_version(const ws_ev_writer *w)
{
    return w->rewinds ? WS_EV_VERSION_REWIND : WS_EV_VERSION;
}

#endif
