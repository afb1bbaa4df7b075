/* The public ws_device_open: a runtime device, then the tools the
 * environment asks for (env_tools.c). It lives above the runtime so the
 * runtime includes and calls no tool. */
#include <stdint.h>
#include <stdio.h>
#include "attach/env_tools.h"
#include "attach/link_note.h"
#include "runtime/runtime.h"

/* Whatever links ws_device_open in links this note in with it (same
 * object): the static library's mark in a program, kept through strip and,
 * where the compiler can say so (retain), through --gc-sections. The
 * layout is the ELF note's: sizes, type, name and descriptor padded to 4. */
#if defined(__has_attribute)
#if __has_attribute(retain)
#define WS_RETAIN __attribute__((retain))
#endif
#endif
#ifndef WS_RETAIN
#define WS_RETAIN
#endif
static const struct {
    uint32_t namesz, descsz, type;
    char name[12];
    char desc[4];
} link_note __attribute__((used, section(WS_LINK_NOTE_SECTION), aligned(4))) WS_RETAIN = {
    sizeof WS_LINK_NOTE_NAME, 4, WS_LINK_NOTE_TYPE, WS_LINK_NOTE_NAME, "lib"
};

ws_status ws_device_open(const ws_config *cfg, ws_device **out)
{
    ws_status st = ws_runtime_device_open(cfg, out);
    if (st != WS_OK) return st;
    st = ws_env_tools_attach(*out);
    if (st != WS_OK) { /* a tool the user asked for is missing: say so */
        fprintf(stderr, "warpscope: %s\n", ws_last_error(*out));
        ws_device_close(*out);
        *out = NULL;
    }
    return st;
}
