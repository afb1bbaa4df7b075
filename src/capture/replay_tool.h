/* What the replay tools (pixel and element history, the mesh view, the
 * frame report) share: their error messages go into the caller's buffer;
 * their A[:B] arguments. */
#ifndef WS_CAPTURE_REPLAY_TOOL_H
#define WS_CAPTURE_REPLAY_TOOL_H
#include <stddef.h>
#include "warpscope/warpscope.h"

/* Format the message into err (nothing when err is NULL or errlen 0) and return st. */
ws_status rt_fail(char *err, size_t errlen, ws_status st, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The status a tool reports when the frame's replay failed at one of the
 * capture's calls: that call's status, except that WS_ERR_INVALID_ARG
 * becomes WS_ERR_INTERNAL, since it is kept for the tool's own arguments
 * (warpscope replay's usage error, exit status 2). */
ws_status rt_replay_failed(ws_status st);

/* "A[:B]" in whole numbers (decimal, or hexadecimal after 0x; no sign):
 * 0 with *a, and *b when *has_b; 1 when A is not one, 2 when B is not (the
 * --element and --mesh arguments). */
int rt_parse_pair(const char *text, unsigned long long *a, unsigned long long *b, int *has_b);

#endif
