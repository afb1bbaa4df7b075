/* libFuzzer target for the gdb packet layer and command dispatcher
 * (src/gdbstub/rsp_packet.c and session*.c, compiled in with coverage):
 * the input is a raw byte stream from "gdb" fed to a session over the
 * in-memory fake target. Any crash, sanitizer report or leak is a
 * finding; every reply sent must be a well-formed packet or ack. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fake_target.h"
#include "device/debug/agent_expr.h"
#include "../gdb_reply_check.h"
#include "gdbstub/session.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int ax_reg(void *u, uint32_t r, uint64_t *v)
{
    (void)u;
    *v = r * 3u;
    return r > 200 ? -1 : 0;
}

static int ax_mem(void *u, uint32_t a, uint8_t *b, size_t n)
{
    (void)u;
    memset(b, (int)(a & 0xff), n);
    return a < 16 ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fake_target ft;
    /* The same bytes as a breakpoint condition (agent expression). */
    ws_ax_env env = { NULL, ax_reg, ax_mem };
    int64_t r;
    ws_ax_eval(data, size, &env, &r); /* large; reset per input */
    ws_gdb_session *s;
    fake_init(&ft);
    if (ws_gdb_session_new(&fake_ops, &ft, fuzz_check_gdb_reply, NULL, &s)) return 0;
    /* Feed in two chunks so packets split across reads are covered. */
    size_t half = size / 2;
    ws_gdb_session_input(s, data, half);
    ws_gdb_session_poll(s, 0);
    ws_gdb_session_input(s, data + half, size - half);
    ws_gdb_session_poll(s, 0);
    ws_gdb_session_free(s);
    return 0;
}
