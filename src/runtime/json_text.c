/* Escaping for the tools' JSON (json_text.h). */
#include "runtime/json_text.h"

/* The length of the valid UTF-8 sequence at p (1..4), or 0 if the bytes
 * there are not one (a stray continuation, an overlong form, a surrogate,
 * a code point past U+10FFFF, or a sequence cut short). */
static int utf8_length(const unsigned char *p)
{
    const unsigned c = p[0];
    const int n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (!n) return 0;
    for (int i = 1; i < n; i++)
        if ((p[i] & 0xC0) != 0x80) return 0;
    if (n == 3 && ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0))) return 0;
    if (n == 4 && ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] >= 0x90))) return 0;
    return n;
}

void ws_json_chars(FILE *f, const char *s)
{
    if (!s) return;
    for (const unsigned char *p = (const unsigned char *)s; *p;) {
        int n;
        if (*p == '"' || *p == '\\') fprintf(f, "\\%c", *p++);
        else if (*p < 0x20 || *p == 0x7F) fprintf(f, "\\u%04x", *p++);
        else if (*p < 0x80) fputc(*p++, f);
        else if ((n = utf8_length(p))) fwrite(p, 1, (size_t)n, f), p += n;
        else fprintf(f, "\\u%04x", *p++);
    }
}
