/* The frame debugger: gdb over a replayed frame (docs/capture-replay-debug.md).
 * A breakpoint never holds the GPU: the debug hardware's shadow unit
 * copies the stopped warp's context when the hit comes and the frame runs
 * to its end; gdb reads that copy as a stopped thread. Every resume —
 * forwards (step, next, finish, continue) or backwards (reverse-step,
 * reverse-continue, ...) — restores the frame's initial state and replays
 * it whole, stopping the copy at an earlier or later count. */
#ifndef WS_CAPTURE_REPLAY_DEBUG_H
#define WS_CAPTURE_REPLAY_DEBUG_H
#include <stddef.h>
#include "capture/replayer.h"

/* Serve one gdb on 127.0.0.1 over replay r: listen (spec, comma-separated:
 * port=N, port-file=PATH, connect-timeout=MS; "" or "1": defaults),
 * print "listening on 127.0.0.1:PORT" to stderr, serve until gdb detaches
 * or kills. The replay's device gets the debug hardware attached for the
 * session. */
ws_status ws_replay_debug_serve(ws_replay *r, const char *spec, char *err, size_t errlen);

#endif
