/* Walking a server's option string (spec.h). */
#include "net/spec.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

ws_status ws_spec_parse(const char *spec, ws_spec_fn fn, void *user, const char *who, const char *expected, char *err,
                        size_t errlen)
{
    if (!spec || !spec[0] || !strcmp(spec, "1")) return WS_OK;
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", spec);
    for (char *save = NULL, *kv = strtok_r(buf, ",", &save); kv; kv = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(kv, '=');
        if (eq) *eq = 0;
        if (!eq || fn(user, kv, eq + 1)) { /* named with its value: port=99999, a path too long */
            if (eq) *eq = '=';
            snprintf(err, errlen, "%s: cannot use '%s' (expected %s)", who, kv, expected);
            return WS_ERR_INVALID_ARG;
        }
    }
    return WS_OK;
}

int ws_spec_uint(const char *value, long max, long *out)
{
    char *end = NULL;
    long n = strtol(value, &end, 10);
    if (!*value || *end || n < 0 || n > max) return -1;
    *out = n;
    return 0;
}
