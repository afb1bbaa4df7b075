/* What the replay tools (pixel and element history, the frame report)
 * share: their error messages go into the caller's buffer. */
#ifndef WS_CAPTURE_REPLAY_TOOL_H
#define WS_CAPTURE_REPLAY_TOOL_H
#include <stddef.h>
#include "warpscope/warpscope.h"

/* Format the message into err (nothing when err is NULL or errlen 0) and return st. */
ws_status rt_fail(char *err, size_t errlen, ws_status st, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
