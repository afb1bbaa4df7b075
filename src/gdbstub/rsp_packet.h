/* GDB remote serial protocol framing: $payload#xx with a two-digit
 * checksum, '+'/'-' acknowledgements, 0x03 interrupts, binary escaping
 * (0x7d) and run-length encoding. No I/O here: bytes go in, packets and
 * events come out, so the parser can be fuzzed and tested directly. */
#ifndef WS_GDBSTUB_RSP_PACKET_H
#define WS_GDBSTUB_RSP_PACKET_H
#include <stddef.h>
#include <stdint.h>

/* Largest payload we accept or send (advertised as PacketSize). */
#define WS_RSP_MAX_PACKET 16384

typedef enum ws_rsp_event {
    WS_RSP_NONE = 0,   /* byte consumed, nothing complete yet            */
    WS_RSP_PACKET,     /* a packet with a good checksum is in r->buf     */
    WS_RSP_BAD_CSUM,   /* a packet arrived with a wrong checksum         */
    WS_RSP_TOO_LONG,   /* a packet exceeded WS_RSP_MAX_PACKET            */
    WS_RSP_ACK,        /* '+'                                            */
    WS_RSP_NAK,        /* '-': resend the last packet                    */
    WS_RSP_INTERRUPT   /* 0x03 outside a packet                          */
} ws_rsp_event;

typedef struct ws_rsp_reader {
    int state;                        /* 0 idle, 1 data, 2/3 checksum digits */
    uint8_t sum, want;
    size_t len;
    int overflow;
    char buf[WS_RSP_MAX_PACKET + 1];  /* NUL-terminated payload (may hold NULs) */
} ws_rsp_reader;

void ws_rsp_reader_init(ws_rsp_reader *r);
/* Feed one byte; returns what it completed. */
ws_rsp_event ws_rsp_feed(ws_rsp_reader *r, uint8_t c);

/* Expand run-length encoding ("x*N" repeats x N-29 more times) in place.
 * Returns the new length, or (size_t)-1 if malformed or too long. */
size_t ws_rsp_rle_decode(char *buf, size_t len, size_t cap);
/* Run-length encode a payload for sending (gdb expands it as it reads a
 * packet): a run of 4 to 98 equal characters becomes the character, '*'
 * and a count character (never '#' or '$'). Returns the encoded length,
 * at most n, or (size_t)-1 if it does not fit in cap. */
size_t ws_rsp_rle_encode(const char *in, size_t n, char *out, size_t cap);
/* Undo 0x7d escaping in place; returns the new length or (size_t)-1. */
size_t ws_rsp_unescape(uint8_t *buf, size_t len);
/* Escape binary data for a reply: returns bytes written to out (escaping
 * '$', '#', '}', '*'), at most cap; *used = input bytes consumed. */
size_t ws_rsp_escape(const uint8_t *in, size_t n, char *out, size_t cap, size_t *used);
/* Frame a payload as $payload#xx into out (cap >= len + 4). Returns the
 * framed length, or 0 if it does not fit. */
size_t ws_rsp_frame(char prefix, const char *payload, size_t len, char *out, size_t cap);

/* Hex helpers. ws_hex_decode returns bytes written, or -1 on a bad digit
 * or odd length. */
/* A number from 0 to UINT32_MAX after optional spaces, decimal or
 * hexadecimal after 0x (the project's one rule, device/number_text.h: a
 * leading zero is not octal); *p moves past it. -1 (and *p unchanged) for
 * anything else: a sign, no digit, a value past 32 bits (sscanf's %u would
 * wrap "-1" and "4294967297"). */
int ws_parse_u32(const char **p, uint32_t *out);
int ws_hex_val(int c);
void ws_hex_encode(const uint8_t *in, size_t n, char *out);
long ws_hex_decode(const char *in, size_t hexlen, uint8_t *out, size_t cap);
/* Parse a hex number ending at a char in `stops` (or NUL); *end points to
 * the stop. Returns 0 on success, -1 if empty, invalid or > 64 bits. */
int ws_hex_u64(const char *s, const char *stops, uint64_t *v, const char **end);
#endif
