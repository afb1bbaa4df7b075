/* remote_bitbang decoding (see bitbang.h). */
#include "jtag/bitbang.h"
#include <ctype.h>
#include <stdio.h>
#include <string.h>

void ws_bitbang_init_chain(ws_bitbang *b, ws_jtag_tap *tap, unsigned n)
{
    memset(b, 0, sizeof *b);
    b->tap = tap;
    b->ntaps = n < 1 ? 1 : n > WS_BITBANG_MAX_TAPS ? WS_BITBANG_MAX_TAPS : n;
}

void ws_bitbang_init(ws_bitbang *b, ws_jtag_tap *tap)
{
    ws_bitbang_init_chain(b, tap, 1);
}

/* One rising edge on every TAP: each samples the TDO its neighbour drove
 * before the edge, as wired TAPs do. */
static void clock_chain(ws_bitbang *b)
{
    int tdi[WS_BITBANG_MAX_TAPS];
    tdi[b->ntaps - 1] = b->tdi;
    for (unsigned k = 0; k + 1 < b->ntaps; k++) tdi[k] = ws_jtag_tap_tdo(&b->tap[k + 1]);
    for (unsigned k = 0; k < b->ntaps; k++) ws_jtag_tap_clock(&b->tap[k], b->tms, tdi[k]);
}

int ws_bitbang_mid_scan(const ws_bitbang *b)
{
    ws_tap_state s = b->tap->state;
    return s != WS_TAP_RESET && s != WS_TAP_IDLE;
}

ws_status ws_bitbang_feed(ws_bitbang *b, const uint8_t *in, size_t n, char *out, size_t *nout, size_t *used,
                          char *err, size_t errlen)
{
    size_t o = 0, i = 0;
    ws_status st = WS_OK;
    for (; i < n && !b->quit; i++) {
        uint8_t c = in[i];
        if (c >= '0' && c <= '7') {
            int v = c - '0', tck = v >> 2 & 1;
            b->tms = v >> 1 & 1;
            b->tdi = v & 1;
            if (tck && !b->tck) {
                clock_chain(b);
                b->edges++;
            }
            b->tck = tck;
        } else if (c == 'R') {
            out[o++] = ws_jtag_tap_tdo(b->tap) ? '1' : '0';
            b->reads++;
        } else if (c >= 'r' && c <= 'u') {
            int v = c - 'r';
            b->srst = v & 1;
            if (v >> 1) /* TRST held: the TAPs stay in reset */
                for (unsigned k = 0; k < b->ntaps; k++) ws_jtag_tap_trst(&b->tap[k]);
        } else if (c == 'B' || c == 'b') {
            /* the LED: nothing to light */
        } else if (c == 'Q') {
            b->quit = 1;
        } else {
            /* where in the stream: an offset within this call's bytes
             * said "after 6 bytes: ... at offset 0" for the second read */
            unsigned long long at = (unsigned long long)(b->fed + i);
            if (isprint(c))
                snprintf(err, errlen, "byte 0x%02x ('%c') at offset %llu is not a remote_bitbang command "
                         "(expected 0-7, R, r-u, B, b or Q)", c, c, at);
            else
                snprintf(err, errlen, "byte 0x%02x at offset %llu is not a remote_bitbang command "
                         "(expected 0-7, R, r-u, B, b or Q)", c, at);
            st = WS_ERR_INVALID_ARG;
            break;
        }
    }
    *nout = o;
    *used = i;
    b->fed += i;
    return st;
}
