/* Comma-separated key=value settings that carry file names: the tools'
 * environment settings (WARPSCOPE_CAPTURE, WARPSCOPE_TRACE,
 * WARPSCOPE_WATCH, WARPSCOPE_PROFILE), which the warpscope commands write
 * and the tools, in the program, read. A value may be put in double
 * quotes, in which a comma is part of the value and \" and \\ stand for "
 * and \, as in ws_config_parse (docs/device.md): a file in a directory
 * whose name has a comma is out="/tmp/a,b/x.wscap". Until 2026-11-27 the
 * commands refused such names ("needs a value without commas"), a
 * relative -o too when the working directory had a comma.
 * Header only: the capture shim, a library of its own, uses it too. */
#ifndef WS_RUNTIME_SETTINGS_TEXT_H
#define WS_RUNTIME_SETTINGS_TEXT_H
#include <ctype.h>
#include <stddef.h>
#include <string.h>

/* One item of settings text at *p, up to the next separator outside
 * double quotes (a comma; with space_ends, white space too, as the device
 * settings have it), its quotes taken out, into item[cap] (cap >= 1);
 * *p moves to the separator or the end. Returns 1 for an item, -2 when it
 * does not fit in cap (item holds its start; *p still moves past it), -1
 * when a double quote is not closed. Shared by ws_config_parse and the
 * tools' settings below. */
static inline int ws_settings_item(const char **p, char *item, size_t cap, int space_ends)
{
    const char *s = *p;
    size_t n = 0;
    int quoted = 0, fits = 1;
    while (*s && (quoted || (*s != ',' && !(space_ends && isspace((unsigned char)*s))))) {
        char ch = *s++;
        if (ch == '"') { quoted = !quoted; continue; }
        if (quoted && ch == '\\' && (*s == '"' || *s == '\\')) ch = *s++;
        if (n + 1 < cap) item[n++] = ch;
        else fits = 0;
    }
    item[n] = 0;
    *p = s;
    return !fits ? -2 : quoted ? -1 : 1;
}

/* The next item of the settings at *p into item, which has room for
 * strlen of the whole text + 1, with its quotes taken out; *p moves past
 * it and its comma. Returns 1 for an item (maybe empty: ",,"), 0 at the
 * end, -1 when a double quote is not closed (item then holds the item's
 * text as far as it went). */
static inline int ws_settings_next(const char **p, char *item)
{
    if (!**p) return 0;
    const int r = ws_settings_item(p, item, strlen(*p) + 1, 0); /* (the item fits: see above) */
    if (**p == ',') (*p)++;
    return r;
}

/* Append ",key=value" (no comma first when *len is 0) to spec[size], the
 * value in double quotes when it holds a comma, a quote or a backslash
 * next to one. Returns 0, or -1 when it does not fit (spec is then cut). */
static inline int ws_settings_add(char *spec, size_t size, size_t *len, const char *key, const char *value)
{
    const int quote = strpbrk(value, ",\"") != NULL;
    size_t n = *len;
    const char *parts[2] = { *len ? "," : "", key };
    for (int k = 0; k < 2; k++)
        for (const char *c = parts[k]; *c; c++) {
            if (n + 1 >= size) return -1;
            spec[n++] = *c;
        }
    if (n + 2 >= size) return -1;
    spec[n++] = '=';
    if (quote) spec[n++] = '"';
    for (const char *c = value; *c; c++) {
        if (quote && (*c == '"' || *c == '\\')) {
            if (n + 1 >= size) return -1;
            spec[n++] = '\\';
        }
        if (n + 1 >= size) return -1;
        spec[n++] = *c;
    }
    if (quote) {
        if (n + 1 >= size) return -1;
        spec[n++] = '"';
    }
    spec[n] = 0;
    *len = n;
    return 0;
}
#endif
