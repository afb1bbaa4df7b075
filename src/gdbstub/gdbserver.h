/* The gdb server: a tool (include/warpscope/tool.h) that the environment
 * attaches when WARPSCOPE_DEBUG is set (src/attach). Spec: comma-separated
 * key=value,
 *   port=N            TCP port on 127.0.0.1 (0 or absent: a free one)
 *   socket=PATH       listen on a Unix-domain socket at PATH instead of TCP
 *                     (gdb: target remote PATH); removed at the end
 *   stop-at-launch=1  stop before every launch's first instruction
 *   port-file=PATH    write the chosen port (with socket=: the socket's
 *                     path) there once listening (for scripts and tests)
 *   connect-timeout=MS  give up waiting for gdb (default: wait forever)
 * "1" alone means all defaults. */
#ifndef WS_GDBSTUB_GDBSERVER_H
#define WS_GDBSTUB_GDBSERVER_H
#include "warpscope/warpscope.h"

/* Attach the debug hardware, listen, print "listening on 127.0.0.1:PORT"
 * to stderr, wait for gdb to connect and to resume the program, and attach
 * as a tool whose detach (at device close) tells gdb the program exited.
 * Errors are in dev's message. */
ws_status ws_gdbserver_attach(ws_device *dev, const char *spec);
#endif
