/* GDB RSP framing (see rsp_packet.h). */
#include "gdbstub/rsp_packet.h"
#include <string.h>

void ws_rsp_reader_init(ws_rsp_reader *r)
{
    memset(r, 0, sizeof *r);
}

ws_rsp_event ws_rsp_feed(ws_rsp_reader *r, uint8_t c)
{
    /* A packet that begins where a checksum digit should be: the cut one is
     * bad, the new one is read (its '$' was taken as a digit, and lost) */
    if (r->state >= 2 && c == '$') {
        const int too_long = r->overflow;
        r->state = 1;
        r->len = 0;
        r->sum = 0;
        r->overflow = 0;
        return too_long ? WS_RSP_TOO_LONG : WS_RSP_BAD_CSUM;
    }
    switch (r->state) {
    case 0: /* between packets: only '$', acks and interrupts mean something */
        if (c == '$') {
            r->state = 1;
            r->len = 0;
            r->sum = 0;
            r->overflow = 0;
            return WS_RSP_NONE;
        }
        if (c == '+') return WS_RSP_ACK;
        if (c == '-') return WS_RSP_NAK;
        if (c == 0x03) return WS_RSP_INTERRUPT;
        return WS_RSP_NONE;
    case 1:
        if (c == '#') {
            r->state = 2;
            return WS_RSP_NONE;
        }
        if (c == '$') { /* a new packet restarts: the old one was cut off */
            r->len = 0;
            r->sum = 0;
            r->overflow = 0;
            return WS_RSP_NONE;
        }
        r->sum = (uint8_t)(r->sum + c);
        if (r->len < WS_RSP_MAX_PACKET) r->buf[r->len++] = (char)c;
        else r->overflow = 1;
        return WS_RSP_NONE;
    case 2: {
        int v = ws_hex_val(c);
        r->want = (uint8_t)((v < 0 ? 0x100 : v) << 4); /* bad digit: never matches */
        r->state = v < 0 ? 4 : 3;
        return WS_RSP_NONE;
    }
    default: {
        int v = ws_hex_val(c);
        int bad = r->state == 4 || v < 0 || (uint8_t)(r->want | v) != r->sum;
        r->state = 0;
        r->buf[r->len] = 0;
        if (r->overflow) return WS_RSP_TOO_LONG;
        return bad ? WS_RSP_BAD_CSUM : WS_RSP_PACKET;
    }
    }
}

size_t ws_rsp_rle_decode(char *buf, size_t len, size_t cap)
{
    /* Expanding grows the data, so work from a copy of the input. */
    char tmp[WS_RSP_MAX_PACKET];
    if (len > sizeof tmp || !memchr(buf, '*', len)) return len <= cap ? len : (size_t)-1;
    memcpy(tmp, buf, len);
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (tmp[i] == '*') {
            if (o == 0 || i + 1 >= len) return (size_t)-1;
            int n = (uint8_t)tmp[++i] - 29;
            if (n < 3 || n > 97) return (size_t)-1; /* protocol range (avoids '#' '$') */
            if (o + (size_t)n > cap) return (size_t)-1;
            memset(buf + o, buf[o - 1], (size_t)n);
            o += (size_t)n;
        } else {
            if (o >= cap) return (size_t)-1;
            buf[o++] = tmp[i];
        }
    }
    return o;
}

size_t ws_rsp_rle_encode(const char *in, size_t n, char *out, size_t cap)
{
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        size_t run = 1;
        while (i + run < n && in[i + run] == in[i] && run < 98) run++;
        size_t extra = run - 1; /* copies after the first, sent as extra + 29 */
        if (extra == 6 || extra == 7) extra = 5; /* '#' and '$' may not be counts */
        if (extra >= 3) {
            if (o + 3 > cap) return (size_t)-1;
            out[o++] = in[i];
            out[o++] = '*';
            out[o++] = (char)(extra + 29);
            i += 1 + extra;
        } else {
            if (o + 1 > cap) return (size_t)-1;
            out[o++] = in[i++];
        }
    }
    return o;
}

size_t ws_rsp_unescape(uint8_t *buf, size_t len)
{
    size_t o = 0;
    for (size_t i = 0; i < len; i++) {
        if (buf[i] == 0x7d) {
            if (++i >= len) return (size_t)-1;
            buf[o++] = buf[i] ^ 0x20;
        } else {
            buf[o++] = buf[i];
        }
    }
    return o;
}

size_t ws_rsp_escape(const uint8_t *in, size_t n, char *out, size_t cap, size_t *used)
{
    size_t o = 0, i = 0;
    for (; i < n; i++) {
        uint8_t c = in[i];
        int esc = c == '$' || c == '#' || c == 0x7d || c == '*';
        if (o + 1 + (size_t)esc > cap) break;
        if (esc) {
            out[o++] = 0x7d;
            c ^= 0x20;
        }
        out[o++] = (char)c;
    }
    *used = i;
    return o;
}

size_t ws_rsp_frame(char prefix, const char *payload, size_t len, char *out, size_t cap)
{
    static const char hex[] = "0123456789abcdef";
    if (cap < 4 || len > cap - 4) return 0;
    uint8_t sum = 0;
    out[0] = prefix;
    for (size_t i = 0; i < len; i++) {
        out[1 + i] = payload[i];
        sum = (uint8_t)(sum + (uint8_t)payload[i]);
    }
    out[1 + len] = '#';
    out[2 + len] = hex[sum >> 4];
    out[3 + len] = hex[sum & 15];
    return len + 4;
}

int ws_hex_val(int c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void ws_hex_encode(const uint8_t *in, size_t n, char *out)
{
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = hex[in[i] >> 4];
        out[2 * i + 1] = hex[in[i] & 15];
    }
    out[2 * n] = 0;
}

long ws_hex_decode(const char *in, size_t hexlen, uint8_t *out, size_t cap)
{
    if (hexlen % 2 || hexlen / 2 > cap) return -1;
    for (size_t i = 0; i < hexlen / 2; i++) {
        int h = ws_hex_val((uint8_t)in[2 * i]), l = ws_hex_val((uint8_t)in[2 * i + 1]);
        if (h < 0 || l < 0) return -1;
        out[i] = (uint8_t)(h << 4 | l);
    }
    return (long)(hexlen / 2);
}

int ws_hex_u64(const char *s, const char *stops, uint64_t *v, const char **end)
{
    uint64_t x = 0;
    size_t n = 0;
    for (; *s && !strchr(stops, *s); s++, n++) {
        int d = ws_hex_val((uint8_t)*s);
        if (d < 0 || n >= 16) return -1;
        x = x << 4 | (uint64_t)d;
    }
    if (!n) return -1;
    *v = x;
    if (end) *end = s;
    return 0;
}

int ws_parse_u32(const char **p, uint32_t *out)
{
    const char *q = *p;
    while (*q == ' ') q++;
    if (*q < '0' || *q > '9') return -1;
    uint64_t v = 0;
    if (q[0] == '0' && (q[1] == 'x' || q[1] == 'X') && ws_hex_val(q[2]) >= 0) {
        for (q += 2; ws_hex_val(*q) >= 0; q++)
            if ((v = v * 16 + (uint64_t)ws_hex_val(*q)) > UINT32_MAX) return -1;
        *out = (uint32_t)v;
        *p = q;
        return 0;
    }
    for (; *q >= '0' && *q <= '9'; q++)
        if ((v = v * 10 + (uint64_t)(*q - '0')) > UINT32_MAX) return -1;
    *out = (uint32_t)v;
    *p = q;
    return 0;
}
