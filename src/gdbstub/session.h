/* One gdb connection's protocol state: packets in, replies out, over a
 * ws_gdb_target. No sockets here (server.c owns them), so tests and the
 * fuzzer drive a session with plain byte buffers. */
#ifndef WS_GDBSTUB_SESSION_H
#define WS_GDBSTUB_SESSION_H
#include <stddef.h>
#include <stdint.h>
#include "gdbstub/gdb_target.h"

typedef struct ws_gdb_session ws_gdb_session;
/* Write bytes to gdb (the whole buffer). */
typedef void (*ws_gdb_send_fn)(void *io, const char *bytes, size_t len);

ws_status ws_gdb_session_new(const ws_gdb_target_ops *ops, void *target, ws_gdb_send_fn send,
                             void *io, ws_gdb_session **out);
/* Frees s. A session not ended by gdb (D, k) or the program's exit
 * detaches its target first: the program runs on as after a detach. */
void ws_gdb_session_free(ws_gdb_session *s);
/* Bytes received from gdb. */
void ws_gdb_session_input(ws_gdb_session *s, const uint8_t *buf, size_t n);
/* While threads run: wait up to timeout_ms for a stop and report it. */
int ws_gdb_session_poll(ws_gdb_session *s, int timeout_ms); /* 1: a stop was reported */
/* 1 while gdb waits for a stop reply (or, non-stop, any thread runs). */
int ws_gdb_session_running(const ws_gdb_session *s);
/* 1 once gdb detached, killed, or was told the program exited. */
int ws_gdb_session_done(const ws_gdb_session *s);
/* 1 once the session ended at a device close whose exit code is not
 * known yet (WS_GDB_EXIT_UNKNOWN): gdb still waits to hear the exit. */
int ws_gdb_session_exit_unknown(const ws_gdb_session *s);
/* The protocol modes gdb chose: non-stop, no acknowledgements. */
int ws_gdb_session_non_stop(const ws_gdb_session *s);
int ws_gdb_session_noack(const ws_gdb_session *s);
#endif
