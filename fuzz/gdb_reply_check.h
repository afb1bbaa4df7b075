/* Shared by the gdb fuzz targets: every chunk a session sends must be
 * '+', '-', or a whole framed packet (prefix, payload, '#', two hex
 * digits, matching checksum); anything else aborts (a finding). */
#ifndef WS_FUZZ_GDB_REPLY_CHECK_H
#define WS_FUZZ_GDB_REPLY_CHECK_H
#include <stdint.h>
#include <stdlib.h>
#include "gdbstub/rsp_packet.h"

static void fuzz_check_gdb_reply(void *io, const char *b, size_t n)
{
    (void)io;
    if (n == 1 && (b[0] == '+' || b[0] == '-')) return;
    if (n < 4 || (b[0] != '$' && b[0] != '%') || b[n - 3] != '#') abort();
    uint8_t sum = 0;
    for (size_t i = 1; i < n - 3; i++) sum = (uint8_t)(sum + (uint8_t)b[i]);
    if ((ws_hex_val((uint8_t)b[n - 2]) << 4 | ws_hex_val((uint8_t)b[n - 1])) != sum) abort();
}
#endif
