/* A TCP listener on 127.0.0.1, shared by the servers a debugger or probe
 * connects to (the gdb server, the JTAG bitbang server). */
#ifndef WS_NET_LOOPBACK_H
#define WS_NET_LOOPBACK_H
#include <stddef.h>
#include <stdint.h>
#include "warpscope/warpscope.h"

/* Listen on 127.0.0.1:port (0: any free port); *bound is the port. Errors
 * name `who` ("gdb server: cannot listen on 127.0.0.1:N: ..."). */
ws_status ws_loopback_listen(const char *who, uint16_t port, int *fd, uint16_t *bound, char *err, size_t errlen);

#endif
