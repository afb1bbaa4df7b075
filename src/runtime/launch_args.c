/* Integer kernel arguments: the values a parameter holds, and the one
 * refusal text ws_launch and `warpscope run` share (launch_args.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "device/number_text.h"
#include "runtime/api_lock.h"
#include "runtime/launch_args.h"

static int kind_is_signed(ws_param_kind k)
{
    return k == WS_PARAM_I8 || k == WS_PARAM_I16 || k == WS_PARAM_I32 || k == WS_PARAM_I64;
}

static unsigned kind_bits(ws_param_kind k)
{
    switch (k) {
    case WS_PARAM_I8: case WS_PARAM_U8: return 8;
    case WS_PARAM_I16: case WS_PARAM_U16: return 16;
    case WS_PARAM_I64: case WS_PARAM_U64: return 64;
    default: return 32;
    }
}

/* [lo, hi] of p's values, and a note on why when it is not plain C's. */
static void param_range(const ws_elf_param *p, int64_t *lo, uint64_t *hi, char *note, size_t len)
{
    const unsigned n = p->bits && p->bits < 64 ? p->bits : kind_bits(p->kind);
    const int is_signed = kind_is_signed(p->kind);
    *lo = !is_signed ? 0 : n == 64 ? INT64_MIN : -((int64_t)1 << (n - 1));
    *hi = is_signed ? ((uint64_t)1 << (n - 1)) - 1 : n == 64 ? UINT64_MAX : ((uint64_t)1 << n) - 1;
    *note = 0;
    if (p->is_bool) { /* the kernel would hold an invalid _Bool */
        *hi = 1;
        snprintf(note, len, " (a bool is 0 or 1)");
    } else if (p->bits && p->bits < 64) {
        snprintf(note, len, " (its %u bits)", p->bits);
    }
}

/* CUDA code ported from x86 expects a signed plain char. */
static const char *plain_char_note(const ws_elf_param *p, ws_int_value v)
{
    int plain_char = p->kind == WS_PARAM_U8 && v.negative && !p->is_bool && strstr(p->type_name, "char") &&
                     !strstr(p->type_name, "signed");
    return plain_char ? " (plain char is unsigned on RISC-V: declare it signed char)" : "";
}

static void out_of_range(const ws_elf_param *p, const char *value, const char *extra, char *why, size_t len)
{
    int64_t lo;
    uint64_t hi;
    char note[48];
    param_range(p, &lo, &hi, note, sizeof note);
    snprintf(why, len, "value %s is out of range %lld..%llu%s%s", value, (long long)lo, (unsigned long long)hi,
             note, extra);
}

int ws_param_int_fits(const ws_elf_param *p, ws_int_value v, char *why, size_t len)
{
    int64_t lo;
    uint64_t hi;
    char note[48], value[24];
    param_range(p, &lo, &hi, note, sizeof note);
    if (v.negative ? v.sv >= lo : v.uv <= hi) return 1;
    if (v.negative) snprintf(value, sizeof value, "%lld", (long long)v.sv);
    else snprintf(value, sizeof value, "%llu", (unsigned long long)v.uv);
    out_of_range(p, value, plain_char_note(p, v), why, len);
    return 0;
}

ws_status ws_arg_refused(ws_device *dev, const ws_kernel *k, uint32_t i, const char *why)
{
    const ws_elf_param *p = &k->meta->params[i];
    return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "launch of '%s': parameter %u '%s' has type '%s': %s", k->meta->name,
                        i, p->name, p->type_name, why);
}

/* The value of text, or -1 if it is not a whole number; 1 if it is one
 * too large for 64 bits. */
static int read_whole(const char *text, ws_int_value *v)
{
    char *end;
    const char *digits = text + (*text == '-' || *text == '+');
    if (!*digits || *digits == '-' || *digits == '+' || *digits == ' ') return -1;
    v->negative = *text == '-';
    errno = 0;
    if (v->negative) v->sv = strtoll(text, &end, ws_number_base(digits));
    else v->uv = strtoull(digits, &end, ws_number_base(digits));
    if (*end) return -1;
    if (v->negative && v->sv == 0) v->negative = 0, v->uv = 0; /* "-0" */
    return errno == ERANGE;
}

int ws_int_arg_parse(const ws_elf_param *p, const char *text, ws_arg *out, char *why, size_t len)
{
    ws_int_value v = { 0 };
    int r = read_whole(text, &v);
    if (r < 0) {
        snprintf(why, len, "'%s' is not a whole number", text);
        return -1;
    }
    if (r > 0) out_of_range(p, text, "", why, len);
    if (r > 0 || !ws_param_int_fits(p, v, why, len)) return -1;
    const uint64_t bits = v.negative ? (uint64_t)v.sv : v.uv;
    if (kind_bits(p->kind) == 64) *out = kind_is_signed(p->kind) ? WS_ARG_I64((int64_t)bits) : WS_ARG_U64(bits);
    else *out = kind_is_signed(p->kind) ? WS_ARG_I32((int32_t)bits) : WS_ARG_U32((uint32_t)bits);
    return 0;
}

ws_status ws_args_counted(ws_device *dev, const ws_kernel *k, size_t nargs)
{
    const ws_elf_kernel *m = k->meta;
    if (!m->has_params)
        return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "launch of '%s': the module has no parameter "
                            "information (DWARF) for this kernel: build it from C with 'warpscope cc' without -g0 (a kernel "
                            "written in assembly has none: call it from a C kernel)", m->name);
    if (nargs != m->nparams)
        return ws_set_error(dev, WS_ERR_BAD_LAUNCH, "launch of '%s': %zu argument%s given, the kernel "
                            "takes %u", m->name, nargs, nargs == 1 ? "" : "s", m->nparams);
    return WS_OK;
}

ws_status ws_arg_count_check(ws_device *dev, const ws_kernel *k, size_t nargs)
{
    WS_API_READ_LOCKED(dev, "ws_arg_count_check"); /* it writes the device's error message */
    return ws_args_counted(dev, k, nargs);
}

ws_status ws_int_arg_from_text(ws_device *dev, const ws_kernel *k, uint32_t i, const char *text, ws_arg *out)
{
    WS_API_READ_LOCKED(dev, "ws_int_arg_from_text"); /* it writes the device's error message */
    if (i >= k->meta->nparams)
        return ws_set_error(dev, WS_ERR_INVALID_ARG, "launch of '%s': the kernel has no parameter %u",
                            k->meta->name, i);
    char why[192];
    if (ws_int_arg_parse(&k->meta->params[i], text, out, why, sizeof why)) {
        ws_arg_refused(dev, k, i, why);
        return WS_ERR_INVALID_ARG;
    }
    return WS_OK;
}

int ws_param_pointee_bytes(const ws_kernel *k, uint32_t i, uint32_t *bytes, int *all_float)
{
    if (!k || i >= k->meta->nparams || k->meta->params[i].kind != WS_PARAM_PTR) return -1;
    *bytes = k->meta->params[i].pointee_bytes;
    *all_float = k->meta->params[i].pointee_all_float;
    return 0;
}
