/* Strict number parsing for warpscope run (run_args.h). strtoX alone
 * accepts "", "abc" (as 0), "1e3" (as 1) and wraps out-of-range values;
 * here the whole text must be the number and it must fit. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "run_args.h"
#include "device/number_text.h"

/* (after a sign: strtoll takes the sign, then the digits in that base) */
static int base_of(const char *s)
{
    return ws_number_base(s + (*s == '-' || *s == '+'));
}

static int whole_unsigned(const char *s, unsigned long long *v)
{
    char *end;
    if (!*s || *s == '-' || *s == '+' || isspace((unsigned char)*s)) return -1;
    errno = 0;
    *v = strtoull(s, &end, base_of(s));
    return errno || *end ? -1 : 0;
}

int ws_parse_u64(const char *text, unsigned long long max, unsigned long long *out, char *err, size_t errlen)
{
    if (whole_unsigned(text, out) || *out > max) {
        snprintf(err, errlen, "'%s' is not a whole number from 0 to %llu", text, max);
        return -1;
    }
    return 0;
}

int ws_parse_dim3(const char *text, ws_dim3 *out, char *err, size_t errlen)
{
    uint32_t d[3] = { 1, 1, 1 };
    const char *p = text;
    for (int i = 0;; i++) {
        char part[32];
        const char *comma = strchr(p, ',');
        size_t n = comma ? (size_t)(comma - p) : strlen(p);
        unsigned long long v;
        if (i == 3 || n >= sizeof part) {
            snprintf(err, errlen, "'%s': give X, X,Y or X,Y,Z", text);
            return -1;
        }
        memcpy(part, p, n);
        part[n] = 0;
        if (whole_unsigned(part, &v) || v < 1 || v > UINT32_MAX) {
            /* (CUDA users write dim3 sizes as 16x16) */
            const char *hint = strpbrk(part, "xX*") ? ": separate dimensions with commas (X,Y,Z)" : "";
            snprintf(err, errlen, "'%s': dimension %d ('%s') must be a whole number from 1 to %u%s", text, i + 1,
                     part, UINT32_MAX, hint);
            return -1;
        }
        d[i] = (uint32_t)v;
        if (!comma) break;
        p = comma + 1;
    }
    *out = WS_DIM3(d[0], d[1], d[2]);
    return 0;
}

int ws_parse_float_arg(const char *text, int is64, ws_arg *out, char *err, size_t errlen)
{
    char *end;
    errno = 0;
    double v = *text ? strtod(text, &end) : 0;
    if (!*text || *end) {
        snprintf(err, errlen, "'%s' is not a number", text);
        return -1;
    }
    if (is64) {
        if (errno == ERANGE && isinf(v)) { /* "1e400" overflows; "inf" sets no errno */
            snprintf(err, errlen, "'%s' is out of range for double", text);
            return -1;
        }
        *out = WS_ARG_F64(v);
        return 0;
    }
    float f = strtof(text, NULL); /* round once, from the text */
    if (isfinite(v) && !isfinite(f)) { /* what rounds to FLT_MAX (3.40282347e38) is in range */
        snprintf(err, errlen, "'%s' is out of range for float", text);
        return -1;
    }
    *out = WS_ARG_F32(f);
    return 0;
}

int ws_parse_buffer(const char *text, unsigned long long max, unsigned long long *n, const char **path, char *err,
                    size_t errlen)
{
    *path = NULL;
    if (!strncmp(text, "file:", 5)) {
        if (!text[5]) {
            snprintf(err, errlen, "'%s': file:PATH needs a path", text);
            return -1;
        }
        *path = text + 5;
        return WS_BUFFER_FILE;
    }
    int iota = !strncmp(text, "iota:", 5);
    if (!iota && strncmp(text, "zeros:", 6)) {
        snprintf(err, errlen, "'%s': a pointer takes zeros:N, iota:N or file:PATH", text);
        return -1;
    }
    const char *num = strchr(text, ':') + 1;
    if (whole_unsigned(num, n) || *n < 1 || *n > max) {
        snprintf(err, errlen, "'%s': N must be a whole number from 1 to %llu", text, max);
        return -1;
    }
    return iota ? WS_BUFFER_IOTA : WS_BUFFER_ZEROS;
}
