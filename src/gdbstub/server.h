/* Transport for a gdb session (a loopback TCP or Unix-domain stream
 * socket): accept, and the loop that moves bytes between the socket and a
 * ws_gdb_session. */
#ifndef WS_GDBSTUB_SERVER_H
#define WS_GDBSTUB_SERVER_H
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include "gdbstub/gdb_target.h"

/* Wait for gdb (timeout_ms -1: forever; returns early, WS_ERR_TIMEOUT,
 * when *stop becomes nonzero). */
ws_status ws_gdb_accept(int lfd, int timeout_ms, const atomic_int *stop, int *cfd, char *err,
                        size_t errlen);
/* Serve one connection until gdb detaches, disconnects, is told the
 * program exited, or *stop becomes nonzero. Closes nothing. While it
 * serves, a second gdb connecting on lfd (-1: none) is refused at once. */
ws_status ws_gdb_serve(int cfd, int lfd, const ws_gdb_target_ops *ops, void *t, const atomic_int *stop);
/* The same; a session that ends at a device close with the exit code not
 * known yet (WS_GDB_EXIT_UNKNOWN) passes cfd over handoff_fd (-1: none)
 * to whoever tells gdb the exit (exit_handoff.h). */
ws_status ws_gdb_serve_handoff(int cfd, int lfd, const ws_gdb_target_ops *ops, void *t, const atomic_int *stop,
                               int handoff_fd);
/* Accept a connection on lfd and turn it away with an error reply. */
void ws_gdb_refuse(int lfd);
#endif
