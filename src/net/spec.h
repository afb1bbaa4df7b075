/* The option strings of the servers ("port=N,port-file=PATH,..."): the
 * gdb server (WARPSCOPE_DEBUG), the JTAG server (WARPSCOPE_JTAG) and the
 * frame debugger (replay --debug) walk them the same way. */
#ifndef WS_NET_SPEC_H
#define WS_NET_SPEC_H
#include <stddef.h>
#include "warpscope/warpscope.h"

/* One key=value of a spec: 0 if both are good (and taken), -1 if not. */
typedef int (*ws_spec_fn)(void *user, const char *key, const char *value);
/* Walk spec ("" or "1": nothing to do). A pair without '=' or one fn
 * refuses: WS_ERR_INVALID_ARG, "WHO: cannot use 'KEY=VALUE' (expected
 * EXPECTED)". */
ws_status ws_spec_parse(const char *spec, ws_spec_fn fn, void *user, const char *who, const char *expected, char *err,
                        size_t errlen);
/* value as a whole decimal number 0..max into *out: 0, or -1. */
int ws_spec_uint(const char *value, long max, long *out);

#endif
