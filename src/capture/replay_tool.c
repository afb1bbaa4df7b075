/* The replay tools' error helper and argument parsing (replay_tool.h). */
#include "capture/replay_tool.h"
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "device/number_text.h"

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

/* A whole number at t, up to *end. */
static int whole(const char *t, char **end, unsigned long long *v)
{
    errno = 0;
    *v = strtoull(t, end, ws_number_base(t));
    return *end != t && *t != '-' && !errno;
}

int rt_parse_pair(const char *text, unsigned long long *a, unsigned long long *b, int *has_b)
{
    char *end;
    if (!text || !whole(text, &end, a) || (*end && *end != ':')) return 1;
    *has_b = *end == ':';
    if (*has_b && (!whole(end + 1, &end, b) || *end)) return 2;
    return 0;
}

ws_status rt_replay_failed(ws_status st)
{
    return st == WS_ERR_INVALID_ARG ? WS_ERR_INTERNAL : st;
}
