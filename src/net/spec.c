/* Walking a server's option string (spec.h). */
#include "net/spec.h"
#include "runtime/settings_text.h"
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ws_status ws_spec_parse(const char *spec, ws_spec_fn fn, void *user, const char *who, const char *expected, char *err,
                        size_t errlen)
{
    if (!spec || !spec[0] || !strcmp(spec, "1")) return WS_OK;
    char buf[1024];
    size_t len = strlen(spec);
    if (len >= sizeof buf) { /* cut short, a path in it would name another file */
        snprintf(err, errlen, "%s: the settings are %zu bytes long, at most %zu are read: %.60s...", who, len,
                 sizeof buf - 1, spec);
        return WS_ERR_INVALID_ARG;
    }
    /* (a value with a comma goes in double quotes: runtime/settings_text.h) */
    const char *at = spec;
    for (int got; (got = ws_settings_next(&at, buf)) != 0;) {
        char *kv = buf;
        if (got < 0) {
            snprintf(err, errlen, "%s: cannot use '%s' (a double quote is not closed)", who, kv);
            return WS_ERR_INVALID_ARG;
        }
        if (!kv[0]) continue;
        char *eq = strchr(kv, '=');
        if (eq) *eq = 0;
        if (!eq || fn(user, kv, eq + 1)) {
            if (eq) *eq = '='; /* name the value too: "port=abc" */
            snprintf(err, errlen, "%s: cannot use '%s' (expected %s)", who, kv, expected);
            return WS_ERR_INVALID_ARG;
        }
    }
    return WS_OK;
}

int ws_spec_uint(const char *value, long max, long *out)
{
    char *end = NULL;
    if (!isdigit((unsigned char)*value)) return -1; /* strtol takes " 5", "+5" and "-0" */
    errno = 0;
    long n = strtol(value, &end, 10);
    if (errno || *end || n > max) return -1;
    *out = n;
    return 0;
}

int ws_spec_path(const char *value, char *dst, size_t size)
{
    size_t n = strlen(value);
    if (!n || n >= size) return -1;
    memcpy(dst, value, n + 1);
    return 0;
}
