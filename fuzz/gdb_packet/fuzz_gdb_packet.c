/* libFuzzer target for the gdb packet layer and command dispatcher
 * (src/gdbstub/rsp_packet.c and session*.c, compiled in with coverage):
 * the input is a raw byte stream from "gdb" fed to a session over the
 * in-memory fake target, then again through the view that makes gdb's
 * threads warps (src/gdbstub/warp_view.c, WARPSCOPE_DEBUG threads=warp)
 * over a fresh fake target whose threads it takes for lanes, two a warp.
 * Any crash, sanitizer report or leak is a finding; every reply sent must
 * be a well-formed packet or ack. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fake_target.h"
#include "device/debug/agent_expr.h"
#include "../gdb_reply_check.h"
#include "gdbstub/session.h"
#include "gdbstub/warp_view.h"

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

/* One gdb session over target t, fed in two chunks so packets split
 * across reads are covered. */
static void session(const ws_gdb_target_ops *ops, void *t, const uint8_t *data, size_t size)
{
    ws_gdb_session *s;
    if (ws_gdb_session_new(ops, t, fuzz_check_gdb_reply, NULL, &s)) return;
    size_t half = size / 2;
    ws_gdb_session_input(s, data, half);
    ws_gdb_session_poll(s, 0);
    ws_gdb_session_input(s, data + half, size - half);
    ws_gdb_session_poll(s, 0);
    ws_gdb_session_free(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fake_target ft;
    /* The same bytes as a breakpoint condition (agent expression). */
    ws_ax_env env = { NULL, ax_reg, ax_mem };
    int64_t r;
    ws_ax_eval(data, size, &env, &r); /* large; reset per input */
    fake_init(&ft);
    session(&fake_ops, &ft, data, size);
    /* gdb threads that are warps, over lanes that are the fake's threads */
    ws_gdb_warp_view v;
    fake_init(&ft);
    if (ws_gdb_warp_view_init(&v, &fake_ops, &ft, 2, 2) != WS_OK) abort();
    session(&ws_gdb_warp_view_ops, &v, data, size);
    ws_gdb_warp_view_fini(&v);
    return 0;
}
