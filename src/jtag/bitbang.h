/* OpenOCD's remote_bitbang protocol, decoded onto a JTAG TAP. One byte
 * per command:
 *   '0'..'7'  write TCK<<2 | TMS<<1 | TDI (a rising TCK clocks the TAP)
 *   'R'       read TDO: the reply is '0' or '1'
 *   'r'..'u'  reset lines: 'r' + (TRST<<1 | SRST), 1 = asserted
 *   'B' 'b'   blink the LED on / off (ignored)
 *   'Q'       quit: the probe is done
 * Pure and single-threaded: the socket lives in jtag_server.c. */
#ifndef WS_JTAG_BITBANG_H
#define WS_JTAG_BITBANG_H
#include <stddef.h>
#include <stdint.h>
#include "device/debug/jtag_tap.h"

/* Longest chain of TAPs one probe drives (one TAP per debug module). */
#define WS_BITBANG_MAX_TAPS 16

typedef struct ws_bitbang {
    ws_jtag_tap *tap;           /* taps[0]: the TAP nearest TDO            */
    unsigned ntaps;
    int tck, tms, tdi;
    int srst;                   /* last SRST level (not wired: see docs)  */
    int quit;                   /* 'Q' seen                               */
    uint64_t edges, reads;      /* rising TCK edges and TDO reads so far  */
    uint64_t fed;               /* bytes decoded so far, over every call  */
} ws_bitbang;

void ws_bitbang_init(ws_bitbang *b, ws_jtag_tap *tap);
/* A chain of n TAPs (1..WS_BITBANG_MAX_TAPS) sharing TCK, TMS and TRST:
 * the probe's TDI enters tap[n-1], tap[k]'s TDO feeds tap[k-1], tap[0]
 * drives TDO. tap[0] is the first TAP an OpenOCD config declares. */
void ws_bitbang_init_chain(ws_bitbang *b, ws_jtag_tap *tap, unsigned n);
/* Decode in[0..n). TDO replies go to out (room for n bytes), their count
 * to *nout. Stops after 'Q' (b->quit set; *used says how far it got).
 * A byte outside the protocol: WS_ERR_INVALID_ARG with the byte and its
 * offset in the stream (every call's bytes counted) in err; the replies
 * before it are in out. */
ws_status ws_bitbang_feed(ws_bitbang *b, const uint8_t *in, size_t n, char *out, size_t *nout, size_t *used,
                          char *err, size_t errlen);
/* True while a probe leaving now would leave a scan unfinished. */
int ws_bitbang_mid_scan(const ws_bitbang *b);

#endif
