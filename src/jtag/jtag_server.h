/* The JTAG probe port: a tool (include/warpscope/tool.h) that the
 * environment attaches when WARPSCOPE_JTAG is set (src/attach). It
 * listens on 127.0.0.1 for OpenOCD's remote_bitbang adapter and drives a
 * JTAG TAP + RISC-V DTM whose DMI reaches debug module 0 of the device.
 * The program runs on while the probe works, from the server's thread.
 * Spec: "1", or comma-separated key=value:
 *   port=N          TCP port (0 or absent: a free one)
 *   port-file=PATH  write the chosen port there (scripts, tests)
 *   idle=N          dtmcs.idle, Run-Test/Idle cycles per DMI access (0..7, default 1)
 * The debug hardware is attached while a probe is connected, non-stop
 * (halting a hart stops only its warp); when the probe leaves (Q,
 * disconnect, bad input) it is detached: halted warps resume.
 * docs/jtag-openocd.md. */
#ifndef WS_JTAG_JTAG_SERVER_H
#define WS_JTAG_JTAG_SERVER_H
#include "warpscope/warpscope.h"

/* Listen, print "JTAG remote_bitbang listening on 127.0.0.1:PORT" to
 * stderr, start the server thread and return (no waiting for a probe).
 * Errors are in dev's message. */
ws_status ws_jtag_server_attach(ws_device *dev, const char *spec);

#endif
