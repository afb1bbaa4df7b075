/* Integer kernel arguments and their refusals, one text for ws_launch and
 * `warpscope run` (docs/api.md, "Launch arguments"):
 *   launch of 'K': parameter I 'P' has type 'T': value V is out of range LO..HI (note)
 * I counts from 0, as ws_kernel_param does. */
#ifndef WS_RUNTIME_LAUNCH_ARGS_H
#define WS_RUNTIME_LAUNCH_ARGS_H
#include <stddef.h>
#include <stdint.h>
#include "runtime/runtime.h"

/* An integer value: negative ones in sv, the others in uv. */
typedef struct ws_int_value {
    int negative;
    int64_t sv;
    uint64_t uv;
} ws_int_value;

/* Does v fit what parameter p holds: its C type's range, 0..1 for a bool,
 * N bits for a _BitInt(N)? If not, why receives "value V is out of range
 * LO..HI" and a note saying where the range comes from. */
int ws_param_int_fits(const ws_elf_param *p, ws_int_value v, char *why, size_t len);

/* Set dev's error for argument i of k, refused because of why. */
ws_status ws_arg_refused(ws_device *dev, const ws_kernel *k, uint32_t i, const char *why);

/* The argument for integer parameter p from text (decimal, or hex after
 * 0x): 0, or -1 with why set to the reason (the part of the text above
 * after the parameter) when it is not a whole number or does not fit. */
int ws_int_arg_parse(const ws_elf_param *p, const char *text, ws_arg *out, char *why, size_t len);

/* Does k have parameter information (DWARF), and is nargs the number of
 * its parameters? WS_OK, or WS_ERR_BAD_LAUNCH with dev's error set to the
 * reason, one text for ws_launch and `warpscope run`:
 *   launch of 'K': N arguments given, the kernel takes M
 * ws_args_counted: for ws_launch, which holds the API lock;
 * ws_arg_count_check: for `warpscope run`, takes it. */
ws_status ws_args_counted(ws_device *dev, const ws_kernel *k, size_t nargs);
ws_status ws_arg_count_check(ws_device *dev, const ws_kernel *k, size_t nargs);

/* `warpscope run`: the argument for integer parameter i of k, from text
 * (decimal, or hex after 0x). WS_ERR_INVALID_ARG, with dev's error in the
 * text above, when it is not a whole number or does not fit the parameter
 * (the full C type's range: stricter than ws_launch, which lets a 32- or
 * 64-bit argument's signedness differ from the parameter's). */
ws_status ws_int_arg_from_text(ws_device *dev, const ws_kernel *k, uint32_t i, const char *text, ws_arg *out);

/* `warpscope run`: bytes of the object pointer parameter i of k points to
 * (sizeof *p: a struct or union, long double, a complex, _Float16, where
 * ws_param_type's pointee_size is 0), 0 for void, a function or unknown;
 * *all_float: it is made of 32-bit floats only. -1 if i is not a pointer
 * parameter of k. (Kernel metadata never changes while the device is
 * open: no lock, as ws_kernel_param_count.) */
int ws_param_pointee_bytes(const ws_kernel *k, uint32_t i, uint32_t *bytes, int *all_float);
#endif
