/* The replay tools' error helper (replay_tool.h). */
#include "capture/replay_tool.h"
#include <stdarg.h>
#include <stdio.h>

ws_status rt_fail(char *err, size_t errlen, ws_status st, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return st;
}
