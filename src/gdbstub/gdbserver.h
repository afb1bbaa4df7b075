/* The gdb server a device starts when WARPSCOPE_DEBUG is set (called from
 * src/runtime/observers.c). Spec: comma-separated key=value,
 *   port=N            TCP port on 127.0.0.1 (0 or absent: a free one)
 *   stop-at-launch=1  stop before every launch's first instruction
 *   port-file=PATH    write the chosen port there (for scripts and tests)
 *   connect-timeout=MS  give up waiting for gdb (default: wait forever)
 * "1" alone means all defaults. */
#ifndef WS_GDBSTUB_GDBSERVER_H
#define WS_GDBSTUB_GDBSERVER_H
#include "warpscope/warpscope.h"

struct ws_gdbserver;
/* Attach the debug hardware, listen, print "listening on 127.0.0.1:PORT"
 * to stderr, wait for gdb to connect and to resume the program. */
ws_status ws_gdbserver_start(ws_device *dev, const char *spec, struct ws_gdbserver **out, char *err,
                             size_t errlen);
/* Tell gdb the program exited, close the connection, detach. */
void ws_gdbserver_stop(struct ws_gdbserver *g);
#endif
