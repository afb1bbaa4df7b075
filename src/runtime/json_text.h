/* Strings in the JSON the tools write (the profiler's document and
 * Perfetto trace, `warpscope trace --read`'s JSON lines and Perfetto
 * trace): paths, kernel and module names may hold quotes, backslashes,
 * control bytes and bytes that are not UTF-8. */
#ifndef WS_RUNTIME_JSON_TEXT_H
#define WS_RUNTIME_JSON_TEXT_H
#include <stdio.h>

/* The characters of s as they stand inside a JSON string (no quotes
 * around them; NULL writes nothing). A byte that is not part of valid
 * UTF-8 (a path in another encoding) is written as the code point of the
 * same number (\u00XX), so the document stays valid JSON and the byte
 * can still be told. */
void ws_json_chars(FILE *f, const char *s);
#endif
