/* Strict parsing of `warpscope run`'s command line: every number must be
 * whole, in range and of the parameter's type, or the command says which
 * argument is wrong (tools/run_args.c). */
#ifndef WS_TOOLS_RUN_ARGS_H
#define WS_TOOLS_RUN_ARGS_H
#include <stddef.h>
#include "warpscope/warpscope.h"

/* "X", "X,Y" or "X,Y,Z": each a whole number 1..UINT32_MAX. */
int ws_parse_dim3(const char *text, ws_dim3 *out, char *err, size_t errlen);
/* A whole unsigned number 0..max (decimal, or hex after 0x; a leading 0 is
 * not octal). */
int ws_parse_u64(const char *text, unsigned long long max, unsigned long long *out, char *err, size_t errlen);
/* A float or double kernel argument (integers: ws_int_arg_parse, with the
 * launch's own range rule and message, src/runtime/launch_args.h). */
int ws_parse_float_arg(const char *text, int is_double, ws_arg *out, char *err, size_t errlen);
/* zeros:N or iota:N (N = 1..max elements), or file:PATH (*path: PATH,
 * read by the caller). Returns the kind, or -1 on error. */
enum { WS_BUFFER_ZEROS, WS_BUFFER_IOTA, WS_BUFFER_FILE };
int ws_parse_buffer(const char *text, unsigned long long max, unsigned long long *n, const char **path, char *err,
                    size_t errlen);

#endif
