/* A TCP listener on 127.0.0.1, shared by the servers a debugger or probe
 * connects to (the gdb server, the JTAG bitbang server), and a Unix-domain
 * socket listener (the gdb server's socket=PATH). */
#ifndef WS_NET_LOOPBACK_H
#define WS_NET_LOOPBACK_H
#include <stddef.h>
#include <stdint.h>
#include "warpscope/warpscope.h"

/* Listen on 127.0.0.1:port (0: any free port); *bound is the port. Errors
 * name `who` ("gdb server: cannot listen on 127.0.0.1:N: ..."). */
ws_status ws_loopback_listen(const char *who, uint16_t port, int *fd, uint16_t *bound, char *err, size_t errlen);

/* Listen on a Unix-domain stream socket at `path` (a stale socket file
 * left there is replaced; one a live server answers on, or any other
 * file, is an error). Only processes that may open the path can connect.
 * Errors name `who`. The caller unlinks the path when done. */
ws_status ws_local_listen(const char *who, const char *path, int *fd, char *err, size_t errlen);

/* Name a listening server in the port file at `path`: `line` (the port,
 * or a socket's path, with its newline) is appended when the file's first
 * line names another server this process listens on (not own_fd: a
 * second device's server beside the first), so the file names every
 * device's server in the order they opened; otherwise the file (absent,
 * or stale from an earlier run) is replaced. 0, or -1 (errno set). */
int ws_port_file_add(const char *path, const char *line, int own_fd);

#endif
