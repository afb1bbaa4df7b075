/* Parsing WARPSCOPE_CAPTURE (shim_spec.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "capture/shim/shim_spec.h"
#include "runtime/settings_text.h"

static int number(const char *p, const char **end, uint64_t *out)
{
    if (*p < '0' || *p > '9') return -1;
    char *e;
    errno = 0;
    unsigned long long v = strtoull(p, &e, 10);
    if (errno) return -1;
    *out = v;
    *end = e;
    return 0;
}

/* "A" or "A-B" with A <= B, nothing after. */
static int range(const char *p, uint64_t *a, uint64_t *b)
{
    const char *e;
    if (number(p, &e, a)) return -1;
    *b = *a;
    if (*e == '-' && number(e + 1, &e, b)) return -1;
    return *e || *b < *a ? -1 : 0;
}

int shim_spec_parse_frames(const char *text, shim_spec *s, char *err, size_t errlen)
{
    if (!strcmp(text, "all")) { s->kind = SHIM_FRAMES_ALL; return 0; }
    if (!strcmp(text, "key")) { s->kind = SHIM_FRAMES_KEY; return 0; }
    if (!strncmp(text, "launches=", 9)) {
        s->kind = SHIM_FRAMES_LAUNCHES;
        if (!range(text + 9, &s->first, &s->last)) return 0;
    } else {
        s->kind = SHIM_FRAMES_RANGE;
        if (!range(text, &s->first, &s->last)) return 0;
    }
    snprintf(err, errlen, "frames '%s': expected N, A-B (A <= B), all, key or launches=A-B", text);
    return -1;
}

int shim_spec_parse(const char *text, shim_spec *s, char *err, size_t errlen)
{
    memset(s, 0, sizeof *s);
    char item[8192];
    if (strlen(text) >= sizeof item) { snprintf(err, errlen, "the setting is too long"); return -1; }
    for (int got; (got = ws_settings_next(&text, item)) != 0;) {
        if (got < 0) { snprintf(err, errlen, "'%.200s': a double quote is not closed", item); return -1; }
        if (!item[0]) continue;
        if (!strncmp(item, "out=", 4)) {
            if (!item[4] || strlen(item + 4) >= sizeof s->out) { snprintf(err, errlen, "out: expected a file name"); return -1; }
            strcpy(s->out, item + 4);
        } else if (!strncmp(item, "status=", 7)) {
            if (!item[7] || strlen(item + 7) >= sizeof s->status) { snprintf(err, errlen, "status: expected a file name"); return -1; }
            strcpy(s->status, item + 7);
        } else if (!strncmp(item, "frames=", 7)) {
            if (shim_spec_parse_frames(item + 7, s, err, errlen)) return -1;
        } else {
            snprintf(err, errlen, "'%s': expected out=FILE, frames=SPEC or status=FILE", item);
            return -1;
        }
    }
    if (!s->out[0]) { snprintf(err, errlen, "out=FILE is required"); return -1; }
    return 0;
}
