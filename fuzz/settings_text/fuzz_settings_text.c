/* libFuzzer target for the settings a user types or a program inherits
 * through the environment: the device configuration (WARPSCOPE_CONFIG,
 * ws_config_parse then ws_config_validate), timing-model parameter files,
 * the profiler's options, the capture shim's WARPSCOPE_CAPTURE, the event
 * watcher's event lists and the servers' option strings (WARPSCOPE_DEBUG,
 * WARPSCOPE_JTAG), a debug machine's text (`warpscope watch --on`,
 * WARPSCOPE_WATCH_MACHINES, gdb's `monitor watch`), the whole
 * WARPSCOPE_WATCH setting, and `warpscope run`'s numbers and buffers.
 * Byte 0 picks the parser, the rest is the text (cut at its first NUL). A crash, a sanitizer report, a leak, or a refusal
 * without a message is a finding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "capture/shim/shim_spec.h"
#include "device/timing.h"
#include "net/spec.h"
#include "profile/prof_internal.h"
#include "run_args.h"
#include "runtime/launch_args.h"
#include "watch/watch.h"
#include "warpscope/events.h"
#include "warpscope/warpscope.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int refused_silently(int failed, const char *err)
{
    return failed && !err[0];
}

/* A server's keys: two numbers and a path, as WARPSCOPE_JTAG has. */
static int server_key(void *user, const char *key, const char *value)
{
    long n;
    (void)user;
    if (!strcmp(key, "port")) return ws_spec_uint(value, 65535, &n);
    if (!strcmp(key, "idle")) return ws_spec_uint(value, 7, &n);
    return strcmp(key, "port-file") || !*value ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    char *text = malloc(size); /* the rest, NUL-terminated */
    if (!text) return 0;
    memcpy(text, data + 1, size - 1);
    text[size - 1] = 0;
    char err[512] = "";
    int bad = 0;
    switch (data[0] % 10) {
    case 0: {
        ws_config c;
        ws_config_default(&c);
        bad = refused_silently(ws_config_parse(&c, text, err, sizeof err) != WS_OK, err);
        err[0] = 0;
        if (!bad) bad = refused_silently(ws_config_validate(&c, err, sizeof err) != WS_OK, err);
        break;
    }
    case 1: {
        ws_timing_params p;
        ws_timing_params_default(&p);
        bad = refused_silently(ws_timing_params_parse(&p, text, "fuzz.timing", err, sizeof err) != 0, err);
        break;
    }
    case 2: {
        prof_options o;
        memset(&o, 0, sizeof o);
        bad = refused_silently(prof_options_parse(text, &o, err, sizeof err) != 0, err);
        prof_options_free(&o);
        break;
    }
    case 3: {
        shim_spec s;
        bad = refused_silently(shim_spec_parse(text, &s, err, sizeof err) != 0, err);
        break;
    }
    case 4: {
        uint16_t mask[WS_EV_SOURCES] = { 0 };
        bad = refused_silently(ws_watch_parse_events(text, mask, err, sizeof err) != 0, err);
        break;
    }
    case 6: {
        ws_machine_program p;
        int print;
        bad = refused_silently(ws_events_parse_machine(text, &p, &print, err, sizeof err) != WS_OK, err);
        break;
    }
    case 7:
        bad = refused_silently(ws_watch_check_spec(text, err, sizeof err) != 0, err);
        break;
    case 8: { /* warpscope run: grid and block, sizes, pointers */
        ws_dim3 d;
        unsigned long long v;
        bad = refused_silently(ws_parse_dim3(text, &d, err, sizeof err) != 0, err);
        err[0] = 0;
        if (!bad) bad = refused_silently(ws_parse_u64(text, 1ull << 32, &v, err, sizeof err) != 0, err);
        err[0] = 0;
        const char *path;
        if (!bad) bad = refused_silently(ws_parse_buffer(text, 1ull << 26, &v, &path, err, sizeof err) < 0, err);
        break;
    }
    case 9: { /* warpscope run: a scalar of each parameter type, through the launch's own rule */
        static const ws_elf_param params[] = {
            { .type_name = "signed char", .kind = WS_PARAM_I8 },
            { .type_name = "char", .kind = WS_PARAM_U8 },
            { .type_name = "_Bool", .kind = WS_PARAM_U8, .is_bool = 1 },
            { .type_name = "short", .kind = WS_PARAM_I16 },
            { .type_name = "unsigned short", .kind = WS_PARAM_U16 },
            { .type_name = "int", .kind = WS_PARAM_I32 },
            { .type_name = "unsigned int", .kind = WS_PARAM_U32 },
            { .type_name = "long long", .kind = WS_PARAM_I64 },
            { .type_name = "unsigned long long", .kind = WS_PARAM_U64 },
            { .type_name = "_BitInt(12)", .kind = WS_PARAM_I16, .bits = 12 },
            { .type_name = "unsigned _BitInt(33)", .kind = WS_PARAM_U64, .bits = 33 },
        };
        for (size_t i = 0; i < sizeof params / sizeof params[0] && !bad; i++) {
            ws_arg a;
            err[0] = 0;
            bad = refused_silently(ws_int_arg_parse(&params[i], text, &a, err, sizeof err) != 0, err);
        }
        for (int is_double = 0; is_double < 2 && !bad; is_double++) {
            ws_arg a;
            err[0] = 0;
            bad = refused_silently(ws_parse_float_arg(text, is_double, &a, err, sizeof err) != 0, err);
        }
        break;
    }
    default:
        bad = refused_silently(ws_spec_parse(text, server_key, NULL, "fuzz", "port=N, idle=N, port-file=PATH", err,
                                             sizeof err) != WS_OK, err);
        break;
    }
    free(text);
    if (bad) abort();
    return 0;
}
